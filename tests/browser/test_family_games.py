"""Issue 30 on the phone at 390 px: a Samba game played to its end (sambas, six red threes,
the going-out refusal with one canasta), and a Bolivia deal saved with no connection whose
provisional score is the one the server records."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import shot, tap
from .helpers import deal_2_saved_offline, deals_on_server, htmx_ready, start_game, tap_more


def test_a_samba_game_to_its_end(phone: Page, live_server: str) -> None:
    page = phone
    start_game(page, live_server, "Samba")
    expect(page.locator(".badge").first).to_contain_text("50")

    # Deal 1: We go out with three sambas and a natural canasta, all six red threes, 600
    # melded: 3 x 1500 + 500 + 1000 + 200 + 600 = 6800. They melded nothing, hold 100.
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    for label in ("Natural canastas", "Mixed canastas", "Sambas", "Red threes"):
        expect(page.get_by_role("button", name=f"{label}, We: one more")).to_be_visible()
    expect(page.get_by_role("button", name="Wild canastas, We: one more")).to_have_count(0)
    page.locator("label.segment", has_text="We").tap()
    tap_more(page, "Sambas", "We", 3)
    tap_more(page, "Natural canastas", "We")
    tap_more(page, "Red threes", "We", 6)
    page.locator("#sides-0-meld_points").fill("600")
    page.locator("#sides-0-hand_points").fill("0")
    page.locator("#sides-1-hand_points").fill("100")
    expect(page.locator("#preview")).to_contain_text("+6,800")
    shot(page, "samba-deal-form")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    expect(page.locator(".total-points")).to_have_text(["6,800", "-100"])
    # From 3000 the next initial meld needs 120 (Samba's tiers: 160 only from 7000).
    expect(page.locator(".totals .badge").first).to_contain_text("120")

    # Deal 2: We try to go out with one canasta: refused, named at who went out.
    page.get_by_role("link", name="Record deal 2").tap()
    htmx_ready(page)
    page.locator("label.segment", has_text="We").tap()
    tap_more(page, "Sambas", "We")
    page.locator("#sides-0-meld_points").fill("300")
    page.locator("#sides-0-hand_points").fill("0")
    page.locator("#sides-1-meld_points").fill("150")
    page.locator("#sides-1-hand_points").fill("40")
    tap(page.get_by_role("button", name="Save deal 2"))
    expect(page.locator("#err-went_out")).to_contain_text("Going out needs 2 canastas")
    shot(page, "samba-going-out-refused")
    assert len(deals_on_server(page, live_server)) == 1

    # With a second samba it goes: 2 x 1500 + 200 + 300 = 3500; They 150 - 40 = 110.
    tap_more(page, "Sambas", "We")
    htmx_ready(page)
    tap(page.get_by_role("button", name="Save deal 2"))
    expect(page.locator(".winner h2")).to_have_text("We win with 10,300")
    assert deals_on_server(page, live_server) == [[6800, -100], [3500, 110]]
    shot(page, "samba-game-won")


def test_a_bolivia_deal_saved_offline_scores_as_the_server_records_it(
    phone: Page, live_server: str
) -> None:
    page = phone

    def bolivia_deal(page: Page) -> None:
        # RULES.md 10.6: We go out with an escalera and a bolivia, one red three, 500
        # melded: 4800. They: a natural canasta, 200 melded, 60 in hand and two black
        # threes in hand: 500 + 200 - 60 - 200 = 440.
        page.locator("label.segment", has_text="We").tap()
        tap_more(page, "Escaleras", "We")
        tap_more(page, "Bolivias", "We")
        tap_more(page, "Red threes", "We")
        page.locator("#sides-0-meld_points").fill("500")
        page.locator("#sides-0-hand_points").fill("0")
        tap_more(page, "Natural canastas", "They")
        page.locator("#sides-1-meld_points").fill("200")
        page.locator("#sides-1-hand_points").fill("60")
        tap_more(page, "Black threes in hand", "They", 2)

    previews = ["We +4,800 → 4,930", "They +440 → 495"]
    deal_2_saved_offline(
        page,
        live_server,
        "Bolivia",
        bolivia_deal,
        previews,
        ["4,930", "495"],
        "bolivia-offline-deal",
    )
    assert deals_on_server(page, live_server) == [[130, 55], [4800, 440]]
