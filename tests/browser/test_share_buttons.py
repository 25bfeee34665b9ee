"""Share and Download are buttons, and each link they show has a copy button beside it
(issue 17): the clipboard where the page may use it, the link's text selected elsewhere."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from .conftest import shot, tap
from .helpers import start_classic

#: A page without the asynchronous clipboard (as on a plain http address on the LAN) and
#: whose old-style copy fails too: the link's text is left selected.
NO_CLIPBOARD = """
Object.defineProperty(navigator, "clipboard", { value: undefined });
document.execCommand = () => false;
"""


def looks_like_a_button(target: Locator) -> None:
    """A big tap target with a border, across the page: not a heading."""
    box = target.bounding_box()
    assert box and box["height"] >= 48 and box["width"] >= 300, box
    border = target.evaluate("el => getComputedStyle(el).borderTopWidth")
    assert border == "2px", border


def clipboard(page: Page) -> str:
    text: str = page.evaluate("navigator.clipboard.readText()")
    return text


def test_share_and_download_are_buttons_and_links_copy(phone: Page, live_server: str) -> None:
    page = phone
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    start_classic(page, live_server)
    game_url = page.url
    share = page.locator("summary", has_text="Share this game")
    download = page.locator("summary", has_text="Download")
    looks_like_a_button(share)
    looks_like_a_button(download)
    expect(page.get_by_role("button", name="Copy")).to_have_count(0)  # in the closed panel

    tap(share)
    panel = page.locator("details.share").first
    follower = panel.locator("figcaption .copy-row").first
    expect(follower.get_by_role("link")).to_have_text(game_url)
    tap(follower.get_by_role("button", name="Copy"))
    expect(panel.get_by_role("status").first).to_have_text("Copied")
    assert clipboard(page) == game_url

    tap(page.get_by_role("button", name="Show the scorer code"))
    scorer = page.locator(".secret-link .copy-row")
    link = scorer.get_by_role("link").get_attribute("href") or ""
    assert link.startswith(game_url + "/join#"), link
    tap(scorer.get_by_role("button", name="Copy"))
    expect(page.locator(".secret-link").get_by_role("status")).to_have_text("Copied")
    assert clipboard(page) == link
    page.locator(".secret-link").scroll_into_view_if_needed()
    shot(page, "share-copied")

    tap(download)
    expect(page.get_by_role("link", name="Score sheet (CSV)")).to_be_visible()

    # The scorer-code page (without script's panel) has its copy button too.
    page.goto(game_url + "/scorer-code")
    tap(page.locator(".copy-row").get_by_role("button", name="Copy"))
    expect(page.get_by_role("status")).to_have_text("Copied")
    assert clipboard(page) == page.locator(".copy-row a").get_attribute("href")


def test_without_the_clipboard_the_link_is_selected(phone: Page, live_server: str) -> None:
    page = phone
    start_classic(page, live_server)
    game_url = page.url
    page.add_init_script(NO_CLIPBOARD)
    page.goto(live_server + "/language/mk?next=" + game_url.removeprefix(live_server))
    tap(page.locator("summary", has_text="Сподели"))
    tap(page.get_by_role("button", name="Копирај").first)
    expect(page.get_by_role("status").first).to_have_text(
        "Линкот е означен: копирај го преку менито на телефонот."  # noqa: RUF001
    )
    assert page.evaluate("getSelection().toString()") == game_url
    shot(page, "share-selected-mk")
