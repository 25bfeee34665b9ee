"""Statistics of Modern American, Hand and Foot and Burraco games: special hands in a
player's record, and the new kinds of canasta under the names their rule sets give them."""

from __future__ import annotations

import html as entities
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import CanastaKind
from scorekeeper.web.players import PER_DEAL

from .helpers.api import post_deal
from .helpers.history import person_id, words

Json = dict[str, Any]
PAIRS = [{"name": "A", "players": ["Ana", "Boris"]}, {"name": "B", "players": ["Vera", "Goran"]}]


def play(client: FlaskClient, variant: str, *deals: tuple[Json, Json]) -> str:
    created = client.post("/api/games", json={"variant": variant, "sides": PAIRS}).get_json()
    for first, second in deals:
        response = post_deal(client, created["id"], created["token"], first, second)
        assert response.status_code == 201, response.get_json()
    game_id: str = created["id"]
    return game_id


def page(client: FlaskClient, app: Flask, name: str) -> str:
    html = client.get(f"/players/{person_id(app, name)}").get_data(as_text=True)
    return entities.unescape(words(html))


def test_every_kind_of_canasta_has_a_row() -> None:
    """A player who made a kind the page had no row for broke their page."""
    assert set(PER_DEAL) == set(CanastaKind)


def test_special_hands_and_the_new_canastas_in_a_players_record(
    client: FlaskClient, app: Flask
) -> None:
    play(
        client,
        "american",
        (
            {"aces_canastas": 1, "natural_canastas": 1, "went_out": True, "meld_points": 300},
            {"meld_points": 100, "hand_points": 40},
        ),
        ({"special_hand": "straight", "went_out": True}, {"meld_points": 60, "hand_points": 30}),
    )
    ana = page(client, app, "Ana")
    # Ana sat for A: an aces canasta and a natural one over 2 deals, then a straight.
    assert "1 special hand laid down" in ana
    assert "Aces canastas per deal 0.50" in ana
    assert "Natural canastas per deal 0.50" in ana
    vera = page(client, app, "Vera")
    assert "special hand" not in vera and "Aces canastas" not in vera


def test_burracos_and_books_are_named_as_their_rule_sets_call_them(
    client: FlaskClient, app: Flask
) -> None:
    play(
        client,
        "burraco",
        (
            {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "meld_points": 385},
            {"pot_missed": True, "meld_points": 140, "hand_points": 95},
        ),
    )
    ana = page(client, app, "Ana")
    assert "Natural canastas per deal (clean burraco) 1.00" in ana
    assert "Mixed canastas per deal (dirty burraco) 1.00" in ana
    play(
        client,
        "hand-and-foot",
        (
            {
                "natural_canastas": 2,
                "mixed_canastas": 2,
                "wild_canastas": 1,
                "red_threes": 2,
                "went_out": True,
                "meld_points": 1450,
            },
            {"natural_canastas": 1, "meld_points": 300, "hand_points": 100},
        ),
    )
    ana = page(client, app, "Ana")
    # Two deals now: 3 natural canastas, called a clean book and a clean burraco.
    assert "Natural canastas per deal (clean book, clean burraco) 1.50" in ana
    assert "Wild canastas per deal (wild book) 0.50" in ana
    assert "Win rate by rule set" in ana and "Hand and Foot" in ana
