"""The rules checks over JSON (API.md "Rules checks"): meld and initial meld, with their
errors (taking the pile and going out: tests/test_checks_play_api.py).

Expected numbers are worked out by hand from RULES.md (sections 1, 2, 5 and 8); the comment
next to each shows the arithmetic.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from .helpers.card_checks import Json, new_game, ok, post, refused

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone


# --------------------------------------------------------------------------- meld


def test_api_md_meld_example(client: FlaskClient) -> None:
    """API.md: 9 9 9 2 2 JK is legal; 3 x 10 + 2 x 20 + 50 = 120."""
    body = ok(post(client, "meld", {"variant": "classic", "cards": "9 9 9 2 2 JK"}))
    assert body["legal"] is True
    assert body["rank"] == "9"
    assert body["naturals"] == 3
    assert body["wilds"] == 3
    assert body["points"] == 120
    assert body["canasta"] is None
    assert isinstance(body["reason"], str) and body["reason"].strip()
    assert {"legal", "rank", "naturals", "wilds", "points", "canasta", "reason"} <= set(body)


@pytest.mark.parametrize(
    ("request_body", "legal", "points", "canasta"),
    [
        ({"cards": "5 5 2"}, True, 30, None),  # section 8: 5 + 5 + 20; variant defaults classic
        ({"variant": "classic", "cards": "5 2 2"}, False, 45, None),  # one natural: 5 + 40
        ({"variant": "classic", "cards": "9 9 2 2 2 JK"}, False, 130, None),  # 20 + 60 + 50
        ({"variant": "classic", "cards": "5 5 2 2 2"}, False, 70, None),  # 10 + 60
        (
            {
                "variant": "classic",
                "cards": "5 5 2 2 2",
                "options": {"wilds_may_outnumber_naturals": True},
            },
            True,
            70,
            None,
        ),
        ({"variant": "classic", "cards": "3H 3D 3H"}, False, 0, None),  # red threes: 0
        ({"variant": "classic", "cards": ["K", "K", "K"]}, True, 30, None),  # a list of cards
        ({"variant": "classic", "cards": "k,k,k,k,k,2,jk"}, True, 120, "mixed"),  # 50 + 70
        ({"variant": "classic", "cards": "7 7 7 7 7 7 7"}, True, 35, "natural"),  # 7 x 5
        ({"variant": "railroad", "cards": "7 7 7 7 7 7 7"}, True, 35, "sevens"),
        ({"variant": "railroad", "cards": "2 2 2 2 JK JK JK"}, True, 230, "wild"),  # 80 + 150
        ({"variant": "classic", "cards": "2 2 2 2 JK JK JK"}, False, 230, None),
        ({"variant": "railroad", "cards": "K K K K K K K K"}, False, 80, None),  # over 7
        ({"variant": "classic", "cards": "K K K K K K K K"}, True, 80, "natural"),
        ({"variant": "classic", "cards": "3S 3C 3S"}, False, 15, None),  # not going out
        ({"variant": "classic", "cards": "3S 3C 3S", "going_out": True}, True, 15, None),
        ({"variant": "classic", "cards": "3S 3C 3S 3C 3S", "going_out": True}, False, 25, None),
        ({"variant": "railroad", "cards": "3S 3C 3S 3C 3S", "going_out": True}, True, 25, None),
    ],
)
def test_meld_checks(
    client: FlaskClient, request_body: Json, legal: bool, points: int, canasta: str | None
) -> None:
    """Variant, options and going_out are honoured."""
    body = ok(post(client, "meld", request_body))
    assert body["legal"] is legal
    assert body["points"] == points
    assert body["canasta"] == canasta
    assert isinstance(body["reason"], str) and body["reason"].strip()


def test_meld_refusal_names_the_rule(client: FlaskClient) -> None:
    """A refusal says which rule is broken."""
    body = ok(post(client, "meld", {"variant": "classic", "cards": "9 9 2 2 2 JK"}))
    assert body["legal"] is False
    assert body["rule"] == "three_wilds"
    assert "3" in body["reason"] and "wild" in body["reason"]
    railroad = ok(post(client, "meld", {"variant": "railroad", "cards": "K K K K K K K K"}))
    assert railroad["rule"] == "meld_full"


def test_meld_under_a_game_uses_its_rules(client: FlaskClient) -> None:
    """A game id brings its rule set and house rules."""
    railroad, _ = new_game(client, "railroad")
    body = ok(post(client, "meld", {"game": railroad, "cards": "2 2 2 2 2 2 2"}))
    assert (body["legal"], body["canasta"], body["points"]) == (True, "wild", 140)  # 7 x 20
    lenient, _ = new_game(client, options={"wilds_may_outnumber_naturals": True})
    body = ok(post(client, "meld", {"game": lenient, "cards": "5 5 2 2 2"}))
    assert body["legal"] is True
    strict, _ = new_game(client)
    body = ok(post(client, "meld", {"game": strict, "cards": "5 5 2 2 2"}))
    assert body["legal"] is False


@pytest.mark.parametrize(
    ("request_body", "field"),
    [
        ({"variant": "classic", "cards": "9 9 Z"}, "cards"),
        ({"variant": "classic", "cards": "11 11 11"}, "cards"),
        ({"variant": "classic", "cards": "1 1 1"}, "cards"),
        ({"variant": "classic", "cards": "3 3 3", "going_out": True}, "cards"),
        ({"variant": "classic", "cards": 999}, "cards"),
        ({"variant": "classic", "cards": ["K", 2]}, "cards"),
        ({"variant": "poker", "cards": "K K K"}, "variant"),
        ({"variant": 5, "cards": "K K K"}, "variant"),
        ({"variant": "classic", "cards": "K K K", "colour": "red"}, "colour"),
        ({"variant": "classic", "cards": "K K K", "options": {"jokers_wild": True}}, None),
        ({"variant": "classic", "cards": "K K K", "options": []}, "options"),
        ({"variant": "classic", "cards": "K K K", "going_out": "yes"}, "going_out"),
        (
            {
                "variant": "classic",
                "cards": "K K K",
                "options": {"wilds_may_outnumber_naturals": "yes"},
            },
            "options.wilds_may_outnumber_naturals",
        ),
    ],
)
def test_meld_errors_are_422(client: FlaskClient, request_body: Json, field: str | None) -> None:
    """A card that does not exist, an unknown variant, field or option: 422 naming it."""
    body = refused(post(client, "meld", request_body), 422)
    if field is not None:
        assert field in body["fields"]
        assert body["fields"][field]
    else:
        assert body["fields"]
        assert any(path.startswith("options") for path in body["fields"])


def test_unknown_option_names_it(client: FlaskClient) -> None:
    """An unknown house option is a 422 that names it."""
    body = refused(post(client, "meld", {"cards": "K K K", "options": {"jokers_wild": True}}), 422)
    assert "options.jokers_wild" in body["fields"]


@pytest.mark.parametrize("path", ["meld", "initial-meld", "pickup", "going-out"])
@pytest.mark.parametrize("data", [b"{", b"not json", b"[1, 2]", b"\xff\xfe", b""])
def test_malformed_json_is_400(client: FlaskClient, path: str, data: bytes) -> None:
    """Malformed JSON, or JSON that is not an object: 400."""
    response = client.post(f"/api/check/{path}", data=data, content_type="application/json")
    refused(response, 400)


@pytest.mark.parametrize("path", ["meld", "initial-meld", "pickup", "going-out"])
def test_unknown_game_is_404(client: FlaskClient, path: str) -> None:
    """A game id the app does not know: 404."""
    bodies: dict[str, Json] = {
        "meld": {"cards": "K K K"},
        "initial-meld": {"melds": ["K K K"]},
        "pickup": {"top": "K"},
        "going-out": {"canastas": {"natural": 1}},
    }
    for game in ("nosuchgame123", "../etc/passwd", "x" * 100):
        refused(post(client, path, {**bodies[path], "game": game}), 404)


# --------------------------------------------------------------------------- initial meld


def test_api_md_initial_meld_example(client: FlaskClient) -> None:
    """API.md and RULES.md section 8: K-K-K (30) and 5-5-2 (30) = 60, short of 90 at 1600."""
    body = ok(
        post(
            client,
            "initial-meld",
            {"variant": "classic", "score": 1600, "melds": ["K K K", "5 5 2"]},
        )
    )
    assert body["required"] == 90
    assert body["points"] == 60
    assert body["meets"] is False
    assert isinstance(body["reason"], str) and body["reason"].strip()


@pytest.mark.parametrize(
    ("request_body", "required", "points", "meets"),
    [
        ({"score": -5, "melds": ["K K K"]}, 15, 30, True),  # default classic, 30 >= 15
        ({"score": 0, "melds": ["K K K"]}, 50, 30, False),
        ({"score": 0, "melds": ["K K K", "Q Q Q"]}, 50, 60, True),  # 30 + 30
        ({"score": 1495, "melds": ["A A A"]}, 50, 60, True),
        ({"score": 1500, "melds": ["A A A"]}, 90, 60, False),
        ({"score": 2995, "melds": ["A A 2 2"]}, 90, 80, False),  # 40 + 40
        ({"score": 3000, "melds": ["A A 2 2", "JK JK K K"]}, 120, 200, True),  # 80 + 120
        ({"variant": "railroad", "score": 4995, "melds": ["A A A"]}, 50, 60, True),
        ({"variant": "railroad", "score": 5000, "melds": ["A A A"]}, 90, 60, False),
        ({"variant": "railroad", "score": 15000, "melds": ["2 2 2 2 JK JK JK"]}, 150, 230, True),
        ({"variant": "classic-6", "score": 7500, "melds": ["A A A"]}, 150, 60, False),
        ({"score": 0, "melds": [["K", "K", "K"], "A A 2"]}, 50, 90, True),  # 30 + 60
        # The pile's top card joins the natural pair and counts: K K + K = 30.
        ({"score": -5, "melds": ["K K"], "pile_top": "K"}, 15, 30, True),
        ({"score": 0, "melds": ["K K"], "pile_top": "KS"}, 50, 30, False),
        ({"score": 1500, "melds": ["A A A", "K K"], "pile_top": "k"}, 90, 90, True),  # 60 + 30
        ({"score": 0, "melds": ["A A A"], "pile_top": None}, 50, 60, True),
        ({"score": 0, "melds": ["A A A"], "pile_top": ""}, 50, 60, True),
        # Only card points: a natural canasta of kings is 70, no 500 bonus.
        ({"score": 1500, "melds": ["K K K K K K K"]}, 90, 70, False),
    ],
)
def test_initial_meld_checks(
    client: FlaskClient, request_body: Json, required: int, points: int, meets: bool
) -> None:
    """Minimums by total and variant; melds add up; the pile's top card counts."""
    body = ok(post(client, "initial-meld", request_body))
    assert (body["required"], body["points"], body["meets"]) == (required, points, meets)
    assert isinstance(body["reason"], str) and body["reason"].strip()


