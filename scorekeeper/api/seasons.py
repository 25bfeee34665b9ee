"""A club's seasons (API.md "Seasons and results"): make one, read its evenings and its
ladder, change its points table. An evening joins a season when it is made
(``POST /api/evenings`` with ``season`` and ``season_token``)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, url_for

from ..store import changes, seasons
from ..store.changes.seasons import NO_SEASON, NOT_SEASON_DIRECTOR
from ..store.errors import Refused, Why
from ..store.seasons import SeasonView
from . import (
    BODY,
    SECRET,
    ApiError,
    answers,
    bp,
    device,
    idempotency_key,
    request_secret,
    schemas,
    spec,
)


def season_json(season: SeasonView) -> dict[str, Any]:
    """The season as API.md writes it: its evenings (oldest first) and its ladder, from its
    finished evenings (per pair in pairs evenings, per player in individual ones)."""
    return {
        "id": season.id,
        "name": season.name,
        "url": url_for("web.season", season_id=season.id),
        "points": list(season.points),
        "evenings": [
            {
                "id": evening.id,
                "name": evening.name,
                "url": url_for("web.evening", evening_id=evening.id),
                "format": evening.format.value,
                "status": "finished" if evening.finished else "playing",
            }
            for evening in season.evenings
        ],
        "ladder": [
            {
                "players": list(line.players),
                "points": line.points,
                "evenings": line.evenings,
                "best_place": line.best_place,
                # The place at each finished evening, in the order of ``evenings``' finished
                # ones (null: not there).
                "places": list(line.places),
            }
            for line in season.ladder
        ],
    }


def _private(response: Response) -> Response:
    response.cache_control.private = True
    response.cache_control.no_store = True
    return response


@bp.post("/seasons")
@spec.validate(headers=schemas.Key, resp=answers(201, *BODY, 409))
def new_season(json: schemas.NewSeason) -> tuple[Response, int]:
    """Make a season; the answer holds its director's secret (its ``token``), given only
    here: evenings join the season with it, and it changes the points table. Sent again with
    its Idempotency-Key, it makes nothing (409 naming the season)."""
    season, secret = changes.create_season(
        json.name, json.points, device=device(), request_key=idempotency_key()
    )
    response = jsonify({**season_json(season), "token": secret})
    response.headers["Location"] = url_for("api.season", season_id=season.id)
    return _private(response), 201


def _found(season_id: str) -> SeasonView:
    found = seasons.view(season_id)
    if found is None:
        raise Refused(Why.NOT_FOUND, NO_SEASON)
    return found


@bp.get("/seasons/<season_id>")
@spec.validate(resp=answers(200, 404), skip_validation=True)
def season(season_id: str) -> Response:
    """The season: its evenings and its ladder (no secret needed)."""
    return jsonify(season_json(_found(season_id)))


def _key(season_id: str) -> str | None:
    """A command's Idempotency-Key; a malformed one is a 400 only after the season's 404 and
    the director's 403 (API.md's order)."""
    try:
        return idempotency_key()
    except ApiError:
        if not seasons.director_matches(_found(season_id), request_secret()):
            raise Refused(Why.FORBIDDEN, NOT_SEASON_DIRECTOR) from None
        raise


@bp.put("/seasons/<season_id>")
@spec.validate(headers=schemas.Key, resp=answers(200, *BODY, 403, 404), security=SECRET)
def change_season(season_id: str, json: schemas.SeasonPoints) -> Response:
    """Change the season's points table (director): every finished evening counts again
    with it. A retry with the same Idempotency-Key changes nothing more."""
    changed = changes.change_points(
        season_id,
        json.points,
        request_secret(),
        device=device(),
        request_key=_key(season_id),
    )
    return _private(jsonify(season_json(changed)))
