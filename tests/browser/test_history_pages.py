"""History, roster and statistics on a phone: a game set up with regulars' chips, the
history narrowed by a player, a player's figures and a rename, at 360 px without sideways
scrolling and without accessibility problems (axe)."""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.sync_api import Page, expect

from .conftest import fits, shot
from .helpers import CASE_A, CASE_B, api_game, violations

#: The colour scheme is what these check: light and dark both.
pytestmark = pytest.mark.light_and_dark


def test_history_players_and_statistics_on_a_phone(phone: Page, live_server: str) -> None:
    page = phone
    page.set_viewport_size({"width": 360, "height": 780})
    run = secrets.token_hex(2)  # the live server outlives one test: names of this run only
    names = [f"{name} {run}" for name in ("Dana", "Emil", "Fani", "Gjoko")]
    dana, emil = names[0], names[1]
    first, secret = api_game(page, live_server, names, [CASE_A, CASE_B], [CASE_A, CASE_B])
    second, second_secret = api_game(page, live_server, names, [CASE_B, CASE_A])
    problems: dict[str, list[str]] = {}

    # New game: the regulars are chips; four taps seat them in order.
    page.goto(live_server + "/games/new")
    for name in names:
        page.locator(".regulars").get_by_role("button", name=name, exact=True).tap()
    expect(page.locator("#players-0")).to_have_value(dana)
    expect(page.locator("#players-3")).to_have_value(names[3])
    expect(page.locator(".regulars").get_by_role("button", name=dana, exact=True)).to_be_hidden()

    # History: in progress first; narrowing to a player applies as soon as it is picked.
    page.goto(live_server + "/history")
    expect(page.get_by_role("heading", name="All games")).to_be_visible()
    fits(page)
    problems["history"] = violations(page)
    page.get_by_text("Find games").tap()
    page.get_by_label("Player").select_option(label=emil)
    expect(page).to_have_url(re.compile(r"player=\d+"))
    expect(page.locator(".games li")).to_have_count(2)
    expect(page.locator(".games li").first).to_contain_text("in progress, deal 2 next")
    shot(page, "history")

    # A player's page: figures, partners, rivals; a rename keeps them.
    page.goto(live_server + "/players")
    fits(page)
    problems["players"] = violations(page)
    page.get_by_role("link", name=re.compile(f"^{dana}")).tap()
    expect(page.get_by_role("heading", name=dana, exact=True)).to_be_visible()
    # The first game played to the end, the second still going (one deal).
    expect(page.locator(".figures")).to_contain_text("1 game played")
    expect(page.locator(".figures")).to_contain_text("1 game still going")
    expect(page.locator(".figures")).to_contain_text("100% of finished games won")
    fits(page)
    problems["player"] = violations(page)
    shot(page, "player")
    # Renaming takes keeping score of every game of theirs: the scorer links give it.
    only = page.get_by_text("Only a phone that keeps score of every game of theirs")
    expect(only).to_be_visible()
    player_page = page.url
    for game_id, token in ((first, secret), (second, second_secret)):
        page.goto(f"{live_server}/games/{game_id}/join#{token}")
        page.get_by_role("button", name="Keep score here").tap()
        expect(page).to_have_url(re.compile(f"/games/{game_id}$"))  # no fragment: no secret
        page.goto(player_page)
        if game_id == first:  # one of their two games: not yet
            expect(only).to_be_visible()
    page.get_by_text("Rename").tap()
    page.get_by_label("Name").fill(f"{dana} M.")
    page.get_by_role("button", name="Save the name").tap()
    expect(page.get_by_role("heading", name=f"{dana} M.")).to_be_visible()
    expect(page.locator(".figures")).to_contain_text("1 game played")

    page.get_by_role("link", name=emil).first.tap()
    expect(page.get_by_role("heading", name=f"{dana} M. & {emil}")).to_be_visible()
    fits(page)
    problems["partnership"] = violations(page)
    assert {name: found for name, found in problems.items() if found} == {}


@pytest.mark.parametrize("lang", ["en", "mk", "ru", "sk"])
def test_the_win_rate_by_rule_set_fits_a_phone(phone: Page, live_server: str, lang: str) -> None:
    """The table of rule sets was 450 to 469 px wide at 390 px in Macedonian, Russian and
    Slovak (issue 40): it fits the phone, at 390 px and at 360 px, the narrowest, in every
    language, and so does the rest of the page (Russian's head to head was 412 px)."""
    page = phone
    run = secrets.token_hex(2)
    names = [f"{name} {run}" for name in ("Olja", "Pero", "Raja", "Sava", "Tina", "Uroš")]
    won = [CASE_A, CASE_B]
    api_game(page, live_server, names[:4], won, won)
    api_game(page, live_server, names, won, won, variant="classic-6")
    api_game(page, live_server, names[:4], [CASE_B, CASE_A], [CASE_B, CASE_A], variant="cuban")
    page.goto(live_server + "/players")
    player = page.locator(".roster a", has_text=names[0]).get_attribute("href")
    page.goto(f"{live_server}/language/{lang}?next={player}")
    table = page.locator("section[aria-labelledby=h-variants] table")
    expect(table.locator("tbody tr")).to_have_count(3)
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        box = table.bounding_box()
        assert box is not None and box["x"] >= 0
        assert box["x"] + box["width"] <= width, (lang, width, box)
        fits(page)
        if lang == "ru" and width == 390:
            shot(page, "player-rule-sets-ru")
