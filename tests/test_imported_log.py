"""The change log an import or a restore carries tells the story of the deals it carries:
a log that names a deal the game never had, holds the game's creation twice (a log pasted
three times) or gives two changes one id is refused whole, naming the field, and nothing
is created (through the API's import and through `flask restore`)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from .helpers.api import (
    CASE_A,
    CASE_B,
    CASE_C,
    CASE_E,
    assert_error,
    auth,
    changes,
    counts,
    get_game,
    new_game,
    post_deal,
    put_deal,
    undo,
)

Json = dict[str, Any]


def played(client: FlaskClient) -> str:
    """A game whose log holds every kind of deal change and undos of them: three deals,
    deal 1 edited, deal 2 deleted and brought back, deal 3 deleted, the undo undone."""
    game_id, token = new_game(client)
    for pair in ((CASE_A, CASE_B), (CASE_E, CASE_C), (CASE_B, CASE_A)):
        assert post_deal(client, game_id, token, *pair).status_code == 201
    assert put_deal(client, game_id, token, 1, CASE_E, CASE_B).status_code == 200
    assert client.delete(f"/api/games/{game_id}/deals/2", headers=auth(token)).status_code == 200
    deletion = changes(client, game_id)[0]["id"]
    assert undo(client, game_id, token, deletion).status_code == 200
    assert client.delete(f"/api/games/{game_id}/deals/3", headers=auth(token)).status_code == 200
    last = changes(client, game_id)[0]["id"]
    back = undo(client, game_id, token, last).get_json()["change"]
    assert undo(client, game_id, token, back).status_code == 200  # deal 3 goes again
    return game_id


def export_of(client: FlaskClient, game_id: str) -> Json:
    document: Json = client.get(f"/api/games/{game_id}/export").get_json()
    return document


def entry(document: Json, kind: str, deal: int | None = None) -> int:
    """The place in the document's log of its first change of ``kind`` (on ``deal``)."""
    return next(
        index
        for index, change in enumerate(document["changes"])
        if change["kind"] == kind and (deal is None or change["deal"] == deal)
    )


def _unknown_deal(document: Json) -> str:
    index = entry(document, "deal-edited")
    document["changes"][index].update(deal=99, deal_seq=99)
    return f"changes.{index}.deal"


def _deal_at_another_number(document: Json) -> str:
    index = entry(document, "deal-recorded", 2)
    document["changes"][index]["deal"] = 1
    return f"changes.{index}.deal"


def _deal_deleted_twice(document: Json) -> str:
    index = entry(document, "deal-deleted", 3)  # deal 3 is deleted (deal 2 came back)
    document["changes"].append(copy.deepcopy(document["changes"][index]))
    del document["changes"][-1]["id"]
    return f"changes.{len(document['changes']) - 1}.deal"


def _ends_with_a_deal_not_carried(document: Json) -> str:
    del document["changes"][-1]  # deal 3 is back, yet not among the deals
    return f"changes.{len(document['changes']) - 1}.deal"


def _ends_without_a_deal_carried(document: Json) -> str:
    """Deals 1 and 2 recorded, deal 2 deleted: yet deal 2 is carried."""
    log = document["changes"]
    recorded = [log[entry(document, "deal-recorded", number)] for number in (1, 2)]
    document["changes"] = [log[0], *recorded, log[entry(document, "deal-deleted", 2)]]
    return "deals.1"


def _repeated_three_times(document: Json) -> str:
    document["changes"] = document["changes"] * 3
    return f"changes.{len(document['changes']) // 3}.id"


def _repeated_without_ids(document: Json) -> str:
    for change in document["changes"]:
        del change["id"]
        change["undoes"] = None
    document["changes"] = copy.deepcopy(document["changes"]) * 3
    return f"changes.{len(document['changes']) // 3}.kind"


def _two_creations(document: Json) -> str:
    creation = copy.deepcopy(document["changes"][0])
    creation["id"] = max(c["id"] for c in document["changes"]) + 1
    document["changes"].append(creation)
    return f"changes.{len(document['changes']) - 1}.kind"


def _no_creation(document: Json) -> str:
    del document["changes"][0]
    return "changes"


def _duplicate_ids(document: Json) -> str:
    document["changes"][2]["id"] = document["changes"][1]["id"]
    return "changes.2.id"


BAD_LOGS: dict[str, Callable[[Json], str]] = {
    "an entry naming a deal that does not exist": _unknown_deal,
    "a deal at a number it did not have": _deal_at_another_number,
    "a deal deleted twice": _deal_deleted_twice,
    "a log that ends with a deal not carried": _ends_with_a_deal_not_carried,
    "a log that ends without a deal carried": _ends_without_a_deal_carried,
    "the log repeated three times": _repeated_three_times,
    "the log repeated three times, without ids": _repeated_without_ids,
    "two creations": _two_creations,
    "no creation": _no_creation,
    "two changes with one id": _duplicate_ids,
}


def test_a_log_with_every_kind_of_change_imports(client: FlaskClient) -> None:
    game_id = played(client)
    response = client.post("/api/games/import", json=export_of(client, game_id))
    assert response.status_code == 201, response.get_json()
    copy_id = response.get_json()["id"]
    assert get_game(client, copy_id)["sides"] == get_game(client, game_id)["sides"]
    kinds = [(c["kind"], c["deal"]) for c in changes(client, copy_id)]
    assert kinds == [(c["kind"], c["deal"]) for c in changes(client, game_id)]


@pytest.mark.parametrize("case", BAD_LOGS)
def test_import_refuses_a_log_that_disagrees_with_its_deals(
    app: Flask, client: FlaskClient, case: str
) -> None:
    document = export_of(client, played(client))
    field = BAD_LOGS[case](document)
    before = counts(app)
    body = assert_error(client.post("/api/games/import", json=document), 422)
    assert field in body["fields"], body
    assert counts(app) == before


def test_a_log_with_every_kind_of_change_restores(
    client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    game_id = played(client)
    game, log = get_game(client, game_id), changes(client, game_id)
    path = tmp_path / "club.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    done = runner.invoke(args=["restore", "--replace", str(path)])
    assert done.exit_code == 0, done.output
    assert get_game(client, game_id) == game and changes(client, game_id) == log


@pytest.mark.parametrize("case", BAD_LOGS)
def test_restore_refuses_a_log_that_disagrees_with_its_deals(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path, case: str
) -> None:
    game_id = played(client)
    path = tmp_path / "club.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    document = json.loads(path.read_text())
    field = BAD_LOGS[case](document["games"][0])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    before, game = counts(app), get_game(client, game_id)
    done = runner.invoke(args=["restore", "--replace", str(bad)])
    assert done.exit_code == 1, done.output
    assert "Nothing was changed." in done.output and "Traceback" not in done.output
    assert f"games.0 (game {game_id}), {field}:" in done.output, done.output
    assert counts(app) == before and get_game(client, game_id) == game
