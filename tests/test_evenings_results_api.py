"""Club evenings through the JSON API (docs/API.md, RULES.md section 11): the standings
rebuilt from the games, backups and exports, and what a review found (creating, rounds and
swaps: tests/test_evenings_api.py).

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
from .helpers.history import markup
from .helpers.queries import counted

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
    client.post(f"{base}/rounds/1/close", json={"final": True}, headers=auth(evening["token"]))
    log = client.get(f"/api/games/{table['game']}/changes").get_json()["changes"]
    client.post(
        f"/api/games/{table['game']}/changes/{log[0]['id']}/undo", headers=auth(table["token"])
    )
    client.post(f"{base}/rounds/1/close", json={"final": True}, headers=auth(evening["token"]))
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
    client.post(f"{base}/rounds/1/close", json={"final": True}, headers=auth(evening["token"]))
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
    client.post(
        f"/api/evenings/{evening['id']}/rounds/1/close",
        json={"final": True},
        headers=auth(evening["token"]),
    )
    html = markup(client.get("/players/ladder").get_data(as_text=True))
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
