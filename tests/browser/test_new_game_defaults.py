"""Side names left empty become the names their fields show (issue 17), in the page's
language: "We", "They" and, with three sides, "Others"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import shot, tap


@pytest.mark.parametrize(
    ("language", "variant", "names"),
    [("mk", "classic", ["Ние", "Тие"]), ("en", "classic-6x3", ["We", "They", "Others"])],
)
def test_empty_side_names_start_as_shown(
    phone: Page, live_server: str, language: str, variant: str, names: list[str]
) -> None:
    page = phone
    page.goto(f"{live_server}/language/{language}?next=/games/new?variant={variant}")
    fields = page.locator("input[id^=sides-][id$=-name]")
    expect(fields).to_have_count(len(names))
    for index, name in enumerate(names):
        expect(fields.nth(index)).to_have_attribute("placeholder", name)
        expect(fields.nth(index)).to_have_value("")
    players = page.locator("input[list=roster]")
    for seat in range(players.count()):
        players.nth(seat).fill(["Ana", "Vera", "Boris", "Goran", "Lidija", "Stefan"][seat])
    # The seat labels say which side each seat is on, by the name it will have.
    expect(page.locator("[data-side-name]")).to_have_text((names * 3)[: players.count()])
    shot(page, f"new-game-defaults-{language}")
    tap(page.locator("form.stack button[type=submit].button-primary"))
    expect(page.locator(".total-name")).to_have_text(names)
