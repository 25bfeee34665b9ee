"""A club evening by victory points at 390 px: the new-evening page shows the scale chosen,
and only it, as a table (the typed scale's field and the bye's VP with any VP choice); the
director types a Canasta scale, and the evening's page shows it as a table; axe finds
nothing on either page."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import fits, shot, tap
from .helpers import violations

PAIRS = "Ana, Boris\nVera, Goran\nDana, Ivo\nMila, Petar\nZoe, Yan"


def test_the_scale_chosen_shows_as_a_table_and_a_typed_one_makes_the_evening(
    phone: Page, live_server: str
) -> None:
    page = phone
    page.goto(live_server + "/evenings/new")
    three, four = page.locator('[data-scale="burraco-3"]'), page.locator('[data-scale="burraco-4"]')
    typed, bye = page.locator('[data-scale="typed"]'), page.locator('[data-scale="any-vp"]')
    # Match points (the default): no scale, no bye's VP.
    for part in (three, four, typed, bye):
        expect(part).to_be_hidden()
    tap(page.get_by_label("Victory points: Burraco's scale for rounds of 4 deals"))
    expect(four).to_be_visible()
    expect(four.locator("tr").last.locator("td")).to_have_text(["over 2,000", "20–0"])
    for part in (three, typed):
        expect(part).to_be_hidden()
    expect(bye).to_be_visible()
    tap(page.get_by_label("Victory points: a scale I type"))
    expect(typed).to_be_visible()
    expect(four).to_be_hidden()
    assert violations(page) == []
    fits(page, "new evening, typed scale")
    page.get_by_label("Name of the evening").fill("Canasta by VP")
    page.locator("#players").fill(PAIRS)
    page.get_by_label("Rounds", exact=True).fill("3")
    page.get_by_label("Deals per round").fill("4")
    page.get_by_label("Your scale").fill("500: 10\n1,500: 12\n3,000: 15\n20")
    page.get_by_label("Victory points for a bye").fill("14")
    shot(page, "evening-vp-new")
    tap(page.get_by_role("button", name="Seat round 1"))
    expect(page.get_by_role("heading", name="Canasta by VP")).to_be_visible()
    tap(page.get_by_text("Victory points: the scale"))
    scale = page.locator(".vp-scale")
    expect(scale.locator("tr").nth(2).locator("td")).to_have_text(["505–1,500", "12–8"])
    expect(scale.locator("tr").last.locator("td")).to_have_text(["over 3,000", "20–0"])
    expect(page.get_by_text("A bye scores 14 victory points.")).to_be_visible()
    assert violations(page) == []
    fits(page, "evening by victory points")
    shot(page, "evening-vp")
