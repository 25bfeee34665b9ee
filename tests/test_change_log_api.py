"""The change log and undo through the JSON API (API.md "Changes and undo", "Deleting a
game", and If-Match on deals), on whichever database the suite runs on.

A game of three deals from RULES.md section 8's worked cases; every undo is checked by the
totals a player would read after it.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from .helpers.api import (
    CASE_A,
    CASE_B,
    CASE_C,
    CASE_E,
    assert_error,
    auth,
    changes,
    get_game,
    new_game,
    post_deal,
    put_deal,
    three_deals,
    totals,
    undo,
)

Json = dict[str, Any]


def of_kind(log: list[Json], kind: str, deal: int | None = None) -> Json:
    return next(c for c in log if c["kind"] == kind and (deal is None or c["deal"] == deal))


def test_every_change_is_logged_newest_first(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    put_deal(client, game_id, token, 2, CASE_E, CASE_B)
    client.delete(f"/api/games/{game_id}/deals/1", headers=auth(token))
    log = changes(client, game_id)
    assert [(c["kind"], c["deal"]) for c in log] == [
        ("deal-deleted", 1),
        ("deal-edited", 2),
        ("deal-recorded", 3),
        ("deal-recorded", 2),
        ("deal-recorded", 1),
        ("game-created", None),
    ]
    ids = [c["id"] for c in log]
    assert ids == sorted(ids, reverse=True)
    edit = log[1]
    assert edit["before"]["results"][1]["hand_points"] == 120  # CASE_C
    assert edit["after"]["results"][1]["hand_points"] == 85  # CASE_B
    assert all(c["at"].endswith("Z") and not c["undone"] and c["undoes"] is None for c in log)
    assert log[0]["device"].startswith("API")


def test_undo_an_old_recorded_deal_removes_it_and_renumbers(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    first = of_kind(changes(client, game_id), "deal-recorded", 1)
    response = undo(client, game_id, token, first["id"])
    assert response.status_code == 200, response.get_json()
    game = response.get_json()["game"]
    # Left: E + C, then B + A: 355 + 265 = 620; -320 + 1210 = 890.
    assert totals(game) == [620, 890]
    assert len(game["deals"]) == 2
    log = changes(client, game_id)
    assert log[0]["kind"] == "undo" and log[0]["undoes"] == first["id"]
    assert of_kind(log, "deal-recorded", 1)["undone"] is True


def test_undo_a_delete_brings_the_deal_back_at_its_number(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    before = get_game(client, game_id)
    assert client.delete(f"/api/games/{game_id}/deals/2", headers=auth(token)).status_code == 200
    assert totals(get_game(client, game_id)) == [1210 + 265, 265 + 1210]
    deleted = of_kind(changes(client, game_id), "deal-deleted", 2)
    game = undo(client, game_id, token, deleted["id"]).get_json()["game"]
    assert totals(game) == totals(before) == [1210 + 355 + 265, 265 - 320 + 1210]
    assert game["deals"][1]["results"][0]["meld_points"] == CASE_E["meld_points"]


def test_undo_an_edit_puts_the_old_figures_back_and_undo_of_undo_redoes(
    client: FlaskClient,
) -> None:
    game_id, token = three_deals(client)
    assert put_deal(client, game_id, token, 1, CASE_E, CASE_A).status_code == 200
    assert totals(get_game(client, game_id))[0] == 355 + 355 + 265
    edit = of_kind(changes(client, game_id), "deal-edited")
    first = undo(client, game_id, token, edit["id"])
    assert totals(first.get_json()["game"])[0] == 1210 + 355 + 265
    the_undo = changes(client, game_id)[0]
    again = undo(client, game_id, token, the_undo["id"])
    assert again.status_code == 200, again.get_json()
    assert totals(again.get_json()["game"])[0] == 355 + 355 + 265
    log = changes(client, game_id)
    assert of_kind(log, "deal-edited")["undone"] is False
    assert [c["undone"] for c in log[:2]] == [False, True]
    # The first undo is undone now: undoing it twice is a conflict, nothing changes.
    assert_error(undo(client, game_id, token, the_undo["id"]), 409)
    assert totals(get_game(client, game_id))[0] == 355 + 355 + 265


def test_a_change_a_later_one_builds_on_is_refused_naming_it(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    put_deal(client, game_id, token, 2, CASE_E, CASE_B)
    client.delete(f"/api/games/{game_id}/deals/2", headers=auth(token))
    log = changes(client, game_id)
    edit, deletion = of_kind(log, "deal-edited"), of_kind(log, "deal-deleted")
    game = get_game(client, game_id)
    body = assert_error(undo(client, game_id, token, edit["id"]), 409)
    assert str(deletion["id"]) in body["error"]
    assert get_game(client, game_id) == game
    # Undo the deletion first, then the edit: deal 2 is E + C again.
    assert undo(client, game_id, token, deletion["id"]).status_code == 200
    assert undo(client, game_id, token, edit["id"]).status_code == 200
    assert totals(get_game(client, game_id)) == [1210 + 355 + 265, 265 - 320 + 1210]


def test_undo_needs_the_token_and_an_existing_change(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    change_id = changes(client, game_id)[0]["id"]
    assert_error(client.post(f"/api/games/{game_id}/changes/{change_id}/undo"), 403)
    assert_error(undo(client, game_id, "wrong", change_id), 403)
    assert_error(undo(client, game_id, token, 999_999), 404)
    other_id, other_token = new_game(client)
    assert_error(undo(client, other_id, other_token, change_id), 404)
    assert_error(client.get("/api/games/nosuchgame/changes"), 404)
    created = of_kind(changes(client, game_id), "game-created")
    assert_error(undo(client, game_id, token, created["id"]), 409)
    assert len(changes(client, game_id)) == 4


def test_undo_that_would_leave_deals_after_the_win_is_refused(client: FlaskClient) -> None:
    game_id, token = new_game(client, starts=(4000, 0))
    post_deal(client, game_id, token, CASE_A, CASE_C)  # 5210: Us win at deal 1
    assert get_game(client, game_id)["status"] == "finished"
    assert put_deal(client, game_id, token, 1, CASE_B, CASE_E).status_code == 200  # 4265
    post_deal(client, game_id, token, CASE_B, CASE_E)  # 4530: play goes on
    edit = of_kind(changes(client, game_id), "deal-edited")
    game = get_game(client, game_id)
    # Undone, the edit would end the game at deal 1 with deal 2 after it.
    body = assert_error(undo(client, game_id, token, edit["id"]), 409)
    assert "deal 1" in body["error"].lower() or "1" in body["error"]
    assert get_game(client, game_id) == game
    # Undo the later deal first, then the edit: the game is won at deal 1 again.
    assert undo(client, game_id, token, changes(client, game_id)[0]["id"]).status_code == 200
    assert undo(client, game_id, token, edit["id"]).status_code == 200
    assert get_game(client, game_id)["winner"] == 0


def test_delete_and_restore_a_game(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    kept_id, _ = new_game(client)
    assert_error(client.delete(f"/api/games/{game_id}"), 403)
    response = client.delete(f"/api/games/{game_id}", headers=auth(token))
    assert response.status_code == 200, response.get_json()
    assert_error(client.get(f"/api/games/{game_id}"), 410)
    assert_error(client.get(f"/api/games/{game_id}/deals/1"), 410)
    assert_error(post_deal(client, game_id, token, CASE_A, CASE_B), 410)
    listed = [g["id"] for g in client.get("/api/games").get_json()["games"]]
    assert game_id not in listed and kept_id in listed
    assert_error(client.delete(f"/api/games/{game_id}", headers=auth(token)), 409)
    restored = client.post(f"/api/games/{game_id}/restore", headers=auth(token))
    assert restored.status_code == 200, restored.get_json()
    assert totals(restored.get_json()) == [1210 + 355 + 265, 265 - 320 + 1210]
    assert game_id in [g["id"] for g in client.get("/api/games").get_json()["games"]]
    assert [c["kind"] for c in changes(client, game_id)[:2]] == ["game-restored", "game-deleted"]
    assert_error(client.post(f"/api/games/{game_id}/restore", headers=auth(token)), 409)


def test_undo_a_game_deletion_and_its_restore(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    client.delete(f"/api/games/{game_id}", headers=auth(token))
    deletion = changes(client, game_id)[0]
    assert undo(client, game_id, token, deletion["id"]).status_code == 200
    assert get_game(client, game_id)["status"] == "in_progress"
    redo = changes(client, game_id)[0]
    assert undo(client, game_id, token, redo["id"]).status_code == 200
    assert_error(client.get(f"/api/games/{game_id}"), 410)


def test_if_match_refuses_a_stale_change_with_the_newer_deal(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    read = client.get(f"/api/games/{game_id}/deals/2")
    etag = read.headers["ETag"]
    assert etag == '"2.1"'  # the deal's place and its version
    # Another phone edits deal 2 meanwhile.
    assert put_deal(client, game_id, token, 2, CASE_E, CASE_B).status_code == 200
    stale = client.put(
        f"/api/games/{game_id}/deals/2",
        json={"results": [CASE_A, CASE_E]},
        headers={**auth(token), "If-Match": etag},
    )
    body = assert_error(stale, 409)
    assert body["deal"]["version"] == 2
    assert body["deal"]["results"][1]["hand_points"] == 85
    gone = client.delete(f"/api/games/{game_id}/deals/2", headers={**auth(token), "If-Match": etag})
    assert_error(gone, 409)
    assert len(get_game(client, game_id)["deals"]) == 3
    fresh = client.get(f"/api/games/{game_id}/deals/2").headers["ETag"]
    assert fresh == '"2.2"'
    ok = client.delete(f"/api/games/{game_id}/deals/2", headers={**auth(token), "If-Match": fresh})
    assert ok.status_code == 200
    assert len(get_game(client, game_id)["deals"]) == 2


def test_a_retried_undo_undoes_once(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    first = of_kind(changes(client, game_id), "deal-recorded", 3)
    headers = {**auth(token), "Idempotency-Key": "undo-3"}
    url = f"/api/games/{game_id}/changes/{first['id']}/undo"
    one, two = client.post(url, headers=headers), client.post(url, headers=headers)
    assert one.status_code == two.status_code == 200
    assert one.get_json() == two.get_json()
    assert [c["kind"] for c in changes(client, game_id)].count("undo") == 1


def export_of(client: FlaskClient, game_id: str) -> Json:
    response = client.get(f"/api/games/{game_id}/export")
    assert response.status_code == 200
    document: Json = response.get_json()
    return document


def imported(client: FlaskClient, document: Json) -> tuple[str, str]:
    response = client.post("/api/games/import", json=document)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], body["token"]


def test_export_and_import_carry_the_log_and_its_undo(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    client.delete(f"/api/games/{game_id}/deals/1", headers=auth(token))
    put_deal(client, game_id, token, 1, CASE_E, CASE_B)
    edit = changes(client, game_id)[0]
    undo(client, game_id, token, edit["id"])
    new_id, new_token = imported(client, export_of(client, game_id))
    old_log, new_log = changes(client, game_id), changes(client, new_id)
    shape = [(c["kind"], c["deal"], c["undone"], c["device"], c["at"]) for c in old_log]
    assert [(c["kind"], c["deal"], c["undone"], c["device"], c["at"]) for c in new_log] == shape
    # The undo names its edit by the new game's own ids.
    assert new_log[0]["undoes"] == new_log[1]["id"]
    # An old change undone in the imported game: the deleted deal 1 comes back at its place.
    deletion = of_kind(new_log, "deal-deleted", 1)
    game = undo(client, new_id, new_token, deletion["id"]).get_json()["game"]
    assert totals(game) == [1210 + 355 + 265, 265 - 320 + 1210]
    assert game["deals"][0]["results"][0]["meld_points"] == CASE_A["meld_points"]


def test_an_export_without_a_log_imports_with_one_reconstructed(client: FlaskClient) -> None:
    game_id, _token = three_deals(client)
    document = export_of(client, game_id)
    del document["changes"]
    for deal in document["deals"]:
        del deal["seq"]
    new_id, new_token = imported(client, document)
    log = changes(client, new_id)
    assert [(c["kind"], c["deal"]) for c in log] == [
        ("deal-recorded", 3),
        ("deal-recorded", 2),
        ("deal-recorded", 1),
        ("game-created", None),
    ]
    game = undo(client, new_id, new_token, log[2]["id"]).get_json()["game"]
    assert totals(game) == [355 + 265, -320 + 1210]


def test_an_import_with_a_bad_log_is_refused_and_creates_nothing(client: FlaskClient) -> None:
    game_id, _token = three_deals(client)
    listed = client.get("/api/games").get_json()["total"]
    for change, path in (
        ({"kind": "deal-exploded"}, "changes.0.kind"),
        ({"at": "yesterday"}, "changes.0.at"),
        ({"undoes": 424242}, "changes.0.undoes"),
        ({"after": {"version": 1, "results": [{"meld_points": -5}, {}]}}, None),
        ({"after": {"version": 1, "results": [{}]}}, "changes.0.after.results"),
    ):
        document = export_of(client, game_id)
        document["changes"][0].update(change)
        response = client.post("/api/games/import", json=document)
        body = assert_error(response, 422)
        if path:
            assert path in body["fields"], body
    document = export_of(client, game_id)
    document["deals"][1]["seq"] = 1  # places out of order
    assert_error(client.post("/api/games/import", json=document), 422, "deals")
    assert client.get("/api/games").get_json()["total"] == listed


def test_backup_and_restore_carry_the_log_and_deleted_games(
    client: FlaskClient, runner: Any, tmp_path: Any
) -> None:
    from .conftest import app_for_tests

    game_id, token = three_deals(client)
    put_deal(client, game_id, token, 2, CASE_E, CASE_B)
    gone_id, gone_token = three_deals(client)
    client.delete(f"/api/games/{gone_id}", headers=auth(gone_token))
    log, gone_log = changes(client, game_id), changes(client, gone_id)
    path = tmp_path / "club.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    other = app_for_tests(f"sqlite:///{tmp_path / 'other.sqlite'}")
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    there = other.test_client()
    shape = ("kind", "deal", "undone", "device", "at", "before", "after")
    assert [[c[k] for k in shape] for c in changes(there, game_id)] == [
        [c[k] for k in shape] for c in log
    ]
    # The deleted game stays deleted there, and its log can still bring it back.
    assert_error(there.get(f"/api/games/{gone_id}"), 410)
    assert [c["kind"] for c in changes(there, gone_id)] == [c["kind"] for c in gone_log]
    deletion = changes(there, gone_id)[0]
    assert undo(there, gone_id, gone_token, deletion["id"]).status_code == 200
    assert get_game(there, gone_id)["status"] == "in_progress"
    # And the edit there is undone as it would have been here.
    edit = of_kind(changes(there, game_id), "deal-edited")
    assert totals(undo(there, game_id, token, edit["id"]).get_json()["game"]) == [
        1210 + 355 + 265,
        265 - 320 + 1210,
    ]
