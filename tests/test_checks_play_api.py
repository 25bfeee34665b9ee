"""The rules checks over JSON (API.md "Rules checks"): taking the pile and going out, with
their errors.

Expected numbers are worked out by hand from RULES.md (sections 1, 2, 5 and 8); the comment
next to each shows the arithmetic.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from .helpers.card_checks import Json, ok, post, refused

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone


# --------------------------------------------------------------------------- pickup


@pytest.mark.parametrize(
    ("request_body", "allowed", "rule"),
    [
        ({"top": "2", "natural_matches": 2, "side_has_melded": True}, False, "wild_on_top"),
        ({"top": "JK", "hand": "K K 2", "side_has_melded": True}, False, "wild_on_top"),
        ({"top": "3H", "natural_matches": 2, "side_has_melded": True}, False, "three_on_top"),
        ({"top": "3S", "hand": "3S 3C 3S", "side_has_melded": True}, False, "black_three_on_top"),
        # Frozen: only a natural pair of the top card's rank.
        (
            {"top": "K", "frozen": True, "hand": "K K 5", "side_has_melded": True},
            True,
            "natural_pair",
        ),
        (
            {"top": "K", "frozen": True, "hand": "K 2 5", "side_has_melded": True},
            False,
            "needs_natural_pair",
        ),
        (
            {"top": "K", "frozen": True, "hand": "5 6", "side_has_melded": True, "side_melds": "K"},
            False,
            "needs_natural_pair",
        ),
        # Not yet melded: frozen for that side.
        ({"top": "K", "hand": "Kh Kd 5"}, True, "natural_pair"),
        ({"top": "K", "hand": "K JK 5"}, False, "needs_natural_pair"),
        # Unfrozen and melded.
        ({"top": "K", "hand": "K K", "side_has_melded": True}, True, "natural_pair"),
        ({"top": "K", "hand": "K 2 5", "side_has_melded": True}, True, "natural_and_wild"),
        (
            {"top": "K", "hand": "5 6", "side_has_melded": True, "side_melds": ["K"]},
            True,
            "adds_to_meld",
        ),
        ({"top": "K", "hand": "2 JK", "side_has_melded": True}, False, "no_match"),
        (
            {"top": "K", "hand": "5 6", "side_has_melded": True, "side_melds": "Q A"},
            False,
            "no_match",
        ),
        # Counts instead of a hand.
        (
            {"top": "Q", "natural_matches": 1, "wild_cards": 1, "side_has_melded": True},
            True,
            "natural_and_wild",
        ),
        # One card in hand, a pile of one card.
        (
            {"top": "K", "hand": "5", "pile_size": 1, "side_has_melded": True, "side_melds": "K"},
            False,
            "one_card_pile",
        ),
        (
            {"top": "K", "hand": "5", "pile_size": 4, "side_has_melded": True, "side_melds": "K"},
            True,
            "adds_to_meld",
        ),
        # Railroad: a closed canasta takes no more cards.
        (
            {
                "variant": "railroad",
                "top": "K",
                "hand": "5 6",
                "side_has_melded": True,
                "side_melds": "K",
                "full_melds": "K",
            },
            False,
            "meld_full",
        ),
        (
            {
                "variant": "railroad",
                "top": "K",
                "hand": "5 6",
                "side_has_melded": True,
                "side_melds": "K",
            },
            True,
            "adds_to_meld",
        ),
    ],
)
def test_pickup_checks(client: FlaskClient, request_body: Json, allowed: bool, rule: str) -> None:
    """RULES.md sections 2 and 5: who may take the discard pile."""
    body = ok(post(client, "pickup", request_body))
    assert (body["allowed"], body["rule"]) == (allowed, rule)
    assert isinstance(body["reason"], str) and body["reason"].strip()


def test_pickup_black_three_with_the_freezing_option(client: FlaskClient) -> None:
    """With black_three_freezes the black three still is never taken."""
    body = ok(
        post(
            client,
            "pickup",
            {"top": "3C", "natural_matches": 2, "options": {"black_three_freezes": True}},
        )
    )
    assert body["allowed"] is False


@pytest.mark.parametrize(
    ("request_body", "status", "field"),
    [
        ({"top": "Z"}, 422, "top"),
        ({"top": "3"}, 422, "top"),
        ({}, 422, "top"),
        ({"top": "K", "hand": "K Z"}, 422, "hand"),
        ({"top": "K", "frozen": "no"}, 422, "frozen"),
        ({"top": "K", "natural_matches": -1}, 422, "natural_matches"),
        ({"top": "K", "cards_in_hand": "many"}, 422, "cards_in_hand"),
        ({"top": "K", "side_melds": "K X"}, 422, "side_melds"),
        ({"top": "K", "discard": "K"}, 422, "discard"),
        ({"top": "K", "variant": "nope"}, 422, "variant"),
    ],
)
def test_pickup_errors(client: FlaskClient, request_body: Json, status: int, field: str) -> None:
    """Bad input: an error naming the field."""
    body = refused(post(client, "pickup", request_body), status)
    assert field in body["fields"]


# --------------------------------------------------------------------------- going out


@pytest.mark.parametrize(
    ("request_body", "allowed", "concealed", "rule"),
    [
        (
            {"canastas": {}, "cards_left": 1, "melded_before": True},
            False,
            False,
            "out_needs_canastas",
        ),
        (
            {"canastas": {"natural": 1}, "cards_left": 1, "melded_before": True},
            True,
            False,
            "may_go_out",
        ),
        (
            {"canastas": {"mixed": 1}, "cards_left": 0, "melded_before": True},
            True,
            False,
            "may_go_out",
        ),
        (
            {"canastas": {"natural": 1}, "cards_left": 2, "melded_before": True},
            False,
            False,
            "cards_left",
        ),
        # Concealed: no earlier meld by this player (classic).
        ({"canastas": {"natural": 1}, "cards_left": 1}, True, True, "may_go_out"),
        (
            {"canastas": {"natural": 1}, "cards_left": 1, "last_discard": "7"},
            True,
            True,
            "may_go_out",
        ),
        # classic-2 and classic-6 need 2 canastas.
        (
            {"variant": "classic-2", "canastas": {"natural": 1}, "melded_before": True},
            False,
            False,
            "out_needs_canastas",
        ),
        (
            {"variant": "classic-2", "canastas": {"natural": 1, "mixed": 1}, "melded_before": True},
            True,
            False,
            "may_go_out",
        ),
        ({"variant": "classic-6", "canastas": {"mixed": 1}}, False, False, "out_needs_canastas"),
        ({"variant": "classic-6", "canastas": {"mixed": 2}}, True, True, "may_go_out"),
        # Railroad: one of each kind, a discard that is not a seven, never concealed.
        (
            {
                "variant": "railroad",
                "canastas": {"natural": 1, "mixed": 1, "wild": 1},
                "cards_left": 1,
                "last_discard": "K",
            },
            False,
            False,
            "out_needs_kinds",
        ),
        (
            {
                "variant": "railroad",
                "canastas": {"natural": 1, "mixed": 1, "wild": 1, "sevens": 1},
                "cards_left": 1,
                "last_discard": "K",
            },
            True,
            False,
            "may_go_out",
        ),
        (
            {
                "variant": "railroad",
                "canastas": {"natural": 1, "mixed": 1, "wild": 1, "sevens": 1},
                "cards_left": 1,
                "last_discard": "7D",
            },
            False,
            False,
            "seven_discard",
        ),
        (
            {
                "variant": "railroad",
                "canastas": {"natural": 1, "mixed": 1, "wild": 1, "sevens": 1},
                "cards_left": 0,
            },
            False,
            False,
            "must_discard",
        ),
        (
            {
                "variant": "railroad",
                "canastas": {"natural": 1, "mixed": 1, "wild": 1, "sevens": 1},
                "cards_left": 3,
                "last_discard": "K",
            },
            False,
            False,
            "cards_left",
        ),
    ],
)
def test_going_out_checks(
    client: FlaskClient, request_body: Json, allowed: bool, concealed: bool, rule: str
) -> None:
    """RULES.md sections 2, 3 and 5: who may go out, and whether it is concealed."""
    body = ok(post(client, "going-out", request_body))
    assert (body["allowed"], body["concealed"], body["rule"]) == (allowed, concealed, rule)
    assert isinstance(body["reason"], str) and body["reason"].strip()


def test_going_out_under_a_game(client: FlaskClient) -> None:
    """A classic-2 game needs 2 canastas; its id is enough to say so."""
    sides = [{"name": "Ana", "players": ["Ana"]}, {"name": "Boris", "players": ["Boris"]}]
    response = client.post("/api/games", json={"variant": "classic-2", "sides": sides})
    assert response.status_code == 201, response.get_json()
    game = response.get_json()["id"]
    one = ok(post(client, "going-out", {"game": game, "canastas": {"natural": 1}}))
    assert one["allowed"] is False
    two = ok(post(client, "going-out", {"game": game, "canastas": {"natural": 2}}))
    assert two["allowed"] is True


@pytest.mark.parametrize(
    ("request_body", "field"),
    [
        ({"canastas": {"golden": 1}}, "canastas.golden"),
        ({"canastas": [1]}, "canastas"),
        ({"canastas": {"natural": -1}}, "natural"),
        ({"canastas": {"natural": 1}, "cards_left": "one"}, "cards_left"),
        ({"canastas": {"natural": 1}, "last_discard": "Z"}, "last_discard"),
        ({"canastas": {"natural": 1}, "melded_before": 1}, "melded_before"),
        ({"canastas": {"natural": 1}, "hand": "K"}, "hand"),
        ({"canastas": {"wild": 1}, "variant": "nope"}, "variant"),
    ],
)
def test_going_out_errors(client: FlaskClient, request_body: Json, field: str) -> None:
    """Bad input: 422 naming the field."""
    body = refused(post(client, "going-out", request_body), 422)
    assert any(field in path for path in body["fields"]), body
