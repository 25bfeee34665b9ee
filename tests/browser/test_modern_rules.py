"""The rules pages and a rule tool of Modern American and Burraco on a phone (390 px): no
sideways scrolling with the new tables (the swing, penalties, special hands), the tool's
answer in place, and screenshots in test-results/ for people to look at."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import fits, shot


def test_the_american_and_burraco_rules_pages_fit_a_phone(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(f"{live_server}/rules/american")
    expect(page.locator("h1")).to_have_text("Modern American Canasta")
    expect(page.locator("#swing")).to_be_visible()
    expect(page.locator("#h-special")).to_be_visible()
    fits(page, "American rules")
    shot(page, "rules-american")
    page.goto(f"{live_server}/rules/burraco")
    expect(page.locator("#h-penalties")).to_be_visible()
    expect(page.locator("#h-cards + table")).to_contain_text("Joker30")
    fits(page, "Burraco rules")
    shot(page, "rules-burraco")


def test_a_burraco_meld_answers_as_it_is_typed(phone: Page, live_server: str) -> None:
    """The meld tool under Burraco: a run with the ace low and a wild card, a burraco."""
    page = phone
    page.goto(f"{live_server}/check/meld?variant=burraco")
    page.locator("#cards").fill("AS 2S 3S 4S 5S 6S JK")
    expect(page.locator("#answer .answer-yes")).to_be_visible()
    expect(page.locator("#answer")).to_contain_text("a canasta (dirty burraco)")
    fits(page, "Burraco meld tool")
    shot(page, "check-meld-burraco")


def test_american_going_out_names_the_unfinished_meld(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(f"{live_server}/check/going-out?variant=american&natural=2&left=1&before=y")
    expect(page.locator("#answer .answer-yes")).to_be_visible()
    page.locator("label[for=unfinished_aces]").tap()
    expect(page.locator("#answer .answer-no")).to_be_visible()
    expect(page.locator("#answer")).to_contain_text("Unfinished aces meld")
    fits(page, "American going-out tool")
    shot(page, "check-going-out-american")
