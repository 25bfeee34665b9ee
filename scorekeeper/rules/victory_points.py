"""Victory points for club evenings (RULES.md section 16, API.md "Club evenings").

A table's difference over the round becomes victory points (VP): 20 shared by its two sides,
the winner's from the evening's scale, the loser's the rest, a draw 10 each. A scale is
data: steps of difference, each with its upper bound (None for every larger difference) and
the winner's VP. The two published Burraco scales are named; a director may type any other,
which ``check_scale`` holds to the shape of the published ones.

Standings by VP break ties by head to head (the VP each tied entrant scored at the tables
where it met another of exactly those tied), then the difference, the points scored and the
name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from .evening import Entrant, EveningError, Format, RoundResult, Standing, entrants_of, standings
from .text import T, Text

#: The VP a table shares between its two sides, and each side's in a draw.
TOTAL = 20
DRAW = 10
#: What a bye scores unless the evening says otherwise (API.md's default).
BYE_VP = 12
#: The most steps a typed scale has, and the largest upper bound: far past any evening.
MOST_STEPS = 40
MOST_BOUND = 10_000_000
#: How an evening that scores by match points names its scoring (API.md).
MATCH_POINTS = "match_points"


class ScaleError(EveningError):
    """A scoring or a scale that cannot be used; ``field`` is the path of the value at
    fault (``scoring.victory_points.3.0``), ``text`` the sentence for the director."""

    def __init__(self, field: str, text: Text) -> None:
        super().__init__(f"{field}: {text}")
        self.field = field
        self.text = text


@dataclass(frozen=True)
class Step:
    """A step of a scale: differences up to ``upto`` (after the step before), or every
    larger one when ``upto`` is None, give the winner ``winner`` VP."""

    upto: int | None
    winner: int


@dataclass(frozen=True)
class Row:
    """A step as a table shows it: the differences from ``low`` to ``high`` (None: and
    above), and the VP of the winner and of the loser."""

    low: int
    high: int | None
    winner: int
    loser: int


@dataclass(frozen=True)
class Scale:
    """An evening's scale: steps in ascending order, the last unbounded. ``name`` is the
    published scale's id (``burraco-3``), None for a typed one."""

    steps: tuple[Step, ...]
    name: str | None = None

    def winner_vp(self, difference: int) -> int:
        """The winner's VP for a (non-negative) difference; a draw is 10 whatever the
        scale's first step says."""
        if difference == 0:
            return DRAW
        for step in self.steps:
            if step.upto is None or difference <= step.upto:
                return step.winner
        raise EveningError("a scale ends with an unbounded step")

    def rows(self) -> tuple[Row, ...]:
        """The scale as RULES.md prints it: 0-50 10-10, 55-150 11-9, ..., over 1500 20-0.
        Differences are counted in fives, as every card's points are."""
        rows = []
        low = 0
        for step in self.steps:
            rows.append(Row(low, step.upto, step.winner, TOTAL - step.winner))
            if step.upto is not None:
                low = step.upto + 5
        return tuple(rows)

    def document(self) -> str | list[list[int | None]]:
        """The scale as API.md writes it: a published one by its name, else its steps."""
        if self.name is not None:
            return self.name
        return [[step.upto, step.winner] for step in self.steps]


def _published(name: str, bounds: Sequence[int | None]) -> Scale:
    """A published scale: the winner's VP rise by one a step, from 10 (a near draw) to 20."""
    return Scale(tuple(Step(upto, DRAW + index) for index, upto in enumerate(bounds)), name)


#: RULES.md section 16: the published Burraco scales for rounds of 3 and of 4 deals.
BURRACO_3 = _published("burraco-3", (50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500, None))
BURRACO_4 = _published("burraco-4", (100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000, None))
PUBLISHED: Mapping[str, Scale] = MappingProxyType({"burraco-3": BURRACO_3, "burraco-4": BURRACO_4})


def _whole(value: object) -> int | None:
    """A whole number as JSON may write it (``50`` or ``50.0``); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) else None


def check_scale(value: object, field: str = "scoring.victory_points") -> Scale:
    """A typed scale (``[[50, 10], [150, 11], ..., [None, 20]]``) as a ``Scale``, or
    ``ScaleError`` naming the value at fault: steps ascending, only the last unbounded, the
    winner's VP whole numbers from 10 to 20 that never fall."""
    if not isinstance(value, list | tuple) or not value:
        raise ScaleError(
            field, T("A scale is a list of steps, each [upper bound, the winner's victory points].")
        )
    if len(value) > MOST_STEPS:
        raise ScaleError(field, T("A scale has at most %(most)s steps.", most=MOST_STEPS))
    steps: list[Step] = []
    for index, raw in enumerate(value):
        path = f"{field}.{index}"
        if not isinstance(raw, list | tuple) or len(raw) != 2:
            raise ScaleError(path, T("Each step is [upper bound, the winner's victory points]."))
        bound, winner = _whole(raw[0]), _whole(raw[1])
        last = index == len(value) - 1
        before = steps[-1] if steps else None
        if raw[0] is None:
            if not last:
                raise ScaleError(
                    f"{path}.0",
                    T("Only the last step is open (null): it takes every larger difference."),
                )
        elif bound is None or not 0 <= bound <= MOST_BOUND or bound % 5:
            # Every score is a multiple of 5, so is every difference: a bound between
            # two would make a step that no table reaches.
            raise ScaleError(
                f"{path}.0",
                T(
                    "An upper bound is a whole number of points from 0 to %(most)s, a "
                    "multiple of 5 as every score is.",
                    most=MOST_BOUND,
                ),
            )
        elif last:
            raise ScaleError(
                f"{path}.0",
                T("The last step is open: null, for every difference above the one before."),
            )
        elif before is not None and before.upto is not None and bound <= before.upto:
            raise ScaleError(
                f"{path}.0",
                T(
                    "Each upper bound is above the one before (%(before)s).",
                    before=before.upto,
                ),
            )
        if winner is None or not DRAW <= winner <= TOTAL:
            raise ScaleError(
                f"{path}.1",
                T(
                    "The winner's victory points are a whole number from %(low)s to %(high)s.",
                    low=DRAW,
                    high=TOTAL,
                ),
            )
        if before is not None and winner < before.winner:
            raise ScaleError(
                f"{path}.1",
                T(
                    "The winner's victory points never fall as the difference grows "
                    "(%(before)s in the step before).",
                    before=before.winner,
                ),
            )
        steps.append(Step(bound, winner))
    return Scale(tuple(steps))


