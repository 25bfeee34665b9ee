"""Issue 44's season, counted again: three club evenings of one season (two scored by victory
points, one by match points, the last with partners changed) played through the API; from
their games alone, with no code of the app's, this test counts each evening's standings,
the season ladder by the season's points table and every player's and pair's openskill
rating, and finds the same on the season's page, the ratings ladder's pages and the API."""

from __future__ import annotations

import html as html_lib
import re

from flask.testing import FlaskClient

from .helpers.recount import MIXED, SCALE, play_evening, rebuilt, season_ladder, standings

#: The season's points table, typed by its director (not the default).
POINTS = [15, 11, 8, 6, 5, 4, 3, 2, 1]


def figure(text: str) -> int:
    return int(re.sub(r"\D", "", html_lib.unescape(text)))


def test_a_season_of_three_evenings_counted_from_its_games(client: FlaskClient) -> None:
    made = client.post("/api/seasons", json={"name": "Spring 2027", "points": POINTS})
    assert made.status_code == 201, made.get_json()
    season = made.get_json()
    joined = {"season": season["id"], "season_token": season["token"]}
    evenings = [
        play_evening(client, 0, scoring={"victory_points": SCALE}, **joined),
        play_evening(client, 1, name="Thursday club", **joined),
        play_evening(
            client, 2, name="Friday club", pairs=MIXED, scoring={"victory_points": SCALE}, **joined
        ),
    ]
    orders = [standings(client, evening) for evening in evenings]
    # Each evening's own standings, as the API gives them, are the count's.
    for evening, order in zip(evenings, orders, strict=True):
        assert [tuple(line["players"]) for line in evening["standings"]] == order
    expected = season_ladder(orders, POINTS)
    assert len(expected) == 5 + 4  # the third evening: four new pairs, Sara & Toni again

    body = client.get(f"/api/seasons/{season['id']}").get_json()
    assert [e["id"] for e in body["evenings"]] == [e["id"] for e in evenings]
    api = [
        (frozenset(line["players"]), line["points"], line["evenings"], line["best_place"])
        for line in body["ladder"]
    ]
    assert api == expected
    assert sum(line[1] for line in api) == 3 * sum(POINTS[:5])

    page = client.get(f"/seasons/{season['id']}").get_data(as_text=True)
    rows = re.findall(
        r'<th scope="row" class="ladder-who">([^<]+)</th>\s*<td class="num"><strong>([^<]+)'
        r'</strong></td>\s*<td class="num">(\d+)</td>\s*<td class="num">(\d+)</td>',
        page,
    )
    shown = [
        (frozenset(html_lib.unescape(who).split(" & ")), figure(points), int(n), int(best))
        for who, points, n, best in rows
    ]
    assert shown == expected

    # The ratings, rebuilt with openskill from the same games: the API and both ladders.
    people, pairs = rebuilt(client, evenings)
    roster = client.get("/api/players").get_json()
    assert {line["name"]: line["rating"] for line in roster} == people
    api_pairs = {}
    for line in roster:
        for pair in client.get(f"/api/players/{line['id']}").get_json()["pairs"]:
            api_pairs[frozenset([line["name"], pair["partner"]])] = pair["rating"]
    assert api_pairs == pairs
    for by, counted in (("pairs", pairs), ("players", people)):
        ladder = client.get(f"/players/ladder?by={by}").get_data(as_text=True)
        lines = re.findall(
            r'class="game-sides">([^<]+)</span>\s*<span class="ladder-rating">([^<]+)</span>',
            ladder,
        )
        read = {html_lib.unescape(who): figure(rating) for who, rating in lines}
        if by == "pairs":
            assert {frozenset(who.split(" & ")): r for who, r in read.items()} == counted
        else:
            assert read == counted
