"""The OpenAPI document of the JSON API, served at /api/openapi.json (and fuzzed in tests).

spectree writes it from the routes and the models that validate their requests
(``schemas``): paths, parameters, bodies, answers and the error shape come from one place.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from flask import Response, jsonify

from . import bp, spec

#: The commands whose body may be left out (``optional_body``), as the document names them:
#: spectree marks every body it validates required.
OPTIONAL_BODIES = (("/api/evenings/{evening_id}/rounds/{number}/close", "post"),)


@cache
def document() -> dict[str, Any]:
    """The document, written once per process."""
    written = copy.deepcopy(spec.spec)
    for path, method in OPTIONAL_BODIES:
        written["paths"][path][method]["requestBody"]["required"] = False
    return written


@bp.get("/openapi.json")
def openapi() -> Response:
    """This API described for tools (OpenAPI 3.1)."""
    return jsonify(document())
