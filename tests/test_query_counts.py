"""The number of SQL statements a page costs does not grow with the data it shows."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import auth, new_game, result
from .helpers.queries import counted


def game_with(client: FlaskClient, deals: int) -> str:
    game_id, token = new_game(client, options={"target": 1_000_000})
    body = {"results": [result(50, hand=5), result(90, hand=10)]}
    for _ in range(deals):
        assert (
            client.post(f"/api/games/{game_id}/deals", json=body, headers=auth(token)).status_code
            == 201
        )
    return game_id


def test_score_sheet_queries_do_not_grow_with_deals(app: Flask, client: FlaskClient) -> None:
    small, large = game_with(client, 1), game_with(client, 200)
    costs = []
    for game_id in (small, large):
        with counted(app) as statements:
            assert client.get(f"/games/{game_id}").status_code == 200
            assert client.get(f"/api/games/{game_id}").status_code == 200
        costs.append(len(statements))
    assert costs[0] == costs[1], costs


def test_home_queries_do_not_grow_with_games(app: Flask, client: FlaskClient) -> None:
    costs = []
    for _ in range(2):
        for _ in range(10):
            new_game(client)
        with counted(app) as statements:
            assert client.get("/").status_code == 200
            assert client.get("/api/games").status_code == 200
        costs.append(len(statements))
    assert costs[0] == costs[1], costs
