"""The draw for seats on the new-game page at 390 px, by touch, in English and Macedonian:
a joker draws again, then the seats, sides and first dealer fill in, and the game's sheet
names the drawn dealer."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import fits, shot, tap

#: What the page says, per language, where the test reads words.
WORDS = {
    "en": {"again": "Draw again", "deals": "deals first"},
    "mk": {"again": "Влечат повторно", "deals": "прв дели"},
}


def pick(page: Page, seat: int, rank: str, suit: str | None) -> None:
    """The player of ``seat`` taps the card they drew: its rank, then its suit."""
    box = page.locator("fieldset.draw-pick").nth(seat)
    tap(box.locator(f".draw-ranks label:has(input[value='{rank}'])"))
    if suit:
        tap(box.locator(f".draw-suits label:has(input[value='{suit}'])"))
    expect(box.locator(f"input[value='{rank}']")).to_be_checked()


@pytest.mark.parametrize("language", ["en", "mk"])
def test_draw_for_seats_then_start(phone: Page, live_server: str, language: str) -> None:
    page = phone
    page.goto(f"{live_server}/language/{language}?next=/games/new")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.locator("#sides-0-name").fill("Сини" if language == "mk" else "Blues")
    page.locator("#sides-1-name").fill("Црвени" if language == "mk" else "Reds")
    for seat, name in enumerate(["Ana", "Boris", "Vera", "Goran"]):
        page.locator(f"#players-{seat}").fill(name)
    tap(page.locator("#draw > summary"))
    # The pickers carry the names as they were typed.
    expect(page.locator("fieldset.draw-pick legend").nth(1)).to_have_text("Boris")
    pick(page, 0, "Q", "S")
    pick(page, 1, "JK", None)  # a joker draws again
    pick(page, 2, "A", "C")
    pick(page, 3, "K", "D")
    tap(page.locator("button[name=draw]"))
    again = page.locator(".draw-again")
    expect(again).to_contain_text(WORDS[language]["again"])
    expect(again).to_contain_text("Boris")
    fits(page)
    shot(page, f"draw-redraw-{language}")
    # Boris draws again: the seven of hearts. Vera (A♣) is highest, Goran (K♦) her partner.
    pick(page, 1, "7", "H")
    tap(page.locator("button[name=draw]"))
    drawing = page.locator(".draw-result .table-name")
    expect(drawing).to_have_text(["Vera", "Ana", "Goran", "Boris"])
    for seat, name in enumerate(["Vera", "Ana", "Goran", "Boris"]):
        expect(page.locator(f"#players-{seat}")).to_have_value(name)
    expect(page.locator("input[name=first_dealer][value='3']")).to_be_checked()
    expect(page.locator(".draw-result .table-dealer")).to_have_text(WORDS[language]["deals"])
    fits(page)
    page.locator(".draw-result").scroll_into_view_if_needed()
    shot(page, f"draw-seated-{language}")
    # Anything can still change by hand; the drawn seats stand here.
    tap(page.locator("form button[type=submit]"))
    expect(page.locator(".next-deal strong")).to_have_text("Boris")
    tap(page.locator("details.seats > summary"))
    expect(page.locator("details.seats .table-name")).to_have_text(
        ["Vera", "Ana", "Goran", "Boris"]
    )
    expect(page.locator("details.seats .table-card")).to_have_text(["A♣", "Q♠", "K♦", "7♥"])
    shot(page, f"draw-sheet-{language}")