def read_scoring(value: object, field: str = "scoring") -> Scale | None:
    """An evening's scoring as API.md writes it: ``"match_points"`` (or nothing) is None;
    ``{"victory_points": "burraco-3"}`` a published scale, ``{"victory_points": [[50, 10],
    ..., [None, 20]]}`` a typed one. Anything else is a ``ScaleError`` naming the field."""
    if value is None or value == MATCH_POINTS:
        return None
    if not isinstance(value, Mapping) or set(value) != {"victory_points"}:
        raise ScaleError(
            field,
            T(
                'Scoring is "match_points", or {"victory_points": ...} with a published '
                "scale's name (%(known)s) or steps of [upper bound, the winner's victory "
                "points].",
                known=", ".join(PUBLISHED),
            ),
        )
    scale = value["victory_points"]
    path = f"{field}.victory_points"
    if isinstance(scale, str):
        if scale not in PUBLISHED:
            raise ScaleError(
                path,
                T(
                    "No published scale is called %(name)s; they are %(known)s.",
                    name=scale,
                    known=", ".join(PUBLISHED),
                ),
            )
        return PUBLISHED[scale]
    return check_scale(scale, path)


def check_bye(value: object, field: str = "bye_vp") -> int:
    """The VP a bye scores: a whole number from 0 to 20 (a top win)."""
    bye = _whole(value)
    if bye is None or not 0 <= bye <= TOTAL:
        raise ScaleError(
            field,
            T("A bye scores a whole number of victory points from 0 to %(most)s.", most=TOTAL),
        )
    return bye


def table_victory_points(totals: Sequence[int], scale: Scale) -> tuple[int, int]:
    """The VP of a table's two sides from their totals over the round: the winner's from
    the scale by the difference, the loser's 20 minus that; a draw 10 each."""
    if len(totals) != 2:
        raise EveningError("victory points are shared by a table of two sides")
    first, second = totals
    winner = scale.winner_vp(abs(first - second))
    return (winner, TOTAL - winner) if first >= second else (TOTAL - winner, winner)


def vp_standings(
    format: Format,
    entrants: Sequence[Entrant],
    rounds: Sequence[RoundResult],
    scale: Scale,
    bye_vp: int = BYE_VP,
) -> tuple[Standing, ...]:
    """The standings of an evening scored by VP, best first: each line as ``standings``
    counts it (match points too, for won-drawn-lost), with its VP. A bye scores ``bye_vp``
    once per entrant, as it scores match points once.

    Order: VP; then head to head, the VP each scored at the tables where it met another
    entrant of exactly the same VP (a tie of entrants who never met stays one); then the
    difference, the points scored, the name.
    """
    lines = {line.players: line for line in standings(format, entrants, rounds)}
    vp: Counter[Entrant] = Counter()
    byes: Counter[Entrant] = Counter()
    #: Each table as who met whom: per side, its entrants and their VP.
    met: list[tuple[tuple[tuple[Entrant, ...], int], ...]] = []
    for round_ in rounds:
        for table in round_.tables:
            points = table_victory_points([side.total for side in table.sides], scale)
            sides = tuple(
                (entrants_of(format, side.players), side_vp)
                for side, side_vp in zip(table.sides, points, strict=True)
            )
            for side_entrants, side_vp in sides:
                for entrant in side_entrants:
                    vp[entrant] += side_vp
            met.append(sides)
        for entrant in round_.byes:
            if not byes[entrant]:
                vp[entrant] += bye_vp
            byes[entrant] += 1
    head: Counter[Entrant] = Counter()
    for sides in met:
        for index, (side_entrants, side_vp) in enumerate(sides):
            rivals = {e for other, (them, _) in enumerate(sides) if other != index for e in them}
            for entrant in side_entrants:
                if any(vp[rival] == vp[entrant] for rival in rivals):
                    head[entrant] += side_vp
    ranked = [replace(line, victory_points=vp[entrant]) for entrant, line in lines.items()]
    return tuple(
        sorted(
            ranked,
            key=lambda line: (
                -line.victory_points,
                -head[line.players],
                -line.difference,
                -line.points,
                tuple(name.casefold() for name in line.players),
                line.players,
            ),
        )
    )
