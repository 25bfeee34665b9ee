"""An evening's standings as a file (issue 44): CSV and a spreadsheet (XlsxWriter), each
with the standings and every round's tables, headed in the request's language.

Names are the players' own words: text a spreadsheet would run as a formula (a name such as
``=HYPERLINK(...)``) is neutralised, a leading apostrophe in the CSV and the same quote
prefix in the spreadsheet, while figures are written as numbers, negative ones too.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from typing import Any

import xlsxwriter
from flask_babel import gettext as _

from ...rules import Format
from ...store.evenings import EveningView
from ..cells import FORMULA_START, Cell, neutral


def _who(evening: EveningView) -> str:
    return _("Pair") if evening.format is Format.PAIRS else _("Player")


def standings_rows(evening: EveningView) -> tuple[list[str], list[list[Cell]]]:
    """The standings' header and rows, best first (as the pages rank them)."""
    vp = evening.scale is not None
    header = [_("Place"), _who(evening)]
    header += [_("Victory points")] if vp else []
    header += [
        _("Match points"),
        _("Difference"),
        _("Won"),
        _("Drawn"),
        _("Lost"),
        _("Byes"),
        _("Points scored"),
    ]
    rows: list[list[Cell]] = []
    for place, line in enumerate(evening.standings, start=1):
        row: list[Cell] = [place, " & ".join(line.players)]
        row += [line.victory_points] if vp else []
        row += [
            line.match_points,
            line.difference,
            line.won,
            line.drawn,
            line.lost,
            line.byes,
            line.points,
        ]
        rows.append(row)
    return header, rows


def table_rows(evening: EveningView) -> tuple[list[str], list[list[Cell]]]:
    """Every round's tables, a row per side: its round, table, players, deals played,
    total and (by victory points) VP once the table finished; each bye a row too."""
    vp = evening.scale is not None
    who = _("Pair") if evening.format is Format.PAIRS else _("Players")
    header = [_("Round"), _("Table"), who, _("Deals"), _("Side's total")]
    header += [_("Victory points")] if vp else []
    rows: list[list[Cell]] = []
    for round_ in evening.played:
        for table in round_.tables:
            points = table.victory_points or (None,) * len(table.sides)
            for side, side_vp in zip(table.sides, points, strict=True):
                row: list[Cell] = [
                    round_.number,
                    table.number,
                    " & ".join(side.players),
                    table.deals,
                    side.total,
                ]
                rows.append(row + ([side_vp] if vp else []))
        for bye in round_.byes:
            row = [round_.number, _("Bye"), " & ".join(bye), None, None]
            rows.append(row + ([evening.bye_vp] if vp else []))
    return header, rows


def _parts(evening: EveningView) -> Iterator[tuple[list[str], list[list[Cell]]]]:
    yield standings_rows(evening)
    yield table_rows(evening)


def standings_csv(evening: EveningView) -> bytes:
    """The standings, a blank line, then the tables: UTF-8 with the byte-order mark that
    tells spreadsheets so."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([neutral(evening.name), evening.created_at.strftime("%Y-%m-%d")])
    for header, rows in _parts(evening):
        writer.writerow([])
        writer.writerow([neutral(cell) for cell in header])
        writer.writerows([[neutral(cell) for cell in row] for row in rows])
    return ("\ufeff" + out.getvalue()).encode()


#: What a worksheet's name may not hold, and its longest.
SHEET_NAME_BANNED = re.compile(r"[\[\]:*?/\\]")
SHEET_NAME_LONGEST = 31


def sheet_name(text: str) -> str:
    return SHEET_NAME_BANNED.sub(" ", text)[:SHEET_NAME_LONGEST].strip() or "Sheet"


def standings_xlsx(evening: EveningView) -> bytes:
    """A workbook of two sheets: the standings (under the evening's name and date) and
    the tables. Text is written as text and figures as numbers, never as formulas."""
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    bold = book.add_format({"bold": True})
    # Text that looks like a formula is kept as text, as a typed leading apostrophe would.
    quoted = book.add_format({"quote_prefix": True})
    for index, (title, (header, rows)) in enumerate(
        zip((_("Standings"), _("Tables")), _parts(evening), strict=True)
    ):
        sheet = book.add_worksheet(sheet_name(title))
        top = 0
        if index == 0:
            _write_row(sheet, 0, [evening.name, evening.created_at.strftime("%Y-%m-%d")], quoted)
            top = 2
        for column, word in enumerate(header):
            sheet.write_string(top, column, word, bold)
        for number, row in enumerate(rows, start=top + 1):
            _write_row(sheet, number, row, quoted)
        sheet.set_column(1, 1, 28)
        sheet.freeze_panes(top + 1, 0)
    book.close()
    return out.getvalue()


def _write_row(sheet: Any, row: int, cells: Sequence[Cell], quoted: Any) -> None:
    """One row: numbers as numbers, text as text (a formula-like one quoted), blanks left."""
    for column, value in enumerate(cells):
        if isinstance(value, int):
            sheet.write_number(row, column, value)
        elif isinstance(value, str) and value.startswith(FORMULA_START):
            sheet.write_string(row, column, value, quoted)
        elif isinstance(value, str):
            sheet.write_string(row, column, value)
