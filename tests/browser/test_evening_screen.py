"""The screen for the room at 1920 x 1080, dark and light (issue 44): an evening of twelve
tables fits without scrolling, the standings read from the back of the room (28 px at the
least), axe finds nothing, and the live part follows a deal by itself. Shot as
test-results/screenshots/evening-screen-*.png, for people to look at."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .conftest import POLL_MS, ConsoleWatch, shot
from .helpers import violations

ROOM = {"width": 1920, "height": 1080}
#: Names of the lengths a club has, some long: the screen must hold them.
FIRST = ["Ana", "Boris", "Vera", "Goran", "Dana", "Ivo", "Mila", "Petar", "Sara", "Toni",
         "Katarina", "Aleksandar", "Zoe", "Yan", "Lidija", "Dragan", "Ema", "Luka", "Nada",
         "Stefan", "Jelena", "Marko", "Ivana", "Bojan"]  # fmt: skip
#: One deal: the first side out with a natural canasta, the second 50 in hand.
FIRST_WINS = [
    {"went_out": True, "natural_canastas": 1, "meld_points": 300, "hand_points": 0},
    {"meld_points": 100, "hand_points": 50},
]


@pytest.fixture(params=["light", "dark"])
def room(
    request: pytest.FixtureRequest, new_context: Callable[..., BrowserContext]
) -> Iterator[Page]:
    """A page on a landscape TV (1920 x 1080), in the parameter's colour scheme; a test that
    passes while the page logged an error fails at teardown."""
    context = new_context(viewport=ROOM, color_scheme=request.param)
    page = context.new_page()
    page.set_default_timeout(10_000)
    watch = ConsoleWatch(page)
    yield page
    assert watch.errors == []


def api_evening(page: Page, live_server: str, players: list[str]) -> dict[str, Any]:
    """An individual evening of classic made through the API, with its director's token."""
    made = page.request.post(
        live_server + "/api/evenings",
        data={
            "name": "Tuesday club, spring",
            "variant": "classic",
            "format": "individual",
            "players": players,
            "rounds": 3,
            "deals_per_round": 2,
            "minutes_per_round": 50,
        },
    )
    assert made.status == 201, made.text()
    body: dict[str, Any] = made.json()
    return body


def deal(page: Page, live_server: str, table: dict[str, Any]) -> None:
    answer = page.request.post(
        f"{live_server}/api/games/{table['game']}/deals",
        data={"results": FIRST_WINS},
        headers={"Authorization": f"Bearer {table['token']}"},
    )
    assert answer.status == 201, answer.text()


def test_twelve_tables_fit_the_screen_and_a_deal_shows_by_itself(
    room: Page, live_server: str
) -> None:
    page = room
    players = FIRST + [f"{name} {'Petrović' if i % 2 else 'Ng'}" for i, name in enumerate(FIRST)]
    evening = api_evening(page, live_server, players)
    read = page.request.get(
        f"{live_server}/api/evenings/{evening['id']}",
        headers={"Authorization": f"Bearer {evening['token']}"},
    ).json()
    tables = read["rounds"][0]["tables"]
    assert len(tables) == 12
    # Some tables finished, one half way, the rest not started.
    for table in tables[:5]:
        deal(page, live_server, table)
        deal(page, live_server, table)
    deal(page, live_server, tables[5])

    page.clock.install()  # the poll made due at once (fast_forward), not waited for
    page.goto(f"{live_server}/evenings/{evening['id']}/screen")
    expect(page.locator("h1")).to_have_text("Tuesday club, spring")
    expect(page.locator("#h-screen-round")).to_have_text("Round 1 of 3")
    expect(page.locator("[data-countdown]")).to_have_text(re.compile(r"^(49|50):\d\d left$"))
    expect(page.locator(".screen-table")).to_have_count(12)
    expect(page.locator(".screen-line")).to_have_count(48)
    # No scrollbar either way, and the last line of the standings is on the screen.
    sizes = page.evaluate(
        """() => { const root = document.documentElement;
             const rows = document.querySelectorAll(".screen-line");
             return [root.scrollWidth, root.clientWidth, root.scrollHeight, root.clientHeight,
                     Math.max(...[...rows].map(r => r.getBoundingClientRect().bottom))]; }"""
    )
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3] and sizes[4] <= ROOM["height"], sizes
    smallest = page.evaluate(
        """Math.min(...[...document.querySelectorAll(".screen-line *:not(.visually-hidden)")].map(
             cell => parseFloat(getComputedStyle(cell).fontSize)))"""
    )
    assert smallest >= 28, smallest
    assert violations(page) == []
    shot(page, "evening-screen")

    halfway = page.locator(f"#screen-table-{tables[5]['table']}")
    expect(halfway).to_contain_text("1 of 2 deals played")
    deal(page, live_server, tables[5])
    page.clock.fast_forward(POLL_MS)
    expect(halfway).to_contain_text("finished after 2 of 2 deals")
    expect(page.locator(".screen-table.is-finished")).to_have_count(6)
