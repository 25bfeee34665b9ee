"""The OpenAPI document says what the API enforces (issue 40): schemathesis reads
/api/openapi.json and sends every operation requests the document allows and requests it
forbids, and its checks hold the answers to it.

- ``positive_data_acceptance``: a request the document allows is not refused for its shape
  (400, or a 422 from the schema). It may be refused with 401, 403, 404, 409 or 429
  (schemathesis's defaults), and where ``DOMAIN`` says so with a 422 for what only the
  rules engine or the store can know: the schema's model must then take the body, and the
  refusal name only the fields ``DOMAIN`` gives (``_is_the_domains``).
- ``negative_data_rejection``: a request the document forbids is refused.
- ``unsupported_method``: a method the document does not list is a 405 with ``Allow``.
- ``not_a_server_error``: nothing a client sends is a 500.

The operations that act on a game or an evening act on real ones, each on its own (so
that deleting a deal or a game in one does not make another's answers 404s), with its
secret: their bodies reach the rules engine instead of stopping at a 404 or a 403.
Seeded and derandomized: each run sends the same requests (some 2000, in about half a minute).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from pydantic import ValidationError
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
    unsupported_method,
)

from scorekeeper import create_app
from scorekeeper.api import schemas
from scorekeeper.rules.limits import MAX_TARGET

from .helpers.api import CASE_A, CASE_B

_FOLDER = Path(tempfile.mkdtemp(prefix="scorekeeper-contract-"))
app = create_app(
    {
        "TESTING": True,
        "SECRET_KEY": "contract",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{_FOLDER / 'contract.sqlite'}",
        "RATELIMIT_ENABLED": False,
    }
)
_client = app.test_client()


def _answer(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def _game() -> dict[str, Any]:
    """A classic game with one deal, whose target no run of this test reaches."""
    sides = [{"players": ["Ana", "Boris"]}, {"players": ["Vera", "Goran"]}]
    game = _answer(
        _client.post("/api/games", json={"sides": sides, "options": {"target": MAX_TARGET}}),
        201,
    )
    auth = {"Authorization": f"Bearer {game['token']}"}
    deal = {"results": [CASE_A, CASE_B]}
    _answer(_client.post(f"/api/games/{game['id']}/deals", json=deal, headers=auth), 201)
    changes = _answer(_client.get(f"/api/games/{game['id']}/changes"), 200)["changes"]
    return {
        "parameters": {"game_id": game["id"], "number": 1, "change_id": changes[0]["id"]},
        "headers": auth,
    }


def _evening() -> dict[str, Any]:
    """A pairs evening of two tables, its first round being played."""
    pairs = [["Ana", "Boris"], ["Vera", "Goran"], ["Dana", "Ivo"], ["Mila", "Petar"]]
    body = {"name": "Club", "format": "pairs", "pairs": pairs, "rounds": 3, "deals_per_round": 4}
    evening = _answer(_client.post("/api/evenings", json=body), 201)
    return {
        "parameters": {"evening_id": evening["id"], "number": 1},
        "headers": {"Authorization": f"Bearer {evening['token']}"},
    }


def _season() -> dict[str, Any]:
    """A season with the default points table."""
    season = _answer(_client.post("/api/seasons", json={"name": "Winter"}), 201)
    return {
        "parameters": {"season_id": season["id"]},
        "headers": {"Authorization": f"Bearer {season['token']}"},
    }


#: Operations whose path names a game, an evening or a season: each gets one of its own.
_ON_A_GAME = [
    "GET /api/games/{game_id}",
    "DELETE /api/games/{game_id}",
    "POST /api/games/{game_id}/restore",
    "GET /api/games/{game_id}/export",
    "GET /api/games/{game_id}/changes",
    "POST /api/games/{game_id}/changes/{change_id}/undo",
    "POST /api/games/{game_id}/deals",
    "GET /api/games/{game_id}/deals/{number}",
    "PUT /api/games/{game_id}/deals/{number}",
    "DELETE /api/games/{game_id}/deals/{number}",
    "POST /api/games/{game_id}/time-called",
    # A game of its own: confirming its deal is a 409 (its evening would have to ask).
    "POST /api/games/{game_id}/deals/{number}/confirm",
]
_ON_AN_EVENING = [
    "GET /api/evenings/{evening_id}",
    "POST /api/evenings/{evening_id}/rounds",
    "POST /api/evenings/{evening_id}/rounds/{number}/close",
    "POST /api/evenings/{evening_id}/rounds/{number}/swap",
]
_ON_A_SEASON = ["GET /api/seasons/{season_id}", "PUT /api/seasons/{season_id}"]

_KEY = r"Idempotency-Key"  # the same key sent before with another request (API.md)
_OPTIONS = r"options\..*"  # a house rule the rule set does not have, or a value it refuses
_SIDES = r"sides(\.\d+\.(players(\.\d+)?|name|start|cards(\.\d+)?))?"
#: What only the rules engine or the store can refuse in a request the document allows,
#: by operation: the fields such a 422 may name. Names: the store refuses control
#: characters and a name given twice; cards: a joker or a card drawn twice draws again.
DOMAIN: dict[str, str] = {
    # The sides and players a rule set seats, a start short of its target, the cards drawn,
    # a first dealer among the players.
    "POST /api/games": rf"{_SIDES}|{_OPTIONS}|first_dealer|{_KEY}",
    # As a new game, and every deal and entry of the change log checked as recorded.
    "POST /api/games/import": (
        rf"{_SIDES}|{_OPTIONS}|first_dealer|totals|winner|created_at|last_deal"
        rf"|deals(\..+)?|changes(\..+)?|{_KEY}"
    ),
    # One result per side of the game, and a deal that could have happened under its rules.
    "POST /api/games/{game_id}/deals": rf"results(\..+)?|{_KEY}",
    "PUT /api/games/{game_id}/deals/{number}": rf"results(\..+)?|{_KEY}",
    "DELETE /api/games/{game_id}/deals/{number}": _KEY,
    "POST /api/games/{game_id}/changes/{change_id}/undo": _KEY,
    "DELETE /api/games/{game_id}": _KEY,
    "POST /api/games/{game_id}/restore": _KEY,
    "POST /api/games/{game_id}/time-called": _KEY,
    "POST /api/evenings/{evening_id}/rounds/{number}/close": _KEY,
    # As many players as the rule set seats, each named once (a joker or a card drawn twice
    # is a 422 of its own, naming who draws again: see ``_is_the_domains``).
    "POST /api/seat-draw": r"draws(\.\d+\.player)?",
    "POST /api/check/meld": _OPTIONS,
    # A side of the game named instead of a score.
    "POST /api/check/initial-meld": rf"{_OPTIONS}|side",
    "POST /api/check/pickup": _OPTIONS,
    # A kind of canasta the rule set does not score; what forbids going out under another
    # rule set (an unfinished aces meld in Burraco).
    "POST /api/check/going-out": rf"{_OPTIONS}|canastas\.\w+|unfinished_\w+|pot_missed",
    # Pairs of the rule set's side size, enough of them for two tables, named once each; a
    # scale's steps rising, the last open (and victory points for tables of two sides); the
    # rounds, which only a round robin may leave out; a movement of pairs, two sides a table.
    "POST /api/evenings": (
        rf"name|{_OPTIONS}|pairs(\.\d+){{0,2}}|players(\.\d+)?|scoring(\..+)?|rounds|movement"
        # A season's secret without the season it is of.
        r"|season"
    ),
    # A points table's places never rising; a name of more than spaces.
    "POST /api/seasons": r"name|points(\.\d+)?|Idempotency-Key",
    "PUT /api/seasons/{season_id}": r"points(\.\d+)?|Idempotency-Key",
    # Two players of the round who do not sit together already.
    "POST /api/evenings/{evening_id}/rounds/{number}/swap": r"players(\.\d+)?",
}

#: Operations with an optional header whose pattern needs punctuation (``If-Match``:
#: ``"<seq>.<version>"``). schemathesis 4.32's coverage phase draws header values from
#: letters and digits only; finding none that matches, it seeds the header with a value
#: that does not, yet still sends it in a case it calls positive. Such a case's 400 is
#: let through here and judged in ``_is_a_mislabelled_header``: the value sent must break
#: the header's documented pattern.
MISLABELLED_HEADERS = {
    "PUT /api/games/{game_id}/deals/{number}",
    "DELETE /api/games/{game_id}/deals/{number}",
    "POST /api/games/{game_id}/deals/{number}/confirm",
}

_STATUSES = ["2xx", "3xx", "401", "403", "404", "409", "429"]


def _operations() -> list[dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for name in _ON_A_GAME:
        found[name] = _game()
    for name in _ON_AN_EVENING:
        found[name] = _evening()
    for name in _ON_A_SEASON:
        found[name] = _season()
    for name in {*DOMAIN, *MISLABELLED_HEADERS}:
        statuses = [*_STATUSES, *(["422"] if name in DOMAIN else [])]
        statuses += ["400"] if name in MISLABELLED_HEADERS else []
        expected = {"expected-statuses": statuses}
        found.setdefault(name, {})["checks"] = {"positive_data_acceptance": expected}
    return [{"include-name": name, **config} for name, config in found.items()]


config = schemathesis.Config.from_dict(
    {
        "seed": 40,
        "generation": {"deterministic": True},
        "checks": {"positive_data_acceptance": {"expected-statuses": _STATUSES}},
        "operations": _operations(),
    }
)
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=config)
CHECKS = [not_a_server_error, positive_data_acceptance, negative_data_rejection, unsupported_method]


def _body_model(case: schemathesis.Case) -> type[schemas.Body] | None:
    body = case.operation.definition.raw.get("requestBody")
    if body is None:
        return None
    ref: str = body["content"]["application/json"]["schema"]["$ref"]
    model: type[schemas.Body] = getattr(schemas, ref.rsplit("/", 1)[-1])
    return model


def _is_the_domains(case: schemathesis.Case, refusal: dict[str, Any]) -> None:
    """A request the document allows, refused with 422: by the rules engine or the store
    (the schema takes its body), naming only what they decide."""
    name = f"{case.method} {case.operation.path}"
    model = _body_model(case)
    if model is not None:
        try:
            model.model_validate(case.body)
        except ValidationError as error:
            raise AssertionError(f"{name}: the document allows what the schema refuses") from error
    domain = re.compile(DOMAIN[name], re.DOTALL)  # an option's name may hold a newline
    if "redraw" in refusal:  # a seat draw to repeat names the cards drawn again
        domain = re.compile(r"draws\.\d+\.card")
    fields = refusal["fields"]
    assert fields and all(domain.fullmatch(path) for path in fields), (name, case.body, refusal)


def _is_a_mislabelled_header(case: schemathesis.Case, refusal: dict[str, Any]) -> None:
    """A request called positive, refused with 400: only for headers whose value as sent
    breaks the pattern the document gives them."""
    name = f"{case.method} {case.operation.path}"
    assert name in MISLABELLED_HEADERS, (name, refusal)
    patterns = {
        parameter["name"]: parameter["schema"]["pattern"]
        for parameter in case.operation.definition.raw.get("parameters", [])
        if parameter["in"] == "header" and "pattern" in parameter["schema"]
    }
    headers = case.headers or {}
    for header in refusal["fields"] or [None]:
        assert header in patterns, (name, refusal)
        assert not re.search(patterns[header], headers[header]), (name, header, headers[header])


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_document_says_what_the_api_enforces(case: schemathesis.Case) -> None:
    response = case.call_and_validate(checks=CHECKS)
    if response.status_code < 400:
        return
    refusal = response.json()
    # Every refusal has the error shape; a seat draw to repeat also names who draws again,
    # a change of a deal changed since carries the deal as it is now (API.md).
    extra = {
        ("/api/seat-draw", 422): {"redraw"},
        ("/api/games/{game_id}/deals/{number}", 409): {"deal"},
    }.get((case.operation.path, response.status_code), set())
    assert set(refusal) - extra == {"error", "fields"} and refusal["error"], refusal
    meta = case.meta
    if meta is not None and meta.generation.mode.is_positive:
        if response.status_code == 422:
            _is_the_domains(case, refusal)
        if response.status_code == 400:
            _is_a_mislabelled_header(case, refusal)
