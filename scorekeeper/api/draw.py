"""The draw for seats over JSON (API.md "Seat draw")."""

from __future__ import annotations

from flask import Response, jsonify

from ..i18n import render_text
from ..rules import VARIANTS, CardError
from ..rules.draw import DrawError, Drawn, Redraw, draw_card, draw_for_seats
from . import BODY, ApiError, answers, bp, schemas, spec


def _draws(draws: list[schemas.DrawnPlayer]) -> list[Drawn]:
    found: list[Drawn] = []
    for index, entry in enumerate(draws):
        try:
            card = draw_card(entry.card)
        except CardError as error:
            raise ApiError(
                422, render_text(error.text), {f"draws.{index}.card": render_text(error.text)}
            ) from None
        found.append(Drawn(entry.player.strip(), card))
    return found


@bp.post("/seat-draw")
@spec.validate(resp=answers(*BODY, HTTP_200=schemas.Seats, HTTP_422=schemas.RedrawError))
def seat_draw(json: schemas.Draw) -> Response:
    """Sides, seats clockwise from the highest card, and the first dealer; a 422 naming
    who draws again for a joker or a card drawn twice."""
    draws = _draws(json.draws)
    try:
        result = draw_for_seats(VARIANTS[json.variant], draws)
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
