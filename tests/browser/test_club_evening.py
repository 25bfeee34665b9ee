"""A whole club evening in the browser at 390 px (issue 33): the director seats four tables
of pairs on the phone, each table's phone takes its scorer link from the table card and
records the round's deal, one table with its connection cut for that deal; the director
starts rounds 2 and 3 from the standings; at the end the page's standings are the API's,
nobody met the same pair twice, and every deal was recorded once."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import PHONE, back_online, fits, shot, tap
from .helpers import htmx_ready, worker_ready

PAIRS = [("Ana", "Boris"), ("Vera", "Goran"), ("Dana", "Ivo"), ("Mila", "Petar")]
PAIRS += [("Sara", "Toni"), ("Lena", "Marko"), ("Olga", "Pavel"), ("Iva", "Jan")]
ROUNDS = 3


@pytest.fixture
def table_phones(phone: Page) -> Iterator[BrowserContext]:
    """The tables' phones: one browser of their own (each game's scorer cookie is its own)."""
    browser: Browser | None = phone.context.browser
    assert browser is not None
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    yield context
    context.close()


def scorer_links(director: Page, evening: str) -> list[str]:
    """Each table's scorer link, as its card gives it (in table order)."""
    director.goto(evening + "/cards")
    links = director.locator(".table-card .card-link a")
    return [href for href in (links.nth(n).get_attribute("href") for n in range(links.count()))
            if href]  # fmt: skip


def keep_score(page: Page, link: str) -> None:
    """A table's phone opens its card's scorer link and takes the scoring."""
    page.goto(link)
    tap(page.get_by_role("button", name="Keep score here"))
    expect(page.get_by_role("link", name="Record deal 1")).to_be_visible()


def record(page: Page, meld: int, hand: int) -> None:
    """The round's one deal: nobody went out, the first side melded ``meld`` and the second
    held ``hand`` (its meld 60)."""
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-0-meld_points").fill(str(meld))
    page.locator("#sides-1-meld_points").fill("60")
    page.locator("#sides-1-hand_points").fill(str(hand))
    tap(page.get_by_role("button", name="Save deal 1"))


def test_an_evening_of_four_tables_and_three_rounds(
    phone: Page, live_server: str, table_phones: BrowserContext
) -> None:
    director = phone
    director.goto(live_server + "/evenings/new")
    director.get_by_label("Name of the evening").fill("Thursday club")
    director.locator("#players").fill("\n".join(", ".join(pair) for pair in PAIRS))
    director.get_by_label("Rounds", exact=True).fill(str(ROUNDS))
    director.get_by_label("Deals per round").fill("1")
    tap(director.get_by_role("button", name="Seat round 1"))
    expect(director.locator("h1")).to_have_text("Thursday club")
    evening = director.url
    evening_id = evening.rstrip("/").rsplit("/", 1)[-1]

    tables = table_phones.new_page()
    for number in range(1, ROUNDS + 1):
        links = scorer_links(director, evening)
        assert len(links) == 4, links
        for table, link in enumerate(links, start=1):
            meld = 100 + 10 * table * number
            if number == 2 and table == 1:
                offline_deal(table_phones.browser, link, meld)  # type: ignore[arg-type]
                continue
            keep_score(tables, link)
            record(tables, meld, 20)
            # 100 + 10 t n against 60 - 20: the first side wins its table.
            expect(tables.locator(".winner h2")).to_contain_text(f"{meld:,}")
            expect(tables.locator(".winner")).to_contain_text("The round ended after 1 deal.")
        director.goto(evening)
        expect(director.locator("#h-round")).to_have_text(f"Round {number} of {ROUNDS}")
        expect(director.locator(".round-state")).to_have_text("Every table has finished.")
        expect(director.locator("section:has(#h-round) .table-live")).to_have_count(4)
        if number < ROUNDS:
            tap(director.get_by_role("button", name=f"Seat and start round {number + 1}"))
            expect(director.locator("#h-round")).to_have_text(f"Round {number + 1} of {ROUNDS}")
        if number == 1:
            shot(director, "club-evening-round-2")

    # The evening is over; the page's standings are the API's, names and match points.
    director.goto(evening)
    answer = director.request.get(f"{live_server}/api/evenings/{evening_id}").json()
    assert answer["status"] == "finished"
    rows = director.locator(".standings tbody tr")
    expect(rows).to_have_count(len(PAIRS))
    for index, line in enumerate(answer["standings"]):
        row = rows.nth(index)
        expect(row).to_contain_text(" & ".join(line["players"]))
        expect(row).to_contain_text(str(line["match_points"]))
    fits(director)
    shot(director, "club-evening-finished")

    # Every table recorded its deal once, the offline one too; no two pairs met twice.
    met: Counter[frozenset[tuple[str, ...]]] = Counter()
    for round_ in answer["rounds"]:
        assert round_["byes"] == []
        for table in round_["tables"]:
            game = director.request.get(f"{live_server}/api/games/{table['game']}").json()
            assert game["status"] == "finished" and len(game["deals"]) == 1
            met[frozenset(tuple(side["players"]) for side in game["sides"])] += 1
    assert len(met) == 4 * ROUNDS and max(met.values()) == 1


def offline_deal(browser: Browser, link: str, meld: int) -> None:
    """Table 1 of round 2: its phone keeps score, loses the connection, records the deal
    (it waits on the phone), and sends it once the connection is back."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        keep_score(page, link)
        worker_ready(page)
        # The phone keeps the deal form once seen.
        page.get_by_role("link", name="Record deal 1").tap()
        htmx_ready(page)
        page.get_by_role("link", name="Cancel").tap()
        expect(page.locator(".total-points")).to_have_count(2)
        context.set_offline(True)
        record(page, meld, 20)
        expect(page.locator("tr.pending:not(.pending-note)")).to_have_count(1)
        # The round's one deal waits on the phone: it offers no second one.
        expect(page.locator(".next-deal")).to_have_text(
            "The round's deals are played (provisional, until the connection is back)."
        )
        expect(page.get_by_role("link", name="Record deal 2")).to_have_count(0)
        shot(page, "club-evening-table-offline")
        context.set_offline(False)
        page.wait_for_function("() => !localStorage.getItem('pendingDeals')", timeout=20_000)
        back_online(page)
        game = re.search(r"/games/([\w-]+)", page.url)
        assert game
        answer = page.request.get(page.url.split("/games/")[0] + f"/api/games/{game.group(1)}")
        assert [d["results"][0]["meld_points"] for d in answer.json()["deals"]] == [meld]
        # The finished table points to the evening, not to a game outside it (issue 40).
        page.reload()
        expect(page.get_by_role("link", name="Back to the evening")).to_be_visible()
        expect(page.get_by_text("New game, same players")).to_have_count(0)
        shot(page, "club-table-finished")
    finally:
        context.close()
