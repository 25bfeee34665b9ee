"""The running-totals chart: every line inside the plot, and the minimum bands' labels
("needs 90") where no line crosses them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import CLASSIC, SideResult, replay
from scorekeeper.web.chart import Chart, running_totals

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

CASE_A = SideResult(
    meld_points=220,
    natural_canastas=1,
    mixed_canastas=1,
    red_threes=1,
    hand_points=10,
    went_out=True,
)  # 1210 (RULES.md section 8)
CASE_B = SideResult(meld_points=150, red_threes=2, hand_points=85)  # 265
BIG = SideResult(meld_points=700, natural_canastas=2, mixed_canastas=1, went_out=True)  # 2100
SMALL = SideResult(meld_points=300, natural_canastas=1, hand_points=20)  # 780
CONCEALED = SideResult(
    meld_points=310,
    natural_canastas=2,
    red_threes=4,
    hand_points=15,
    went_out=True,
    concealed=True,
)  # 2295 (case D)
NOTHING = SideResult(meld_points=0, hand_points=120)  # -120

#: We win with 5,605 against 925: the game of the screenshots.
WON = [[CASE_A, CASE_B], [BIG, SMALL], [CONCEALED, NOTHING]]


def chart_of(deals: Sequence[Sequence[SideResult]]) -> Chart:
    chart = running_totals(replay(CLASSIC, deals))
    assert chart is not None
    return chart


def points(line: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in line.split())]


def test_after_a_win_the_scale_reaches_past_the_winners_total() -> None:
    chart = chart_of(WON)
    state = replay(CLASSIC, WON)
    assert state.winner == 0 and state.totals == (5605, 925)
    top_y, top_value = min(chart.ticks)
    bottom_y = max(y for y, _ in chart.ticks)
    # The top of the plot is a labelled total at or above the winner's 5,605 ...
    assert top_value >= 5605
    # ... and every line, end marker included, runs between the top and bottom grid lines.
    for line in chart.lines:
        for _, y in points(line):
            assert top_y <= y <= bottom_y
    for _, y in chart.ends:
        assert top_y <= y <= bottom_y


def svg_of(client: FlaskClient, deals: Sequence[Sequence[SideResult]]) -> str:
    """The chart as the sheet draws it, after ``deals`` recorded through the API."""
    body = {
        "variant": "classic",
        "sides": [
            {"name": "We", "players": ["Ana", "Boris"]},
            {"name": "They", "players": ["Vera", "Goran"]},
        ],
    }
    created = client.post("/api/games", json=body).get_json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    for results in deals:
        figures = [{k: v for k, v in r.__dict__.items() if v} for r in results]
        response = client.post(
            f"/api/games/{created['id']}/deals", json={"results": figures}, headers=auth
        )
        assert response.status_code == 201, response.get_data(as_text=True)
    html = client.get(f"/games/{created['id']}").get_data(as_text=True)
    return html[html.index("<svg") : html.index("</svg>")]


def crossed(lines: list[list[tuple[float, float]]], box: tuple[float, ...]) -> list[int]:
    """The sides whose line passes through ``box`` (sampled every tenth of a unit)."""
    left, top, right, bottom = box
    found = []
    for side, path in enumerate(lines):
        for (x1, y1), (x2, y2) in pairwise(path):
            steps = max(int(abs(x2 - x1) * 10), 1)
            if any(
                left <= x1 + (x2 - x1) * i / steps <= right
                and top <= y1 + (y2 - y1) * i / steps <= bottom
                for i in range(steps + 1)
            ):
                found.append(side)
                break
    return found


@pytest.mark.parametrize(
    "deals",
    [
        pytest.param(WON, id="won"),
        pytest.param(WON[:1], id="one-deal"),
        pytest.param(WON[:2], id="two-deals"),
        pytest.param([[b, a] for a, b in WON], id="they-win"),
        # They end near 0: the lowest band's label cannot sit on its lower edge.
        pytest.param(
            [[CASE_A, CASE_B], [CONCEALED, NOTHING], [CONCEALED, NOTHING]], id="far-ahead"
        ),
    ],
)
def test_band_labels_sit_clear_of_the_lines(
    client: FlaskClient, deals: list[list[SideResult]]
) -> None:
    svg = svg_of(client, deals)
    lines = [points(p) for p in re.findall(r'<polyline class="series[^"]*" points="([^"]+)"', svg)]
    labels = re.findall(
        r'<text class="band-label" x="([\d.]+)" y="([\d.]+)" text-anchor="end">([^<]+)</text>', svg
    )
    # Every minimum of the classic game is labelled (the 50, 90 and 120 bands are tall enough).
    assert sorted(text for _, _, text in labels) == ["needs 120", "needs 50", "needs 90"]
    for x, y, text in labels:
        # The text's box at 10 px: right-aligned at x, from cap height to below the baseline.
        right, base = float(x), float(y)
        box = (right - 5.6 * len(text), base - 8, right, base + 2)
        assert crossed(lines, box) == [], f"a line crosses '{text}'"


deal_strategy = st.lists(
    st.tuples(st.sampled_from([CASE_A, BIG, CONCEALED]), st.sampled_from([CASE_B, SMALL, NOTHING])),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(deal_strategy, st.booleans())
def test_every_line_stays_in_the_plot(
    pairs: list[tuple[SideResult, SideResult]], swap: bool
) -> None:
    """Whoever leads, however far past the target: no point above the top grid line or
    below the bottom one."""
    deals = [[b, a] if swap else [a, b] for a, b in pairs]
    state = replay(CLASSIC, deals)
    if state.finished_after is not None:
        deals = deals[: state.finished_after]
    chart = chart_of(deals)
    top_y = min(y for y, _ in chart.ticks)
    bottom_y = max(y for y, _ in chart.ticks)
    for line in chart.lines:
        assert all(top_y <= y <= bottom_y for _, y in points(line))


#: The label of a band at 10 px, as ``test_band_labels_sit_clear_of_the_lines`` measures it.
def label_box(chart: Chart, band_index: int) -> tuple[float, float, float, float]:
    band = chart.bands[band_index]
    assert band.label_x is not None and band.label_y is not None
    text = f"needs {band.minimum}"
    return (band.label_x - 5.6 * len(text), band.label_y - 8, band.label_x, band.label_y + 2)


def apart(one: tuple[float, ...], other: tuple[float, ...], margin: float) -> bool:
    return (
        one[2] + margin <= other[0]
        or other[2] + margin <= one[0]
        or one[3] + margin <= other[1]
        or other[3] + margin <= one[1]
    )


TABLES = {
    "classic": [CASE_A, BIG, CONCEALED, CASE_B, SMALL, NOTHING],
    "classic-6": [CASE_A, BIG, CASE_B, SMALL, NOTHING],
    "classic-6x3": [CASE_A, BIG, CASE_B, SMALL, NOTHING],
}


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(TABLES)), st.data())
def test_band_labels_keep_clear_of_the_markers_and_of_each_other(
    variant: str, data: st.DataObject
) -> None:
    """Issue 31: "needs 50" sat on the lines' ends and their markers at the right edge, and
    the six-player chart's "needs 120" and "needs 90" crowded together: a label never
    touches a side's end marker (when the band has room for it elsewhere) and two labels
    keep apart."""
    from scorekeeper.rules import VARIANTS

    rules = VARIANTS[variant]
    results = st.sampled_from(TABLES[variant])
    deals = data.draw(
        st.lists(
            st.lists(results, min_size=rules.sides, max_size=rules.sides), min_size=1, max_size=16
        )
    )
    # One side goes out at most: the others' entries are case B.
    deals = [[r if not r.went_out or i == 0 else CASE_B for i, r in enumerate(d)] for d in deals]
    state = replay(rules, deals)
    if state.finished_after is not None:
        deals = deals[: state.finished_after]
    chart = running_totals(replay(rules, deals))
    assert chart is not None
    placed = [i for i, band in enumerate(chart.bands) if band.label_x is not None]
    boxes = [label_box(chart, i) for i in placed]
    for one, other in pairwise(sorted(boxes, key=lambda b: b[1])):
        assert apart(one, other, 4), "two labels crowd together"
    for box in boxes:
        for x, y in chart.ends:
            marker = (x - 5, y - 5, x + 5, y + 5)
            assert apart(box, marker, 0), "a label sits on a side's marker"
