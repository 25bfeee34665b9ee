"""A player's rating after each rated game as an SVG line, from the newcomer's 1000 on the
left to now on the right, with round figures on the left. Drawn on the server, as the
running totals are (``chart.py``): no script, no inline style."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 340
HEIGHT = 160
PAD_LEFT = 44
PAD_RIGHT = 8
PAD_TOP = 10
PAD_BOTTOM = 22


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    line: str  # "x,y x,y ..."
    end: tuple[float, float]  # the last point, for its marker
    start_y: float  # the newcomer's rating, as a line
    ticks: list[tuple[float, int]]  # (y, rating) labels on the left
    left: int
    right: int
    bottom: float  # the baseline the game counts sit under
    games: int


def _step(span: int) -> int:
    """A round step that gives at most five grid lines over ``span`` rating points."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 5:
            return step
    return 2000


def rating_history(start: int, shown: Sequence[int]) -> RatingChart | None:
    """The chart of ratings ``shown`` after each game, from ``start``; None before any game."""
    if not shown:
        return None
    series = [start, *shown]
    step = _step(max(max(series) - min(series), 1))
    # The scale ends on whole steps, one step apart at least.
    low = (min(series) // step) * step
    high = max(-(-max(series) // step) * step, low + step)
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(index: int) -> float:
        return round(PAD_LEFT + inner_w * index / len(shown), 1)

    def y(rating: int) -> float:
        return round(PAD_TOP + inner_h * (high - rating) / (high - low), 1)

    points = [(x(i), y(r)) for i, r in enumerate(series)]
    return RatingChart(
        width=WIDTH,
        height=HEIGHT,
        line=" ".join(f"{px},{py}" for px, py in points),
        end=points[-1],
        start_y=y(start),
        ticks=[(y(v), v) for v in range(low, high + 1, step)],
        left=PAD_LEFT,
        right=WIDTH - PAD_RIGHT,
        bottom=float(HEIGHT - PAD_BOTTOM),
        games=len(shown),
    )
