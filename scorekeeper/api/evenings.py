"""Club evenings (API.md "Club evenings"): create one, read it, start and close rounds."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, url_for

from ..extensions import creates_game
from ..rules import Format, Movement
from ..rules.victory_points import MATCH_POINTS
from ..store import changes, evenings
from ..store.changes.evenings import NO_EVENING, NOT_DIRECTOR
from ..store.errors import Refused, Why
from ..store.evenings import EveningView, RoundView, TableView
from . import (
    BODY,
    SECRET,
    ApiError,
    Model,
    answers,
    bp,
    device,
    idempotency_key,
    optional_body,
    request_secret,
    schemas,
    spec,
)


def table_json(
    table: TableView, director_secret: str | None, vp: bool = False, confirms: bool = False
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "table": table.number,
        "game": table.game_id,
        "status": table.status,
        "deals": table.deals,
        "last_deal": table.last_deal,
        "sides": [{"players": list(side.players), "total": side.total} for side in table.sides],
    }
    if vp:
        # Each side's victory points once the table finished (null while it plays).
        points = table.victory_points or [None] * len(table.sides)
        for side, side_vp in zip(out["sides"], points, strict=True):
            side["victory_points"] = side_vp
    if confirms:
        # The deals the other side has not confirmed yet.
        out["unconfirmed"] = list(table.unconfirmed)
    if director_secret is not None:
        out["token"] = evenings.table_secret(director_secret, table.game_id)
        if confirms:
            out["confirm_token"] = evenings.confirm_secret(director_secret, table.game_id)
    return out


def _moment(value: Any) -> str | None:
    return None if value is None else value.isoformat() + "Z"


def round_json(
    round_: RoundView, director_secret: str | None, vp: bool = False, confirms: bool = False
) -> dict[str, Any]:
    return {
        "number": round_.number,
        "status": "finished" if round_.finished else "playing",
        "started_at": _moment(round_.started_at),
        "ends_at": _moment(round_.ends_at),
        "closed_at": _moment(round_.closed_at),
        "tables": [table_json(table, director_secret, vp, confirms) for table in round_.tables],
        "byes": [list(entrant) for entrant in round_.byes],
    }


def evening_json(evening: EveningView, director_secret: str | None = None) -> dict[str, Any]:
    """The evening as API.md writes it; with the director's secret, each table's scorer
    secret too. An evening scored by victory points shows each standing's and each
    finished table side's."""
    vp = evening.scale is not None
    return {
        "id": evening.id,
        "url": url_for("web.evening", evening_id=evening.id),
        "name": evening.name,
        "variant": evening.variant,
        "options": dict(evening.options),
        "format": evening.format.value,
        "movement": evening.movement.value,
        "status": "finished" if evening.finished else "playing",
        "round": len(evening.played),
        "planned_rounds": evening.rounds,
        "deals_per_round": evening.deals_per_round,
        "minutes_per_round": evening.minutes_per_round,
        "scoring": (
            MATCH_POINTS if evening.scale is None else {"victory_points": evening.scale.document()}
        ),
        "bye_vp": evening.bye_vp,
        "confirmations": evening.confirmations,
        "rounds": [
            round_json(round_, director_secret, vp, evening.confirmations)
            for round_ in evening.played
        ],
        "standings": [
            {
                "players": list(line.players),
                **({"victory_points": line.victory_points} if vp else {}),
                "match_points": line.match_points,
                "difference": line.difference,
                "won": line.won,
                "drawn": line.drawn,
                "lost": line.lost,
                "byes": line.byes,
                "played": line.played,
                "points": line.points,
            }
            for line in evening.standings
        ],
    }


def _director(evening: EveningView) -> str | None:
    """The request's secret when it is the director's, else None (a reader's view)."""
    secret = request_secret()
    if secret and evenings.director_matches(evening, secret):
        return secret
    return None


@bp.post("/evenings")
@creates_game
@spec.validate(headers=schemas.Key, resp=answers(201, *BODY, 409, 429))
def new_evening(json: schemas.NewEvening) -> tuple[Response, int]:
    """Create an evening and seat its first round by lot; the answer holds the director's
    secret (its ``token``), given only here. Sent again with its Idempotency-Key, it creates
    nothing (409 naming the evening, as a new game's retry)."""
    fmt = Format(json.format)
    given, missing = ("pairs", "players") if fmt is Format.PAIRS else ("players", "pairs")
    entrants: list[list[str]] | None = (
        json.pairs if fmt is Format.PAIRS else [[name] for name in json.players or []]
    )
    if getattr(json, missing) is not None:
        raise ApiError(
            422,
            f"A {fmt.value} evening lists {given}, not {missing}.",
            {missing: f"Not in a {fmt.value} evening."},
        )
    if entrants is None or (fmt is Format.INDIVIDUAL and json.players is None):
        raise ApiError(422, f"{given} is required.", {given: "Required."})
    evening, secret = changes.create_evening(
        json.name,
        json.variant,
        json.options or {},
        fmt,
        entrants,
        json.rounds,
        json.deals_per_round,
        json.minutes_per_round,
        movement=Movement(json.movement),
        device=device(),
        request_key=idempotency_key(),
        scoring=json.scoring,
        bye_vp=json.bye_vp,
        confirmations=json.confirmations,
        season=json.season,
        season_token=json.season_token,
    )
    response = jsonify({**evening_json(evening, secret), "token": secret})
    response.headers["Location"] = url_for("api.evening", evening_id=evening.id)
    response.cache_control.private = True
    response.cache_control.no_store = True
    return response, 201


