"""The roster's ratings and the pairs' (API.md "Seasons and results", RULES.md section 12):
read-only, no secret. ``GET /api/players`` lists everyone with their rating; ``GET
/api/players/<id>`` is one player with the rating of each pair they played in as one entrant.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from ..caching import rated_club
from ..store import pairs, players
from ..store.changes.roster import NO_PERSON
from ..store.errors import Refused, Why
from ..store.ratings import Club
from . import answers, bp, spec


def _player_json(club: Club, person_id: int, name: str) -> dict[str, Any]:
    """A player's line: their rating (null before their first rated game) and how many
    games rated them."""
    rated = club.people.get(person_id)
    return {
        "id": person_id,
        "name": name,
        "rating": rated.rating.shown if rated else None,
        "games_rated": len(rated.history) if rated else 0,
    }


@bp.get("/players")
@spec.validate(resp=answers(200), skip_validation=True)
def roster() -> Response:
    """Everyone on the roster with their rating, the highest first (then by name); those
    not rated yet last, by name."""
    club = rated_club()
    lines = [_player_json(club, person_id, name) for person_id, name in players.roster_choices()]
    # roster_choices is by name: a stable sort keeps that order among equal ratings.
    lines.sort(key=lambda line: (line["rating"] is None, -(line["rating"] or 0)))
    return jsonify(lines)


@bp.get("/players/<int:person_id>")
@spec.validate(resp=answers(200, 404), skip_validation=True)
def player(person_id: int) -> Response:
    """One player with their rating and each of their pairs' own rating (the pair as one
    entrant), the highest first."""
    person = players.find(person_id)
    if person is None:
        raise Refused(Why.NOT_FOUND, NO_PERSON)
    club = rated_club()
    return jsonify(
        {
            **_player_json(club, person.id, person.name),
            "pairs": [
                {
                    "partner": line.partner,
                    "partner_id": line.partner_id,
                    "rating": line.rating.shown,
                    "games": line.games,
                }
                for line in pairs.pairs_of(club, person.id)
            ],
        }
    )
