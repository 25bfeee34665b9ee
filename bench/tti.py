"""Time to interactive on a phone profile: how soon the score sheet shows and the deal
form answers a tap, with Chromium's CPU slowed 4x and a slow mobile network.

The network is Lighthouse's mobile profile as DevTools applies it ("Slow 4G" in Chrome's
DevTools, "Fast 3G" before Chrome 120): 150 ms round trip x 3.75 = 562.5 ms latency,
1.6 Mbit/s x 0.9 down, 750 kbit/s x 0.9 up (lighthouse core/config/constants.js,
``throttling.mobileSlow4G``). Each load starts cold: a new browser context, empty cache, no
service worker (a service worker's fetches would escape the page's throttling).

This reports figures (stdout and test-results/tti.json) and asserts only loose sanity bounds:
timings on a shared machine vary too much for a tight budget to be a fair test.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, CDPSession, Page, expect

from tests.browser.conftest import PHONE, tap
from tests.browser.helpers import htmx_ready, start_classic, tap_more

RESULTS = Path(__file__).resolve().parents[1] / "test-results" / "tti.json"
CPU_SLOWDOWN = 4
NETWORK = {
    "name": "Lighthouse mobile (DevTools Slow 4G)",
    "offline": False,
    "latency": 150 * 3.75,  # ms
    "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,  # bytes per second
    "uploadThroughput": 750 * 1024 / 8 * 0.9,
}
#: Loose: far above what a phone should see, only there to catch a page that never answers.
SANITY_MS = 10_000

#: Notes, in the page, when an input event (a stepper's answer) and a preview change happen.
WATCH = """
window.__inputs = [];
addEventListener("input", () => window.__inputs.push(performance.now()), true);
"""

PHONE_CONTEXT: dict[str, Any] = {
    "viewport": PHONE,
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def throttled(page: Page) -> CDPSession:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {key: value for key, value in NETWORK.items() if key != "name"},
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return cdp


def first_contentful_paint(page: Page) -> float:
    fcp: float = page.evaluate(
        """() => new Promise(resolve => {
             const seen = () => performance.getEntriesByName('first-contentful-paint')[0];
             if (seen()) return resolve(seen().startTime);
             new PerformanceObserver(() => seen() && resolve(seen().startTime))
               .observe({ type: 'paint', buffered: true });
           })"""
    )
    return round(fcp)


def navigation(page: Page) -> dict[str, float]:
    entry: dict[str, float] = page.evaluate(
        """() => { const n = performance.getEntriesByType('navigation')[0];
                   return { response_end: n.responseEnd, dom_interactive: n.domInteractive,
                            dom_content_loaded: n.domContentLoadedEventEnd, load: n.loadEventEnd,
                            transfer_bytes: n.transferSize }; }"""
    )
    return {key: round(value) for key, value in entry.items()}


def answered_tap(page: Page, deadline_ms: float = SANITY_MS * 2) -> float:
    """Tap the first stepper until it answers (its figure changes); the page's own clock
    (ms since this document's navigation began) when it did."""
    plus = page.get_by_role("button", name="Natural canastas, We: one more")
    value = page.locator("#sides-0-natural_canastas")
    start = time.monotonic()
    while True:
        before = len(page.evaluate("window.__inputs"))
        plus.tap()
        if value.input_value() not in ("", "0"):
            inputs: list[float] = page.evaluate("window.__inputs")
            return round(inputs[before] if len(inputs) > before else inputs[-1])
        assert (time.monotonic() - start) * 1000 < deadline_ms, "the deal form never answered"
        page.wait_for_timeout(25)


def preview_answered(page: Page) -> float:
    """The page's clock when the live line first shows something other than its hint."""
    page.wait_for_function(
        """() => { const p = document.querySelector('#preview');
                   if (!p || p.querySelector('.muted')) return false;
                   window.__previewAt = window.__previewAt || performance.now(); return true; }"""
    )
    at: float = page.evaluate("window.__previewAt")
    return round(at)


def test_time_to_interactive_on_a_slow_phone(
    new_context: Callable[..., BrowserContext], live_server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A game with a deal on its sheet, set up at full speed; its scorer cookie travels on.
    setup = new_context(**PHONE_CONTEXT).new_page()
    start_classic(setup, live_server)
    setup.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(setup)
    setup.locator("label.segment", has_text="We").tap()
    tap_more(setup, "Natural canastas", "We")
    tap_more(setup, "Mixed canastas", "We")
    tap_more(setup, "Red threes", "We")
    tap_more(setup, "Red threes", "They", 2)
    setup.locator("#sides-0-meld_points").fill("220")
    setup.locator("#sides-0-hand_points").fill("10")
    setup.locator("#sides-1-meld_points").fill("150")
    setup.locator("#sides-1-hand_points").fill("85")
    tap(setup.get_by_role("button", name="Save deal 1"))
    expect(setup.locator(".flash")).to_contain_text("Deal 1 saved.")
    sheet_url = setup.url
    state = setup.context.storage_state()
    setup.context.close()

    def cold_page() -> Page:
        context = new_context(**PHONE_CONTEXT, storage_state=state, service_workers="block")
        page = context.new_page()
        page.set_default_timeout(SANITY_MS * 3)
        page.add_init_script(WATCH)
        throttled(page)
        return page

    figures: dict[str, Any] = {
        "profile": {
            "cpu_slowdown": CPU_SLOWDOWN,
            "network": NETWORK["name"],
            "latency_ms": NETWORK["latency"],
            "download_kbit_s": round(float(NETWORK["downloadThroughput"]) * 8 / 1024),
            "upload_kbit_s": round(float(NETWORK["uploadThroughput"]) * 8 / 1024),
            "viewport": PHONE,
            "cache": "cold (new context each load), service worker blocked",
        }
    }

    # 1. The score sheet, loaded cold.
    page = cold_page()
    page.goto(sheet_url)
    expect(page.locator(".total-points")).to_have_text(["1,210", "265"])
    figures["sheet"] = {"fcp_ms": first_contentful_paint(page), **navigation(page)}
    # ...then "Record deal 2" as a player taps it (htmx swaps the form in, scripts warm):
    # from the tap until the form's first stepper answers, and until the live line does.
    tapped_at: float = page.evaluate("performance.now()")
    page.get_by_role("link", name="Record deal 2").tap()
    answered = answered_tap(page)
    previewed = preview_answered(page)
    figures["sheet_to_form"] = {
        "tap_to_stepper_answers_ms": round(answered - tapped_at),
        "tap_to_live_line_answers_ms": round(previewed - tapped_at),
    }
    page.context.close()

    # 2. The deal form, loaded cold (a reload, or the phone woken on it).
    page = cold_page()
    page.goto(sheet_url + "/deals/new", wait_until="commit")
    answered = answered_tap(page)
    previewed = preview_answered(page)
    figures["deal_form"] = {
        "fcp_ms": first_contentful_paint(page),
        "navigation_to_stepper_answers_ms": answered,
        "navigation_to_live_line_answers_ms": previewed,
        **navigation(page),
    }
    page.context.close()

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    with capsys.disabled():  # a report: shown whether or not pytest captures output
        print(f"\ntime to interactive ({RESULTS.name}):\n{json.dumps(figures, indent=2)}")

    assert 0 < figures["sheet"]["fcp_ms"] < SANITY_MS
    assert 0 < figures["deal_form"]["fcp_ms"] < SANITY_MS
    assert 0 < figures["deal_form"]["navigation_to_stepper_answers_ms"] < SANITY_MS
    assert 0 < figures["deal_form"]["navigation_to_live_line_answers_ms"] < SANITY_MS
    assert 0 < figures["sheet_to_form"]["tap_to_stepper_answers_ms"] < SANITY_MS
