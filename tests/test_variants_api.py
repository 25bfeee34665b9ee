"""The rule sets (variants) through the JSON API (docs/API.md), scored by docs/RULES.md.

Every game here is played to its end with deals whose scores are worked out by hand from
RULES.md (sections 2, 3, 5, 6 and 8); the comment next to each deal shows the sum. Starting
totals close to the target keep the games short.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from .helpers.api import assert_error, get_game, minimums, post_deal, scores, totals

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

Json = dict[str, Any]

#: RULES.md section 2: below 0 -> 15; 0..1495 -> 50; 1500..2995 -> 90; 3000+ -> 120.
CLASSIC_TIERS: list[Json] = [
    {"from": None, "minimum": 15},
    {"from": 0, "minimum": 50},
    {"from": 1500, "minimum": 90},
    {"from": 3000, "minimum": 120},
]
#: RULES.md section 3: classic-6 needs 150 from 7500.
CLASSIC_6_TIERS: list[Json] = [*CLASSIC_TIERS, {"from": 7500, "minimum": 150}]
#: RULES.md section 5: <0 15; 0..4995 50; 5000..9995 90; 10000..14995 120; 15000+ 150.
RAILROAD_TIERS: list[Json] = [
    {"from": None, "minimum": 15},
    {"from": 0, "minimum": 50},
    {"from": 5000, "minimum": 90},
    {"from": 10_000, "minimum": 120},
    {"from": 15_000, "minimum": 150},
]


# --------------------------------------------------------------------------- helpers


def create(
    client: FlaskClient, variant: str, sides: list[Json], options: Json | None = None
) -> TestResponse:
    """POST /api/games."""
    body: Json = {"variant": variant, "sides": sides}
    if options is not None:
        body["options"] = options
    return client.post("/api/games", json=body)


def new_game(
    client: FlaskClient, variant: str, sides: list[Json], options: Json | None = None
) -> tuple[str, str, Json]:
    """Create a game; return its id, token and the created game."""
    response = create(client, variant, sides, options)
    assert response.status_code == 201, response.get_json()
    body: Json = response.get_json()
    return body["id"], body["token"], body


def alone(name: str, start: int = 0) -> Json:
    """A player alone: the side takes the player's name."""
    return {"players": [name], "start": start}


def team(name: str, players: list[str], start: int = 0) -> Json:
    return {"name": name, "players": players, "start": start}


def res(
    meld: int = 0,
    *,
    natural: int = 0,
    mixed: int = 0,
    wild: int | None = None,
    sevens: int | None = None,
    red: int = 0,
    out: bool = False,
    concealed: bool = False,
    hand: int = 0,
) -> Json:
    """One side's result; wild and sevens canastas only when given (Railroad)."""
    body: Json = {
        "meld_points": meld,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": red,
        "went_out": out,
        "concealed": concealed,
        "hand_points": hand,
    }
    if wild is not None:
        body["wild_canastas"] = wild
    if sevens is not None:
        body["sevens_canastas"] = sevens
    return body


def game_count(client: FlaskClient) -> int:
    count: int = client.get("/api/games").get_json()["total"]
    return count


# The worked cases of RULES.md section 8 (classic: 2 packs).
# A: 500 + 300 + 100 red three + 100 out + 220 - 10 = 1210
CASE_A = res(220, natural=1, mixed=1, red=1, out=True, hand=10)
# B: 2 x 100 red threes + 150 - 85 = 265
CASE_B = res(150, red=2, hand=85)
# E: 300 mixed + 95 - 40 = 355
CASE_E = res(95, mixed=1, hand=40)
# Railroad, section 8: 500 + 300 + 1000 + 1500 + 100 red three + 100 out + 600 - 0 = 4100
RAILROAD_OUT = res(600, natural=1, mixed=1, wild=1, sevens=1, red=1, out=True, hand=0)


def railroad(meld: int = 0, **figures: Any) -> Json:
    """A Railroad result: wild and sevens canastas always spelled out."""
    figures.setdefault("wild", 0)
    figures.setdefault("sevens", 0)
    return res(meld, **figures)


@dataclass(frozen=True)
class Step:
    """A deal to post and what the game shows after it (worked out by hand)."""

    results: list[Json]
    scores: list[int]
    totals: list[int]
    #: Each side's minimum for the next deal; None where RULES.md leaves it open.
    minimums: list[int | None]
    #: The winning side once this deal ends the game; None while it goes on.
    winner: int | None = None


