"""Ratings across the club on the pages (RULES.md section 12): each player's rating and its
chart, the club ladder, and what moves them.

The ladder is checked against ratings rebuilt independently: from the API's documents of
the games (``GET /api/games/<id>``: status, sides' names and totals), in the order the games
were made, through the rules alone, with no database behind them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.rules import PlayedGame, RatedSide, Ratings, rate
from scorekeeper.store import db

from .helpers.api import auth, get_game, result
from .helpers.history import CASE_A, CASE_B, game, person_id, words
from .helpers.queries import counted, sent

US_THEM = [("Us", ["Ana", "Boris"]), ("Them", ["Vera", "Goran"])]
#: Two deals of case A make 2420: the side that has them wins at the target of 2000.
US_WIN = [[CASE_A, CASE_B], [CASE_A, CASE_B]]
THEM_WIN = [[CASE_B, CASE_A], [CASE_B, CASE_A]]


def made(client: FlaskClient, variant: str, sides: list[list[str]], winner: int) -> str:
    """A finished game of ``variant`` (a side per list of names; a name "Us 2" is a seat
    nobody on the list took), which side ``winner`` wins in two deals."""
    body = {
        "variant": variant,
        "sides": [
            {"name": f"Side {chr(65 + index)}", "players": players}
            for index, players in enumerate(sides)
        ],
        "options": {"target": 2000},
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    game_id, token = response.get_json()["id"], response.get_json()["token"]
    # Nobody goes out (Railroad's going out needs canastas of every kind); the winner melds
    # two canastas and 500 each deal, the others a little.
    results = [
        result(500, natural=1, mixed=1) if side == winner else result(100 + 5 * side)
        for side in range(len(sides))
    ]
    for _ in range(2):
        posted = client.post(
            f"/api/games/{game_id}/deals", json={"results": results}, headers=auth(token)
        )
        assert posted.status_code == 201, posted.get_json()
    assert get_game(client, game_id)["status"] == "finished"
    return str(game_id)


def started(client: FlaskClient) -> tuple[str, str]:
    """A classic game of Us and Them to 2,000, with no deal yet: its id and scorer token."""
    response = client.post(
        "/api/games",
        json={
            "variant": "classic",
            "sides": [{"name": n, "players": p} for n, p in US_THEM],
            "options": {"target": 2000},
        },
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"], response.get_json()["token"]


def ladder(client: FlaskClient) -> list[tuple[str, int]]:
    """The ladder's names and ratings, top first, as the page shows them."""
    html = client.get("/players/ladder").get_data(as_text=True)
    lines = re.findall(
        r'class="game-sides">([^<]+)</span>\s*<span class="ladder-rating">([^<]+)</span>', html
    )
    return [(name, int(re.sub(r"\D", "", rating))) for name, rating in lines]


def rebuilt(client: FlaskClient, game_ids: list[str]) -> Ratings[str]:
    """The ratings from the API's documents alone: finished games count, a seat with a
    side's default name ("Side A 2") is nobody from the list."""
    games = []
    for game_id in game_ids:
        response = client.get(f"/api/games/{game_id}")
        document: dict[str, Any] = response.get_json()
        # A deleted game answers 410; a game still going has no final totals.
        if response.status_code != 200 or document["status"] != "finished":
            continue
        sides = tuple(
            RatedSide(
                tuple(
                    None if name == f"{side['name']} {seat + 1}" else name
                    for seat, name in enumerate(side["players"])
                ),
                side["total"],
            )
            for side in document["sides"]
        )
        games.append(PlayedGame(game_id, sides))
    return rate(games)


def expected_ladder(ratings: Ratings[str]) -> list[tuple[str, int]]:
    lines = [(name, steps[-1].rating.shown) for name, steps in ratings.history.items()]
    return sorted(lines, key=lambda line: (-line[1], line[0].casefold()))


def test_player_page_shows_rating_and_chart(app: Flask, client: FlaskClient) -> None:
    game(client, US_THEM, US_WIN)
    game(client, US_THEM, THEM_WIN)
    game(client, [("Mixed", ["Ana", "Vera"]), ("Rest", ["Boris", "Goran"])], US_WIN)
    html = client.get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True)
    assert "Rating" in html
    assert html.count("<polyline") == 1
    assert 'href="/players/ladder"' in html
    text = words(html)
    assert "3 rated games" in text
    assert "From 1,000 to" in text


