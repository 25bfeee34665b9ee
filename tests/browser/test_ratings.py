"""The club ladder and a player's rating chart at 390 px: no sideways scrolling, big rows
to tap, and screenshots in both colour schemes in test-results/ for people to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import fits, shot
from .helpers import CASE_A, CASE_B, api_game

#: A club night: who sat with whom, and which side won (2420 to 530 in two deals).
NIGHT = [
    (["Lada", "Milan", "Nina", "Oleg"], 0),
    (["Lada", "Nina", "Milan", "Oleg"], 1),
    (["Lada", "Oleg", "Milan", "Nina"], 0),
    (["Lada", "Milan", "Nina", "Oleg"], 0),
    (["Milan", "Nina", "Lada", "Oleg"], 1),
    (["Lada", "Milan", "Oleg", "Nina"], 0),
]


@pytest.mark.light_and_dark
def test_ladder_and_rating_chart(phone: Page, live_server: str) -> None:
    page = phone
    for players, winner in NIGHT:
        deal = [CASE_A, CASE_B] if winner == 0 else [CASE_B, CASE_A]
        api_game(page, live_server, players, deal, deal)
    page.goto(live_server + "/players")
    page.locator("a", has_text="Club ladder").first.tap()
    expect(page.locator("h1")).to_have_text("Club ladder")
    lines = page.locator(".ladder-line")
    expect(lines.first).to_be_visible()
    fits(page)
    # Each line is a tap target as wide as the page and at least 48 px tall.
    box = lines.first.bounding_box()
    assert box is not None and box["height"] >= 48 and box["width"] >= 300
    shot(page, "ladder")
    page.locator(".ladder-line", has_text="Lada").tap()
    expect(page.locator("h1")).to_have_text("Lada")
    expect(page.locator(".rating-chart polyline")).to_be_visible()
    fits(page)
    shot(page, "player-rating")
