"""Issue 17: deals typed with no connection wait on the phone and are recorded once, in
order, when it returns; Back on a half-filled deal asks first, and after a save it leads
to the sheet, never to the spent form. Issue 28: the queue learns what became of a deal
from the server's JSON answer, never by reading a page."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Response, expect

from .conftest import POLL_MS, Door, browser_says_online, shot, tap
from .helpers import (
    big_concealed_deal,
    deals_on_server,
    htmx_ready,
    start_classic,
    tap_more,
    type_a_plain_deal,
    worker_ready,
)


def modest_deal(page: Page, out: str, meld: str, hand: str, other_hand: str) -> None:
    """``out`` (We or They) went out with a natural canasta and melded ``meld``; the other
    side melded nothing and held ``other_hand``."""
    index, other_index = (0, 1) if out == "We" else (1, 0)
    page.locator("label.segment", has_text=out).tap()
    tap_more(page, "Natural canastas", out)
    page.locator(f"#sides-{index}-meld_points").fill(meld)
    page.locator(f"#sides-{index}-hand_points").fill(hand)
    page.locator(f"#sides-{other_index}-hand_points").fill(other_hand)


OFFLINE_JS = Path(__file__).resolve().parents[2] / "static" / "offline.js"


def test_the_queue_reads_no_page() -> None:
    """offline.js parses no HTML and looks for none of a page's messages: what the server
    said comes from its JSON answer."""
    script = OFFLINE_JS.read_text(encoding="utf-8")
    for page_part in ("DOMParser", ".field-msg", ".flash-error", "p.lead", "response.text()"):
        assert page_part not in script


def test_a_game_with_the_connection_cut(phone: Page, live_server: str) -> None:
    page = phone
    browser_says_online(page)  # as Debian's Chromium 150 does after an offline reload
    start_classic(page, live_server)
    worker_ready(page)
    queued: list[tuple[int, Any]] = []  # the queue's answers: status, JSON body

    def note_queued(response: Response) -> None:
        request = response.request
        asked_json = request.headers.get("accept") == "application/json"
        if request.method == "POST" and request.url.endswith("/deals/new") and asked_json:
            try:
                body = response.json()
            except PlaywrightError:
                body = None  # the page moved on and Chromium dropped the body: status only
            queued.append((response.status, body))

    page.on("response", note_queued)

    # Deal 1 online: We go out (500 + 100 + 150 - 0), They hold 60.
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    modest_deal(page, "We", "150", "0", "60")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".total-points")).to_have_text(["750", "-60"])

    # The connection goes. Deal 2 from the deal form the phone kept.
    page.context.set_offline(True)
    try:
        page.get_by_role("link", name="Record deal 2").tap()
        expect(page.locator("h1.deal-title")).to_have_text("Deal 2 · Vera dealt")
        modest_deal(page, "They", "120", "0", "45")
        preview = page.locator("#preview")
        expect(preview).to_contain_text("Provisional (no connection)")
        expect(preview).to_contain_text("They +720 → 660")
        shot(page, "offline-deal-form")
        tap(page.get_by_role("button", name="Save deal 2"))

        # The sheet shows it at once, waiting, with its provisional score.
        pending = page.locator("tr.pending:not(.pending-note)")
        expect(pending).to_have_count(1)
        expect(page.locator("tr.pending-note")).to_contain_text("Waiting for the connection")
        expect(pending.first).to_contain_text("-45")
        expect(pending.first).to_contain_text("705")  # 750 - 45
        expect(pending.first).to_contain_text("+720")
        expect(page.locator(".total.provisional .total-points")).to_have_text(["705", "660"])
        expect(page.locator(".next-deal")).to_have_text("Deal 3 · Boris deals")

        # Deal 3 on top of it: five red threes, which the server will refuse.
        page.get_by_role("link", name="Record deal 3").tap()
        expect(page.locator("h1.deal-title")).to_have_text("Deal 3 · Boris dealt")
        expect(page.locator(".totals .total-points")).to_have_text(["705", "660"])
        modest_deal(page, "We", "200", "0", "30")
        tap_more(page, "Red threes", "We", 3)
        tap_more(page, "Red threes", "They", 2)
        tap(page.get_by_role("button", name="Save deal 3"))
        expect(pending).to_have_count(2)
        shot(page, "offline-sheet-two-pending")
    finally:
        page.context.set_offline(False)

    # Back online: deal 2 goes; deal 3 comes back to its form with the server's words.
    expect(page.locator("#err-sides-1-red_threes")).to_contain_text(
        "only 4 red threes", timeout=20_000
    )
    expect(page.locator("#offline-note")).to_contain_text("the server refused this deal")
    expect(page.locator("#sides-0-meld_points")).to_have_value("200")
    expect(page.get_by_role("button", name="Save deal 3")).to_be_visible()
    shot(page, "offline-refused-back-in-form")
    assert deals_on_server(page, live_server) == [[750, -60], [-45, 720]]
    # The queue asked for JSON, and stopped on the refusal it answered. Deal 2 went first:
    # 201; on a busy machine the page can move on (the reload back online) before an
    # answer arrives, and the next load sends the deal again under its key: deal 2's
    # repeat is answered 200 and recorded once (deals_on_server above), deal 3's is
    # refused again.
    statuses = [status for status, _ in queued]
    refused_from = statuses.index(422) if 422 in statuses else len(statuses)
    assert statuses[:refused_from] in ([201], [200], [201, 200]), statuses
    assert statuses[refused_from:] and set(statuses[refused_from:]) == {422}, statuses
    refusal = queued[-1][1]
    if refusal is not None:  # its words are on the form above either way
        assert list(refusal["fields"]) == ["sides-1-red_threes"]
        assert "only 4 red threes" in refusal["error"]

    # Fixed (They had no red threes) and saved: recorded once, as deal 3.
    tap(page.get_by_role("button", name="Red threes, They: one fewer"))
    tap(page.get_by_role("button", name="Red threes, They: one fewer"))
    htmx_ready(page)
    tap(page.get_by_role("button", name="Save deal 3"))
    expect(page.locator(".flash")).to_contain_text("Deal 3 saved.")
    expect(page.locator("tr.pending")).to_have_count(0)
    # 200 + 500 + 100 + 300 (three red threes) = 1100; They -30.
    assert deals_on_server(page, live_server) == [[750, -60], [-45, 720], [1100, -30]]
    expect(page.locator(".total-points")).to_have_text(["1,805", "630"])

    # The game goes on to its end online: two concealed deals of 2295 for We.
    for number in (4, 5):
        big_concealed_deal(page, number)
    expect(page.locator(".winner h2")).to_have_text("We win with 6,395")
    assert len(deals_on_server(page, live_server)) == 5
    shot(page, "offline-game-won")


#: Whether the service worker's copy of a page (its address) holds some words yet: it
#: keeps a sheet, then its deal form, in the background, after the page has its answer.
KEPT_PAGE_SAYS = """async ([path, words]) => {
  const kept = await caches.match(path, { ignoreVary: true });
  return !!kept && (await kept.text()).includes(words);
}"""


def test_the_server_out_of_reach_with_the_wifi_up(
    phone: Page, live_server: str, door: Door
) -> None:
    """The laptop running the server sleeps, the phone's Wi-Fi stays up: navigator.onLine
    says "online" all along (issue 40), and the page goes by what the server answers. The
    banner shows, the deals typed wait and number on, the live line is provisional; when
    the server answers again the banner goes and each deal is recorded once."""
    page = phone
    page.clock.install()  # the kept sheet's poll is made due, not waited for
    start_classic(page, door.url)
    worker_ready(page)
    banner = page.locator(".offline-banner")
    page.get_by_role("link", name="Record deal 1").tap()  # the phone keeps the form
    htmx_ready(page)
    modest_deal(page, "We", "150", "0", "60")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".total-points")).to_have_text(["750", "-60"])
    expect(banner).to_be_hidden()
    sheet = urlsplit(page.url).path
    page.wait_for_function(KEPT_PAGE_SAYS, arg=[sheet, "Deal 2"])
    page.wait_for_function(KEPT_PAGE_SAYS, arg=[sheet + "/deals/new", "Save deal 2"])

    door.shut()
    page.get_by_role("link", name="Record deal 2").tap()
    expect(page.locator("h1.deal-title")).to_have_text("Deal 2 · Vera dealt")
    expect(banner).to_be_visible()
    modest_deal(page, "They", "120", "0", "45")
    expect(page.locator("#preview")).to_contain_text("Provisional (no connection)")
    expect(page.locator("#preview")).to_contain_text("They +720 → 660")
    tap(page.get_by_role("button", name="Save deal 2"))

    pending = page.locator("tr.pending:not(.pending-note)")
    expect(pending).to_have_count(1)
    expect(page.locator("tr.pending-note")).to_contain_text("Waiting for the connection")
    expect(pending.first).to_contain_text("705")  # 750 - 45
    expect(page.locator(".total.provisional .total-points")).to_have_text(["705", "660"])
    expect(page.locator(".next-deal")).to_have_text("Deal 3 · Boris deals")
    expect(banner).to_be_visible()
    # The scorer's phone: its record button, and no "you are following" under it (part 3).
    expect(page.get_by_role("link", name="Record deal 3")).to_be_visible()
    expect(page.locator(".following-note")).to_be_hidden()
    shot(page, "offline-sheet-waiting")

    # Deal 3 on top of the one waiting: its number, its dealer, the totals with deal 2.
    page.get_by_role("link", name="Record deal 3").tap()
    expect(page.locator("h1.deal-title")).to_have_text("Deal 3 · Boris dealt")
    expect(page.get_by_role("button", name="Save deal 3")).to_be_visible()
    expect(page.locator(".totals .total-points")).to_have_text(["705", "660"])
    expect(banner).to_be_visible()
    modest_deal(page, "We", "200", "0", "30")
    expect(page.locator("#preview")).to_contain_text("Provisional (no connection)")
    expect(page.locator("#preview")).to_contain_text("We +800 → 1,505")
    tap(page.get_by_role("button", name="Save deal 3"))
    expect(pending).to_have_count(2)
    assert page.evaluate("navigator.onLine") is True  # the browser never knew
    assert deals_on_server(page, live_server) == [[750, -60]]

    door.open()  # the server answers the kept sheet's next poll: each deal goes, once
    page.clock.fast_forward(POLL_MS)
    # The server's own sheet at last: the phone's provisional one shows the same figures
    # (and "Record deal 4") while the deals are still on their way.
    server_totals = page.locator(".totals:not(:has(.provisional)) .total-points")
    expect(server_totals).to_have_text(["1,505", "630"], timeout=30_000)
    expect(page.locator("tr.pending")).to_have_count(0)
    expect(banner).to_be_hidden()
    expect(page.get_by_role("link", name="Record deal 4")).to_be_visible()
    assert deals_on_server(page, live_server) == [[750, -60], [-45, 720], [800, -30]]


#: The service worker's copy of a page (its address), as text.
KEPT_TEXT = """async (path) => {
  const kept = await caches.match(path, { ignoreVary: true });
  return kept ? await kept.text() : null;
}"""
#: Put a page's copy back as it was (``[path, text]``): the newer one never got kept.
KEEP_OLD = """async ([path, text]) => {
  const cache = await caches.open((await caches.keys()).find((n) => n.startsWith("pages-")));
  await cache.put(path, new Response(text, { headers: { "Content-Type": "text/html" } }));
}"""


def test_a_kept_sheet_older_than_the_last_one_seen_counts_from_the_last_one(
    phone: Page, live_server: str, door: Door
) -> None:
    """Deal 1 saved online, then the server gone before the service worker kept the
    sheet with it: the deal saved next, with no answer, is deal 2 on the kept copy, its
    totals from the last sheet the phone saw (750, -60), and Boris deals deal 3."""
    page = phone
    start_classic(page, door.url)
    worker_ready(page)
    sheet = urlsplit(page.url).path
    page.wait_for_function(KEPT_PAGE_SAYS, arg=[sheet, "Deal 1"])
    before = page.evaluate(KEPT_TEXT, sheet)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    modest_deal(page, "We", "150", "0", "60")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".total-points")).to_have_text(["750", "-60"])
    page.wait_for_function(KEPT_PAGE_SAYS, arg=[sheet + "/deals/new", "Save deal 2"])
    page.evaluate(KEEP_OLD, [sheet, before])

    door.shut()
    page.get_by_role("link", name="Record deal 2").tap()
    expect(page.locator("h1.deal-title")).to_have_text("Deal 2 · Vera dealt")
    modest_deal(page, "They", "120", "0", "45")
    tap(page.get_by_role("button", name="Save deal 2"))
    pending = page.locator("tr.pending:not(.pending-note)")
    expect(pending).to_have_count(1)
    expect(pending.first.locator("th")).to_have_text("2")
    expect(page.locator(".total.provisional .total-points")).to_have_text(["705", "660"])
    expect(page.locator(".next-deal")).to_have_text("Deal 3 · Boris deals")
    expect(page.get_by_role("link", name="Record deal 3")).to_be_visible()
    door.open()


def test_a_deal_whose_answer_is_lost_is_recorded_once(phone: Page, live_server: str) -> None:
    """The deal reaches the server but its answer never comes back: kept on the phone
    and sent again, it is recorded once (its key)."""
    page = phone
    start_classic(page, live_server)
    type_a_plain_deal(page)

    def lose_answer(route: Any) -> None:
        if route.request.method == "POST" and route.request.url.endswith("/deals/new"):
            route.fetch(max_redirects=0)  # the server records it ...
            # ... and the phone never hears. On a slow machine the phone may have given
            # up waiting first (the route is then handled): the answer is lost either way.
            with contextlib.suppress(PlaywrightError):
                route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/*", lose_answer)
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator("tr.pending:not(.pending-note)")).to_have_count(1)
    shot(page, "deal-answer-lost")
    page.unroute("**/*", lose_answer)
    page.reload()  # the next page load sends it again
    expect(page.locator("tr.pending")).to_have_count(0)
    expect(page.locator(".total-points")).to_have_text(["130", "55"])  # 150-20, 90-35
    assert deals_on_server(page, live_server) == [[130, 55]]


def test_back_asks_on_a_half_filled_deal_and_skips_a_spent_one(
    phone: Page, live_server: str
) -> None:
    page = phone
    start_classic(page, live_server)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-0-meld_points").fill("150")

    questions: list[str] = []

    def answer(no: bool) -> None:
        def handle(dialog: Any) -> None:
            questions.append(dialog.message)
            dialog.dismiss() if no else dialog.accept()

        page.once("dialog", handle)

    # Back, then "stay": the figures are still there.
    answer(no=True)
    page.go_back()
    expect(page).to_have_url(re.compile(r"/deals/new$"))
    expect(page.locator("#sides-0-meld_points")).to_have_value("150")
    assert questions == ["Leave this deal without saving it?"]  # Cancel's own question
    shot(page, "back-stayed")

    # Back, then "leave": the sheet.
    answer(no=False)
    page.go_back()
    expect(page.locator(".next-deal")).to_have_text("Deal 1 · Ana deals")
    assert len(questions) == 2

    # After a save, Back does not land on the spent form.
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-0-meld_points").fill("150")
    page.locator("#sides-1-hand_points").fill("35")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    page.go_back()
    expect(page.locator("form.deal-form")).to_have_count(0)
    expect(page.locator(".total-points")).to_have_text(["150", "-35"])
    expect(page.locator(".next-deal")).to_contain_text("Deal 2")
    shot(page, "back-after-save")
    assert len(questions) == 2


def test_two_phones_offline_both_deals_recorded(phone: Page, live_server: str) -> None:
    """Two phones keep the same game, both offline for a deal: back online, both deals
    are recorded, with consecutive numbers."""
    page = phone
    start_classic(page, live_server)
    sheet_url = page.url
    secret_page = page.request.get(sheet_url + "/scorer-code").text()
    secret = re.search(r"/join#([\w-]+)", secret_page)
    assert secret
    other_context = page.context.browser.new_context(  # type: ignore[union-attr]
        viewport=page.viewport_size, is_mobile=True, has_touch=True
    )
    try:
        other = other_context.new_page()
        other.goto(f"{sheet_url}/join#{secret.group(1)}")
        other.get_by_role("button", name="Keep score here").tap()
        expect(other.get_by_role("link", name="Record deal 1")).to_be_visible()
        for phone_page in (page, other):
            worker_ready(phone_page)
            phone_page.get_by_role("link", name="Record deal 1").tap()  # the phone keeps it
            htmx_ready(phone_page)
            phone_page.get_by_role("link", name="Cancel").tap()
            expect(phone_page.locator(".total-points")).to_have_count(2)
        for phone_page, meld in ((page, "150"), (other, "90")):
            phone_page.context.set_offline(True)
            phone_page.get_by_role("link", name="Record deal 1").tap()
            expect(phone_page.locator("h1.deal-title")).to_contain_text("Deal 1")
            phone_page.locator("#sides-0-meld_points").fill(meld)
            tap(phone_page.get_by_role("button", name="Save deal 1"))
            expect(phone_page.locator("tr.pending:not(.pending-note)")).to_have_count(1)
        for phone_page in (page, other):
            phone_page.context.set_offline(False)
            # Sent and forgotten: the phone notes no deal waiting any more.
            phone_page.wait_for_function(
                "() => !localStorage.getItem('pendingDeals')", timeout=20_000
            )
        assert sorted(deals_on_server(page, live_server)) == [[90, 0], [150, 0]]
        page.reload()
        expect(page.locator("table.sheet tbody th")).to_have_text(["1", "2"])
        expect(page.locator(".total-points")).to_have_text(["240", "0"])
    finally:
        other_context.close()
