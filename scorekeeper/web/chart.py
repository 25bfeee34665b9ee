"""The running totals of a game as an SVG chart: one line per side, the target, and the
bands of the initial-meld minimums (across, by total; or down, by deal where the minimum
goes by deal). Drawn on the server: no script, no inline style."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from ..rules import GameState

WIDTH = 340
HEIGHT = 200
PAD_LEFT = 44
PAD_RIGHT = 8
PAD_TOP = 10
PAD_BOTTOM = 22


#: Room a band's label takes ("минимум 120" at 10 px), in the chart's units.
LABEL_W = 66
LABEL_H = 12


@dataclass(frozen=True)
class Band:
    """A range of totals with one initial-meld minimum, as a horizontal band (or a range of
    deals, as a vertical one: ``x`` and ``width``), and where its label goes (``label_x``
    is its right end); no label when the band is too thin."""

    y: float
    height: float
    minimum: int
    label_x: float | None = None
    label_y: float | None = None
    x: float = PAD_LEFT
    width: float = WIDTH - PAD_LEFT - PAD_RIGHT


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[str]  # "x,y x,y ..." per side
    ends: list[tuple[float, float]]  # the last point of each side, for its marker
    target_y: float | None
    bands: list[Band]
    ticks: list[tuple[float, int]]  # (y, total) labels on the left
    zero_y: float


def _nice_step(span: int) -> int:
    for step in (250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000):
        if span / step <= 5:
            return step
    return 100_000


Point = tuple[float, float]


def _crosses(path: list[Point], box: tuple[float, float, float, float]) -> bool:
    """Whether the polyline ``path`` passes through ``box`` (left, top, right, bottom)."""
    left, top, right, bottom = box
    for (x1, y1), (x2, y2) in pairwise(path):
        a, b = max(min(x1, x2), left), min(max(x1, x2), right)
        if a > b:
            continue

        def at(x: float, x1: float = x1, y1: float = y1, x2: float = x2, y2: float = y2) -> float:
            return y1 if x2 == x1 else y1 + (y2 - y1) * (x - x1) / (x2 - x1)

        if max(at(a), at(b)) >= top and min(at(a), at(b)) <= bottom:
            return True
    return False


def _box(left: float, top: float, right: float, bottom: float) -> list[Point]:
    """A rectangle as a closed path, for an obstacle a label keeps out of."""
    return [(left, top), (right, top), (right, bottom), (left, bottom), (left, top)]


#: Room kept around a side's end marker, and between two labels.
MARKER_ROOM = 7
LABEL_ROOM = 6


def _label_spot(
    band_top: float,
    band_bottom: float,
    lines: list[list[Point]],
    keep_out: list[list[Point]],
    left: float,
    right: float,
) -> tuple[float, float] | None:
    """Where a band's label reads clear of every line and of ``keep_out`` (the sides' end
    markers, the labels placed already): just above the band's lower edge, else in its
    middle, else just under its upper edge; at the right end, then the left, then in
    between (x is the label's right end, y its baseline). When no spot is clear, the one
    that crosses fewest lines and nothing of ``keep_out`` if it can (its halo keeps it
    legible); None when the band is too thin for it."""
    if band_bottom - band_top < LABEL_H + 2:
        return None
    middle = round((band_top + band_bottom + LABEL_H) / 2 - 2, 1)
    start, end = left + LABEL_W + 4, right - 2
    xs = [end, start, *(round(start + (end - start) * k / 4, 1) for k in (3, 2, 1))]
    spots = [(x, y) for x in xs for y in (band_bottom - 3, middle, band_top + LABEL_H - 1)]

    def cost(spot: tuple[float, float]) -> tuple[int, int]:
        x, y = spot
        box = (x - LABEL_W - 2, y - LABEL_H + 1, x + 2, y + 3)
        return (
            sum(_crosses(path, box) for path in keep_out),
            sum(_crosses(path, box) for path in lines),
        )

    return min(spots, key=cost)  # the first of the best: a clear one when there is one


def _deal_runs(state: GameState, deals: int) -> list[tuple[int, int, int]]:
    """Deals 1 to ``deals`` in runs of one minimum by deal: (first, last, minimum)."""
    runs: list[tuple[int, int, int]] = []
    for deal in range(1, deals + 1):
        minimum = state.rules.meld_minimum(0, deal)
        if runs and runs[-1][2] == minimum:
            runs[-1] = (runs[-1][0], deal, minimum)
        else:
            runs.append((deal, deal, minimum))
    return runs


def running_totals(state: GameState) -> Chart | None:
    """The chart of a game with at least one deal, or None. A game of a set number of
    deals (Hand and Foot) is drawn to its last deal, the deals to come empty."""
    if not state.lines:
        return None
    series = [
        [start, *(line.totals[side] for line in state.lines)]
        for side, start in enumerate(state.starts)
    ]
    target = state.rules.target
    low = min(0, *(min(s) for s in series))
    high = max(target or 0, *(max(s) for s in series))
    step = _nice_step(max(high - low, 1))
    # The scale ends on whole steps: a winner's line past the target stays in the plot.
    low = (low // step) * step
    high = -(-high // step) * step
    span = max(high - low, 1)
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    steps = max(len(state.lines), state.rules.deals or 0)

    def x(index: int) -> float:
        return round(PAD_LEFT + inner_w * index / steps, 1)

    def y(total: int) -> float:
        return round(PAD_TOP + inner_h * (high - total) / span, 1)

    points = [[(x(i), y(t)) for i, t in enumerate(s)] for s in series]
    lines = [" ".join(f"{px},{py}" for px, py in path) for path in points]
    ends = [path[-1] for path in points]
    left, right = float(PAD_LEFT), float(WIDTH - PAD_RIGHT)
    # What a label must not sit on: the sides' lines and the target line; above all, the
    # sides' end markers and the other labels (``_label_spot``).
    paths = [*points] if target is None else [*points, [(left, y(target)), (right, y(target))]]
    room = MARKER_ROOM
    keep_out = [_box(ex - room, ey - room, ex + room, ey + room) for ex, ey in ends]
    bands = []
    tiers = [t for t in state.rules.meld_minimums if t.from_total is not None]
    if state.rules.meld_minimums_by_deal:
        tiers = []  # the minimum goes by deal: a band down the chart for each run of deals
        plot_top, plot_bottom = float(PAD_TOP), float(HEIGHT - PAD_BOTTOM)
        for first, last, minimum in _deal_runs(state, steps):
            band_left, band_right = x(first - 1), x(last)
            spot = None
            if band_right - band_left >= LABEL_W + 4:
                spot = _label_spot(plot_top, plot_bottom, paths, keep_out, band_left, band_right)
            if spot:
                lx, ly = spot
                gap = LABEL_ROOM
                keep_out.append(
                    _box(lx - LABEL_W - gap, ly - LABEL_H - gap, lx + gap, ly + 3 + gap)
                )
            label_x, label_y = spot if spot else (None, None)
            bands.append(
                Band(
                    plot_top,
                    plot_bottom - plot_top,
                    minimum,
                    label_x,
                    label_y,
                    x=band_left,
                    width=round(band_right - band_left, 1),
                )
            )
    for index, tier in enumerate(tiers):
        top = tiers[index + 1].from_total if index + 1 < len(tiers) else high
        start = max(tier.from_total or 0, low)
        end = min(top if top is not None else high, high)
        if end > start:
            spot = _label_spot(y(end), y(start), paths, keep_out, left, right)
            label_x, label_y = spot if spot else (None, None)
            if spot:
                gap = LABEL_ROOM
                lx, ly = spot
                keep_out.append(
                    _box(lx - LABEL_W - gap, ly - LABEL_H - gap, lx + gap, ly + 3 + gap)
                )
            bands.append(Band(y(end), round(y(start) - y(end), 1), tier.minimum, label_x, label_y))
    ticks = [(y(v), v) for v in range(low, high + 1, step)]
    target_y = None if target is None else y(target)
    return Chart(WIDTH, HEIGHT, lines, ends, target_y, bands, ticks, y(0))
