"""The draw for seats over JSON (API.md "Seat draw")."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from ..i18n import render_text
from ..rules import VARIANTS, CardError
from ..rules.draw import DrawError, Drawn, Redraw, draw_card, draw_for_seats
from ..rules.limits import MAX_DRAWS
from . import ApiError, bp, json_body, reject_unknown, string


def _draws(value: Any) -> list[Drawn]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_DRAWS:
        raise ApiError(
            422,
            'draws must be a list: one {"player": ..., "card": ...} for each player.',
            {"draws": "A list of players and their cards."},
        )
    draws: list[Drawn] = []
    for index, entry in enumerate(value):
        path = f"draws.{index}"
        if not isinstance(entry, dict):
            raise ApiError(
                422, f'{path} must be {{"player": ..., "card": ...}}.', {path: "Must be an object."}
            )
        reject_unknown(entry, {"player", "card"}, f"{path}.")
        player = string(entry.get("player"), f"{path}.player").strip()
        card = string(entry.get("card"), f"{path}.card")
        try:
            drawn = draw_card(card)
        except CardError as error:
            raise ApiError(
                422, render_text(error.text), {f"{path}.card": render_text(error.text)}
            ) from None
        draws.append(Drawn(player, drawn))
    return draws


@bp.post("/seat-draw")
def seat_draw() -> Response:
    """Sides, seats clockwise from the highest card, and the first dealer; a 422 naming
    who draws again for a joker or a card drawn twice."""
    body = json_body()
    reject_unknown(body, {"variant", "draws"})
    variant = body.get("variant", "classic")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ApiError(
            422, f"Unknown rule set; known: {', '.join(VARIANTS)}.", {"variant": "Unknown."}
        )
    draws = _draws(body.get("draws"))
    try:
        result = draw_for_seats(VARIANTS[variant], draws)
    except DrawError as error:
        raise ApiError(
            422, render_text(error.text), {error.field: render_text(error.text)}
        ) from None
    except Redraw as redraw:
        again = set(redraw.players)
        response = jsonify(
            {
                "error": render_text(redraw.text),
                "fields": {
                    f"draws.{index}.card": render_text(redraw.text)
                    for index, drawn in enumerate(draws)
                    if drawn.player in again
                },
                "redraw": list(redraw.players),
            }
        )
        response.status_code = 422
        return response
    return jsonify(
        {
            "sides": [{"players": list(side)} for side in result.sides],
            "seats": list(result.seats),
            "first_dealer": result.first_dealer,
        }
    )
