"""The JSON API of docs/API.md: variants, games, deals and the rules checks.

Same rules engine and validation as the pages. Errors are
``{"error": "<sentence>", "fields": {"<path>": "<message>"}}`` with 400 (malformed JSON),
403 (game secret), 404 (unknown game or deal), 409 (conflict), 415 (a body not sent as
``application/json``) or 422 (a broken rule); 503 with ``Retry-After`` when the database
cannot be reached or stays locked (the store's ``Unavailable``, answered app-wide in
``web.register_error_pages``).
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar, get_type_hints

from flask import Blueprint, Response, current_app, jsonify, request
from flask.json.provider import DefaultJSONProvider
from pydantic import BaseModel, ValidationError
from spectree import Response as SpecResponse
from spectree import SecurityScheme, SpecTree
from spectree.models import SecureType, SecuritySchemeData
from werkzeug.exceptions import BadRequest

from ..devices import label_of
from ..i18n import render_text
from ..refusals import status_of
from ..rules import CardError, parse_card, parse_cards
from ..rules.draw import draw_card
from ..rules.limits import MAX_REQUEST_KEY
from ..store.errors import Refused, is_request_key
from . import schemas

Model = TypeVar("Model", bound=BaseModel)

bp = Blueprint("api", __name__, url_prefix="/api")


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
        return cls(status_of(refused), render_text(refused.text), fields)


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


class StrictJSON(DefaultJSONProvider):
    """Flask's JSON, reading request bodies as UTF-8 only (``json.loads`` would guess
    UTF-16 and pass undecodable bytes through) and a body nested past Python's recursion
    limit as malformed: both are then a 400, never a 500."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return json.loads(s.decode("utf-8") if isinstance(s, bytes) else s, **kwargs)
        except RecursionError as error:
            raise ValueError("nested too deeply") from error


bp.record_once(lambda state: setattr(state.app, "json", StrictJSON(state.app)))


def _unreadable(raw: bytes) -> str:
    """What is wrong with a body Flask could not read as JSON."""
    try:
        json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return "The request body is not valid UTF-8."
    except RecursionError:
        return "The request body is nested too deeply."
    except ValueError:
        pass
    return "The request body is not valid JSON."


#: What a view that reads a body answers when the body is anything but a JSON object.
NOT_AN_OBJECT = "The request body must be a JSON object."


def json_object() -> dict[str, Any]:
    """The request's JSON object (Flask parses it once and keeps it), or a 400 that says
    what is wrong with it: none sent, unreadable, or not an object (``json_only`` has
    refused a body of another type)."""
    if not (_has_body() or request.is_json):
        raise ApiError(400, NOT_AN_OBJECT)
    try:
        body = request.get_json()
    except BadRequest:
        raise ApiError(400, _unreadable(request.get_data())) from None
    if not isinstance(body, dict):
        raise ApiError(400, NOT_AN_OBJECT)
    return body


def optional_body(model: type[Model]) -> Model:
    """The body of a command that may go without one (closing a round: ``{"final":
    true}``): the model's defaults when none was sent, else one JSON object (400) its
    schema accepts (422)."""
    if not _has_body():
        return model()
    try:
        return model.model_validate(json_object())
    except ValidationError as error:
        raise invalid(error) from None


#: A field's message and the answer's sentence for each kind of error the schema finds.
_SAYS = {
    "missing": ("Required.", "{path} is required."),
    "extra_forbidden": ("Unknown field.", "Unknown field {path!r}."),
    "int_type": ("Must be a whole number.", "{path} must be a whole number."),
    "bool_type": ("Must be true or false.", "{path} must be true or false."),
    "string_type": ("Must be a string.", "{path} must be a string."),
    "list_type": ("Must be a list.", "{path} must be a list."),
    "dict_type": ("Must be an object.", "{path} must be an object."),
    "model_type": ("Must be an object.", "{path} must be an object."),
    "greater_than_equal": ("At least {ge}.", "{path} must be at least {ge}."),
    "less_than_equal": ("At most {le}.", "{path} must be at most {le}."),
    "too_short": ("At least {min_length}.", "{path} must hold at least {min_length}."),
    "too_long": ("At most {max_length}.", "{path} must hold at most {max_length}."),
    "string_too_long": (
        "At most {max_length} characters.",
        "{path} must be at most {max_length} characters.",
    ),
    "multiple_of": ("A multiple of {multiple_of}.", "{path} must be a multiple of {multiple_of}."),
    "literal_error": ("Must be {expected}.", "{path} must be {expected}."),
    "enum": ("Must be {expected}.", "{path} must be {expected}."),
    "variant": ("Unknown rule set.", "Unknown rule set; known: {known}."),
    "partnership": (
        "A rule set of partners.",
        "A club evening plays a rule set of partners: {known}.",
    ),
    "card": ('Must be a card, such as "QS".', '{path} must be a card, such as "QS".'),
    "drawn_card": (
        'A card with its suit, such as "QS".',
        '{path} must be a card with its suit, such as "QS": suits decide ties.',
    ),
    "cards": ('Must be cards, such as "9 9 2".', '{path} must be cards, such as "9 9 2".'),
    "export_format": (
        "Must be {format!r}.",
        "This is not a Canasta Scorekeeper export (format {format!r}).",
    ),
}
_NEGATIVE = ("Cannot be negative.", "{path} cannot be negative.")


