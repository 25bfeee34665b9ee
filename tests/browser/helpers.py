"""What several browser tests do on the phone: start a game, tap the steppers, find the links."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, Request, expect

from .conftest import settled, shot, tap


class Requests:
    """The page's requests in flight, counted from the test's first step, to wait for an
    answered page (``answered``) without Playwright's "networkidle", which sits 500 ms
    after the last answer on every page."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.in_flight: set[Request] = set()
        self.last = time.monotonic()
        page.on("request", self._sent)
        page.on("requestfinished", self._done)
        page.on("requestfailed", self._done)

    def _sent(self, request: Request) -> None:
        self.in_flight.add(request)
        self.last = time.monotonic()

    def _done(self, request: Request) -> None:
        self.in_flight.discard(request)
        self.last = time.monotonic()

    def answered(self, quiet_ms: int = 100, timeout_ms: int = 10_000) -> None:
        """The page has loaded, every request it made has its answer, and none went out for
        ``quiet_ms`` after the last (a swap's next request starts within a frame of it)."""
        self.page.wait_for_load_state("load")
        deadline = time.monotonic() + timeout_ms / 1000
        while self.in_flight or time.monotonic() - self.last < quiet_ms / 1000:
            if time.monotonic() > deadline:
                waiting = [request.url for request in self.in_flight]
                raise AssertionError(f"{self.page.url}: requests still unanswered: {waiting}")
            self.page.wait_for_timeout(20)  # Playwright hands over the page's events meanwhile


def htmx_ready(page: Page) -> None:
    """Wait until htmx has wired up the deal form (a swapped-in page settles first) and
    its own code (static/deal.js) has loaded."""
    page.wait_for_function(
        "() => { const t = document.querySelector('form.deal-form .preview-trigger');"
        " return t && t['htmx-internal-data'] !== undefined && window.dealCode; }"
    )


def start_classic(page: Page, live_server: str) -> None:
    """A classic game, We and They, Ana Vera Boris Goran around the table, on its sheet."""
    start_game(page, live_server)


def start_game(page: Page, live_server: str, rule_set: str | None = None) -> None:
    """A game of ``rule_set`` (a rule-set button's name; classic when None) for We (Ana,
    Boris) and They (Vera, Goran), Ana dealing first, on its sheet."""
    page.goto(live_server + "/games/new")
    if rule_set:
        page.get_by_role("link", name=rule_set, exact=True).tap()
        expect(page.locator(".variant-pick .is-current").first).to_have_text(rule_set)
        settled(page)
    page.get_by_label("Side 1", exact=True).fill("We")
    page.get_by_label("Side 2", exact=True).fill("They")
    for seat, name in enumerate(["Ana", "Vera", "Boris", "Goran"]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-points")).to_have_count(2)


def tap_more(page: Page, label: str, side: str, times: int = 1) -> None:
    for _ in range(times):
        tap(page.get_by_role("button", name=f"{label}, {side}: one more"))


def type_a_plain_deal(page: Page) -> None:
    """From the sheet, deal 1 typed (not saved): We 150 - 20, They 90 - 35, nobody out."""
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-0-meld_points").fill("150")
    page.locator("#sides-0-hand_points").fill("20")
    page.locator("#sides-1-meld_points").fill("90")
    page.locator("#sides-1-hand_points").fill("35")


def type_cases_a_and_b(page: Page) -> None:
    """RULES.md section 8, case A for We (out) and most of case B for They: the taps and
    figures up to They's own points."""
    page.locator("label.segment", has_text="We").tap()
    tap_more(page, "Natural canastas", "We")
    tap_more(page, "Mixed canastas", "We")
    tap_more(page, "Red threes", "We")
    page.locator("#sides-0-meld_points").fill("220")
    page.locator("#sides-0-hand_points").fill("10")
    tap_more(page, "Red threes", "They", 2)


def big_concealed_deal(page: Page, number: int) -> None:
    """RULES.md case D for We (2295), They hold 120: recorded as deal ``number``."""
    page.get_by_role("link", name=f"Record deal {number}").tap()
    page.locator("label.segment", has_text="We").tap()
    page.get_by_label("Went out concealed").check()
    tap_more(page, "Natural canastas", "We", 2)
    tap_more(page, "Red threes", "We", 4)
    page.locator("#sides-0-meld_points").fill("310")
    page.locator("#sides-0-hand_points").fill("15")
    page.locator("#sides-1-hand_points").fill("120")
    tap(page.get_by_role("button", name=f"Save deal {number}"))
    expect(page.locator(".flash")).to_contain_text(f"Deal {number} saved.")


def keypad_enter(page: Page) -> None:
    """The phone keypad's action key ("next", "done"), as Chrome on Android sends it: an
    Enter with no scan code, so with no ``code`` (ThreadedInputConnection's
    performEditorAction sends a synthetic KEYCODE_ENTER; a physical key has a code)."""
    cdp = page.context.new_cdp_session(page)
    enter = {"key": "Enter", "code": "", "windowsVirtualKeyCode": 13}
    cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "text": "\r", **enter})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **enter})
    cdp.detach()


def scorer_link(page: Page) -> str:
    """On the scorer's sheet: the scorer link, as its tap in the share panel shows it."""
    if not page.locator(".share").first.evaluate("details => details.open"):
        tap(page.get_by_text("Share this game", exact=True))
    tap(page.get_by_role("button", name="Show the scorer code"))
    link = page.locator(".secret-link figcaption a")
    expect(link).to_be_visible()
    return link.get_attribute("href") or ""


