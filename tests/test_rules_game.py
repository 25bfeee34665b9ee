"""A whole game replayed from its deals: totals, minimums, end and winner, dealer
(RULES.md sections 2 and 6).

Deals are built from the worked cases of RULES.md section 8, whose scores are worked out by
hand there: A 1210, B 265, C -320, E 355. Every expected total below is a hand sum of those.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scorekeeper.rules import (
    CLASSIC,
    VARIANTS,
    Seat,
    SideResult,
    apply_options,
    plays_first,
    replay,
    seating,
)
from scorekeeper.rules.draw import Drawn, draw_card, draw_for_seats

from .helpers.cases import CASE_A, CASE_B, CASE_C, CASE_E

Deal = Sequence[SideResult]

AB: Deal = (CASE_A, CASE_B)  # (1210, 265)
BA: Deal = (CASE_B, CASE_A)  # (265, 1210)
BB: Deal = (CASE_B, CASE_B)  # (265, 265)
BE: Deal = (CASE_B, CASE_E)  # (265, 355)
CA: Deal = (CASE_C, CASE_A)  # (-320, 1210)

A1, B1, A2, B2 = Seat(0, 0), Seat(1, 0), Seat(0, 1), Seat(1, 1)


# --- totals -------------------------------------------------------------------------


def test_totals_are_start_plus_scores() -> None:
    """Section 6: a side's total is its starting total plus its deal scores."""
    state = replay(CLASSIC, [AB, BE, CA], starts=(100, -50))
    assert [line.scores for line in state.lines] == [(1210, 265), (265, 355), (-320, 1210)]
    # 100 + 1210 = 1310, + 265 = 1575, - 320 = 1255
    # -50 + 265 = 215, + 355 = 570, + 1210 = 1780
    assert [line.totals for line in state.lines] == [(1310, 215), (1575, 570), (1255, 1780)]
    assert state.totals == (1255, 1780)
    assert [line.number for line in state.lines] == [1, 2, 3]


def test_no_deals_leaves_the_starting_totals() -> None:
    """Section 6: before the first deal the totals are the starting totals (0 by default)."""
    assert replay(CLASSIC, []).totals == (0, 0)
    state = replay(CLASSIC, [], starts=(-100, 1500))
    assert state.totals == (-100, 1500)
    assert state.starts == (-100, 1500)
    assert not state.finished
    assert state.next_deal == 1


# --- end of the game ------------------------------------------------------------------


def test_game_ends_at_first_deal_reaching_target() -> None:
    """Section 2: the game is checked after each deal; it ends when a side reaches 5000."""
    # After 4 x AB: 4 x 1210 = 4840 and 4 x 265 = 1060: nobody at 5000 yet.
    four = replay(CLASSIC, [AB] * 4)
    assert four.totals == (4840, 1060)
    assert not four.finished
    assert four.winner is None
    assert four.finished_after is None
    # The fifth deal takes side 0 to 6050.
    five = replay(CLASSIC, [AB] * 5)
    assert five.totals == (6050, 1325)
    assert five.finished
    assert five.winner == 0
    assert five.finished_after == 5
    assert five.deals_after_end == 0


@pytest.mark.parametrize(("start", "finished"), [(4735, True), (4730, False)])
def test_reaching_target_exactly_ends_the_game(start: int, finished: bool) -> None:
    """Section 2: reaching 5000 exactly is enough; 4995 is not."""
    # start + 265 (case B): 4735 -> 5000; 4730 -> 4995.
    state = replay(CLASSIC, [BE], starts=(start, 0))
    assert state.totals == (start + 265, 355)
    assert state.finished is finished
    assert state.winner == (0 if finished else None)


