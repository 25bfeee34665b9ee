"""How each line of an evening's standings moved since earlier standings (the room's
screen marks it): up or down so many places, level, or new (no earlier place).

Both standings come from the one scorer (``evening.standings`` or
``victory_points.vp_standings``); this only compares their orders.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .evening import Entrant, Standing

MoveKind = Literal["up", "down", "same", "new"]


@dataclass(frozen=True)
class Move:
    """A line's move: ``kind``, and by how many places (0 for ``same`` and ``new``)."""

    kind: MoveKind
    places: int = 0


NEW = Move("new")


def moves(previous: Sequence[Standing] | None, current: Sequence[Standing]) -> tuple[Move, ...]:
    """Each line of ``current`` (in its order) against its place in ``previous``: a line
    that had none there, or every line when there were no earlier standings (None), is
    new."""
    if previous is None:
        return tuple(NEW for _ in current)
    before: dict[Entrant, int] = {line.players: place for place, line in enumerate(previous)}
    found = []
    for place, line in enumerate(current):
        was = before.get(line.players)
        if was is None:
            found.append(NEW)
        elif was > place:
            found.append(Move("up", was - place))
        elif was < place:
            found.append(Move("down", place - was))
        else:
            found.append(Move("same"))
    return tuple(found)
