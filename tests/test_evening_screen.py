"""The screen for the room (issue 44): a club evening on a projector, read by anyone with
no secret. Its tables and standings show the API's figures; each standings line is marked
with its move since the round before (counted here by hand over two rounds); its live part
answers the poll 304 while the evening stands still, and stops polling once it is over."""

from __future__ import annotations

import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import Json, auth
from .helpers.evenings import (
    FIRST_WINS,
    LEVEL,
    SECOND_WINS,
    deal,
    director,
    evening_form,
    new_evening,
)

POLL = {"HX-Request": "true"}


def text(html: str) -> str:
    """The page's words, one space apart."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


def spoken(html: str) -> str:
    """The words a screen reader says: without the signs hidden from it (✓, ▲2)."""
    return text(re.sub(r'<span aria-hidden="true">[^<]*</span>', "", html))


def screen(app: Flask, evening: Json) -> str:
    """The room's screen as a browser with no cookie (no secret) reads it."""
    response = app.test_client().get(f"/evenings/{evening['id']}/screen")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def tables_on(html: str) -> dict[int, str]:
    """Each table of the screen, by number: its words."""
    blocks = re.findall(
        r'<li class="screen-table[^"]*" id="screen-table-(\d+)">(.*?)</li>', html, re.S
    )
    return {int(number): spoken(block) for number, block in blocks}


def rows_on(html: str) -> list[str]:
    """The standings' lines of the screen, best first: their markup."""
    return re.findall(r'<tr class="screen-line[^"]*">(.*?)</tr>', html, re.S)


def lines_on(html: str) -> list[str]:
    """The standings' lines as a screen reader says them (not the signs it hides)."""
    return [spoken(row) for row in rows_on(html)]


def signs_on(html: str) -> list[str]:
    """The move each line shows (▲2, ▼1, =), or its visible word (NEW is "new")."""
    return [
        text(re.sub(r'<span class="visually-hidden">[^<]*</span>', "", row)).split()[1]
        for row in rows_on(html)
    ]


def signed(value: int) -> str:
    return f"+{value:,}" if value > 0 else f"{value:,}"


def table_words(table: Json) -> str:
    """A table as the screen should word it, from the API's figures."""
    if table["status"] == "finished":
        state = f"finished after {table['deals']} of {table['last_deal']} deals"
    else:
        state = f"{table['deals']} of {table['last_deal']} deals played"
    sides = " ".join(f"{' & '.join(s['players'])} {s['total']:,}" for s in table["sides"])
    return f"Table {table['table']} {state} {sides}"


def play(client: FlaskClient, table: Json, *deals: list[Json]) -> None:
    for results in deals:
        assert deal(client, table, results).status_code == 201