@pytest.mark.parametrize(
    ("starts", "deal", "totals", "winner"),
    [
        # 4900 + 265 = 5165; 4800 + 1210 = 6010: both over, the higher wins.
        ((4900, 4800), BA, (5165, 6010), 1),
        # 4900 + 265 = 5165; 4745 + 355 = 5100: side 0 stays ahead.
        ((4900, 4745), BE, (5165, 5100), 0),
        # 4000 + 1210 = 5210; 4990 + 265 = 5255: the bigger deal score does not decide.
        ((4000, 4990), AB, (5210, 5255), 1),
    ],
)
def test_highest_total_wins(
    starts: tuple[int, int], deal: Deal, totals: tuple[int, int], winner: int
) -> None:
    """Section 2: when one or more sides reach the target, the highest total wins."""
    state = replay(CLASSIC, [deal], starts=starts)
    assert state.totals == totals
    assert state.winner == winner
    assert state.finished_after == 1


def test_tie_at_the_top_plays_another_deal() -> None:
    """Section 2, Decision: an exact tie for the highest total over the target does not end
    the game; the next deal decides."""
    # 4900 + 265 = 5165 for both sides.
    tied = replay(CLASSIC, [BB], starts=(4900, 4900))
    assert tied.totals == (5165, 5165)
    assert tied.winner is None
    assert tied.finished_after is None
    assert not tied.finished
    assert tied.leaders == (0, 1)
    # Then B for side 0 (5430) and E for side 1 (5520).
    decided = replay(CLASSIC, [BB, BE], starts=(4900, 4900))
    assert decided.totals == (5430, 5520)
    assert decided.winner == 1
    assert decided.finished_after == 2
    assert decided.leaders == (1,)


def test_house_target() -> None:
    """Section 6: a table's own target ends the game instead of 5000."""
    rules = apply_options(CLASSIC, {"target": 3000})
    # 2 x 1210 = 2420 < 3000; 3 x 1210 = 3630.
    assert not replay(rules, [AB] * 2).finished
    state = replay(rules, [AB] * 3)
    assert state.winner == 0
    assert state.finished_after == 3


def test_deals_after_the_end() -> None:
    """Deals entered after the winning deal (after an edit) are counted as such."""
    state = replay(CLASSIC, [AB] * 7)
    assert len(state.lines) == 7
    assert state.finished_after == 5
    assert state.deals_after_end == 2
    assert state.winner == 0
    # The lines after the end are still on the sheet: 7 x 1210, 7 x 265.
    assert state.lines[-1].totals == (8470, 1855)


# --- initial-meld minimums ------------------------------------------------------------


def test_minimums_follow_total_at_start_of_each_deal() -> None:
    """Section 2: each deal's minimum comes from the side's total at the start of it."""
    state = replay(CLASSIC, [BE, CA], starts=(-100, 1495))
    # Deal 1 starts at -100 (15) and 1495 (50).
    assert state.lines[0].minimums == (15, 50)
    # -100 + 265 = 165 (50); 1495 + 355 = 1850 (90).
    assert state.lines[0].totals == (165, 1850)
    assert state.lines[1].minimums == (50, 90)
    # 165 - 320 = -155 (15); 1850 + 1210 = 3060 (120).
    assert state.lines[1].totals == (-155, 3060)
    assert state.minimums == (15, 120)


@pytest.mark.parametrize(
    ("start", "minimum"),
    [(-100, 15), (-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120)],
)
def test_starting_total_sets_first_minimum(start: int, minimum: int) -> None:
    """Section 6: a game started from a paper sheet uses its starting totals for the first
    deal's minimum (negative allowed)."""
    before = replay(CLASSIC, [], starts=(start, 0))
    assert before.minimums == (minimum, 50)
    after_one = replay(CLASSIC, [BE], starts=(start, 0))
    assert after_one.lines[0].minimums == (minimum, 50)


# --- seating and the dealer -----------------------------------------------------------


def test_seating_four_players() -> None:
    """Section 2: partners sit opposite: A1 B1 A2 B2."""
    assert seating([2, 2]) == (A1, B1, A2, B2)


def test_seating_two_sides_of_three() -> None:
    """Section 3 (classic-6): 2 sides of 3, partners alternate: A1 B1 A2 B2 A3 B3."""
    assert seating([3, 3]) == (
        Seat(0, 0),
        Seat(1, 0),
        Seat(0, 1),
        Seat(1, 1),
        Seat(0, 2),
        Seat(1, 2),
    )


