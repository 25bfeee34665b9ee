"""Time called on a club round (issue 43 part 3; RULES.md section 16, API.md "Club
evenings"): each table still playing becomes ``time_called`` and plays out its deal in
progress, which is recorded as usual and is its last; a table between deals says so and
has finished; ``final`` stops every table as it stands.

Scores by RULES.md section 2: FIRST_WINS is 900 to 50, SECOND_WINS 50 to 900.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from .helpers.api import Json, assert_error, auth, changes, new_game, undo
from .helpers.evenings import FIRST_WINS, SECOND_WINS, deal, new_evening


def call_time(client: FlaskClient, evening: Json, **body: object) -> Json:
    """The director calls time on round 1 (with ``body``, if any)."""
    answer = client.post(
        f"/api/evenings/{evening['id']}/rounds/1/close",
        headers=auth(evening["token"]),
        **({"json": body} if body else {}),
    )
    assert answer.status_code == 200, answer.get_json()
    called: Json = answer.get_json()
    return called


def no_deal_in_progress(client: FlaskClient, table: Json, **headers: str) -> object:
    return client.post(
        f"/api/games/{table['game']}/time-called",
        json={"deal_in_progress": False},
        headers={**auth(table["token"]), **headers},
    )


def test_each_table_plays_out_its_deal_in_progress_then_the_next_round_starts(
    client: FlaskClient,
) -> None:
    evening = new_evening(client, deals_per_round=3)
    base = f"/api/evenings/{evening['id']}"
    first, second = evening["rounds"][0]["tables"]
    assert deal(client, first, FIRST_WINS).status_code == 201  # one deal of three
    called = call_time(client, evening)["rounds"][0]
    assert called["status"] == "playing" and called["closed_at"]
    assert [t["status"] for t in called["tables"]] == ["time_called", "time_called"]
    assert [t["last_deal"] for t in called["tables"]] == [2, 1]  # the deal in progress
    refused = assert_error(client.post(f"{base}/rounds", headers=auth(evening["token"])), 409)
    assert "1, 2" in refused["error"]
    # Table 1 records the deal in progress, scored as usual: its round is over.
    assert deal(client, first, SECOND_WINS).status_code == 201
    game = client.get(f"/api/games/{first['game']}").get_json()
    assert game["status"] == "finished" and [d["number"] for d in game["deals"]] == [1, 2]
    assert game["winner"] is None  # 950 to 950
    assert_error(deal(client, first, FIRST_WINS), 409)
    # Table 2 was between deals: its scorer says so, and it has finished with no deal.
    ended = no_deal_in_progress(client, second)
    assert ended.status_code == 200, ended.get_json()
    assert ended.get_json()["status"] == "finished" and ended.get_json()["deals"] == []
    read = client.get(base).get_json()["rounds"][0]
    assert [t["status"] for t in read["tables"]] == ["finished", "finished"]
    assert [t["last_deal"] for t in read["tables"]] == [2, 0]
    assert read["status"] == "finished"
    assert client.post(f"{base}/rounds", headers=auth(evening["token"])).status_code == 201


def test_a_table_whose_next_deal_was_its_last_is_time_called_too(client: FlaskClient) -> None:
    evening = new_evening(client)  # two deals a round
    first, _second = evening["rounds"][0]["tables"]
    deal(client, first, FIRST_WINS)
    before = client.get(f"/api/games/{first['game']}").headers["ETag"]
    table = call_time(client, evening)["rounds"][0]["tables"][0]
    assert table["status"] == "time_called" and table["last_deal"] == 2
    # Its game moved all the same: a follower's sheet learns that time is called.
    assert client.get(f"/api/games/{first['game']}").headers["ETag"] != before
    log = changes(client, first["game"])
    assert log[0]["kind"] == "time-called" and log[0]["after"] == {"last_deal": 2}


def test_final_stops_every_table_as_it_stands_after_time_was_called(
    client: FlaskClient,
) -> None:
    evening = new_evening(client, deals_per_round=3)
    first, second = evening["rounds"][0]["tables"]
    deal(client, first, FIRST_WINS)
    call_time(client, evening)
    again = call_time(client, evening)  # called twice: nothing more happens
    assert [t["status"] for t in again["rounds"][0]["tables"]] == ["time_called"] * 2
    assert changes(client, first["game"])[1]["kind"] != "time-called"
    stopped = call_time(client, evening, final=True)["rounds"][0]
    assert [t["status"] for t in stopped["tables"]] == ["finished", "finished"]
    assert [t["last_deal"] for t in stopped["tables"]] == [1, 0]
    game = client.get(f"/api/games/{first['game']}").get_json()
    assert game["winner"] == 0 and len(game["deals"]) == 1  # 900 to 50
    assert_error(no_deal_in_progress(client, second), 409)  # it has finished


def test_no_deal_in_progress_is_undone_from_the_change_log(client: FlaskClient) -> None:
    evening = new_evening(client, deals_per_round=3)
    table = evening["rounds"][0]["tables"][0]
    call_time(client, evening)
    assert no_deal_in_progress(client, table).status_code == 200
    entry = changes(client, table["game"])[0]
    assert entry["kind"] == "time-called" and entry["after"] == {"last_deal": 0}
    assert undo(client, table["game"], table["token"], entry["id"]).status_code == 200
    # Back to time called: the one deal in progress may still be recorded.
    read = client.get(f"/api/evenings/{evening['id']}").get_json()
    assert read["rounds"][0]["tables"][0]["status"] == "time_called"
    assert deal(client, table, FIRST_WINS).status_code == 201
    assert_error(deal(client, table, FIRST_WINS), 409)


def test_the_scorers_answer_acts_once_with_its_key(client: FlaskClient) -> None:
    evening = new_evening(client, deals_per_round=3)
    table = evening["rounds"][0]["tables"][0]
    call_time(client, evening)
    answers = [no_deal_in_progress(client, table, **{"Idempotency-Key": "k1"}) for _ in "ab"]
    assert [a.status_code for a in answers] == [200, 200]  # type: ignore[attr-defined]
    kinds = [c["kind"] for c in changes(client, table["game"])]
    assert kinds.count("time-called") == 2  # the round's call, and the scorer's answer once


def test_a_deal_in_progress_changes_nothing(client: FlaskClient) -> None:
    evening = new_evening(client, deals_per_round=3)
    table = evening["rounds"][0]["tables"][0]
    call_time(client, evening)
    before = client.get(f"/api/games/{table['game']}").get_json()
    answer = client.post(
        f"/api/games/{table['game']}/time-called",
        json={"deal_in_progress": True},
        headers=auth(table["token"]),
    )
    assert answer.status_code == 200 and answer.get_json() == before


def test_the_scorers_answer_is_refused_with_a_reason(client: FlaskClient) -> None:
    evening = new_evening(client, deals_per_round=3)
    table = evening["rounds"][0]["tables"][0]
    path = f"/api/games/{table['game']}/time-called"
    body = {"deal_in_progress": False}
    assert_error(client.post("/api/games/nosuchgame12/time-called", json=body), 404)
    assert_error(client.post(path, json=body), 403)
    assert_error(client.post(path, json=body, headers=auth(evening["token"])), 403)
    # Before time is called the table plays on.
    assert "not been called" in assert_error(no_deal_in_progress(client, table), 409)["error"]
    call_time(client, evening)
    scorer = auth(table["token"])
    assert_error(client.post(path, json={}, headers=scorer), 422, "deal_in_progress")
    refused = client.post(path, json={"deal_in_progress": "no"}, headers=scorer)
    assert_error(refused, 422, "deal_in_progress")
    assert_error(client.post(path, headers=scorer), 400)
    assert client.get(f"/api/evenings/{evening['id']}").get_json()["rounds"][0]["tables"][0][
        "status"
    ] == ("time_called")
    # A game of its own has no round to call time on.
    game_id, token = new_game(client)
    alone = client.post(f"/api/games/{game_id}/time-called", json=body, headers=auth(token))
    assert "not been called" in assert_error(alone, 409)["error"]


@pytest.mark.parametrize(
    ("token", "body", "status"),
    [("wrong", {"final": "yes"}, 403), ("right", {"final": "yes"}, 422)],
)
def test_a_bad_close_body_is_answered_after_the_director(
    client: FlaskClient, token: str, body: Json, status: int
) -> None:
    evening = new_evening(client)
    secret = evening["token"] if token == "right" else "wrong"
    answer = client.post(
        f"/api/evenings/{evening['id']}/rounds/1/close", json=body, headers=auth(secret)
    )
    found = assert_error(answer, status)
    if status == 422:
        assert found["fields"] == {"final": "Must be true or false."}
    read = client.get(f"/api/evenings/{evening['id']}").get_json()
    assert read["rounds"][0]["closed_at"] is None  # nothing changed