def check_minimums(shown: list[int], expected: list[int | None]) -> None:
    assert len(shown) == len(expected)
    for got, want in zip(shown, expected, strict=True):
        if want is not None:
            assert got == want, (shown, expected)


def play(
    client: FlaskClient,
    variant: str,
    sides: list[Json],
    first_minimums: list[int | None],
    steps: list[Step],
) -> Json:
    """Create a game, post ``steps`` checking each, and return the finished game."""
    game_id, token, created = new_game(client, variant, sides)
    assert created["status"] == "in_progress"
    assert created["winner"] is None
    assert totals(created) == [side.get("start", 0) for side in sides]
    check_minimums(minimums(created), first_minimums)
    in_force = first_minimums
    for number, step in enumerate(steps, start=1):
        response = post_deal(client, game_id, token, *step.results)
        assert response.status_code == 201, response.get_json()
        deal = response.get_json()
        assert deal["number"] == number
        assert scores(deal) == step.scores
        assert totals(deal) == step.totals
        check_minimums(minimums(deal), step.minimums)
        check_minimums([r["meld_minimum"] for r in deal["results"]], in_force)
        finished = step.winner is not None
        assert deal["status"] == ("finished" if finished else "in_progress")
        assert deal["winner"] == step.winner
        assert finished == (number == len(steps))
        in_force = step.minimums
    game = get_game(client, game_id)
    last = steps[-1]
    assert game["status"] == "finished"
    assert game["winner"] == last.winner
    assert totals(game) == last.totals
    check_minimums(minimums(game), last.minimums)
    assert [scores(deal) for deal in game["deals"]] == [step.scores for step in steps]
    # A finished game takes no more deals, and the refusal changes nothing.
    assert_error(post_deal(client, game_id, token, *steps[-1].results), 409)
    assert get_game(client, game_id) == game
    return game


# --------------------------------------------------------------------------- variants


def test_variants_list_exactly_the_fourteen(client: FlaskClient) -> None:
    response = client.get("/api/variants")
    assert response.status_code == 200
    ids = [variant["id"] for variant in response.get_json()]
    classic = ["classic", "classic-2", "classic-3", "classic-6", "classic-6x3", "railroad"]
    family = ["samba", "bolivia", "cuban", "uruguay"]
    modern = ["american", "hand-and-foot", "burraco", "burraco-2"]  # RULES.md 13 to 15
    assert sorted(ids) == sorted([*classic, *family, *modern])
    assert len(ids) == 14


@pytest.mark.parametrize(
    ("variant_id", "target", "players", "sides", "tiers"),
    [
        ("classic", 5000, 4, 2, CLASSIC_TIERS),  # section 2
        ("classic-2", 5000, 2, 2, CLASSIC_TIERS),  # section 3
        ("classic-3", 5000, 3, 3, CLASSIC_TIERS),
        ("classic-6", 10_000, 6, 2, CLASSIC_6_TIERS),
    ],
)
def test_classic_variant_numbers(
    client: FlaskClient, variant_id: str, target: int, players: int, sides: int, tiers: list[Json]
) -> None:
    variants = {v["id"]: v for v in client.get("/api/variants").get_json()}
    variant = variants[variant_id]
    assert variant["target"] == target
    assert variant["players"] == players
    assert variant["sides"] == sides
    assert variant["meld_minimums"] == tiers
    assert isinstance(variant["name"], str) and variant["name"]


def test_classic_6x3_variant_numbers(client: FlaskClient) -> None:
    """Section 3: 6 players in 3 sides, game 7500, the classic tiers 15/50/90/120 and no
    more: the 150 tier from 7500 belongs to classic-6 (10 000) only."""
    variant = next(v for v in client.get("/api/variants").get_json() if v["id"] == "classic-6x3")
    assert variant["target"] == 7500
    assert variant["players"] == 6
    assert variant["sides"] == 3
    assert variant["meld_minimums"] == CLASSIC_TIERS


def test_railroad_variant_numbers(client: FlaskClient) -> None:
    """Section 5: 2 or more players each alone (2 to 6 here), game 20 000."""
    variant = next(v for v in client.get("/api/variants").get_json() if v["id"] == "railroad")
    assert variant["target"] == 20_000
    assert variant["players_range"] == [2, 6]
    assert variant["players"] == variant["sides"]
    assert 2 <= variant["players"] <= 6
    assert variant["meld_minimums"] == RAILROAD_TIERS


# --------------------------------------------------------------------------- whole games


