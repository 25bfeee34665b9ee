"""The browser console stays quiet on the main pages: no script error, no blocked inline
style (the CSP), no missing asset, while a phone plays a deal and looks around.

Every ``phone`` test fails on such an error (``ConsoleWatch`` in conftest); this one walks
the pages a first evening visits, so a page no other test opens is covered too."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect

from .conftest import POLL_MS, ConsoleWatch, Door, shot, tap
from .helpers import (
    Requests,
    api_game,
    htmx_ready,
    settled,
    start_classic,
    tap_more,
    type_cases_a_and_b,
)


def look(requests: Requests, watch: ConsoleWatch, what: str) -> None:
    """The page has settled (its requests answered) and logged no error."""
    requests.answered()
    assert watch.errors == [], f"{what}: {watch.errors}"


def test_main_pages_log_no_console_error(
    phone: Page, live_server: str, console_watch: ConsoleWatch
) -> None:
    page, watch = phone, console_watch
    requests = Requests(page)
    page.goto(live_server + "/")
    look(requests, watch, "home")
    page.get_by_role("link", name="New game").tap()
    expect(page.get_by_label("Side 1", exact=True)).to_be_visible()
    look(requests, watch, "new game")
    # Another variant, and a start refused (5001 to play to): the page comes back in place.
    shot(page, "new-game-console")  # screenshots leave style="" on the fields
    page.get_by_role("link", name="Railroad").tap()
    expect(page.get_by_role("link", name="Railroad")).to_have_attribute("aria-current", "page")
    page.get_by_role("link", name="Classic, 4", exact=True).tap()
    expect(page.get_by_role("link", name="Classic, 4", exact=True)).to_have_attribute(
        "aria-current", "page"
    )
    settled(page)
    page.get_by_label("Play to").fill("5001")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#err-target")).to_contain_text("multiple of 5")
    look(requests, watch, "new game refused")

    start_classic(page, live_server)
    look(requests, watch, "sheet")
    sheet = page.url

    # A deal typed by thumbs (the live preview answers as it goes) and saved at once.
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    look(requests, watch, "deal form")
    type_cases_a_and_b(page)
    # A slow connection (a train's): each figure typed sends a preview while the last one
    # is still on its way, and Save is tapped before the last answer is in.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    slow = {"offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1}
    cdp.send("Network.emulateNetworkConditions", slow)
    page.locator("#sides-1-meld_points").press_sequentially("150", delay=300)
    shot(page, "deal-form-console")  # the screenshot leaves style="" on the inputs
    page.locator("#sides-1-hand_points").press_sequentially("85", delay=300)
    # Saved at once: the preview of the last figure is due while the save is on its way.
    tap(page.get_by_role("button", name="Save deal 1"))
    # Each request waits 400 ms: the preview ahead of the save, the save, its redirect.
    expect(page.locator(".total-points")).to_have_text(["1,210", "265"], timeout=15_000)
    look(requests, watch, "sheet after a save")
    cdp.send("Network.emulateNetworkConditions", {**slow, "latency": 0})

    # A refused deal comes back with its message, and the page swaps in without a fuss.
    page.get_by_role("link", name="Record deal 2").tap()
    htmx_ready(page)
    tap_more(page, "Red threes", "We", 5)
    page.locator("#sides-0-meld_points").fill("120")
    shot(page, "deal-refused-console")
    with page.expect_response(
        lambda r: r.request.method == "POST" and "/deals/new" in r.url
    ) as sent:
        tap(page.get_by_role("button", name="Save deal 2"))
    assert sent.value.status == 422
    expect(page.locator("#err-sides-0-red_threes")).to_have_text(
        "There are only 4 red threes in the cards."
    )
    look(requests, watch, "refused deal")
    page.locator("#sides-0-red_threes").fill("1")
    tap(page.get_by_role("button", name="Save deal 2"))
    expect(page.locator(".flash")).to_contain_text("Deal 2 saved.")
    look(requests, watch, "second save")

    # Cancel while the preview is on its way (slow again): its answer finds the sheet.
    page.get_by_role("link", name="Record deal 3").tap()
    htmx_ready(page)
    cdp.send("Network.emulateNetworkConditions", {**slow, "latency": 600})
    with page.expect_request(lambda r: "/deals/preview" in r.url) as previewing:
        page.locator("#sides-0-meld_points").fill("90")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("link", name="Cancel").tap()
    expect(page.locator(".total-points")).to_have_count(2)
    previewing.value.response()  # its answer has arrived
    page.wait_for_timeout(300)
    cdp.send("Network.emulateNetworkConditions", {**slow, "latency": 0})
    look(requests, watch, "a deal form left while its preview was on its way")

    page.goto(sheet + "/changes")
    expect(page.locator("main")).to_contain_text("Deal 2")
    look(requests, watch, "change log")
    page.goto(live_server + "/history")
    look(requests, watch, "history")
    # A player of this run alone, in one game this phone keeps score of (the scorer link):
    # renaming them is this phone's (Ana sits in other tests' games too).
    run = secrets.token_hex(2)
    names = [f"{name} {run}" for name in ("Ina", "Jan", "Kira", "Lev")]
    game_id, secret = api_game(page, live_server, names)
    page.goto(f"{live_server}/games/{game_id}/join#{secret}")
    page.get_by_role("button", name="Keep score here").tap()
    expect(page).to_have_url(re.compile(f"/games/{game_id}$"))
    look(requests, watch, "the scorer link")
    page.goto(live_server + "/players")
    look(requests, watch, "players")
    page.get_by_role("link", name=re.compile(f"^{names[0]}")).first.tap()
    expect(page.locator("h1")).to_contain_text(names[0])
    look(requests, watch, "a player's page")
    shot(page, "player-page")
    # A rename refused (an empty name) comes back in place; the roster is unchanged.
    page.get_by_text("Rename").tap()
    page.get_by_label("Name").fill(" ")
    page.get_by_role("button", name="Save the name").tap()
    expect(page.locator(".field-error")).to_be_visible()
    expect(page.locator("h1")).to_have_text(names[0])
    look(requests, watch, "a refused rename")

    page.goto(live_server + "/rules")
    look(requests, watch, "rules index")
    shot(page, "rules-index")
    page.get_by_role("link", name=re.compile("^Classic")).first.tap()
    expect(page.locator("h1")).to_be_visible()
    look(requests, watch, "a rule page")
    for tool in ("/check/meld", "/check/initial-meld", "/check/going-out", "/check/pickup"):
        page.goto(live_server + tool)
        look(requests, watch, tool)
    page.locator("button[data-card]").first.tap()
    look(requests, watch, "a rule tool answering")


def sent_with_no_answer(page: Page, what: str) -> None:
    """Wait until a request from ``what`` (an element or an address) got no answer."""
    page.wait_for_function(
        "what => (window.__events || []).some(e => /htmx:sendError/.test(e) && e.includes(what))",
        arg=what,
        timeout=15_000,
    )


def test_a_poll_and_a_preview_with_no_answer_log_no_error(
    phone: Page, live_server: str, door: Door, console_watch: ConsoleWatch
) -> None:
    """The server out of reach (issue 40): a follower's poll and the deal form's live line
    get no answer. The page says so itself (the banner, the provisional line); htmx's
    "htmx:sendError" lines are not logged as errors. Chromium's own line for a request
    that failed is the browser's, and is left out (``ConsoleWatch``)."""
    page, watch = phone, console_watch
    game_id, _ = api_game(page, live_server, ["Ana", "Boris", "Vera", "Goran"])
    # The page's clock is the test's: the poll is made due at once, not waited for.
    page.clock.install()
    page.goto(f"{door.url}/games/{game_id}")  # a follower's sheet: it polls every 10 s
    banner = page.locator(".offline-banner")
    expect(banner).to_be_hidden()
    door.shut()
    page.clock.fast_forward(POLL_MS)
    sent_with_no_answer(page, "div#sheet-live")
    expect(banner).to_be_visible()
    assert watch.errors == [], watch.errors
    door.open()
    page.clock.fast_forward(POLL_MS)
    expect(banner).to_be_hidden()  # the next poll's answer

    start_classic(page, door.url)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    door.shut()
    page.locator("#sides-0-meld_points").fill("150")
    sent_with_no_answer(page, "/deals/preview")
    expect(page.locator("#preview")).to_contain_text("Provisional (no connection)")
    expect(banner).to_be_visible()
    assert watch.errors == [], watch.errors
    door.open()
    page.locator("#sides-1-meld_points").fill("90")
    expect(page.locator("#preview")).not_to_contain_text("Provisional")  # the server's
    expect(banner).to_be_hidden()
    assert watch.errors == [], watch.errors
