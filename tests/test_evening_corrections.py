"""A club evening corrected after the fact: a swap at a table whose deal was undone, and
the changes to a closed round's tables once the next round is seated (RULES.md section 11)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from .helpers.api import Json, assert_error, auth
from .test_evening_pages import new_evening as new_evening_page
from .test_evening_pages import tables as page_tables
from .test_evenings_api import FIRST_WINS, SECOND_WINS, deal, director, new_evening


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
