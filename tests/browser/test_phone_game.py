"""A whole game kept with thumbs on a phone-sized Chromium, against the real server."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import RESULTS, SCREENSHOTS, back_online, browser_says_online, fits, shot, tap
from .helpers import (
    big_concealed_deal,
    htmx_ready,
    start_classic,
    tap_more,
    type_a_plain_deal,
    type_cases_a_and_b,
)


def test_a_whole_game_with_thumbs(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/")
    shot(page, "home-empty")
    page.get_by_role("link", name="New game").tap()
    page.get_by_label("Side 1", exact=True).fill("We")
    page.get_by_label("Side 2", exact=True).fill("They")
    for seat, name in enumerate(["Ana", "Vera", "Boris", "Goran"], start=1):
        page.locator(f"#players-{seat - 1}").fill(name)
    shot(page, "new-game")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".next-deal")).to_have_text("Deal 1 · Ana deals")
    shot(page, "sheet-new")

    # Deal 1: RULES.md section 8, cases A (We) and B (They), with the live preview.
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    type_cases_a_and_b(page)
    page.locator("#sides-1-meld_points").fill("150")
    page.locator("#sides-1-hand_points").fill("85")
    expect(page.locator("#preview")).to_contain_text("+1,210")
    expect(page.locator("#preview")).to_contain_text("+265")
    # Number fields open the numeric keypad.
    expect(page.locator("#sides-0-meld_points")).to_have_attribute("inputmode", "numeric")
    shot(page, "deal-form")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    expect(page.locator(".total-points")).to_have_text(["1,210", "265"])
    expect(page.locator(".next-deal")).to_have_text("Deal 2 · Vera deals")
    shot(page, "sheet-one-deal")

    # A refusal: five red threes; the message names the rule and nothing is saved.
    page.get_by_role("link", name="Record deal 2").tap()
    htmx_ready(page)
    tap_more(page, "Red threes", "We", 3)
    tap_more(page, "Red threes", "They", 2)
    page.locator("#sides-0-meld_points").fill("120")
    page.locator("#sides-1-meld_points").fill("90")
    # The message appears next to the stepper at fault while typing, and after saving.
    expect(page.locator("#err-sides-1-red_threes")).to_contain_text("only 4 red threes")
    expect(page.locator("#preview")).to_contain_text("Check the marked figures.")
    tap(page.get_by_role("button", name="Save deal 2"))
    expect(page.locator("#err-sides-1-red_threes")).to_contain_text("only 4 red threes")
    expect(page.locator("#sides-0-meld_points")).to_have_value("120")
    shot(page, "deal-refused")
    # tap() waits for no save in flight (a tap made again on a loaded machine sends a
    # second one, whose answer would bring the form back after Cancel).
    tap(page.get_by_role("link", name="Cancel"))
    # The deal form's bar shows the totals too: the sheet is there once its rows are.
    expect(page.get_by_role("link", name="Edit deal 1")).to_be_visible()
    expect(page.locator(".total-points")).to_have_text(["1,210", "265"])

    # Edit deal 1: We melded 250, not 220.
    page.get_by_role("link", name="Edit deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-0-meld_points").fill("250")
    expect(page.locator("#preview")).to_contain_text("+1,240")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".total-points")).to_have_text(["1,240", "265"])

    # Two big concealed deals for We (case D, 2295 each): 1240 + 4590 = 5830, We win.
    for number in (2, 3):
        big_concealed_deal(page, number)
    expect(page.locator(".winner h2")).to_have_text("We win with 5,830")
    shot(page, "sheet-won")

    # Undo the winning deal, with a confirmation: the game goes on.
    page.get_by_role("link", name="Undo deal 3").tap()
    shot(page, "undo-confirm")
    page.get_by_role("button", name="Undo deal 3").tap()
    expect(page.locator(".total-points")).to_have_text(["3,535", "145"])  # 265 - 120
    expect(page.get_by_role("link", name="Record deal 3")).to_be_visible()

    # No sideways scrolling at phone width.
    fits(page)
    assert re.search(r"/games/[\w-]+$", page.url)


def test_save_stays_under_the_thumb_while_the_preview_grows(phone: Page, live_server: str) -> None:
    """Scrolled to the end of the deal form, the live line above Save grows by a line and
    more as figures make a winner, and shrinks again: Save does not move under the thumb
    that is about to tap it (it did by the page's bottom margin, 36 px)."""
    page = phone
    start_classic(page, live_server)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    save = page.get_by_role("button", name="Save deal 1")
    preview = page.locator("#preview")
    page.mouse.wheel(0, 5000)
    page.wait_for_function("() => scrollY + innerHeight >= document.documentElement.scrollHeight")
    before = save.bounding_box()
    low = preview.bounding_box()
    assert before is not None and low is not None
    page.locator("#sides-0-meld_points").fill("5000")  # We would win: a line more
    expect(preview).to_contain_text("We would win the game.")
    high = preview.bounding_box()
    assert high is not None and high["height"] > low["height"] + 20, (low, high)
    assert save.bounding_box() == before
    if SCREENSHOTS:  # what the phone shows (a full-page shot moves the sticky bar)
        page.screenshot(path=RESULTS / "deal-form-end-would-win-light.png")
    page.locator("#sides-0-meld_points").fill("120")
    expect(preview).not_to_contain_text("would win")
    assert save.bounding_box() == before


def test_new_game_form_shows_what_is_missing(phone: Page, live_server: str) -> None:
    """A refused form (422) comes back with its messages, and keeps what was typed. Side
    names are not missing when left empty: they become the "We" and "They" shown."""
    page = phone
    page.goto(live_server + "/games/new")
    page.get_by_label("Side 1", exact=True).fill("Reds")
    # The seat labels follow the side names, and show the default once a name is cleared.
    expect(page.locator('[data-side-name="0"]').first).to_have_text("Reds")
    page.get_by_label("Side 1", exact=True).fill("")
    expect(page.locator('[data-side-name="0"]').first).to_have_text("We")
    expect(page.locator('[data-side-name="1"]').first).to_have_text("They")
    page.get_by_label("Side 1", exact=True).fill("Reds")
    page.get_by_label("Play to").fill("5001")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#err-target")).to_contain_text("multiple of 5")
    expect(page.locator("#err-sides-1-name")).to_have_text("")
    expect(page.locator("#err-players-0")).to_have_text("Each player needs a name.")
    expect(page.get_by_label("Side 1", exact=True)).to_have_value("Reds")
    expect(page.get_by_label("Side 2", exact=True)).to_have_attribute("placeholder", "They")
    shot(page, "new-game-refused")

    page.get_by_label("Side 1", exact=True).fill("")
    page.get_by_label("Play to").fill("5000")
    for seat, name in enumerate(["Ana", "Vera", "Boris", "Goran"]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-name")).to_have_text(["We", "They"])


def test_railroad_for_six_fits_the_phone(phone: Page, live_server: str) -> None:
    """Six columns at 360 px: the sheet and the deal form scroll only downwards."""
    page = phone
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(live_server + "/games/new")
    page.get_by_role("link", name="Railroad").tap()
    page.get_by_role("link", name="6", exact=True).tap()
    expect(page.locator("#players-5")).to_be_visible()  # the six-seat form has arrived
    for seat, name in enumerate(["Ana", "Boris", "Vera", "Goran", "Lidija", "Stefan"]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-points")).to_have_count(6)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.locator("label.segment", has_text="Ana").tap()
    for kind in ("Natural", "Mixed", "Wild", "Sevens"):
        tap_more(page, f"{kind} canastas", "Ana")
    tap_more(page, "Red threes laid down", "Ana")
    page.locator("#sides-0-meld_points").fill("600")
    for index in range(1, 6):
        page.locator(f"#sides-{index}-hand_points").fill(str(50 * index))
    expect(page.locator("#preview")).to_contain_text("+4,100")
    fits(page)
    shot(page, "railroad-deal")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".total-points")).to_have_text(
        ["4,100", "-50", "-100", "-150", "-200", "-250"]
    )
    fits(page)
    shot(page, "railroad-sheet")


def test_card_counter_and_rule_tools(phone: Page, live_server: str) -> None:
    """Count melded cards by taps; settle a meld and an initial meld with the card picker."""
    page = phone
    start_classic(page, live_server)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.get_by_text("Count the melded cards").first.tap()
    for _ in range(3):
        page.get_by_role("button", name="K to 8, 10 each: add one").first.tap()
    page.get_by_role("button", name="Jokers, 50 each: add one").first.tap()
    expect(page.locator("#sides-0-meld_points")).to_have_value("80")  # 3 x 10 + 50
    shot(page, "deal-counter")
    # Leaving the half-filled form asks first; dismissing stays, accepting leaves.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("link", name="Cancel").tap()
    expect(page.locator("#sides-0-meld_points")).to_have_value("80")
    assert asked == ["Leave this deal without saving it?"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("link", name="Cancel").tap()

    # The minimum badge opens the initial-meld calculator for that side.
    page.get_by_role("link", name="needs 50").first.tap()
    expect(page.locator(".lead")).to_contain_text("needs 50")
    page.locator("#meld1").tap()
    for rank in ("K", "K", "K"):
        page.locator(f"button[data-card='{rank}']").tap()
    page.locator("#meld2").tap()
    for rank in ("5", "5", "2"):
        page.locator(f"button[data-card='{rank}']").tap()
    expect(page.locator("#answer")).to_contain_text("Yes")  # 30 + 30 = 60 >= 50
    expect(page.locator("#answer")).to_contain_text("60 counted")
    page.get_by_role("button", name="Remove K").first.tap()  # K K and 5 5 2: K K is no meld
    expect(page.locator("#answer")).to_contain_text("not legal")
    shot(page, "check-initial-meld")

    page.goto(live_server + "/check/meld")
    for rank in ("9", "9", "2", "2", "2", "JK"):
        page.locator(f"button[data-card='{rank}']").tap()
    expect(page.locator("#answer .answer-line")).to_have_text("No")
    expect(page.locator("#answer")).to_contain_text("at most 3 wild cards")
    shot(page, "check-meld")


def test_language_switch_and_offline(phone: Page, live_server: str) -> None:
    """Switch to Macedonian and back; with no connection the last sheet opens and says so."""
    page = phone
    browser_says_online(page)  # as Debian's Chromium 150 does after an offline reload
    page.clock.install()  # the offline copy's poll is made due (back_online)
    start_classic(page, live_server)
    expect(page.locator(".total-points")).to_have_count(2)
    sheet_url = page.url

    page.get_by_role("link", name="Македонски").tap()
    expect(page.locator("html")).to_have_attribute("lang", "mk")
    assert page.url == sheet_url
    shot(page, "sheet-mk")
    page.get_by_role("link", name="English").tap()
    expect(page.locator("html")).to_have_attribute("lang", "en")

    # The service worker takes over, then keeps the pages it sees.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    expect(page.locator(".total-points")).to_have_count(2)
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.locator(".total-points")).to_have_count(2)
        expect(page.locator(".offline-banner")).to_be_visible()
        shot(page, "sheet-offline")
    finally:
        page.context.set_offline(False)
    back_online(page, clock=True)  # the offline copy is the follower's: the scorer's returns


def test_a_save_that_cannot_reach_the_server_keeps_the_deal(phone: Page, live_server: str) -> None:
    """The connection drops as the deal is sent: the phone keeps it (issue 17), the sheet
    shows it waiting, and the next page load records it."""
    page = phone
    start_classic(page, live_server)
    type_a_plain_deal(page)

    def drop(route: Any) -> None:  # the connection drops as the deal is sent
        if route.request.method == "POST" and route.request.url.endswith("/deals/new"):
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/*", drop)
    tap(page.get_by_role("button", name="Save deal 1"))
    row = page.locator("tr.pending:not(.pending-note)")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("+130")
    # The totals count it, marked provisional; the next deal is deal 2.
    expect(page.locator(".total.provisional .total-points")).to_have_text(["130", "55"])
    expect(page.locator(".next-deal")).to_have_text("Deal 2 · Vera deals")
    shot(page, "deal-not-saved")
    page.unroute("**/*", drop)
    page.reload()
    expect(page.locator("tr.pending")).to_have_count(0)
    expect(page.locator(".total-points")).to_have_text(["130", "55"])  # 150-20, 90-35
