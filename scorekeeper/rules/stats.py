"""Statistics over games already played: what a side did in one game, and what a player
or a partnership did over many.

``side_records`` condenses one replayed game into a ``SideRecord`` per side (the store keeps
these next to the game so that a player's page need not replay every game); ``summarise``
adds records up, ``longest_streak`` and ``head_to_head`` read a player's games in order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Generic, TypeVar

from .game import DealLine, GameState
from .kinds import CanastaKind
from .scoring import SideResult
from .variants import VARIANTS


class Outcome(Enum):
    """How a game ended for one side."""

    WON = "won"
    LOST = "lost"
    #: Ended sharing the highest total: a game of fixed deals (a club round) can.
    DRAWN = "drawn"
    #: Not finished yet (or abandoned).
    OPEN = "open"


@dataclass(frozen=True)
class SideRecord:
    """One side's figures in one game."""

    outcome: Outcome
    total: int
    deals: int = 0
    #: Sum of the side's deal scores (the starting total is not a deal score).
    deal_points: int = 0
    natural_canastas: int = 0
    mixed_canastas: int = 0
    wild_canastas: int = 0
    sevens_canastas: int = 0
    sequence_canastas: int = 0
    deuce_canastas: int = 0
    joker_canastas: int = 0
    aces_canastas: int = 0
    semi_natural_canastas: int = 0
    red_threes: int = 0
    went_out: int = 0
    went_out_concealed: int = 0
    #: Deals the side went out with a special hand (Modern American).
    special_hands: int = 0
    #: Deals played at each initial-meld minimum: {minimum: deals}.
    tiers: Mapping[int, int] = field(default_factory=dict)


def side_records(state: GameState, deals: Sequence[Sequence[SideResult]]) -> tuple[SideRecord, ...]:
    """Each side's record of a replayed game; ``deals`` are the entries it was replayed from."""
    records = [SideRecord(Outcome.OPEN, start) for start in state.starts]
    for line, results in zip(state.lines, deals, strict=False):
        records = [
            record_with(record, line, side, results[side]) for side, record in enumerate(records)
        ]
    if not state.finished:
        return tuple(records)
    return tuple(
        ended(record, side, state.winner, state.totals) for side, record in enumerate(records)
    )


def record_with(record: SideRecord, line: DealLine, side: int, result: SideResult) -> SideRecord:
    """A side's record with one more deal: ``line`` as played, ``result`` its entries."""
    minimum = line.minimums[side]
    tiers = dict(record.tiers)
    tiers[minimum] = tiers.get(minimum, 0) + 1
    return replace(
        record,
        total=line.totals[side],
        deals=record.deals + 1,
        deal_points=record.deal_points + line.scores[side],
        **{kind.field: getattr(record, kind.field) + result.canastas(kind) for kind in CanastaKind},
        red_threes=record.red_threes + result.red_threes,
        went_out=record.went_out + result.went_out,
        went_out_concealed=record.went_out_concealed + (result.went_out and result.concealed),
        special_hands=record.special_hands + (result.special_hand is not None),
        tiers=dict(sorted(tiers.items())),
    )


def outcome_of(side: int, winner: int | None, totals: Sequence[int]) -> Outcome:
    """How a finished game ended for ``side``: won, lost, or (no winner) drawn when it
    shares the highest total."""
    if winner is not None:
        return Outcome.WON if winner == side else Outcome.LOST
    return Outcome.DRAWN if totals[side] == max(totals) else Outcome.LOST


def ended(
    record: SideRecord, side: int, winner: int | None, totals: Sequence[int] | None
) -> SideRecord:
    """The record with the game's outcome for this side: ``totals`` are the final ones of
    a finished game, None while it goes on (open)."""
    outcome = Outcome.OPEN if totals is None else outcome_of(side, winner, totals)
    return record if record.outcome is outcome else replace(record, outcome=outcome)


@dataclass(frozen=True)
class Tally:
    """Games played, that is played to the end (won, lost or drawn), and won; games still
    going apart. A game with no deal is none of these: nobody played it (``summarise``)."""

    played: int = 0
    won: int = 0
    going: int = 0

    @property
    def rate(self) -> float | None:
        """Share of the games played that were won, or None before any."""
        return self.won / self.played if self.played else None

    def add(self, outcome: Outcome) -> Tally:
        if outcome is Outcome.OPEN:
            return replace(self, going=self.going + 1)
        return Tally(self.played + 1, self.won + (outcome is Outcome.WON), self.going)


