"""Club evenings (RULES.md section 11, API.md "Club evenings"): standings and seating.

The worked examples are computed by hand. The properties play whole evenings of many sizes
and check every round's seating: everyone once, fair byes, and as few repeats as any seating
has, which a brute force over every seating proves for small evenings and the
Hajnal-Szemeredi theorem (below) for large ones; the standings are rebuilt by a second,
independent count and must not depend on the order the results come in.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    VARIANTS,
    Entrant,
    EveningError,
    Format,
    RoundResult,
    RoundSeating,
    SideTotal,
    Standing,
    TableResult,
    seat_round,
    standings,
    table_differences,
    table_match_points,
)

#: Whole evenings of up to 40 players and 6 rounds: few examples, no example database.
SETTINGS = settings(max_examples=60, database=None, deadline=None)
CLASSIC = VARIANTS["classic"]
SIX_IN_THREE = VARIANTS["classic-6x3"]

ANA = ("Ana", "Boris")
VERA = ("Vera", "Goran")
LIDIJA = ("Lidija", "Stefan")
DANA = ("Dana", "Ivo")
MILA = ("Mila", "Petar")
FIVE = [ANA, VERA, LIDIJA, DANA, MILA]


def table(*sides: tuple[tuple[str, ...], int]) -> TableResult:
    return TableResult(tuple(SideTotal(players, total) for players, total in sides))


def line(players: Entrant, **figures: int) -> Standing:
    return Standing(players, **figures)


# Worked examples, by hand --------------------------------------------------------------

ROUND_1 = RoundResult((table((ANA, 1210), (VERA, 265)), table((LIDIJA, 900), (DANA, 900))), (MILA,))
ROUND_2 = RoundResult((table((ANA, 500), (DANA, 700)), table((MILA, 1000), (LIDIJA, 400))), (VERA,))


def test_standings_of_a_two_round_evening_with_a_bye() -> None:
    # Round 1: Ana & Boris win by 945; Lidija and Dana draw at 900; Mila's pair sits out
    # (2 match points, 0 difference, no points). Dana before Lidija: all else equal, the name.
    assert standings(Format.PAIRS, FIVE, [ROUND_1]) == (
        line(ANA, match_points=2, difference=945, won=1, played=1, points=1210),
        line(MILA, match_points=2, byes=1),
        line(DANA, match_points=1, drawn=1, played=1, points=900),
        line(LIDIJA, match_points=1, drawn=1, played=1, points=900),
        line(VERA, match_points=0, difference=-945, lost=1, played=1, points=265),
    )
    # Round 2: Dana beats Ana by 200, Mila beats Lidija by 600, Vera's pair sits out.
    assert standings(Format.PAIRS, FIVE, [ROUND_1, ROUND_2]) == (
        line(MILA, match_points=4, difference=600, won=1, byes=1, played=1, points=1000),
        line(DANA, match_points=3, difference=200, won=1, drawn=1, played=2, points=1600),
        line(ANA, match_points=2, difference=745, won=1, lost=1, played=2, points=1710),
        line(VERA, match_points=2, difference=-945, lost=1, byes=1, played=1, points=265),
        line(LIDIJA, match_points=1, difference=-600, drawn=1, lost=1, played=2, points=1300),
    )


def test_swiss_seating_of_the_worked_evening() -> None:
    rng = random.Random(0)  # later rounds ignore it
    # After round 1 the standings are Ana, Mila, Dana, Lidija, Vera. The bye goes to the
    # lowest pair without one (Vera). Ana takes the nearest, Mila; that leaves Dana and
    # Lidija, who met in round 1: so Ana takes Dana, and Mila meets Lidija.
    second = seat_round(CLASSIC, Format.PAIRS, FIVE, [ROUND_1], rng)
    assert second.byes == (VERA,)
    assert [t.sides for t in second.tables] == [(ANA, DANA), (MILA, LIDIJA)]
    # After round 2: Mila, Dana, Ana, Vera, Lidija. Mila and Vera have had a bye: Lidija
    # sits out. Mila-Dana would leave Ana-Vera, who met: so Mila-Ana and Dana-Vera.
    third = seat_round(CLASSIC, Format.PAIRS, FIVE, [ROUND_1, ROUND_2], rng)
    assert third.byes == (LIDIJA,)
    assert [t.sides for t in third.tables] == [(MILA, ANA), (DANA, VERA)]


def test_tie_breaks_difference_then_points_then_name() -> None:
    x, y, z, w = ("Xa", "Xb"), ("Ya", "Yb"), ("Za", "Zb"), ("Wa", "Wb")
    # Both win: x by 500 with 600 points, y by 100 with 2000: the difference decides.
    first = RoundResult((table((x, 600), (z, 100)), table((y, 2000), (w, 1900))))
    assert [s.players for s in standings(Format.PAIRS, [w, x, y, z], [first])] == [x, y, w, z]
    # Both win by 200: the points decide (1000 before 900); both lose by 200: 800 before 700.
    second = RoundResult((table((x, 1000), (z, 800)), table((y, 900), (w, 700))))
    assert [s.players for s in standings(Format.PAIRS, [w, x, y, z], [second])] == [x, y, z, w]
    # Everything equal: the name, whatever its case.
    low, high = ("ana", "Zoran"), ("Boris", "Vera")
    tied = RoundResult((table((high, 500), (low, 500)),))
    assert [s.players for s in standings(Format.PAIRS, [high, low], [tied])] == [low, high]


def test_three_sides_the_sole_top_wins_and_difference_is_to_the_best_other() -> None:
    assert table_match_points([1500, 900, 1000]) == (2, 0, 0)
    assert table_differences([1500, 900, 1000]) == (500, -600, -500)
    assert table_match_points([1200, 1200, 300]) == (1, 1, 0)
    assert table_differences([1200, 1200, 300]) == (0, 0, -900)
    assert table_match_points([265, 1210]) == (0, 2)
    assert table_differences([265, 1210]) == (-945, 945)
    with pytest.raises(EveningError):
        table_match_points([100])


def test_three_sided_tables_count_won_drawn_lost() -> None:
    a, b, c = ("A1", "A2"), ("B1", "B2"), ("C1", "C2")
    result = RoundResult((table((a, 1200), (b, 1200), (c, 300)),))
    assert standings(Format.PAIRS, [a, b, c], [result]) == (
        line(a, match_points=1, drawn=1, played=1, points=1200),
        line(b, match_points=1, drawn=1, played=1, points=1200),
        line(c, difference=-900, lost=1, played=1, points=300),
    )


def test_individual_players_get_their_sides_result() -> None:
    players = [("Ana",), ("Boris",), ("Vera",), ("Goran",), ("Dana",)]
    result = RoundResult((table((ANA, 1210), (VERA, 265)),), (("Dana",),))
    assert standings(Format.INDIVIDUAL, players, [result]) == (
        line(("Ana",), match_points=2, difference=945, won=1, played=1, points=1210),
        line(("Boris",), match_points=2, difference=945, won=1, played=1, points=1210),
        line(("Dana",), match_points=2, byes=1),
        line(("Goran",), difference=-945, lost=1, played=1, points=265),
        line(("Vera",), difference=-945, lost=1, played=1, points=265),
    )


def test_a_second_bye_is_counted_but_scores_nothing() -> None:
    a, b, c = ("A1", "A2"), ("B1", "B2"), ("C1", "C2")
    rounds = [
        RoundResult((table((a, 100), (b, 0)),), (c,)),
        RoundResult((table((a, 100), (c, 0)),), (b,)),
        RoundResult((table((b, 100), (c, 0)),), (a,)),
        RoundResult((table((a, 100), (b, 0)),), (c,)),
    ]
    mine = {s.players: s for s in standings(Format.PAIRS, [a, b, c], rounds)}
    assert mine[c].byes == 2
    assert mine[c].match_points == 2  # one bye scored, one table lost
    assert mine[a].match_points == 2 + 2 + 2 + 2


def test_round_one_is_by_lot() -> None:
    players = [(f"P{n}",) for n in range(10)]
    draws = {
        seat_round(CLASSIC, Format.INDIVIDUAL, players, [], random.Random(s)) for s in range(6)
    }
    assert len(draws) > 1
    same = seat_round(CLASSIC, Format.INDIVIDUAL, players, [], random.Random(3))
    assert same == seat_round(CLASSIC, Format.INDIVIDUAL, players, [], random.Random(3))
    assert len(same.byes) == 2 and len(same.tables) == 2


def test_refusals_name_the_reason() -> None:
    rng = random.Random(1)
    with pytest.raises(EveningError, match="partnership"):
        seat_round(VARIANTS["classic-3"], Format.INDIVIDUAL, [("A",), ("B",), ("C",)], [], rng)
    with pytest.raises(EveningError, match="cannot fill a table"):
        seat_round(CLASSIC, Format.INDIVIDUAL, [("A",), ("B",), ("C",)], [], rng)
    with pytest.raises(EveningError, match="partnerships of 3"):
        seat_round(VARIANTS["classic-6"], Format.PAIRS, [ANA, VERA], [], rng)
    with pytest.raises(EveningError, match="more than once: Ana"):
        standings(Format.PAIRS, [ANA, ("Ana", "Vera")], [])
    with pytest.raises(EveningError, match="one by one"):
        standings(Format.INDIVIDUAL, [ANA], [])
    for lone in ([("Ana",), ("Vera",)], [(), ()]):  # a pair of one, or of nobody
        with pytest.raises(EveningError, match="partnerships, all of one size"):
            standings(Format.PAIRS, lone, [])
    stranger = RoundResult((table((ANA, 10), (MILA, 0)),))
    with pytest.raises(EveningError, match="not in the evening"):
        standings(Format.PAIRS, [ANA, VERA], [stranger])
    twice = RoundResult((table((ANA, 10), (VERA, 0)),), (ANA,))
    with pytest.raises(EveningError, match="more than once"):
        standings(Format.PAIRS, [ANA, VERA], [twice])


# Properties ----------------------------------------------------------------------------


def units_of(fmt: Format, players: Sequence[str]) -> list[Entrant]:
    return [tuple(players)] if fmt is Format.PAIRS else [(name,) for name in players]


Meetings = tuple[Counter[frozenset[Entrant]], Counter[frozenset[Entrant]]]


def meetings(fmt: Format, rounds: Sequence[RoundResult]) -> Meetings:
    """How often each two units were partners, and opponents, in ``rounds``."""
    partners: Counter[frozenset[Entrant]] = Counter()
    opponents: Counter[frozenset[Entrant]] = Counter()
    for result in rounds:
        for played in result.tables:
            sides = [units_of(fmt, side.players) for side in played.sides]
            for index, side in enumerate(sides):
                partners.update(frozenset(two) for two in combinations(side, 2))
                for other in sides[index + 1 :]:
                    opponents.update(frozenset((u, v)) for u in side for v in other)
    return partners, opponents


def repeats(tables: Sequence[Sequence[Sequence[Entrant]]], met: Meetings) -> tuple[int, int]:
    """(partner repeats, opponent repeats) of tables given as sides of units."""
    partner = opponent = 0
    for sides in tables:
        for index, side in enumerate(sides):
            partner += sum(met[0][frozenset(two)] for two in combinations(side, 2))
            for other in sides[index + 1 :]:
                opponent += sum(met[1][frozenset((u, v))] for u in side for v in other)
    return partner, opponent


def splits(units: Sequence[Entrant], sides: int, each: int) -> Iterator[list[tuple[Entrant, ...]]]:
    """Every way to split a table's units into ``sides`` unordered sides of ``each``."""
    if not units:
        yield []
        return
    first, rest = units[0], units[1:]
    for mates in combinations(rest, each - 1):
        left = [u for u in rest if u not in mates]
        for more in splits(left, sides - 1, each):
            yield [(first, *mates), *more]


