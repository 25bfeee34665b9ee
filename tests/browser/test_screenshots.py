"""Every main page at 390 px in each language: no sideways scrolling, and a screenshot in
each colour scheme in test-results/ for people to look at. The dark scheme changes colours
only (static/app.css), so each page is loaded once and shot in both."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import SCREENSHOTS, fits, shot
from .helpers import Requests

LANGUAGES = ["en", "mk", "ru", "sk"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_in_every_language(phone: Page, live_server: str, language: str) -> None:
    page = phone
    requests = Requests(page)
    page.goto(f"{live_server}/language/{language}?next=/games/new")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.locator("#sides-0-name").fill("Ana & Boris")
    page.locator("#sides-1-name").fill("Vera & Goran")
    for seat, name in enumerate(["Ana", "Vera", "Boris", "Goran"]):
        page.locator(f"#players-{seat}").fill(name)
    page.locator("form button[type=submit]").tap()
    expect(page.locator(".total-points")).to_have_count(2)
    sheet = page.url
    pages = {
        "sheet": sheet,
        "deal": sheet + "/deals/new",
        "home": live_server + "/",
        "new": live_server + "/games/new?variant=railroad",
        "rules": sheet + "/rules",
        "meld": live_server + "/check/meld?cards=9+9+9+2+2+JK",
        "initial": live_server + "/check/initial-meld?total=1600&meld1=K+K+K&meld2=5+5+2",
        "history": live_server + "/history",
        "players": live_server + "/players",
    }
    for name, url in pages.items():
        page.goto(url)
        requests.answered()
        fits(page, name)
        shot_both(page, f"{name}-{language}")
    page.goto(live_server + "/players")
    page.locator(".roster a", has_text="Ana").first.tap()
    requests.answered()
    fits(page, "player")
    shot_both(page, f"player-{language}")


def shot_both(page: Page, name: str) -> None:
    """The page as it is, light and then dark (the phone's scheme switched under it)."""
    if not SCREENSHOTS:
        return  # the switch is for the pictures alone: it checks nothing
    shot(page, name)
    page.emulate_media(color_scheme="dark")
    shot(page, name)
    page.emulate_media(color_scheme="light")


@pytest.mark.light_and_dark
def test_the_colour_switch_cycles(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/rules")
    themes = []
    for _ in range(3):
        # Wait for the page the switch leads back to (reading before it arrives would
        # read the old page's scheme).
        with page.expect_navigation(url=live_server + "/rules"):
            page.locator(".theme-switch").tap()
        themes.append(page.locator("html").get_attribute("data-theme"))
    assert themes == ["light", "dark", None]  # auto: the phone's own scheme again
