"""An evening's public results page at 390 px (issue 44): the director opens it from the
evening's page; it shows the standings, every round's tables with each table's deals, and a
code to share it; it fits the phone, axe finds nothing in light and dark, and its print
leaves out the bar, the buttons and the share panel. Shot light, dark and printed
(test-results/screenshots/evening-results-*.png, for people to look at)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import fits, shot, tap
from .helpers import PAIRS, deal, seated, violations

#: A deal the first side ends below zero: 100 melded, 150 left in hand.
FIRST_BELOW = [
    {"meld_points": 100, "hand_points": 150},
    {"went_out": True, "natural_canastas": 1, "meld_points": 300, "hand_points": 0},
]


def test_the_director_opens_the_results_to_share_and_print(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/evenings/new")
    page.get_by_label("Name of the evening").fill("Tuesday club")
    page.locator("#players").fill(PAIRS)
    page.get_by_label("Rounds", exact=True).fill("3")
    page.get_by_label("Deals per round").fill("2")
    tap(page.get_by_label("Victory points: Burraco's scale for rounds of 3 deals"))
    tap(page.get_by_role("button", name="Seat round 1"))
    expect(page.locator("h1")).to_have_text("Tuesday club")
    evening = page.url
    first, second = seated(page, live_server, evening)
    deal(page, live_server, first)
    deal(page, live_server, first)
    answer = page.request.post(
        f"{live_server}/api/games/{second['game']}/deals",
        data={"results": FIRST_BELOW},
        headers={"Authorization": f"Bearer {second['token']}"},
    )
    assert answer.status == 201, answer.text()
    deal(page, live_server, second)
    page.reload()
    tap(page.get_by_role("button", name="Seat and start round 2"))
    expect(page.get_by_text("Round 2 is seated.")).to_be_visible()

    fits(page, "the director's page with its results links")
    shot(page, "evening-results-links")
    tap(page.get_by_role("link", name="Results to share"))
    expect(page.locator("h1")).to_have_text("Tuesday club")
    expect(page).to_have_url(evening + "/results")
    expect(page.locator("#h-standings")).to_have_text("Standings after round 1")
    expect(page.locator(".standings").first.locator("tbody tr")).to_have_count(5)
    expect(page.locator(".results-round")).to_have_count(2)
    expect(page.locator(".results-table")).to_have_count(4)
    # Table 2 of round 1: its two deals, the first side below zero after the first.
    table = page.locator(".results-table").nth(1)
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(table.locator("tbody tr").first.locator(".total-after")).to_have_text(["-50", "900"])
    expect(table.locator("tfoot .total-after")).to_have_text(["850", "950"])
    expect(page.get_by_role("link", name="Standings (CSV)")).to_be_visible()
    expect(page.get_by_role("link", name="Standings (xlsx)")).to_be_visible()
    tap(page.get_by_text("Share this page", exact=True))
    expect(page.locator(".share img.qr-code")).to_be_visible()
    expect(page.locator(".share figcaption a")).to_have_text(evening + "/results")
    fits(page, "the results page")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert violations(page) == [], scheme
        shot(page, "evening-results")

    # On paper: the results alone, two tables across an A4 page (210 mm less its margins).
    page.set_viewport_size({"width": 705, "height": 1000})
    page.emulate_media(media="print", color_scheme="light")
    for hidden in (".bar", ".results-files", ".share", ".results > .no-print"):
        expect(page.locator(hidden).first).to_be_hidden()
    expect(page.get_by_text("Print this page with the browser's menu")).to_be_hidden()
    expect(page.locator(".results-table").first).to_be_visible()
    shot(page, "evening-results-print")
    page.emulate_media(media="screen")