@dataclass(frozen=True)
class Summary:
    """A player's or a partnership's figures over many games."""

    games: Tally
    by_variant: Mapping[str, Tally]
    deals: int
    deal_points: int
    natural_canastas: int
    mixed_canastas: int
    wild_canastas: int
    sevens_canastas: int
    sequence_canastas: int
    deuce_canastas: int
    joker_canastas: int
    aces_canastas: int
    semi_natural_canastas: int
    red_threes: int
    went_out: int
    went_out_concealed: int
    special_hands: int
    tiers: Mapping[int, int]
    longest_streak: int
    #: The rule sets (ids) of the games in which each kind of canasta was made.
    made_in: Mapping[CanastaKind, frozenset[str]] = field(default_factory=dict)

    def canasta_words(self, kind: CanastaKind) -> tuple[str, ...]:
        """What the rule sets these canastas were made in call one of ``kind`` (a sequence:
        Samba's "samba", Bolivia's "escalera"; a wild canasta: Bolivia's "bolivia", Cuban's
        and Uruguay's "wild"), each word once, in the order of ``VARIANTS``."""
        made_in = self.made_in.get(kind, frozenset())
        words = (
            rules.canasta_name(kind).word for rules in VARIANTS.values() if rules.id in made_in
        )
        return tuple(dict.fromkeys(words))

    def per_deal(self, count: int) -> float | None:
        """``count`` divided by the deals played, or None before any deal."""
        return count / self.deals if self.deals else None

    @property
    def average_deal_score(self) -> float | None:
        return self.per_deal(self.deal_points)


def longest_streak(outcomes: Iterable[Outcome]) -> int:
    """The most games won in a row, in the order given; a loss or a draw breaks a streak,
    unfinished games neither extend nor break one."""
    best = run = 0
    for outcome in outcomes:
        if outcome is Outcome.WON:
            run += 1
            best = max(best, run)
        elif outcome in (Outcome.LOST, Outcome.DRAWN):
            run = 0
    return best


def summarise(games: Sequence[tuple[str, SideRecord]]) -> Summary:
    """Add up ``(variant, record)`` pairs, given in the order the games were played. A game
    with no deal counts for nothing: not played, not going, no streak broken (a club table
    whose round was closed before its first deal is a draw nobody played, as the ratings
    have it)."""
    games = [(variant, record) for variant, record in games if record.deals]
    tally = Tally()
    by_variant: dict[str, Tally] = {}
    tiers: Counter[int] = Counter()
    made_in: dict[CanastaKind, set[str]] = {}
    for variant, record in games:
        tally = tally.add(record.outcome)
        by_variant[variant] = by_variant.get(variant, Tally()).add(record.outcome)
        tiers.update(record.tiers)
        for kind in CanastaKind:
            if getattr(record, kind.field):
                made_in.setdefault(kind, set()).add(variant)
    records = [record for _variant, record in games]
    return Summary(
        games=tally,
        by_variant=dict(sorted(by_variant.items())),
        deals=sum(r.deals for r in records),
        deal_points=sum(r.deal_points for r in records),
        **{kind.field: sum(getattr(r, kind.field) for r in records) for kind in CanastaKind},
        red_threes=sum(r.red_threes for r in records),
        went_out=sum(r.went_out for r in records),
        went_out_concealed=sum(r.went_out_concealed for r in records),
        special_hands=sum(r.special_hands for r in records),
        tiers=dict(sorted(tiers.items())),
        longest_streak=longest_streak(r.outcome for r in records),
        made_in={kind: frozenset(ids) for kind, ids in made_in.items()},
    )


Key = TypeVar("Key", bound=Hashable)


@dataclass(frozen=True)
class Meeting(Generic[Key]):
    """One finished game between a player and one opponent on another side."""

    opponent: Key
    #: The player's side won / the opponent's side won (both false: a third side won).
    won: bool
    lost: bool


@dataclass(frozen=True)
class Rivalry(Generic[Key]):
    opponent: Key
    games: int
    won: int
    lost: int


def head_to_head(meetings: Iterable[Meeting[Key]]) -> list[Rivalry[Key]]:
    """Per opponent: finished games against them, won and lost; most games first."""
    games: Counter[Key] = Counter()
    won: Counter[Key] = Counter()
    lost: Counter[Key] = Counter()
    order: list[Key] = []
    for meeting in meetings:
        if meeting.opponent not in games:
            order.append(meeting.opponent)
        games[meeting.opponent] += 1
        won[meeting.opponent] += meeting.won
        lost[meeting.opponent] += meeting.lost
    rivals = [Rivalry(key, games[key], won[key], lost[key]) for key in order]
    return sorted(rivals, key=lambda rival: -rival.games)
