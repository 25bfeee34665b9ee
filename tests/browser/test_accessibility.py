"""axe-core (axe-playwright-python ships it) on every page, in both colour schemes:
no serious or critical violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import shot
from .helpers import serious

#: The colour scheme is what these check: light and dark both.
pytestmark = pytest.mark.light_and_dark


def test_every_page_passes_axe(phone: Page, live_server: str) -> None:
    page = phone
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        page.wait_for_load_state("networkidle")
        problems = serious(page)
        if problems:
            found[name] = problems

    page.goto(live_server + "/")
    check("home")
    page.goto(live_server + "/games/new")
    check("new game")
    page.get_by_label("Side 1", exact=True).fill("We")
    page.get_by_label("Side 2", exact=True).fill("They")
    for seat, name in enumerate(["Ana", "Vera", "Boris", "Goran"]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-points")).to_have_count(2)
    check("score sheet")
    page.get_by_role("link", name="Record deal 1").tap()
    expect(page.locator("form.deal-form")).to_be_visible()
    page.locator("#sides-0-meld_points").fill("33")  # a refusal on screen
    page.wait_for_timeout(600)
    check("deal form")
    page.goto(live_server + "/rules/railroad")
    check("rules")
    for path in [
        "/check",
        "/check/meld?cards=9+9+2+2+2",
        "/check/initial-meld?meld1=K+K+K",
        "/check/pickup?top=K&hand=K+K",
        "/check/going-out?left=1",
    ]:
        page.goto(live_server + path)
        check(path)
    page.goto(live_server + "/language/ru?next=/games/new")
    check("new game in Russian")
    shot(page, "new-game-ru")
    assert found == {}
