"""The offline copy a phone keeps never holds a game's secret (issue 16, "Trust, second
round"): the service worker's caches are read from the page, as anyone holding the phone
could read them."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from .conftest import back_online, browser_says_online, shot, tap
from .helpers import htmx_ready, scorer_link, start_classic

#: Everything the service worker's caches hold: each entry's cache, address, the headers
#: kept with its request and its answer, and the answer's text.
KEPT = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      kept.push({
        cache: name,
        url: request.url,
        requestHeaders: [...request.headers].map(h => h.join(": ")).join("\\n"),
        headers: [...response.headers].map(h => h.join(": ")).join("\\n"),
        text: await response.text(),
      });
    }
  }
  return kept;
}"""


def side(meld: int, hand: int, red_threes: int = 0) -> dict[str, Any]:
    return {
        "meld_points": meld,
        "natural_canastas": 0,
        "mixed_canastas": 0,
        "red_threes": red_threes,
        "went_out": False,
        "concealed": False,
        "hand_points": hand,
    }


#: A deal for the sheet to show: We 150 + 200 (two red threes) - 85 = 265, They 90 - 20 = 70.
DEAL = {"results": [side(150, 85, red_threes=2), side(90, 20)]}


def kept(page: Page) -> list[dict[str, str]]:
    entries: list[dict[str, str]] = page.evaluate(KEPT)
    return entries


def wait_until_kept(page: Page, path: str, *, timeout: float = 10.0) -> dict[str, str]:
    """The kept copy of ``path`` once the worker has stored one (it stores in the
    background, after the page has its answer)."""
    deadline = time.monotonic() + timeout
    while True:
        # The page itself: not another answer whose address ends alike (a QR code's image,
        # /code.svg?path=/games/...).
        found = [entry for entry in kept(page) if urlsplit(entry["url"]).path == path]
        if found:
            return found[0]
        if time.monotonic() > deadline:
            raise AssertionError(f"no kept copy of {path}: {[e['url'] for e in kept(page)]}")
        time.sleep(0.1)


