"""The JSON API of docs/API.md: variants, games, deals and the rules checks.

Same rules engine and validation as the pages. Errors are
``{"error": "<sentence>", "fields": {"<path>": "<message>"}}`` with 400 (malformed JSON),
403 (game token), 404 (unknown game or deal), 409 (conflict), 415 (a body not sent as
``application/json``) or 422 (a broken rule).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Set
from typing import Any

from flask import Blueprint, Response, jsonify, request

from ..i18n import render_text
from ..store.errors import Refused, Why

bp = Blueprint("api", __name__, url_prefix="/api")

#: The status of each kind of refusal the store gives.
STATUS = {
    Why.INVALID: 422,
    Why.FORBIDDEN: 403,
    Why.NOT_FOUND: 404,
    Why.CONFLICT: 409,
    Why.OUTDATED: 409,
    Why.BUSY: 409,
    Why.REUSED: 422,
    Why.GONE: 410,
}


class ApiError(Exception):
    """An answer other than the one asked for: its status, a sentence, and the fields."""

    def __init__(
        self,
        status: int,
        message: str,
        fields: Mapping[str, str] | None = None,
        extra: Mapping[str, Any] | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.message = message
        self.fields = dict(fields or {})
        #: More of the answer beside the error (the newer deal of a stale If-Match).
        self.extra = dict(extra or {})

    @classmethod
    def of(cls, refused: Refused) -> ApiError:
        """The store's refusal in the request's language."""
        fields = {path: render_text(text) for path, text in refused.fields.items()}
        return cls(STATUS[refused.why], render_text(refused.text), fields)


def error_response(
    status: int,
    message: str,
    fields: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Response:
    response = jsonify({**(extra or {}), "error": message, "fields": dict(fields or {})})
    response.status_code = status
    return response


@bp.errorhandler(ApiError)
def api_error(error: ApiError) -> Response:
    return error_response(error.status, error.message, error.fields, error.extra)


@bp.errorhandler(Refused)
def refused(refusal: Refused) -> Response:
    return api_error(ApiError.of(refusal))


#: The one type of body the API reads.
JSON = "application/json"
NOT_JSON = f"The request body must be sent as JSON, with Content-Type: {JSON}."


def _has_body() -> bool:
    return (
        bool(request.content_length)
        or "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    )


@bp.before_request
def json_only() -> None:
    """A body of any other type is refused (415) before a view runs: a form on another
    site can make a visitor's browser send text/plain without asking, never
    application/json. A request without a body (a DELETE) needs no type."""
    if _has_body() and request.mimetype != JSON:
        raise ApiError(415, NOT_JSON)


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 that says what is wrong with it (``json_only``
    has refused a body of another type)."""
    raw = request.get_data(cache=False)
    try:
        body = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "The request body is not valid UTF-8.") from None
    except RecursionError:
        raise ApiError(400, "The request body is nested too deeply.") from None
    except ValueError:
        raise ApiError(400, "The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError(400, "The request body must be a JSON object.")
    return body


def reject_unknown(body: Mapping[str, Any], allowed: Set[str], path: str = "") -> None:
    for key in body:
        if key not in allowed:
            where = f"{path}{key}"
            raise ApiError(422, f"Unknown field {where!r}.", {where: "Unknown field."})


def string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise ApiError(422, f"{path} must be a string.", {path: "Must be a string."})
    return value


def integer(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(422, f"{path} must be a whole number.", {path: "Must be a whole number."})
    return value


from . import checks, draw, games, openapi  # noqa: E402,F401  (the views on bp)
