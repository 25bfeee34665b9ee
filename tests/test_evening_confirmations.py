"""Results confirmed by the other side (API.md "Club evenings", "Results confirmed at the
table"; issue 43 part 4) through the JSON API: each table's confirm token, a deal confirmed
with it and cleared by an edit or an undo, every status of the confirm request, the next
round held back while a deal waits, and the confirm token's lack of any other right.
The pages: tests/test_evening_confirmation_pages.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import Json, assert_error, auth, result
from .helpers.evenings import (
    FIRST_WINS,
    LEVEL,
    SECOND_WINS,
    deal,
    director,
    evening_body,
    new_evening,
)


def confirming(client: FlaskClient, **changes: Any) -> Json:
    """An evening that confirms results, as its director reads it (each table's tokens)."""
    return director(client, new_evening(client, confirmations=True, **changes))


def confirm(
    client: FlaskClient, table: Json, number: int, token: str | None = None, **h: str
) -> Any:
    headers = {**auth(token if token is not None else table["confirm_token"]), **h}
    return client.post(f"/api/games/{table['game']}/deals/{number}/confirm", headers=headers)


def tables(client: FlaskClient, evening: Json, token: bool = True) -> list[Json]:
    """The current round's tables as the evening reads now (with the director's tokens)."""
    headers = auth(evening["token"]) if token else {}
    found = client.get(f"/api/evenings/{evening['id']}", headers=headers).get_json()
    return list(found["rounds"][-1]["tables"])


def deals_of(client: FlaskClient, table: Json) -> list[Json]:
    return list(client.get(f"/api/games/{table['game']}").get_json()["deals"])


def test_each_table_carries_a_confirm_token_of_its_own(client: FlaskClient) -> None:
    evening = confirming(client)
    assert evening["confirmations"] is True
    tokens = set()
    for table in evening["rounds"][0]["tables"]:
        # The other side's secret is not the scorer's, nor another table's.
        assert table["confirm_token"] and table["confirm_token"] != table["token"]
        tokens |= {table["confirm_token"], table["token"]}
        assert table["unconfirmed"] == []
    assert len(tokens) == 2 * len(evening["rounds"][0]["tables"])
    # A reader without the director's token sees what waits, not the secrets.
    public = tables(client, evening, token=False)
    assert all("confirm_token" not in t and "token" not in t for t in public)
    assert all(t["unconfirmed"] == [] for t in public)
    # An evening that does not ask for it carries neither.
    plain = director(client, new_evening(client))
    assert plain["confirmations"] is False
    table = plain["rounds"][0]["tables"][0]
    assert "confirm_token" not in table and "unconfirmed" not in table
    deal(client, table, FIRST_WINS)
    assert "confirmed" not in deals_of(client, table)[0]


def test_a_deal_waits_until_the_other_side_confirms_it(client: FlaskClient) -> None:
    evening = confirming(client)
    table = evening["rounds"][0]["tables"][0]
    assert deal(client, table, FIRST_WINS).status_code == 201
    assert deals_of(client, table)[0]["confirmed"] is False
    assert tables(client, evening)[0]["unconfirmed"] == [1]
    before = client.get(f"/api/games/{table['game']}").headers["ETag"]
    answer = confirm(client, table, 1)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["number"] == 1 and answer.get_json()["confirmed"] is True
    assert deals_of(client, table)[0]["confirmed"] is True
    assert tables(client, evening)[0]["unconfirmed"] == []
    # The game moved on: every sheet and the director's page show it at their next poll.
    assert client.get(f"/api/games/{table['game']}").headers["ETag"] != before
    log = client.get(f"/api/games/{table['game']}/changes").get_json()["changes"]
    assert (log[0]["kind"], log[0]["deal"]) == ("deal-confirmed", 1)
    # Confirmed already: it stays so, and nothing more is logged.
    assert confirm(client, table, 1).status_code == 200
    again = client.get(f"/api/games/{table['game']}/changes").get_json()["changes"]
    assert len(again) == len(log)


def test_an_edit_or_an_undo_of_the_deal_clears_its_confirmation(client: FlaskClient) -> None:
    evening = confirming(client)
    table = evening["rounds"][0]["tables"][0]
    game = f"/api/games/{table['game']}"
    deal(client, table, FIRST_WINS)
    confirm(client, table, 1)
    edited = client.put(
        f"{game}/deals/1", json={"results": SECOND_WINS}, headers=auth(table["token"])
    )
    assert edited.status_code == 200, edited.get_json()
    assert edited.get_json()["confirmed"] is False
    assert tables(client, evening)[0]["unconfirmed"] == [1]
    # Confirmed again, then the edit undone: the figures the other side saw are gone.
    assert confirm(client, table, 1).status_code == 200
    log = client.get(f"{game}/changes").get_json()["changes"]
    edit = next(change for change in log if change["kind"] == "deal-edited")
    undone = client.post(f"{game}/changes/{edit['id']}/undo", headers=auth(table["token"]))
    assert undone.status_code == 200, undone.get_json()
    assert deals_of(client, table)[0]["confirmed"] is False
    assert tables(client, evening)[0]["unconfirmed"] == [1]
    # A confirmation is the other side's: the scorer cannot undo it.
    confirm(client, table, 1)
    latest = client.get(f"{game}/changes").get_json()["changes"][0]
    assert latest["kind"] == "deal-confirmed"
    refused = client.post(f"{game}/changes/{latest['id']}/undo", headers=auth(table["token"]))
    assert "cannot be undone" in assert_error(refused, 409)["error"]


def test_each_refusal_of_a_confirmation_says_what_is_wrong(client: FlaskClient) -> None:
    evening = confirming(client)
    table, other = evening["rounds"][0]["tables"][:2]
    deal(client, table, FIRST_WINS)
    own = assert_error(confirm(client, table, 1, table["token"]), 403)
    assert "scorer's phone cannot confirm" in own["error"]
    for token in ("", other["confirm_token"], evening["token"]):
        wrong = assert_error(confirm(client, table, 1, token), 403)
        assert "other side's phone" in wrong["error"]
    assert "no deal 2" in assert_error(confirm(client, table, 2), 404)["error"]
    missing = client.post("/api/games/nosuchgame/deals/1/confirm", headers=auth("x"))
    assert assert_error(missing, 404)["error"] == "There is no such game."
    # The deal changed since the other side read it (its ETag): 409, with the deal as it is.
    etag = client.get(f"/api/games/{table['game']}/deals/1").headers["ETag"]
    client.put(
        f"/api/games/{table['game']}/deals/1",
        json={"results": LEVEL},
        headers=auth(table["token"]),
    )
    stale = assert_error(confirm(client, table, 1, **{"If-Match": etag}), 409, "version")
    assert stale["deal"]["number"] == 1 and stale["deal"]["confirmed"] is False
    assert_error(confirm(client, table, 1, **{"If-Match": "yes"}), 400, "If-Match")
    # A game of an evening that confirms nothing, or of its own: nobody confirms there.
    plain = director(client, new_evening(client))["rounds"][0]["tables"][0]
    deal(client, plain, FIRST_WINS)
    refused = assert_error(confirm(client, plain, 1, plain["token"]), 409)
    assert "not confirmed at the table" in refused["error"]
    # Nothing refused confirmed anything.
    assert tables(client, evening)[0]["unconfirmed"] == [1]


def test_the_confirm_token_changes_nothing_else(client: FlaskClient) -> None:
    evening = confirming(client)
    table = evening["rounds"][0]["tables"][0]
    game = f"/api/games/{table['game']}"
    other = auth(table["confirm_token"])
    assert_error(client.post(f"{game}/deals", json={"results": FIRST_WINS}, headers=other), 403)
    deal(client, table, FIRST_WINS)
    assert_error(client.put(f"{game}/deals/1", json={"results": LEVEL}, headers=other), 403)
    assert_error(client.delete(f"{game}/deals/1", headers=other), 403)
    change = client.get(f"{game}/changes").get_json()["changes"][0]["id"]
    assert_error(client.post(f"{game}/changes/{change}/undo", headers=other), 403)
    assert_error(client.delete(game, headers=other), 403)
    said = client.post(f"{game}/time-called", json={"deal_in_progress": False}, headers=other)
    assert_error(said, 403)
    base = f"/api/evenings/{evening['id']}"
    assert_error(client.post(f"{base}/rounds", headers=other), 403)
    assert_error(client.post(f"{base}/rounds/1/close", headers=other), 403)
    assert len(deals_of(client, table)) == 1 and deals_of(client, table)[0]["confirmed"] is False


def test_a_retried_confirmation_confirms_once(client: FlaskClient) -> None:
    evening = confirming(client)
    table = evening["rounds"][0]["tables"][0]
    game = f"/api/games/{table['game']}"
    deal(client, table, FIRST_WINS)
    deal(client, table, SECOND_WINS)
    assert confirm(client, table, 1, **{"Idempotency-Key": "c1"}).status_code == 200
    again = confirm(client, table, 1, **{"Idempotency-Key": "c1"})
    assert again.status_code == 200 and again.get_json()["confirmed"] is True
    kinds = [c["kind"] for c in client.get(f"{game}/changes").get_json()["changes"]]
    assert kinds.count("deal-confirmed") == 1
    # The same key for another deal is a key used for another request.
    reused = assert_error(confirm(client, table, 2, **{"Idempotency-Key": "c1"}), 422)
    assert "deal 1 confirmed" in reused["fields"]["Idempotency-Key"]
    assert tables(client, evening)[0]["unconfirmed"] == [2]


def play_out(client: FlaskClient, evening: Json) -> None:
    for table in tables(client, evening):
        for _ in range(evening["deals_per_round"]):
            assert deal(client, table, FIRST_WINS).status_code == 201


def test_the_next_round_waits_for_the_confirmations_unless_forced(client: FlaskClient) -> None:
    evening = confirming(client)
    base = f"/api/evenings/{evening['id']}"
    play_out(client, evening)
    first, second = tables(client, evening)
    for number in (1, 2):
        confirm(client, first, number)
    confirm(client, second, 1)
    held = assert_error(client.post(f"{base}/rounds", headers=auth(evening["token"])), 409)
    assert "table 2 (deals 2)" in held["error"] and "table 1" not in held["error"]
    assert "force" in held["fields"]
    # A force that is not true or false is named, and seats nothing.
    odd = client.post(f"{base}/rounds", json={"force": "yes"}, headers=auth(evening["token"]))
    assert_error(odd, 422, "force")
    unknown = client.post(f"{base}/rounds", json={"forse": True}, headers=auth(evening["token"]))
    assert_error(unknown, 422, "forse")
    broken = client.post(
        f"{base}/rounds",
        data="{",
        content_type="application/json",
        headers=auth(evening["token"]),
    )
    assert_error(broken, 400)
    # Neither tells a stranger more than that it is the director's.
    assert_error(client.post(f"{base}/rounds", json={"force": "yes"}), 403)
    assert len(client.get(base).get_json()["rounds"]) == 1
    keyed = {**auth(evening["token"]), "Idempotency-Key": "r2"}
    forced = client.post(f"{base}/rounds", json={"force": True}, headers=keyed)
    assert forced.status_code == 201, forced.get_json()
    assert len(forced.get_json()["rounds"]) == 2
    # Retried, with the force or without it: nothing is seated twice.
    for body in ({"force": True}, None):
        again = client.post(f"{base}/rounds", json=body, headers=keyed)
        assert again.status_code == 201 and len(again.get_json()["rounds"]) == 2
    # Confirmed, a round starts with no force.
    play_out(client, evening)
    for table in tables(client, evening):
        for number in (1, 2):
            assert confirm(client, table, number).status_code == 200
    third = client.post(f"{base}/rounds", headers=auth(evening["token"]))
    assert third.status_code == 201 and len(third.get_json()["rounds"]) == 3


@pytest.mark.one_database  # refused by the body's schema before the store: on SQLite alone
def test_confirmations_must_be_true_or_false(client: FlaskClient) -> None:
    refused = client.post("/api/evenings", json=evening_body(confirmations="yes"))
    assert assert_error(refused, 422)["fields"] == {"confirmations": "Must be true or false."}


def test_swapped_seats_get_new_confirm_tokens(client: FlaskClient) -> None:
    evening = confirming(client)
    first = evening["rounds"][0]["tables"][0]
    out = evening["rounds"][0]["byes"][0]
    swapped = client.post(
        f"/api/evenings/{evening['id']}/rounds/1/swap",
        json={"players": [out[0], first["sides"][0]["players"][0]]},
        headers=auth(evening["token"]),
    )
    assert swapped.status_code == 200, swapped.get_json()
    table = tables(client, evening)[0]
    assert table["game"] != first["game"] and table["confirm_token"] != first["confirm_token"]
    deal(client, table, FIRST_WINS)
    assert confirm(client, table, 1).status_code == 200


def test_confirmations_travel_in_backups(
    client: FlaskClient, app: Flask, other: Flask, tmp_path: Any
) -> None:
    evening = confirming(client)
    table = evening["rounds"][0]["tables"][0]
    deal(client, table, FIRST_WINS)
    deal(client, table, [result(100), result(50)])
    confirm(client, table, 1)
    path = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    restored = other.test_client()
    back = director(restored, evening)
    assert back["confirmations"] is True
    assert back["rounds"][0]["tables"][0]["unconfirmed"] == [2]
    assert back["rounds"][0]["tables"][0]["confirm_token"] == table["confirm_token"]
    # The other side's phone still confirms after the restore.
    assert confirm(restored, table, 2).status_code == 200
    # A confirmation that names a deal the game does not have is refused.
    document = json.loads(path.read_text())
    game = next(g for g in document["games"] if g["id"] == table["game"])
    entry = next(c for c in game["changes"] if c["kind"] == "deal-confirmed")
    entry["deal"] = 3
    path.write_text(json.dumps(document))
    refused = app.test_cli_runner().invoke(args=["restore", "--replace", str(path)])
    assert refused.exit_code != 0 and "deal" in refused.output
