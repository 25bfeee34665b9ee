"""Results confirmed by the other side at 390 px (issue 43 part 4): the director makes an
evening that asks for it; a table card carries two codes; the other side's phone opens the
card's confirm link (the secret leaves the address), follows the sheet and taps Confirm;
the director's page loses the table's mark at its next poll; an edit on the scorer's phone
brings the mark back, and the Confirm button on the other side's sheet. Checked by axe and
shot (test-results/screenshots/evening-confirm-*.png, for people to look at)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from .conftest import PHONE, POLL_MS, fits, shot, tap
from .helpers import htmx_ready, settled, violations

PAIRS = "Ana, Boris\nVera, Goran\nDana, Ivo\nMila, Petar"
#: One deal: the first side out with a natural canasta, the second 50 in hand.
FIRST_WINS = [
    {"went_out": True, "natural_canastas": 1, "meld_points": 300, "hand_points": 0},
    {"meld_points": 100, "hand_points": 50},
]


def seated(page: Page, live_server: str, evening: str) -> list[dict[str, Any]]:
    """The round's tables with their tokens (the director's read of the API)."""
    link = page.request.get(evening + "/director-link").text()
    found = re.search(r'/join#([^"]+)"', link)
    assert found
    body = page.request.get(
        f"{live_server}/api/evenings/{evening.rsplit('/', 1)[1]}",
        headers={"Authorization": f"Bearer {found.group(1)}"},
    ).json()
    return list(body["rounds"][-1]["tables"])


def another_phone(page: Page) -> BrowserContext:
    context: BrowserContext = page.context.browser.new_context(  # type: ignore[union-attr]
        viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    return context


def test_the_other_side_confirms_and_an_edit_asks_again(phone: Page, live_server: str) -> None:
    page = phone
    page.clock.install()  # the director's poll made due at once, not waited for
    page.goto(live_server + "/evenings/new")
    page.get_by_label("Name of the evening").fill("Confirmed club")
    page.locator("#players").fill(PAIRS)
    page.get_by_label("Rounds", exact=True).fill("2")
    page.get_by_label("Deals per round").fill("2")
    tap(page.get_by_label("Results confirmed by the other side"))
    tap(page.get_by_role("button", name="Seat round 1"))
    expect(page.locator("h1")).to_have_text("Confirmed club")
    evening = page.url
    first = seated(page, live_server, evening)[0]
    for table in seated(page, live_server, evening):
        for _ in range(2):
            answer = page.request.post(
                f"{live_server}/api/games/{table['game']}/deals",
                data={"results": FIRST_WINS},
                headers={"Authorization": f"Bearer {table['token']}"},
            )
            assert answer.status == 201, answer.text()

    # The cards: the scorer's code and the other side's, each labelled.
    page.goto(evening + "/cards")
    card = page.locator(f"#table-{first['table']}")
    expect(card.locator(".card-code .qr-code")).to_have_count(2)
    expect(card.get_by_text("Keep score: scan with the table's phone.")).to_be_visible()
    expect(
        card.get_by_text("Confirm the results: scan with the other side's phone.")
    ).to_be_visible()
    fits(page, "the table cards")
    assert violations(page) == []
    shot(page, "evening-confirm-cards")
    confirm_link = card.locator('a[href*="/confirm#"]').get_attribute("href")
    scorer_link = card.locator('a[href*="/join#"]').get_attribute("href")
    assert confirm_link and scorer_link
    secret = confirm_link.split("#", 1)[1]

    # The director's page marks both tables: every deal waits.
    page.goto(evening)
    marks = page.locator(".table-unconfirmed")
    expect(marks).to_have_count(2)
    expect(page.locator(f"#table-{first['game']} .table-unconfirmed")).to_have_text(
        "2 deals not confirmed by the other side: 1, 2"
    )

    # The other side's phone opens the confirm link and confirms both deals.
    other = another_phone(page)
    scorer = another_phone(page)
    try:
        sheet = other.new_page()
        sheet.clock.install()
        sheet.goto(confirm_link)
        expect(sheet.locator("input[data-join-token]")).to_have_value(secret)
        assert secret not in sheet.url
        tap(sheet.get_by_role("button", name="Confirm results on this phone"))
        expect(sheet.get_by_role("button", name="Confirm deal 1")).to_be_visible()
        expect(sheet.get_by_role("button", name="Confirm deal 2")).to_be_visible()
        assert sheet.url == f"{live_server}/games/{first['game']}"
        expect(sheet.get_by_role("link", name="Record deal 3")).to_have_count(0)
        fits(sheet, "the other side's sheet")
        assert violations(sheet) == []
        shot(sheet, "evening-confirm-sheet")
        tap(sheet.get_by_role("button", name="Confirm deal 1"))
        expect(sheet.locator(".flash")).to_contain_text("Deal 1 confirmed.")
        expect(sheet.get_by_role("button", name="Confirm deal 1")).to_have_count(0)
        settled(sheet)
        tap(sheet.get_by_role("button", name="Confirm deal 2"))
        expect(sheet.locator(".flash")).to_contain_text("Deal 2 confirmed.")
        expect(sheet.locator(".confirm-form")).to_have_count(0)
        expect(sheet.locator(".confirmed")).to_have_count(2)
        assert secret not in sheet.url
        shot(sheet, "evening-confirm-sheet-done")

        # The director's page loses the table's mark at its next poll; the other stays.
        page.clock.fast_forward(POLL_MS)
        expect(page.locator(f"#table-{first['game']} .table-unconfirmed")).to_have_count(0)
        expect(marks).to_have_count(1)
        fits(page, "the director's page")
        assert violations(page) == []
        shot(page, "evening-confirm-director")

        # An edit on the scorer's phone: deal 1 waits again, here and there.
        keeper = scorer.new_page()
        keeper.goto(scorer_link)
        tap(keeper.get_by_role("button", name="Keep score here"))
        keeper.get_by_role("link", name="Edit deal 1").tap()
        htmx_ready(keeper)
        keeper.locator("#sides-1-meld_points").fill("150")
        tap(keeper.get_by_role("button", name="Save deal 1"))
        expect(keeper.locator(".flash")).to_contain_text("Deal 1 changed.")
        page.clock.fast_forward(POLL_MS)
        expect(page.locator(f"#table-{first['game']} .table-unconfirmed")).to_have_text(
            "1 deal not confirmed by the other side: 1"
        )
        expect(marks).to_have_count(2)
        sheet.clock.fast_forward(POLL_MS)
        expect(sheet.get_by_role("button", name="Confirm deal 1")).to_be_visible()
        expect(sheet.get_by_role("button", name="Confirm deal 2")).to_have_count(0)

        # Starting round 2 asks first, naming the tables; "Start anyway" starts it.
        tap(page.get_by_role("button", name="Seat and start round 2"))
        expect(page.locator("h1")).to_have_text("Start round 2?")
        expect(page.locator(".table-live")).to_have_count(2)
        fits(page, "the question before round 2")
        assert violations(page) == []
        shot(page, "evening-confirm-ask")
        tap(page.get_by_role("button", name="Start anyway"))
        expect(page.get_by_text("Round 2 is seated.")).to_be_visible()
    finally:
        other.close()
        scorer.close()
