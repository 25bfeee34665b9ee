"""Request keys are remembered with the game's change log (docs/API.md "Retries"): the
same key with the same request answers as the first time and changes nothing, even after
that change was undone or its deal deleted; the key with another request is a 422."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import downgrade, upgrade

from scorekeeper import MIGRATIONS
from scorekeeper.rules import SideResult
from scorekeeper.store import db
from scorekeeper.store.changes import record_deal
from scorekeeper.store.errors import Refused, Why
from scorekeeper.store.models import Game

from .helpers.api import auth, game_body, get_game, new_game, result
from .helpers.pages import CASE_A, CASE_B, deal_form, form_nonce
from .helpers.pages import new_game as new_game_form

Json = dict[str, Any]
DEAL = {
    "results": [
        result(220, natural=1, mixed=1, red_threes=1, went_out=True, hand=10),
        result(150, red_threes=2, hand=85),
    ]
}
OTHER = {
    "results": [
        result(220, natural=1, mixed=1, red_threes=1, went_out=True, hand=10),
        result(150, red_threes=2, hand=90),
    ]
}


def keyed(token: str, key: str) -> dict[str, str]:
    return {**auth(token), "Idempotency-Key": key}


def changes_of(client: FlaskClient, game_id: str) -> list[Json]:
    found: list[Json] = client.get(f"/api/games/{game_id}/changes").get_json()["changes"]
    return found


def change_of(client: FlaskClient, game_id: str, kind: str) -> int:
    """The newest change of this kind in the game's log."""
    return next(c["id"] for c in changes_of(client, game_id) if c["kind"] == kind)


def the_deal(answer: Json) -> Json:
    """What a deal's answer says of the deal itself."""
    return {
        "number": answer["number"],
        "version": answer["version"],
        "results": [
            {k: v for k, v in r.items() if k not in ("total", "meld_minimum")}
            for r in answer["results"]
        ],
    }


def test_a_retried_deal_after_its_change_was_undone_records_nothing(
    client: FlaskClient,
) -> None:
    game_id, token = new_game(client)
    first = client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=keyed(token, "d1"))
    assert first.status_code == 201
    undo = client.post(
        f"/api/games/{game_id}/changes/{change_of(client, game_id, 'deal-recorded')}/undo",
        headers=auth(token),
    )
    assert undo.status_code == 200
    again = client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=keyed(token, "d1"))
    assert again.status_code == 201
    assert the_deal(again.get_json()) == the_deal(first.get_json())
    assert again.get_json().keys() == first.get_json().keys()
    game = get_game(client, game_id)
    assert game["deals"] == [] and [s["total"] for s in game["sides"]] == [0, 0]
    assert [s["total"] for s in again.get_json()["sides"]] == [0, 0]  # the game as it stands
    assert [c["kind"] for c in changes_of(client, game_id)] == [
        "undo",
        "deal-recorded",
        "game-created",
    ]


def test_a_retried_deal_after_the_deal_was_deleted_records_nothing(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    first = client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=keyed(token, "d1"))
    assert first.status_code == 201
    assert client.delete(f"/api/games/{game_id}/deals/1", headers=auth(token)).status_code == 200
    again = client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=keyed(token, "d1"))
    assert again.status_code == 201
    assert the_deal(again.get_json()) == the_deal(first.get_json())
    assert get_game(client, game_id)["deals"] == []


def test_a_key_sent_again_with_another_edit_is_refused(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    assert (
        client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=auth(token)).status_code
        == 201
    )
    url = f"/api/games/{game_id}/deals/1"
    assert client.put(url, json=DEAL, headers=keyed(token, "e1")).status_code == 200
    again = client.put(url, json=DEAL, headers=keyed(token, "e1"))
    assert again.status_code == 200  # a retry: the same answer, nothing changed
    assert again.get_json()["version"] == 2
    other = client.put(url, json=OTHER, headers=keyed(token, "e1"))
    assert other.status_code == 422, other.get_json()
    assert "Idempotency-Key" in other.get_json()["fields"]
    deal = get_game(client, game_id)["deals"][0]
    assert deal["results"][1]["hand_points"] == 85 and deal["version"] == 2


