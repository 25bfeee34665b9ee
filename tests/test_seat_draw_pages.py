"""The draw for seats on the new-game page, and the seats a game keeps (API.md "Seat draw",
RULES.md section 9): a plain form post, no JavaScript needed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store.models import Game, Player

#: The pages over the store: the API's tests of the same commands run them on PostgreSQL.
pytestmark = pytest.mark.one_database

NAMES = ["Ana", "Boris", "Vera", "Goran"]


def form(cards: list[str], names: list[str] | None = None, **extra: str) -> dict[str, str]:
    """The classic new-game form with each seat's player and the card they drew."""
    data = {"sides-0-name": "We", "sides-1-name": "They", "first_dealer": "0", "target": "5000"}
    for index, name in enumerate(names or NAMES):
        data[f"players-{index}"] = name
    for index, card in enumerate(cards):
        data[f"cards-{index}-seat"] = str(index)  # as the page posts it
        if card == "JK":
            data[f"cards-{index}-rank"] = "JK"
        elif card:
            data[f"cards-{index}-rank"], data[f"cards-{index}-suit"] = card[:-1], card[-1]
    data.update(extra)
    return data


def seats_on(html: str) -> list[str]:
    return [
        re.search(rf'id="players-{i}"[^>]*value="([^"]*)"', html).group(1)  # type: ignore[union-attr]
        for i in range(html.count('list="roster"'))
    ]


def dealer_on(html: str) -> int:
    return int(re.search(r'name="first_dealer" value="(\d+)" checked', html).group(1))  # type: ignore[union-attr]


def checked(html: str, name: str) -> str | None:
    match = re.search(rf'name="{name}" value="([^"]+)" checked', html)
    return match.group(1) if match else None


def test_the_draw_fills_the_seats_and_the_first_dealer(client: FlaskClient, app: Flask) -> None:
    # Ana QS, Boris 7H, Vera AC, Goran KD: Vera highest, Goran her partner.
    response = client.post("/games/new", data=form(["QS", "7H", "AC", "KD"], draw="1"))
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert seats_on(html) == ["Vera", "Ana", "Goran", "Boris"]
    assert dealer_on(html) == 3  # Boris, to the right of Vera
    assert "Boris deals first" in html
    # The cards follow their players to their new seats.
    assert (checked(html, "cards-0-rank"), checked(html, "cards-0-suit")) == ("A", "C")
    assert (checked(html, "cards-3-rank"), checked(html, "cards-3-suit")) == ("7", "H")
    # The table drawing: Vera at seat 1 with A♣, Boris deals first; nothing was started.
    drawing = html.split('class="table-drawing', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r'class="table-name">([^<]+)<', drawing) == ["Vera", "Ana", "Goran", "Boris"]
    assert "A♣" in drawing and "7♥" in drawing
    with app.app_context():
        assert Game.query.count() == 0  # nothing is started by the draw


def test_a_joker_and_an_equal_card_name_who_draws_again(client: FlaskClient) -> None:
    response = client.post("/games/new", data=form(["QS", "JK", "AC", "QS"], draw="1"))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Draw again: Ana, Boris, Goran" in html
    # Names stay where they were typed; the redrawn cards are cleared, Vera's kept.
    assert seats_on(html) == NAMES
    assert checked(html, "cards-0-rank") is None and checked(html, "cards-1-rank") is None
    assert checked(html, "cards-2-rank") == "A"
    assert "Boris draws again." in html


def test_a_missing_card_or_name_is_named(client: FlaskClient) -> None:
    html = client.post(
        "/games/new",
        data=form(["QS", "", "AC", "K"], names=["Ana", "Boris", "", "Goran"], draw="1"),
    ).get_data(as_text=True)
    assert "Tap the card Boris drew: its rank and its suit." in html
    assert "Tap the card Goran drew" in html  # a rank without its suit
    assert "Each player needs a name." in html


def test_a_forged_card_is_a_card_not_tapped(client: FlaskClient) -> None:
    data = form(["QS", "7H", "AC", "KD"], draw="1")
    data.update({"cards-1-rank": "Z", "cards-2-suit": "X"})
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Tap the card Boris drew" in html and "Tap the card Vera drew" in html
    del data["draw"]
    assert client.post("/games/new", data=data).status_code == 422  # refused, never a 500


def test_a_name_twice_is_refused(client: FlaskClient) -> None:
    response = client.post(
        "/games/new",
        data=form(["QS", "7H", "AC", "KD"], names=["Ana", "Boris", "Ana", "Goran"], draw="1"),
    )
    assert response.status_code == 422
    assert "Ana is named twice" in response.get_data(as_text=True)


