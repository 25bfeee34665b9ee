"""Places over a season as an SVG chart: one line per entrant of the ladder's top, the
season's finished evenings from left to right, 1st place on top. Drawn on the server, as
the running totals are (``web.chart``): no script, no inline style."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...rules.season import LadderLine

WIDTH = 340
HEIGHT = 180
PAD_LEFT = 30
PAD_RIGHT = 12
PAD_TOP = 12
PAD_BOTTOM = 22
#: The entrants drawn: the side palette's six colours (and as many dashes and markers).
SHOWN = 6


@dataclass(frozen=True)
class Series:
    """An entrant's places: its line's runs (broken where it missed an evening) and points."""

    players: tuple[str, ...]
    runs: tuple[str, ...]  # "x,y x,y ..." per run of evenings in a row
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class PlacesChart:
    width: int
    height: int
    left: int
    right: int
    bottom: float
    series: tuple[Series, ...]
    ticks: tuple[tuple[float, int], ...]  # (y, place) on the left
    evenings: tuple[tuple[float, int], ...]  # (x, evening's number) under the chart


def places_chart(lines: Sequence[LadderLine], evenings: int) -> PlacesChart | None:
    """The chart of the ladder's first ``SHOWN`` lines over ``evenings`` finished evenings;
    None before one is finished."""
    if evenings < 1 or not lines:
        return None
    shown = list(lines[:SHOWN])
    worst = max(place for line in shown for place in line.places if place is not None)
    worst = max(worst, 2)
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(index: int) -> float:
        if evenings == 1:
            return round(PAD_LEFT + inner_w / 2, 1)
        return round(PAD_LEFT + inner_w * index / (evenings - 1), 1)

    def y(place: int) -> float:
        return round(PAD_TOP + inner_h * (place - 1) / (worst - 1), 1)

    series = []
    for line in shown:
        runs: list[list[tuple[float, float]]] = [[]]
        points = []
        for index, place in enumerate(line.places):
            if place is None:
                if runs[-1]:
                    runs.append([])
                continue
            point = (x(index), y(place))
            runs[-1].append(point)
            points.append(point)
        series.append(
            Series(
                players=line.players,
                runs=tuple(" ".join(f"{px},{py}" for px, py in run) for run in runs if run),
                points=tuple(points),
            )
        )
    step = 1 if worst <= 8 else 2 if worst <= 16 else 5
    ticks = sorted({1, worst, *range(1 + step, worst, step)})
    return PlacesChart(
        width=WIDTH,
        height=HEIGHT,
        left=PAD_LEFT,
        right=WIDTH - PAD_RIGHT,
        bottom=float(HEIGHT - PAD_BOTTOM),
        series=tuple(series),
        ticks=tuple((y(place), place) for place in ticks),
        evenings=tuple((x(index), index + 1) for index in range(evenings)),
    )
