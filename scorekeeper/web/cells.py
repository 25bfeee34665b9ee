"""Spreadsheet cells the players' words go into (a game's sheet, an evening's standings):
text a spreadsheet would run as a formula (a name such as ``=HYPERLINK(...)``) is written
with a leading apostrophe; figures stay numbers, negative ones too."""

from __future__ import annotations

#: What a spreadsheet reads as the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | None


def neutral(value: Cell) -> Cell:
    """A cell as it is safe to write."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value
