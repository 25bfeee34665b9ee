"""An evening's standings as a file (issue 44): ``/evenings/<id>/standings.csv`` and
``.xlsx`` hold the standings and every round's tables, headed in the page's language, read
back here as a spreadsheet would; a name that a spreadsheet would run as a formula is kept
as text, and figures stay numbers, negative ones too."""

from __future__ import annotations

import csv
import io
from typing import Any

import openpyxl
import pytest
from flask.testing import FlaskClient
from werkzeug.http import parse_options_header
from werkzeug.test import TestResponse

from .helpers.api import Json, result
from .helpers.evenings import FIRST_WINS, PAIRS, deal, director, new_evening

#: A player's name that a spreadsheet would run as a formula.
FORMULA = '=HYPERLINK("http://x.io","a")'
#: A deal that leaves the first side below zero: 100 melded, 150 left in hand.
FIRST_BELOW = [result(100, hand=150), result(300, natural=1, went_out=True)]


def played(client: FlaskClient, **changes: Any) -> Json:
    """Five pairs, the first with ``FORMULA``'s player; round 1 played, one side of each
    table out twice and the other below zero at table 2."""
    pairs = [[FORMULA, "Boris"], *PAIRS[1:]]
    evening = director(client, new_evening(client, pairs=pairs, **changes))
    first, second = evening["rounds"][0]["tables"]
    for _ in range(2):
        assert deal(client, first, FIRST_WINS).status_code == 201
        assert deal(client, second, FIRST_BELOW).status_code == 201
    return evening


def csv_rows(client: FlaskClient, evening: Json, **headers: str) -> list[list[str]]:
    answer = client.get(f"/evenings/{evening['id']}/standings.csv", headers=headers)
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    text = answer.get_data().decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def disposition(answer: TestResponse) -> tuple[str, str]:
    """How the answer is to be taken, and the file's name (RFC 6266, its UTF-8 form too)."""
    kind, options = parse_options_header(answer.headers["Content-Disposition"])
    return kind, options["filename"]


def parts(rows: list[list[str]]) -> list[list[list[str]]]:
    """The file's blocks between blank lines (its title, the standings, the tables)."""
    blocks: list[list[list[str]]] = [[]]
    for row in rows:
        if row:
            blocks[-1].append(row)
        else:
            blocks.append([])
    return blocks


def test_the_csv_holds_the_standings_and_tables_of_the_api(client: FlaskClient) -> None:
    evening = played(client, name="Tuesday club")
    answer = client.get(f"/evenings/{evening['id']}/standings.csv")
    assert disposition(answer) == ("attachment", "Tuesday-club-standings.csv")
    title, standings, tables = parts(csv_rows(client, evening))
    assert title[0][0] == "Tuesday club"
    header, *lines = standings
    assert header[:4] == ["Place", "Pair", "Match points", "Difference"]
    results = client.get(f"/api/evenings/{evening['id']}/results").get_json()
    expected = [
        [
            str(place),
            " & ".join(line["players"]),
            str(line["match_points"]),
            str(line["difference"]),
        ]
        for place, line in enumerate(results["standings"], start=1)
    ]
    neutral = [[cell.removeprefix("'") for cell in line[:4]] for line in lines]
    assert neutral == expected
    # Negative figures are numbers, not text made safe: no apostrophe before a minus sign.
    differences = [line[3] for line in lines]
    assert any(cell.startswith("-") for cell in differences)
    assert all(int(cell) == int(cell.strip()) for cell in differences)
    # The formula-like name is text: a leading apostrophe, wherever it shows.
    named = [cell for line in standings + tables for cell in line if FORMULA in cell]
    assert named and all(cell.startswith("'=") for cell in named)
    head, *sides = tables
    assert head == ["Round", "Table", "Pair", "Deals", "Side's total"]
    played_sides = [
        ["1", str(t["table"]), " & ".join(s["players"]), "2", str(s["total"])]
        for t in results["rounds"][0]["tables"]
        for s in t["sides"]
    ]
    assert [[c.removeprefix("'") for c in side] for side in sides[:4]] == played_sides
    bye = " & ".join(results["rounds"][0]["byes"][0])
    assert [cell.removeprefix("'") for cell in sides[4][:3]] == ["1", "Bye", bye]
    assert any(side[4].startswith("-") for side in sides[:4])


