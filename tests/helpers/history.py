"""Games of a month for the history, players and statistics pages."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.store import db
from scorekeeper.store.models import Person

from .api import auth, result

#: RULES.md section 8: case A scores 1210 (went out, a natural and a mixed canasta, one red
#: three, 220 melded, 10 in hand), case B 265 (150 melded, two red threes, 85 in hand).
CASE_A = result(220, natural=1, mixed=1, red_threes=1, went_out=True, hand=10)


CASE_B = result(150, red_threes=2, hand=85)


def game(
    client: FlaskClient,
    sides: list[tuple[str, list[str]]],
    deals: list[list[dict[str, Any]]],
    target: int = 2000,
) -> str:
    body = {
        "variant": "classic",
        "sides": [{"name": name, "players": players} for name, players in sides],
        "options": {"target": target},
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    game_id, token = response.get_json()["id"], response.get_json()["token"]
    for results in deals:
        posted = client.post(
            f"/api/games/{game_id}/deals", json={"results": results}, headers=auth(token)
        )
        assert posted.status_code == 201, posted.get_json()
    # The client keeps score of it on the pages too (the scorer link), as its creator would.
    assert client.post(f"/games/{game_id}/join", data={"token": token}).status_code == 302
    return str(game_id)


def seed_month(client: FlaskClient) -> list[str]:
    """Three game nights: Us wins the first (1210 + 1210 = 2420), Them the second, and Ana
    sits with Vera in a third that is still going (one deal)."""
    us_them = [("Us", ["Ana", "Boris"]), ("Them", ["Vera", "Goran"])]
    return [
        game(client, us_them, [[CASE_A, CASE_B], [CASE_A, CASE_B]]),
        game(client, us_them, [[CASE_B, CASE_A], [CASE_B, CASE_A]]),
        game(
            client, [("Mixed", ["Ana", "Vera"]), ("Rest", ["Boris", "Goran"])], [[CASE_A, CASE_B]]
        ),
    ]


def person_id(app: Flask, name: str) -> int:
    with app.app_context():
        found = db.session.scalar(select(Person.id).where(Person.name == name))
        assert found is not None, name
        return found


def markup(html: str) -> str:
    """The page without its inline stylesheet (whose selectors name every class)."""
    return re.sub(r"<style>.*?</style>", "", html, flags=re.DOTALL)


def words(html: str) -> str:
    """The page's text, tags dropped and spaces squeezed (what a player reads)."""
    return " ".join(re.sub(r"<[^>]+>", " ", markup(html)).replace("&amp;", "&").split())