@pytest.mark.parametrize(
    ("melds", "pile_top"),
    [
        (["A A A A", "5 2 2"], None),  # 5-2-2 is not legal
        (["A A A A", "3H 3D 3H"], None),  # red threes are never melded
        (["A A A A", "3S 3C 3S"], None),  # black threes only when going out
        (["A A A A", "K K Q"], None),
        (["Q Q Q"], "K"),  # no natural pair of kings
        (["K 2", "A A A A"], "K"),  # a natural and a wild are not a natural pair
        (["A A A A"], "2"),  # a wild card on top
        (["A A A A"], "JK"),
        (["A A A A"], "3S"),  # a three on top
        (["A A A A"], "3H"),
        ([], None),
    ],
)
def test_initial_meld_that_does_not_meet(
    client: FlaskClient, melds: list[str], pile_top: str | None
) -> None:
    """A A A A alone (80) would meet the 50 at 0; each of these is refused anyway."""
    body = ok(post(client, "initial-meld", {"score": 0, "melds": melds, "pile_top": pile_top}))
    assert body["meets"] is False
    assert body["required"] == 50
    assert isinstance(body["reason"], str) and body["reason"].strip()


def test_initial_meld_one_meld_per_rank(client: FlaskClient) -> None:
    """RULES.md section 2: a side has one meld per rank. Four 5-5-2 melds (4 x 30 = 120,
    the 120 needed at 3000) are one meld of fives with four wild cards: not an opening."""
    body = ok(post(client, "initial-meld", {"score": 3000, "melds": ["5 5 2"] * 4}))
    assert body["required"] == 120
    assert body["meets"] is False, body["reason"]


