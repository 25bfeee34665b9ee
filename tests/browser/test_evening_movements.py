"""The new-evening page's movements at 390 px (issue 43, part 2): a round robin says how many
rounds it takes for the pairs typed, as they are typed, and the table cards of a Mitchell
say where each pair goes next."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import fits, shot, tap

SIX = ["Ana, Boris", "Vera, Goran", "Dana, Ivo", "Mila, Petar", "Zoe, Yan", "Lena, Marko"]


def test_a_round_robin_says_its_length_as_pairs_are_typed(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/evenings/new")
    hint = page.locator("[data-round-robin]")
    expect(hint).to_be_hidden()
    page.get_by_label("Name of the evening").fill("Round robin night")
    page.locator("#players").fill("\n".join(SIX))
    tap(page.get_by_label("Round robin: every pair meets every other once"))
    expect(hint).to_have_text("A round robin of 6 pairs takes 5 rounds.")
    page.locator("#players").press_sequentially("\nNada, Oleg")
    expect(hint).to_have_text("A round robin of 7 pairs takes 7 rounds.")
    fits(page, "new evening, round robin")
    shot(page, "evening-new-round-robin")
    tap(page.get_by_label("By the standings (Swiss)"))
    expect(hint).to_be_hidden()
    tap(page.get_by_label("Round robin: every pair meets every other once"))
    page.get_by_label("Deals per round").fill("2")
    tap(page.get_by_role("button", name="Seat round 1"))
    expect(page.locator("h1")).to_have_text("Round robin night")
    # Seven pairs: three tables and a bye.
    expect(page.locator(".table-live")).to_have_count(3)


def test_a_mitchell_s_table_cards_say_where_each_pair_goes(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/evenings/new")
    page.get_by_label("Name of the evening").fill("Mitchell night")
    page.locator("#players").fill("\n".join([*SIX, "Nada, Oleg", "Rosa, Stefan"]))
    page.get_by_label("Rounds", exact=True).fill("3")
    page.get_by_label("Deals per round").fill("2")
    tap(page.get_by_label("Mitchell: half the pairs keep their table", exact=False))
    tap(page.get_by_role("button", name="Seat round 1"))
    expect(page.locator("h1")).to_have_text("Mitchell night")
    page.goto(page.url + "/cards")
    cards = page.locator(".table-card")
    expect(cards).to_have_count(4)
    for number in range(4):
        moves = cards.nth(number).locator(".card-next li")
        expect(moves).to_have_count(2)
        expect(moves.first).to_contain_text("stay at this table")
        expect(moves.nth(1)).to_contain_text(f"move to table {(number + 1) % 4 + 1}")
    fits(page, "Mitchell table cards")
    shot(page, "evening-cards-mitchell")
