"""One word, one type: docs/GLOSSARY.md names the type each domain word is, and the
package's source (read with ``ast``, not imported) holds each where it says and no second
class of that name, so a word a reader has learnt means the same thing in every module."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
GLOSSARY = ROOT / "docs" / "GLOSSARY.md"
#: A table row's type column: `module.Class`, a path under scorekeeper/.
TYPE = re.compile(r"^\|[^|]+\|\s*`([a-z_.]+)\.([A-Z]\w*)`\s*\|", re.MULTILINE)
#: Second classes a test pins by name: the OpenAPI component ``Side`` (the body of a new
#: game's side) is read by name in tests/test_api_schema.py.
PINNED = {("Side", "api/schemas.py")}


def listed(text: str) -> list[tuple[str, str]]:
    """Each type the glossary lists: its module's dotted path and its name."""
    return TYPE.findall(text)


def module_file(root: Path, dotted: str) -> Path:
    """The file of ``dotted`` (``store.models``) in the package at ``root``."""
    path = root.joinpath(*dotted.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def top_level_names(tree: ast.Module) -> set[str]:
    """What a module defines at its top: classes, and aliases (``Entrant = tuple[...]``)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def classes(root: Path) -> Iterator[tuple[str, Path]]:
    """Every class (dataclasses, models, named tuples, nested ones too) in the package at
    ``root``: its name and its file."""
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                yield node.name, path


def misnamed(glossary: str, root: Path = PACKAGE) -> list[str]:
    """What is wrong between the glossary and the package at ``root``: a listed type not
    defined where it says, or a second class with a listed name."""
    problems: list[str] = []
    homes: dict[str, Path] = {}
    for module, name in listed(glossary):
        path = module_file(root, module)
        if not path.is_file() or name not in top_level_names(ast.parse(path.read_text())):
            problems.append(f"{module}.{name}: not defined there")
        homes[name] = path
    for name, path in classes(root):
        where = path.relative_to(root).as_posix()
        if name in homes and path != homes[name] and (name, where) not in PINNED:
            home = homes[name].relative_to(root).as_posix()
            problems.append(f"{where}: a second class {name} (the glossary's is in {home})")
    return problems


def test_the_glossary_lists_the_domain_words() -> None:
    names = {name for _, name in listed(GLOSSARY.read_text())}
    assert len(names) == len(listed(GLOSSARY.read_text())), "a type listed twice"
    assert {"Game", "Side", "Seat", "Deal", "Setup", "EveningTable", "RequestKey"} <= names


def test_each_listed_type_is_the_only_class_of_its_name() -> None:
    assert misnamed(GLOSSARY.read_text()) == []


def test_a_second_class_of_a_listed_name_fails(tmp_path: Path) -> None:
    """The check itself: a dataclass ``Seat`` planted beside the rules' one is found, and so
    is a listed type that moved."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "game.py").write_text("class Seat:\n    side: int\n")
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "players.py").write_text(
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Seat:\n    game_id: str\n"
    )
    glossary = "| seat | `rules.game.Seat` | A place at the table. | |\n"
    assert misnamed(glossary, tmp_path) == [
        "store/players.py: a second class Seat (the glossary's is in rules/game.py)"
    ]
    moved = "| seat | `rules.seats.Seat` | A place at the table. | |\n"
    assert misnamed(moved, tmp_path)[0] == "rules.seats.Seat: not defined there"