def test_the_screen_shows_each_table_and_the_standings_as_the_api_does(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    first, second = director(client, evening)["rounds"][0]["tables"]
    play(client, first, FIRST_WINS)
    play(client, second, FIRST_WINS, LEVEL)
    html = screen(app, evening)
    read = client.get(f"/api/evenings/{evening['id']}").get_json()
    words = text(html)
    assert "Tuesday club" in words and "Round 1 of 3" in words
    assert re.search(r'data-countdown data-ends-at="[^"]+Z"', html)
    shown = tables_on(html)
    assert shown == {t["table"]: table_words(t) for t in read["rounds"][0]["tables"]}
    assert "1 of 2 deals played" in shown[first["table"]]
    assert "finished after 2 of 2 deals" in shown[second["table"]]
    byes = " & ".join(read["rounds"][0]["byes"][0])
    assert f"Sitting out (a bye, 2 match points): {byes}" in words
    lines = lines_on(html)
    assert len(lines) == len(read["standings"]) == 5
    for place, (line, standing) in enumerate(zip(lines, read["standings"], strict=True), 1):
        who = " & ".join(standing["players"])
        figures = f"{who} {standing['match_points']} {signed(standing['difference'])}"
        # The first round's results: every line is new.
        assert line == f"{place} new {figures}", line


def counted(rounds: list[Json], pairs: list[list[str]]) -> list[tuple[str, ...]]:
    """The standings' order counted by hand (RULES.md section 11): a table's winner 2 match
    points, a draw 1, a bye 2; then the difference, the points scored, the name."""
    line = {tuple(pair): [0, 0, 0] for pair in pairs}  # match points, difference, points
    for round_ in rounds:
        for table in round_["tables"]:
            if table["status"] != "finished":
                continue
            a, b = (tuple(side["players"]) for side in table["sides"])
            ta, tb = (side["total"] for side in table["sides"])
            line[a][0] += 2 if ta > tb else 1 if ta == tb else 0
            line[b][0] += 2 if tb > ta else 1 if ta == tb else 0
            line[a][1] += ta - tb
            line[b][1] += tb - ta
            line[a][2] += ta
            line[b][2] += tb
        for bye in round_["byes"]:
            line[tuple(bye)][0] += 2
    return sorted(
        line, key=lambda p: (-line[p][0], -line[p][1], -line[p][2], [n.casefold() for n in p])
    )


def mark(before: list[tuple[str, ...]], now: list[tuple[str, ...]], who: tuple[str, ...]) -> str:
    """A line's move as the screen says it to a screen reader."""
    moved = before.index(who) - now.index(who)
    if moved == 0:
        return "no change"
    word = "up" if moved > 0 else "down"
    return f"{word} {abs(moved)} place" + ("s" if abs(moved) > 1 else "")


def test_each_line_is_marked_with_its_move_since_the_round_before(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    first, second = director(client, evening)["rounds"][0]["tables"]
    play(client, first, FIRST_WINS, FIRST_WINS)
    play(client, second, FIRST_WINS, LEVEL)
    started = client.post(f"/api/evenings/{evening['id']}/rounds", headers=auth(evening["token"]))
    assert started.status_code == 201
    first, second = director(client, evening)["rounds"][1]["tables"]
    play(client, first, SECOND_WINS, SECOND_WINS)
    play(client, second, LEVEL, SECOND_WINS)
    read = client.get(f"/api/evenings/{evening['id']}").get_json()
    pairs = [list(s["players"]) for s in read["standings"]]
    before = counted(read["rounds"][:1], pairs)
    now = counted(read["rounds"], pairs)
    assert [tuple(s["players"]) for s in read["standings"]] == now
    assert before != now  # the test means something: some line moved
    html = screen(app, evening)
    lines = lines_on(html)
    for place, (line, who) in enumerate(zip(lines, now, strict=True), 1):
        assert line.startswith(f"{place} {mark(before, now, who)} {' & '.join(who)} "), line
    # Seen: a sign and the places moved (▲2, ▼1), "=" for no change.
    moved = [before.index(who) - now.index(who) for who in now]
    assert signs_on(html) == [f"▲{m}" if m > 0 else f"▼{-m}" if m < 0 else "=" for m in moved]
    moves = {mark(before, now, who).split()[0] for who in now}
    assert {"up", "down"} <= moves


def test_the_poll_is_304_until_a_deal_and_stops_once_the_evening_is_over(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client, rounds=1)
    room = app.test_client()
    address = f"/evenings/{evening['id']}/screen"
    first = room.get(address, headers=POLL)
    assert first.status_code == 200
    assert 'id="screen-live"' in first.get_data(as_text=True)
    assert 'hx-trigger="every 10s"' in first.get_data(as_text=True)
    assert "public" in first.headers["Cache-Control"]
    assert "no-cache" in first.headers["Cache-Control"]
    etag = first.headers["ETag"]
    assert room.get(address, headers={**POLL, "If-None-Match": etag}).status_code == 304
    tables = director(client, evening)["rounds"][0]["tables"]
    play(client, tables[0], FIRST_WINS)
    again = room.get(address, headers={**POLL, "If-None-Match": etag})
    assert again.status_code == 200 and again.headers["ETag"] != etag
    assert "1 of 2 deals played" in tables_on(again.get_data(as_text=True))[tables[0]["table"]]
    for table in tables:
        play(client, table, *[FIRST_WINS] * (2 - (table is tables[0])))
    over = room.get(address).get_data(as_text=True)
    assert "The evening is over" in text(over) and "Final standings" in text(over)
    assert "hx-trigger" not in over
    assert "hx-trigger" not in room.get(address, headers=POLL).get_data(as_text=True)


def test_the_screen_needs_no_secret_and_the_directors_page_links_it(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post("/evenings/new", data=evening_form())
    evening = str(response.headers["Location"])
    page = client.get(evening).get_data(as_text=True)
    assert f'href="{evening}/screen"' in page and "Screen for the room" in page
    assert app.test_client().get(f"{evening}/screen").status_code == 200
    assert app.test_client().get("/evenings/nosuchevening1/screen").status_code == 404
