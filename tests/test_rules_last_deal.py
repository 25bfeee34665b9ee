"""A game that ends after a set deal (a club round's, RULES.md section 11): the sole highest
total wins, a level top is a draw, the target still ends it earlier; and the sides' records
(won, lost, drawn) that statistics and ratings read.

Deals are the worked cases of RULES.md section 8: A 1210, B 265, C -320, E 355.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import CLASSIC, VARIANTS, SideResult, replay
from scorekeeper.rules.game import ending
from scorekeeper.rules.stats import Outcome, longest_streak, side_records, summarise

from .helpers.cases import CASE_A, CASE_B, CASE_C, CASE_E
from .helpers.strategies import deals

AB = (CASE_A, CASE_B)  # (1210, 265)
BA = (CASE_B, CASE_A)  # (265, 1210)
BE = (CASE_B, CASE_E)  # (265, 355)


def test_the_round_ends_after_its_last_deal_and_the_higher_total_wins() -> None:
    # Deal 1: 1210 to 265; deal 2: 265 to 355 -> 1475 to 620.
    state = replay(CLASSIC, [AB, BE], last_deal=2)
    assert state.totals == (1475, 620)
    assert state.finished and state.finished_after == 2 and state.winner == 0
    assert not state.drawn
    # One deal of two: it goes on, whoever leads.
    assert not replay(CLASSIC, [AB], last_deal=2).finished


def test_a_level_top_after_the_last_deal_is_a_draw() -> None:
    # 1210 + 265 = 1475 each.
    state = replay(CLASSIC, [AB, BA], last_deal=2)
    assert state.totals == (1475, 1475)
    assert state.finished and state.drawn and state.winner is None
    records = side_records(state, [AB, BA])
    assert [r.outcome for r in records] == [Outcome.DRAWN, Outcome.DRAWN]


def test_the_target_still_ends_the_game_before_the_last_deal() -> None:
    # 4900 + 1210 = 6110 against 4900 + 265 = 5165 after deal 1 of 4.
    state = replay(CLASSIC, [AB], starts=(4900, 4900), last_deal=4)
    assert state.finished_after == 1 and state.winner == 0


def test_time_called_before_any_deal_is_a_draw_at_the_start() -> None:
    state = replay(CLASSIC, [], last_deal=0)
    assert state.finished and state.finished_after == 0 and state.drawn
    # With a start from paper the higher one wins.
    assert replay(CLASSIC, [], starts=(100, 0), last_deal=0).winner == 0


def test_three_sides_two_sharing_the_top_draw_and_the_third_loses() -> None:
    end = ending(CLASSIC, (500, 500, 100), 3, last_deal=3)
    assert end is not None and end.winner is None
    # B, B and C: 265, 265 and -320 (nobody went out).
    played = [(CASE_B, CASE_B, CASE_C)]
    six = replay(VARIANTS["classic-6x3"], played, last_deal=1)
    records = side_records(six, played)
    assert [r.outcome for r in records] == [Outcome.DRAWN, Outcome.DRAWN, Outcome.LOST]


def test_a_draw_counts_as_played_not_won_and_breaks_a_streak() -> None:
    drawn = side_records(replay(CLASSIC, [AB, BA], last_deal=2), [AB, BA])[0]
    won = side_records(replay(CLASSIC, [AB, BE], last_deal=2), [AB, BE])[0]
    summary = summarise([("classic", won), ("classic", drawn), ("classic", won)])
    assert (summary.games.played, summary.games.won, summary.games.going) == (3, 2, 0)
    assert longest_streak([Outcome.WON, Outcome.DRAWN, Outcome.WON]) == 1


@given(st.lists(deals(), max_size=8), st.integers(0, 8))
def test_a_last_deal_ends_the_game_there_or_earlier(
    played: list[tuple[SideResult, SideResult]], last: int
) -> None:
    """Whatever is played, a game with a last deal is over once that many deals are in,
    never later; when it ends on the last deal, the winner is the sole leader, or nobody."""
    state = replay(CLASSIC, played, last_deal=last)
    plain = replay(CLASSIC, played)
    if len(played) >= last:
        assert state.finished and state.finished_after is not None
        assert state.finished_after <= last
    if plain.finished_after is not None and plain.finished_after <= last:
        # The target came first: the same ending as without a last deal.
        assert (state.finished_after, state.winner) == (plain.finished_after, plain.winner)
    elif state.finished:
        assert state.finished_after == last
        totals = state.lines[last - 1].totals if last else state.starts
        leaders = [side for side, total in enumerate(totals) if total == max(totals)]
        assert state.winner == (leaders[0] if len(leaders) == 1 else None)
    records = side_records(state, played)
    if state.finished:
        assert sum(r.outcome is Outcome.WON for r in records) == (state.winner is not None)
        assert all(r.outcome is not Outcome.OPEN for r in records)
    else:
        assert all(r.outcome is Outcome.OPEN for r in records)
