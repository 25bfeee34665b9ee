"""The club evening's pages (issue 33): the new-evening form, the director's page, the table
cards and the printable standings, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.store import db
from scorekeeper.store.models import Evening

from .helpers.api import auth, result
from .helpers.history import markup
from .helpers.qr import decode, svg_image
from .helpers.queries import counted

#: The pages over the store: the API's tests of the same commands run them on PostgreSQL.
pytestmark = pytest.mark.one_database

PAIRS = "Ana, Boris\nVera, Goran\nDana, Ivo\nMila, Petar\nZoe, Yan"


def form(**changes: str) -> dict[str, str]:
    """A new-evening form as a director fills it in: five pairs, two tables, one bye."""
    data = {
        "name": "Tuesday club",
        "variant": "classic",
        "format": "pairs",
        "players": PAIRS,
        "rounds": "3",
        "deals_per_round": "2",
        "minutes_per_round": "50",
    }
    return {**data, **changes}


def new_evening(client: FlaskClient, **changes: str) -> str:
    """Create an evening on the page; this client is its director. Returns its address."""
    response = client.post("/evenings/new", data=form(**changes))
    assert response.status_code == 302, response.get_data(as_text=True)
    return str(response.headers["Location"])


def director_secret(client: FlaskClient, evening: str) -> str:
    """The evening's secret, as the director's link hands it on."""
    html = client.get(f"{evening}/director-link").get_data(as_text=True)
    found = re.search(r'<a href="http://localhost/evenings/[^"#]+/join#([^"]+)"', html)
    assert found, html
    return found.group(1)


def tables(client: FlaskClient, evening: str) -> list[dict[str, Any]]:
    """The current round's tables, with their scorer secrets (the director's API read)."""
    evening_id = evening.rsplit("/", 1)[1]
    token = director_secret(client, evening)
    body = client.get(f"/api/evenings/{evening_id}", headers=auth(token)).get_json()
    return list(body["rounds"][-1]["tables"])


def play(client: FlaskClient, table: dict[str, Any], deals: int = 1) -> None:
    deal = {"results": [result(150, hand=10), result(90, hand=5)]}
    for _ in range(deals):
        answer = client.post(
            f"/api/games/{table['game']}/deals", json=deal, headers=auth(table["token"])
        )
        assert answer.status_code == 201, answer.get_json()


def evenings_stored(app: Flask) -> tuple[int, int]:
    """How many evenings there are, and the sum of their versions."""
    with app.app_context():
        row = db.session.execute(select(func.count(), func.coalesce(func.sum(Evening.version), 0)))
        count, versions = row.one()
        return int(count), int(versions)


def errors(html: str) -> dict[str, list[str]]:
    """Each field's messages, by the field's id (the slot ``err-<id>`` under it)."""
    found: dict[str, list[str]] = {}
    for slot, inner in re.findall(
        r'<div class="field-msg" id="err-([^"]+)"[^>]*>(.*?)</div>', html
    ):
        messages = re.findall(r'<p class="field-error">([^<]*)</p>', inner)
        if messages:
            found[slot] = [m.replace("&#39;", "'") for m in messages]
    return found


def test_the_new_evening_page_offers_partnership_rule_sets_and_numeric_keypads(
    client: FlaskClient,
) -> None:
    html = client.get("/evenings/new").get_data(as_text=True)
    offered = re.findall(r'<option value="([^"]+)" data-partners', html)
    assert offered == [
        "classic",
        "classic-6",
        "classic-6x3",
        "samba",
        "bolivia",
        "cuban",
        "uruguay",
        "american",
        "hand-and-foot",  # in 2 partnerships at a club table
        "burraco",
    ]
    for name in ("rounds", "deals_per_round", "minutes_per_round"):
        assert re.search(rf'<input[^>]*id="{name}"[^>]*inputmode="numeric"', html), name
    assert 'name="csrf_token"' in html
    assert "/evenings/new" in client.get("/").get_data(as_text=True)


def test_a_new_evening_makes_this_browser_its_director(client: FlaskClient) -> None:
    response = client.post("/evenings/new", data=form())
    assert response.status_code == 302
    evening = response.headers["Location"]
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("director=") and f"Path={evening};" in cookie
    assert "HttpOnly" in cookie and response.headers["Cache-Control"] == "private, no-store"
    page = client.get(evening)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "private, no-store"
    assert "Round 1 of 3" in html and html.count('class="table-live') == 2
    assert "Sitting out (a bye, 2 match points)" in html
    assert "Call time on round 1" in html and "Table cards" in html
    assert "Swap two players" in html and "Show the director's link" in html
    assert html.count('<th scope="row" class="standing-who">') == 5
    # The secret is in the cookie, never in the page.
    assert director_secret(client, evening) not in html


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"name": " "}, "name", "Give the evening a name."),
        ({"rounds": "0"}, "rounds", "From 1 to 20."),
        ({"deals_per_round": "four"}, "deals_per_round", "Type a whole number, such as 4."),
        ({"minutes_per_round": "601"}, "minutes_per_round", "From 1 to 600."),
        ({"variant": "classic-2"}, "variant", "Not a valid choice."),
        (
            {"players": "Ana, Boris\nVera, Goran\nDana, Ivo"},
            "players",
            "An evening of Classic Canasta, 4 players in 2 partnerships needs at least two "
            "tables: 4 pairs.",
        ),
        (
            {"players": "Ana, Boris\nVera, Goran, Ivo\nDana, Mila\nPetar, Zoe"},
            "players",
            "Line 2: Each pair of Classic Canasta, 4 players in 2 partnerships has 2 players.",
        ),
        (
            {"players": "Ana, Boris\nVera, Goran\n\nDana, ana\nPetar, Zoe"},
            "players",
            "Line 4: ana is named twice.",
        ),
        ({"players": "Ana\nVera\nDana", "format": "individual"}, "players", None),
    ],
)
def test_a_refused_form_names_the_field_and_creates_nothing(
    client: FlaskClient, app: Flask, changes: dict[str, str], field: str, message: str | None
) -> None:
    response = client.post("/evenings/new", data=form(**changes))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    found = errors(html)
    assert list(found) == [field], found
    if message is not None:
        assert found[field] == [message]
    assert evenings_stored(app) == (0, 0)
    assert "Set-Cookie" not in response.headers or "director=" not in response.headers["Set-Cookie"]


def test_director_only_actions_refuse_without_the_secret_and_change_nothing(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    before = evenings_stored(app)
    follower = app.test_client()
    html = follower.get(evening).get_data(as_text=True)
    assert "Tuesday club" in html and "Round 1 of 3" in html
    assert "Call time" not in html and "Swap two players" not in html and "csrf" not in html
    for path in ("/cards", "/director-link", "/rounds/1/close"):
        answer = follower.get(evening + path)
        assert answer.status_code == 403, path
        assert "Only the evening&#39;s director" in answer.get_data(as_text=True)
    for path, data in (
        ("/rounds", {}),
        ("/rounds/1/close", {}),
        ("/rounds/1/swap", {"first": "Ana", "second": "Vera"}),
    ):
        assert follower.post(evening + path, data=data).status_code == 403, path
    assert evenings_stored(app) == before
    assert follower.get("/evenings/nothing-here").status_code == 404
    assert follower.get("/evenings/nothing-here/cards").status_code == 404


def test_starting_a_round_while_tables_play_is_refused_on_the_page(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    before = evenings_stored(app)
    answer = client.post(f"{evening}/rounds")
    assert answer.status_code == 409
    html = markup(answer.get_data(as_text=True))
    assert "Round 1 is still being played at table(s) 1, 2" in html and "flash-error" in html
    assert evenings_stored(app) == before
    # The page around it in the reader's language (the store's sentence is rendered from
    # the catalogue: the translations of issue 33's sentences are merged apart).
    client.get("/language/mk")
    html = markup(client.post(f"{evening}/rounds").get_data(as_text=True))
    assert '<html lang="mk"' in html and "flash-error" in html


def test_rounds_are_played_closed_and_seated_from_the_page(client: FlaskClient) -> None:
    evening = new_evening(client)
    seated = tables(client, evening)
    play(client, seated[0], deals=2)  # table 1 plays its round out
    play(client, seated[1])  # table 2 plays one deal of two
    html = client.get(evening).get_data(as_text=True)
    assert "finished after 2 of 2 deals" in html and "1 of 2 deals played" in html
    confirm = client.get(f"{evening}/rounds/1/close")
    assert confirm.status_code == 200 and "Call time on round 1?" in confirm.get_data(as_text=True)
    assert client.post(f"{evening}/rounds/1/close", data={"final": "1"}).status_code == 302
    html = client.get(evening).get_data(as_text=True)
    assert "Every table has finished." in html and "Seat and start round 2" in html
    assert client.post(f"{evening}/rounds").status_code == 302
    html = client.get(evening).get_data(as_text=True)
    assert "Round 2 of 3" in html and "Earlier rounds" in html
    assert re.search(r"<strong>[24]</strong>", html)  # match points from round 1


def test_two_players_swap_before_their_tables_first_deal(client: FlaskClient) -> None:
    evening = new_evening(client)
    seated = tables(client, evening)
    first = seated[0]["sides"][0]["players"][0]
    second = seated[1]["sides"][0]["players"][0]
    answer = client.post(f"{evening}/rounds/1/swap", data={"first": first, "second": second})
    assert answer.status_code == 302
    after = tables(client, evening)
    assert first in after[1]["sides"][0]["players"] and second in after[0]["sides"][0]["players"]
    same = client.post(f"{evening}/rounds/1/swap", data={"first": first, "second": first})
    assert same.status_code == 422
    assert "Name two different players to swap." in same.get_data(as_text=True)
    play(client, after[0])
    played = client.post(f"{evening}/rounds/1/swap", data={"first": first, "second": second})
    assert played.status_code == 422  # a player of a table that played is no choice any more


def test_each_table_card_holds_a_code_of_its_scorer_link_that_grants_scoring(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    seated = tables(client, evening)
    page = client.get(f"{evening}/cards")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "private, no-store"
    html = page.get_data(as_text=True)
    assert html.count('class="table-card"') == 2
    codes = re.findall(r'<figure class="qr card-code">.*?(<svg.*?</svg>)', html, flags=re.S)
    assert len(codes) == 2
    for table, code in zip(seated, codes, strict=True):
        (link,) = decode(svg_image(code))
        assert link == f"http://localhost/games/{table['game']}/join#{table['token']}"
        assert f"http://localhost/games/{table['game']}<" in html  # the follower link
        for name in (n for side in table["sides"] for n in side["players"]):
            assert name in html
        phone = app.test_client()
        path, secret = link.removeprefix("http://localhost").split("#")
        assert phone.post(path, data={"token": secret}).status_code == 302
        sheet = phone.get(f"/games/{table['game']}").get_data(as_text=True)
        assert f"/games/{table['game']}/deals/new" in sheet  # it may record a deal
        deal = {"results": [result(150, hand=10), result(90, hand=5)]}
        assert (
            phone.post(f"/api/games/{table['game']}/deals", json=deal, headers=auth(secret))
        ).status_code == 201


def test_the_countdown_is_on_the_directors_page_and_every_tables_sheet(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    html = client.get(evening).get_data(as_text=True)
    ends = re.search(r'data-countdown data-ends-at="([^"]+)"', html)
    assert ends and ends.group(1).endswith("Z")
    assert "/static/evening." in html
    table = tables(client, evening)[0]
    sheet = app.test_client().get(f"/games/{table['game']}").get_data(as_text=True)
    assert f'data-ends-at="{ends.group(1)}"' in sheet
    assert "Tuesday club</a> · Round 1 · Table 1" in sheet
    untimed = new_evening(client, minutes_per_round="", name="No clock")
    assert "data-countdown" not in client.get(untimed).get_data(as_text=True)
    table = tables(client, untimed)[0]
    sheet = client.get(f"/games/{table['game']}").get_data(as_text=True)
    assert "No clock</a>" in sheet and "data-countdown" not in sheet


def test_the_page_polls_with_an_etag_that_moves_with_each_deal(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    follower = app.test_client()
    poll = {"HX-Request": "true"}
    first = follower.get(evening, headers=poll)
    assert first.status_code == 200 and 'id="evening-live"' in first.get_data(as_text=True)
    assert "<html" not in first.get_data(as_text=True)
    etag = first.headers["ETag"]
    assert follower.get(evening, headers={**poll, "If-None-Match": etag}).status_code == 304
    play(client, tables(client, evening)[0])
    again = follower.get(evening, headers={**poll, "If-None-Match": etag})
    assert again.status_code == 200 and again.headers["ETag"] != etag
    assert "1 of 2 deals played" in again.get_data(as_text=True)


def test_the_standings_print_on_their_own_page(client: FlaskClient, app: Flask) -> None:
    evening = new_evening(client)
    page = app.test_client().get(f"{evening}/standings")
    html = page.get_data(as_text=True)
    # Nothing played yet: standings after no round.
    assert page.status_code == 200 and "Tuesday club: Standings</h1>" in html
    assert html.count('<th scope="row" class="standing-who">') == 5
    for table in tables(client, evening):
        play(client, table, deals=2)
    client.post(f"{evening}/rounds")  # round 2 seated, not played: still after round 1
    html = app.test_client().get(f"{evening}/standings").get_data(as_text=True)
    assert "Standings after round 1" in html
    assert "/static/evening." in html  # its print stylesheet


def test_the_directors_link_moves_directing_to_another_device(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    secret = director_secret(client, evening)
    other = app.test_client()
    assert other.get(f"{evening}/join").status_code == 200
    wrong = other.post(f"{evening}/join", data={"token": "not-it"})
    assert wrong.status_code == 403
    assert "This is not the secret of this evening." in wrong.get_data(as_text=True)
    joined = other.post(f"{evening}/join", data={"token": secret})
    assert joined.status_code == 302 and "director=" in joined.headers["Set-Cookie"]
    assert other.get(f"{evening}/cards").status_code == 200


def test_an_evening_tables_sheet_costs_no_more_queries_than_a_games(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    table = tables(client, evening)[0]
    game = client.post(
        "/api/games",
        json={
            "variant": "classic",
            "sides": [
                {"name": "Us", "players": ["Ana", "Boris"]},
                {"name": "Them", "players": ["Vera", "Goran"]},
            ],
        },
    ).get_json()["id"]
    follower = app.test_client()
    costs = []
    for game_id in (game, table["game"]):
        follower.get(f"/games/{game_id}")  # the first view keeps what never changes
        with counted(app) as statements:
            assert follower.get(f"/games/{game_id}").status_code == 200
        costs.append(len(statements))
    assert costs[0] == costs[1], costs


def scorer_of(app: Flask, table: dict[str, Any]) -> FlaskClient:
    """The table's phone, once it scanned its scorer link."""
    phone = app.test_client()
    joined = phone.post(f"/games/{table['game']}/join", data={"token": table["token"]})
    assert joined.status_code == 302
    return phone


