"""The club evening's pages as rows of ``bench/run`` (issue 45, part 4): the director's page
of a 30-table evening, a player's guide, the public results page and the room's screen.

One evening of EVENING_TABLES tables (pairs, 4 players a table) is created through
``POST /api/evenings``, as ``bench.evening_of_tables`` creates its own, and played through
the API to the middle of an evening: round 1's deals at every table, round 2 seated and
PLAYED deals into it. Each page then shows what it shows on a club night (a round finished,
a round live, the standings). The rows only read: the evening stands still while wrk loads
them, so every request gets the same page. Each is asked for as the browser that opens it
comes back to it (``as_a_browser``), with the secret it holds, and each answer must show
what that page shows (``Endpoint.shows``): a follower's view of the director's page, a
404 or an error page fails the row instead of being measured.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any

from client import (
    POST_BODY,
    Endpoint,
    Server,
    as_a_browser,
    decoded,
    director_cookie,
    excerpt,
    fetch,
)
from seed import PLAYERS

#: Issue 33's evening: this many tables of four (pairs), all live at once.
EVENING_TABLES = 30
#: Deals a round; the deals played at each table of round 2 when the rows are measured.
DEALS_PER_ROUND = 4
PLAYED = 2
#: The rows' targets: the bare view's CPU per request as a share of the row's
#: (docs/PERFORMANCE.md, "Budgets for the club evening's pages", says why each).
DIRECTOR_FLOOR = 0.10
GUIDE_FLOOR = 0.25
RESULTS_FLOOR = 0.10
SCREEN_FLOOR = 0.10


@dataclass(frozen=True)
class Evening:
    """The evening the rows read: its address, the director's secret, its pairs, and one
    player's guide (their name, their partner's, its address) as the director hands it out."""

    id: str
    token: str
    pairs: list[list[str]]
    player: str
    partner: str
    guide: str

    @property
    def page(self) -> str:
        return f"/evenings/{self.id}"


def evening_rows(server: Server, tag: str) -> list[tuple[str, Callable[[str], Endpoint]]]:
    """The evening's rows, each name with how to make it; the evening is played once, when
    the first row --only names is made."""
    base = server.base
    evening = cache(lambda: play_evening(server, tag))
    tables = f"{EVENING_TABLES}-table evening"

    def director(name: str) -> Endpoint:
        found = evening()
        cookie = {"Cookie": director_cookie(found.token)}
        # The director's own button, and the round's last table.
        shows = ("Call time on round 2", f"Table {EVENING_TABLES}")
        return as_a_browser(base, Endpoint(name, found.page, DIRECTOR_FLOOR, cookie, shows=shows))

    def guide(name: str) -> Endpoint:
        found = evening()
        shows = (found.player, f"Partner {found.partner}", "Your place", "Round 1")
        return as_a_browser(base, Endpoint(name, found.guide, GUIDE_FLOOR, shows=shows))

    def results(name: str) -> Endpoint:
        found = evening()
        first, last = (" & ".join(pair) for pair in (found.pairs[0], found.pairs[-1]))
        shows = ("Standings after round 1", first, last)
        path = f"{found.page}/results"
        return as_a_browser(base, Endpoint(name, path, RESULTS_FLOOR, shows=shows))

    def screen(name: str) -> Endpoint:
        found = evening()
        shows = ("Round 2 of 3", f"Table {EVENING_TABLES}", " & ".join(found.pairs[-1]))
        path = f"{found.page}/screen"
        return as_a_browser(base, Endpoint(name, path, SCREEN_FLOOR, shows=shows))

    return [
        (f"director's page, {tables}, director's browser", director),
        (f"player's guide, {tables}, returning phone", guide),
        (f"public results page, {tables}", results),
        (f"room's screen, {tables}", screen),
    ]


def play_evening(server: Server, tag: str) -> Evening:
    """Create the evening through the API and play it to round 2's PLAYED-th deal."""
    pairs = [
        [f"{PLAYERS[2 * n % 50]} {tag}{n}", f"{PLAYERS[(2 * n + 1) % 50]} {tag}{n}"]
        for n in range(EVENING_TABLES * 2)
    ]
    body = {
        "name": f"Budgets {tag}",
        "variant": "classic",
        "format": "pairs",
        "pairs": pairs,
        "rounds": 3,
        "deals_per_round": DEALS_PER_ROUND,
        "minutes_per_round": 50,
    }
    created = api(server, "POST", "/api/evenings", None, json.dumps(body).encode(), 201)
    evening_id, token = created["id"], created["token"]
    play(server, created["rounds"][0]["tables"], DEALS_PER_ROUND)
    seated = api(server, "POST", f"/api/evenings/{evening_id}/rounds", token, b"", 201)
    play(server, seated["rounds"][1]["tables"], PLAYED)
    # One player's guide, as the director's page hands it out.
    page = fetch(server.base, f"/evenings/{evening_id}", {"Cookie": director_cookie(token)})
    link = re.search(rf'<a href="(/evenings/{evening_id}/guide/[^"]+)">([^<]+)</a>', page.text)
    if page.status != 200 or link is None:
        raise server.fail(
            f"the director's page of the evening answered {page.status} with no player's "
            f"guide: {excerpt(page)}"
        )
    player = link.group(2)
    pair = next(pair for pair in pairs if player in pair)
    partner = pair[1 - pair.index(player)]
    return Evening(evening_id, token, pairs, player, partner, link.group(1))


def play(server: Server, tables: list[dict[str, Any]], deals: int) -> None:
    """Record ``deals`` deals at every table through the API, four tables at a time."""

    def table(seated: dict[str, Any]) -> None:
        for _ in range(deals):
            api(
                server,
                "POST",
                f"/api/games/{seated['game']}/deals",
                str(seated["token"]),
                POST_BODY,
                201,
            )

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(table, tables))


def api(server: Server, method: str, path: str, token: str | None, body: bytes, expect: int) -> Any:
    """One API request; its JSON answer, or the benchmark stops."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    answer = fetch(server.base, path, headers, method, body)
    if answer.status != expect:
        raise server.fail(
            f"{method} {path} answered {answer.status}, not {expect}: {excerpt(answer)}"
        )
    return json.loads(decoded(answer))
