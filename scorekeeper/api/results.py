"""An evening's public results (API.md "Seasons and results"): the evening as
``GET /api/evenings/<id>`` shows it to a reader, never with a secret, whoever asks."""

from __future__ import annotations

from flask import Response, current_app, jsonify, url_for

from ..caching import conditional, evening_view
from ..store import evenings
from ..store.changes.evenings import NO_EVENING
from ..store.errors import Refused, Why
from . import answers, bp, spec
from .evenings import evening_json


@bp.get("/evenings/<evening_id>/results")
@spec.validate(resp=answers(200, 304, 404), skip_validation=True)
def evening_results(evening_id: str) -> Response:
    """The evening's rounds, tables and standings without any token (the director's
    ``Authorization`` changes nothing), with ``url``, its public results page; 304 while
    the evening and its tables' games stand as the client last read them."""
    stamp = evenings.stamp_of(evening_id)
    if stamp is None:
        raise Refused(Why.NOT_FOUND, NO_EVENING)

    def document() -> Response:
        found = evening_view(evening_id, stamp)
        if found is None:
            raise Refused(Why.NOT_FOUND, NO_EVENING)
        body = evening_json(found, None)
        body["url"] = url_for("web.evening_results", evening_id=evening_id)
        return current_app.response_class(jsonify(body).get_data(), mimetype="application/json")

    response = conditional(f"results-{evening_id}-{stamp.key}", document)
    # It holds no secret: any cache may keep it, and asks again each time (no-cache).
    response.cache_control.public = True
    return response