#: How the rules engine reads what each kind of card notation error refused.
_NOTATION: dict[str, Callable[[Any], object]] = {
    "card": parse_card,
    "drawn_card": draw_card,
    "cards": parse_cards,
}


def _notation(kind: str, value: object) -> str | None:
    """The rules engine's reason for refusing a card notation (``A three needs its suit``),
    the one the pages give; None where it reads the value (a form this API does not take,
    such as a card with spaces around it) or reads no such type."""
    readable = isinstance(value, str) or (
        kind == "cards" and isinstance(value, list) and all(isinstance(v, str) for v in value)
    )
    if kind not in _NOTATION or not readable:
        return None
    try:
        _NOTATION[kind](value)
    except CardError as error:
        return render_text(error.text)
    return None


def _says(kind: str, context: Mapping[str, Any]) -> tuple[str, str] | None:
    if kind == "greater_than_equal" and context.get("ge") == 0:
        return _NEGATIVE
    return _SAYS.get(kind)


def invalid(error: ValidationError) -> ApiError:
    """The schema's refusal: 422, every field it names, the first one's sentence."""
    fields: dict[str, str] = {}
    sentence = ""
    for problem in error.errors(include_url=False):
        # A key of an object is named as its path (``canastas.golden``), as its value is.
        path = ".".join(str(part) for part in problem["loc"] if part != "[key]")
        context = problem.get("ctx", {})
        says = _says(problem["type"], context)
        reason = _notation(problem["type"], problem["input"])
        if reason is not None:
            message = text = reason
        elif says is None:  # a kind not worded here: pydantic's own words
            message, text = problem["msg"], f"{path}: {problem['msg']}"
        else:
            message, text = says[0].format(**context), says[1].format(path=path, **context)
        fields.setdefault(path, message)
        sentence = sentence or text
    return ApiError(422, sentence, fields)


@cache
def _reads_body(endpoint: str) -> bool:
    """Whether the view of ``endpoint`` reads a body: its ``json`` argument is a model."""
    view = inspect.unwrap(current_app.view_functions[endpoint])
    return get_type_hints(view).get("json") is not None


def checked(req: Any, resp: Any, error: Exception | None, *_: Any) -> None:
    """spectree's hook before each view: a view that reads a body gets one JSON object
    (400 otherwise, also when none was sent) that its schema accepts (422 otherwise)."""
    if request.endpoint is not None and _reads_body(request.endpoint):
        json_object()
    if isinstance(error, ValidationError):
        raise invalid(error)


#: Validates each view's body, query and headers against its models (``schemas``) and
#: writes the OpenAPI document from them and the routes (``openapi``).
spec = SpecTree(
    "flask",
    mode="strict",
    title="Canasta Scorekeeper API",
    version="1",
    description="Score sheets and rules checks for Canasta (docs/API.md in the repository).",
    page_templates={},
    before=checked,
    validation_error_model=schemas.Error,
    naming_strategy=lambda model: model.__name__,
    nested_naming_strategy=lambda _parent, child: child,
    security_schemes=[
        SecurityScheme(name="token", data=SecuritySchemeData(type=SecureType.HTTP, scheme="bearer"))
    ],
)
#: What a view that reads a body may refuse besides the schema's 422 (spectree adds that).
BODY = (400, 413, 415)


def answers(*statuses: int, **models: Any) -> SpecResponse:
    """A view's answers for the document; each refusal (4xx) has the error shape."""
    return SpecResponse(
        *(f"HTTP_{status}" for status in statuses if status < 400),
        **{f"HTTP_{status}": schemas.Error for status in statuses if status >= 400},
        **models,
    )


def request_secret() -> str | None:
    """The request's ``Authorization: Bearer`` secret (a game's or an evening director's)."""
    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    return secret.strip() if scheme.lower() == "bearer" else None


def idempotency_key() -> str | None:
    """The ``Idempotency-Key`` header: a retried command with the same key acts once (the
    store keeps the key with the change). A malformed key is a 400, after what the game or
    the evening itself answers (404, 403): the views check those first."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not (is_request_key(key) and re.fullmatch(schemas.REQUEST_KEY_PATTERN, key)):
        raise ApiError(
            400,
            f"Idempotency-Key is 1 to {MAX_REQUEST_KEY} printable ASCII characters.",
            {"Idempotency-Key": "Invalid."},
        )
    return key


def device() -> str:
    """How the change log names an API client: its program, or browser and system."""
    label = label_of(request.headers.get("User-Agent", ""))
    return f"API ({label})" if label else "API"


#: Changing a game or an evening needs its secret: the "token" scheme of docs/API.md
#: "Conventions".
SECRET: dict[str, list[str]] = {"token": []}


from . import (  # noqa: E402,F401  (the views on bp)
    checks,
    draw,
    evenings,
    games,
    openapi,
    players,
    results,
    seasons,
)
