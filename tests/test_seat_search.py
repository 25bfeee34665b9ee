"""The seat search (RULES.md section 11, ``scorekeeper/rules/seat_search.py``) on its own.

``tests/test_evening_rules.py`` checks whole evenings' seatings; here are the search's parts:
what a table costs (worked by hand from the rule: each earlier meeting counts once, a
partner again before any number of opponents again), a seating where every choice repeats,
and the budget running out. An individual evening of 13 players is checked against a
brute force of rules 1 to 3.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    VARIANTS,
    Format,
    RoundResult,
    SideTotal,
    TableResult,
    seat_round,
    standings,
)
from scorekeeper.rules.seat_search import (
    PARTNER,
    Found,
    History,
    Shape,
    TableSides,
    fair_byes,
    in_order,
    search,
    table_cost,
    weight,
)

PAIRS = Shape(sides=2, per_side=1)
FOURS = Shape(sides=2, per_side=2)

Pairs = Mapping[tuple[int, int], int]


def history(
    entrants: int,
    partners: Pairs | None = None,
    opponents: Pairs | None = None,
    byes: Sequence[int] | None = None,
) -> History:
    """A history of ``entrants`` entrants where each two of ``partners`` (``opponents``) were
    partners (opponents) that many times; symmetric, as the engine counts."""

    def matrix(met: Pairs | None) -> tuple[tuple[int, ...], ...]:
        rows = [[0] * entrants for _ in range(entrants)]
        for (u, v), times in (met or {}).items():
            rows[u][v] = rows[v][u] = times
        return tuple(map(tuple, rows))

    return History(matrix(partners), matrix(opponents), tuple(byes or [0] * entrants))


# table_cost, worked by hand -------------------------------------------------------------


def test_a_table_of_strangers_costs_nothing() -> None:
    assert table_cost(((0, 1), (2, 3)), history(4)) == (0, 0)


def test_partners_again_and_opponents_again_each_count_every_earlier_meeting() -> None:
    # 0 and 1 were partners twice; across the table 0 met 2 once and 3 three times, 1 met
    # 3 once. What does not count here: 0 and 2 were once partners (now opponents), and
    # 0 and 1 once opponents (now partners).
    met = history(
        4,
        partners={(0, 1): 2, (0, 2): 1},
        opponents={(0, 2): 1, (0, 3): 3, (1, 3): 1, (0, 1): 1},
    )
    # Partners: 0-1 twice, 2-3 never. Opponents: 0-2 1 + 0-3 3 + 1-2 0 + 1-3 1.
    assert table_cost(((0, 1), (2, 3)), met) == (2, 5)
    # The same four sat the other way: 0-2 partners once, 1-3 never; opponents 0-1 1 +
    # 0-3 3 + 2-1 0 + 2-3 0.
    assert table_cost(((0, 2), (1, 3)), met) == (1, 4)


def test_three_sides_count_every_two_sides_once() -> None:
    # Sides (0 1), (2 3), (4 5): each two players on different sides are opponents.
    met = history(
        6,
        partners={(4, 5): 1, (0, 2): 5},
        opponents={(0, 2): 1, (1, 4): 2, (3, 5): 1, (2, 3): 7},
    )
    # Partners: 4-5 once (0-2 are opponents now). Opponents: 0-2 1, 1-4 2, 3-5 1; 2-3 are
    # partners now.
    assert table_cost(((0, 1), (2, 3), (4, 5)), met) == (1, 4)
    # A pairs evening's table of three sides (one entrant each): only opponents.
    assert table_cost(((0,), (2,), (4,)), met) == (0, 1)
    assert table_cost(((2,), (3,), (5,)), met) == (0, 8)


def test_a_partner_again_outweighs_any_number_of_opponents_again() -> None:
    # RULES.md section 11 rule 2, "Our choice": the search adds costs as weights.
    assert weight((1, 0)) > weight((0, PARTNER - 1))
    assert weight((2, 3)) == 2 * PARTNER + 3


# table_cost's shape ---------------------------------------------------------------------


@st.composite
def tables_and_histories(draw: st.DrawFn) -> tuple[TableSides, Shape, History]:
    """A table of 2 or 3 sides of 1 to 3 entrants drawn from up to 12 entrants, and a history of
    small meeting counts."""
    shape = Shape(draw(st.integers(2, 3)), draw(st.integers(1, 3)))
    entrants = draw(st.integers(shape.size, 12))
    seated = draw(st.permutations(range(entrants)))[: shape.size]
    (table,) = in_order(seated, shape)
    pairs = list(combinations(range(entrants), 2))
    counts = st.dictionaries(st.sampled_from(pairs), st.integers(0, 3), max_size=20)
    return table, shape, history(entrants, draw(counts), draw(counts))


def brute_cost(table: TableSides, met: History) -> tuple[int, int]:
    """Every two entrants at the table once: partners if on one side, else opponents."""
    side_of = {entrant: index for index, side in enumerate(table) for entrant in side}
    partner = opponent = 0
    for u, v in combinations(sorted(side_of), 2):
        if side_of[u] == side_of[v]:
            partner += met.partners[u][v]
        else:
            opponent += met.opponents[u][v]
    return partner, opponent


@settings(max_examples=200, database=None, deadline=None)
@given(tables_and_histories(), st.randoms(use_true_random=False))
def test_cost_is_every_two_at_the_table_counted_once(
    drawn: tuple[TableSides, Shape, History], shuffler: random.Random
) -> None:
    table, _, met = drawn
    cost = table_cost(table, met)
    assert cost == brute_cost(table, met)
    # Seat order does not matter: sides and seats within a side are unordered.
    sides = [tuple(shuffler.sample(side, len(side))) for side in table]
    assert table_cost(tuple(shuffler.sample(sides, len(sides))), met) == cost
    # Strangers cost nothing; entrants who are not at the table change nothing.
    assert table_cost(table, history(met.entrants)) == (0, 0)


@settings(max_examples=200, database=None, deadline=None)
@given(tables_and_histories(), st.data())
def test_each_earlier_meeting_adds_one(
    drawn: tuple[TableSides, Shape, History], data: st.DataObject
) -> None:
    table, _, met = drawn
    seated = [entrant for side in table for entrant in side]
    u, v = data.draw(st.sampled_from(list(combinations(seated, 2))))
    same_side = any(u in side and v in side for side in table)
    more = data.draw(st.integers(1, 3))

    def bumped(rows: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        grid = [list(row) for row in rows]
        grid[u][v] += more
        grid[v][u] += more
        return tuple(map(tuple, grid))

    partner, opponent = table_cost(table, met)
    again = History(bumped(met.partners), met.opponents, met.byes)
    assert table_cost(table, again) == (
        (partner + more, opponent) if same_side else (partner, opponent)
    )
    again = History(met.partners, bumped(met.opponents), met.byes)
    assert table_cost(table, again) == (
        (partner, opponent) if same_side else (partner, opponent + more)
    )


# The search -----------------------------------------------------------------------------


def cost_of(found: Found, met: History) -> tuple[int, int]:
    partner = opponent = 0
    for table in found.tables:
        p, o = table_cost(table, met)
        partner, opponent = partner + p, opponent + o
    return partner, opponent


def test_strangers_sit_in_standings_order() -> None:
    found = search(FOURS, history(9))
    assert found == Found((8,), (((0, 1), (2, 3)), ((4, 5), (6, 7))), (0, 0), exact=True)


def test_the_top_meets_the_nearest_it_has_not_met() -> None:
    # Rule 4: 0 met 1 before, so 0 plays 2 and 1 plays 3.
    found = search(PAIRS, history(4, opponents={(0, 1): 1}))
    assert found.tables == (((0,), (2,)), ((1,), (3,)))
    assert found.cost == (0, 0) and found.exact


def test_when_every_seating_repeats_the_swiss_order_picks_among_the_cheapest() -> None:
    # Four pairs; 0-1, 0-3 and 1-3 met before: every seating of the four has one repeat,
    # the standings' order (0-1, 2-3) too. Rules 2 and 3 leave all three seatings; rule 4
    # decides: 0 takes the nearest below it that adds no repeat, 2, and 1 plays 3.
    met = history(4, opponents={(0, 1): 1, (0, 3): 1, (1, 3): 1})
    assert sorted(table_cost(t, met) for t in [((0,), (1,)), ((0,), (2,)), ((0,), (3,))]) == [
        (0, 0),
        (0, 1),
        (0, 1),
    ]
    found = search(PAIRS, met)
    assert found.tables == (((0,), (2,)), ((1,), (3,)))
    assert found.cost == (0, 1) == cost_of(found, met)
    assert found.exact


def test_a_cheaper_seating_beats_the_standings_order() -> None:
    # The standings' order (0 1 | 2 3) would put two former partners together again.
    met = history(4, partners={(0, 1): 1, (0, 2): 1}, opponents={(0, 3): 2, (1, 2): 1})
    found = search(FOURS, met)
    # 0 1 | 2 3 and 0 2 | 1 3 each cost (1, 3); 0 3 | 1 2 costs nothing.
    assert found.tables == (((0, 3), (1, 2)),)
    assert found.cost == (0, 0) == cost_of(found, met)


def test_the_bye_goes_up_the_standings_only_to_save_a_repeat() -> None:
    # Five pairs, none has had a bye: 4 (the lowest) sits out, unless that costs a repeat.
    assert search(PAIRS, history(5)).byes == (4,)
    # 4 has had a bye: 3 sits out.
    assert search(PAIRS, history(5, byes=[0, 0, 0, 0, 1])).byes == (3,)
    # With 4 out, 3 must meet 0, 1 or 2 again (it met all three); with 3 out, nobody repeats.
    met = history(5, opponents={(3, 0): 1, (3, 1): 1, (3, 2): 1})
    found = search(PAIRS, met)
    assert found.byes == (3,) and found.cost == (0, 0)
    # Everyone has met 3 and 4 once: every bye costs the same, so the lowest sits out.
    met = history(5, opponents={(u, v): 1 for u in range(5) for v in (3, 4) if u < v})
    assert search(PAIRS, met).byes == (4,)


def test_fair_byes_lowest_first_and_nobody_sits_out_twice_before_the_rest() -> None:
    assert list(fair_byes([0, 0, 0, 0], 1)) == [(3,), (2,), (1,), (0,)]
    assert list(fair_byes([0, 1, 0, 1], 1)) == [(2,), (0,)]
    # Two sit out: whoever has had fewer byes sits out first, then the lowest of the rest.
    assert list(fair_byes([1, 0, 1, 1], 2)) == [(1, 3), (1, 2), (0, 1)]
    assert list(fair_byes([1, 1, 1], 0)) == [()]


# The budget -----------------------------------------------------------------------------


def check_seating(found: Found, shape: Shape, met: History) -> None:
    """Everyone once, whole tables, fair byes, and the cost it reports is the tables'."""
    seated = [entrant for table in found.tables for side in table for entrant in side]
    assert sorted(seated + list(found.byes)) == list(range(met.entrants))
    assert all(
        len(t) == shape.sides and all(len(s) == shape.per_side for s in t) for t in found.tables
    )
    assert found.byes in set(fair_byes(met.byes, met.entrants % shape.size))
    assert found.cost == cost_of(found, met)


