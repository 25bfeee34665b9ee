"""The scorer link's secret leaves the address bar for good once a phone has joined
(issue 17): the sheet, every later page and every history entry are without it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import PHONE, shot, tap
from .helpers import htmx_ready, scorer_link, start_classic

#: Every address this tab's history holds (Chromium's Navigation API), and every address
#: htmx's own history cache keeps in the phone's storage.
ADDRESSES = """() => [
  location.href,
  ...navigation.entries().map(entry => entry.url),
  ...JSON.parse(localStorage.getItem("htmx-history-cache") || "[]").map(item => item.url),
]"""


def test_the_secret_leaves_the_address_bar_after_joining(phone: Page, live_server: str) -> None:
    start_classic(phone, live_server)
    link = scorer_link(phone)
    match = re.search(r"/join#([\w-]+)", link)
    assert match, link
    secret = match.group(1)
    game_url = link.split("/join#")[0]
    scheme = phone.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    context = phone.context.browser.new_context(  # type: ignore[union-attr]
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        color_scheme="dark" if scheme else "light",
    )
    seen: list[str] = []
    try:
        page = context.new_page()
        page.on("framenavigated", lambda frame: seen.append(frame.url))

        def without_secret(where: str) -> None:
            assert secret not in page.evaluate("location.hash"), where
            for address in page.evaluate(ADDRESSES):
                assert secret not in address, f"{where}: {address}"

        page.goto(link)
        expect(page.locator("input[data-join-token]")).to_have_value(secret)
        without_secret("the join page")
        tap(page.get_by_role("button", name="Keep score here"))
        expect(page.get_by_role("link", name="Record deal 1")).to_be_visible()
        assert page.url == game_url
        without_secret("the sheet after joining")
        shot(page, "joined-sheet")

        tap(page.get_by_role("link", name="Record deal 1"))
        htmx_ready(page)
        without_secret("the deal form")
        page.go_back()
        expect(page.get_by_role("link", name="Record deal 1")).to_be_visible()
        assert page.url == game_url
        without_secret("back on the sheet")

        tap(page.get_by_role("link", name="Changes"))
        expect(page).to_have_url(game_url + "/changes")
        without_secret("the change log")
        tap(page.get_by_role("link", name="Canasta Scorekeeper: Home"))
        tap(page.get_by_role("link", name=re.compile(r"^All games")))
        expect(page).to_have_url(re.compile(r"/history"))
        without_secret("the history")
        for step in ("home", "change log", "sheet", "join page"):
            page.go_back()
            page.wait_for_load_state()
            without_secret(f"back to the {step}")
        expect(page).to_have_url(game_url + "/join")
        page.go_forward()
        expect(page).to_have_url(game_url)
        without_secret("forward to the sheet")
    finally:
        context.close()
    # Only the scorer link itself, as it was opened, ever held the secret.
    assert [url for url in seen if secret in url] == [link]
