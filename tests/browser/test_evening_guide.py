"""A player's guide at 390 px (issue 43): the director opens a player's guide from the
evening's page; it names the table, seat, partner and opponents, then the results and place
once the round is played and the next seated; the phone keeps it, as its last poll left
it, for offline use. Checked by axe and shot light and dark
(test-results/screenshots/evening-guide-*.png, for people to look at)."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from .conftest import POLL_MS, fits, shot, tap
from .helpers import PAIRS, deal, seated, violations, worker_ready


def kept_text(page: Page) -> str:
    """The service worker's copy of the page shown, as it would open offline."""
    text: str = page.evaluate(
        """() => caches.open("pages-v3").then(c => c.match(location.origin + location.pathname))
             .then(r => r ? r.text() : "")"""
    )
    return text


def test_a_player_opens_their_guide_from_the_directors_page(phone: Page, live_server: str) -> None:
    page = phone
    # The guide's poll made due at once (``fast_forward``), not waited for.
    page.clock.install()
    page.goto(live_server + "/evenings/new")
    page.get_by_label("Name of the evening").fill("Tuesday club")
    page.locator("#players").fill(PAIRS)
    page.get_by_label("Rounds", exact=True).fill("3")
    page.get_by_label("Deals per round").fill("2")
    page.get_by_label("Minutes per round (optional)").fill("50")
    tap(page.get_by_role("button", name="Seat round 1"))
    expect(page.locator("h1")).to_have_text("Tuesday club")
    evening = page.url
    for table in seated(page, live_server, evening):
        deal(page, live_server, table)
        deal(page, live_server, table)
    page.reload()
    tap(page.get_by_role("button", name="Seat and start round 2"))
    expect(page.get_by_text("Round 2 is seated.")).to_be_visible()
    table = seated(page, live_server, evening)[0]
    name, partner = table["sides"][0]["players"]

    tap(page.get_by_text("Players' guides"))
    guides = page.locator("#player-guides figcaption a")
    expect(guides).to_have_count(10)
    expect(page.locator("#player-guides img.qr-code").first).to_be_visible()
    tap(page.get_by_role("link", name=name, exact=True))
    expect(page.locator("h1")).to_have_text(name)
    guide = page.url
    expect(page.locator("#h-guide-now")).to_have_text("Round 2 of 3")
    expect(page.locator(".guide-table")).to_have_text(f"Table {table['table']}")
    expect(page.locator(".guide-seat")).to_have_text("Seat 1")
    expect(page.locator(".guide-partner")).to_have_text(partner)
    opponents = " & ".join(table["sides"][1]["players"])
    expect(page.locator(".guide-opponents")).to_have_text(opponents)
    expect(page.locator("[data-countdown]")).to_have_text(re.compile(r"^(49|50):\d\d left$"))
    expect(page.locator(".guide-result")).to_have_count(1)
    expect(page.locator(".guide-result").first).to_contain_text("Round 1")
    expect(page.locator(".guide-place")).to_have_text(re.compile(r"^[1-5] of 5$"))
    fits(page, "the guide")
    # Large type: the table and seat readable at arm's length, the rest no smaller than body.
    sizes = page.evaluate(
        """[".guide-place", ".guide-who dd", ".guide-result"].map(s =>
             parseFloat(getComputedStyle(document.querySelector(s) || document.body).fontSize))"""
    )
    assert sizes[0] >= 36 and all(size >= 18 for size in sizes[1:]), sizes
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert violations(page) == [], scheme
        shot(page, "evening-guide")
    page.emulate_media(color_scheme="light")

    # The phone keeps the guide as its last poll left it, and opens it with no connection.
    worker_ready(page)
    deal(page, live_server, table)
    page.clock.fast_forward(POLL_MS)
    expect(page.locator(".guide-state").first).to_contain_text("1 of 2 deals played")
    deadline = time.monotonic() + 10
    while "1 of 2 deals played" not in kept_text(page) and time.monotonic() < deadline:
        time.sleep(0.1)
    page.context.set_offline(True)
    try:
        page.goto(guide)
        expect(page.locator("h1")).to_have_text(name)
        expect(page.locator(".guide-state").first).to_contain_text("1 of 2 deals played")
        expect(page.locator(".guide-result")).to_have_count(1)
        expect(page.locator(".offline-banner")).to_be_visible()
    finally:
        page.context.set_offline(False)