def test_a_spent_budget_still_seats_everyone_no_worse_than_the_standings_order() -> None:
    # Nobody met the next one down in the standings before... except that the standings'
    # order is full of repeats, and a budget of nothing leaves no room to look.
    met = history(9, partners={(0, 1): 1, (4, 5): 1}, opponents={(2, 3): 1, (6, 7): 1})
    spent = search(FOURS, met, budget=0)
    check_seating(spent, FOURS, met)
    assert not spent.exact
    assert weight(spent.cost) <= sum(weight(table_cost(t, met)) for t in in_order(range(8), FOURS))
    assert search(FOURS, met, budget=0) == spent
    full = search(FOURS, met)
    assert full.exact and full.cost == (0, 0)
    check_seating(full, FOURS, met)


# A 13-player individual evening ---------------------------------------------------------

CLASSIC = VARIANTS["classic"]
PLAYERS = [(f"P{n:02}",) for n in range(13)]


def round_of(byes: str, *tables: tuple[tuple[str, str], int, tuple[str, str], int]) -> RoundResult:
    return RoundResult(
        tuple(TableResult((SideTotal(a, ta), SideTotal(b, tb))) for a, ta, b, tb in tables),
        ((byes,),),
    )


Met = tuple[Counter[frozenset[str]], Counter[frozenset[str]]]


