"""Club evenings through the JSON API (API.md "Club evenings"): every status it lists, the
tables' games ending after the round's deals, time called, swaps, and the standings
rebuilt from the tables' own games.

Scores by RULES.md section 2: a side that goes out with one natural canasta and 300 meld
points scores 500 + 100 + 300 = 900; the other side, 100 melded and 50 in hand, 50.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import PlayedGame, RatedSide, rate

from .conftest import app_for_tests
from .helpers.api import Json, assert_error, auth, result
from .helpers.evenings import FIRST_WINS, PAIRS, SECOND_WINS, deal, director, evening_body
from .helpers.queries import counted

LEVEL = [result(100), result(100)]


def new_evening(client: FlaskClient, **changes: Any) -> Json:
    response = client.post("/api/evenings", json=evening_body(**changes))
    assert response.status_code == 201, response.get_json()
    assert response.headers["Cache-Control"] == "private, no-store"
    body: Json = response.get_json()
    return body


def play_round(client: FlaskClient, evening: Json, results: list[Json]) -> None:
    """Every table of the current round plays the round's deals, each ``results``."""
    current = evening["rounds"][-1]
    for table in current["tables"]:
        for _ in range(evening["deals_per_round"]):
            assert deal(client, table, results).status_code == 201


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


def test_closing_a_round_ends_every_table_as_it_stands(client: FlaskClient) -> None:
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    first, second = evening["rounds"][0]["tables"]
    deal(client, first, FIRST_WINS)  # one deal of two, then time is called
    closed = client.post(f"{base}/rounds/1/close", headers=auth(evening["token"]))
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
    # The table's change log says so, and its scorer may undo it: the table plays on.
    log = client.get(f"/api/games/{first['game']}/changes").get_json()["changes"]
    assert log[0]["kind"] == "time-called"
    undone = client.post(
        f"/api/games/{first['game']}/changes/{log[0]['id']}/undo", headers=auth(first["token"])
    )
    assert undone.status_code == 200
    assert deal(client, first, LEVEL).status_code == 201
    # Closing again (the same round) is allowed and ends it again.
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


# --- the standings, rebuilt from the games -------------------------------------------------


def rebuilt(client: FlaskClient, evening: Json) -> list[tuple[tuple[str, ...], int, int, int]]:
    """The standings counted again by hand from each table's game as the games API gives
    it: 2 match points for the sole highest total, 1 for a share of it, a bye 2 once; the
    difference against the best other side."""
    match_points: Counter[tuple[str, ...]] = Counter()
    difference: Counter[tuple[str, ...]] = Counter()
    points: Counter[tuple[str, ...]] = Counter()
    had_bye: set[tuple[str, ...]] = set()
    for round_ in evening["rounds"]:
        for table in round_["tables"]:
            game = client.get(f"/api/games/{table['game']}").get_json()
            if game["status"] != "finished":
                continue
            final = [side["total"] for side in game["sides"]]
            for index, side in enumerate(game["sides"]):
                pair = tuple(side["players"])
                others = max(t for i, t in enumerate(final) if i != index)
                top = final.count(max(final))
                if final[index] == max(final):
                    match_points[pair] += 2 if top == 1 else 1
                difference[pair] += final[index] - others
                points[pair] += final[index]
        for bye in round_["byes"]:
            if tuple(bye) not in had_bye:
                match_points[tuple(bye)] += 2
                had_bye.add(tuple(bye))
    every = [tuple(pair) for pair in PAIRS]
    return sorted(
        ((p, match_points[p], difference[p], points[p]) for p in every),
        key=lambda line: (-line[1], -line[2], -line[3], [n.casefold() for n in line[0]]),
    )


