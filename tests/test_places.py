"""Where things live (issue 41): files of a size one can read, the seating helpers in their
own module, each page's scripts named by its markup, and a POST form's button busy while
it sends (htmx's ``hx-disabled-elt``, not a script of ours)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: No file of the package or of static/ longer than this (DESIGN.md: a file one can read).
MOST_LINES = 600
#: Still over it, each with what takes it under.
OVER: dict[str, str] = {}
POST_FORM = re.compile(r"<form\b[^>]*\bmethod=\"post\"[^>]*>", re.IGNORECASE)


def own_files() -> list[Path]:
    """The package's and static/'s own source, not vendored or generated files."""
    suffixes = {".py", ".js", ".css", ".html"}
    return [
        path
        for folder in ("scorekeeper", "static")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in suffixes and "vendor" not in path.parts
    ]


def test_no_file_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in own_files()
        if (lines := len(path.read_text().splitlines())) > MOST_LINES
    }
    assert set(long) <= set(OVER), long


def test_the_seating_helpers_come_from_places() -> None:
    """``Place`` and ``sheet_places`` are defined once, in web/places.py, and no page
    imports them from another page's views."""
    defined: dict[str, list[str]] = {}
    for path in (ROOT / "scorekeeper").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name in (
                "Place",
                "sheet_places",
            ):
                defined.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
            if isinstance(node, ast.ImportFrom) and {"Place", "sheet_places"} & {
                alias.name for alias in node.names
            }:
                assert (node.module or "").endswith("places"), (path, node.module)
    assert defined == {
        "Place": ["scorekeeper/web/places.py"],
        "sheet_places": ["scorekeeper/web/places.py"],
    }


def test_a_post_forms_button_is_busy_while_it_sends() -> None:
    """A double tap on Save sends one deal: htmx disables the form's button until the
    answer (and gives it back on an error, and in the history's copy of the page)."""
    forms = [
        (path.name, tag)
        for path in (ROOT / "templates").rglob("*.html")
        for tag in POST_FORM.findall(path.read_text())
    ]
    assert len(forms) > 10
    # Not passed on to a request of a part inside (the live line, a seat draw), in which
    # htmx would look for a button in vain, and say so in the console.
    busy = ('hx-disabled-elt="find button[type=submit]"', 'hx-disinherit="hx-disabled-elt"')
    lacking = [(name, tag) for name, tag in forms if not all(word in tag for word in busy)]
    assert not lacking, lacking


def test_every_script_a_page_names_is_in_static() -> None:
    """``data-needs-script`` names a file of static/ (app.js loads it, once)."""
    named = {
        name
        for path in (ROOT / "templates").rglob("*.html")
        for name in re.findall(
            r"data-needs-script=\"\{\{ static_url\('([^']+)'\) \}\}\"", path.read_text()
        )
    }
    assert {"steppers.js", "cards.js", "new_game.js", "share.js", "evening.js"} <= named
    assert all((ROOT / "static" / name).is_file() for name in named), named