def test_initial_meld_reason_names_the_illegal_meld(client: FlaskClient) -> None:
    """The refusal says which meld is not legal (the second: 5-2-2)."""
    body = ok(post(client, "initial-meld", {"score": 0, "melds": ["A A A A", "5 2 2"]}))
    assert body["meets"] is False
    assert "2" in body["reason"] and "meld" in body["reason"].lower()


def test_initial_meld_options(client: FlaskClient) -> None:
    """A meld_minimums override changes ``required``; other options reach the melds."""
    tiers = [{"from": None, "minimum": 10}, {"from": 0, "minimum": 75}]
    body = ok(
        post(
            client,
            "initial-meld",
            {"score": 100, "melds": ["K K K", "A A A"], "options": {"meld_minimums": tiers}},
        )
    )
    assert (body["required"], body["points"], body["meets"]) == (75, 90, True)  # 30 + 60
    low = ok(
        post(
            client,
            "initial-meld",
            {"score": -100, "melds": ["5 5 5"], "options": {"meld_minimums": tiers}},
        )
    )
    assert (low.get("required"), low["points"], low["meets"]) == (10, 15, True)
    lenient = ok(
        post(
            client,
            "initial-meld",
            {
                "score": 0,
                "melds": ["5 5 2 2 2"],
                "options": {"wilds_may_outnumber_naturals": True},
            },
        )
    )
    assert (lenient["points"], lenient["meets"]) == (70, True)  # 10 + 60 >= 50
    strict = ok(post(client, "initial-meld", {"score": 0, "melds": ["5 5 2 2 2"]}))
    assert strict["meets"] is False