def test_the_standings_of_a_finished_evening_are_rebuilt_from_its_games(
    client: FlaskClient,
) -> None:
    evening = new_evening(client, rounds=3)
    base = f"/api/evenings/{evening['id']}"
    plays = [FIRST_WINS, SECOND_WINS, LEVEL]
    for number in range(3):
        current = director(client, evening)
        for index, table in enumerate(current["rounds"][-1]["tables"]):
            # A mix of wins, losses and draws, differing from table to table.
            for deal_number in range(2):
                figures = plays[(number + index + deal_number) % 3]
                assert deal(client, table, figures).status_code == 201
        if number < 2:
            assert client.post(f"{base}/rounds", headers=auth(evening["token"])).status_code == 201
    final = client.get(base).get_json()
    assert final["status"] == "finished"
    shown = [
        (tuple(line["players"]), line["match_points"], line["difference"], line["points"])
        for line in final["standings"]
    ]
    assert shown == rebuilt(client, final)
    # Every pair sat out at most once, and each round seated everyone once.
    byes = Counter(tuple(b) for r in final["rounds"] for b in r["byes"])
    assert len(byes) == 3 and max(byes.values()) == 1
    # The club's ratings, rebuilt from the same games in the order they were played (a
    # round's tables seat nobody twice, so their order within it changes nothing).
    played = []
    for round_ in final["rounds"]:
        for table in round_["tables"]:
            game = client.get(f"/api/games/{table['game']}").get_json()
            sides = tuple(RatedSide(tuple(s["players"]), s["total"]) for s in game["sides"])
            played.append(PlayedGame(table["game"], sides))
    ratings = rate(played)
    expected = sorted(
        ((name, steps[-1].rating.shown) for name, steps in ratings.history.items()),
        key=lambda line: (-line[1], line[0].casefold()),
    )
    html = client.get("/players/ladder").get_data(as_text=True)
    shown = re.findall(
        r'class="game-sides">([^<]+)</span>\s*<span class="ladder-rating">([^<]+)</span>', html
    )
    assert [(name, int(re.sub(r"\D", "", rating))) for name, rating in shown] == expected
    assert len(expected) == 10


# --- backups and exports ----------------------------------------------------------------


def test_a_tables_game_exports_and_imports_with_its_round_length(client: FlaskClient) -> None:
    evening = new_evening(client)
    table = evening["rounds"][0]["tables"][0]
    deal(client, table, FIRST_WINS)
    deal(client, table, SECOND_WINS)
    export = client.get(f"/api/games/{table['game']}/export").get_json()
    assert export["last_deal"] == 2
    imported = client.post("/api/games/import", json=export)
    assert imported.status_code == 201
    copy = imported.get_json()
    assert copy["status"] == "finished" and copy["winner"] is None and copy["last_deal"] == 2
    # A round's game with a deal past its end is refused, naming the deal (as any game).
    export["deals"].append(export["deals"][0] | {"seq": 3})
    assert "Deal 3" in assert_error(client.post("/api/games/import", json=export), 422)["error"]


def test_an_evening_is_backed_up_and_restored_elsewhere(
    client: FlaskClient, app: Flask, other: Flask, tmp_path: Any
) -> None:
    evening = new_evening(client)
    play_round(client, evening, FIRST_WINS)
    assert (
        client.post(
            f"/api/evenings/{evening['id']}/rounds", headers=auth(evening["token"])
        ).status_code
        == 201
    )
    before = director(client, evening)
    path = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    there = other.test_client()
    after = there.get(f"/api/evenings/{evening['id']}", headers=auth(evening["token"]))
    assert {**after.get_json(), "token": evening["token"]} == before
    # The director's secret works there: the tables' secrets with it.
    table = after.get_json()["rounds"][1]["tables"][0]
    assert deal(there, table, FIRST_WINS).status_code == 201
    # And a restore over it (--replace) takes the evening away with the games.
    again = app.test_cli_runner().invoke(args=["restore", "--replace", str(path)])
    assert again.exit_code == 0, again.output


def test_the_sheet_says_a_round_ended_in_a_draw(client: FlaskClient) -> None:
    evening = new_evening(client)
    table = evening["rounds"][0]["tables"][0]
    deal(client, table, FIRST_WINS)
    deal(client, table, SECOND_WINS)
    page = client.get(f"/games/{table['game']}").get_data(as_text=True)
    assert "A draw at 950" in page  # 900 + 50 each
    assert "The round ended after 2 deals." in page
    assert "wins with" not in page and "win with" not in page


def test_reading_an_evening_sends_as_many_statements_whatever_its_size(
    client: FlaskClient, app: Flask
) -> None:
    """Two tables and one round, or five tables and two rounds: the same statements (the
    director's page and every phone polling it read this)."""
    small = new_evening(client, pairs=PAIRS[:4])
    large = new_evening(client, pairs=[[f"A{n}", f"B{n}"] for n in range(10)])
    play_round(client, large, FIRST_WINS)
    client.post(f"/api/evenings/{large['id']}/rounds", headers=auth(large["token"]))
    sizes = []
    for evening in (small, large):
        with counted(app) as statements:
            assert client.get(f"/api/evenings/{evening['id']}").status_code == 200
        sizes.append(len(statements))
    assert sizes[0] == sizes[1] <= 10, sizes


