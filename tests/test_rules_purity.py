"""The rules engine stays pure: no web framework, no database, no I/O, and strictly typed.

The web pages, the JSON API and the database all call ``scorekeeper.rules``; it must be
usable (and testable) without any of them.
"""

from __future__ import annotations

import ast
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
RULES_DIR = ROOT / "scorekeeper" / "rules"

#: Web framework and database packages the engine must not know about.
FRAMEWORKS = frozenset({"flask", "werkzeug", "jinja2", "wtforms", "sqlalchemy", "flask_sqlalchemy"})
#: Modules whose only purpose is I/O (files, processes, network, database).
IO_MODULES = frozenset(
    {"os", "pathlib", "io", "socket", "subprocess", "requests", "urllib", "sqlite3"}
)
FORBIDDEN = FRAMEWORKS | IO_MODULES


def rules_sources() -> list[Path]:
    """Every Python source file of the rules package, subpackages included."""
    return sorted(RULES_DIR.rglob("*.py"))


def _leaves_the_engine(name: str) -> bool:
    """Whether an absolute import reaches a forbidden module or the app around the engine."""
    top = name.split(".")[0]
    if top == "scorekeeper":
        return name != "scorekeeper.rules" and not name.startswith("scorekeeper.rules.")
    return top in FORBIDDEN


def forbidden_imports(source: str, *, depth: int = 0) -> list[str]:
    """The imports in ``source`` that break purity, as written.

    ``depth`` is how many folders below ``scorekeeper/rules`` the module lives: a relative
    import may climb to the rules package but not out of it, into the app.
    """
    bad: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if node.level > depth + 1:
                    bad.append("." * node.level + (node.module or ""))
                continue
            names = [node.module or ""]
        else:
            continue
        bad += [name for name in names if _leaves_the_engine(name)]
    return bad


def test_finds_every_rules_module() -> None:
    """The walk covers the modules pkgutil sees in the package (so none escapes the check)."""
    walked = {path.stem for path in rules_sources() if path.parent == RULES_DIR}
    listed = {info.name for info in pkgutil.iter_modules([str(RULES_DIR)])}
    assert listed <= walked | {"__init__"}
    assert {"__init__", "variants", "scoring", "game"} <= walked


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("import flask", ["flask"]),
        ("from sqlalchemy.orm import Session", ["sqlalchemy.orm"]),
        ("import os.path", ["os.path"]),
        ("from pathlib import Path", ["pathlib"]),
        ("def f():\n    import urllib.request\n", ["urllib.request"]),
        ("from ..store import db", ["..store"]),
        ("from scorekeeper.web import forms", ["scorekeeper.web"]),
        ("from . import scoring\nimport enum\nfrom dataclasses import dataclass", []),
        ("from scorekeeper.rules import CLASSIC", []),
        ("import scorekeeper.rulesets", ["scorekeeper.rulesets"]),
    ],
)
def test_checker_catches_forbidden_imports(source: str, bad: list[str]) -> None:
    """The purity check itself can fail: it spots each kind of forbidden import."""
    assert forbidden_imports(source) == bad


@pytest.mark.parametrize("path", rules_sources(), ids=lambda path: str(path.relative_to(RULES_DIR)))
def test_rules_module_is_pure(path: Path) -> None:
    """No rules module imports a web framework, the database or an I/O module."""
    depth = len(path.relative_to(RULES_DIR).parts) - 1
    assert forbidden_imports(path.read_text(encoding="utf-8"), depth=depth) == []


def test_rules_package_passes_mypy_strict(tmp_path: Path) -> None:
    """``mypy --strict`` accepts the rules package.

    The package is checked on its own, copied out of the tree: run in place, mypy also
    checks the ancestor ``scorekeeper/__init__.py`` and what it imports (the web layer),
    which is not part of the engine. Checked alone, an import from the rest of the app
    would fail too.
    """
    shutil.copytree(RULES_DIR, tmp_path / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--python-version",
            "3.11",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            "rules",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
