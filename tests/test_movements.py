"""Movements of a club evening (RULES.md section 11, API.md "Club evenings": ``movement``).

The worked examples are a director's own check of the schedule, by hand. The properties play
Mitchells and round robins of every size, both from a given order (``mitchell``,
``round_robin``) and as the store plays an evening (``seat_movement``: round 1 by lot, each
later round from the results so far), and check what the pairs at the tables would notice:
everyone seated or sitting out once a round, stationary pairs fixed, moving pairs one table up,
no meeting twice while the movement allows it, and one bye at most in a round robin.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    VARIANTS,
    Entrant,
    EveningError,
    Format,
    Movement,
    RoundResult,
    RoundSeating,
    TableSeating,
    mitchell,
    round_robin,
    rounds_needed,
    seat_movement,
    seat_round,
)

SETTINGS = settings(max_examples=80, database=None, deadline=None)
CLASSIC = VARIANTS["classic"]

A, B, C, D = ("Ana", "Boris"), ("Vera", "Goran"), ("Lidija", "Stefan"), ("Dana", "Ivo")
E, F, G, H = ("Mila", "Petar"), ("Sara", "Luka"), ("Nina", "Marko"), ("Eva", "Jan")


def pairs(count: int) -> list[Entrant]:
    return [(f"P{n:02}a", f"P{n:02}b") for n in range(count)]


def tables_of(seating: RoundSeating) -> list[tuple[Entrant, ...]]:
    return [table.sides for table in seating.tables]


def played(seating: RoundSeating) -> RoundResult:
    """The round as its tables ended; the totals do not move anyone in these movements."""
    return seating.result([[100 * number, 50] for number, _ in enumerate(seating.tables)])


def meetings(seatings: Sequence[RoundSeating]) -> Counter[frozenset[Entrant]]:
    return Counter(frozenset(table.sides) for seating in seatings for table in seating.tables)


def seated_once(seating: RoundSeating, order: Sequence[Entrant]) -> bool:
    named = [pair for table in seating.tables for pair in table.sides] + list(seating.byes)
    return sorted(named) == sorted(order) and all(len(t.sides) == 2 for t in seating.tables)


def evening(movement: Movement, count: int, rounds: int, seed: int) -> list[RoundSeating]:
    """An evening as the store plays it: each round seated from the results before it."""
    results: list[RoundResult] = []
    seatings: list[RoundSeating] = []
    for _ in range(rounds):
        seating = seat_movement(
            movement, CLASSIC, Format.PAIRS, pairs(count), results, random.Random(seed)
        )
        seatings.append(seating)
        results.append(played(seating))
    return seatings


# Worked examples, by hand --------------------------------------------------------------


def test_mitchell_of_eight_pairs_round_two() -> None:
    """Round 1 as the lot seated it: Ana, Vera, Lidija and Dana stay put; the four others
    each move one table up, the pair at table 4 back to table 1."""
    round_1 = RoundSeating(
        tables=tuple(TableSeating(sides) for sides in [(A, E), (B, F), (C, G), (D, H)]), byes=()
    )
    rng = random.Random(0)
    entrants = [A, B, C, D, E, F, G, H]
    round_2 = seat_movement(
        Movement.MITCHELL, CLASSIC, Format.PAIRS, entrants, [played(round_1)], rng
    )
    assert tables_of(round_2) == [(A, H), (B, E), (C, F), (D, G)]
    assert round_2.byes == ()
    round_3 = seat_movement(
        Movement.MITCHELL,
        CLASSIC,
        Format.PAIRS,
        entrants,
        [played(round_1), played(round_2)],
        rng,
    )
    assert tables_of(round_3) == [(A, G), (B, H), (C, E), (D, F)]


def test_mitchell_of_five_pairs_the_moving_pair_past_the_last_table_sits_out() -> None:
    order = [A, B, C, D, E]
    rounds = [mitchell(order, number) for number in (1, 2, 3, 4)]
    assert [(tables_of(r), r.byes) for r in rounds] == [
        ([(A, C), (B, D)], (E,)),
        ([(A, E), (B, C)], (D,)),
        ([(A, D), (B, E)], (C,)),
        ([(A, C), (B, D)], (E,)),  # three places for the moving pairs: round 4 is round 1
    ]


def test_round_robin_of_five_pairs_five_rounds_one_bye_each() -> None:
    order = [A, B, C, D, E]
    assert rounds_needed(5) == 5
    rounds = [round_robin(order, number) for number in range(1, 6)]
    assert (tables_of(rounds[0]), rounds[0].byes) == ([(A, D), (B, C)], (E,))
    assert (tables_of(rounds[1]), rounds[1].byes) == ([(E, C), (A, B)], (D,))
    assert sorted(bye for r in rounds for bye in r.byes) == sorted(order)
    assert all(len(r.tables) == 2 for r in rounds)
    assert set(meetings(rounds)) == {frozenset(two) for two in combinations(order, 2)}


def test_round_robin_of_five_pairs_goes_on_from_round_one_as_seated() -> None:
    """Round 1 as the lot seated it; round 2 follows the same circle as the printed one."""
    round_1 = RoundSeating(tables=(TableSeating((A, D)), TableSeating((B, C))), byes=(E,))
    rounds = [played(round_1)]
    round_2 = seat_movement(
        Movement.ROUND_ROBIN, CLASSIC, Format.PAIRS, [A, B, C, D, E], rounds, random.Random(0)
    )
    assert (tables_of(round_2), round_2.byes) == ([(E, C), (A, B)], (D,))


def test_rounds_a_round_robin_needs() -> None:
    assert [rounds_needed(n) for n in (2, 3, 4, 5, 8, 9, 12)] == [1, 3, 3, 5, 7, 9, 11]
    with pytest.raises(EveningError):
        rounds_needed(1)


def test_movements_by_name() -> None:
    assert [Movement(name) for name in ("swiss", "mitchell", "round_robin")] == list(Movement)


def test_swiss_is_the_seating_by_standings() -> None:
    entrants = pairs(7)
    first = seat_round(CLASSIC, Format.PAIRS, entrants, [], random.Random(3))
    assert (
        seat_movement(Movement.SWISS, CLASSIC, Format.PAIRS, entrants, [], random.Random(3))
        == first
    )
    after = [played(first)]
    assert seat_movement(
        Movement.SWISS, CLASSIC, Format.PAIRS, entrants, after, random.Random(4)
    ) == seat_round(CLASSIC, Format.PAIRS, entrants, after, random.Random(4))


def test_round_one_is_by_lot() -> None:
    for movement in (Movement.MITCHELL, Movement.ROUND_ROBIN):
        firsts = {tuple(tables_of(evening(movement, 8, 1, seed)[0])) for seed in range(10)}
        assert len(firsts) > 1


def test_refusals_name_the_reason() -> None:
    with pytest.raises(EveningError, match="two sides"):
        seat_movement(
            Movement.MITCHELL, VARIANTS["classic-6x3"], Format.PAIRS, pairs(6), [], random.Random(0)
        )
    players = [(name,) for name in "abcdefgh"]
    with pytest.raises(EveningError, match="two sides"):
        seat_movement(
            Movement.ROUND_ROBIN, CLASSIC, Format.INDIVIDUAL, players, [], random.Random(0)
        )
    with pytest.raises(EveningError, match="partnerships of 2"):
        seat_movement(
            Movement.MITCHELL,
            CLASSIC,
            Format.PAIRS,
            [("a", "b", "c"), ("d", "e", "f")],
            [],
            random.Random(0),
        )
    # A round 1 the movement did not seat (a table short) cannot say where anyone goes next.
    short = RoundResult(played(mitchell(pairs(7), 1)).tables[:2], ())
    with pytest.raises(EveningError, match="round 1 was not seated"):
        seat_movement(Movement.MITCHELL, CLASSIC, Format.PAIRS, pairs(7), [short], random.Random(0))


# Properties ------------------------------------------------------------------------------


@SETTINGS
@given(count=st.integers(2, 30), extra=st.integers(0, 4))
def test_mitchell_schedule(count: int, extra: int) -> None:
    order = pairs(count)
    tables = count // 2
    rounds = [mitchell(order, number) for number in range(1, count - tables + extra + 2)]
    place_of: list[dict[Entrant, int]] = []
    for seating in rounds:
        assert seated_once(seating, order)
        assert len(seating.tables) == tables and len(seating.byes) == count % 2
        # Stationary pairs: the same table, the first seat, every round.
        assert [table.sides[0] for table in seating.tables] == order[:tables]
        places = {table.sides[1]: number for number, table in enumerate(seating.tables)}
        place_of.append(places | {pair: tables for pair in seating.byes})
    # Moving pairs: one table up a round, from the last (or the sit-out) to the first.
    moving_places = count - tables
    for before, after in pairwise(place_of):
        assert {pair: (place + 1) % moving_places for pair, place in before.items()} == after
    # No meeting twice while the rounds do not outnumber the tables.
    assert max(meetings(rounds[:tables]).values()) == 1


@SETTINGS
@given(count=st.integers(2, 30))
def test_round_robin_schedule(count: int) -> None:
    order = pairs(count)
    needed = rounds_needed(count)
    rounds = [round_robin(order, number) for number in range(1, needed + 1)]
    for seating in rounds:
        assert seated_once(seating, order)
        assert len(seating.byes) == count % 2
    assert meetings(rounds) == Counter(frozenset(two) for two in combinations(order, 2))
    byes = Counter(bye for seating in rounds for bye in seating.byes)
    assert set(byes.values()) <= {1}
    # A longer evening plays the robin again, round for round.
    assert [round_robin(order, needed + number) for number in range(1, needed + 1)] == rounds


@SETTINGS
@given(
    count=st.integers(2, 24),
    rounds=st.integers(1, 8),
    seed=st.integers(0, 999),
)
def test_a_mitchell_evening_as_the_store_plays_it(count: int, rounds: int, seed: int) -> None:
    seatings = evening(Movement.MITCHELL, count, rounds, seed)
    tables = count // 2
    first = seatings[0]
    for seating in seatings:
        assert seated_once(seating, pairs(count))
        assert [t.sides[0] for t in seating.tables] == [t.sides[0] for t in first.tables]
    moving = [t.sides[1] for t in first.tables] + list(first.byes)
    for number, seating in enumerate(seatings):
        due = moving[-number % len(moving) :] + moving[: -number % len(moving)]
        assert [t.sides[1] for t in seating.tables] + list(seating.byes) == due
    assert max(meetings(seatings[:tables]).values()) == 1


@SETTINGS
@given(count=st.integers(2, 24), seed=st.integers(0, 999))
def test_a_round_robin_evening_as_the_store_plays_it(count: int, seed: int) -> None:
    seatings = evening(Movement.ROUND_ROBIN, count, rounds_needed(count), seed)
    for seating in seatings:
        assert seated_once(seating, pairs(count))
        if count % 2 == 0:  # the circle's fixed place: table 1, first seat
            assert seating.tables[0].sides[0] == seatings[0].tables[0].sides[0]
    assert meetings(seatings) == Counter(frozenset(two) for two in combinations(pairs(count), 2))
    byes = Counter(bye for seating in seatings for bye in seating.byes)
    assert sorted(byes) == (sorted(pairs(count)) if count % 2 else [])
    assert set(byes.values()) <= {1}
