"""Pairs rated as pairs at 390 px (RULES.md section 12, issue 44): the ladder read by pairs
and a partnership's page, its own rating beside each player's, each saying what it
measures. No sideways scrolling, nothing axe finds; screenshots in both colour schemes."""

from __future__ import annotations

import secrets

import pytest
from playwright.sync_api import Page, expect

from .conftest import fits, shot, tap
from .helpers import CASE_A, CASE_B, api_game, violations

#: Who sat with whom (the first two against the last two) and which side won. Long names:
#: a pair's line holds both.
NIGHT = [
    (["Alexandrina", "Bartholomew", "Konstantin", "Wilhelmina"], 0),
    (["Alexandrina", "Konstantin", "Bartholomew", "Wilhelmina"], 1),
    (["Bartholomew", "Alexandrina", "Wilhelmina", "Konstantin"], 0),
]


@pytest.mark.light_and_dark
def test_the_pairs_ladder_and_a_partnership_s_ratings(phone: Page, live_server: str) -> None:
    page = phone
    # The live server outlives one test (other tests' pairs are on its ladder): this run's
    # players carry a mark of their own.
    run = secrets.token_hex(2)
    for players, winner in NIGHT:
        deal = [CASE_A, CASE_B] if winner == 0 else [CASE_B, CASE_A]
        api_game(page, live_server, [f"{name} {run}" for name in players], deal, deal)
    page.goto(live_server + "/players/ladder")
    tap(page.get_by_role("link", name="By pairs"))
    expect(page.get_by_role("link", name="By pairs")).to_have_attribute("aria-current", "page")
    lines = page.locator(".ladder-line").filter(has_text=run)
    expect(lines).to_have_count(4)
    top = lines.first
    expect(top).to_contain_text(f"Alexandrina {run} & Bartholomew {run}")
    expect(top).to_contain_text("2 rated games together")
    box = top.bounding_box()
    assert box is not None and box["height"] >= 48 and box["width"] >= 300
    assert violations(page) == []
    fits(page, "the ladder by pairs")
    shot(page, "ladder-pairs")
    tap(top)
    expect(page.locator("h1")).to_have_text(f"Alexandrina {run} & Bartholomew {run}")
    ratings = page.locator(".pair-ratings li")
    expect(ratings).to_have_count(3)
    expect(ratings.first).to_contain_text("how well they do together, from")
    expect(ratings.nth(1)).to_contain_text("Their own rating: every game they played")
    assert violations(page) == []
    fits(page, "a partnership's page")
    shot(page, "partnership-ratings")
