"""Pairs rated as pairs and the roster's ratings through the API and the pages (API.md
"Seasons and results", RULES.md section 12): three club evenings, two of them scored by
victory points, rebuilt by an independent count from their games with openskill itself.

Scores by RULES.md section 2: ``FIRST_WINS`` is +900 for the first side and +50 for the
second, ``SECOND_WINS`` the other way round, ``LEVEL`` +100 each, ``NARROW`` +900 and +800.
"""

from __future__ import annotations

import html as html_lib
import re

from flask.testing import FlaskClient
from openskill.models import PlackettLuce, PlackettLuceRating

from .helpers.api import assert_error
from .helpers.recount import MIXED, SCALE, play_evening, rebuilt


def test_three_evenings_rebuilt_give_the_api_s_and_the_pages_pair_ratings(
    client: FlaskClient,
) -> None:
    evenings = [
        play_evening(client, 0, scoring={"victory_points": SCALE}),
        play_evening(client, 1, name="Thursday club"),
        play_evening(client, 2, name="Friday club", pairs=MIXED, scoring={"victory_points": SCALE}),
    ]
    people, pairs = rebuilt(client, evenings)
    roster = client.get("/api/players").get_json()
    assert {line["name"]: line["rating"] for line in roster} == people
    ratings = [line["rating"] for line in roster]
    assert ratings == sorted(ratings, reverse=True)
    games_rated = {line["name"]: line["games_rated"] for line in roster}
    assert sum(games_rated.values()) == 4 * 3 * 2 * 3  # 4 seats, 2 tables, 3 rounds, 3 evenings

    seen: dict[frozenset[str], int] = {}
    for line in roster:
        one = client.get(f"/api/players/{line['id']}")
        assert one.status_code == 200
        body = one.get_json()
        assert {k: body[k] for k in ("id", "name", "rating", "games_rated")} == line
        for pair in body["pairs"]:
            key = frozenset([line["name"], pair["partner"]])
            assert pair["rating"] == pairs[key], key
            seen[key] = pair["games"]
        assert [p["rating"] for p in body["pairs"]] == sorted(
            (p["rating"] for p in body["pairs"]), reverse=True
        )
    assert set(seen) == set(pairs)  # every pair, from both its players
    ana = next(line for line in roster if line["name"] == "Ana")
    partners = [p["partner"] for p in client.get(f"/api/players/{ana['id']}").get_json()["pairs"]]
    assert sorted(partners) == ["Boris", "Vera"]

    # The ladder read by pairs shows the same figures, highest first.
    page = client.get("/players/ladder?by=pairs").get_data(as_text=True)
    lines = re.findall(
        r'class="game-sides">([^<]+)</span>\s*<span class="ladder-rating">([^<]+)</span>', page
    )
    shown = {
        frozenset(html_lib.unescape(names).split(" & ")): int(re.sub(r"\D", "", figure))
        for names, figure in lines
    }
    assert shown == pairs
    figures = [int(re.sub(r"\D", "", figure)) for _, figure in lines]
    assert figures == sorted(figures, reverse=True)

    # A partnership's page shows its own rating beside each player's.
    ids = {line["name"]: line["id"] for line in roster}
    page = client.get(f"/partnerships/{ids['Ana']}-{ids['Vera']}").get_data(as_text=True)
    together = re.search(r'class="pair-rating">\s*<span class="figure">([^<]+)<', page)
    assert (
        together and int(re.sub(r"\D", "", together.group(1))) == pairs[frozenset(["Ana", "Vera"])]
    )
    for name in ("Ana", "Vera"):
        own = re.search(
            rf'<span class="figure">([^<]+)</span>\s*<strong><a href="/players/{ids[name]}">', page
        )
        assert own and int(re.sub(r"\D", "", own.group(1))) == people[name]


def test_the_margin_of_a_vp_table_moves_the_ratings(client: FlaskClient) -> None:
    """Counted without the margin (by totals), the same evening rates differently: the VP
    evening's margin is in the figures."""
    evening = play_evening(client, 0, scoring={"victory_points": SCALE})
    plain = PlackettLuce()
    pairs: dict[frozenset[str], PlackettLuceRating] = {}
    for round_ in evening["rounds"]:
        for table in round_["tables"]:
            game = client.get(f"/api/games/{table['game']}").get_json()
            keys = [frozenset(side["players"]) for side in game["sides"]]
            totals = [side["total"] for side in game["sides"]]
            ranks = [1.0 + sum(o > t for o in totals) for t in totals]
            teams = [[pairs.get(key) or plain.rating()] for key in keys]
            for key, rated in zip(keys, plain.rate(teams, ranks=ranks), strict=True):
                pairs[key] = rated[0]
    by_totals = {k: round(r.ordinal(alpha=40.0, target=1000.0)) for k, r in pairs.items()}
    shown = {}
    for line in client.get("/api/players").get_json():
        for pair in client.get(f"/api/players/{line['id']}").get_json()["pairs"]:
            shown[frozenset([line["name"], pair["partner"]])] = pair["rating"]
    assert set(shown) == set(by_totals)
    # The seating is by lot, so which pairs differ varies; some always do (a favourite's
    # win by more than a step, or a 10-10 table that the totals call a win).
    assert shown != by_totals


def test_the_players_api_answers(client: FlaskClient) -> None:
    assert client.get("/api/players").get_json() == []
    assert_error(client.get("/api/players/999"), 404)
    assert client.get("/api/players/abc").status_code == 404
    added = client.post("/players", data={"name": "Zoe"})
    assert added.status_code in (302, 303)
    (zoe,) = client.get("/api/players").get_json()
    # Not rated yet: no figure, no rated game, no pair.
    assert zoe == {"id": zoe["id"], "name": "Zoe", "rating": None, "games_rated": 0}
    assert client.get(f"/api/players/{zoe['id']}").get_json() == {**zoe, "pairs": []}


def test_the_ladder_toggles_between_players_and_pairs(client: FlaskClient) -> None:
    by_players = client.get("/players/ladder").get_data(as_text=True)
    assert 'href="/players/ladder?by=pairs"' in by_players
    assert re.search(r'aria-current="page">By players<', by_players)
    by_pairs = client.get("/players/ladder?by=pairs").get_data(as_text=True)
    assert re.search(r'aria-current="page">By pairs<', by_pairs)
    assert "No pair is rated yet" in by_pairs
    play_evening(client, 0)
    by_pairs = client.get("/players/ladder?by=pairs").get_data(as_text=True)
    assert "Ana &amp; Boris" in by_pairs and "rated games together" in by_pairs
    assert "how well they do together" in by_pairs
