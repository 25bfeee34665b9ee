"""Each player's guide to a club evening (issue 43): their table, seat, partner and
opponents, round after round; their results and place; a poll answered 304 while nothing
changed; an address of its own that reads and never records."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import auth, result
from .helpers.evenings import FIRST_WINS, evening_form, new_evening_page, page_tables
from .helpers.qr import decode, svg_image

POLL = {"HX-Request": "true"}


def guides(client: FlaskClient, evening: str, players: int = 10) -> dict[str, str]:
    """Each player's guide, by name, as the director's page links them."""
    html = client.get(evening).get_data(as_text=True)
    found = re.findall(r'<figcaption><a href="(/evenings/[^"]+/guide/[^"]+)">([^<]+)</a>', html)
    assert len(found) == players, html
    return {name: path for path, name in found}


def seat_of(tables: list[dict[str, Any]], name: str) -> tuple[dict[str, Any], int, int]:
    """The table ``name`` sits at, their side and their place in it."""
    for table in tables:
        for side, players in enumerate(s["players"] for s in table["sides"]):
            if name in players:
                return table, side, players.index(name)
    raise LookupError(name)


def text(html: str) -> str:
    """The page's words, one space apart."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def deal(client: FlaskClient, table: dict[str, Any], results: list[Any] = FIRST_WINS) -> None:
    answer = client.post(
        f"/api/games/{table['game']}/deals", json={"results": results}, headers=auth(table["token"])
    )
    assert answer.status_code == 201, answer.get_json()


def finish_round(client: FlaskClient, tables: list[dict[str, Any]]) -> None:
    for table in tables:
        deal(client, table)
        deal(client, table)


def assert_seated(html: str, tables: list[dict[str, Any]], name: str, round_: int) -> None:
    """The guide names the player's round, table, seat (the table card's: sides take turns
    around the table), partner and opponents."""
    table, side, place = seat_of(tables, name)
    words = text(html)
    assert f"Round {round_} of 3" in words
    assert f"Table {table['table']} Seat {place * len(table['sides']) + side + 1}" in words
    partners = [n for n in table["sides"][side]["players"] if n != name]
    assert f"Partner {partners[0]}" in words
    others = " · ".join(" & ".join(s["players"]) for i, s in enumerate(table["sides"]) if i != side)
    assert f"Opponents {others}" in words


