"""A club evening as a director runs it, at 390 px (issue 43): a Mitchell of four tables
scored by victory points on a Canasta scale the director types, with results confirmed by
the other side. Time is called while table 4 plays its second deal; its scorer records that
deal after the call on the phone, and the table then has finished. The other side's phone
at table 1 confirms its results. Round 2 is seated by the Mitchell, and the players' guides
send a pair that stays and a pair that moves to the tables the API names. The page's
standings equal the API's and a count by hand from the tables' games. Shot for people to
look at (test-results/screenshots/evening-directed-*.png)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import PHONE, fits, shot, tap
from .helpers import htmx_ready, keep_score_here, violations

PAIRS = [
    "Ana, Boris",
    "Vera, Goran",
    "Dana, Ivo",
    "Mila, Petar",
    "Zoe, Yan",
    "Lena, Marko",
    "Nada, Oleg",
    "Rosa, Stefan",
]
#: The director's scale: differences up to 500 share 10-10, to 1,500 go 12-8, to 3,000
#: 15-5, beyond 20-0.
SCALE = "500: 10\n1,500: 12\n3,000: 15\n20"
#: One deal each: the first side out with a natural canasta (900 to 50), the other way
#: round, and level (100 each).
FIRST_WINS = [
    {"went_out": True, "natural_canastas": 1, "meld_points": 300, "hand_points": 0},
    {"meld_points": 100, "hand_points": 50},
]
SECOND_WINS = FIRST_WINS[::-1]
LEVEL = [{"meld_points": 100}, {"meld_points": 100}]


def by_hand(difference: int) -> tuple[int, int]:
    """The winner's and the loser's VP by ``SCALE``, counted here, not by the app."""
    for bound, winner in ((500, 10), (1500, 12), (3000, 15)):
        if difference <= bound:
            return winner, 20 - winner
    return 20, 0


def director_read(page: Page, live_server: str, evening: str) -> dict[str, Any]:
    """The evening as the director's API read gives it (each table with its tokens)."""
    link = page.request.get(evening + "/director-link").text()
    found = re.search(r'/join#([^"]+)"', link)
    assert found
    body: dict[str, Any] = page.request.get(
        f"{live_server}/api/evenings/{evening.rsplit('/', 1)[1]}",
        headers={"Authorization": f"Bearer {found.group(1)}"},
    ).json()
    return body


def post(page: Page, url: str, token: str, body: Any = None) -> None:
    answer = page.request.post(url, data=body, headers={"Authorization": f"Bearer {token}"})
    assert answer.ok, answer.text()


