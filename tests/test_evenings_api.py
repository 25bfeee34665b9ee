"""Club evenings through the JSON API (API.md "Club evenings"): every status it lists, the
tables' games ending after the round's deals, time called and swaps (the standings rebuilt
from the tables' own games, backups and exports: tests/test_evenings_results_api.py).

Scores by RULES.md section 2: a side that goes out with one natural canasta and 300 meld
points scores 500 + 100 + 300 = 900; the other side, 100 melded and 50 in hand, 50.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .conftest import app_for_tests
from .helpers.api import Json, assert_error, auth
from .helpers.evenings import (
    FIRST_WINS,
    LEVEL,
    PAIRS,
    SECOND_WINS,
    deal,
    director,
    evening_body,
    new_evening,
    play_round,
)

# --- creating ----------------------------------------------------------------------------


def test_a_new_evening_seats_round_one_by_lot_with_a_bye(client: FlaskClient) -> None:
    evening = new_evening(client)
    assert evening["status"] == "playing" and evening["round"] == 1
    assert evening["url"] == f"/evenings/{evening['id']}"
    (first,) = evening["rounds"]
    assert first["status"] == "playing"
    # Five pairs at tables of two pairs: two tables, one pair sits out.
    assert len(first["tables"]) == 2 and len(first["byes"]) == 1
    seated = [tuple(s["players"]) for t in first["tables"] for s in t["sides"]]
    assert sorted(seated + [tuple(b) for b in first["byes"]]) == sorted(map(tuple, PAIRS))
    for table in first["tables"]:
        assert table["status"] == "in_progress" and table["deals"] == 0
        assert table["last_deal"] == 2 and table["token"]
        game = client.get(f"/api/games/{table['game']}").get_json()
        assert game["last_deal"] == 2
        assert [s["players"] for s in game["sides"]] == [s["players"] for s in table["sides"]]
    # The bye scores 2 match points at once (API.md).
    bye = next(line for line in evening["standings"] if line["players"] == first["byes"][0])
    assert (bye["match_points"], bye["byes"], bye["played"]) == (2, 1, 0)
    assert first["ends_at"] and first["closed_at"] is None


def test_an_individual_evening_changes_partners(client: FlaskClient) -> None:
    players = [f"P{n}" for n in range(8)]
    evening = new_evening(client, format="individual", pairs=None, players=players)
    first = evening["rounds"][0]
    assert len(first["tables"]) == 2 and first["byes"] == []
    play_round(client, evening, FIRST_WINS)
    started = client.post(f"/api/evenings/{evening['id']}/rounds", headers=auth(evening["token"]))
    assert started.status_code == 201
    second = started.get_json()["rounds"][1]
    partners = {
        frozenset(side["players"])
        for round_ in (first, second)
        for table in round_["tables"]
        for side in table["sides"]
    }
    # Four partnerships a round, none of round 1 again in round 2.
    assert len(partners) == 8
    assert {len(line["players"]) for line in started.get_json()["standings"]} == {1}


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": ""}, "name"),
        ({"variant": "railroad"}, "variant"),  # played alone: no partners
        ({"variant": "nope"}, "variant"),
        ({"format": "teams"}, "format"),
        ({"pairs": PAIRS[:3]}, "pairs"),  # three pairs: one table, not two
        ({"pairs": [["Ana", "Boris", "Vera"], *PAIRS[1:]]}, "pairs.0"),
        ({"pairs": [["Ana", "Boris"], ["ana", "Goran"], *PAIRS[2:]]}, "pairs.1.0"),
        ({"pairs": None}, "pairs"),
        ({"players": ["X"] * 8}, "players"),  # a pairs evening lists pairs only
        ({"rounds": 0}, "rounds"),
        ({"rounds": 21}, "rounds"),
        ({"deals_per_round": 0}, "deals_per_round"),
        ({"minutes_per_round": 0}, "minutes_per_round"),
        ({"options": {"target": 7}}, "options.target"),
        ({"deals_per_round": "4"}, "deals_per_round"),
        ({"extra": 1}, "extra"),
    ],
)
def test_a_bad_evening_is_refused_naming_the_field(
    client: FlaskClient, app: Flask, changes: Json, field: str
) -> None:
    body = {key: value for key, value in evening_body(**changes).items() if value is not None}
    if field == "pairs" and changes.get("pairs", 0) is None:
        body.pop("pairs", None)
    assert_error(client.post("/api/evenings", json=body), 422, field)
    assert client.get("/api/games").get_json()["games"] == []


def test_malformed_or_mistyped_bodies(client: FlaskClient) -> None:
    assert_error(client.post("/api/evenings", data="{", content_type="application/json"), 400)
    assert_error(client.post("/api/evenings", data="name=x", content_type="text/plain"), 415)


def test_new_evenings_count_against_the_new_game_limit(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'limited.sqlite'}"
    limited = app_for_tests(url, RATELIMIT_ENABLED=True, GAME_CREATION_LIMIT="1 per minute")
    client = limited.test_client()
    assert client.post("/api/evenings", json=evening_body()).status_code == 201
    refused = client.post("/api/evenings", json=evening_body())
    assert_error(refused, 429)


def test_an_unknown_evening_is_404(client: FlaskClient) -> None:
    assert_error(client.get("/api/evenings/nothing-here"), 404)
    assert_error(client.get("/api/evenings/bad%20id!"), 404)
    assert_error(client.post("/api/evenings/nothing-here/rounds", headers=auth("x")), 404)
    assert_error(client.post("/api/evenings/nothing-here/rounds/1/close", headers=auth("x")), 404)


# --- the director's secret ---------------------------------------------------------------


def test_table_tokens_only_for_the_director(client: FlaskClient) -> None:
    evening = new_evening(client)
    anyone = client.get(f"/api/evenings/{evening['id']}").get_json()
    wrong = client.get(f"/api/evenings/{evening['id']}", headers=auth("guess")).get_json()
    for seen in (anyone, wrong):
        assert all("token" not in t for r in seen["rounds"] for t in r["tables"])
    mine = director(client, evening)
    tables = mine["rounds"][0]["tables"]
    assert all(t["token"] for t in tables)
    # The token a table gets scores that table's game, and no other.
    assert deal(client, tables[0], FIRST_WINS).status_code == 201
    wrong_table = {**tables[1], "token": tables[0]["token"]}
    assert_error(deal(client, wrong_table, FIRST_WINS), 403)
    # The director's own secret is not a table's.
    assert_error(deal(client, {**tables[1], "token": evening["token"]}, FIRST_WINS), 403)


def test_rounds_need_the_directors_secret(client: FlaskClient) -> None:
    evening = new_evening(client)
    play_round(client, evening, FIRST_WINS)
    base = f"/api/evenings/{evening['id']}"
    assert_error(client.post(f"{base}/rounds"), 403)
    assert_error(client.post(f"{base}/rounds", headers=auth("guess")), 403)
    assert_error(client.post(f"{base}/rounds/1/close", headers=auth("guess")), 403)
    assert_error(client.post(f"{base}/rounds/1/swap", json={"players": ["Ana", "Vera"]}), 403)
    # Nothing started.
    assert client.get(base).get_json()["round"] == 1


# --- a table's game ends with its round -----------------------------------------------------


def test_a_tables_game_ends_after_the_rounds_deals(client: FlaskClient) -> None:
    evening = new_evening(client)
    table = evening["rounds"][0]["tables"][0]
    first = deal(client, table, FIRST_WINS).get_json()
    assert first["status"] == "in_progress" and first["next_dealer"]
    last = deal(client, table, SECOND_WINS).get_json()
    # 900 + 50 against 50 + 900: level, so a draw, and no winner.
    assert last["status"] == "finished" and last["winner"] is None and last["next_dealer"] is None
    refused = assert_error(deal(client, table, FIRST_WINS), 409)
    assert "round" in refused["error"]
    game = client.get(f"/api/games/{table['game']}").get_json()
    assert game["status"] == "finished" and len(game["deals"]) == 2
    seen = client.get(f"/api/evenings/{evening['id']}").get_json()
    both = [
        line
        for line in seen["standings"]
        if line["players"] in [s["players"] for s in table["sides"]]
    ]
    assert [(line["match_points"], line["drawn"], line["difference"]) for line in both] == [
        (1, 1, 0),
        (1, 1, 0),
    ]


def test_the_higher_total_wins_the_round(client: FlaskClient) -> None:
    evening = new_evening(client)
    table = evening["rounds"][0]["tables"][0]
    deal(client, table, FIRST_WINS)
    last = deal(client, table, LEVEL).get_json()
    # 900 + 100 = 1000 against 50 + 100 = 150: the first side wins by 850.
    assert last["status"] == "finished" and last["winner"] == 0
    seen = client.get(f"/api/evenings/{evening['id']}").get_json()
    lines = {tuple(line["players"]): line for line in seen["standings"]}
    winner, loser = (tuple(s["players"]) for s in table["sides"])
    assert (lines[winner]["match_points"], lines[winner]["difference"]) == (2, 850)
    assert (lines[loser]["match_points"], lines[loser]["difference"]) == (0, -850)
    assert lines[winner]["points"] == 1000 and lines[winner]["won"] == 1


def test_editing_the_last_deal_reopens_nothing_but_changes_the_result(client: FlaskClient) -> None:
    evening = new_evening(client)
    table = evening["rounds"][0]["tables"][0]
    deal(client, table, FIRST_WINS)
    deal(client, table, SECOND_WINS)
    edited = client.put(
        f"/api/games/{table['game']}/deals/2",
        json={"results": LEVEL},
        headers=auth(table["token"]),
    )
    assert edited.status_code == 200
    assert edited.get_json()["status"] == "finished" and edited.get_json()["winner"] == 0
    # Deleting the last deal reopens the table for it.
    deleted = client.delete(f"/api/games/{table['game']}/deals/2", headers=auth(table["token"]))
    assert deleted.status_code == 200
    assert client.get(f"/api/games/{table['game']}").get_json()["status"] == "in_progress"


# --- starting and closing rounds -----------------------------------------------------------


def test_the_next_round_waits_for_every_table(client: FlaskClient) -> None:
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    tables = evening["rounds"][0]["tables"]
    for _ in range(2):
        deal(client, tables[0], FIRST_WINS)
    refused = assert_error(client.post(f"{base}/rounds", headers=auth(evening["token"])), 409)
    assert str(tables[1]["table"]) in refused["error"]
    assert client.get(base).get_json()["round"] == 1


def test_closing_a_round_as_final_ends_every_table_as_it_stands(client: FlaskClient) -> None:
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    first, second = evening["rounds"][0]["tables"]
    deal(client, first, FIRST_WINS)  # one deal of two, then every table stops
    final = {"final": True}
    closed = client.post(f"{base}/rounds/1/close", json=final, headers=auth(evening["token"]))
    assert closed.status_code == 200
    round_one = closed.get_json()["rounds"][0]
    assert round_one["status"] == "finished" and round_one["closed_at"]
    assert [t["status"] for t in round_one["tables"]] == ["finished", "finished"]
    assert [t["last_deal"] for t in round_one["tables"]] == [1, 0]
    game = client.get(f"/api/games/{first['game']}").get_json()
    assert game["status"] == "finished" and game["winner"] == 0  # 900 against 50
    untouched = client.get(f"/api/games/{second['game']}").get_json()
    assert untouched["status"] == "finished" and untouched["winner"] is None  # 0 to 0: a draw
    assert_error(deal(client, first, FIRST_WINS), 409)
    # The table's change log says so, and its scorer may undo it: the table plays on (its
    # round's time called: until it has played its deals).
    log = client.get(f"/api/games/{first['game']}/changes").get_json()["changes"]
    assert log[0]["kind"] == "time-called"
    undone = client.post(
        f"/api/games/{first['game']}/changes/{log[0]['id']}/undo", headers=auth(first["token"])
    )
    assert undone.status_code == 200
    assert client.get(base).get_json()["rounds"][0]["tables"][0]["status"] == "time_called"
    assert deal(client, first, LEVEL).status_code == 201
    # Closing again (the same round) is allowed.
    again = client.post(f"{base}/rounds/1/close", headers=auth(evening["token"]))
    assert again.status_code == 200
    assert_error(client.post(f"{base}/rounds/9/close", headers=auth(evening["token"])), 404)


def test_an_evening_ends_after_its_last_round(client: FlaskClient) -> None:
    evening = new_evening(client, rounds=2)
    base = f"/api/evenings/{evening['id']}"
    play_round(client, evening, FIRST_WINS)
    started = client.post(f"{base}/rounds", headers=auth(evening["token"]))
    assert started.status_code == 201
    second = {**started.get_json(), "token": evening["token"]}
    assert second["round"] == 2 and second["status"] == "playing"
    play_round(client, second, SECOND_WINS)
    done = client.get(base).get_json()
    assert done["status"] == "finished"
    refused = assert_error(client.post(f"{base}/rounds", headers=auth(evening["token"])), 409)
    assert "2" in refused["error"]
    # Each pair had one bye at most, and sat once per round.
    byes = Counter(tuple(b) for r in done["rounds"] for b in r["byes"])
    assert max(byes.values()) == 1
    for round_ in done["rounds"]:
        seated = [tuple(s["players"]) for t in round_["tables"] for s in t["sides"]]
        assert sorted(seated + [tuple(b) for b in round_["byes"]]) == sorted(map(tuple, PAIRS))
    # No two pairs met twice: five pairs, two rounds, it can be avoided.
    met = Counter(
        frozenset(tuple(s["players"]) for s in t["sides"])
        for r in done["rounds"]
        for t in r["tables"]
    )
    assert max(met.values()) == 1


# --- swaps -----------------------------------------------------------------------------


def test_a_swap_before_the_first_deal_moves_pairs_and_makes_new_games(
    client: FlaskClient,
) -> None:
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    first, second = evening["rounds"][0]["tables"]
    a, b = first["sides"][0]["players"], second["sides"][1]["players"]
    swapped = client.post(
        f"{base}/rounds/1/swap", json={"players": [a[1], b[0]]}, headers=auth(evening["token"])
    )
    assert swapped.status_code == 200
    now = swapped.get_json()["rounds"][0]["tables"]
    assert now[0]["sides"][0]["players"] == b and now[1]["sides"][1]["players"] == a
    assert {now[0]["game"], now[1]["game"]}.isdisjoint({first["game"], second["game"]})
    assert all(t["token"] for t in now)
    assert deal(client, now[0], FIRST_WINS).status_code == 201
    # With a deal played at table 1, no more swaps there.
    c = now[1]["sides"][0]["players"][0]
    refused = client.post(
        f"{base}/rounds/1/swap", json={"players": [b[0], c]}, headers=auth(evening["token"])
    )
    assert_error(refused, 409)


def test_a_swap_with_a_pair_sitting_out(client: FlaskClient) -> None:
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    (out,) = evening["rounds"][0]["byes"]
    seated = evening["rounds"][0]["tables"][0]["sides"][0]["players"]
    swapped = client.post(
        f"{base}/rounds/1/swap",
        json={"players": [out[0], seated[0]]},
        headers=auth(evening["token"]),
    )
    assert swapped.status_code == 200
    body = swapped.get_json()
    assert body["rounds"][0]["byes"] == [seated]
    assert body["rounds"][0]["tables"][0]["sides"][0]["players"] == out


@pytest.mark.parametrize(
    ("players", "field"),
    [(["Nobody", "Ana"], "players.0"), (["Ana", "ana"], "players"), (["Ana"], "players")],
)
def test_a_bad_swap_is_refused(client: FlaskClient, players: list[str], field: str) -> None:
    evening = new_evening(client)
    refused = client.post(
        f"/api/evenings/{evening['id']}/rounds/1/swap",
        json={"players": players},
        headers=auth(evening["token"]),
    )
    assert_error(refused, 422, field)


def test_partners_cannot_be_swapped_with_each_other(client: FlaskClient) -> None:
    evening = new_evening(client)
    refused = client.post(
        f"/api/evenings/{evening['id']}/rounds/1/swap",
        json={"players": ["Ana", "Boris"]},
        headers=auth(evening["token"]),
    )
    assert_error(refused, 422, "players")
    assert_error(
        client.post(
            f"/api/evenings/{evening['id']}/rounds/7/swap",
            json={"players": ["Ana", "Vera"]},
            headers=auth(evening["token"]),
        ),
        404,
    )
