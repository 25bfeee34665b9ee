"""Issue 42 on the phone at 390 px: a Modern American game played to 8,500, a Hand and Foot
game of four rounds, and a Burraco deal saved with no connection whose provisional score is
the one the server records. The figures are RULES.md's worked deals (sections 13 to 15)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import shot, tap
from .helpers import deal_2_saved_offline, deals_on_server, htmx_ready, start_game, tap_more


def record(page: Page, number: int) -> None:
    page.get_by_role("link", name=f"Record deal {number}").tap()
    htmx_ready(page)


def save(page: Page, number: int) -> None:
    tap(page.get_by_role("button", name=f"Save deal {number}"))
    expect(page.locator(".flash")).to_contain_text(f"Deal {number} saved.")


def points(page: Page, side: int, meld: int, hand: int) -> None:
    page.locator(f"#sides-{side}-meld_points").fill(str(meld))
    page.locator(f"#sides-{side}-hand_points").fill(str(hand))


def minimums(page: Page) -> list[str]:
    """Each side's next initial-meld minimum, as the sheet's badges say it."""
    badges = page.locator(".totals .badge").all_inner_texts()
    return [re.sub(r"\D", "", badge) for badge in badges]


def test_a_modern_american_game_to_8500(phone: Page, live_server: str) -> None:
    page = phone
    start_game(page, live_server, "Modern American")
    assert minimums(page) == ["125", "125"]

    # Deal 1, the threes swing. We (two canastas) go out: 500 + 300 + 300 (two red, one
    # black) + 100 + 420 = 1720. They, with no canasta, count their threes and melds minus:
    # -180 - 100 - 300 - 45 = -625.
    record(page, 1)
    page.locator("label.segment", has_text="We").tap()
    tap_more(page, "Natural canastas", "We")
    tap_more(page, "Mixed canastas", "We")
    tap_more(page, "Red threes", "We", 2)
    tap_more(page, "Black threes", "We")
    points(page, 0, 420, 0)
    tap_more(page, "Red threes", "They")
    tap_more(page, "Black threes", "They", 2)
    points(page, 1, 180, 45)
    expect(page.locator("#preview")).to_contain_text("+1,720")
    shot(page, "american-threes-swing")
    save(page, 1)
    expect(page.locator(".total-points")).to_have_text(["1,720", "-625"])

    # Deal 2: We try to go out with one canasta: refused, and nothing is recorded.
    record(page, 2)
    page.locator("label.segment", has_text="We").tap()
    tap_more(page, "Mixed canastas", "We")
    points(page, 0, 300, 0)
    # They: an aces canasta and a natural one, and a meld of wild cards left unfinished:
    # 2500 + 500 + 500 - 2000 - 30 = 1470.
    tap_more(page, "Aces canastas", "They")
    tap_more(page, "Natural canastas", "They")
    page.locator("#sides-1-unfinished_wild").check()
    points(page, 1, 500, 30)
    tap(page.get_by_role("button", name="Save deal 2"))
    expect(page.locator("#err-went_out")).to_contain_text("Going out needs 2 canastas")
    shot(page, "american-going-out-refused")
    assert len(deals_on_server(page, live_server)) == 1
    # With a natural canasta beside it: 500 + 300 + 100 + 300 = 1200.
    tap_more(page, "Natural canastas", "We")
    htmx_ready(page)
    save(page, 2)
    expect(page.locator(".total-points")).to_have_text(["2,920", "845"])

    # Deal 3: They lay down a straight, 3000 alone. We: one mixed canasta, and a player
    # held three sevens: 300 + 210 - 85 - 1500 = -1075.
    record(page, 3)
    page.locator("#sides-1-special_hand").select_option("straight")
    expect(page.locator("input[name=went_out][value='1']")).to_be_checked()
    tap_more(page, "Mixed canastas", "We")
    tap_more(page, "Three aces or sevens held", "We")
    points(page, 0, 210, 85)
    save(page, 3)
    expect(page.locator(".total-points")).to_have_text(["1,845", "3,845"])
    # The minimum follows each side's total: 125 below 3000, 155 from it.
    assert minimums(page) == ["125", "155"]

    # Deal 4: We go out with a sevens canasta and seven twos, four red threes, 450 melded:
    # 2500 + 3000 + 1000 + 100 + 450 = 7050, past 8,500. They: 500 + 200 - 40 = 660.
    record(page, 4)
    page.locator("label.segment", has_text="We").tap()
    tap_more(page, "Sevens canastas", "We")
    tap_more(page, "Seven-twos canastas", "We")
    tap_more(page, "Red threes", "We", 4)
    points(page, 0, 450, 0)
    tap_more(page, "Natural canastas", "They")
    points(page, 1, 200, 40)
    tap(page.get_by_role("button", name="Save deal 4"))
    expect(page.locator(".winner h2")).to_have_text("We win with 8,895")
    assert deals_on_server(page, live_server) == [
        [1720, -625],
        [1200, 1470],
        [-1075, 3000],
        [7050, 660],
    ]
    shot(page, "american-game-won")


def test_a_hand_and_foot_game_of_four_rounds(phone: Page, live_server: str) -> None:
    page = phone
    start_game(page, live_server, "Hand and Foot")
    # The minimum goes by the round (50, 90, 120, 150), whatever the totals.
    assert minimums(page) == ["50", "50"]

    # Round 1, RULES.md's worked deal: We 4850, They 1225.
    record(page, 1)
    page.locator("label.segment", has_text="We").tap()
    tap_more(page, "Clean books", "We", 2)
    tap_more(page, "Dirty books", "We", 2)
    tap_more(page, "Wild books", "We")
    tap_more(page, "Red threes laid down", "We", 2)
    points(page, 0, 1450, 0)
    tap_more(page, "Clean books", "They")
    tap_more(page, "Dirty books", "They")
    tap_more(page, "Red threes laid down", "They")
    tap_more(page, "Red threes left in hand or foot", "They")
    points(page, 1, 640, 215)
    expect(page.locator("#preview")).to_contain_text("+4,850")
    shot(page, "hand-and-foot-round-1")
    save(page, 1)
    expect(page.locator(".total-points")).to_have_text(["4,850", "1,225"])
    assert minimums(page) == ["90", "90"]

    # Round 2: We go out with one clean book and two dirty: the contract refuses it.
    record(page, 2)
    page.locator("label.segment", has_text="We").tap()
    tap_more(page, "Clean books", "We")
    tap_more(page, "Dirty books", "We", 2)
    points(page, 0, 800, 0)
    tap_more(page, "Clean books", "They")
    points(page, 1, 300, 100)
    tap(page.get_by_role("button", name="Save deal 2"))
    expect(page.locator("#err-went_out")).to_contain_text("Going out needs the contract")
    shot(page, "hand-and-foot-contract-refused")
    assert len(deals_on_server(page, live_server)) == 1
    # A second clean book makes it: 1000 + 600 + 100 + 800 = 2500; They 500 + 300 - 100.
    tap_more(page, "Clean books", "We")
    htmx_ready(page)
    save(page, 2)
    expect(page.locator(".total-points")).to_have_text(["7,350", "1,925"])
    assert minimums(page) == ["120", "120"]

    # Round 3: They go out, 1000 + 600 + 100 + 900 = 2600; We 300 + 200 - 150 = 350.
    record(page, 3)
    page.locator("label.segment", has_text="They").tap()
    tap_more(page, "Clean books", "They", 2)
    tap_more(page, "Dirty books", "They", 2)
    points(page, 1, 900, 0)
    tap_more(page, "Dirty books", "We")
    points(page, 0, 200, 150)
    save(page, 3)
    expect(page.locator(".total-points")).to_have_text(["7,700", "4,525"])
    assert minimums(page) == ["150", "150"]
    expect(page.locator(".winner")).to_have_count(0)

    # Round 4, the last: They 1500 + 600 + 100 + 1200 = 3400; We 500 + 300 - 250 - 100 = 450
    # (a red three caught in a foot). No target: the higher total after it wins.
    record(page, 4)
    page.locator("label.segment", has_text="They").tap()
    tap_more(page, "Clean books", "They", 3)
    tap_more(page, "Dirty books", "They", 2)
    points(page, 1, 1200, 0)
    tap_more(page, "Clean books", "We")
    tap_more(page, "Red threes left in hand or foot", "We")
    points(page, 0, 300, 250)
    tap(page.get_by_role("button", name="Save deal 4"))
    expect(page.locator(".winner h2")).to_have_text("We win with 8,150")
    expect(page.get_by_role("link", name="Record deal 5")).to_have_count(0)
    assert deals_on_server(page, live_server) == [
        [4850, 1225],
        [2500, 700],
        [350, 2600],
        [450, 3400],
    ]
    shot(page, "hand-and-foot-game-won")


def test_a_burraco_deal_saved_offline_scores_as_the_server_records_it(
    phone: Page, live_server: str
) -> None:
    page = phone

    def burraco_deal(page: Page) -> None:
        # RULES.md 15: We close with a clean and a dirty burraco, 385 melded: 785. They
        # never took their pot: 140 - 95 - 100 = -55.
        page.locator("label.segment", has_text="We").tap()
        tap_more(page, "Clean burracos", "We")
        tap_more(page, "Dirty burracos", "We")
        points(page, 0, 385, 0)
        points(page, 1, 140, 95)
        page.locator("#sides-1-pot_missed").check()

    previews = ["We +785 → 915", "They -55 → 0"]
    deal_2_saved_offline(
        page,
        live_server,
        "Burraco, 4",
        burraco_deal,
        previews,
        ["915", "0"],
        "burraco-offline-deal",
    )
    assert deals_on_server(page, live_server) == [[130, 55], [785, -55]]