def test_a_mitchell_by_victory_points_with_time_called_and_a_result_confirmed(
    phone: Page, live_server: str
) -> None:
    page = phone
    page.goto(live_server + "/evenings/new")
    page.get_by_label("Name of the evening").fill("Mitchell by VP")
    page.locator("#players").fill("\n".join(PAIRS))
    page.get_by_label("Rounds", exact=True).fill("2")
    page.get_by_label("Deals per round").fill("2")
    tap(page.get_by_label("Mitchell: half the pairs keep their table", exact=False))
    tap(page.get_by_label("Victory points: a scale I type"))
    page.get_by_label("Your scale").fill(SCALE)
    tap(page.get_by_label("Results confirmed by the other side"))
    tap(page.get_by_role("button", name="Seat round 1"))
    expect(page.locator("h1")).to_have_text("Mitchell by VP")
    evening = page.url
    read = director_read(page, live_server, evening)
    tables = read["rounds"][0]["tables"]
    assert len(tables) == 4
    api = f"{live_server}/api/games"
    played = ([FIRST_WINS, FIRST_WINS], [FIRST_WINS, SECOND_WINS], [FIRST_WINS, LEVEL])
    for table, deals in zip(tables[:3], played, strict=True):
        for results in deals:
            post(page, f"{api}/{table['game']}/deals", table["token"], {"results": results})
    fourth = tables[3]
    post(page, f"{api}/{fourth['game']}/deals", fourth["token"], {"results": FIRST_WINS})

    # The director calls time while table 4 plays its second deal.
    page.reload()
    tap(page.get_by_role("button", name="Call time on round 1"))
    tap(page.get_by_role("button", name="Call time", exact=True))
    expect(page.get_by_text("Time is called: the last deals are being played.")).to_be_visible()
    expect(page.locator(".table-live.is-called")).to_have_count(1)
    expect(page.locator(".is-called .table-state")).to_have_text("time called: deal 2 is the last")

    # Table 4's scorer records the deal in progress after the call: its last.
    scorer = page.context.browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[union-attr]
    other = page.context.browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[union-attr]
    try:
        keeper = scorer.new_page()
        sheet = f"{live_server}/games/{fourth['game']}"
        keep_score_here(keeper, sheet, fourth["token"])
        keeper.goto(sheet)
        expect(keeper.locator(".time-called")).to_contain_text("deal 2 is this table's last")
        keeper.get_by_role("link", name="Record deal 2").tap()
        htmx_ready(keeper)
        expect(keeper.locator(".time-called")).to_contain_text("this is the table's last deal")
        keeper.locator("#sides-0-meld_points").fill("150")
        keeper.locator("#sides-0-hand_points").fill("20")
        keeper.locator("#sides-1-meld_points").fill("90")
        keeper.locator("#sides-1-hand_points").fill("35")
        tap(keeper.get_by_role("button", name="Save deal 2"))
        expect(keeper.get_by_text("The round ended after 2 deals.")).to_be_visible()
        expect(keeper.get_by_role("link", name="Record deal 3")).to_have_count(0)
        fits(keeper, "table 4's sheet after time was called")

        # The other side's phone at table 1 confirms its two results from the card's code.
        page.goto(evening + "/cards")
        card = page.locator(f"#table-{tables[0]['table']}")
        expect(card.locator(".card-code .qr-code")).to_have_count(2)
        fits(page, "the table cards")
        shot(page, "evening-directed-cards")
        confirm_link = card.locator('a[href*="/confirm#"]').get_attribute("href")
        assert confirm_link
        checker = other.new_page()
        checker.goto(confirm_link)
        tap(checker.get_by_role("button", name="Confirm results on this phone"))
        for number in (1, 2):
            tap(checker.get_by_role("button", name=f"Confirm deal {number}"))
            expect(checker.get_by_role("button", name=f"Confirm deal {number}")).to_have_count(0)
        expect(checker.locator(".confirmed")).to_have_count(2)
    finally:
        scorer.close()
        other.close()

    # The other tables' results are confirmed through the API; none is left to ask about.
    read = director_read(page, live_server, evening)
    for table in read["rounds"][0]["tables"]:
        for number in table["unconfirmed"]:
            confirm = f"{api}/{table['game']}/deals/{number}/confirm"
            post(page, confirm, table["confirm_token"])
    page.goto(evening)
    expect(page.locator(".table-unconfirmed")).to_have_count(0)
    tap(page.get_by_role("button", name="Seat and start round 2"))
    expect(page.get_by_text("Round 2 is seated.")).to_be_visible()
    fits(page, "the director's page")
    assert violations(page) == []
    shot(page, "evening-directed-director")

    # The Mitchell: the pair listed first keeps its table, the other moves one table up.
    read = director_read(page, live_server, evening)
    first, second = read["rounds"]
    now = {
        tuple(side["players"]): table["table"]
        for table in second["tables"]
        for side in table["sides"]
    }
    for table in first["tables"]:
        stays, moves = (tuple(side["players"]) for side in table["sides"])
        assert now[stays] == table["table"]
        assert now[moves] == table["table"] % 4 + 1
    # Their guides say so: a player who stays, and one who moves.
    stays, moves = (side["players"] for side in first["tables"][0]["sides"])
    tap(page.get_by_text("Players' guides"))
    guides = {
        name: (page.get_by_role("link", name=name, exact=True).get_attribute("href"), now[pair])
        for name, pair in ((stays[0], tuple(stays)), (moves[1], tuple(moves)))
    }
    for name, (guide, number) in guides.items():
        assert guide
        page.goto(guide if guide.startswith("http") else live_server + guide)
        expect(page.locator("h1")).to_have_text(name)
        expect(page.locator("#h-guide-now")).to_have_text("Round 2 of 2")
        expect(page.locator(".guide-table")).to_have_text(f"Table {number}")
    fits(page, "a player's guide")
    shot(page, "evening-directed-guide")

    # The standings: the page's equal the API's and a count by hand from the games.
    counted: dict[str, int] = {}
    for table in first["tables"]:
        game = page.request.get(f"{api}/{table['game']}").json()
        assert game["status"] == "finished"
        a, b = (side["total"] for side in game["sides"])
        winner, loser = by_hand(abs(a - b))
        names = [" & ".join(side["players"]) for side in table["sides"]]
        counted[names[0]] = winner if a >= b else loser
        counted[names[1]] = loser if a >= b else winner
    from_api = {" & ".join(s["players"]): s["victory_points"] for s in read["standings"]}
    assert from_api == counted
    page.goto(evening + "/standings")
    rows = page.get_by_role("table", name="Standings").locator("tbody tr")
    expect(rows).to_have_count(8)
    on_page = [
        (rows.nth(i).locator("th").inner_text(), int(rows.nth(i).locator("td").nth(1).inner_text()))
        for i in range(8)
    ]
    assert on_page == [(" & ".join(s["players"]), s["victory_points"]) for s in read["standings"]]
    fits(page, "the printed standings")
    shot(page, "evening-directed-standings")