def test_a_player_without_a_rated_game(app: Flask, client: FlaskClient) -> None:
    game(client, US_THEM, [[CASE_A, CASE_B]])  # still going: it does not count yet
    html = client.get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True)
    assert "<polyline" not in html
    assert "No rated game yet" in html
    assert ladder(client) == []
    assert "Nobody is rated yet" in client.get("/players/ladder").get_data(as_text=True)


def test_ladder_order_and_figures(client: FlaskClient) -> None:
    ids = [
        game(client, US_THEM, US_WIN),
        game(client, US_THEM, US_WIN),
        game(client, [("Mixed", ["Ana", "Vera"]), ("Rest", ["Boris", "Goran"])], THEM_WIN),
    ]
    shown = ladder(client)
    assert shown == expected_ladder(rebuilt(client, ids))
    # Boris won all three; Vera lost all three.
    assert shown[0][0] == "Boris"
    assert shown[-1][0] == "Vera"
    text = words(client.get("/players/ladder").get_data(as_text=True))
    assert "Boris" in text and "3 rated games · 3 won" in text
    assert "/players/ladder" in client.get("/players").get_data(as_text=True)


def test_a_deleted_game_leaves_the_ratings(client: FlaskClient) -> None:
    kept = game(client, US_THEM, US_WIN)
    gone, token = started(client)
    for results in THEM_WIN:
        client.post(f"/api/games/{gone}/deals", json={"results": results}, headers=auth(token))
    both = ladder(client)
    assert client.delete(f"/api/games/{gone}", headers=auth(token)).status_code == 200
    assert ladder(client) == expected_ladder(rebuilt(client, [kept]))
    assert ladder(client) != both
    assert client.post(f"/api/games/{gone}/restore", headers=auth(token)).status_code == 200
    assert ladder(client) == both


def test_an_edit_that_changes_the_winner_changes_the_ratings(client: FlaskClient) -> None:
    game(client, US_THEM, THEM_WIN)
    game_id, token = started(client)
    for results in US_WIN:
        client.post(f"/api/games/{game_id}/deals", json={"results": results}, headers=auth(token))
    before = dict(ladder(client))
    # A win each; Ana's came last, and counts more (Vera was rated higher then).
    assert before["Ana"] > before["Vera"]
    # Both deals the other way round: Them win this game too.
    for number in (1, 2):
        edited = client.put(
            f"/api/games/{game_id}/deals/{number}",
            json={"results": [CASE_B, CASE_A]},
            headers=auth(token),
        )
        assert edited.status_code == 200, edited.get_json()
    assert get_game(client, game_id)["winner"] == 1
    after = dict(ladder(client))
    assert after != before
    assert after["Vera"] > after["Ana"]


def test_ratings_rebuilt_from_the_api_documents(app: Flask, client: FlaskClient) -> None:
    """Several finished games of every shape, one still going and one with a seat nobody
    on the list took: the ladder and each player's page show what the documents give."""
    ids = [
        made(client, "classic", [["Ana", "Boris"], ["Vera", "Goran"]], 0),
        made(client, "classic-2", [["Ana"], ["Vera"]], 1),
        made(client, "classic-3", [["Ana"], ["Boris"], ["Goran"]], 2),
        made(client, "classic-6", [["Ana", "Boris", "Dana"], ["Vera", "Goran", "Emil"]], 1),
        made(client, "classic-6x3", [["Ana", "Emil"], ["Boris", "Vera"], ["Goran", "Dana"]], 0),
        made(client, "railroad", [["Ana"], ["Boris"], ["Vera"], ["Goran"], ["Dana"]], 3),
        made(client, "samba", [["Dana", "Side A 2"], ["Ana", "Vera"]], 0),
        game(client, US_THEM, [[CASE_A, CASE_B]]),  # still going
    ]
    ratings = rebuilt(client, ids)
    assert len(ratings.rated) == 7
    assert ladder(client) == expected_ladder(ratings)
    for name, steps in ratings.history.items():
        text = words(client.get(f"/players/{person_id(app, name)}").get_data(as_text=True))
        now = f"{steps[-1].rating.shown:,}"
        assert f"Rating {now} rating" in text, name
        assert f"{len(steps)} rated game" in text, name


def test_ratings_pages_cost_the_same_queries_for_more_games(
    app: Flask, client: FlaskClient
) -> None:
    costs = []
    for _ in range(2):
        for _ in range(3):
            game(client, US_THEM, US_WIN)
        ana = person_id(app, "Ana")
        with counted(app) as statements:
            assert client.get("/players/ladder").status_code == 200
            assert client.get(f"/players/{ana}").status_code == 200
        costs.append(len(statements))
        # Read again with nothing changed: the ratings come from the cache.
        with counted(app) as statements:
            assert client.get("/players/ladder").status_code == 200
        assert len(statements) == 1, statements
    assert costs[0] == costs[1], costs


