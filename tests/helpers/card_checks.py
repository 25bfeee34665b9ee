"""What the tests of the rules checks share: card shorthand and the shape of a reason a
player reads (tests/test_checks_rules.py, tests/test_checks_play_rules.py), and the JSON
checks' requests and answers (tests/test_checks_api.py, tests/test_checks_play_api.py)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import settings
from werkzeug.test import TestResponse

from scorekeeper.rules import (
    VARIANTS,
    Card,
    Rank,
    parse_cards,
)

RAILROAD = VARIANTS["railroad"]
#: Moderate and reproducible, and no example database written into the project tree.
SETTINGS = settings(max_examples=200, database=None, deadline=None)

NATURAL_RANKS = [r for r in Rank if r not in (Rank.JOKER, Rank.TWO, Rank.THREE)]


def cards(text: str) -> tuple[Card, ...]:
    """Shorthand: the cards of a notation string."""
    return parse_cards(text)


def is_sentence(reason: object) -> bool:
    """A reason a player reads: non-empty, starts with a capital or a number, ends with a
    full stop (in English; the engine's sentences are translatable ``Text``)."""
    text = str(reason).strip()
    return len(text) > 1 and (text[0].isupper() or text[0].isdigit()) and text.endswith(".")


Json = dict[str, Any]

CLASSIC_SIDES: list[Json] = [
    {"name": "Us", "players": ["Ana", "Boris"]},
    {"name": "Them", "players": ["Vera", "Goran"]},
]
RAILROAD_SIDES: list[Json] = [
    {"name": "Ana", "players": ["Ana"]},
    {"name": "Boris", "players": ["Boris"]},
]


def post(client: FlaskClient, path: str, body: Json) -> TestResponse:
    """POST a JSON body to /api/check/<path>."""
    return client.post(f"/api/check/{path}", json=body)


def ok(response: TestResponse) -> Json:
    """The JSON of a 200 answer."""
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert isinstance(body, dict)
    return body


def refused(response: TestResponse, status: int) -> Json:
    """The JSON error of a refused request: {"error": sentence, "fields": {...}}."""
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert isinstance(body, dict)
    assert isinstance(body["error"], str) and body["error"].strip()
    assert isinstance(body["fields"], dict)
    return body


def new_game(
    client: FlaskClient,
    variant: str = "classic",
    options: Json | None = None,
    starts: list[int] | None = None,
) -> tuple[str, str]:
    """Create a game; return its (id, token)."""
    sides = [dict(side) for side in (RAILROAD_SIDES if variant == "railroad" else CLASSIC_SIDES)]
    if starts is not None:
        for side, start in zip(sides, starts, strict=True):
            side["start"] = start
    body: Json = {"variant": variant, "sides": sides}
    if options is not None:
        body["options"] = options
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return created["id"], created["token"]
