"""Properties of classic scoring over generated deals (RULES.md sections 1, 2, 6 and 7).

The strategies build only entries that RULES.md section 7 allows: every figure a multiple of
5, at most one side out and it with a canasta, meld points that can hold the canastas,
at most 4 red threes in all, concealed only for the side that went out.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    CLASSIC,
    SideResult,
    errors_of,
    replay,
    score_breakdown,
    score_deal,
    score_side,
    validate_deal,
)

from .helpers.strategies import Deal, deals, fives

#: Moderate and reproducible, and no example database written into the project tree.
SETTINGS = settings(max_examples=200, database=None, deadline=None)
#: Whole games of up to 12 deals cost more per example.
GAME_SETTINGS = settings(max_examples=75, database=None, deadline=None)

#: Every figure of a deal entry; the first two are card points.
POINT_FIELDS = ("meld_points", "hand_points")
COUNT_FIELDS = (
    "natural_canastas",
    "mixed_canastas",
    "wild_canastas",
    "sevens_canastas",
    "concealed_canastas",
    "red_threes",
)


@st.composite
def melded_sides(draw: st.DrawFn) -> SideResult:
    """A side of a valid deal that melded something."""
    side = draw(deals())[draw(st.integers(0, 1))]
    assume(side.meld_points > 0)
    return side


def red_three_value(count: int) -> int:
    """Section 2: 100 each, 800 for all four (for a side that melded)."""
    return 800 if count == 4 else 100 * count


def expected_minimum(total: int) -> int:
    """Section 2's table, written out independently of the engine."""
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    return 120


@SETTINGS
@given(deals())
def test_valid_deals_are_accepted(deal: Deal) -> None:
    """Section 7: a deal that could happen at the table is never refused."""
    assert errors_of(validate_deal(deal, CLASSIC)) == []


@SETTINGS
@given(deals())
def test_every_score_is_a_multiple_of_5(deal: Deal) -> None:
    """Section 1: every card and bonus is a multiple of 5, so every deal score is."""
    assert all(score % 5 == 0 for score in score_deal(deal, CLASSIC))


@SETTINGS
@given(deals())
def test_swapping_sides_swaps_scores(deal: Deal) -> None:
    """Section 2: a side's score depends on its own entry, not on its place on the sheet."""
    first, second = score_deal(deal, CLASSIC)
    assert score_deal((deal[1], deal[0]), CLASSIC) == (second, first)


@GAME_SETTINGS
@given(
    st.lists(deals(), max_size=12),
    st.tuples(fives(-3000, 6000), fives(-3000, 6000)),
)
def test_replay_totals_and_minimums(game: list[Deal], starts: tuple[int, int]) -> None:
    """Sections 2 and 6: the total is the start plus every deal score, and each deal's
    minimum comes from the total before it."""
    state = replay(CLASSIC, game, starts=starts)
    running = list(starts)
    for deal, line in zip(game, state.lines, strict=True):
        assert line.minimums == tuple(expected_minimum(total) for total in running)
        scores = [score_side(side, CLASSIC) for side in deal]
        running = [total + score for total, score in zip(running, scores, strict=True)]
        assert line.totals == tuple(running)
    assert len(state.lines) == len(game)
    assert state.totals == tuple(
        start + sum(score_side(deal[side], CLASSIC) for deal in game)
        for side, start in enumerate(starts)
    )
    assert state.minimums == tuple(expected_minimum(total) for total in state.totals)


@GAME_SETTINGS
@given(
    st.lists(deals(), max_size=12),
    st.tuples(fives(-3000, 6000), fives(-3000, 6000)),
)
def test_replay_winner(game: list[Deal], starts: tuple[int, int]) -> None:
    """Section 2: the game ends after the first deal where a side has reached 5000 and one
    side alone has the highest total; that side wins."""
    state = replay(CLASSIC, game, starts=starts)
    expected_end = None
    expected_winner = None
    for line in state.lines:
        best = max(line.totals)
        if best >= 5000 and line.totals.count(best) == 1:
            expected_end = line.number
            expected_winner = line.totals.index(best)
            break
    assert state.finished_after == expected_end
    assert state.winner == expected_winner


@SETTINGS
@given(melded_sides())
def test_five_more_meld_points_score_five_more(side: SideResult) -> None:
    """Section 2: every melded card point counts once (for a side that already melded)."""
    more = replace(side, meld_points=side.meld_points + 5)
    assert score_side(more, CLASSIC) == score_side(side, CLASSIC) + 5


@SETTINGS
@given(deals(), st.integers(0, 1))
def test_five_more_hand_points_score_five_less(deal: Deal, index: int) -> None:
    """Section 2: every card point left in the hands counts against the side."""
    side = deal[index]
    more = replace(side, hand_points=side.hand_points + 5)
    assert score_side(more, CLASSIC) == score_side(side, CLASSIC) - 5


@SETTINGS
@given(melded_sides())
def test_one_more_red_three(side: SideResult) -> None:
    """Section 2: another red three adds 100, except that four of them count 800 in all."""
    assume(side.red_threes < 4)
    more = replace(side, red_threes=side.red_threes + 1)
    gain = red_three_value(more.red_threes) - red_three_value(side.red_threes)
    assert gain == (500 if more.red_threes == 4 else 100)
    assert score_side(more, CLASSIC) == score_side(side, CLASSIC) + gain
    assert score_breakdown(more, CLASSIC).red_threes == red_three_value(more.red_threes)


@SETTINGS
@given(deals(), st.integers(0, 1), st.sampled_from(POINT_FIELDS + COUNT_FIELDS), st.data())
def test_negative_figure_is_refused(
    deal: Deal, index: int, figure: str, data: st.DataObject
) -> None:
    """Section 7: no figure on a deal entry can be negative."""
    value = data.draw(st.integers(-100_000, -1), label="value")
    sides = list(deal)
    sides[index] = replace(sides[index], **{figure: value})
    refused = {(v.field, v.rule) for v in errors_of(validate_deal(sides, CLASSIC))}
    assert (f"results.{index}.{figure}", "negative") in refused


@SETTINGS
@given(deals(), st.integers(0, 1), st.sampled_from(POINT_FIELDS), st.data())
def test_points_not_multiple_of_5_are_refused(
    deal: Deal, index: int, figure: str, data: st.DataObject
) -> None:
    """Sections 1 and 7: card points are always a multiple of 5."""
    value = data.draw(st.integers(0, 100_000).filter(lambda v: v % 5 != 0), label="value")
    sides = list(deal)
    sides[index] = replace(sides[index], **{figure: value})
    refused = {(v.field, v.rule) for v in errors_of(validate_deal(sides, CLASSIC))}
    assert (f"results.{index}.{figure}", "multiple_of_5") in refused
