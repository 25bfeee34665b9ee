"""A player's guide at 390 px (issue 43): the director opens a player's guide from the
evening's page; it names the table, seat, partner and opponents, then the results and place
once the round is played and the next seated; the phone keeps it for offline use. Shot light
and dark (test-results/screenshots/evening-guide-*.png, for people to look at)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import fits, shot, tap
from .helpers import violations, worker_ready

PAIRS = "Ana, Boris\nVera, Goran\nDana, Ivo\nMila, Petar\nZoe, Yan"
#: One deal: the first side out with a natural canasta, the second 50 in hand.
FIRST_WINS = [
    {"went_out": True, "natural_canastas": 1, "meld_points": 300, "hand_points": 0},
    {"meld_points": 100, "hand_points": 50},
]


def play_the_round(page: Page, live_server: str, evening: str) -> None:
    """Every table plays its two deals (through the API, with the scorer tokens the
    director's read holds)."""
    link = page.request.get(evening + "/director-link").text()
    found = re.search(r'/join#([^"]+)"', link)
    assert found
    secret = found.group(1)
    evening_id = evening.rsplit("/", 1)[1]
    body = page.request.get(
        f"{live_server}/api/evenings/{evening_id}", headers={"Authorization": f"Bearer {secret}"}
    ).json()
    for table in body["rounds"][-1]["tables"]:
        for _deal in range(2):
            answer = page.request.post(
                f"{live_server}/api/games/{table['game']}/deals",
                data={"results": FIRST_WINS},
                headers={"Authorization": f"Bearer {table['token']}"},
            )
            assert answer.status == 201, answer.text()


@pytest.mark.light_and_dark
def test_a_player_opens_their_guide_from_the_directors_page(
    phone: Page, live_server: str
) -> None:
    page = phone
    page.goto(live_server + "/evenings/new")
    page.get_by_label("Name of the evening").fill("Tuesday club")
    page.locator("#players").fill(PAIRS)
    page.get_by_label("Rounds", exact=True).fill("3")
    page.get_by_label("Deals per round").fill("2")
    page.get_by_label("Minutes per round (optional)").fill("50")
    tap(page.get_by_role("button", name="Seat round 1"))
    expect(page.locator("h1")).to_have_text("Tuesday club")
    evening = page.url
    play_the_round(page, live_server, evening)
    page.reload()
    tap(page.get_by_role("button", name="Seat and start round 2"))
    expect(page.get_by_text("Round 2 is seated.")).to_be_visible()

    tap(page.get_by_text("Players' guides"))
    guides = page.locator("#player-guides figcaption a")
    expect(guides).to_have_count(10)
    expect(page.locator("#player-guides img.qr-code").first).to_be_visible()
    tap(page.get_by_role("link", name="Ana", exact=True))
    expect(page.locator("h1")).to_have_text("Ana")
    guide = page.url
    expect(page.locator("#h-guide-now")).to_have_text("Round 2 of 3")
    where = page.locator(".guide-where")
    sitting_out = "You sit out this round" in where.inner_text()
    if not sitting_out:
        expect(page.locator(".guide-table")).to_have_text(re.compile(r"^Table \d$"))
        expect(page.locator(".guide-seat")).to_have_text(re.compile(r"^Seat [1-4]$"))
        expect(page.locator(".guide-partner")).to_have_text("Boris")
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
    assert violations(page) == []
    shot(page, "evening-guide")

    # The phone keeps the guide as it last saw it, and opens it with no connection.
    worker_ready(page)
    page.context.set_offline(True)
    try:
        page.goto(guide)
        expect(page.locator("h1")).to_have_text("Ana")
        expect(page.locator(".guide-result")).to_have_count(1)
        expect(page.locator(".offline-banner")).to_be_visible()
    finally:
        page.context.set_offline(False)