def test_a_key_sent_again_with_another_undo_is_refused(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    for _ in range(2):
        client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=auth(token))
    second, first = [c["id"] for c in changes_of(client, game_id) if c["kind"] == "deal-recorded"]
    undo = f"/api/games/{game_id}/changes/{{}}/undo"
    assert client.post(undo.format(second), headers=keyed(token, "u1")).status_code == 200
    again = client.post(undo.format(second), headers=keyed(token, "u1"))
    assert again.status_code == 200 and len(again.get_json()["game"]["deals"]) == 1
    other = client.post(undo.format(first), headers=keyed(token, "u1"))
    assert other.status_code == 422, other.get_json()
    assert len(get_game(client, game_id)["deals"]) == 1


def test_a_key_of_an_edit_sent_with_an_undo_is_refused(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=auth(token))
    put = client.put(f"/api/games/{game_id}/deals/1", json=OTHER, headers=keyed(token, "k"))
    assert put.status_code == 200
    edit = change_of(client, game_id, "deal-edited")
    undo = client.post(f"/api/games/{game_id}/changes/{edit}/undo", headers=keyed(token, "k"))
    assert undo.status_code == 422, undo.get_json()
    assert get_game(client, game_id)["deals"][0]["results"][1]["hand_points"] == 90


def test_a_retried_deletion_deletes_nothing_more(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    for _ in range(3):
        client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=auth(token))
    url = f"/api/games/{game_id}/deals/2"
    assert client.delete(url, headers=keyed(token, "x")).status_code == 200
    again = client.delete(url, headers=keyed(token, "x"))
    assert again.status_code == 200 and len(again.get_json()["deals"]) == 2
    assert len(get_game(client, game_id)["deals"]) == 2


def test_a_retried_game_deletion_after_a_restore_leaves_the_game_listed(
    client: FlaskClient,
) -> None:
    game_id, token = new_game(client)
    url = f"/api/games/{game_id}"
    assert client.delete(url, headers=keyed(token, "g")).status_code == 200
    assert client.post(f"{url}/restore", headers=auth(token)).status_code == 200
    assert client.delete(url, headers=keyed(token, "g")).status_code == 200
    assert client.get(url).status_code == 200
    restore = client.post(f"{url}/restore", headers=keyed(token, "g"))
    assert restore.status_code == 422  # the key deleted the game: it restores nothing


def test_a_retried_new_game_creates_none_and_says_which(client: FlaskClient, app: Flask) -> None:
    """The token of a game is kept hashed: a retry cannot give it again, so it is a 409
    naming the game the key created, and nothing is created."""
    first = client.post("/api/games", json=game_body(), headers={"Idempotency-Key": "n1"})
    assert first.status_code == 201
    game_id = first.get_json()["id"]
    again = client.post("/api/games", json=game_body(), headers={"Idempotency-Key": "n1"})
    assert again.status_code == 409, again.get_json()
    assert game_id in again.get_json()["error"]
    other = client.post(
        "/api/games", json=game_body(starts=(0, 100)), headers={"Idempotency-Key": "n1"}
    )
    assert other.status_code == 422
    with app.app_context():
        assert db.session.query(Game).count() == 1


def test_a_deal_form_resent_after_its_deal_was_undone_records_nothing(
    client: FlaskClient,
) -> None:
    game_id = new_game_form(client)
    nonce = form_nonce(client, game_id)
    data = {**deal_form("0", we=CASE_A, they=CASE_B), "nonce": nonce}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    recorded = change_of(client, game_id, "deal-recorded")
    undone = client.post(f"/games/{game_id}/changes/{recorded}/undo", data={"next": "changes"})
    assert undone.status_code == 302
    resent = client.post(f"/games/{game_id}/deals/new", data=data)
    assert resent.status_code == 302
    assert get_game(client, game_id)["deals"] == []