def every_seating(
    units: Sequence[Entrant], sides: int, each: int
) -> Iterator[list[list[tuple[Entrant, ...]]]]:
    """Every way to seat all of ``units`` at tables of ``sides`` sides of ``each``."""
    if not units:
        yield []
        return
    size = sides * each
    first, rest = units[0], units[1:]
    for mates in combinations(rest, size - 1):
        left = [u for u in rest if u not in mates]
        for split in splits([first, *mates], sides, each):
            for more in every_seating(left, sides, each):
                yield [split, *more]


def best_possible(
    units: Sequence[Entrant], byes: Counter[Entrant], sides: int, each: int, met: Meetings
) -> dict[tuple[Entrant, ...], tuple[int, int]]:
    """For every fair set of byes (nobody sits out who has had more byes than one who
    plays), the fewest repeats of any seating of the others."""
    size = sides * each
    best: dict[tuple[Entrant, ...], tuple[int, int]] = {}
    for out in combinations(units, len(units) % size):
        playing = [u for u in units if u not in out]
        if out and max(byes[u] for u in out) > min(byes[u] for u in playing):
            continue
        best[out] = min(repeats(s, met) for s in every_seating(playing, sides, each))
    return best


def seated_units(fmt: Format, seating: RoundSeating) -> list[list[list[Entrant]]]:
    return [[units_of(fmt, side) for side in t.sides] for t in seating.tables]