def test_initial_meld_for_a_game_side_uses_its_total(client: FlaskClient) -> None:
    """After RULES.md section 8 case D for side 0 (2 natural canastas, 4 red threes,
    concealed, 310 melded, 15 in hand: 1000 + 800 + 200 + 310 - 15 = 2295) and side 1
    melding nothing with 120 in hand (-120), side 0 needs 90 and side 1 needs 15."""
    game, token = new_game(client)
    deal = {
        "results": [
            {
                "meld_points": 310,
                "natural_canastas": 2,
                "mixed_canastas": 0,
                "red_threes": 4,
                "went_out": True,
                "concealed": True,
                "hand_points": 15,
            },
            {"meld_points": 0, "hand_points": 120},
        ]
    }
    response = client.post(
        f"/api/games/{game}/deals", json=deal, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 201, response.get_json()
    sides = client.get(f"/api/games/{game}").get_json()["sides"]
    assert [side["total"] for side in sides] == [2295, -120]
    melds = ["K K K", "5 5 2"]  # 30 + 30 = 60
    first = ok(post(client, "initial-meld", {"game": game, "side": 0, "melds": melds}))
    assert (first["required"], first["points"], first["meets"]) == (90, 60, False)
    assert first["required"] == sides[0]["meld_minimum"]
    second = ok(post(client, "initial-meld", {"game": game, "side": 1, "melds": melds}))
    assert (second["required"], second["points"], second["meets"]) == (15, 60, True)
    assert second["required"] == sides[1]["meld_minimum"]


def test_initial_meld_for_a_game_with_its_own_tiers(client: FlaskClient) -> None:
    """A game's house tiers and starting totals decide the minimum."""
    tiers = [
        {"from": None, "minimum": 20},
        {"from": 0, "minimum": 60},
        {"from": 1000, "minimum": 100},
    ]
    game, _ = new_game(client, options={"meld_minimums": tiers}, starts=[1000, 0])
    first = ok(post(client, "initial-meld", {"game": game, "side": 0, "melds": ["A A A"]}))
    assert (first["required"], first["meets"]) == (100, False)  # 60 < 100
    second = ok(post(client, "initial-meld", {"game": game, "side": 1, "melds": ["A A A"]}))
    assert (second["required"], second["meets"]) == (60, True)  # 60 >= 60


def test_initial_meld_for_a_railroad_game(client: FlaskClient) -> None:
    """A Railroad game started at 5000 and 15 000: minimums 90 and 150."""
    game, _ = new_game(client, "railroad", starts=[5000, 15_000])
    melds = ["2 2 JK"]  # a wild meld: 20 + 20 + 50 = 90
    first = ok(post(client, "initial-meld", {"game": game, "side": 0, "melds": melds}))
    assert (first["required"], first["points"], first["meets"]) == (90, 90, True)
    second = ok(post(client, "initial-meld", {"game": game, "side": 1, "melds": melds}))
    assert (second["required"], second["meets"]) == (150, False)


@pytest.mark.parametrize(
    ("request_body", "field"),
    [
        ({"score": 0, "melds": ["K K K", "Z Z Z"]}, "melds.1"),
        ({"score": 0, "melds": ["K K 3"]}, "melds.0"),
        ({"score": 0, "melds": ["K K"], "pile_top": "11"}, "pile_top"),
        ({"score": 0, "melds": ["K K"], "pile_top": 10}, "pile_top"),
        ({"score": 0, "melds": "K K K"}, "melds"),
        ({"score": 0}, "melds"),
        ({"score": "lots", "melds": ["K K K"]}, "score"),
        ({"variant": "nope", "score": 0, "melds": ["K K K"]}, "variant"),
        ({"score": 0, "melds": ["K K K"], "cards": "K"}, "cards"),
    ],
)
def test_initial_meld_errors_are_422(client: FlaskClient, request_body: Json, field: str) -> None:
    """Bad cards name their meld; bad fields name themselves."""
    body = refused(post(client, "initial-meld", request_body), 422)
    assert field in body["fields"]


def test_initial_meld_for_a_side_the_game_lacks(client: FlaskClient) -> None:
    """Side 2 of a two-side game: 422 on ``side``."""
    game, _ = new_game(client)
    body = refused(post(client, "initial-meld", {"game": game, "side": 2, "melds": ["A A A"]}), 422)
    assert "side" in body["fields"]