AXE = Axe()
#: What axe checks: every rule of WCAG 2.0 to 2.2 at A and AA, its best practices, and its
#: experimental rules, which it leaves out by default (label-content-name-mismatch and
#: p-as-heading are two; target-size, WCAG 2.2's, is off by default too).
AXE_RULES = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice",
                   "experimental"],
    },
    "resultTypes": ["violations"],
}  # fmt: skip


def violations(page: Page) -> list[str]:
    """axe's violations on the page as it is now, of every impact."""
    results = AXE.run(page, options=AXE_RULES)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']}: "
        + ", ".join(str(node["target"][0]) for node in violation["nodes"][:3])
        for violation in results.response["violations"]
    ]


def api_game(
    page: Page,
    live_server: str,
    players: list[str],
    *deals: object,
    variant: str = "classic",
    options: dict[str, object] | None = None,
    names: tuple[str, str] = ("Us", "Them"),
) -> tuple[str, str]:
    """A game made through the API, two sides (``names``: the first half of ``players``,
    then the rest), with ``deals`` recorded: its id and its secret."""
    half = len(players) // 2
    sides = [
        {"name": names[0], "players": players[:half]},
        {"name": names[1], "players": players[half:]},
    ]
    made = page.request.post(
        live_server + "/api/games",
        data={
            "variant": variant,
            "sides": sides,
            "options": {"target": 2000} if options is None else options,
        },
    )
    assert made.ok, made.text()
    body = made.json()
    for results in deals:
        posted = page.request.post(
            f"{live_server}/api/games/{body['id']}/deals",
            data={"results": results},
            headers={"Authorization": f"Bearer {body['token']}"},
        )
        assert posted.ok, posted.text()
    return str(body["id"]), str(body["token"])


def keep_score_here(page: Page, game_url: str, secret: str) -> None:
    """This phone becomes the game's scorer as its scorer link makes it (the join form sent
    with the secret), through the browser context's own requests: for a test whose subject
    is a page of the game, not the joining."""
    form = page.request.get(game_url + "/join")
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form.text())
    assert csrf, form.text()
    sent = page.request.post(
        game_url + "/join",
        form={"csrf_token": csrf.group(1), "token": secret, "device": ""},
        max_redirects=0,
    )
    assert sent.status == 302, sent.text()


CASE_A = {"meld_points": 220, "natural_canastas": 1, "mixed_canastas": 1, "red_threes": 1,
          "went_out": True, "hand_points": 10}  # fmt: skip


CASE_B = {"meld_points": 150, "red_threes": 2, "hand_points": 85}


def worker_ready(page: Page) -> None:
    """The service worker controls the page (it keeps the pages seen from now on)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def deals_on_server(page: Page, live_server: str) -> list[list[int]]:
    game_id = re.search(r"/games/([\w-]+)", page.url)
    assert game_id
    answer = page.request.get(f"{live_server}/api/games/{game_id.group(1)}")
    assert answer.ok
    return [[side["score"] for side in deal["results"]] for deal in answer.json()["deals"]]


def deal_2_saved_offline(
    page: Page,
    live_server: str,
    rule_set: str,
    type_deal: Callable[[Page], None],
    previews: list[str],
    totals: list[str],
    name: str,
) -> None:
    """A game of ``rule_set`` with deal 1 saved online (We 150 - 20, They 90 - 35), then
    deal 2 typed by ``type_deal`` with no connection: its provisional lines (``previews``)
    and ``totals`` while it waits, and the same totals from the server once it is back."""
    start_game(page, live_server, rule_set)
    worker_ready(page)
    type_a_plain_deal(page)
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".total-points")).to_have_text(["130", "55"])
    page.context.set_offline(True)
    try:
        page.get_by_role("link", name="Record deal 2").tap()
        expect(page.locator("h1.deal-title")).to_contain_text("Deal 2")
        type_deal(page)
        preview = page.locator("#preview")
        expect(preview).to_contain_text("Provisional (no connection)")
        for line in previews:
            expect(preview).to_contain_text(line)
        shot(page, name)
        tap(page.get_by_role("button", name="Save deal 2"))
        expect(page.locator("tr.pending:not(.pending-note)")).to_have_count(1)
        expect(page.locator(".total.provisional .total-points")).to_have_text(totals)
    finally:
        page.context.set_offline(False)
    # Back online the queue sends it: the sheet's figures are the server's, and the same.
    expect(page.locator(".total:not(.provisional) .total-points")).to_have_text(
        totals, timeout=20_000
    )
    expect(page.locator("tr.pending")).to_have_count(0)


# --- club evenings ---------------------------------------------------------------------

PAIRS = "Ana, Boris\nVera, Goran\nDana, Ivo\nMila, Petar\nZoe, Yan"
#: One deal: the first side out with a natural canasta, the second 50 in hand.
FIRST_WINS = [
    {"went_out": True, "natural_canastas": 1, "meld_points": 300, "hand_points": 0},
    {"meld_points": 100, "hand_points": 50},
]


def seated(page: Page, live_server: str, evening: str) -> list[dict[str, Any]]:
    """The round's tables with their scorer tokens (the director's read of the API, with the
    secret the director's link holds)."""
    link = page.request.get(evening + "/director-link").text()
    found = re.search(r'/join#([^"]+)"', link)
    assert found
    evening_id = evening.rsplit("/", 1)[1]
    body = page.request.get(
        f"{live_server}/api/evenings/{evening_id}",
        headers={"Authorization": f"Bearer {found.group(1)}"},
    ).json()
    return list(body["rounds"][-1]["tables"])


def deal(page: Page, live_server: str, table: dict[str, Any]) -> None:
    answer = page.request.post(
        f"{live_server}/api/games/{table['game']}/deals",
        data={"results": FIRST_WINS},
        headers={"Authorization": f"Bearer {table['token']}"},
    )
    assert answer.status == 201, answer.text()