#: Evenings the properties play: (rule set, format, fewest and most entrants, brute-force
#: up to): pairs 2..20, players 4..40, and three-sided tables of pairs.
KINDS = [
    (CLASSIC, Format.PAIRS, 2, 20, 10),
    (CLASSIC, Format.INDIVIDUAL, 4, 40, 9),
    (SIX_IN_THREE, Format.PAIRS, 3, 15, 9),
    (SIX_IN_THREE, Format.INDIVIDUAL, 6, 18, 7),
]


@st.composite
def evenings(draw: st.DrawFn) -> tuple[int, int, int, int]:
    """(kind, entrants, rounds, seed)."""
    kind = draw(st.integers(0, len(KINDS) - 1))
    _, _, low, high, _ = KINDS[kind]
    return kind, draw(st.integers(low, high)), draw(st.integers(1, 6)), draw(st.integers(0, 999))


def entrants_for(kind: int, count: int) -> list[Entrant]:
    rules, fmt, *_ = KINDS[kind]
    if fmt is Format.INDIVIDUAL:
        return [(f"P{n:02}",) for n in range(count)]
    return [tuple(f"P{n:02}{m}" for m in "ab"[: rules.players_per_side]) for n in range(count)]


def play(
    kind: int, count: int, rounds: int, seed: int
) -> Iterator[tuple[list[RoundResult], RoundSeating]]:
    """An evening: each round's results so far and the seating the engine gives next.
    Totals are hundreds from 0 to 900, so that ties happen."""
    rules, fmt, *_ = KINDS[kind]
    entrants = entrants_for(kind, count)
    scores = random.Random(seed)
    played: list[RoundResult] = []
    for _ in range(rounds):
        seating = seat_round(rules, fmt, entrants, played, random.Random(seed))
        yield list(played), seating
        totals = [[100 * scores.randrange(10) for _ in t.sides] for t in seating.tables]
        played.append(seating.result(totals))