def test_the_spreadsheet_reads_back_with_numbers_and_text(client: FlaskClient) -> None:
    evening = played(client, name="Tuesday club", scoring={"victory_points": "burraco-3"})
    answer = client.get(f"/evenings/{evening['id']}/standings.xlsx")
    assert answer.status_code == 200
    assert answer.mimetype == ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    assert disposition(answer) == ("attachment", "Tuesday-club-standings.xlsx")
    book = openpyxl.load_workbook(io.BytesIO(answer.get_data()))
    assert book.sheetnames == ["Standings", "Tables"]
    sheet = book["Standings"]
    assert sheet["A1"].value == "Tuesday club"
    header = [cell.value for cell in sheet[3]]
    assert header[:5] == ["Place", "Pair", "Victory points", "Match points", "Difference"]
    results = client.get(f"/api/evenings/{evening['id']}/results").get_json()
    lines = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=4)]
    assert [line[:5] for line in lines] == [
        [
            place,
            " & ".join(line["players"]),
            line["victory_points"],
            line["match_points"],
            line["difference"],
        ]
        for place, line in enumerate(results["standings"], start=1)
    ]
    assert any(isinstance(line[4], int) and line[4] < 0 for line in lines)
    # The formula-like name is a text cell, kept as text as a typed apostrophe would.
    named = [c for row in sheet.iter_rows() for c in row if FORMULA in str(c.value or "")]
    assert named and all(c.data_type == "s" and c.quotePrefix for c in named)
    tables = [[cell.value for cell in row] for row in book["Tables"].iter_rows()]
    assert tables[0] == ["Round", "Table", "Pair", "Deals", "Side's total", "Victory points"]
    finished = results["rounds"][0]["tables"][1]
    assert [row[2:] for row in tables[1:] if row[1] == finished["table"]] == [
        [" & ".join(s["players"]), 2, s["total"], s["victory_points"]] for s in finished["sides"]
    ]


@pytest.mark.one_database  # translations: on SQLite alone
def test_the_files_speak_the_pages_language(client: FlaskClient) -> None:
    evening = played(client, name="Клуб по вторникам")
    client.set_cookie("lang", "ru")
    title, standings, tables = parts(csv_rows(client, evening))
    assert title[0][0] == "Клуб по вторникам"
    assert standings[0][:4] == ["Место", "Пара", "Турнирные очки", "Разница"]
    assert tables[0][2:4] == ["Пара", "Раздачи"]
    answer = client.get(f"/evenings/{evening['id']}/standings.xlsx")
    assert answer.headers["Content-Language"] == "ru"
    assert disposition(answer) == ("attachment", "Клуб-по-вторникам-standings.xlsx")
    book = openpyxl.load_workbook(io.BytesIO(answer.get_data()))
    assert book.sheetnames == ["Турнирная таблица", "Столы"]
    assert [c.value for c in book["Турнирная таблица"][3]][:2] == ["Место", "Пара"]
    # The browser's language chooses it too, where no choice was made.
    other = FlaskClient(client.application, use_cookies=False)
    rows = csv_rows(other, evening, **{"Accept-Language": "ru"})
    assert parts(rows)[1][0][0] == "Место"


@pytest.mark.one_database  # the files' escaping and names: on SQLite alone
def test_an_evening_named_like_a_formula_is_text_too(client: FlaskClient) -> None:
    evening = new_evening(client, name="=cmd|' /C calc'!A0")
    title, *_rest = parts(csv_rows(client, evening))
    assert title[0][0] == "'=cmd|' /C calc'!A0"
    answer = client.get(f"/evenings/{evening['id']}/standings.csv")
    assert disposition(answer) == ("attachment", "cmd-C-calc-A0-standings.csv")
    assert client.get("/evenings/nosuchevening0000000000/standings.xlsx").status_code == 404