def met_in(rounds: Sequence[RoundResult]) -> Met:
    """How often each two players were partners, and opponents, at tables of any sides."""
    partners: Counter[frozenset[str]] = Counter()
    opponents: Counter[frozenset[str]] = Counter()
    for result in rounds:
        for table in result.tables:
            sides = [side.players for side in table.sides]
            for index, side in enumerate(sides):
                partners.update(frozenset(two) for two in combinations(side, 2))
                for other in sides[index + 1 :]:
                    opponents.update(frozenset((u, v)) for u in side for v in other)
    return partners, opponents


#: Four rounds of the evening (seated by the engine, totals drawn once, written out).
EVENING = [
    round_of(
        "P03",
        (("P12", "P11"), 300, ("P01", "P06"), 900),
        (("P00", "P04"), 800, ("P10", "P07"), 200),
        (("P05", "P02"), 500, ("P08", "P09"), 900),
    ),
    round_of(
        "P10",
        (("P01", "P00"), 700, ("P06", "P04"), 900),
        (("P08", "P03"), 100, ("P09", "P11"), 900),
        (("P02", "P12"), 0, ("P05", "P07"), 700),
    ),
    round_of(
        "P12",
        (("P09", "P06"), 400, ("P04", "P07"), 800),
        (("P01", "P11"), 300, ("P00", "P05"), 300),
        (("P08", "P02"), 700, ("P10", "P03"), 800),
    ),
    round_of(
        "P02",
        (("P04", "P12"), 800, ("P03", "P11"), 700),
        (("P09", "P07"), 600, ("P10", "P01"), 200),
        (("P06", "P00"), 300, ("P05", "P08"), 200),
    ),
]