def test_classic_game(client: FlaskClient) -> None:
    sides = [team("Us", ["Ana", "Boris"], 3000), team("Them", ["Vera", "Goran"], 0)]
    game = play(
        client,
        "classic",
        sides,
        [120, 50],  # 3000 -> 120; 0 -> 50
        [
            # A 1210, B 265: 3000 + 1210 = 4210, 0 + 265 = 265
            Step([CASE_A, CASE_B], [1210, 265], [4210, 265], [120, 50]),
            # again: 4210 + 1210 = 5420 >= 5000; 265 + 265 = 530
            Step([CASE_A, CASE_B], [1210, 265], [5420, 530], [120, 50], winner=0),
        ],
    )
    for deal in game["deals"]:
        for result in deal["results"]:
            assert "wild_canastas" not in result
            assert "sevens_canastas" not in result


def test_classic_2_game(client: FlaskClient) -> None:
    sides = [alone("Ana", 3800), alone("Boris", 1400)]
    # Ana goes out with two canastas: 500 + 300 + 100 red three + 100 out + 220 - 0 = 1220
    out = res(220, natural=1, mixed=1, red=1, out=True, hand=0)
    game = play(
        client,
        "classic-2",
        sides,
        [120, 50],  # 3800 -> 120; 1400 -> 50
        # 3800 + 1220 = 5020; 1400 + 265 = 1665 (1500..2995 -> 90)
        [Step([out, CASE_B], [1220, 265], [5020, 1665], [120, 90], winner=0)],
    )
    assert [side["name"] for side in game["sides"]] == ["Ana", "Boris"]
    assert [side["players"] for side in game["sides"]] == [["Ana"], ["Boris"]]


def test_classic_3_game(client: FlaskClient) -> None:
    sides = [alone("Ana", 4500), alone("Boris", 4400), alone("Vera", -100)]
    # Vera goes out: 500 + 300 + 100 + 100 + 220 - 0 = 1220
    vera_out = res(220, natural=1, mixed=1, red=1, out=True, hand=0)
    # Boris goes out: 500 + 300 + 100 + 220 - 0 = 1120
    boris_out = res(220, natural=1, mixed=1, out=True, hand=0)
    play(
        client,
        "classic-3",
        sides,
        [120, 120, 15],  # 4500, 4400 -> 120; -100 -> 15
        [
            # B 265, E 355, 1220 (3 red threes of 4): 4765, 4755, 1120
            Step([CASE_B, CASE_E, vera_out], [265, 355, 1220], [4765, 4755, 1120], [120, 120, 50]),
            # 60 - 20 = 40; 1120; Vera melded nothing: -100 red three - 55 = -155
            # 4765 + 40 = 4805; 4755 + 1120 = 5875 >= 5000; 1120 - 155 = 965
            Step(
                [res(60, hand=20), boris_out, res(0, red=1, hand=55)],
                [40, 1120, -155],
                [4805, 5875, 965],
                [120, 120, 50],
                winner=1,
            ),
        ],
    )


def test_classic_6_game(client: FlaskClient) -> None:
    sides = [
        team("North", ["Ana", "Boris", "Vera"], 7000),
        team("South", ["Goran", "Lena", "Mila"], 5000),
    ]
    # Two naturals (1000) + five red threes 1000 + 100 out + 400 - 10 = 2490
    north_out = res(400, natural=2, red=5, out=True, hand=10)
    # 300 mixed + 100 red three + 200 - 60 = 540
    south = res(200, mixed=1, red=1, hand=60)
    # 1000 + 320 - 20 = 1300
    north = res(320, natural=2, hand=20)
    # Out concealed with two naturals: 1000 + four red threes 400 + 200 + 310 - 15 = 1895
    south_out = res(310, natural=2, red=4, out=True, concealed=True, hand=15)
    play(
        client,
        "classic-6",
        sides,
        [120, 120],  # 7000 and 5000 are in 3000..7495
        [
            # 7000 + 2490 = 9490 (7500+ -> 150); 5000 + 540 = 5540 (120)
            Step([north_out, south], [2490, 540], [9490, 5540], [150, 120]),
            # 9490 + 1300 = 10790 >= 10000; 5540 + 1895 = 7435 (120)
            Step([north, south_out], [1300, 1895], [10_790, 7435], [150, 120], winner=0),
        ],
    )


