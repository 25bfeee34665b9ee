"""The rule sets through the JSON API (docs/API.md): deals each rule set refuses, and house
rules (RULES.md section 6), each figure worked out by hand from RULES.md."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from .helpers.api import assert_error, get_game, minimums, post_deal, scores, totals
from .helpers.variants_api import (
    CASE_A,
    CASE_B,
    RAILROAD_OUT,
    Json,
    alone,
    create,
    game_count,
    new_game,
    railroad,
    res,
    team,
)

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

# --------------------------------------------------------------------------- refusals


def _assert_deal_refused(
    client: FlaskClient,
    variant: str,
    sides: list[Json],
    good: list[Json],
    bad: list[Json],
    *paths: str,
) -> None:
    """After one good deal, ``bad`` is a 422 naming ``paths`` and changes nothing."""
    game_id, token, _ = new_game(client, variant, sides)
    assert post_deal(client, game_id, token, *good).status_code == 201
    before = get_game(client, game_id)
    assert_error(post_deal(client, game_id, token, *bad), 422, *paths)
    assert get_game(client, game_id) == before


SIX = [team("North", ["Ana", "Boris", "Vera"]), team("South", ["Goran", "Lena", "Mila"])]


@pytest.mark.parametrize(
    ("bad", "path"),
    [
        # 3 packs hold 6 red threes (section 3).
        ([res(300, natural=2, red=7, hand=20), res(100, hand=30)], "results.0.red_threes"),
        ([res(300, natural=2, red=4, hand=20), res(100, red=3, hand=30)], "results.1.red_threes"),
    ],
)
def test_classic_6_seven_red_threes_refused(
    client: FlaskClient, bad: list[Json], path: str
) -> None:
    good = [res(300, natural=2, red=6, hand=20), res(100, hand=30)]  # six are possible
    _assert_deal_refused(client, "classic-6", SIX, good, bad, path)


def test_classic_2_out_with_one_canasta_refused(client: FlaskClient) -> None:
    """Section 3: classic-2 goes out with two canastas."""
    sides = [alone("Ana"), alone("Boris")]
    good = [res(220, natural=1, mixed=1, out=True), res(100, hand=30)]
    bad = [res(220, natural=1, out=True), res(100, hand=30)]
    _assert_deal_refused(client, "classic-2", sides, good, bad, "results.0.went_out")


@pytest.mark.parametrize("missing", ["natural", "mixed", "wild", "sevens"])
def test_railroad_out_missing_a_kind_refused(client: FlaskClient, missing: str) -> None:
    """Section 5: going out needs one canasta of each of the four kinds."""
    sides = [alone("Ana"), alone("Boris")]
    short = dict(RAILROAD_OUT, **{f"{missing}_canastas": 0})
    good = [railroad(100, hand=30), RAILROAD_OUT]
    _assert_deal_refused(
        client, "railroad", sides, good, [railroad(100, hand=30), short], "results.1.went_out"
    )


@pytest.mark.parametrize("players", [1, 7])
def test_railroad_table_size_refused(client: FlaskClient, players: int) -> None:
    before = game_count(client)
    names = ["Ana", "Boris", "Vera", "Goran", "Lena", "Mila", "Petar"][:players]
    response = create(client, "railroad", [alone(name) for name in names])
    assert_error(response, 422, "sides")
    assert game_count(client) == before


@pytest.mark.parametrize(
    ("options", "path"),
    [
        ({"wild_canasta_bonus": 1000}, "options.wild_canasta_bonus"),  # classic has none
        ({"natural_canasta_bonus": 333}, "options.natural_canasta_bonus"),  # not a 5-multiple
        ({"red_three_bonus": 333}, "options.red_three_bonus"),
        (
            {
                "meld_minimums": [
                    {"from": None, "minimum": 15},
                    {"from": 3000, "minimum": 50},
                    {"from": 1500, "minimum": 90},
                ]
            },
            "options.meld_minimums",
        ),
        (
            {
                "meld_minimums": [
                    {"from": None, "minimum": 15},
                    {"from": 0, "minimum": 90},
                    {"from": 1500, "minimum": 50},
                ]
            },
            "options.meld_minimums",
        ),
    ],
)
def test_classic_option_refusals(client: FlaskClient, options: Json, path: str) -> None:
    before = game_count(client)
    sides = [team("Us", ["Ana", "Boris"]), team("Them", ["Vera", "Goran"])]
    assert_error(create(client, "classic", sides, options), 422, path)
    assert game_count(client) == before


def test_railroad_option_333_refused(client: FlaskClient) -> None:
    before = game_count(client)
    sides = [alone("Ana"), alone("Boris")]
    response = create(client, "railroad", sides, {"sevens_canasta_bonus": 333})
    assert_error(response, 422, "options.sevens_canasta_bonus")
    assert game_count(client) == before


# --------------------------------------------------------------------------- house rules

HOUSE_TIERS: list[Json] = [
    {"from": None, "minimum": 15},
    {"from": 0, "minimum": 50},
    {"from": 1000, "minimum": 90},
    {"from": 2000, "minimum": 120},
]
HOUSE = {"target": 3000, "natural_canasta_bonus": 600, "meld_minimums": HOUSE_TIERS}


def test_house_rules_game(client: FlaskClient) -> None:
    """Section 6: target 3000, natural canasta 600, minimums 50 / 90 from 1000 / 120 from
    2000."""
    sides = [team("Us", ["Ana", "Boris"]), team("Them", ["Vera", "Goran"])]
    game_id, token, created = new_game(client, "classic", sides, HOUSE)
    assert created["options"]["target"] == 3000
    assert created["options"]["natural_canasta_bonus"] == 600
    assert created["options"]["meld_minimums"] == HOUSE_TIERS
    assert created["options"]["mixed_canasta_bonus"] == 300  # untouched
    assert minimums(created) == [50, 50]

    # A with a natural of 600: 600 + 300 + 100 + 100 + 220 - 10 = 1310
    house_a = CASE_A
    # Two naturals of 600: 1200 + 320 - 20 = 1500
    two_naturals = res(320, natural=2, hand=20)
    expected = [
        # 1310 (1000..1995 -> 90); 265 (50)
        ([house_a, CASE_B], [1310, 265], [1310, 265], [90, 50], "in_progress"),
        # 2620 (2000+ -> 120); 265 + 1500 = 1765 (90)
        ([house_a, two_naturals], [1310, 1500], [2620, 1765], [120, 90], "in_progress"),
        # 2620 + 265 = 2885 (120); 1765 + 1310 = 3075 >= 3000 (120): side 1 wins
        ([CASE_B, house_a], [265, 1310], [2885, 3075], [120, 120], "finished"),
    ]
    in_force = [50, 50]
    for results, deal_scores, deal_totals, after, status in expected:
        response = post_deal(client, game_id, token, *results)
        assert response.status_code == 201, response.get_json()
        deal = response.get_json()
        assert scores(deal) == deal_scores
        assert totals(deal) == deal_totals
        assert minimums(deal) == after
        assert [r["meld_minimum"] for r in deal["results"]] == in_force
        assert deal["status"] == status
        in_force = after
    game = get_game(client, game_id)
    assert game["status"] == "finished"
    assert game["winner"] == 1
    assert totals(game) == [2885, 3075]
    assert minimums(game) == [120, 120]
    assert game["options"]["target"] == 3000
    assert game["options"]["natural_canasta_bonus"] == 600
    assert game["options"]["meld_minimums"] == HOUSE_TIERS
