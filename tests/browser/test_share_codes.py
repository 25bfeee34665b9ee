"""Phones at the table join in one scan (issue 22): the share panel's QR codes, read back
from screenshots as a phone's camera would (zxing-cpp), in light and dark."""

from __future__ import annotations

import re

from playwright.sync_api import Page, Request, expect

from ..helpers.qr import decode_png
from .conftest import PHONE, shot, tap
from .helpers import start_classic


def open_share_panel(page: Page) -> None:
    tap(page.get_by_text("Share this game", exact=True))
    code = page.locator(".share .qr-code").first
    expect(code).to_be_visible()
    # The image has arrived and been drawn (it loads once the panel opens).
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=code.element_handle())


def test_share_panel_codes_scan_to_the_follower_and_scorer_links(
    phone: Page, live_server: str
) -> None:
    page = phone
    asked: list[str] = []

    def note(request: Request) -> None:
        asked.append(request.url)

    page.on("request", note)
    start_classic(page, live_server)
    game_url = page.url.split("#")[0]
    secret_part = f"{game_url}/join#"
    html = page.content()
    assert "/join#" not in html and "qr-svg" not in html  # no secret before the tap
    assert not any("/code.svg" in url for url in asked), "loaded before the panel opened"

    open_share_panel(page)
    panel = page.locator("details.share").first
    expect(panel.locator("figcaption a").first).to_have_text(game_url)
    expect(page.locator(".secret-link svg")).to_have_count(0)
    expect(panel.get_by_text("Whoever scans this code can record")).to_be_visible()
    panel.scroll_into_view_if_needed()
    shot(page, "share-panel")
    follower = page.locator(".share img.qr-code")
    assert decode_png(follower.screenshot()) == [game_url]
    # The whole screen as a camera sees it: one code, the follower's.
    assert decode_png(page.screenshot()) == [game_url]

    tap(page.get_by_role("button", name="Show the scorer code"))
    scorer = page.locator(".secret-link .qr-code")
    expect(scorer).to_be_visible()
    link = page.locator(".secret-link figcaption a").get_attribute("href") or ""
    assert link.startswith(secret_part) and len(link) > len(secret_part), link
    scorer.scroll_into_view_if_needed()
    shot(page, "share-panel-scorer")
    assert decode_png(scorer.screenshot()) == [link]
    assert page.url.split("#")[0] == game_url  # the code came into the page, no navigation

    # A phone that scans the follower code opens the game's sheet, read only; one that
    # scans the scorer code lands on the same sheet and keeps score.
    scheme = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    for scanned, scores in ((game_url, False), (link, True)):
        other = page.context.browser.new_context(  # type: ignore[union-attr]
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            color_scheme="dark" if scheme else "light",
        )
        try:
            table = other.new_page()
            table.goto(scanned)
            if scores:
                table.get_by_role("button", name="Keep score here").tap()
            expect(table).to_have_url(re.compile(f"^{re.escape(game_url)}$"))
            expect(table.locator(".total-points")).to_have_count(2)
            expect(table.get_by_role("link", name="Record deal 1")).to_have_count(int(scores))
        finally:
            other.close()


def test_a_follower_shares_the_follower_code_only(phone: Page, live_server: str) -> None:
    page = phone
    start_classic(page, live_server)
    game_url = page.url.split("#")[0]
    follower = page.context.browser.new_context(  # type: ignore[union-attr]
        viewport=PHONE, is_mobile=True, has_touch=True
    )
    try:
        other = follower.new_page()
        other.goto(game_url)
        open_share_panel(other)
        expect(other.locator(".secret-link")).to_have_count(0)
        expect(other.get_by_role("button", name="Show the scorer code")).to_have_count(0)
        assert decode_png(other.locator(".share img.qr-code").screenshot()) == [game_url]
        # Asked for anyway, the scorer code is refused.
        answer = other.request.get(game_url + "/scorer-code")
        assert answer.status == 403
    finally:
        follower.close()


def test_rule_pages_tools_and_history_share_their_address(phone: Page, live_server: str) -> None:
    page = phone
    for path in ("/rules/classic", "/check/meld?variant=classic-2", "/history?variant=railroad"):
        page.goto(live_server + path)
        tap(page.get_by_text("Share this page", exact=True))
        code = page.locator(".share img.qr-code")
        expect(code).to_be_visible()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=code.element_handle()
        )
        expect(page.locator(".share figcaption a")).to_have_text(live_server + path)
        assert decode_png(code.screenshot()) == [live_server + path], path
    shot(page, "share-history")
