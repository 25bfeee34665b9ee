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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def forged(state: Json, side: int = 0, **figures: int) -> None:
    """Figures a deal never had, written into a logged deal (``before`` or ``after``)."""
    state["results"][side].update(figures)


def _edit_from_figures_never_had(document: Json) -> str:
    """The tester's case: an edit whose ``before`` is a deal of meld 4000 and 5 canastas."""
    index = entry(document, "deal-edited")
    forged(document["changes"][index]["before"], meld_points=4000, natural_canastas=5)
    return f"changes.{index}.before"


def _edit_to_figures_never_had(document: Json) -> str:
    """Deal 1's edit is its last change: the deal carried is not what it made."""
    index = entry(document, "deal-edited")
    forged(document["changes"][index]["after"], 1, meld_points=4000)
    return f"changes.{index}.after"


def _recorded_figures_never_had(document: Json) -> str:
    """Deal 1 recorded with other figures: its edit then starts from a deal it did not have."""
    forged(document["changes"][entry(document, "deal-recorded", 1)]["after"], hand_points=0)
    return f"changes.{entry(document, 'deal-edited')}.before"


def _deleted_deal_never_had(document: Json) -> str:
    index = entry(document, "deal-deleted", 3)
    forged(document["changes"][index]["before"], red_threes=4)
    return f"changes.{index}.before"


def _undo_that_does_not_reverse(document: Json) -> str:
    """The undo that brought deal 2 back brings back other figures than its deletion took."""
    log = document["changes"]
    deletion = log[entry(document, "deal-deleted", 2)]["id"]
    index = next(i for i, change in enumerate(log) if change["undoes"] == deletion)
    forged(log[index]["after"], meld_points=4000)
    return f"changes.{index}.after"


def _creation_with_a_deal(document: Json) -> str:
    document["changes"][0]["after"] = copy.deepcopy(document["changes"][1]["after"])
    return "changes.0.after"


def _time_called_at_a_length_never_had(document: Json) -> str:
    """Time called, the game ending after deal 2: yet the document's game plays on."""
    log = document["changes"]
    log.append(
        {
            "id": max(change["id"] for change in log) + 1,
            "kind": "time-called",
            "at": log[-1]["at"],
            "before": {"last_deal": None},
            "after": {"last_deal": 2},
        }
    )
    return f"changes.{len(log) - 1}.after"


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
    "an edit from figures the deal never had": _edit_from_figures_never_had,
    "an edit to figures the deal does not have": _edit_to_figures_never_had,
    "a deal recorded with figures it never had": _recorded_figures_never_had,
    "a deletion of figures the deal never had": _deleted_deal_never_had,
    "an undo that does not put back what its change took": _undo_that_does_not_reverse,
    "a game's creation carrying a deal": _creation_with_a_deal,
    "time called at a length the game does not have": _time_called_at_a_length_never_had,
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


def test_an_edit_from_figures_the_game_never_had_is_refused_naming_it(
    app: Flask, client: FlaskClient
) -> None:
    """The tester's export: its edit says deal 1 was meld 4000 and 5 canastas before it.
    Imported, undoing that edit would have written those figures into the game."""
    document = export_of(client, played(client))
    index = entry(document, "deal-edited")
    forged(document["changes"][index]["before"], meld_points=4000, natural_canastas=5)
    before = counts(app)
    response = client.post("/api/games/import", json=document)
    body = assert_error(response, 422, f"changes.{index}.before")
    assert f"changes.{index}" in body["error"] and "deal 1 edited" in body["error"], body
    assert "4000" in body["fields"][f"changes.{index}.before"], body
    assert counts(app) == before
    # In Russian too: the store's refusal is worded where it is shown.
    russian = client.post(
        "/api/games/import", json=document, headers={"Accept-Language": "ru"}
    ).get_json()
    assert f"changes.{index}" in russian["error"] and "4000" in russian["error"]
    assert "disagrees" not in russian["error"] and "had" not in russian["error"], russian


def test_an_honest_log_imports_and_its_changes_undo_there(client: FlaskClient) -> None:
    """Edits, deletions, undos and an undo undone, exported and imported: the copy's
    log is the same, and undoing its edit there puts back the figures it had here."""
    game_id = played(client)
    document = export_of(client, game_id)
    response = client.post("/api/games/import", json=document)
    assert response.status_code == 201, response.get_json()
    copy_id, copy_token = response.get_json()["id"], response.get_json()["token"]
    shape = ("kind", "deal", "undone", "before", "after")
    assert [[c[k] for k in shape] for c in changes(client, copy_id)] == [
        [c[k] for k in shape] for c in changes(client, game_id)
    ]
    edit = next(c for c in changes(client, copy_id) if c["kind"] == "deal-edited")
    game = undo(client, copy_id, copy_token, edit["id"]).get_json()["game"]
    assert game["deals"][0]["results"][0]["meld_points"] == CASE_A["meld_points"]
    # And the copy exports and imports again.
    again = client.post("/api/games/import", json=export_of(client, copy_id))
    assert again.status_code == 201, again.get_json()


#: A step of a game through the API: record one of these deals, edit or delete deal n
#: (counted from the end, modulo the deals there), or undo the change n (newest first).
PAIRS = ((CASE_A, CASE_B), (CASE_E, CASE_C), (CASE_B, CASE_E))
STEPS = st.one_of(
    st.tuples(st.just("record"), st.integers(0, len(PAIRS) - 1)),
    st.tuples(st.just("edit"), st.integers(0, 30), st.integers(0, len(PAIRS) - 1)),
    st.tuples(st.just("delete"), st.integers(0, 30)),
    st.tuples(st.just("undo"), st.integers(0, 30)),
)


def _play(client: FlaskClient, game_id: str, token: str, step: tuple[Any, ...]) -> None:
    deals = len(get_game(client, game_id)["deals"])
    if step[0] == "record":
        response = post_deal(client, game_id, token, *PAIRS[step[1]])
    elif step[0] == "undo":
        log = changes(client, game_id)
        response = undo(client, game_id, token, log[step[1] % len(log)]["id"])
    elif not deals:
        return
    elif step[0] == "edit":
        response = put_deal(client, game_id, token, step[1] % deals + 1, *PAIRS[step[2]])
    else:
        response = client.delete(
            f"/api/games/{game_id}/deals/{step[1] % deals + 1}", headers=auth(token)
        )
    assert response.status_code in (200, 201, 409, 422), response.get_json()


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(STEPS, max_size=12))
def test_any_game_played_through_the_api_imports_back_with_its_log(
    client: FlaskClient, steps: list[tuple[Any, ...]]
) -> None:
    game_id, token = new_game(client)
    for step in steps:
        _play(client, game_id, token, step)
    response = client.post("/api/games/import", json=export_of(client, game_id))
    assert response.status_code == 201, response.get_json()
    copy_id = response.get_json()["id"]
    shape = ("kind", "deal", "undone", "before", "after")
    assert [[c[k] for k in shape] for c in changes(client, copy_id)] == [
        [c[k] for k in shape] for c in changes(client, game_id)
    ]
    assert get_game(client, copy_id)["sides"] == get_game(client, game_id)["sides"]
