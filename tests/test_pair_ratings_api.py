"""Pairs rated as pairs and the roster's ratings through the API and the pages (API.md
"Seasons and results", RULES.md section 12): three club evenings, two of them scored by
victory points, rebuilt by an independent count from their games with openskill itself.

Scores by RULES.md section 2: ``FIRST_WINS`` is +900 for the first side and +50 for the
second, ``SECOND_WINS`` the other way round, ``LEVEL`` +100 each, ``NARROW`` +900 and +800.
"""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

from flask.testing import FlaskClient
from openskill.models import PlackettLuce, PlackettLuceRating

from .helpers.api import Json, assert_error, auth, result
from .helpers.evenings import FIRST_WINS, LEVEL, SECOND_WINS, deal, director, evening_body

NARROW = [result(300, natural=1, went_out=True), result(300, natural=1)]
#: A typed scale whose steps the deals below reach: difference → the winner's VP.
SCALE = [[50, 10], [200, 11], [400, 12], [800, 14], [1200, 16], [1600, 18], [None, 20]]
#: The third evening's pairs: partners changed, so players have two pairs.
MIXED = [["Ana", "Vera"], ["Boris", "Goran"], ["Dana", "Petar"], ["Mila", "Ivo"], ["Sara", "Toni"]]
PLAYS = [FIRST_WINS, NARROW, SECOND_WINS, LEVEL, FIRST_WINS, FIRST_WINS, SECOND_WINS]


def play_evening(client: FlaskClient, offset: int, **changes: Any) -> Json:
    """An evening of three rounds of two deals, every table a different mix of results;
    the evening as it ends."""
    made = client.post("/api/evenings", json=evening_body(**changes))
    assert made.status_code == 201, made.get_json()
    evening = made.get_json()
    for number in range(3):
        current = director(client, evening)
        for index, table in enumerate(current["rounds"][-1]["tables"]):
            for deal_number in range(2):
                figures = PLAYS[(offset + 3 * number + 2 * index + deal_number) % len(PLAYS)]
                assert deal(client, table, figures).status_code == 201
        if number < 2:
            base = f"/api/evenings/{evening['id']}/rounds"
            assert client.post(base, headers=auth(evening["token"])).status_code == 201
    final: Json = client.get(f"/api/evenings/{evening['id']}").get_json()
    assert final["status"] == "finished"
    return final


def winner_vp(difference: int) -> int:
    """The winner's VP by ``SCALE``, counted here (a draw is 10)."""
    if difference == 0:
        return 10
    return next(vp for bound, vp in SCALE if bound is None or difference <= bound)


def rebuilt(client: FlaskClient, evenings: list[Json]) -> tuple[dict[Any, int], dict[Any, int]]:
    """The people's and the pairs' shown ratings, counted again from the games as the games
    API gives them, in the order they were played, with openskill directly: by VP with
    the margin (2 VP) at a VP evening's table, by totals elsewhere."""
    plain, margin = PlackettLuce(), PlackettLuce(margin=2.0)
    people: dict[str, PlackettLuceRating] = {}
    pairs: dict[frozenset[str], PlackettLuceRating] = {}
    for evening in evenings:
        by_vp = isinstance(evening["scoring"], dict)
        for round_ in evening["rounds"]:
            for table in round_["tables"]:
                game = client.get(f"/api/games/{table['game']}").get_json()
                sides = [side["players"] for side in game["sides"]]
                totals = [side["total"] for side in game["sides"]]
                keys = [frozenset(side) for side in sides]
                person_teams = [[people.get(n) or plain.rating() for n in side] for side in sides]
                pair_teams = [[pairs.get(key) or plain.rating()] for key in keys]
                if by_vp:
                    first = winner_vp(abs(totals[0] - totals[1]))
                    vp = [first, 20 - first] if totals[0] >= totals[1] else [20 - first, first]
                    new_people = margin.rate(person_teams, scores=[float(v) for v in vp])
                    new_pairs = margin.rate(pair_teams, scores=[float(v) for v in vp])
                else:
                    ranks = [1.0 + sum(o > t for o in totals) for t in totals]
                    new_people = plain.rate(person_teams, ranks=ranks)
                    new_pairs = plain.rate(pair_teams, ranks=ranks)
                for side, rated in zip(sides, new_people, strict=True):
                    people.update(zip(side, rated, strict=True))
                for key, rated in zip(keys, new_pairs, strict=True):
                    pairs[key] = rated[0]

    def shown(rating: PlackettLuceRating) -> int:
        return round(rating.ordinal(alpha=40.0, target=1000.0))

    return (
        {name: shown(r) for name, r in people.items()},
        {key: shown(r) for key, r in pairs.items()},
    )


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
