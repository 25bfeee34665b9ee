"""A club evening corrected after the fact: a swap at a table whose deal was undone, and
the changes to a closed round's tables once the next round is seated (RULES.md section 11)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import Json, assert_error, auth
from .helpers.evenings import (
    FIRST_WINS,
    SECOND_WINS,
    deal,
    director,
    new_evening,
    new_evening_page,
    page_tables,
)


def changes_of(client: FlaskClient, table: Json) -> list[Json]:
    found: list[Json] = client.get(f"/api/games/{table['game']}/changes").get_json()["changes"]
    return found


def undo(client: FlaskClient, table: Json, change: Json) -> Any:
    return client.post(
        f"/api/games/{table['game']}/changes/{change['id']}/undo", headers=auth(table["token"])
    )


# --- a swap after an undone deal --------------------------------------------------------------


def test_a_swap_at_a_table_whose_deal_was_undone(client: FlaskClient) -> None:
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    first, second = evening["rounds"][0]["tables"]
    assert deal(client, first, FIRST_WINS).status_code == 201
    (recorded, _created) = changes_of(client, first)
    assert undo(client, first, recorded).status_code == 200
    a, b = first["sides"][0]["players"], second["sides"][1]["players"]
    swapped = client.post(
        f"{base}/rounds/1/swap", json={"players": [a[0], b[0]]}, headers=auth(evening["token"])
    )
    assert swapped.status_code == 200, swapped.get_json()
    now = swapped.get_json()["rounds"][0]["tables"]
    assert now[0]["sides"][0]["players"] == b and now[1]["sides"][1]["players"] == a
    assert now[0]["deals"] == 0 and now[0]["status"] == "in_progress"
    # The new table plays; the game it replaced is listed nowhere.
    assert deal(client, now[0], FIRST_WINS).status_code == 201
    listed = {game["id"] for game in client.get("/api/games").get_json()["games"]}
    assert {now[0]["game"], now[1]["game"]} <= listed
    assert first["game"] not in listed and second["game"] not in listed
    assert client.get(f"/api/games/{first['game']}").status_code == 410
    # Its change log tells why it went (and still holds the undone deal and its undo).
    kinds = [change["kind"] for change in changes_of(client, first)]
    assert kinds == ["game-deleted", "undo", "deal-recorded", "game-created"]


def test_a_replaced_table_cannot_come_back(client: FlaskClient) -> None:
    """A swap's replaced game stays out of every list: its old scorer link restores nothing."""
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    first, second = evening["rounds"][0]["tables"]
    # This browser keeps the table's score (its scorer link opened before the swap).
    joined = client.post(f"/games/{first['game']}/join", data={"token": first["token"]})
    assert joined.status_code == 302
    deal(client, first, FIRST_WINS)
    undo(client, first, changes_of(client, first)[0])
    a, b = first["sides"][0]["players"], second["sides"][1]["players"]
    swapped = client.post(
        f"{base}/rounds/1/swap", json={"players": [a[0], b[0]]}, headers=auth(evening["token"])
    )
    assert swapped.status_code == 200
    before = director(client, evening)
    restored = client.post(f"/api/games/{first['game']}/restore", headers=auth(first["token"]))
    assert "a new game took its place" in assert_error(restored, 409)["error"]
    replaced, undone, recorded, _created = changes_of(client, first)
    assert "a new game took its place" in assert_error(undo(client, first, replaced), 409)["error"]
    assert_error(undo(client, first, undone), 410)  # the deal comes back to no game
    assert_error(undo(client, first, recorded), 409)  # undone already
    listed = {game["id"] for game in client.get("/api/games").get_json()["games"]}
    assert first["game"] not in listed
    assert director(client, evening) == before
    # Its change log says what happened and offers its scorer no undo of it.
    html = client.get(f"/games/{first['game']}/changes").get_data(as_text=True)
    assert "Game replaced: the director swapped seats" in html
    assert f"/changes/{replaced['id']}/undo" not in html
    assert f"/changes/{undone['id']}/undo" in html  # the scorer's page it is
    # Nor does the history offer this phone to restore it, among the games it kept.
    history = client.get("/history").get_data(as_text=True)
    assert f"/games/{first['game']}/restore" not in history


def test_a_replaced_table_travels_in_a_backup(
    client: FlaskClient, app: Flask, other: Flask, tmp_path: Path
) -> None:
    evening = new_evening(client)
    first, second = evening["rounds"][0]["tables"]
    deal(client, first, FIRST_WINS)
    undo(client, first, changes_of(client, first)[0])
    a, b = first["sides"][0]["players"], second["sides"][1]["players"]
    swapped = client.post(
        f"/api/evenings/{evening['id']}/rounds/1/swap",
        json={"players": [a[0], b[0]]},
        headers=auth(evening["token"]),
    )
    assert swapped.status_code == 200
    before = director(client, evening)
    path = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    there = other.test_client()
    assert director(there, evening) == before
    assert there.get(f"/api/games/{first['game']}").status_code == 410
    restored = there.post(f"/api/games/{first['game']}/restore", headers=auth(first["token"]))
    assert "a new game took its place" in assert_error(restored, 409)["error"]


