"""A club evening's pages at 390 px, by touch, light and dark: the director creates an
evening on the page, sees every table and the countdown, opens a table's sheet and the
table cards; then each page is shot, the cards and the standings also as printed
(test-results/screenshots/evening-*.png, for people to look at)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import RESULTS, fits, shot, tap

PAIRS = "Ana, Boris\nVera, Goran\nDana, Ivo\nMila, Petar\nZoe, Yan"


def fill_the_form(page: Page) -> None:
    page.get_by_label("Name of the evening").fill("Tuesday club")
    page.locator("#players").fill(PAIRS)
    page.get_by_label("Rounds", exact=True).fill("3")
    page.get_by_label("Deals per round").fill("4")
    page.get_by_label("Minutes per round (optional)").fill("50")


@pytest.mark.light_and_dark
def test_a_director_runs_an_evening_from_the_phone(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/")
    tap(page.get_by_role("link", name="Club evening"))
    expect(page.locator("h1")).to_have_text("New club evening")
    expect(page.get_by_label("Deals per round")).to_have_attribute("inputmode", "numeric")
    fill_the_form(page)
    tap(page.get_by_role("button", name="Seat round 1"))

    expect(page.locator("h1")).to_have_text("Tuesday club")
    evening = page.url
    expect(page.locator(".table-live")).to_have_count(2)
    # static/evening.js counts down from 50 minutes.
    countdown = re.compile(r"^(49|50):\d\d left$")
    expect(page.locator("[data-countdown]").first).to_have_text(countdown)
    expect(page.get_by_text("Sitting out (a bye, 2 match points)")).to_be_visible()
    expect(page.locator(".standings tbody tr")).to_have_count(5)

    # A table's sheet names its evening, round and table, and counts down too.
    tap(page.locator(".table-link").first)
    expect(page.locator(".evening-line")).to_contain_text("Round 1 · Table 1")
    expect(page.locator(".evening-line [data-countdown]")).to_have_text(countdown)
    tap(page.locator(".evening-line a"))
    expect(page.locator("h1")).to_have_text("Tuesday club")

    tap(page.get_by_role("link", name="Table cards"))
    expect(page.locator(".table-card")).to_have_count(2)
    tap(page.locator(".card-index a", has_text="2"))
    card = page.locator("#table-2")
    expect(card.locator(".card-number")).to_have_text("Table 2")
    expect(card.locator(".table-seat")).to_have_count(4)
    expect(card.locator(".card-code .qr-code svg")).to_be_visible()
    expect(card.locator(".guide-code .qr-code svg")).to_have_count(4)  # each player's guide

    # The screenshots, each page loaded afresh (a shot leaves style="" on the fields,
    # which a boosted page would carry into the next and the CSP refuse).
    page.goto(live_server + "/evenings/new")
    fill_the_form(page)
    fits(page, "new evening")
    shot(page, "evening-new")
    page.goto(evening)
    expect(page.locator("[data-countdown]").first).to_have_text(countdown)
    fits(page, "director's page")
    shot(page, "evening-director")
    page.goto(evening + "/cards#table-1")
    fits(page, "table cards")
    page.locator("#table-1").screenshot(path=_path(page, "evening-card"))
    page.emulate_media(media="print")
    expect(page.locator(".bar")).to_be_hidden()
    expect(page.locator(".card-index")).to_be_hidden()
    shot(page, "evening-cards-print")
    page.goto(evening + "/standings")
    expect(page.locator(".standings tbody tr")).to_have_count(5)
    expect(page.locator(".bar")).to_be_hidden()
    shot(page, "evening-standings-print")
    page.emulate_media(media="screen")


def _path(page: Page, name: str) -> str:
    """Where ``shot`` would keep a shot of ``name`` in the page's scheme."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    return str(RESULTS / f"{name}-{'dark' if dark else 'light'}.png")


def test_the_roster_chips_fill_the_pairs(phone: Page, live_server: str) -> None:
    """A regular's chip goes beside the last name until the pair is whole, then on a new
    line; typing still works for anyone new."""
    page = phone
    for names in (["Ana", "Boris"], ["Vera", "Goran"]):
        page.request.post(
            live_server + "/api/games",
            data={
                "variant": "classic",
                "sides": [{"name": "A", "players": names}, {"name": "B", "players": ["X", "Y"]}],
            },
        )
    page.goto(live_server + "/evenings/new")
    expect(page.locator("[data-add-players] button").first).to_be_visible()
    for name in ("Ana", "Boris", "Vera"):
        tap(page.locator("[data-add-players] button", has_text=re.compile(f"^{name}$")))
    expect(page.locator("#players")).to_have_value("Ana, Boris\nVera")
