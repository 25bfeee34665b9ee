"""Undo anything, on a phone: a deal edited and another deleted, both undone from the
game's change log, and the game deleted and restored (CSRF on, the real server)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import fits, shot, tap
from .helpers import htmx_ready, start_classic, tap_more


def record(page: Page, number: int, we_meld: str, they_meld: str) -> None:
    """Deal ``number``: We go out with a mixed canasta; both sides meld, nothing in hand."""
    page.get_by_role("link", name=f"Record deal {number}").tap()
    htmx_ready(page)
    page.locator("label.segment", has_text="We").tap()
    tap_more(page, "Mixed canastas", "We")
    page.locator("#sides-0-meld_points").fill(we_meld)
    page.locator("#sides-1-meld_points").fill(they_meld)
    tap(page.get_by_role("button", name=f"Save deal {number}"))
    expect(page.locator(".flash")).to_contain_text(f"Deal {number} saved.")


def test_undo_an_edit_and_a_delete_then_delete_and_restore_the_game(
    phone: Page, live_server: str
) -> None:
    page = phone
    start_classic(page, live_server)
    # Deal 1: We 300 + 100 + 100 = 500, They 50. Deal 2: We 300 + 100 + 200 = 600, They 100.
    record(page, 1, "100", "50")
    record(page, 2, "200", "100")
    expect(page.locator(".total-points")).to_have_text(["1,100", "150"])

    # Edit deal 1: They melded 90, not 50.
    page.get_by_role("link", name="Edit deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-1-meld_points").fill("90")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".flash")).to_contain_text("Deal 1 changed.")
    expect(page.locator(".total-points")).to_have_text(["1,100", "190"])

    # Delete deal 2.
    page.get_by_role("link", name="Edit deal 2").tap()
    page.get_by_role("link", name="Delete deal 2").tap()
    page.get_by_role("button", name="Undo deal 2").tap()  # the last deal: "undo" it
    expect(page.locator(".flash")).to_contain_text("Deal 2 deleted.")
    expect(page.locator(".total-points")).to_have_text(["500", "90"])

    # The change log, newest first: who, what, and Undo for each.
    page.get_by_role("link", name="Changes").tap()
    titles = page.locator(".change-title")
    expect(titles.nth(0)).to_contain_text("Deal 2 deleted")
    expect(titles.nth(1)).to_contain_text("Deal 1 edited")
    expect(page.locator(".change").nth(1)).to_contain_text("They, Melded points 50 → 90")
    expect(page.locator(".change-meta").first).to_contain_text("Chrome")
    shot(page, "change-log")

    # Undo the edit (older), then the deletion: deal 2 comes back at its number.
    page.locator(".change").nth(1).get_by_role("button", name="Undo").tap()
    expect(page.locator(".flash")).to_contain_text("Undone: deal 1 edited.")
    expect(page.locator(".change").nth(2)).to_have_class("change change-undone")
    page.locator(".change", has_text="Deal 2 deleted").get_by_role("button", name="Undo").tap()
    expect(page.locator(".flash")).to_contain_text("Undone: deal 2 deleted.")
    shot(page, "change-log-undone")
    page.get_by_role("link", name="Back to the score sheet").tap()
    expect(page.locator(".total-points")).to_have_text(["1,100", "150"])
    expect(page.get_by_role("link", name="Edit deal 2")).to_be_visible()

    # Delete the game, with a question first; the home page offers Undo.
    game_url = page.url
    page.get_by_role("link", name="Delete the game").tap()
    shot(page, "delete-game")
    page.get_by_role("button", name="Delete the game").tap()
    expect(page.locator(".flash")).to_contain_text("Game deleted.")
    expect(page.locator(f'a[href="{game_url.removeprefix(live_server)}"]')).to_have_count(0)
    shot(page, "home-game-deleted")

    # The history lists it under "Deleted games"; Restore brings it back as it was.
    page.goto(live_server + "/history")
    deleted = page.locator(".deleted-games")
    expect(deleted).to_contain_text("We 1,100 · They 150")
    shot(page, "history-deleted")
    deleted.get_by_role("button", name="Restore").first.tap()
    expect(page.locator(".flash")).to_contain_text("Game restored.")
    expect(page.locator(".total-points")).to_have_text(["1,100", "150"])
    assert page.url == game_url
    fits(page)
