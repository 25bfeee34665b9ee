"""First paint of the score sheet against the floor: a bare two-line HTML page served the
same way, both opened in Chromium at 390 px with the cache off and the CPU slowed 4x (issue 32).

    .venv/bin/pytest -p no:cacheprovider bench/first_paint.py     # FIRST_PAINT_RUNS=7 by default

The sheet is a 23-deal classic game still going, as its scorer's phone opens it again (its
session and scorer cookies, no service worker), served by the browser tests' live server
(Werkzeug's threaded server, in this process). The floor is a Flask app of one view returning
``BARE_PAGE``, served by the same Werkzeug server in the same process. Each load is a new
browser context with the cache disabled (CDP ``Network.setCacheDisabled``) and the CPU slowed
(``Emulation.setCPUThrottlingRate`` 4); no network throttling. The two alternate (which goes
first alternates too), after one unmeasured pair. Printed and written to
test-results/first_paint.json: first paint and first contentful paint (the paint timing
entries), median and min-max, and the sheet's median over the floor's. Only sanity is asserted:
a shared machine's timings vary too much for a tight bound to be a fair test.
"""

from __future__ import annotations

import json
import os
import statistics
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect
from tti import (  # bench/tti.py (pytest puts bench/ on the path)
    CPU_SLOWDOWN,
    PHONE_CONTEXT,
    SANITY_MS,
)
from werkzeug.serving import make_server

from tests.browser.conftest import tap
from tests.browser.helpers import api_game

RESULTS = Path(__file__).resolve().parents[1] / "test-results" / "first_paint.json"
RUNS = int(os.environ.get("FIRST_PAINT_RUNS", "7"))
DEALS = 23
#: The floor: the least a page can be (with the viewport line, as a phone page needs).
BARE_PAGE = (
    '<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width,'
    ' initial-scale=1"><title>Canasta</title>\n<p>Canasta Scorekeeper</p>\n'
)

#: The paint entries once first-contentful-paint is there, and the navigation's milestones.
PAINTS = """() => new Promise(resolve => {
  const done = () => {
    const paint = Object.fromEntries(performance.getEntriesByType('paint')
      .map(e => [e.name, e.startTime]));
    if (!paint['first-contentful-paint']) return false;
    const n = performance.getEntriesByType('navigation')[0];
    resolve({ fp: paint['first-paint'], fcp: paint['first-contentful-paint'],
              response_end: n.responseEnd, dom_interactive: n.domInteractive,
              dom_content_loaded: n.domContentLoadedEventEnd, load: n.loadEventEnd,
              html_bytes: n.encodedBodySize,
              loaded_bytes: performance.getEntriesByType('resource')
                .reduce((sum, r) => sum + r.encodedBodySize, 0) });
    return true;
  };
  if (!done()) new PerformanceObserver(done).observe({ type: 'paint', buffered: true });
})"""


@pytest.fixture(scope="module")
def bare_server() -> Iterator[str]:
    """The floor, on the same kind of server as the app: Werkzeug's, threaded, here."""
    app = Flask("bare")
    app.add_url_rule("/", "bare", lambda: BARE_PAGE)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


def deal(number: int) -> list[dict[str, object]]:
    """Each side goes out in turn, modestly (tests/helpers/pages.py's played_game)."""
    out = {"meld_points": 120, "mixed_canastas": 1, "hand_points": 0, "went_out": True}
    stuck = {"meld_points": 60, "hand_points": 45}
    return [out, stuck] if number % 2 == 0 else [stuck, out]


def scorer_state(new_context: Callable[..., BrowserContext], live_server: str) -> tuple[str, Any]:
    """A 23-deal game recorded through the API, its sheet opened once by the phone that
    joined as its scorer: the sheet's address and the phone's cookies."""
    page = new_context(**PHONE_CONTEXT).new_page()
    game_id, token = api_game(
        page,
        live_server,
        ["Ana", "Boris", "Vera", "Goran"],
        *(deal(number) for number in range(DEALS)),
        options={"target": 10000},
        names=("We", "They"),
    )
    page.goto(f"{live_server}/games/{game_id}/join#{token}")
    tap(page.get_by_role("button", name="Keep score here"))
    expect(page.locator(".total-points")).to_have_count(2)
    expect(page.get_by_role("link", name=f"Record deal {DEALS + 1}")).to_be_visible()
    state = page.context.storage_state()
    page.context.close()
    return f"{live_server}/games/{game_id}", state


def load(new_context: Callable[..., BrowserContext], url: str, state: Any) -> dict[str, float]:
    context = new_context(**PHONE_CONTEXT, storage_state=state, service_workers="block")
    page: Page = context.new_page()
    page.set_default_timeout(SANITY_MS * 3)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.goto(url, wait_until="load")
    figures: dict[str, float] = page.evaluate(PAINTS)
    context.close()
    return {key: round(value) for key, value in figures.items()}


def summary(loads: list[dict[str, float]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in loads[0]:
        values = [one[key] for one in loads]
        out[key] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
    return out


def spread(key: str, figure: dict[str, float]) -> str:
    return f"{key} {figure['median']:.0f} ms ({figure['min']:.0f}-{figure['max']:.0f})"


def test_first_paint_of_the_sheet_against_the_floor(
    new_context: Callable[..., BrowserContext],
    live_server: str,
    bare_server: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheet_url, state = scorer_state(new_context, live_server)
    targets = {"sheet": (sheet_url, state), "floor": (bare_server, None)}
    for url, cookies in targets.values():  # one unmeasured pair: the browser warms up
        load(new_context, url, cookies)
    loads: dict[str, list[dict[str, float]]] = {"sheet": [], "floor": []}
    for run in range(RUNS):
        order = ["sheet", "floor"] if run % 2 == 0 else ["floor", "sheet"]
        for name in order:
            loads[name].append(load(new_context, *targets[name]))

    figures: dict[str, Any] = {
        "profile": {
            "cpu_slowdown": CPU_SLOWDOWN,
            "viewport": PHONE_CONTEXT["viewport"],
            "cache": "disabled (CDP Network.setCacheDisabled), service worker blocked",
            "network": "none emulated (127.0.0.1)",
            "runs": RUNS,
            "deals": DEALS,
        },
        **{name: summary(runs) for name, runs in loads.items()},
        "runs": loads,
    }
    for key in ("fp", "fcp"):
        figures[f"ratio_{key}"] = round(
            figures["sheet"][key]["median"] / figures["floor"][key]["median"], 2
        )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    with capsys.disabled():  # a report: shown whether or not pytest captures output
        print(f"\nfirst paint, {RUNS} runs each, CPU {CPU_SLOWDOWN}x slower ({RESULTS.name}):")
        for name in ("sheet", "floor"):
            row = figures[name]
            print(
                f"  {name:5}  "
                + "  ".join(
                    spread(key, row[key]) for key in ("fp", "fcp", "dom_content_loaded", "load")
                )
                + f"  html {row['html_bytes']['median']:.0f} B,"
                f" loaded {row['loaded_bytes']['median']:.0f} B"
            )
        print(f"  sheet / floor: fp {figures['ratio_fp']}, fcp {figures['ratio_fcp']}")

    for runs in loads.values():
        assert all(0 < one["fcp"] < SANITY_MS for one in runs)