def cheaper_than(
    players: Sequence[str],
    met: Met,
    bound: tuple[int, int],
) -> Iterator[tuple[int, int]]:
    """The cost of every seating of ``players`` at tables of two partnerships that costs
    less than ``bound`` (a brute force, cut short at the bound)."""

    def seat(left: Sequence[str], cost: tuple[int, int]) -> Iterator[tuple[int, int]]:
        if cost >= bound:
            return
        if not left:
            yield cost
            return
        first, rest = left[0], left[1:]
        for three in combinations(rest, 3):
            others = [p for p in rest if p not in three]
            for mate in three:
                a = (first, mate)
                b = tuple(p for p in three if p != mate)
                partner = met[0][frozenset(a)] + met[0][frozenset(b)]
                opponent = sum(met[1][frozenset((u, v))] for u in a for v in b)
                yield from seat(others, (cost[0] + partner, cost[1] + opponent))

    yield from seat(list(players), (0, 0))


def test_a_thirteen_player_evening_gives_the_bye_the_rules_say() -> None:
    seating = seat_round(CLASSIC, Format.INDIVIDUAL, PLAYERS, EVENING, random.Random(0))
    ranked = [line.players[0] for line in standings(Format.INDIVIDUAL, PLAYERS, EVENING)]
    assert ranked == [
        "P04",
        "P09",
        "P07",
        "P06",
        "P00",
        "P03",
        "P10",
        "P12",
        "P05",
        "P11",
        "P01",
        "P08",
        "P02",
    ]
    # Rule 1: those without a bye may sit out, the lowest first (P08, P01, P11, P05, ...).
    had_one = {"P03", "P10", "P12", "P02"}
    fair = [name for name in reversed(ranked) if name not in had_one]
    met = met_in(EVENING)
    cheapest = {
        name: min(cheaper_than([p for p in ranked if p != name], met, (0, 2)), default=None)
        for name in fair
    }
    # Rule 2: no seating has no repeat; one opponent again is the fewest, and only with
    # P07 or P04 out (with anyone else out, two repeats or more). Rule 3: P07 sits out.
    assert cheapest == {name: (0, 1) if name in {"P07", "P04"} else None for name in fair}
    assert seating.byes == (("P07",),)
    tables = [[list(side) for side in table.sides] for table in seating.tables]
    partner = sum(met[0][frozenset(side)] for table in tables for side in table)
    opponent = sum(met[1][frozenset((u, v))] for a, b in tables for u in a for v in b)
    assert (partner, opponent) == (0, 1)


def test_six_player_tables_spend_the_budget_and_still_seat_everyone_the_same_way() -> None:
    # Tables of two sides of three (classic-6, individual) are where the budget runs out
    # (RULES.md section 11): the best seating found is played, and the same one every time.
    rules, shape = VARIANTS["classic-6"], Shape(sides=2, per_side=3)
    scores = random.Random(0)
    rounds: list[RoundResult] = []
    for _ in range(2):
        seating = seat_round(rules, Format.INDIVIDUAL, PLAYERS, rounds, random.Random(0))
        rounds.append(
            seating.result([[100 * scores.randrange(10) for _ in t.sides] for t in seating.tables])
        )
    ranked = [line.players for line in standings(Format.INDIVIDUAL, PLAYERS, rounds)]
    number = {name: entrant for entrant, (name,) in enumerate(ranked)}
    partners, opponents = met_in(rounds)
    met = History(
        tuple(tuple(partners[frozenset((u, v))] for (v,) in ranked) for (u,) in ranked),
        tuple(tuple(opponents[frozenset((u, v))] for (v,) in ranked) for (u,) in ranked),
        tuple(sum(entrant in r.byes for r in rounds) for entrant in ranked),
    )
    found = search(shape, met)
    assert not found.exact
    check_seating(found, shape, met)
    assert search(shape, met) == found
    # No worse than the standings' order, which it had at once.
    bye = found.byes
    order = in_order([entrant for entrant in range(13) if entrant not in bye], shape)
    assert weight(found.cost) <= sum(weight(table_cost(t, met)) for t in order)
    # And it is what the evening plays, whatever the lot holds.
    for seed in (1, 2):
        seating = seat_round(rules, Format.INDIVIDUAL, PLAYERS[::-1], rounds, random.Random(seed))
        assert [number[name] for (name,) in seating.byes] == list(found.byes)
        assert sorted(
            tuple(sorted(tuple(sorted(number[p] for p in side)) for side in t.sides))
            for t in seating.tables
        ) == sorted(found.tables)