def test_classic_6x3_game(client: FlaskClient) -> None:
    sides = [
        team("Red", ["Ana", "Boris"], 6000),
        team("Green", ["Vera", "Goran"], 6500),
        team("Blue", ["Lena", "Mila"], 0),
    ]
    play(
        client,
        "classic-6x3",
        sides,
        [120, 120, 50],
        [
            # B 265; 60 - 20 = 40; A 1210 (two canastas, as going out needs)
            # 6265, 6540, 1210
            Step(
                [CASE_B, res(60, hand=20), CASE_A],
                [265, 40, 1210],
                [6265, 6540, 1210],
                [120, 120, 50],
            ),
            # 1000 + 320 - 20 = 1300; A 1210; E 355: 7565 and 7750 both reach 7500, the
            # higher wins; 1210 + 355 = 1565 (90). Minimums from 7500 up: left open.
            Step(
                [res(320, natural=2, hand=20), CASE_A, CASE_E],
                [1300, 1210, 355],
                [7565, 7750, 1565],
                [None, None, 90],
                winner=1,
            ),
        ],
    )


def test_railroad_2_game(client: FlaskClient) -> None:
    sides = [alone("Ana", 16_000), {"name": "Boris", "start": 14_995}]
    # 500 natural + 100 red three + 300 - 45 = 855
    boris = railroad(300, natural=1, red=1, hand=45)
    game = play(
        client,
        "railroad",
        sides,
        [150, 120],  # 16000 -> 150; 14995 -> 120
        # 16000 + 4100 = 20100 >= 20000; 14995 + 855 = 15850 (150)
        [Step([RAILROAD_OUT, boris], [4100, 855], [20_100, 15_850], [150, 150], winner=0)],
    )
    assert [side["name"] for side in game["sides"]] == ["Ana", "Boris"]
    results = game["deals"][0]["results"]
    assert [r["wild_canastas"] for r in results] == [1, 0]
    assert [r["sevens_canastas"] for r in results] == [1, 0]


def test_railroad_3_game(client: FlaskClient) -> None:
    sides = [alone("Ana", 19_000), alone("Boris", 9995), {"name": "Vera", "start": -50}]
    game = play(
        client,
        "railroad",
        sides,
        [150, 90, 15],  # 19000 -> 150; 9995 -> 90; -50 -> 15
        [
            # 100 - 120 = -20; red threes never negative: 200 - 300 = -100; Vera 4100
            # 18980 (150), 9895 (90), 4050 (50)
            Step(
                [railroad(100, hand=120), railroad(0, red=2, hand=300), RAILROAD_OUT],
                [-20, -100, 4100],
                [18_980, 9895, 4050],
                [150, 90, 50],
            ),
            # Ana 4100 -> 23080; 300 mixed + 200 - 30 = 470 -> 10365 (120); 50 - 100 = -50
            # -> 4000 (50)
            Step(
                [RAILROAD_OUT, railroad(200, mixed=1, hand=30), railroad(50, hand=100)],
                [4100, 470, -50],
                [23_080, 10_365, 4000],
                [150, 120, 50],
                winner=0,
            ),
        ],
    )
    for deal in game["deals"]:
        for result in deal["results"]:
            assert "wild_canastas" in result
            assert "sevens_canastas" in result


def test_railroad_6_game(client: FlaskClient) -> None:
    sides = [
        alone("Ana", 19_500),
        alone("Boris", 0),
        {"name": "Vera", "players": ["Vera"], "start": 5000},
        alone("Goran", 10_000),
        {"name": "Lena", "start": 15_000},
        alone("Mila", -5),
    ]
    results = [
        railroad(600, natural=1, mixed=1, hand=100),  # 500 + 300 + 600 - 100 = 1300
        railroad(0, hand=50),  # -50
        railroad(100, hand=50),  # 50
        railroad(0, red=3, hand=40),  # 300 - 40 = 260 (never negative)
        railroad(60, hand=60),  # 0
        RAILROAD_OUT,  # 4100
    ]
    game = play(
        client,
        "railroad",
        sides,
        [150, 50, 90, 120, 150, 15],
        [
            # 20800 (150), -50 (15), 5050 (90), 10260 (120), 15000 (150), 4095 (50)
            Step(
                results,
                [1300, -50, 50, 260, 0, 4100],
                [20_800, -50, 5050, 10_260, 15_000, 4095],
                [150, 15, 90, 120, 150, 50],
                winner=0,
            )
        ],
    )
    assert [side["name"] for side in game["sides"]] == [
        "Ana",
        "Boris",
        "Vera",
        "Goran",
        "Lena",
        "Mila",
    ]


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
