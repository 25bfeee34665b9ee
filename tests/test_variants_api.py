"""The rule sets (variants) through the JSON API (docs/API.md), scored by docs/RULES.md:
each variant, and whole games (refusals and house rules: tests/test_variants_api_house.py).

Every game here is played to its end with deals whose scores are worked out by hand from
RULES.md (sections 2, 3, 5, 6 and 8); the comment next to each deal shows the sum. Starting
totals close to the target keep the games short.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from .helpers.variants_api import (
    CASE_A,
    CASE_B,
    CASE_E,
    CLASSIC_6_TIERS,
    CLASSIC_TIERS,
    RAILROAD_OUT,
    RAILROAD_TIERS,
    Json,
    Step,
    alone,
    play,
    railroad,
    res,
    team,
)

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

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
