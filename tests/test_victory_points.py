"""Victory points for club evenings (RULES.md section 16): the published Burraco scales at
their boundaries, typed scales held to their shape, and standings by VP with head to head.

The worked examples are RULES.md's tables read off by hand; the properties hold for every
scale a director may type.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    VARIANTS,
    EveningError,
    Format,
    RoundResult,
    SideTotal,
    TableResult,
    seat_round,
)
from scorekeeper.rules.victory_points import (
    BURRACO_3,
    BURRACO_4,
    PUBLISHED,
    Row,
    Scale,
    ScaleError,
    check_bye,
    check_scale,
    read_scoring,
    table_victory_points,
    vp_standings,
)

SETTINGS = settings(max_examples=200, database=None, deadline=None)

ANA = ("Ana", "Boris")
VERA = ("Vera", "Goran")
DANA = ("Dana", "Ivo")
MILA = ("Mila", "Petar")
ZOE = ("Zoe", "Yan")


def table(*sides: tuple[tuple[str, ...], int]) -> TableResult:
    return TableResult(tuple(SideTotal(players, total) for players, total in sides))


# The published scales at every boundary -------------------------------------------------


@pytest.mark.parametrize(
    ("scale", "difference", "vp"),
    [
        (BURRACO_3, 0, (10, 10)),
        (BURRACO_3, 50, (10, 10)),
        (BURRACO_3, 55, (11, 9)),
        (BURRACO_3, 150, (11, 9)),
        (BURRACO_3, 155, (12, 8)),
        (BURRACO_3, 350, (13, 7)),
        (BURRACO_3, 355, (14, 6)),
        (BURRACO_3, 500, (14, 6)),
        (BURRACO_3, 505, (15, 5)),
        (BURRACO_3, 1000, (17, 3)),
        (BURRACO_3, 1005, (18, 2)),
        (BURRACO_3, 1500, (19, 1)),
        (BURRACO_3, 1505, (20, 0)),
        (BURRACO_3, 9000, (20, 0)),
        (BURRACO_4, 100, (10, 10)),
        (BURRACO_4, 105, (11, 9)),
        (BURRACO_4, 900, (14, 6)),
        (BURRACO_4, 905, (15, 5)),
        (BURRACO_4, 1700, (18, 2)),
        (BURRACO_4, 1705, (19, 1)),
        (BURRACO_4, 2000, (19, 1)),
        (BURRACO_4, 2005, (20, 0)),
    ],
)
def test_the_published_scales_at_their_boundaries(
    scale: Scale, difference: int, vp: tuple[int, int]
) -> None:
    # The winner first, whichever side it sits on.
    assert table_victory_points([1000 + difference, 1000], scale) == vp
    assert table_victory_points([1000, 1000 + difference], scale) == vp[::-1]


def test_the_published_scales_print_as_rules_md_does() -> None:
    assert BURRACO_3.rows()[:2] == (Row(0, 50, 10, 10), Row(55, 150, 11, 9))
    assert BURRACO_3.rows()[-1] == Row(1505, None, 20, 0)
    assert BURRACO_4.rows()[-2:] == (Row(1705, 2000, 19, 1), Row(2005, None, 20, 0))
    assert [len(scale.rows()) for scale in PUBLISHED.values()] == [11, 11]


def test_a_draw_is_ten_each_whatever_the_first_step_says() -> None:
    eager = check_scale([[100, 12], [None, 20]])
    assert table_victory_points([700, 700], eager) == (10, 10)
    assert table_victory_points([705, 700], eager) == (12, 8)


def test_victory_points_need_a_table_of_two_sides() -> None:
    with pytest.raises(EveningError):
        table_victory_points([900, 800, 700], BURRACO_3)


# Typed scales and scorings --------------------------------------------------------------


def test_a_typed_scale_and_the_published_ones_read_as_api_md_writes_them() -> None:
    typed = read_scoring({"victory_points": [[500, 10], [1500, 12], [None, 20]]})
    assert typed is not None and typed.name is None
    assert typed.document() == [[500, 10], [1500, 12], [None, 20]]
    assert table_victory_points([3000, 1000], typed) == (20, 0)
    assert read_scoring({"victory_points": "burraco-4"}) is BURRACO_4
    assert BURRACO_4.document() == "burraco-4"
    assert read_scoring("match_points") is None and read_scoring(None) is None
    # JSON may write a whole number as 500.0.
    assert read_scoring({"victory_points": [[500.0, 10], [None, 20.0]]}) == read_scoring(
        {"victory_points": [[500, 10], [None, 20]]}
    )


def steps(*steps: object) -> dict[str, object]:
    return {"victory_points": list(steps)}


AT = "scoring.victory_points"


@pytest.mark.parametrize(
    ("scoring", "field", "words"),
    [
        ("victory_points", "scoring", "match_points"),
        ({"victory_points": "burraco-5"}, AT, "burraco-3, burraco-4"),
        ({"victory_points": "burraco-3", "bye": 1}, "scoring", "match_points"),
        (steps(), AT, "list of steps"),
        (steps([50, 10], 20), f"{AT}.1", "Each step"),
        (steps([50, 10, 3], [None, 20]), f"{AT}.0", "Each step"),
        (steps([150, 10], [50, 11], [None, 20]), f"{AT}.1.0", "above the one before (150)"),
        (steps([150, 10], [150, 11], [None, 20]), f"{AT}.1.0", "above"),
        (steps([None, 10], [None, 20]), f"{AT}.0.0", "Only the last"),
        (steps([50, 10], [150, 20]), f"{AT}.1.0", "The last step is open"),
        (steps([-5, 10], [None, 20]), f"{AT}.0.0", "whole number"),
        (steps(["50", 10], [None, 20]), f"{AT}.0.0", "whole number"),
        (steps([52, 10], [None, 20]), f"{AT}.0.0", "multiple of 5"),
        (steps([True, 10], [None, 20]), f"{AT}.0.0", "whole number"),
        (steps([50, 9], [None, 20]), f"{AT}.0.1", "from 10 to 20"),
        (steps([50, 10], [None, 21]), f"{AT}.1.1", "from 10 to 20"),
        (steps([50, 10.5], [None, 20]), f"{AT}.0.1", "from 10 to 20"),
        (steps([50, 15], [100, 12], [None, 20]), f"{AT}.1.1", "never fall"),
        (steps(*([n * 10, 10] for n in range(40)), [None, 20]), AT, "at most 40"),
    ],
)
def test_a_scale_that_is_not_one_is_refused_naming_the_value(
    scoring: object, field: str, words: str
) -> None:
    with pytest.raises(ScaleError) as refused:
        read_scoring(scoring)
    assert refused.value.field == field
    assert words in str(refused.value.text)


@pytest.mark.parametrize("bye", [-1, 21, 12.5, "12", None, True])
def test_a_bye_scores_from_0_to_20(bye: object) -> None:
    with pytest.raises(ScaleError) as refused:
        check_bye(bye)
    assert refused.value.field == "bye_vp"
    assert check_bye(14) == 14 and check_bye(0) == 0 and check_bye(20.0) == 20


# Properties of every scale ----------------------------------------------------------------


@st.composite
def scales(draw: st.DrawFn) -> Scale:
    """A scale as a director may type it: rising bounds in fives, non-falling VP from 10 to 20."""
    bounds = sorted(draw(st.sets(st.integers(0, 4000).map(lambda n: 5 * n), max_size=12)))
    winners = sorted(
        draw(st.lists(st.integers(10, 20), min_size=len(bounds) + 1, max_size=len(bounds) + 1))
    )
    return check_scale([*zip([*bounds, None], winners, strict=True)])


@SETTINGS
@given(scales(), st.integers(-50_000, 50_000), st.integers(-50_000, 50_000))
def test_both_sides_share_20_and_the_winner_never_gets_less(
    scale: Scale, first: int, second: int
) -> None:
    ours, theirs = table_victory_points([first, second], scale)
    assert ours + theirs == 20
    assert (ours > theirs) <= (first > second) and (ours == theirs) >= (first == second)
    assert min(ours, theirs) >= 0


@SETTINGS
@given(scales(), st.integers(0, 50_000), st.integers(0, 50_000))
def test_victory_points_never_fall_as_the_difference_grows(
    scale: Scale, difference: int, more: int
) -> None:
    less = table_victory_points([difference, 0], scale)[0]
    assert table_victory_points([difference + more, 0], scale)[0] >= less
    assert scale.winner_vp(difference) == less


@SETTINGS
@given(scales())
def test_a_scale_reads_back_from_its_document_and_its_rows_cover_every_difference(
    scale: Scale,
) -> None:
    assert read_scoring({"victory_points": scale.document()}) == scale
    rows = scale.rows()
    assert rows[0].low == 0 and rows[-1].high is None
    for row in rows:
        for difference in (row.low, row.high):
            if difference is not None and difference > 0:
                assert scale.winner_vp(difference) == row.winner
        assert row.winner + row.loser == 20


# Standings by victory points ---------------------------------------------------------------


def test_standings_by_victory_points_with_a_bye() -> None:
    # Round 1 (3 deals): Ana beats Vera by 600 (15-5); Dana and Mila draw (10-10); Zoe's
    # pair sits out and scores the evening's 12.
    first = RoundResult((table((ANA, 1600), (VERA, 1000)), table((DANA, 800), (MILA, 800))), (ZOE,))
    ranked = vp_standings(Format.PAIRS, [ANA, VERA, DANA, MILA, ZOE], [first], BURRACO_3, 12)
    assert [(s.players, s.victory_points) for s in ranked] == [
        (ANA, 15),
        (ZOE, 12),
        (DANA, 10),
        (MILA, 10),
        (VERA, 5),
    ]
    # The match points are still counted (won-drawn-lost).
    assert (ranked[0].match_points, ranked[0].won, ranked[0].difference) == (2, 1, 600)
    # A second bye scores nothing, as a second bye's match points.
    again = RoundResult((), (ZOE,))
    later = vp_standings(Format.PAIRS, [ANA, VERA, DANA, MILA, ZOE], [first, again], BURRACO_3, 12)
    assert next(s for s in later if s.players == ZOE).victory_points == 12


def test_a_narrow_loss_scores_and_a_big_win_outranks_two_narrow_ones() -> None:
    # By match points Vera (two narrow wins) leads; by VP Ana's 20 + 9 beat Vera's 11 + 11.
    first = RoundResult((table((ANA, 3000), (DANA, 1000)), table((VERA, 1100), (MILA, 1000))))
    second = RoundResult((table((ANA, 1000), (MILA, 1100)), table((VERA, 1100), (DANA, 1000))))
    ranked = vp_standings(Format.PAIRS, [ANA, VERA, DANA, MILA], [first, second], BURRACO_3)
    assert [(s.players, s.victory_points, s.match_points) for s in ranked][:2] == [
        (ANA, 29, 2),
        (VERA, 22, 4),
    ]


def test_a_tie_on_vp_goes_to_head_to_head_before_the_difference() -> None:
    # Ana and Vera both end on 20 VP; Vera has the larger difference (+50 against 0), but
    # Ana beat Vera when they met (11-9): head to head puts Ana first.
    first = RoundResult((table((ANA, 1100), (VERA, 1000)), table((DANA, 1000), (MILA, 1000))))
    second = RoundResult((table((ANA, 1000), (DANA, 1100)), table((VERA, 1150), (MILA, 1000))))
    ranked = vp_standings(Format.PAIRS, [ANA, VERA, DANA, MILA], [first, second], BURRACO_3)
    assert [(s.players, s.victory_points, s.difference) for s in ranked] == [
        (DANA, 21, 100),
        (ANA, 20, 0),
        (VERA, 20, 50),
        (MILA, 19, -150),
    ]


def test_head_to_head_counts_only_the_meetings_of_exactly_the_tied() -> None:
    a, b, c, d, e, f = ((f"{x}1", f"{x}2") for x in "ABCDEF")
    # A, B and C end on 20 VP. A beat B (12-8); C met only D and F, on other VP, so C has
    # no head to head at all, though its difference (+95) is the largest of the three.
    first = RoundResult(
        (table((a, 1200), (b, 1000)), table((c, 1600), (d, 1000)), table((e, 1000), (f, 1000)))
    )
    second = RoundResult(
        (table((a, 1000), (e, 1200)), table((b, 1200), (d, 1000)), table((c, 1000), (f, 1505)))
    )
    ranked = vp_standings(Format.PAIRS, [a, b, c, d, e, f], [first, second], BURRACO_3)
    assert [(s.players, s.victory_points, s.difference) for s in ranked] == [
        (f, 25, 505),
        (e, 22, 200),
        (a, 20, 0),
        (b, 20, 0),
        (c, 20, 95),
        (d, 13, -800),
    ]


def test_entrants_who_tie_and_never_met_go_by_the_difference_then_points_then_name() -> None:
    # Ana and Vera win by 100 each (11 VP), never meeting: the difference ties, the points
    # decide (1600 before 1100); Dana and Mila lose alike and their points tie: the name.
    first = RoundResult((table((ANA, 1600), (DANA, 1500)), table((VERA, 1100), (MILA, 1000))))
    ranked = vp_standings(Format.PAIRS, [MILA, VERA, DANA, ANA], [first], BURRACO_3)
    assert [s.players for s in ranked] == [ANA, VERA, DANA, MILA]


def test_individual_players_share_their_sides_victory_points() -> None:
    players = [("Ana",), ("Boris",), ("Vera",), ("Goran",), ("Dana",)]
    result = RoundResult((table((ANA, 1900), (VERA, 1000)),), (("Dana",),))
    ranked = vp_standings(Format.INDIVIDUAL, players, [result], BURRACO_4, 14)
    assert [(s.players, s.victory_points) for s in ranked] == [
        (("Ana",), 14),
        (("Boris",), 14),
        (("Dana",), 14),
        (("Goran",), 6),
        (("Vera",), 6),
    ]


@SETTINGS
@given(st.randoms(use_true_random=False), scales(), st.integers(0, 20))
def test_vp_standings_count_20_a_table_and_do_not_depend_on_the_order_of_play(
    rng: random.Random, scale: Scale, bye: int
) -> None:
    pairs = [ANA, VERA, DANA, MILA, ZOE]
    rounds = []
    for _ in range(3):
        order = pairs[:]
        rng.shuffle(order)
        tables = tuple(
            table((order[i], 5 * rng.randrange(800)), (order[i + 1], 5 * rng.randrange(800)))
            for i in (0, 2)
        )
        rounds.append(RoundResult(tables, (order[4],)))
    ranked = vp_standings(Format.PAIRS, pairs, rounds, scale, bye)
    byes = {r.byes[0] for r in rounds}
    assert sum(s.victory_points for s in ranked) == 20 * 2 * 3 + bye * len(byes)
    assert [s.victory_points for s in ranked] == sorted(
        (s.victory_points for s in ranked), reverse=True
    )
    shuffled = [RoundResult(tuple(reversed(r.tables)), r.byes) for r in reversed(rounds)]
    assert vp_standings(Format.PAIRS, pairs[::-1], shuffled, scale, bye) == ranked


def test_swiss_seating_follows_the_order_it_is_given() -> None:
    # After round 1 by match points Ana leads; by VP the order given puts Zoe's pair first,
    # and the seating takes its neighbours from that order (Dana and Mila met: not again).
    first = RoundResult(
        (table((ANA, 1100), (VERA, 1000)), table((DANA, 1000), (MILA, 900))), (ZOE,)
    )
    pairs = [ANA, VERA, DANA, MILA, ZOE]
    order = [ZOE, ANA, DANA, MILA, VERA]
    seated = seat_round(
        VARIANTS["burraco"], Format.PAIRS, pairs, [first], random.Random(0), order=order
    )
    assert seated.byes == (VERA,)
    assert [t.sides for t in seated.tables] == [(ZOE, DANA), (ANA, MILA)]
    by_match_points = seat_round(
        VARIANTS["burraco"], Format.PAIRS, pairs, [first], random.Random(0)
    )
    assert by_match_points.tables != seated.tables