def test_starting_after_the_draw_keeps_the_seats_and_the_cards(
    client: FlaskClient, app: Flask
) -> None:
    drawn = client.post("/games/new", data=form(["QS", "7H", "AC", "KD"], draw="1"))
    html = drawn.get_data(as_text=True)
    data = form(["AC", "QS", "KD", "7H"], names=seats_on(html), first_dealer=str(dealer_on(html)))
    response = client.post("/games/new", data=data)
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "<strong>Boris</strong> deals" in sheet
    assert "Seated by the draw for seats." in sheet
    seats = sheet.split('class="table-drawing', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r'class="table-name">([^<]+)<', seats) == ["Vera", "Ana", "Goran", "Boris"]
    # Sides from the seats: Vera and Goran (We) against Ana and Boris (They).
    game = client.get(f"/api/games/{game_id}").get_json()
    assert [side["players"] for side in game["sides"]] == [["Vera", "Goran"], ["Ana", "Boris"]]
    exported = client.get(f"/api/games/{game_id}/export").get_json()
    assert [side["cards"] for side in exported["sides"]] == [["AC", "KD"], ["QS", "7H"]]
    # The dealer goes on clockwise: Vera deals the second deal.
    deal = {"results": [{"meld_points": 120}, {"meld_points": 90}]}
    code = client.get(f"/games/{game_id}/scorer-code").get_data(as_text=True)
    token = re.search(r"/join#([\w-]+)", code)
    assert token
    with app.app_context():
        assert {p.name: p.card for p in Player.query.all()} == {
            "Vera": "AC",
            "Goran": "KD",
            "Ana": "QS",
            "Boris": "7H",
        }
    assert (
        client.post(
            f"/api/games/{game_id}/deals",
            json=deal,
            headers={"Authorization": f"Bearer {token.group(1)}"},
        ).status_code
        == 201
    )
    assert "<strong>Vera</strong> deals" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_game_without_a_draw_keeps_no_cards(client: FlaskClient) -> None:
    response = client.post("/games/new", data=form([], first_dealer="2"))
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "<strong>Vera</strong> deals" in sheet
    assert "Seated by the draw" not in sheet and 'class="table-card' not in sheet
    assert all(
        "cards" not in side
        for side in client.get(f"/api/games/{game_id}/export").get_json()["sides"]
    )


def test_cards_that_would_draw_again_are_not_kept(client: FlaskClient) -> None:
    response = client.post("/games/new", data=form(["QS", "QS", "AC", "KD"]))
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    assert all(
        "cards" not in side
        for side in client.get(f"/api/games/{game_id}/export").get_json()["sides"]
    )


def test_six_in_three_sides_of_two(client: FlaskClient) -> None:
    names = ["Ana", "Boris", "Vera", "Goran", "Lidija", "Stefan"]
    data = form(["9S", "10S", "JS", "QS", "KS", "AS"], names=names, draw="1")
    data.update({"sides-2-name": "Others", "target": "7500"})
    html = client.post("/games/new?variant=classic-6x3", data=data).get_data(as_text=True)
    # Sides Stefan+Lidija, Goran+Vera, Boris+Ana; seats 1st, 3rd, 5th, 2nd, 4th, 6th.
    assert seats_on(html) == ["Stefan", "Goran", "Boris", "Lidija", "Vera", "Ana"]
    assert dealer_on(html) == 5


def test_railroad_each_alone(client: FlaskClient) -> None:
    data = form(["3C", "KH", "7D"], names=["Ana", "Boris", "Vera"], draw="1")
    html = client.post("/games/new?variant=railroad&players=3", data=data).get_data(as_text=True)
    assert seats_on(html) == ["Boris", "Vera", "Ana"]
    assert dealer_on(html) == 2


@pytest.mark.parametrize("language", ["mk", "ru", "sk"])
def test_the_draw_speaks_the_page_language(client: FlaskClient, language: str) -> None:
    client.get(f"/language/{language}")
    page = client.get("/games/new").get_data(as_text=True)
    assert "Draw for seats" not in page
    html = client.post("/games/new", data=form(["QS", "JK", "AC", "KD"], draw="1")).get_data(
        as_text=True
    )
    assert "Boris" in html and "Draw again" not in html and "draws again" not in html
    seated = client.post("/games/new", data=form(["QS", "7H", "AC", "KD"], draw="1")).get_data(
        as_text=True
    )
    assert "deals first" not in seated and "Seated by the draw" not in seated


def test_import_and_create_refuse_bad_cards(client: FlaskClient) -> None:
    sides: list[dict[str, Any]] = [
        {"name": "We", "players": ["Ana", "Boris"], "cards": ["QS", "ZZ"]},
        {"name": "They", "players": ["Vera", "Goran"], "cards": ["AC", "KD"]},
    ]
    response = client.post("/api/games", json={"variant": "classic", "sides": sides})
    assert response.status_code == 422
    assert list(response.get_json()["fields"]) == ["sides.0.cards.1"]
    sides[0]["cards"] = ["QS", "KD"]
    response = client.post("/api/games", json={"variant": "classic", "sides": sides})
    assert response.status_code == 422
    assert set(response.get_json()["fields"]) == {"sides.0.cards.1", "sides.1.cards.1"}
    sides[0]["cards"] = ["QS"]
    assert list(
        client.post("/api/games", json={"variant": "classic", "sides": sides}).get_json()["fields"]
    ) == ["sides.0.cards"]
    sides[0]["cards"] = ["QS", "7H"]
    created = client.post("/api/games", json={"variant": "classic", "sides": sides})
    assert created.status_code == 201
    document = client.get(f"/api/games/{created.get_json()['id']}/export").get_json()
    assert client.post("/api/games/import", json=document).status_code == 201
    document["sides"][1]["cards"] = ["AC", "JK"]
    refused = client.post("/api/games/import", json=document)
    assert refused.status_code == 422 and list(refused.get_json()["fields"]) == ["sides.1.cards.1"]
