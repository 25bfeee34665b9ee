"""The new tables' pages on the phone (issue 42): Modern American's and Hand and Foot's
new-game pages and the deal form of each new rule set fit 390 px and pass axe, light and
dark (screenshots in test-results/ for people to look at); the special-hand picker clears the
side's other figures, and Pagat's four special hands hide the others' values."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import fits, shot, tap
from .helpers import Requests, htmx_ready, violations

NAMES = ["Ana", "Vera", "Boris", "Goran", "Lidija", "Stefan"]


#: The sticky bars (the totals, the save button) put in the page's flow, and back: where
#: they stop, they cover part of whichever row is under them as a thumb scrolls past,
#: which axe's target-size would count against that row, wherever it happens to be.
UNSTICK = "on => document.querySelectorAll('.thumb, .sticky-top').forEach(bar => {"
UNSTICK += " bar.style.position = on ? 'static' : ''; })"


def shot_both(page: Page, name: str) -> None:
    """The page light and dark: a screenshot of each, and not one axe violation."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, name)
        page.evaluate(UNSTICK, True)
        assert violations(page) == [], (name, scheme)
        page.evaluate(UNSTICK, False)
    page.emulate_media(color_scheme="light")


def start(page: Page, live_server: str, variant: str, players: int) -> None:
    page.goto(f"{live_server}/games/new?variant={variant}&players={players}")
    for seat in range(players):
        page.locator(f"#players-{seat}").fill(NAMES[seat])
    tap(page.locator("form.stack button[type=submit].button-primary"))
    expect(page.locator(".total-points")).to_have_count(players // (1 if players == 2 else 2))


@pytest.mark.parametrize(
    ("variant", "players"),
    [("american", 4), ("hand-and-foot", 4), ("hand-and-foot", 6), ("burraco", 4), ("burraco-2", 2)],
)
def test_the_new_tables_pages_fit_the_phone(
    phone: Page, live_server: str, variant: str, players: int
) -> None:
    page = phone
    requests = Requests(page)
    page.goto(f"{live_server}/games/new?variant={variant}&players={players}")
    page.locator("form details:not(.draw)").evaluate_all(
        "boxes => boxes.forEach(box => box.open = true)"
    )
    requests.answered()
    fits(page, f"new game, {variant}")
    shot_both(page, f"new-{variant}-{players}")
    start(page, live_server, variant, players)
    page.goto(page.url + "/deals/new")
    requests.answered()
    fits(page, f"deal form, {variant}")
    shot_both(page, f"deal-{variant}-{players}")
    # DESIGN.md: no layout wider than 360 px.
    page.set_viewport_size({"width": 360, "height": 780})
    fits(page, f"deal form at 360 px, {variant}")
    page.goto(f"{live_server}/games/new?variant={variant}&players={players}")
    fits(page, f"new game at 360 px, {variant}")


def test_a_special_hand_clears_the_sides_figures(phone: Page, live_server: str) -> None:
    page = phone
    start(page, live_server, "american", 4)
    page.goto(page.url + "/deals/new")
    htmx_ready(page)
    page.locator("#sides-1-meld_points").fill("120")
    tap(page.locator("button[data-for=sides-1-mixed_canastas][data-step='1']"))
    page.locator("#sides-1-unfinished_wild").check()
    page.locator("#sides-1-special_hand").select_option("straight")
    expect(page.locator("#sides-1-meld_points")).to_have_value("")
    expect(page.locator("#sides-1-mixed_canastas")).to_have_value("0")
    expect(page.locator("#sides-1-unfinished_wild")).not_to_be_checked()
    expect(page.locator("input[name=went_out][value='1']")).to_be_checked()
    # The live line scores the hand alone.
    expect(page.locator("#preview")).to_contain_text("+3,000")
    shot(page, "deal-american-special-hand")


def test_pagats_four_hide_the_other_hands(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(f"{live_server}/games/new?variant=american")
    page.locator("summary", has_text="Special hands").tap()
    expect(page.locator("#miami_pairs_hand")).to_be_visible()
    page.locator("input[name=special_hands][value=house]").check()
    expect(page.locator("#miami_pairs_hand")).to_be_hidden()
    expect(page.locator("#garbage_hand")).to_be_visible()
    fits(page, "special hands")
