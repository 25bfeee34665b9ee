"""The season ladder (API.md "Seasons and results"): each finished evening's places score the
season's points table, added up per pair or player; the table a director types is checked.

The worked examples are counted by hand; the properties hold for every table a director may
type and every season of evenings.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.season import (
    DEFAULT_POINTS,
    MOST_PLACES,
    LadderLine,
    PointsError,
    SeasonEvening,
    check_points,
    ladder,
    points_for,
)

SETTINGS = settings(max_examples=200, database=None, deadline=None)

ANA = ("Ana", "Boris")
VERA = ("Vera", "Goran")
DANA = ("Dana", "Ivo")
MILA = ("Mila", "Petar")


def test_the_default_table_scores_twelve_ten_eight_then_one_fewer_a_place() -> None:
    assert [points_for(place, DEFAULT_POINTS) for place in range(1, 13)] == [
        12,
        10,
        8,
        7,
        6,
        5,
        4,
        3,
        2,
        1,
        0,
        0,
    ]


def test_a_season_of_three_evenings_counted_by_hand() -> None:
    """Three pairs evenings with the default table:
    1: Ana 1st (12), Vera 2nd (10), Dana 3rd (8), Mila 4th (7)
    2: Vera 1st (12), Ana 2nd (10), Mila 3rd (8); Dana away
    3: Dana 1st (12), Mila 2nd (10), Ana 3rd (8), Vera 4th (7), listed as Goran & Vera.
    Ana 30, Vera 29, Mila 25, Dana 20."""
    evenings = [
        SeasonEvening((ANA, VERA, DANA, MILA)),
        SeasonEvening((VERA, ANA, MILA)),
        SeasonEvening((DANA, MILA, ANA, ("Goran", "Vera"))),
    ]
    assert ladder(evenings, DEFAULT_POINTS) == (
        LadderLine(ANA, 30, 3, 1, (1, 2, 3)),
        LadderLine(VERA, 29, 3, 1, (2, 1, 4)),
        LadderLine(MILA, 25, 3, 2, (4, 3, 2)),
        LadderLine(DANA, 20, 2, 1, (3, None, 1)),
    )


def test_equal_points_go_to_the_better_best_place_then_the_name() -> None:
    """With [3, 2, 1]: Mila 3 + 1, Dana 1 + 3 and Vera 2 + 2 all have 4 points; Dana and
    Mila were 1st once, Vera 2nd at best; Dana before Mila by name. Zoe 0 + 3, Ana 0."""
    zoe = ("Zoe", "Yan")
    evenings = [
        SeasonEvening((MILA, VERA, DANA, zoe)),
        SeasonEvening((zoe, VERA, MILA, ANA)),
        SeasonEvening((DANA,)),
    ]
    lines = ladder(evenings, (3, 2, 1))
    assert [(line.players, line.points, line.best_place) for line in lines] == [
        (DANA, 4, 1),
        (MILA, 4, 1),
        (VERA, 4, 2),
        (zoe, 3, 1),
        (ANA, 0, 4),
    ]


def test_individual_evenings_rank_each_player() -> None:
    lines = ladder([SeasonEvening((("Ana",), ("Boris",), ("Vera",)))], (5, 3))
    assert [(line.players, line.points) for line in lines] == [
        (("Ana",), 5),
        (("Boris",), 3),
        (("Vera",), 0),
    ]


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ([], "points"),
        ("12,10", "points"),
        ([12, -1], "points.1"),
        ([12, 10.5], "points.1"),
        ([12, True], "points.1"),
        ([12, "10"], "points.1"),
        ([10, 12], "points.1"),
        ([12, 10, 8, 9], "points.3"),
        ([1001], "points.0"),
        ([1] * (MOST_PLACES + 1), "points"),
    ],
)
def test_a_points_table_is_refused_naming_the_entry(value: object, field: str) -> None:
    with pytest.raises(PointsError) as refused:
        check_points(value)
    assert refused.value.field == field


def test_a_checked_table_keeps_its_numbers() -> None:
    assert check_points([25, 18, 15.0, 15, 0]) == (25, 18, 15, 15, 0)


TABLES = st.lists(st.integers(0, 1000), min_size=1, max_size=30).map(
    lambda values: tuple(sorted(values, reverse=True))
)


@SETTINGS
@given(TABLES, st.integers(1, 60))
def test_points_never_rise_with_a_worse_place(table: tuple[int, ...], place: int) -> None:
    assert check_points(list(table)) == table
    assert points_for(place + 1, table) <= points_for(place, table)


@SETTINGS
@given(
    TABLES,
    st.lists(
        st.permutations([("P" + str(n),) for n in range(12)]).flatmap(
            lambda order: st.integers(1, 12).map(lambda size: tuple(order[:size]))
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_each_evening_hands_out_its_tables_first_entries(
    table: tuple[int, ...], orders: list[tuple[tuple[str, ...], ...]]
) -> None:
    """An evening of N entrants hands out the table's first N entries, and the ladder holds
    exactly what the evenings handed out."""
    evenings = [SeasonEvening(order) for order in orders]
    lines = ladder(evenings, table)
    for number, order in enumerate(orders):
        handed = sum(
            points_for(line.places[number], table)
            for line in lines
            if line.places[number] is not None
        )
        assert handed == sum(table[: len(order)])
    assert sum(line.points for line in lines) == sum(sum(table[: len(o)]) for o in orders)
    assert [line.points for line in lines] == sorted((line.points for line in lines), reverse=True)
