"""A physical keyboard and a screen reader on the phone (issue 31): focus goes where a page
load would start it, a refused save is marked and said, Enter saves only from the Save
button, the skip link passes the header, and every target in the bar and the totals is a
thumb wide."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Locator, Page, expect

from .conftest import tap
from .helpers import CASE_A, CASE_B, api_game, deals_on_server, htmx_ready, start_classic


def tab_to(target: Locator, most: int = 60) -> int:
    """Press Tab until ``target`` has the focus; how many presses it took."""
    page = target.page
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            return presses
    raise AssertionError(f"{most} presses of Tab never reached {target}")


def test_focus_starts_each_new_page_as_a_load_would(phone: Page, live_server: str) -> None:
    page = phone
    start_classic(page, live_server)
    tab_to(page.get_by_role("link", name="Record deal 1"))
    page.keyboard.press("Enter")
    # The deal form's heading, not the body: the next Tab is the first choice, not the logo.
    expect(page.get_by_role("heading", name="Deal 1")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("radio", name="Nobody")).to_be_focused()

    # Saved: focus on the message that says so; the next Tab is its Undo.
    page.locator("#sides-0-meld_points").fill("35")
    tab_to(page.get_by_role("button", name="Save deal 1"))
    page.keyboard.press("Enter")
    flashes = page.locator(".flashes")
    expect(flashes).to_contain_text("Deal 1 saved.")
    expect(flashes).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Undo")).to_be_focused()


#: Whether the element is what shows at its own centre (nothing sticky covers it).
IN_SIGHT = """el => { const r = el.getBoundingClientRect();
  return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }"""


def test_a_refused_save_takes_the_focus_to_the_figure_at_fault(
    phone: Page, live_server: str
) -> None:
    page = phone
    start_classic(page, live_server)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-0-hand_points").fill("20")
    meld = page.locator("#sides-1-meld_points")
    meld.fill("33")
    page.set_viewport_size({"width": 390, "height": 420})  # the keypad takes half the screen
    tab_to(page.get_by_role("button", name="Save deal 1"))
    page.keyboard.press("Enter")
    expect(meld).to_be_focused()
    # In sight, and not under the sticky totals: the page did not scroll back to the top.
    expect(meld).to_be_in_viewport(ratio=1)
    assert meld.evaluate(IN_SIGHT)
    expect(meld).to_have_attribute("aria-invalid", "true")
    expect(meld).to_have_accessible_description(re.compile("multiple of 5"))
    expect(page.locator("#sides-0-hand_points")).not_to_have_attribute("aria-invalid", "true")


#: Marks a node in the page, to tell later whether it is still the same node.
MARK = "(el, name) => { el['seen' + name] = true; }"
SEEN = "(el, name) => el['seen' + name] === true"


def test_a_message_typed_into_being_is_heard(phone: Page, live_server: str) -> None:
    """The field messages are live regions that stay in the page (one put in anew is not
    read), their words change as the figures do, and a message that stands is not put in
    again (it would be read again at each figure typed)."""
    page = phone
    start_classic(page, live_server)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    meld = page.locator("#sides-0-meld_points")
    slot = page.locator("#err-sides-0-meld_points")
    expect(slot).to_have_attribute("aria-live", "polite")
    slot.evaluate(MARK, "slot")

    meld.fill("33")
    expect(slot).to_contain_text("multiple of 5")
    expect(meld).to_have_attribute("aria-invalid", "true")
    assert slot.evaluate(SEEN, "slot"), "the message's live region was put in anew"
    message = slot.locator(".field-error")
    message.evaluate(MARK, "message")
    with page.expect_response(lambda answer: "/deals/preview" in answer.url):
        page.locator("#sides-1-hand_points").fill("20")
    expect(page.locator("#preview")).to_contain_text("Check the marked figures")
    assert message.evaluate(SEEN, "message"), "a message that stood was put in again"

    meld.fill("55")
    expect(slot).to_be_empty()
    expect(meld).not_to_have_attribute("aria-invalid", "true")
    assert slot.evaluate(SEEN, "slot")


#: Counts the forms sent from the page (an implicit submission is one, at once).
COUNT_SUBMITS = """() => { window.submits = 0;
  document.addEventListener("submit", () => { window.submits += 1; }, true); }"""


def test_a_keyboard_moves_and_saves_only_when_told(phone: Page, live_server: str) -> None:
    """With a physical keyboard no figure moves the focus on by itself, and Enter, in the
    last figure or in any other field, never saves: it goes to the Save button, which does."""
    page = phone
    start_classic(page, live_server)
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    tab_to(page.get_by_role("link", name="Record deal 1"))
    page.keyboard.press("Enter")
    htmx_ready(page)
    page.evaluate(COUNT_SUBMITS)

    tab_to(page.locator("#sides-0-meld_points"))
    page.keyboard.type("220")  # a full figure: on a touch screen, the focus would move on
    expect(page.locator("#sides-0-meld_points")).to_be_focused()
    tab_to(page.locator("#sides-0-hand_points"))
    page.keyboard.type("10")
    tab_to(page.locator("#sides-1-red_threes"))
    page.keyboard.press("Enter")  # in a stepper's figure: the form's implicit submission
    assert page.evaluate("window.submits") == 0
    expect(page.locator("#sides-1-red_threes")).to_be_focused()
    tab_to(page.locator("#sides-1-meld_points"))
    page.keyboard.type("150")
    tab_to(page.locator("#sides-1-hand_points"))
    page.keyboard.type("85")
    expect(page.locator("#preview")).to_contain_text("+65")
    page.keyboard.press("Enter")
    save = page.get_by_role("button", name="Save deal 1")
    expect(save).to_be_focused()  # a screen reader says where: "Save deal 1, button"
    assert page.evaluate("window.submits") == 0

    page.keyboard.press("Enter")
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    assert deals_on_server(page, live_server) == [[210, 65]]
    assert len([url for url in posted if url.endswith("/deals/new")]) == 1


def test_a_figure_that_moves_on_by_touch_says_where(phone: Page, live_server: str) -> None:
    """Touch keeps its shortcuts, and the field the focus moves to is named with its side:
    both sides have a "Melded points"."""
    page = phone
    start_classic(page, live_server)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-0-meld_points").tap()
    page.keyboard.type("220")
    expect(page.get_by_role("textbox", name="Left in hand (We)")).to_be_focused()
    page.keyboard.type("10")
    page.keyboard.press("Enter")
    expect(page.get_by_role("textbox", name="Melded points (They)")).to_be_focused()


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