def _found(evening_id: str) -> EveningView:
    found = evenings.view(evening_id)
    if found is None:
        raise Refused(Why.NOT_FOUND, NO_EVENING)
    return found


@bp.get("/evenings/<evening_id>")
@spec.validate(resp=answers(200, 404), skip_validation=True)
def evening(evening_id: str) -> Response:
    """The evening: its rounds, tables and standings; with the director's secret
    (``Authorization: Bearer``), each table's scorer secret too."""
    found = _found(evening_id)
    director = _director(found)
    response = jsonify(evening_json(found, director))
    if director is not None:
        response.cache_control.private = True
        response.cache_control.no_store = True
    return response


def _key(evening_id: str) -> str | None:
    """A command's Idempotency-Key; a malformed one is a 400 only after the evening's 404
    and the director's 403 (API.md's order), which the store checks on the way in."""
    try:
        return idempotency_key()
    except ApiError:
        if _director(_found(evening_id)) is None:
            raise Refused(Why.FORBIDDEN, NOT_DIRECTOR) from None
        raise


def _body(evening_id: str, model: type[Model]) -> Model:
    """A command's optional body; a bad one is a 400 or 422 only after the evening's 404
    and the director's 403, as ``_key``."""
    try:
        return optional_body(model)
    except ApiError:
        if _director(_found(evening_id)) is None:
            raise Refused(Why.FORBIDDEN, NOT_DIRECTOR) from None
        raise


def _answer(found: EveningView, status: int) -> tuple[Response, int]:
    response = jsonify(evening_json(found, request_secret()))
    response.cache_control.private = True
    response.cache_control.no_store = True
    return response, status


@bp.post("/evenings/<evening_id>/rounds")
@spec.validate(
    json=schemas.StartRound,
    headers=schemas.Key,
    resp=answers(201, *BODY, 403, 404, 409),
    security=SECRET,
    skip_validation=True,
)
def start_round(evening_id: str) -> tuple[Response, int]:
    """Seat and start the next round (director); 409 while a table of the current round
    plays on, or after the last round, and while a deal of it waits for the other side's
    confirmation, unless the body says ``{"force": true}``. A retry with the same
    Idempotency-Key seats nothing."""
    key = _key(evening_id)
    started = changes.start_round(
        evening_id,
        request_secret(),
        device=device(),
        request_key=key,
        force=_body(evening_id, schemas.StartRound).force,
    )
    return _answer(started, 201)


@bp.post("/evenings/<evening_id>/rounds/<int:number>/close")
@spec.validate(
    json=schemas.CloseRound,
    headers=schemas.Key,
    resp=answers(200, *BODY, 403, 404),
    security=SECRET,
    skip_validation=True,
)
def close_round(evening_id: str, number: int) -> tuple[Response, int]:
    """Time is called (director): each table of round ``number`` still playing plays out
    its deal in progress, then has finished (``time_called``); ``{"final": true}``: every
    table ends as it stands. The body may be left out."""
    closed = changes.close_round(
        evening_id,
        number,
        request_secret(),
        final=_body(evening_id, schemas.CloseRound).final,
        device=device(),
        request_key=_key(evening_id),
    )
    return _answer(closed, 200)


@bp.post("/evenings/<evening_id>/rounds/<int:number>/swap")
@spec.validate(headers=schemas.Key, resp=answers(200, *BODY, 403, 404, 409), security=SECRET)
def swap(evening_id: str, number: int, json: schemas.Swap) -> tuple[Response, int]:
    """Swap two players (or their pairs) between tables before either table's first deal
    (director); their tables get new games, and so new scorer links. A retry with the same
    Idempotency-Key swaps nothing (it would swap them back)."""
    swapped = changes.swap(
        evening_id,
        number,
        json.players,
        request_secret(),
        device=device(),
        request_key=_key(evening_id),
    )
    return _answer(swapped, 200)
