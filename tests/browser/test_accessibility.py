"""axe-core (axe-playwright-python ships it) on the main pages, in both colour schemes: not
one violation, of any impact, of the rules ``violations`` runs (WCAG 2.2 A and AA, axe's
best practices and its experimental rules). One walk, each page as a player finds it (a
game started, a deal typed, refused and saved, the rules and their tools), checked in each
scheme."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import shot, tap
from .helpers import Requests, htmx_ready, settled, violations


def test_every_page_passes_axe(phone: Page, live_server: str) -> None:
    page = phone
    requests = Requests(page)
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        requests.answered()
        settled(page)
        # The colour scheme is what this checks: each page in light and dark both (the
        # dark scheme changes colours only, so one walk serves both).
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            problems = violations(page)
            if problems:
                found[f"{name}, {scheme}"] = problems
        page.emulate_media(color_scheme="light")

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
    sheet = page.url
    check("score sheet")

    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    check("deal form")
    page.locator("#sides-0-meld_points").fill("33")  # not a multiple of 5
    expect(page.locator("#err-sides-0-meld_points")).not_to_be_empty()
    check("deal form, a figure refused as it is typed")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".has-error #sides-0-meld_points")).to_be_visible()
    check("a refused deal")
    page.locator("#sides-0-meld_points").fill("35")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    check("score sheet, a deal saved")
    page.get_by_role("link", name="Changes").tap()
    expect(page.get_by_role("heading", name="Changes")).to_be_visible()
    check("change log")

    page.goto(live_server + "/rules")
    check("rule sets")
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
    page.goto(live_server + "/history")
    check("history")
    page.goto(live_server + "/players")
    check("players")
    page.locator(".roster a", has_text="Ana").first.tap()
    expect(page.get_by_role("heading", name="Ana", exact=True)).to_be_visible()
    check("a player")
    page.goto(live_server + "/players/ladder")
    check("club ladder")

    page.goto(live_server + "/language/mk?next=" + sheet.removeprefix(live_server))
    check("score sheet in Macedonian")
    shot(page, "sheet-mk")
    page.goto(live_server + "/language/ru?next=/games/new")
    check("new game in Russian")
    shot(page, "new-game-ru")
    page.goto(live_server + "/language/en?next=/")
    assert found == {}
