"""Club evenings played through the API and counted again here, independently of the app's
rules code: the ratings with openskill itself, from the games the games API gives (RULES.md
section 12); the evenings' standings from the same games (sections 11 and 16).

Scores by RULES.md section 2: ``FIRST_WINS`` is +900 for the first side and +50 for the
second, ``SECOND_WINS`` the other way round, ``LEVEL`` +100 each, ``NARROW`` +900 and +800.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from openskill.models import PlackettLuce, PlackettLuceRating

from .api import Json, auth, result
from .evenings import FIRST_WINS, LEVEL, SECOND_WINS, deal, director, evening_body

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


def standings(client: FlaskClient, evening: Json) -> list[tuple[str, ...]]:
    """An evening's entrants best first, counted from its tables' games as the games API
    gives them (RULES.md section 11; section 16 when it scores by ``SCALE``'s VP)."""
    by_vp = isinstance(evening["scoring"], dict)
    tally: dict[tuple[str, ...], dict[str, Any]] = {}

    def line(players: list[str]) -> dict[str, Any]:
        blank = {"mp": 0, "vp": 0, "difference": 0, "points": 0, "byes": 0, "met": []}
        return tally.setdefault(tuple(players), blank)

    for round_ in evening["rounds"]:
        for players in round_["byes"]:
            sitting = line(players)
            sitting["byes"] += 1
            if sitting["byes"] == 1:  # a further bye scores nothing
                sitting["mp"] += 2
                sitting["vp"] += evening["bye_vp"]
        for table in round_["tables"]:
            game = client.get(f"/api/games/{table['game']}").get_json()
            (a, b) = [side["players"] for side in game["sides"]]
            (ta, tb) = [side["total"] for side in game["sides"]]
            won = winner_vp(abs(ta - tb))
            vp = (won, 20 - won) if ta >= tb else (20 - won, won)
            for players, own, other, own_vp, against in (
                (a, ta, tb, vp[0], b),
                (b, tb, ta, vp[1], a),
            ):
                seat = line(players)
                seat["mp"] += 2 if own > other else 1 if own == other else 0
                seat["vp"] += own_vp
                seat["difference"] += own - other
                seat["points"] += own
                seat["met"].append((tuple(against), own_vp))

    def head_to_head(entrant: tuple[str, ...]) -> int:
        """The VP scored against entrants of exactly the same VP."""
        level = {other for other, seat in tally.items() if seat["vp"] == tally[entrant]["vp"]}
        return sum(vp for other, vp in tally[entrant]["met"] if other in level)

    def order(entrant: tuple[str, ...]) -> tuple[Any, ...]:
        seat = tally[entrant]
        first = (-seat["vp"], -head_to_head(entrant)) if by_vp else (-seat["mp"],)
        names = tuple(name.casefold() for name in entrant)
        return (*first, -seat["difference"], -seat["points"], names, entrant)

    return sorted(tally, key=order)


def season_ladder(
    places: list[list[tuple[str, ...]]], points: list[int]
) -> list[tuple[frozenset[str], int, int, int]]:
    """The season's ladder from each evening's order: (players, points, evenings, best
    place) best first, by points, then the best place, then the name as the pair was first
    listed ("Vera & Goran" sorts under V), case aside."""
    lines: dict[frozenset[str], list[Any]] = {}
    for order in places:
        for place, entrant in enumerate(order, start=1):
            key = frozenset(entrant)
            entry = lines.setdefault(key, [entrant, 0, 0, place])
            entry[1] += points[place - 1] if place <= len(points) else 0
            entry[2] += 1
            entry[3] = min(entry[3], place)
    ranked = sorted(
        lines.items(),
        key=lambda item: (-item[1][1], item[1][3], tuple(n.casefold() for n in item[1][0])),
    )
    return [(key, entry[1], entry[2], entry[3]) for key, entry in ranked]
