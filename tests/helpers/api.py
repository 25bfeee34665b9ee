"""Games through the JSON API: create, read, the deal results and the answers' shapes."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.store import db
from scorekeeper.store.models import Deal, DealResult, Game

Json = dict[str, Any]


SIDES: list[Json] = [
    {"name": "Us", "players": ["Ana", "Boris"]},
    {"name": "Them", "players": ["Vera", "Goran"]},
]


def game_body(starts: tuple[int, int] | None = None, options: Json | None = None) -> Json:
    """A POST /api/games body for a classic game, optionally with starting totals."""
    sides = [dict(side, players=list(side["players"])) for side in SIDES]
    if starts is not None:
        for side, start in zip(sides, starts, strict=True):
            side["start"] = start
    body: Json = {"variant": "classic", "sides": sides}
    if options is not None:
        body["options"] = options
    return body


def new_game(
    client: FlaskClient,
    starts: tuple[int, int] | None = None,
    options: Json | None = None,
) -> tuple[str, str]:
    """Create a classic game; return its (id, token)."""
    response = client.post("/api/games", json=game_body(starts, options))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], body["token"]


def result(
    meld: int = 0,
    *,
    natural: int = 0,
    mixed: int = 0,
    red_threes: int = 0,
    went_out: bool = False,
    concealed: bool = False,
    hand: int = 0,
) -> Json:
    """One side's result of a deal, every field spelled out."""
    return {
        "meld_points": meld,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": red_threes,
        "went_out": went_out,
        "concealed": concealed,
        "hand_points": hand,
    }


def auth(token: str) -> dict[str, str]:
    """The header that changing a game needs."""
    return {"Authorization": f"Bearer {token}"}


def get_game(client: FlaskClient, game_id: str) -> Json:
    """GET the game; it must answer 200."""
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.get_json()
    body: Json = response.get_json()
    return body


def totals(game: Json) -> list[int]:
    return [side["total"] for side in game["sides"]]


def minimums(game: Json) -> list[int]:
    return [side["meld_minimum"] for side in game["sides"]]


def scores(deal: Json) -> list[int]:
    return [r["score"] for r in deal["results"]]


def assert_error(response: TestResponse, status: int, *paths: str) -> Json:
    """The answer is ``status`` with the error shape of API.md; when ``paths`` are given,
    ``fields`` names at least one of them."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.is_json, response.get_data(as_text=True)
    body: Json = response.get_json()
    assert isinstance(body, dict)
    assert isinstance(body.get("error"), str) and body["error"].strip()
    assert isinstance(body.get("fields"), dict)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in body["fields"].items())
    if paths:
        assert set(paths) & set(body["fields"]), (paths, body)
    return body


def counts(app: Flask) -> tuple[int, int, int]:
    with app.app_context():
        return (
            db.session.query(Game).count(),
            db.session.query(Deal).count(),
            db.session.query(DealResult).count(),
        )


def post_deal(client: FlaskClient, game_id: str, token: str, *results: Json) -> TestResponse:
    """POST the next deal of a game."""
    return client.post(
        f"/api/games/{game_id}/deals", json={"results": list(results)}, headers=auth(token)
    )


def put_deal(
    client: FlaskClient, game_id: str, token: str, number: int, *results: Json
) -> TestResponse:
    """PUT (replace) deal ``number`` of a game."""
    return client.put(
        f"/api/games/{game_id}/deals/{number}",
        json={"results": list(results)},
        headers=auth(token),
    )


# The worked cases of RULES.md section 8 (classic).
# A: 500 natural + 300 mixed + 100 red three + 100 out + 220 melded - 10 hand = 1210
CASE_A = result(220, natural=1, mixed=1, red_threes=1, went_out=True, hand=10)


# B: 2 * 100 red threes + 150 melded - 85 hand = 265
CASE_B = result(150, red_threes=2, hand=85)


# C: melded nothing, so red threes count against: -2 * 100 - 120 hand = -320
CASE_C = result(0, red_threes=2, hand=120)


# D: 2 * 500 + 800 (all four red threes) + 200 (out concealed) + 310 - 15 = 2295
CASE_D = result(310, natural=2, red_threes=4, went_out=True, concealed=True, hand=15)


# E: 300 mixed + 95 melded - 40 hand = 355
CASE_E = result(95, mixed=1, hand=40)


def changes(client: FlaskClient, game_id: str) -> list[Json]:
    response = client.get(f"/api/games/{game_id}/changes")
    assert response.status_code == 200, response.get_json()
    found: list[Json] = response.get_json()["changes"]
    return found


def undo(client: FlaskClient, game_id: str, token: str, change_id: int) -> Any:
    return client.post(f"/api/games/{game_id}/changes/{change_id}/undo", headers=auth(token))


def three_deals(client: FlaskClient) -> tuple[str, str]:
    """A + B (1210, 265), then E + C (355, -320), then B + A (265, 1210)."""
    game_id, token = new_game(client)
    for pair in ((CASE_A, CASE_B), (CASE_E, CASE_C), (CASE_B, CASE_A)):
        assert post_deal(client, game_id, token, *pair).status_code == 201
    return game_id, token