def under_the_worker(page: Page) -> None:
    """Let the service worker install and take control, and load the page through it."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def scorer_game(page: Page, live_server: str) -> tuple[str, str]:
    """A game started on this phone (its scorer), one deal on its sheet: (path, secret)."""
    start_classic(page, live_server)
    link = scorer_link(page)
    assert "#" in link, link
    secret = link.split("#", 1)[1]
    path = page.url.removeprefix(live_server)
    status = page.evaluate(
        """([path, secret, deal]) => fetch("/api" + path + "/deals", {
             method: "POST",
             headers: {"Authorization": "Bearer " + secret, "Content-Type": "application/json"},
             body: JSON.stringify(deal),
           }).then(r => r.status)""",
        [path, secret, DEAL],
    )
    assert status == 201
    page.reload()
    expect(page.locator(".total-points")).to_have_text(["265", "70"])
    return path, secret


def assert_no_secret(entries: list[dict[str, str]], secret: str, path: str) -> None:
    for entry in entries:
        where = f"{entry['cache']} {entry['url']}"
        for part in ("url", "requestHeaders", "headers", "text"):
            assert secret not in entry[part], f"the secret is kept in {where} ({part})"
        assert f"{path}/join#" not in entry["text"], f"a scorer link is kept in {where}"
        assert "secret-link" not in entry["text"], f"the share panel is kept in {where}"


def test_the_scorers_offline_sheet_holds_no_secret(phone: Page, live_server: str) -> None:
    """The scorer's sheet, kept for offline use, is the follower's view: totals, deals and
    who deals, but no share panel and no scorer link; offline it still opens."""
    page = phone
    page.clock.install()  # the offline copy's poll is made due (back_online)
    browser_says_online(page)  # as Debian's Chromium 150 does after an offline reload
    path, secret = scorer_game(page, live_server)
    under_the_worker(page)
    expect(page.locator(".secret-link")).to_have_count(1)  # online: the scorer's own page
    copy = wait_until_kept(page, path)
    assert "265" in copy["text"] and "Deal 2" in copy["text"]
    assert_no_secret(kept(page), secret, path)

    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.locator(".total-points")).to_have_text(["265", "70"])
        expect(page.locator(".next-deal")).to_contain_text("Deal 2")
        expect(page.locator(".offline-banner")).to_be_visible()
        expect(page.locator(".secret-link")).to_have_count(0)
        expect(page.locator(".following-note")).to_be_hidden()  # it is the scorer's phone
        shot(page, "sheet-offline-scorer")
    finally:
        page.context.set_offline(False)
    back_online(page, clock=True)
    expect(page.get_by_role("link", name="Record deal 2")).to_be_visible()


def test_the_offline_sheet_speaks_the_players_language(phone: Page, live_server: str) -> None:
    """The kept copy is asked for with the phone's cookies (all but the secret's use): in
    the language the player chose."""
    page = phone
    page.clock.install()  # the offline copy's poll is made due (back_online)
    path, secret = scorer_game(page, live_server)
    under_the_worker(page)
    page.get_by_role("link", name="Македонски").tap()
    expect(page.locator("html")).to_have_attribute("lang", "mk")
    deadline = time.monotonic() + 10
    while 'lang="mk"' not in wait_until_kept(page, path)["text"]:
        assert time.monotonic() < deadline, "the kept copy stayed in English"
        time.sleep(0.1)
    assert_no_secret(kept(page), secret, path)
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "mk")
        expect(page.locator(".total-points")).to_have_count(2)
    finally:
        page.context.set_offline(False)
    back_online(page, clock=True)


def test_a_deal_saved_from_the_form_is_in_the_offline_copy(phone: Page, live_server: str) -> None:
    """The saved deal's sheet comes back by a redirect the worker does not see; the page
    asks it to keep that sheet, so offline the scorer sees the deal just saved."""
    page = phone
    page.clock.install()  # the offline copy's poll is made due (back_online)
    path, secret = scorer_game(page, live_server)
    under_the_worker(page)
    wait_until_kept(page, path)
    page.get_by_role("link", name="Record deal 2").tap()
    htmx_ready(page)
    page.locator("#sides-0-meld_points").fill("120")
    page.locator("#sides-0-hand_points").fill("20")
    page.locator("#sides-1-meld_points").fill("90")
    page.locator("#sides-1-hand_points").fill("35")
    tap(page.get_by_role("button", name="Save deal 2"))
    expect(page.locator(".flash")).to_contain_text("Deal 2 saved.")
    deadline = time.monotonic() + 10
    while "Deal 3" not in (copy := wait_until_kept(page, path))["text"]:
        assert time.monotonic() < deadline, "the kept copy lacks the deal just saved"
        time.sleep(0.1)
    assert "Deal 2 saved" not in copy["text"]  # the scorer's page showed that, once
    assert_no_secret(kept(page), secret, path)
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.locator(".next-deal")).to_contain_text("Deal 3")
    finally:
        page.context.set_offline(False)
    back_online(page, clock=True)


def test_answers_marked_no_store_are_never_kept(phone: Page, live_server: str) -> None:
    """No kept answer is one the server marked ``no-store`` (the scorer's sheet, the join
    page a secret is pasted into); neither the API's answers (a new game's token)."""
    page = phone
    path, secret = scorer_game(page, live_server)
    under_the_worker(page)
    wait_until_kept(page, path)
    # A copy kept before the page was marked no-store goes when the page is next seen.
    page.evaluate(
        """([path, secret]) => caches.open("pages-v3").then(cache => cache.put(
             path + "/join", new Response(secret, {headers: {"Content-Type": "text/html"}})))""",
        [path, secret],
    )
    # The scorer link as another phone would open it: the secret in the address.
    page.goto(f"{live_server}{path}/join#{secret}")
    expect(page.locator("input[data-join-token]")).to_have_value(secret)
    created: dict[str, Any] = page.evaluate(
        """() => fetch("/api/games", {
             method: "POST",
             headers: {"Content-Type": "application/json"},
             body: JSON.stringify({variant: "classic", sides: [{name: "A"}, {name: "B"}]}),
           }).then(r => r.json())"""
    )
    assert created["token"]
    page.goto(live_server + "/")  # a page the worker keeps, after the others
    wait_until_kept(page, "/")

    entries = kept(page)
    for entry in entries:
        assert "no-store" not in entry["headers"].lower(), entry["url"]
        assert "/api/" not in entry["url"], entry["url"]
        assert "/join" not in entry["url"], entry["url"]
        assert created["token"] not in entry["text"], entry["url"]
    assert_no_secret(entries, secret, path)


def test_copies_an_earlier_worker_kept_are_dropped(phone: Page, live_server: str) -> None:
    """Earlier workers kept the scorer's sheet whole, secret and all: once this one is
    active, those caches are gone."""
    page = phone
    # A page that does not start the worker (it has no scripts) to put the old cache in.
    page.goto(live_server + "/static/icon.svg")
    page.evaluate(
        """() => caches.open("pages-v2").then(cache => cache.put(
             "/games/old", new Response('<p class="secret-link">/games/old/join#s3cret</p>',
                                        {headers: {"Content-Type": "text/html"}})))"""
    )
    page.goto(live_server + "/")
    under_the_worker(page)
    deadline = time.monotonic() + 10
    while "pages-v2" in page.evaluate("caches.keys()"):
        assert time.monotonic() < deadline, "the earlier worker's pages are still kept"
        time.sleep(0.1)
    assert all("s3cret" not in entry["text"] for entry in kept(page))
