"""The standings as the room's screen shows them: each line with its last change.

The last change is what the latest round with a result (a finished table or a bye) did:
the standings now against the standings over the rounds before it, both from the rules
engine (``evenings.standings_by``, as ``evenings.view_of`` ranks the evening),
never a count of its own.
While the round just seated has no finished table yet, the marks stay those of the round
before it; in the first round every line is new.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import Standing
from ..rules.standing_moves import Move, moves
from .evenings import EveningView, RoundView, result_of, standings_by


@dataclass(frozen=True)
class ScreenLine:
    """A line of the standings: its place (1 first), the entrant's figures, and its move
    since the standings before the latest round with a result (None before any result)."""

    place: int
    standing: Standing
    move: Move | None


def standings_over(evening: EveningView, rounds: Sequence[RoundView]) -> tuple[Standing, ...]:
    """The evening's standings after ``rounds`` alone, ranked as the evening ranks."""
    results = [result_of(round_) for round_ in rounds]
    return standings_by(evening.format, evening.entrants, results, evening.scale, evening.bye_vp)


def last_changed(evening: EveningView) -> int | None:
    """The index in ``evening.played`` of the latest round with a result (a finished
    table, or a bye: it scores once the round is seated), or None."""
    for index in range(len(evening.played) - 1, -1, -1):
        round_ = evening.played[index]
        if round_.byes or any(table.finished for table in round_.tables):
            return index
    return None


def screen_lines(evening: EveningView) -> tuple[ScreenLine, ...]:
    """The evening's standings, best first, each line with its last move."""
    changed = last_changed(evening)
    if changed is None:
        marks: Sequence[Move | None] = [None] * len(evening.standings)
    else:
        before = standings_over(evening, evening.played[:changed]) if changed else None
        marks = moves(before, evening.standings)
    return tuple(
        ScreenLine(place, line, move)
        for place, (line, move) in enumerate(zip(evening.standings, marks, strict=True), start=1)
    )