def test_the_guide_seats_the_player_in_round_1_and_again_once_round_2_is_seated(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening_page(client)
    links = guides(client, evening)
    seated = page_tables(client, evening)
    phone = app.test_client()  # the player's own phone: no cookie, only the link
    playing = [n for t in seated for s in t["sides"] for n in s["players"]]
    for name in playing:
        page = phone.get(links[name])
        assert page.status_code == 200
        assert_seated(page.get_data(as_text=True), seated, name, 1)
    out = next(name for name in links if name not in playing)
    assert "You sit out this round" in phone.get(links[out]).get_data(as_text=True)

    finish_round(client, seated)
    waiting = text(phone.get(links[playing[0]]).get_data(as_text=True))
    assert "Round 2 is seated once every table has finished" in waiting
    assert client.post(f"{evening}/rounds").status_code == 302
    again = page_tables(client, evening)
    for name in (n for t in again for s in t["sides"] for n in s["players"]):
        assert_seated(phone.get(links[name]).get_data(as_text=True), again, name, 2)


def test_the_guide_lists_the_players_results_and_place(client: FlaskClient, app: Flask) -> None:
    evening = new_evening_page(client)
    links = guides(client, evening)
    seated = page_tables(client, evening)
    phone = app.test_client()
    name = seated[0]["sides"][0]["players"][0]
    before = text(phone.get(links[name]).get_data(as_text=True))
    assert "No results yet." in before and "Your results show here" in before
    finish_round(client, seated)
    evening_id = evening.rsplit("/", 1)[1]
    standings = client.get(f"/api/evenings/{evening_id}").get_json()["standings"]
    for table in seated:
        for side, players in enumerate(s["players"] for s in table["sides"]):
            won = side == 0  # FIRST_WINS: the first side wins each deal
            words = text(phone.get(links[players[0]]).get_data(as_text=True))
            assert f"Round 1 Table {table['table']}" in words
            score = "1,800 to 100" if won else "100 to 1,800"
            assert ("Finished: Won, " if won else "Finished: Lost, ") + score in words
            assert f"Table {table['table']} {score} " + ("Won" if won else "Lost") in words
            place = next(i for i, line in enumerate(standings, 1) if players[0] in line["players"])
            assert f"Your place {place} of 5" in words
            points = standings[place - 1]["match_points"]
            assert f"{points} match points" in words
    playing = {n for t in seated for s in t["sides"] for n in s["players"]}
    bye = next(name for name in links if name not in playing)
    words = text(phone.get(links[bye]).get_data(as_text=True))
    assert "Round 1 Sat out Bye" in words and "2 match points" in words


def test_the_guide_polls_304_until_a_deal_is_recorded(client: FlaskClient, app: Flask) -> None:
    evening = new_evening_page(client)
    links = guides(client, evening)
    seated = page_tables(client, evening)
    phone = app.test_client()
    link = links[seated[1]["sides"][1]["players"][0]]
    first = phone.get(link, headers=POLL)
    html = first.get_data(as_text=True)
    assert first.status_code == 200 and 'id="guide-live"' in html and "<html" not in html
    etag = first.headers["ETag"]
    assert phone.get(link, headers={**POLL, "If-None-Match": etag}).status_code == 304
    deal(client, seated[0])  # another table: the standings may move, so the guide asks
    moved = phone.get(link, headers={**POLL, "If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    etag = moved.headers["ETag"]
    deal(client, seated[1], [result(100, hand=50), result(300, natural=1, went_out=True)])
    again = phone.get(link, headers={**POLL, "If-None-Match": etag})
    assert again.status_code == 200
    assert "1 of 2 deals played · 900 to 50" in text(again.get_data(as_text=True))
    # Another player's guide is another page, with its own ETag.
    other = phone.get(links[seated[1]["sides"][0]["players"][0]], headers=POLL)
    assert other.headers["ETag"] != again.headers["ETag"]


def test_an_unknown_or_tampered_guide_is_a_404(client: FlaskClient, app: Flask) -> None:
    evening = new_evening_page(client)
    link = next(iter(guides(client, evening).values()))
    phone = app.test_client()
    evening_path, guide_id = link.split("/guide/")
    tampered = guide_id[:-1] + ("A" if guide_id[-1] != "A" else "B")
    other_evening = new_evening_page(client)
    for path in (
        f"{evening_path}/guide/{tampered}",
        f"{evening_path}/guide/{guide_id}x",
        f"{evening_path}/guide/{guide_id[:-1]}",
        f"{evening_path}/guide/{guide_id[:-1]}%00",
        f"{evening_path}/guide/..%2F..%2Fcards",
        f"/evenings/{'A' * 16}/guide/{guide_id}",
        f"{other_evening}/guide/{guide_id}",  # a guide of another evening
    ):
        for headers in ({}, POLL):
            answer = phone.get(path, headers=headers)
            assert answer.status_code == 404, (path, headers)
    assert phone.get(link).status_code == 200


def test_the_guide_link_gives_no_right_to_record(client: FlaskClient, app: Flask) -> None:
    evening = new_evening_page(client)
    links = guides(client, evening)
    seated = page_tables(client, evening)
    table = seated[0]
    name = table["sides"][0]["players"][0]
    phone = app.test_client()
    page = phone.get(links[name])
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    cookies = [c.split("=", 1)[0] for c in page.headers.getlist("Set-Cookie")]
    assert not any(c.startswith(("scorer", "director")) for c in cookies), cookies
    assert "/join" not in html and table["token"] not in html
    assert "/deals/new" not in html and "<form" not in html.split("<main", 1)[1]
    # The guide's link to the table opens the follower's sheet: no deal to record.
    sheet = phone.get(f"/games/{table['game']}").get_data(as_text=True)
    assert f'href="/games/{table["game"]}"' in html
    assert f"/games/{table['game']}/deals/new" not in sheet
    assert phone.get(f"/games/{table['game']}/deals/new").status_code in (302, 403)
    guide_id = links[name].rsplit("/", 1)[1]
    body = {"results": FIRST_WINS}
    for secret in (guide_id, links[name]):
        refused = phone.post(f"/api/games/{table['game']}/deals", json=body, headers=auth(secret))
        assert refused.status_code in (401, 403)
        joined = phone.post(f"/games/{table['game']}/join", data={"token": secret})
        assert joined.status_code != 302
    # Nor does it direct: the table cards and the director's buttons stay the director's.
    assert phone.get(f"{evening}/cards").status_code == 403
    assert "/guide/" not in phone.get(evening).get_data(as_text=True)  # the director hands them
    assert phone.post(f"{evening}/rounds").status_code == 403


def test_each_table_card_holds_a_code_of_each_players_guide(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening_page(client)
    links = guides(client, evening)
    seated = page_tables(client, evening)
    html = client.get(f"{evening}/cards").get_data(as_text=True)
    cards = html.split('class="table-card"')[1:]
    assert len(cards) == 2
    for table, card in zip(seated, cards, strict=True):
        codes = re.findall(r'<figure class="qr guide-code">.*?(<svg.*?</svg>)', card, flags=re.S)
        found = [link for code in codes for link in decode(svg_image(code))]
        names = [n for s in table["sides"] for n in s["players"]]
        assert sorted(found) == sorted(f"http://localhost{links[n]}" for n in names)
    phone = app.test_client()
    assert phone.get(found[0].removeprefix("http://localhost")).status_code == 200


def test_in_an_individual_evening_the_guide_follows_the_partner_of_each_round(
    client: FlaskClient, app: Flask
) -> None:
    names = ["Ana", "Boris", "Vera", "Goran", "Dana", "Ivo", "Mila", "Petar"]
    made = client.post(
        "/evenings/new", data=evening_form(format="individual", players="\n".join(names))
    )
    assert made.status_code == 302, made.get_data(as_text=True)
    evening = str(made.headers["Location"])
    links = guides(client, evening, players=8)
    phone = app.test_client()
    partners = []
    for round_ in (1, 2):
        seated = page_tables(client, evening)
        for name in names:
            assert_seated(phone.get(links[name]).get_data(as_text=True), seated, name, round_)
        table, side, _place = seat_of(seated, "Ana")
        partners.append(next(n for n in table["sides"][side]["players"] if n != "Ana"))
        finish_round(client, seated)
        assert client.post(f"{evening}/rounds").status_code == 302
    assert partners[0] != partners[1]  # partners change each round


def test_a_victory_points_evening_s_guide_counts_victory_points(
    client: FlaskClient, app: Flask
) -> None:
    made = client.post("/evenings/new", data=evening_form(scoring="burraco-3", bye_vp="14"))
    assert made.status_code == 302, made.get_data(as_text=True)
    evening = made.headers["Location"]
    links = guides(client, evening)
    seated = page_tables(client, evening)
    playing = {n for t in seated for s in t["sides"] for n in s["players"]}
    bye = next(name for name in links if name not in playing)
    phone = app.test_client()
    assert "A bye scores 14 victory points." in text(phone.get(links[bye]).get_data(as_text=True))
    finish_round(client, seated)
    evening_id = evening.rsplit("/", 1)[1]
    standings = client.get(f"/api/evenings/{evening_id}").get_json()["standings"]
    for line in standings:
        words = text(phone.get(links[line["players"][0]]).get_data(as_text=True))
        assert f"{line['victory_points']} VP · {line['match_points']} match points" in words