# --- what a review found --------------------------------------------------------------------


def test_time_called_and_its_undo_travel_in_exports_and_backups(
    client: FlaskClient, app: Flask, other: Flask, tmp_path: Any
) -> None:
    evening = new_evening(client)
    base = f"/api/evenings/{evening['id']}"
    table = evening["rounds"][0]["tables"][0]
    deal(client, table, FIRST_WINS)
    client.post(f"{base}/rounds/1/close", headers=auth(evening["token"]))
    log = client.get(f"/api/games/{table['game']}/changes").get_json()["changes"]
    client.post(
        f"/api/games/{table['game']}/changes/{log[0]['id']}/undo", headers=auth(table["token"])
    )
    client.post(f"{base}/rounds/1/close", headers=auth(evening["token"]))
    export = client.get(f"/api/games/{table['game']}/export").get_json()
    kinds = [change["kind"] for change in export["changes"]]
    assert kinds.count("time-called") == 2 and "undo" in kinds
    copy = client.post("/api/games/import", json=export)
    assert copy.status_code == 201, copy.get_json()
    assert copy.get_json()["status"] == "finished" and copy.get_json()["last_deal"] == 1
    # A time called with a figure that is no deal's number is refused, naming it.
    bad = json_copy(export)
    bad["changes"][-1]["after"] = {"last_deal": "two"}
    assert_error(client.post("/api/games/import", json=bad), 422, "changes.4.after.last_deal")
    path = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output


def json_copy(document: Json) -> Json:
    copied: Json = json.loads(json.dumps(document))
    return copied


def test_a_closed_round_keeps_its_seats(client: FlaskClient) -> None:
    evening = new_evening(client, rounds=1)
    base = f"/api/evenings/{evening['id']}"
    (out,) = evening["rounds"][0]["byes"]
    seated = evening["rounds"][0]["tables"][0]["sides"][0]["players"]
    client.post(f"{base}/rounds/1/close", headers=auth(evening["token"]))
    before = client.get(base).get_json()
    assert before["status"] == "finished"
    refused = client.post(
        f"{base}/rounds/1/swap",
        json={"players": [out[0], seated[0]]},
        headers=auth(evening["token"]),
    )
    assert_error(refused, 409)
    assert client.get(base).get_json() == before


def test_a_tables_game_cannot_be_deleted(client: FlaskClient) -> None:
    evening = new_evening(client)
    table = evening["rounds"][0]["tables"][0]
    deal(client, table, FIRST_WINS)
    refused = client.delete(f"/api/games/{table['game']}", headers=auth(table["token"]))
    assert "club evening" in assert_error(refused, 409)["error"]
    assert client.get(f"/api/games/{table['game']}").status_code == 200


def test_tables_closed_before_a_deal_are_not_rated(client: FlaskClient) -> None:
    evening = new_evening(client)
    client.post(f"/api/evenings/{evening['id']}/rounds/1/close", headers=auth(evening["token"]))
    html = client.get("/players/ladder").get_data(as_text=True)
    assert "ladder-rating" not in html


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"name": "   "}, "name", "An evening needs a name."),
        (
            {"pairs": [[f"A{n}", f"B{n}"] for n in range(121)]},
            "pairs",
            "An evening seats at most 240 players.",
        ),
    ],
)
def test_the_refusal_says_what_is_wrong(
    client: FlaskClient, changes: Json, field: str, words: str
) -> None:
    body = assert_error(client.post("/api/evenings", json=evening_body(**changes)), 422, field)
    assert body["error"] == words


def test_long_names_make_a_short_side_name(client: FlaskClient) -> None:
    """Names that fold into many letters (ﷺ is 18) still seat a table: the side's name is
    shortened as the roster measures it."""
    players = [f"ﷺﷺ{n}" for n in range(8)]
    evening = new_evening(client, format="individual", pairs=None, players=players)
    assert len(evening["rounds"][0]["tables"]) == 2


def test_a_backup_whose_evening_does_not_hold_together_restores_nothing(
    client: FlaskClient, app: Flask, other: Flask, tmp_path: Any
) -> None:
    new_evening(client)
    path = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    document = json.loads(path.read_text())
    for player in document["evenings"][0]["players"]:
        player["entrant"] += 10  # numbers the pages could not find
    path.write_text(json.dumps(document))
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code != 0 and "evenings.0" in done.output, done.output
    assert other.test_client().get("/api/games").get_json()["games"] == []
