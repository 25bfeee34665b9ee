"""The running totals of a game as an SVG chart: one line per side, the target, and the
bands of the initial-meld minimums. Drawn on the server: no script, no inline style."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import GameState

WIDTH = 340
HEIGHT = 200
PAD_LEFT = 44
PAD_RIGHT = 8
PAD_TOP = 10
PAD_BOTTOM = 22


@dataclass(frozen=True)
class Band:
    """A range of totals with one initial-meld minimum, as a horizontal band."""

    y: float
    height: float
    minimum: int


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


def running_totals(state: GameState) -> Chart | None:
    """The chart of a game with at least one deal, or None."""
    if not state.lines:
        return None
    series = [
        [start, *(line.totals[side] for line in state.lines)]
        for side, start in enumerate(state.starts)
    ]
    target = state.rules.target
    low = min(0, *(min(s) for s in series))
    high = max(target, *(max(s) for s in series))
    span = max(high - low, 1)
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    steps = len(state.lines)

    def x(index: int) -> float:
        return round(PAD_LEFT + inner_w * index / steps, 1)

    def y(total: int) -> float:
        return round(PAD_TOP + inner_h * (high - total) / span, 1)

    lines = [" ".join(f"{x(i)},{y(t)}" for i, t in enumerate(s)) for s in series]
    ends = [(x(steps), y(s[-1])) for s in series]
    bands = []
    tiers = [t for t in state.rules.meld_minimums if t.from_total is not None]
    for index, tier in enumerate(tiers):
        top = tiers[index + 1].from_total if index + 1 < len(tiers) else high
        start = max(tier.from_total or 0, low)
        end = min(top if top is not None else high, high)
        if end > start:
            bands.append(Band(y(end), round(y(start) - y(end), 1), tier.minimum))
    step = _nice_step(span)
    first = (low // step) * step
    ticks = [(y(v), v) for v in range(first, high + 1, step) if v >= low]
    return Chart(WIDTH, HEIGHT, lines, ends, y(target), bands, ticks, y(0))