def hajnal_szemeredi(kind: int, count: int, round_number: int) -> bool:
    """Whether a seating without any repeat must exist. Before round r a unit has met at
    most (t - 1)(r - 1) of the s seated units (t units at a table), so the graph of who
    has never met has minimum degree at least s - 1 - (t - 1)(r - 1); by the
    Hajnal-Szemeredi theorem it splits into tables of t strangers once that is at least
    (1 - 1/t) s, i.e. once s >= t ((t - 1)(r - 1) + 1)."""
    rules, fmt, *_ = KINDS[kind]
    size = rules.sides * (1 if fmt is Format.PAIRS else rules.players_per_side)
    seated = count - count % size
    return seated >= size * ((size - 1) * (round_number - 1) + 1)


@SETTINGS
@given(evenings())
def test_everyone_is_seated_once_and_byes_are_fair(evening: tuple[int, int, int, int]) -> None:
    kind, count, rounds, seed = evening
    rules, fmt, *_ = KINDS[kind]
    entrants = entrants_for(kind, count)
    names = sorted(name for entrant in entrants for name in entrant)
    size = rules.sides * (1 if fmt is Format.PAIRS else rules.players_per_side)
    byes: Counter[Entrant] = Counter()
    for number, (before, seating) in enumerate(play(kind, count, rounds, seed), start=1):
        seated = [name for t in seating.tables for side in t.sides for name in side]
        assert sorted(seated + [n for e in seating.byes for n in e]) == names
        assert len(seating.byes) == count % size
        for t in seating.tables:
            assert len(t.sides) == rules.sides
            assert all(len(side) == rules.players_per_side for side in t.sides)
        byes.update(seating.byes)
        # At most one bye each while avoidable: nobody has two while anyone has none.
        assert max(byes[e] for e in entrants) - min(byes[e] for e in entrants) <= 1
        if number == rounds > 1:
            # Deterministic: after round 1 the same evening seats the same way whatever the
            # Random holds, and follows the standings, not the order the entrants came in.
            again = seat_round(rules, fmt, entrants[::-1], before, random.Random(seed + 1))
            assert again == seating
        if hajnal_szemeredi(kind, count, number):
            assert repeats(seated_units(fmt, seating), meetings(fmt, before)) == (0, 0)