def test_a_refusal_carries_the_warnings_with_the_errors(client: FlaskClient, app: Flask) -> None:
    """Five red threes are an error; a meld below the minimum is a warning: the one
    refusal names both, each at its field."""
    game_id, token = new_game(client)
    results = [
        SideResult(
            meld_points=20, red_threes=5, went_out=True, natural_canastas=1, mixed_canastas=1
        ),
        SideResult(meld_points=150),
    ]
    with app.test_request_context(), pytest.raises(Refused) as refused:
        record_deal(game_id, results, secret=token)
    assert refused.value.why is Why.INVALID
    assert "results.0.red_threes" in refused.value.fields
    assert refused.value.warnings and not set(refused.value.warnings) & {"results.0.red_threes"}


def test_keys_kept_on_deals_move_to_the_change_log_with_the_migration(
    client: FlaskClient, app: Flask
) -> None:
    game_id, token = new_game(client)
    first = client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=keyed(token, "old"))
    assert first.status_code == 201
    with app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="e5f7a9b1c3d2")
        upgrade(directory=str(MIGRATIONS))
    again = client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=keyed(token, "old"))
    assert again.status_code == 201
    assert the_deal(again.get_json()) == the_deal(first.get_json())
    other = client.post(f"/api/games/{game_id}/deals", json=OTHER, headers=keyed(token, "old"))
    assert other.status_code == 422
    assert len(get_game(client, game_id)["deals"]) == 1


@pytest.mark.parametrize("kept_on_deals", [False, True], ids=["this backup", "older backup"])
def test_keys_come_back_with_a_restore(
    client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path, kept_on_deals: bool
) -> None:
    """A backup keeps the keys with the change log; one from before that keeps them on the
    deals, and a restore moves them to the changes that recorded those deals."""
    game_id, token = new_game(client)
    first = client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=keyed(token, "b1"))
    assert first.status_code == 201
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    if kept_on_deals:
        document = json.loads(path.read_text())
        game = document["games"][0]
        for change in game["changes"]:
            change.pop("request_key"), change.pop("request_hash")
        game["deals"][0].update(request_key="b1", request_hash="0" * 64)
        path.write_text(json.dumps(document))
    done = runner.invoke(args=["restore", "--replace", str(path)])
    assert done.exit_code == 0, done.output
    again = client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=keyed(token, "b1"))
    assert again.status_code == 201
    assert the_deal(again.get_json()) == the_deal(first.get_json())
    other = client.post(f"/api/games/{game_id}/deals", json=OTHER, headers=keyed(token, "b1"))
    assert other.status_code == 422
    assert len(get_game(client, game_id)["deals"]) == 1


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/deals"),
        ("post", "/changes/1/undo"),
        ("delete", ""),
        ("post", "/restore"),
    ],
)
def test_a_malformed_key_is_answered_after_the_game_and_its_token(
    client: FlaskClient, method: str, path: str
) -> None:
    """The store checks the game and its token; a malformed key is a 400 only for a game
    there and a client that holds its token, and changes nothing."""
    game_id, token = new_game(client)
    body = {"json": DEAL} if path == "/deals" else {}

    def status(game: str, secret: str, key: str | None = "\u00e9") -> int:
        headers = auth(secret) if key is None else keyed(secret, key)
        answer = getattr(client, method)(f"/api/games/{game}{path}", headers=headers, **body)
        return int(answer.status_code)

    assert status("nosuch", token) == 404
    assert status(game_id, "no") == 403
    assert status(game_id, token) == 400
    assert status(game_id, "no", key=None) == 403
    assert get_game(client, game_id)["deals"] == []
    assert len(client.get(f"/api/games/{game_id}/changes").get_json()["changes"]) == 1


def test_a_key_of_64_characters_is_kept_and_65_refused(client: FlaskClient) -> None:
    """Idempotency-Key is 1 to 64 printable characters (API.md): the longest one keeps its
    deal once; one more character is a 400 that records nothing."""
    game_id, token = new_game(client)
    url = f"/api/games/{game_id}/deals"
    for _ in range(2):
        kept = client.post(url, json=DEAL, headers=keyed(token, "k" * 64))
        assert kept.status_code in (200, 201), kept.get_json()
    assert len(get_game(client, game_id)["deals"]) == 1
    refused = client.post(url, json=DEAL, headers=keyed(token, "k" * 65))
    assert refused.status_code == 400
    assert len(get_game(client, game_id)["deals"]) == 1
