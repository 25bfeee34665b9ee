"""Request keys on the API's club-evening commands (API.md "Conventions", "Club evenings"):
the same ``Idempotency-Key`` with the same body answers as the first time and changes
nothing more; with another command or body it is a 422 naming the key. A new evening's
director's secret is kept hashed, so its retry is a 409 naming the evening, as a new game's."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.store import db
from scorekeeper.store.models import Evening, EveningChange, Game

from .helpers.api import Json, assert_error, auth
from .helpers.evenings import evening_body, new_evening


def keyed(token: str, key: str) -> dict[str, str]:
    return {**auth(token), "Idempotency-Key": key}


def count(app: Flask, column: Any) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count(column))) or 0)


def evening_log(app: Flask) -> list[tuple[str, int | None, str | None]]:
    with app.app_context():
        rows = db.session.execute(
            select(EveningChange.kind, EveningChange.round, EveningChange.request_key).order_by(
                EveningChange.id
            )
        )
        return [(kind, round_, key) for kind, round_, key in rows]


def test_a_new_evening_sent_again_makes_none_and_names_the_first(
    client: FlaskClient, app: Flask
) -> None:
    first = client.post("/api/evenings", json=evening_body(), headers={"Idempotency-Key": "e1"})
    assert first.status_code == 201, first.get_json()
    evening_id = first.get_json()["id"]
    games = count(app, Game.id)
    again = client.post("/api/evenings", json=evening_body(), headers={"Idempotency-Key": "e1"})
    assert evening_id in assert_error(again, 409, "Idempotency-Key")["fields"]["Idempotency-Key"]
    other = client.post(
        "/api/evenings", json=evening_body(rounds=2), headers={"Idempotency-Key": "e1"}
    )
    # Worded as every reused key is: naming what the key made.
    assert "evening created" in assert_error(other, 422)["fields"]["Idempotency-Key"]
    assert count(app, Evening.id) == 1 and count(app, Game.id) == games


def test_each_evening_command_sent_twice_acts_once(client: FlaskClient, app: Flask) -> None:
    evening = new_evening(client)
    base, token = f"/api/evenings/{evening['id']}", evening["token"]
    first, second = evening["rounds"][0]["tables"]
    a, b = first["sides"][0]["players"][0], second["sides"][0]["players"][0]
    answers = []
    for _ in range(2):  # sent again, it would swap them back
        answer = client.post(
            f"{base}/rounds/1/swap", json={"players": [a, b]}, headers=keyed(token, "swap-1")
        )
        assert answer.status_code == 200, answer.get_json()
        answers.append(answer.get_json())
    assert answers[0] == answers[1]
    tables = answers[1]["rounds"][0]["tables"]
    assert a in tables[1]["sides"][0]["players"] and b in tables[0]["sides"][0]["players"]
    for _ in range(2):
        answer = client.post(
            f"{base}/rounds/1/close", json={"final": True}, headers=keyed(token, "close-1")
        )
        assert answer.status_code == 200, answer.get_json()
    for _ in range(2):  # sent again, it would seat round 3
        answer = client.post(f"{base}/rounds", headers=keyed(token, "start-2"))
        assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["round"] == 2
    assert evening_log(app)[1:] == [
        ("seats-swapped", 1, "swap-1"),
        ("round-closed", 1, "close-1"),
        ("round-started", 2, "start-2"),
    ]


def test_a_key_sent_with_another_evening_command_is_refused(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    base, token = f"/api/evenings/{evening['id']}", evening["token"]
    first, second = evening["rounds"][0]["tables"]
    a, b = first["sides"][0]["players"][0], second["sides"][0]["players"][0]
    swapped = client.post(
        f"{base}/rounds/1/swap", json={"players": [a, b]}, headers=keyed(token, "k")
    )
    assert swapped.status_code == 200
    before = client.get(base).get_json()
    # The same command with another body, then other commands: each a 422, nothing done.
    other = {"players": [a, second["sides"][1]["players"][0]]}
    assert_error(client.post(f"{base}/rounds/1/swap", json=other, headers=keyed(token, "k")), 422)
    for path in ("/rounds/1/close", "/rounds"):
        assert_error(
            client.post(f"{base}{path}", headers=keyed(token, "k")), 422, "Idempotency-Key"
        )
    assert client.get(base).get_json() == before
    assert [kind for kind, _round, _key in evening_log(app)] == ["evening-created", "seats-swapped"]


@pytest.mark.parametrize("path", ["/rounds", "/rounds/1/close", "/rounds/1/swap"])
def test_a_malformed_key_is_answered_after_the_evening_and_its_director(
    client: FlaskClient, path: str
) -> None:
    evening: Json = new_evening(client)
    body = {"json": {"players": ["Ana", "Vera"]}} if path.endswith("swap") else {}

    def status(evening_id: str, token: str) -> int:
        answer = client.post(
            f"/api/evenings/{evening_id}{path}", headers=keyed(token, "\u00e9"), **body
        )
        return int(answer.status_code)

    assert status("nosuchevening", evening["token"]) == 404
    assert status(evening["id"], "wrong") == 403
    assert status(evening["id"], evening["token"]) == 400
    assert client.get(f"/api/evenings/{evening['id']}").get_json()["round"] == 1