def test_a_swap_at_a_table_whose_deal_stands_is_refused(client: FlaskClient) -> None:
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    first, second = evening["rounds"][0]["tables"]
    deal(client, first, FIRST_WINS)
    deal(client, first, SECOND_WINS)
    # One deal undone, one stands: the table has played.
    undo(client, first, changes_of(client, first)[0])
    before = director(client, evening)
    a, b = first["sides"][0]["players"], second["sides"][1]["players"]
    refused = client.post(
        f"{base}/rounds/1/swap", json={"players": [a[0], b[0]]}, headers=auth(evening["token"])
    )
    error = assert_error(refused, 409)["error"]
    assert "Table 1 has played a deal" in error
    assert director(client, evening) == before


def test_the_directors_page_swaps_at_a_table_whose_deal_was_undone(client: FlaskClient) -> None:
    evening = new_evening_page(client)
    seated = page_tables(client, evening)
    assert deal(client, seated[0], FIRST_WINS).status_code == 201
    assert undo(client, seated[0], changes_of(client, seated[0])[0]).status_code == 200
    first = seated[0]["sides"][0]["players"][0]
    second = seated[1]["sides"][0]["players"][0]
    answer = client.post(f"{evening}/rounds/1/swap", data={"first": first, "second": second})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    after = page_tables(client, evening)
    assert first in after[1]["sides"][0]["players"] and second in after[0]["sides"][0]["players"]


# --- a closed round once the next round is seated ---------------------------------------------

SEATED = "round 2 was seated from its standings"


def second_round_seated(client: FlaskClient) -> tuple[Json, Json]:
    """An evening whose round 1 was closed (table 1 after one deal of two: time called;
    table 2 after both) and whose round 2 is seated; its director's view and table 1."""
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    first, second = evening["rounds"][0]["tables"]
    assert deal(client, first, FIRST_WINS).status_code == 201
    for results in (FIRST_WINS, SECOND_WINS):
        assert deal(client, second, results).status_code == 201
    assert (
        client.post(
            f"{base}/rounds/1/close", json={"final": True}, headers=auth(evening["token"])
        ).status_code
        == 200
    )
    assert client.post(f"{base}/rounds", headers=auth(evening["token"])).status_code == 201
    return director(client, evening), first


def test_time_called_stays_called_once_the_next_round_is_seated(client: FlaskClient) -> None:
    evening, first = second_round_seated(client)
    called = changes_of(client, first)[0]
    assert called["kind"] == "time-called"
    refused = assert_error(undo(client, first, called), 409)
    assert SEATED in refused["error"] and "Round 1 is over" in refused["error"]
    # Nothing changed: round 1 stays finished, and so do the standings round 2 came from.
    game = client.get(f"/api/games/{first['game']}").get_json()
    assert game["status"] == "finished" and game["last_deal"] == 1
    assert director(client, evening) == evening
    assert changes_of(client, first)[0] == called


def test_no_deal_of_a_closed_round_reopens_its_table(client: FlaskClient) -> None:
    evening, _first = second_round_seated(client)
    second = evening["rounds"][0]["tables"][1]
    game = f"/api/games/{second['game']}"
    # Deleting the last deal, or undoing its recording, would reopen table 2 for it.
    refused = assert_error(client.delete(f"{game}/deals/2", headers=auth(second["token"])), 409)
    assert SEATED in refused["error"]
    recorded = changes_of(client, second)[0]
    assert recorded["kind"] == "deal-recorded"
    assert SEATED in assert_error(undo(client, second, recorded), 409)["error"]
    assert director(client, evening) == evening
    # Correcting a deal's figures leaves the table finished: still allowed.
    edited = client.put(
        f"{game}/deals/2", json={"results": FIRST_WINS}, headers=auth(second["token"])
    )
    assert edited.status_code == 200, edited.get_json()
    assert edited.get_json()["status"] == "finished"


def test_the_change_log_page_offers_no_undo_of_time_called_after_the_next_round(
    client: FlaskClient,
) -> None:
    evening, first = second_round_seated(client)
    joined = client.post(f"/games/{first['game']}/join", data={"token": first["token"]})
    assert joined.status_code == 302
    called, _recorded, _created = changes_of(client, first)
    page = f"/games/{first['game']}/changes"
    html = client.get(page).get_data(as_text=True)
    assert "Round 1 is over: round 2 was seated from its standings" in html
    assert f"/changes/{called['id']}/undo" not in html
    # An Undo sent anyway (a page kept open since before) is refused with the reason.
    answer = client.post(
        f"/games/{first['game']}/changes/{called['id']}/undo", data={"next": "changes"}
    )
    assert answer.status_code == 302
    html = client.get(answer.headers["Location"]).get_data(as_text=True)
    flashed = re.search(r'<div class="flash flash-error"><span>([^<]*)</span>', html)
    assert flashed and flashed.group(1).startswith("Round 1 is over: round 2 was seated")
    assert director(client, evening) == evening