def test_a_tables_sheet_offers_no_delete_and_a_refused_delete_says_why(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    table = tables(client, evening)[0]
    phone = scorer_of(app, table)
    sheet = phone.get(f"/games/{table['game']}").get_data(as_text=True)
    assert "Record deal 1" in sheet and "Delete the game" not in sheet
    # Sent all the same (an old page, a typed address): the reason, and nothing changed.
    before = phone.get(f"/api/games/{table['game']}").get_json()
    refused = phone.post(f"/games/{table['game']}/delete")
    html = markup(refused.get_data(as_text=True))
    assert refused.status_code == 409
    assert "flash-error" in html and "correct its deals instead of deleting it" in html
    assert "Record deal 1" in html  # the sheet again, the table still playing
    assert phone.get(f"/api/games/{table['game']}").get_json() == before
    assert f"/games/{table['game']}" in client.get(evening).get_data(as_text=True)
    # In the reader's language.
    phone.get("/language/ru")
    html = markup(phone.post(f"/games/{table['game']}/delete").get_data(as_text=True))
    assert '<html lang="ru"' in html and "correct its deals" not in html
    assert "flash-error" in html


def test_a_game_deleted_twice_says_so_the_second_time(client: FlaskClient) -> None:
    client.get("/games/new")
    game = client.post(
        "/api/games",
        json={"variant": "classic", "sides": [{"name": "Us"}, {"name": "Them"}]},
    )
    assert game.status_code == 201
    body = game.get_json()
    phone = client
    phone.post(f"/games/{body['id']}/join", data={"token": body["token"]})
    sheet = phone.get(f"/games/{body['id']}").get_data(as_text=True)
    assert "Delete the game" in sheet  # a game of its own may go
    assert phone.post(f"/games/{body['id']}/delete").status_code == 302
    again = phone.post(f"/games/{body['id']}/delete")
    html = again.get_data(as_text=True)
    assert again.status_code == 409 and "This game was deleted already." in html
    assert "Restore the game" in html


def test_a_finished_tables_sheet_points_to_the_evening_and_the_next_table(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    seated = tables(client, evening)
    play(client, seated[0], deals=2)  # table 1 plays its round out
    follower = app.test_client()
    page = follower.get(f"/games/{seated[0]['game']}")
    html = page.get_data(as_text=True)
    assert "win with" in html and "New game, same players" not in html
    assert "Round 2 is not seated yet" in html
    assert f'href="{evening}">Back to the evening' in html
    poll = {"HX-Request": "true"}
    first = follower.get(f"/games/{seated[0]['game']}", headers=poll)
    assert "Round 2 is not seated yet" in first.get_data(as_text=True)
    play(client, seated[1], deals=2)
    assert client.post(f"{evening}/rounds").status_code == 302
    later = tables(client, evening)
    # The poll's ETag moves with the evening: the next round shows without a reload.
    again = follower.get(
        f"/games/{seated[0]['game']}", headers={**poll, "If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 200
    for html in (again.get_data(as_text=True), client.get(f"/games/{seated[0]['game']}").text):
        assert "Round 2: where you play next" in html and "not seated yet" not in html
        for name in (n for side in seated[0]["sides"] for n in side["players"]):
            at = next((t for t in later if any(name in s["players"] for s in t["sides"])), None)
            if at is None:  # sitting out
                assert re.search(rf"Sitting out \(a bye, 2 match points\): [^<]*{name}", html)
            else:
                link = re.search(
                    rf'<a [^>]*href="/games/{at["game"]}">Table {at["table"]}: ([^<]*)</a>', html
                )
                assert link and name in link.group(1), name


def test_the_last_rounds_tables_point_to_the_final_standings(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client, rounds="1")
    table = tables(client, evening)[0]
    play(client, table, deals=2)
    html = app.test_client().get(f"/games/{table['game']}").get_data(as_text=True)
    assert "That was the evening's last round: its page has the final standings." in html
    assert "New game, same players" not in html and "not seated yet" not in html


def test_the_pages_say_time_was_called_at_a_table_it_ended(client: FlaskClient, app: Flask) -> None:
    evening = new_evening(client)
    seated = tables(client, evening)
    play(client, seated[0], deals=2)  # table 1 plays its round out
    play(client, seated[1])  # table 2 plays one deal of two, then time is called
    assert client.post(f"{evening}/rounds/1/close", data={"final": "1"}).status_code == 302
    for html in (
        client.get(evening).get_data(as_text=True),
        app.test_client().get(f"{evening}/standings").get_data(as_text=True),
    ):
        assert "time called after 1 of 2 deals" in html
        assert "finished after 2 of 2 deals" in html and "of 1 deals" not in html


def test_the_directors_link_opened_alone_has_a_heading(client: FlaskClient) -> None:
    evening = new_evening(client)
    html = client.get(f"{evening}/director-link").get_data(as_text=True)
    assert "<h1>Director's link</h1>" in html
    # The director's page takes the code alone, under its own heading.
    assert 'id="director-code"' in html


def test_call_time_is_a_button_that_asks_first(client: FlaskClient) -> None:
    evening = new_evening(client)
    html = client.get(evening).get_data(as_text=True)
    form = re.search(r'<form method="get" action="([^"]+)">\s*<button [^>]*>Call time', html)
    assert form and form.group(1) == f"{evening}/rounds/1/close", html
    assert "Call time on round 1?" in client.get(form.group(1)).get_data(as_text=True)
