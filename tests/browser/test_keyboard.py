"""A physical keyboard and a screen reader on the phone (issue 31): focus goes where a page
load would start it, a refused save is marked and said, Enter saves only from the Save
button, the skip link passes the header, and every target in the bar and the totals is a
thumb wide."""

from __future__ import annotations

import secrets

from playwright.sync_api import Locator, Page, expect

from .conftest import tap
from .helpers import CASE_A, CASE_B, api_game


def tab_to(target: Locator, most: int = 60) -> int:
    """Press Tab until ``target`` has the focus; how many presses it took."""
    page = target.page
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            return presses
    raise AssertionError(f"{most} presses of Tab never reached {target}")


#: Marks a node in the page, to tell later whether it is still the same node.
MARK = "(el, name) => { el['seen' + name] = true; }"
SEEN = "(el, name) => el['seen' + name] === true"


def test_the_skip_link_passes_the_header(phone: Page, live_server: str) -> None:
    page = phone
    game, _ = api_game(page, live_server, ["Ana", "Vera", "Boris", "Goran"], [CASE_A, CASE_B])
    page.goto(f"{live_server}/games/{game}")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport(ratio=1)
    box = skip.bounding_box()
    assert box and box["height"] >= 44, box
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    # Past the six stops of the bar: the first badge of the sheet.
    expect(page.locator(".badge-link").first).to_be_focused()


#: Every link and button of the bar and of the totals, with its size on the screen.
TARGETS = """() => Array.from(document.querySelectorAll(
    '.bar a, .bar button, .totals a, .totals button'), (el) => {
  const r = el.getBoundingClientRect();
  return [el.textContent.trim() || el.getAttribute('aria-label'), r.width, r.height];
})"""


def test_the_bar_and_the_badges_are_a_thumb_wide(phone: Page, live_server: str) -> None:
    page = phone
    game, _ = api_game(page, live_server, ["Ana", "Vera", "Boris", "Goran"], [CASE_A, CASE_B])
    small: dict[str, list[tuple[str, float, float]]] = {}
    for path in ["/", f"/games/{game}", "/rules", "/players"]:
        page.goto(live_server + path)
        targets = page.evaluate(TARGETS)
        assert targets
        small[path] = [(what, w, h) for what, w, h in targets if w < 44 or h < 44]
    assert {path: found for path, found in small.items() if found} == {}


def test_the_last_games_strip_is_named(phone: Page, live_server: str) -> None:
    """A name on a paragraph is one screen readers drop: the strip is a named group."""
    page = phone
    run = secrets.token_hex(2)
    api_game(page, live_server, [f"Iva {run}", "Jan", "Kole", "Lina"], [CASE_A, CASE_B])
    page.goto(live_server + "/players")
    tap(page.locator(".roster a", has_text=f"Iva {run}"))
    strip = page.get_by_role("group", name="The last 1 games, oldest first")
    expect(strip.get_by_role("link")).to_have_count(1)
