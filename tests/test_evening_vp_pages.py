"""Club evenings scored by victory points on the pages (RULES.md section 16): the
new-evening page's choice of scoring and its scales as tables, a typed scale refused line by
line, and each side's VP per round and the VP totals on the director's page and the printed
standings."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.store import db
from scorekeeper.store.models import Evening

from .helpers.api import Json
from .helpers.evenings import FIRST_WINS, SECOND_WINS, deal, evening_form, page_tables

#: The pages over the store: the API's tests of the same commands run them on PostgreSQL.
pytestmark = pytest.mark.one_database


def new_evening(client: FlaskClient, **changes: str) -> str:
    response = client.post("/evenings/new", data=evening_form(**changes))
    assert response.status_code == 302, response.get_data(as_text=True)
    return str(response.headers["Location"])


def errors(html: str) -> dict[str, list[str]]:
    """Each field's messages, by the field's id (the slot ``err-<id>`` under it)."""
    found: dict[str, list[str]] = {}
    for slot, inner in re.findall(
        r'<div class="field-msg" id="err-([^"]+)"[^>]*>(.*?)</div>', html
    ):
        messages = re.findall(r'<p class="field-error">([^<]*)</p>', inner)
        if messages:
            found[slot] = [unescape(m) for m in messages]
    return found


def text(html: str) -> str:
    """The page's words, tags out, spaces folded."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def evenings_made(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Evening)) or 0)


def play_round(client: FlaskClient, evening: str, plays: list[list[list[Json]]]) -> list[Json]:
    tables = page_tables(client, evening)
    for table, deals in zip(tables, plays, strict=True):
        for results in deals:
            assert deal(client, table, results).status_code == 201
    return tables


def test_the_new_evening_page_offers_match_points_or_victory_points_with_their_scales(
    client: FlaskClient,
) -> None:
    html = client.get("/evenings/new").get_data(as_text=True)
    offered = re.findall(r'<input[^>]*name="scoring"[^>]*value="([^"]+)"', html)
    assert offered == ["match_points", "burraco-3", "burraco-4", "typed"]
    assert re.search(r'<input checked[^>]*name="scoring"[^>]*value="match_points"', html)
    words = text(html)
    # Both published scales as RULES.md prints them.
    assert "Burraco's scale for rounds of 3 deals Difference Victory points 0–50 10–10" in words
    assert "1,255–1,500 19–1 over 1,500 20–0" in words
    assert "1,705–2,000 19–1 over 2,000 20–0" in words
    assert "A Canasta evening's differences run ten times larger than Burraco's" in words
    assert re.search(r'<textarea[^>]*id="scale"', html)
    assert re.search(r'<input[^>]*id="bye_vp"[^>]*inputmode="numeric"', html)


def test_an_evening_by_burraco_s_scale_shows_each_sides_vp_and_the_totals(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client, scoring="burraco-3", bye_vp="14")
    page = text(client.get(evening).get_data(as_text=True))
    assert "victory points" in page and "Victory points: the scale" in page
    assert "Sitting out (a bye, 14 victory points)" in page
    # Table 1: 1800 to 100 (over 1500: 20-0); table 2: 950 each (10-10).
    tables = play_round(client, evening, [[FIRST_WINS, FIRST_WINS], [FIRST_WINS, SECOND_WINS]])
    html = client.get(evening).get_data(as_text=True)
    sides = re.findall(
        r'<span class="table-names">([^<]+)</span> <span class="num">([^<\s]+)'
        r'(?: <span class="table-vp">([^<]+)</span>)?',
        html,
    )
    assert [(total, vp) for _names, total, vp in sides] == [
        ("1,800", "20 VP"),
        ("100", "0 VP"),
        ("950", "10 VP"),
        ("950", "10 VP"),
    ]
    winner = " & ".join(tables[0]["sides"][0]["players"])
    read = client.get(f"/api/evenings/{evening.rsplit('/', 1)[1]}").get_json()
    bye = " & ".join(read["rounds"][0]["byes"][0])
    rows = re.findall(
        r'<th scope="row" class="standing-who">([^<]+)</th>\s*'
        r'<td class="num"><strong>(\d+)</strong>',
        html,
    )
    assert [(unescape(name), int(vp)) for name, vp in rows][:2] == [(winner, 20), (bye, 14)]
    assert [int(vp) for _name, vp in rows] == [20, 14, 10, 10, 0]
    assert "Ties go by head to head" in text(html)
    # The printed standings: the same VP per side and in total, and the scale.
    printed = app.test_client().get(f"{evening}/standings").get_data(as_text=True)
    assert printed.count('<span class="table-vp">') == 4
    assert re.findall(r"<strong>(\d+)</strong>", printed) == ["20", "14", "10", "10", "0"]
    assert "over 1,500" in text(printed)


def test_a_match_points_evening_shows_no_victory_points(client: FlaskClient) -> None:
    evening = new_evening(client)
    play_round(client, evening, [[FIRST_WINS, FIRST_WINS], [FIRST_WINS, SECOND_WINS]])
    html = client.get(evening).get_data(as_text=True)
    facts = re.search(r'<p class="lead evening-facts">(.*?)</p>', html, re.S)
    assert facts and text(facts.group(1)).endswith("· match points")
    assert "table-vp" not in html and "Victory points" not in html
    assert "Sitting out (a bye, 2 match points)" in text(html)


def test_a_typed_scale_is_kept_as_typed(client: FlaskClient) -> None:
    evening = new_evening(client, scoring="typed", scale="500: 10\n\n1,500: 11\n 20 ")
    evening_id = evening.rsplit("/", 1)[1]
    body = client.get(f"/api/evenings/{evening_id}").get_json()
    assert body["scoring"] == {"victory_points": [[500, 10], [1500, 11], [None, 20]]}
    assert body["bye_vp"] == 12
    page = text(client.get(evening).get_data(as_text=True))
    assert "The evening's own scale Difference Victory points 0–500 10–10" in page
    assert "505–1,500 11–9 over 1,500 20–0" in page


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"scale": "1,500: 10\n500: 11\n20"},
            "scale",
            "Line 2: Each upper bound is above the one before (1500).",
        ),
        ({"scale": "500: 10\n\n1,500: 9\n20"}, "scale", None),
        ({"scale": "500: 10\n1,500: 11"}, "scale", None),
        ({"scale": "500 - 10\n20"}, "scale", None),
        ({"scale": "  "}, "scale", "Type your scale: a line per step."),
        ({"bye_vp": "21"}, "bye_vp", None),
        ({"scoring": "points"}, "scoring", None),
        (
            {
                "scoring": "burraco-3",
                "variant": "classic-6x3",
                "players": "\n".join(f"P{n}a, P{n}b" for n in range(6)),
            },
            "scoring",
            None,
        ),
    ],
)
def test_a_refused_scoring_names_the_field_and_creates_nothing(
    client: FlaskClient, app: Flask, changes: dict[str, str], field: str, message: str | None
) -> None:
    data = {"scoring": "typed", "scale": "500: 10\n20", **changes}
    response = client.post("/evenings/new", data=evening_form(**data))
    assert response.status_code == 422
    found = errors(response.get_data(as_text=True))
    assert list(found) == [field], found
    if message is not None:
        assert found[field] == [message]
    if field == "scale" and "\n" in changes["scale"]:
        assert found[field][0].startswith("Line ")
    assert evenings_made(app) == 0
