"""A whole game recomputed from what happened at the table: totals, minimums, dealer, winner.

Nothing here is stored: a game is its rule set, its starting totals and its deal entries,
and every figure on the score sheet follows from them, so editing deal 3 of 12 just works.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .ruleset import RuleSet
from .scoring import SideResult, score_deal


@dataclass(frozen=True)
class Seat:
    """A place at the table: the side and the player's index within it."""

    side: int
    player: int


def seating(players_per_side: Sequence[int]) -> tuple[Seat, ...]:
    """Seat order around the table, starting at the first player of the first side.

    Partners never sit side by side: the sides take turns (A1 B1 A2 B2 with four players,
    A1 B1 C1 A2 B2 C2 with three partnerships of two). The deal passes to the left, which
    is the next seat in this order.
    """
    seats: list[Seat] = []
    for player in range(max(players_per_side, default=0)):
        for side, count in enumerate(players_per_side):
            if player < count:
                seats.append(Seat(side, player))
    return tuple(seats)


def plays_first(seats: Sequence[Seat], dealer: Seat) -> Seat:
    """Who plays first in a deal: the player to the dealer's left (RULES.md section 9), the
    next seat in seat order, in every rule set. The draw for seats puts the highest card
    there for the first deal (its dealer sits to the highest's right)."""
    return seats[(seats.index(dealer) + 1) % len(seats)]


@dataclass(frozen=True)
class DealLine:
    """One row of the score sheet: a deal's scores and the running totals after it."""

    number: int
    dealer: Seat
    #: The minimum each side's initial meld had to reach in this deal.
    minimums: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class GameState:
    """The score sheet as it stands after the last deal entered."""

    rules: RuleSet
    starts: tuple[int, ...]
    lines: tuple[DealLine, ...]
    totals: tuple[int, ...]
    #: What each side's initial meld must count in the next deal.
    minimums: tuple[int, ...]
    #: The deal after which the game ended (0: time was called before the first deal);
    #: None while it goes on.
    finished_after: int | None
    #: The side that won; None while the game goes on, and in a drawn game.
    winner: int | None
    next_dealer: Seat
    #: The deal after which the game ends whatever the totals (a club round's length, or
    #: the deals played when time was called); None: it ends at the target only.
    last_deal: int | None = None

    @property
    def finished(self) -> bool:
        return self.finished_after is not None

    @property
    def drawn(self) -> bool:
        """Ended level at the top: a game of fixed deals (a club round) can."""
        return self.finished and self.winner is None

    @property
    def next_deal(self) -> int:
        return len(self.lines) + 1

    @property
    def leaders(self) -> tuple[int, ...]:
        """Sides with the highest total (more than one means a tie at the top)."""
        best = max(self.totals)
        return tuple(side for side, total in enumerate(self.totals) if total == best)

    @property
    def deals_after_end(self) -> int:
        """Deals entered after the deal that ended the game (an edit can cause that)."""
        if self.finished_after is None:
            return 0
        return len(self.lines) - self.finished_after


def winner_of(totals: Sequence[int], target: int | None) -> int | None:
    """The winning side once a side has reached ``target``: the highest total wins; an
    exact tie for the highest total plays another deal (RULES.md section 2, Decision)."""
    if target is None or max(totals) < target:
        return None
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    return leaders[0] if len(leaders) == 1 else None


@dataclass(frozen=True)
class Ending:
    """How a game ended: the side that won, or None when it ended level (a game of fixed
    deals, a club round, whose last deal left two sides sharing the highest total)."""

    winner: int | None


def ending(
    rules: RuleSet,
    totals: Sequence[int],
    deals: int,
    last_deal: int | None = None,
    results: Sequence[SideResult] = (),
) -> Ending | None:
    """How the game ends after ``deals`` deals with these totals, or None while it goes on;
    ``results`` are the last deal's entries.

    A dream hand wins at once (RULES.md section 13). A side at the target ends it
    (``winner_of``). A game with a ``last_deal`` (a club round, RULES.md section 11) or a
    rule set's set number of deals (section 14) also ends once that many are played: the
    sole highest total wins, and a share of the highest total is a draw."""
    for side, result in enumerate(results):
        if result.special_hand in rules.dream_hands:
            return Ending(side)
    winner = winner_of(totals, rules.target)
    if winner is not None:
        return Ending(winner)
    if rules.deals is not None:
        last_deal = rules.deals if last_deal is None else min(last_deal, rules.deals)
    if last_deal is not None and deals >= last_deal:
        best = max(totals)
        leaders = [side for side, total in enumerate(totals) if total == best]
        return Ending(leaders[0] if len(leaders) == 1 else None)
    return None


def next_line(
    rules: RuleSet,
    totals: Sequence[int],
    results: Sequence[SideResult],
    number: int,
    dealer: Seat,
) -> DealLine:
    """Deal ``number`` played from ``totals``: the minimums it was played at, its scores
    and the totals after it. ``replay`` is this, deal after deal; recording the next deal
    of a game whose totals are known needs only this."""
    minimums = tuple(rules.meld_minimum(total, number) for total in totals)
    scores = score_deal(results, rules)
    return DealLine(
        number=number,
        dealer=dealer,
        minimums=minimums,
        scores=scores,
        totals=tuple(total + score for total, score in zip(totals, scores, strict=True)),
    )


def replay(
    rules: RuleSet,
    deals: Sequence[Sequence[SideResult]],
    *,
    starts: Sequence[int] | None = None,
    seats: Sequence[Seat] | None = None,
    first_dealer: int = 0,
    last_deal: int | None = None,
) -> GameState:
    """Recompute the game from its starting totals and deal entries, in order.

    ``seats`` is the seat order (default: ``seating`` of the rule set's sides) and
    ``first_dealer`` the index of the seat that dealt the first deal; ``last_deal`` ends
    the game after that many deals whatever the totals (``ending``).
    """
    totals = tuple(starts) if starts is not None else (0,) * rules.sides
    if seats is None:
        seats = seating([rules.players_per_side] * rules.sides)
    lines: list[DealLine] = []
    finished_after: int | None = None
    winner: int | None = None
    if last_deal == 0:  # time was called before the first deal
        end = ending(rules, totals, 0, last_deal)
        finished_after, winner = 0, None if end is None else end.winner
    for index, results in enumerate(deals):
        line = next_line(
            rules, totals, results, index + 1, seats[(first_dealer + index) % len(seats)]
        )
        lines.append(line)
        totals = line.totals
        if finished_after is None:
            end = ending(rules, totals, index + 1, last_deal, results)
            if end is not None:
                finished_after, winner = index + 1, end.winner
    return GameState(
        rules=rules,
        starts=tuple(starts) if starts is not None else (0,) * rules.sides,
        lines=tuple(lines),
        totals=totals,
        minimums=tuple(rules.meld_minimum(total, len(lines) + 1) for total in totals),
        finished_after=finished_after,
        winner=winner,
        next_dealer=seats[(first_dealer + len(lines)) % len(seats)],
        last_deal=last_deal,
    )
