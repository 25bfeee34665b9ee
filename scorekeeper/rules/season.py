"""A club's season (API.md "Seasons and results"): its evenings' places add up to a ladder.

Each finished evening's standings, best first, give every entrant its place that evening;
the season's points table gives each place its season points (1st, 2nd, ...; a place
beyond the table scores 0). The ladder adds them up per entrant: a pair in a pairs evening
(the same two players in either order are one pair), a player in an individual one. It
measures who placed well at the club's evenings, evening by evening; the openskill
ratings (``ratings``) measure how strong each player is, game by game.

Order of the ladder: more points, then the better best place, then the name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .evening import Entrant, EveningError
from .text import T, Text

#: The default points table: 1st place 12, 2nd 10, 3rd 8, then one fewer a place to 1.
DEFAULT_POINTS: tuple[int, ...] = (12, 10, 8, 7, 6, 5, 4, 3, 2, 1)
#: The most places a points table lists (an evening seats at most 240 players), and the
#: most points one place may score: past either, a value is a slip.
MOST_PLACES = 240
MOST_POINTS = 1000


class PointsError(EveningError):
    """A points table that cannot be used; ``field`` is the path of the value at fault
    (``points.3``), ``text`` the sentence for the director."""

    def __init__(self, field: str, text: Text) -> None:
        super().__init__(f"{field}: {text}")
        self.field = field
        self.text = text


def _whole(value: object) -> int | None:
    """A whole number as JSON may write it (``12`` or ``12.0``); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) else None


def check_points(value: object, field: str = "points") -> tuple[int, ...]:
    """A points table as the director typed it (``[12, 10, 8, ...]``), or ``PointsError``
    naming the entry at fault: one to ``MOST_PLACES`` whole numbers from 0 to
    ``MOST_POINTS``, no place scoring more than the place above it."""
    if not isinstance(value, list | tuple) or not value:
        raise PointsError(
            field,
            T("The points table is a list of whole numbers: the points of 1st, 2nd, ... place."),
        )
    if len(value) > MOST_PLACES:
        raise PointsError(
            field, T("The points table lists at most %(most)s places.", most=MOST_PLACES)
        )
    points: list[int] = []
    for index, raw in enumerate(value):
        path = f"{field}.{index}"
        number = _whole(raw)
        if number is None or not 0 <= number <= MOST_POINTS:
            raise PointsError(
                path,
                T(
                    "Place %(place)s scores a whole number of points from 0 to %(most)s.",
                    place=index + 1,
                    most=MOST_POINTS,
                ),
            )
        if points and number > points[-1]:
            raise PointsError(
                path,
                T(
                    "Place %(place)s cannot score more than place %(above)s (%(points)s).",
                    place=index + 1,
                    above=index,
                    points=points[-1],
                ),
            )
        points.append(number)
    return tuple(points)


def points_for(place: int, points: Sequence[int]) -> int:
    """The season points of ``place`` (1 is first); a place beyond the table scores 0."""
    if place < 1:
        raise EveningError("places are counted from 1")
    return points[place - 1] if place <= len(points) else 0


def ladder_key(players: Sequence[str]) -> Entrant:
    """Who a ladder line is: the same players in any order are one entrant (a pair listed
    as "Boris & Ana" one evening and "Ana & Boris" the next)."""
    return tuple(sorted(players, key=lambda name: (name.casefold(), name)))


@dataclass(frozen=True)
class SeasonEvening:
    """A finished evening as the season reads it: its entrants in standings order, best
    first."""

    order: tuple[Entrant, ...]


@dataclass(frozen=True)
class LadderLine:
    """An entrant's line of the ladder: its players (as first listed), its season points,
    the evenings it played, its best place, and its place at each of the season's evenings
    (None: it did not play that one)."""

    players: Entrant
    points: int
    evenings: int
    best_place: int
    places: tuple[int | None, ...]


def ladder_order(line: LadderLine) -> tuple[int, int, tuple[str, ...], Entrant]:
    """More points, then the better best place, then the name (case aside, then as written)."""
    return (
        -line.points,
        line.best_place,
        tuple(name.casefold() for name in line.players),
        line.players,
    )


def ladder(evenings: Sequence[SeasonEvening], points: Sequence[int]) -> tuple[LadderLine, ...]:
    """The season's ladder after ``evenings`` (each finished, in the season's order), with
    the points table ``points``, best first."""
    names: dict[Entrant, Entrant] = {}
    places: dict[Entrant, list[int | None]] = {}
    for number, evening in enumerate(evenings):
        for place, entrant in enumerate(evening.order, start=1):
            key = ladder_key(entrant)
            names.setdefault(key, tuple(entrant))
            row = places.setdefault(key, [None] * len(evenings))
            if row[number] is not None:
                raise EveningError(f"{' & '.join(entrant)} is ranked twice in one evening")
            row[number] = place
    lines = []
    for key, row in places.items():
        played = [place for place in row if place is not None]
        lines.append(
            LadderLine(
                players=names[key],
                points=sum(points_for(place, points) for place in played),
                evenings=len(played),
                best_place=min(played),
                places=tuple(row),
            )
        )
    return tuple(sorted(lines, key=ladder_order))