def test_seating_three_sides_of_two() -> None:
    """Section 3 (classic-6x3): 3 sides of 2: A1 B1 C1 A2 B2 C2."""
    assert seating([2, 2, 2]) == (
        Seat(0, 0),
        Seat(1, 0),
        Seat(2, 0),
        Seat(0, 1),
        Seat(1, 1),
        Seat(2, 1),
    )


def test_seating_takes_only_the_players_each_side_has() -> None:
    """A side with fewer players is skipped once it has none left: no seat is invented."""
    assert seating([2, 1]) == (A1, B1, A2)
    assert seating([1, 2]) == (A1, B1, B2)


@pytest.mark.parametrize("sides", [[2, 2], [3, 3], [2, 2, 2]])
def test_partners_never_sit_side_by_side(sides: list[int]) -> None:
    """Section 2/3: neighbours around the table (wrapping round) are never partners."""
    seats = seating(sides)
    assert len(seats) == sum(sides)
    assert len(set(seats)) == len(seats)
    for here, left in zip(seats, seats[1:] + seats[:1], strict=True):
        assert here.side != left.side


def test_dealer_moves_one_seat_per_deal() -> None:
    """The deal passes one seat to the left each deal, starting from seat 0 by default."""
    state = replay(CLASSIC, [BE] * 5)
    assert [line.dealer for line in state.lines] == [A1, B1, A2, B2, A1]
    assert state.next_dealer == B1


def test_dealer_starts_at_first_dealer_and_wraps() -> None:
    """The first deal is dealt by ``first_dealer``; the deal wraps round the table."""
    state = replay(CLASSIC, [BE] * 6, first_dealer=2)
    assert [line.dealer for line in state.lines] == [A2, B2, A1, B1, A2, B2]
    assert state.next_dealer == A1
    assert replay(CLASSIC, [], first_dealer=3).next_dealer == B2


def test_dealer_with_explicit_seats() -> None:
    """A six-seat table (sides of 3) rotates the deal through all six seats."""
    seats = seating([3, 3])
    state = replay(CLASSIC, [BE] * 7, seats=seats, first_dealer=4)
    # Seats 4, 5, 0, 1, 2, 3, 4.
    assert [line.dealer for line in state.lines] == [seats[i] for i in (4, 5, 0, 1, 2, 3, 4)]
    assert state.next_dealer == seats[5]


@pytest.mark.parametrize(
    ("sides", "dealer", "first"),
    [
        ([2, 2], 0, 1),
        ([2, 2], 2, 3),  # the third seat deals: the fourth plays first
        ([2, 2], 3, 0),  # round the table
        ([1, 1, 1, 1], 0, 1),  # Railroad for four, each alone
        ([1] * 6, 5, 0),
        ([3, 3], 0, 1),
        ([2, 2, 2], 4, 5),
    ],
)
def test_the_player_to_the_dealers_left_plays_first(
    sides: list[int], dealer: int, first: int
) -> None:
    """Section 9: play goes clockwise from the dealer's left, the next seat, whoever dealt
    (the page had seat 1 playing first whatever the dealer, and the dealer playing first
    whenever seat 1 dealt)."""
    seats = seating(sides)
    assert plays_first(seats, seats[dealer]) == seats[first]


def test_the_highest_card_of_the_draw_plays_first() -> None:
    """Section 9: the highest chooses a seat and plays first; the first dealer is to the
    highest's right, so ``plays_first`` of the draw's dealer is the highest."""
    drawn = [Drawn(name, draw_card(card)) for name, card in
             [("Ana", "QS"), ("Boris", "7H"), ("Vera", "AC"), ("Goran", "KD")]]  # fmt: skip
    draw = draw_for_seats(VARIANTS["classic"], drawn)
    seats = seating([2, 2])
    first = plays_first(seats, seats[draw.first_dealer_seat])
    assert draw.seats[seats.index(first)] == draw.order[0] == "Vera"
