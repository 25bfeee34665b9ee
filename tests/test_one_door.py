"""One door: every write is a command of ``scorekeeper/store/changes``, which ends in its
commit step (versions, cached totals, the change log, the request key done there once).

A module anywhere else that adds, deletes or merges through the session, commits, builds a
write statement (``insert``, ``update``, ``delete``) or moves a version by hand would write
around that step; this test reads every module's syntax and fails on one (issue 41).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "scorekeeper"
DOOR = PACKAGE / "store" / "changes"
#: The door's commit step: the one place a game's, a person's or an evening's version moves
#: (a deal's own moves with its edit: the change log's snapshot of the deal keeps it).
COMMIT_STEP = DOOR / "commit.py"
KEPT_BY_THE_COMMIT_STEP = ("game", "person", "evening")
#: Schema migrations change tables, not the app's data through its commands.
MIGRATIONS = PACKAGE / "migrations"
#: The transaction itself: ``store.db.transaction`` commits what a command wrote.
TRANSACTION = PACKAGE / "store" / "db.py"

#: The session's writing methods.
SESSION_WRITES = frozenset(
    {
        "add",
        "add_all",
        "delete",
        "merge",
        "commit",
        "bulk_save_objects",
        "bulk_insert_mappings",
        "bulk_update_mappings",
    }
)
#: SQLAlchemy's builders of write statements.
STATEMENTS = frozenset({"insert", "update", "delete"})


def _session(node: ast.expr) -> bool:
    """Whether ``node`` names a session: ``db.session``, ``session``, ``self.session``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "session"
    return isinstance(node, ast.Name) and node.id == "session"


def _version_bumped(value: ast.expr) -> bool:
    """``something.version + n``: a version moved by hand."""
    return (
        isinstance(value, ast.BinOp)
        and isinstance(value.op, ast.Add)
        and any(
            isinstance(side, ast.Attribute | ast.Name)
            and (side.attr if isinstance(side, ast.Attribute) else side.id) == "version"
            for side in (value.left, value.right)
        )
    )


def writes(source: str, *, transaction: bool = False) -> list[str]:
    """The writes in ``source`` that go around the door, as ``line: what``. In the
    transaction's own module (``transaction``) its commit is no write of its own."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        what = None
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
            built = sorted(alias.name for alias in node.names if alias.name in STATEMENTS)
            what = f"imports {', '.join(built)} from {node.module}" if built else None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method in SESSION_WRITES and _session(node.func.value):
                if not (transaction and method == "commit"):
                    what = f"session.{method}()"
            elif method in STATEMENTS and not node.args and not node.keywords:
                what = f"{ast.unparse(node.func)}() (a write statement)"
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute):
            if node.target.attr == "version":
                what = f"{ast.unparse(node.target)} += (a version moved by hand)"
        elif isinstance(node, ast.Assign) and _version_bumped(node.value):
            what = f"{ast.unparse(node)} (a version moved by hand)"
        elif (
            isinstance(node, ast.keyword) and node.arg == "version" and _version_bumped(node.value)
        ):
            what = f"version={ast.unparse(node.value)} (a version moved by hand)"
        if what is not None:
            found.append(f"{getattr(node, 'lineno', '?')}: {what}")
    return found


def outside_the_door() -> list[Path]:
    """Every module of the package but the door's and the migrations'."""
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if not path.is_relative_to(DOOR) and not path.is_relative_to(MIGRATIONS)
    )


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("db.session.add(game)", ["1: session.add()"]),
        ("db.session.add_all(people)", ["1: session.add_all()"]),
        ("db.session.delete(game)", ["1: session.delete()"]),
        ("session.merge(person)", ["1: session.merge()"]),
        ("db.session.commit()", ["1: session.commit()"]),
        ("from sqlalchemy import select, update", ["1: imports update from sqlalchemy"]),
        ("from sqlalchemy.sql import insert as ins", ["1: imports insert from sqlalchemy.sql"]),
        (
            "db.session.execute(Game.__table__.delete())",
            ["1: Game.__table__.delete() (a write statement)"],
        ),
        ("game.version += 1", ["1: game.version += (a version moved by hand)"]),
        (
            "game.version = game.version + 1",
            ["1: game.version = game.version + 1 (a version moved by hand)"],
        ),
        (
            "values(version=Game.version + 1)",
            ["1: version=Game.version + 1 (a version moved by hand)"],
        ),
        # Reads, and what only looks like a write, pass.
        ("from sqlalchemy import select, func\ndb.session.scalar(select(Game))", []),
        ("headers.update(retry)\nseen.add(key)\nresponse.delete_cookie('x')", []),
        ("etag = f'{game.version}'\nversion = game.version", []),
        ("db.session.flush()\ndb.session.rollback()", []),
    ],
)
def test_the_check_finds_each_kind_of_write(source: str, found: list[str]) -> None:
    """The door check itself can fail: it spots each way to write around the door."""
    assert writes(source) == found


def test_the_transaction_commits_what_a_command_wrote() -> None:
    """``store.db.transaction`` commits; the same line anywhere else is a write."""
    assert writes("session.commit()", transaction=True) == []
    assert writes("session.add(game)", transaction=True) == ["1: session.add()"]


def test_the_walk_covers_the_package() -> None:
    """Every layer is read (so no module escapes the check), the door's own are not."""
    walked = {path.relative_to(PACKAGE).parts[0] for path in outside_the_door()}
    assert {"store", "web", "api", "rules", "cli.py"} <= walked
    assert not any(path.is_relative_to(DOOR) for path in outside_the_door())
    assert PACKAGE / "backup" / "restore.py" in outside_the_door()


@pytest.mark.parametrize(
    "path", outside_the_door(), ids=lambda path: str(path.relative_to(PACKAGE))
)
def test_nothing_outside_the_door_writes(path: Path) -> None:
    """No module outside ``store/changes`` writes through the session or moves a version."""
    source = path.read_text(encoding="utf-8")
    assert writes(source, transaction=path == TRANSACTION) == []


@pytest.mark.parametrize(
    "path",
    sorted(path for path in DOOR.glob("*.py") if path != COMMIT_STEP),
    ids=lambda path: path.name,
)
def test_only_the_commit_step_moves_a_version(path: Path) -> None:
    """Inside the door too, a command leaves versions to the commit step (``commit``,
    ``commit_games``, ``commit_evening``): none moves one by hand."""
    moved = [
        found
        for found in writes(path.read_text(encoding="utf-8"))
        if any(f"{owner}.version" in found.lower() for owner in KEPT_BY_THE_COMMIT_STEP)
    ]
    assert moved == []