@SETTINGS
@given(evenings())
def test_no_repeat_while_another_seating_avoids_it(evening: tuple[int, int, int, int]) -> None:
    """Brute force: no fair seating has fewer repeats than the engine's (small evenings);
    and a pair's bye goes to the lowest pair without one unless that costs a repeat."""
    kind, count, rounds, seed = evening
    rules, fmt, low, _, brute_up_to = KINDS[kind]
    count = low + count % (brute_up_to - low + 1)
    byes: Counter[Entrant] = Counter()
    entrants = entrants_for(kind, count)
    for before, seating in play(kind, count, rounds, seed):
        met = meetings(fmt, before)
        mine = repeats(seated_units(fmt, seating), met)
        # A unit is an entrant: a pair alone on its side, or a player beside a partner.
        each = 1 if fmt is Format.PAIRS else rules.players_per_side
        best = best_possible(entrants, byes, rules.sides, each, met)
        assert mine == min(best.values())
        if before and fmt is Format.PAIRS and len(seating.byes) == 1:
            ranked = [s.players for s in standings(fmt, entrants, before)]
            fewest = min(byes[e] for e in entrants)
            lowest = next(e for e in reversed(ranked) if byes[e] == fewest)
            assert seating.byes == (lowest,) or best[(lowest,)] > mine
        byes.update(seating.byes)


def reference_standings(
    fmt: Format, rounds: Sequence[RoundResult]
) -> dict[Entrant, dict[str, int]]:
    """The figures counted again, straight from API.md's sentences."""
    lines: dict[Entrant, Counter[str]] = {}
    for result in rounds:
        for played in result.tables:
            totals = sorted((side.total for side in played.sides), reverse=True)
            for side in played.sides:
                best_other = totals[1] if side.total == totals[0] else totals[0]
                sole = side.total > best_other
                shared = side.total == best_other == totals[0]
                for unit in units_of(fmt, side.players):
                    counts = lines.setdefault(unit, Counter())
                    counts["match_points"] += 2 if sole else 1 if shared else 0
                    counts["won" if sole else "drawn" if shared else "lost"] += 1
                    counts["difference"] += side.total - best_other
                    counts["points"] += side.total
                    counts["played"] += 1
        for unit in result.byes:
            counts = lines.setdefault(unit, Counter())
            counts["match_points"] += 2 if counts["byes"] == 0 else 0
            counts["byes"] += 1
    return {unit: {k: v for k, v in counts.items() if v} for unit, counts in lines.items()}


def casefolded(standing: Standing) -> tuple[str, ...]:
    return tuple(name.casefold() for name in standing.players)


@SETTINGS
@given(evenings(), st.randoms(use_true_random=False))
def test_standings_are_rebuilt_from_the_results(
    evening: tuple[int, int, int, int], shuffler: random.Random
) -> None:
    """Every round seated by lot (cheap, and the byes fall anywhere, twice too); totals
    are hundreds from 0 to 900, so that ties happen."""
    kind, count, rounds, seed = evening
    rules, fmt, *_ = KINDS[kind]
    entrants = entrants_for(kind, count)
    results = [
        seating.result([[100 * shuffler.randrange(10) for _ in t.sides] for t in seating.tables])
        for seating in (
            seat_round(rules, fmt, entrants, [], random.Random(seed + n)) for n in range(rounds)
        )
    ]
    table = standings(fmt, entrants, results)
    expected = reference_standings(fmt, results)
    for standing in table:
        figures = {k: v for k, v in vars(standing).items() if k != "players" and v}
        assert figures == expected.get(standing.players, {})
    keys = [(s.match_points, s.difference, s.points) for s in table]
    for (above, name_above), (below, name_below) in zip(
        zip(keys, table, strict=True), zip(keys[1:], table[1:], strict=True), strict=False
    ):
        assert above > below or (
            above == below and casefolded(name_above) <= casefolded(name_below)
        )
    # The same results in another order: rounds, tables, sides.
    shuffled = []
    for result in shuffler.sample(results, len(results)):
        tables = [TableResult(tuple(shuffler.sample(t.sides, len(t.sides)))) for t in result.tables]
        shuffled.append(RoundResult(tuple(shuffler.sample(tables, len(tables))), result.byes))
    assert standings(fmt, shuffler.sample(entrants, len(entrants)), shuffled) == table
