"""What a newcomer met at the table in sixteen deals at 390 px (issue 31, "At the table"):
who plays first, the rule tools' answers and hints, figures typed as the app writes them,
the first line of the change log, the words, the layout, and a quiet console offline."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import shot, tap
from .helpers import htmx_ready, settled

SEATS = ["Ana", "Vera", "Boris", "Goran"]


def badge_holders(page: Page, badge: str) -> list[str]:
    """The names at the seats of "Who sits where" that wear ``badge``."""
    seats = page.locator(".seats .table-seat").filter(
        has=page.locator(".table-badge", has_text=badge)
    )
    return seats.locator(".table-name").all_inner_texts()


def start_by_hand(page: Page, live_server: str, dealer: int, path: str = "/games/new") -> None:
    """A classic game with the seats typed by hand and seat ``dealer`` (from 0) dealing."""
    page.goto(live_server + path)
    for seat, name in enumerate(SEATS):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_label(f"Seat {dealer + 1} deals first").check()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-points")).to_have_count(2)


def test_the_dealers_left_plays_first_and_the_badges_follow_the_game(
    phone: Page, live_server: str
) -> None:
    """Seats typed by hand, the third seat dealing: the fourth plays first (seat 1 wore
    "plays first" whatever the dealer); after a deal both badges move one seat on."""
    page = phone
    start_by_hand(page, live_server, dealer=2)
    summary = page.locator(".seats > summary")
    # The ▾ its neighbours (Share this game, Download) have, and a tap opens it.
    marker = "el => getComputedStyle(el, '::after').content"
    assert "▾" in summary.evaluate(marker)
    assert summary.evaluate(marker) == page.locator(".share > summary").first.evaluate(marker)
    tap(summary)
    assert "▴" in summary.evaluate(marker)
    expect(page.locator(".seats .table-drawing")).to_be_visible()
    assert badge_holders(page, "plays first") == ["Goran"]
    assert badge_holders(page, "deals") == ["Boris"]
    shot(page, "who-sits-where")
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-0-meld_points").fill("150")
    page.locator("#sides-0-hand_points").fill("20")
    page.locator("#sides-1-meld_points").fill("90")
    page.locator("#sides-1-hand_points").fill("35")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    tap(summary)
    assert badge_holders(page, "deals") == ["Goran"]
    assert badge_holders(page, "plays first") == ["Ana"]


def test_railroad_and_six_players_never_give_the_dealer_both_badges(
    phone: Page, live_server: str
) -> None:
    page = phone
    for path, names in [
        ("/games/new?variant=railroad&players=4", ["Ana", "Vera", "Boris", "Goran"]),
        ("/games/new?variant=classic-6", ["Ana", "Vera", "Boris", "Goran", "Lidija", "Stefan"]),
    ]:
        page.goto(live_server + path)
        settled(page)
        for seat, name in enumerate(names):
            page.locator(f"#players-{seat}").fill(name)
        page.get_by_role("button", name="Start the game").tap()
        expect(page.locator(".total-points")).not_to_have_count(0)
        tap(page.locator(".seats > summary"))
        assert badge_holders(page, "deals") == ["Ana"], path
        assert badge_holders(page, "plays first") == ["Vera"], path


def test_the_name_this_phone_gave_itself_is_on_the_games_first_line(
    phone: Page, live_server: str
) -> None:
    """The name typed under "This phone" on the new-game form names the phone from the
    game's first line on (it said "Chrome on Linux" there, and the name on every later line)."""
    page = phone
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(SEATS):
        page.locator(f"#players-{seat}").fill(name)
    tap(page.get_by_text("This phone", exact=True))
    page.get_by_label("This phone's name in the change log").fill("Ana's phone")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-points")).to_have_count(2)
    page.get_by_role("link", name="Changes").tap()
    created = page.locator(".change").last
    expect(created.locator(".change-title")).to_contain_text("Game created")
    expect(created.locator(".change-meta")).to_contain_text("Ana's phone")