def test_a_deleted_game_and_an_old_game_imported_show_on_the_ladder(
    client: FlaskClient,
) -> None:
    """The tester's sequence: a finished game deleted, then an old game imported with its
    own dates. As many finished games as before, and none later than before: the ladder
    must still drop the deleted game's players and list the imported one's."""
    gone = game(client, [("Us", ["Petra", "Ivo"]), ("Them", ["Lina", "Marko"])], US_WIN)
    kept = game(client, US_THEM, US_WIN)
    assert {name for name, _ in ladder(client)} == {
        "Ana", "Boris", "Vera", "Goran", "Petra", "Ivo", "Lina", "Marko"
    }  # fmt: skip
    document = client.get(f"/api/games/{kept}/export").get_json()
    assert client.post(f"/games/{gone}/delete").status_code in (302, 303)
    assert client.get(f"/api/games/{gone}").status_code == 410
    assert {name for name, _ in ladder(client)} == {"Ana", "Boris", "Vera", "Goran"}
    # Played last year, by others; its change log keeps its own times.
    document["created_at"] = "2025-03-01T19:00:00Z"
    for change in document["changes"]:
        change["at"] = "2025-03-01T19:30:00Z"
    document["sides"][0]["players"] = ["Dora", "Emil"]
    document["sides"][1]["players"] = ["Fran", "Gita"]
    imported = client.post("/api/games/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    shown = ladder(client)
    assert {name for name, _ in shown} == {
        "Ana", "Boris", "Vera", "Goran", "Dora", "Emil", "Fran", "Gita"
    }  # fmt: skip
    assert shown == expected_ladder(rebuilt(client, [imported.get_json()["id"], kept]))


def test_a_restored_backup_shows_on_the_ladder(
    client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    """`flask restore --replace` writes outside the commit step: the ladder shows the
    backup's players, not the ones it replaced."""
    game(client, US_THEM, US_WIN)
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    game(client, [("Us", ["Petra", "Ivo"]), ("Them", ["Lina", "Marko"])], US_WIN)
    assert len(ladder(client)) == 8
    done = runner.invoke(args=["restore", "--replace", str(path)])
    assert done.exit_code == 0, done.output
    assert {name for name, _ in ladder(client)} == {"Ana", "Boris", "Vera", "Goran"}


def test_a_rename_shows_on_the_ladder(app: Flask, client: FlaskClient) -> None:
    """The ladder names people: a new name shows at once."""
    game(client, US_THEM, US_WIN)
    assert "Ana" in dict(ladder(client))
    ana = person_id(app, "Ana")
    renamed = client.post(f"/players/{ana}/rename", data={"name": "Anka"})
    assert renamed.status_code in (200, 302, 303), renamed.get_data(as_text=True)
    names = dict(ladder(client))
    assert "Anka" in names and "Ana" not in names


def test_a_deal_in_a_game_in_progress_keeps_the_ratings(app: Flask, client: FlaskClient) -> None:
    """A game in progress counts for nobody: its deals leave the kept ratings alone (the
    ladder costs its one version row), and its last deal, which finishes it, does not."""
    game(client, US_THEM, US_WIN)
    going, token = started(client)
    before = ladder(client)
    deals = f"/api/games/{going}/deals"
    assert client.post(deals, json={"results": THEM_WIN[0]}, headers=auth(token)).status_code == 201
    with counted(app) as statements:
        assert ladder(client) == before
    assert len(statements) == 1, statements
    assert client.post(deals, json={"results": THEM_WIN[1]}, headers=auth(token)).status_code == 201
    assert ladder(client) != before


def test_the_ratings_version_is_one_row_by_its_key(
    sqlite_client: FlaskClient,
) -> None:
    """The version every ratings page reads first is one row found by its primary key
    (SQLite's plan): a club with thousands of games pays what a club with ten pays."""
    app = sqlite_client.application
    with sent(app) as statements:
        assert sqlite_client.get("/players/ladder").status_code == 200
    (version, parameters) = next((s, p) for s, p in statements if "FROM counter" in s)
    with app.app_context(), db.engine.connect() as connection:
        plan = [
            row[-1]
            for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {version}", parameters)
        ]
    assert plan == ["SEARCH counter USING INDEX sqlite_autoindex_counter_1 (name=?)"], plan
