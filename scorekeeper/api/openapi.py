"""The OpenAPI document of the JSON API, served at /api/openapi.json (and fuzzed in tests).

spectree writes it from the routes and the models that validate their requests
(``schemas``): paths, parameters, bodies, answers and the error shape come from one place.
"""

from __future__ import annotations

from flask import Response, jsonify

from . import bp, spec


@bp.get("/openapi.json")
def openapi() -> Response:
    """This API described for tools (OpenAPI 3.1)."""
    return jsonify(spec.spec)
