"""Versions the commit step moves, each read as one row (issue 45, part 3): an evening's
pages, a season's page and the history are keyed by a stamp or counter that every change
they show moves, and reading it costs one statement by primary keys at any size."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.store import db, evenings
from scorekeeper.store.guides import guide_ids

from .helpers.api import CASE_A, CASE_B, Json, auth, changes, new_game, post_deal, put_deal, undo
from .helpers.evenings import FIRST_WINS, PAIRS, deal, director, evening_body, new_evening
from .helpers.history import person_id, words
from .helpers.queries import sent

POLL = {"HX-Request": "true"}


def _pages(app: Flask, evening_id: str) -> tuple[tuple[str, dict[str, str]], ...]:
    """The evening's pages a phone polls (their live parts: the director's page, the
    room's screen, the first player's guide), and its public results."""
    with app.app_context():
        found = evenings.view(evening_id)
        assert found is not None
        guide = next(iter(guide_ids(found).values()))
    return (
        (f"/evenings/{evening_id}", POLL),
        (f"/evenings/{evening_id}/screen", POLL),
        (f"/evenings/{evening_id}/guide/{guide}", POLL),
        (f"/api/evenings/{evening_id}/results", {}),
    )


def etags(client: FlaskClient, evening_id: str) -> list[str]:
    """Each page's ETag as a follower reads it."""
    found = []
    for path, headers in _pages(client.application, evening_id):
        response = client.get(path, headers=headers)
        assert response.status_code == 200, path
        found.append(str(response.headers["ETag"]))
    return found


def plan_of(app: Flask, statement: str, parameters: Any) -> list[str]:
    """SQLite's plan of a statement, one line per step."""
    with app.app_context(), db.engine.connect() as connection:
        rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
        return [row[-1] for row in rows]


def is_sqlite(app: Flask) -> bool:
    return str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite")


def by_primary_keys(app: Flask, statement: str, parameters: Any, tables: set[str]) -> None:
    """The statement reads ``tables``, each by its primary key, and scans nothing."""
    if not is_sqlite(app):
        return
    plan = plan_of(app, statement, parameters)
    assert all(step.startswith("SEARCH") for step in plan), plan
    assert {step.split()[1] for step in plan} == tables, plan
    assert all("sqlite_autoindex" in step for step in plan), plan


def pairs(count: int) -> list[list[str]]:
    return [[f"North {n}", f"South {n}"] for n in range(count)]


def test_an_evenings_poll_reads_one_stamp_for_two_tables_or_five(
    app: Flask, client: FlaskClient
) -> None:
    """A poll answered 304 costs the same one statement (the evening's row and its stamp's,
    by their primary keys) at two tables as at five, on every page the evening has."""
    costs = []
    for count in (5, 11):
        evening = new_evening(client, pairs=pairs(count))
        for path, headers in _pages(app, evening["id"]):
            etag = client.get(path, headers=headers).headers["ETag"]
            with sent(app) as statements:
                again = client.get(path, headers={**headers, "If-None-Match": etag})
            assert again.status_code == 304, path
            assert len(statements) == 1, (path, statements)
            (statement, parameters) = statements[0]
            by_primary_keys(app, statement, parameters, {"evening", "evening_stamp"})
            costs.append([s for s, _p in statements])
    assert costs[:4] == costs[4:]


def test_every_change_at_a_table_moves_the_evenings_pages(client: FlaskClient) -> None:
    """A deal saved, edited, undone; time called; the guide's, the screen's, the results'
    and the director's live parts each change with it (their ETags move)."""
    evening = director(client, new_evening(client, rounds=1))
    table = evening["rounds"][-1]["tables"][0]
    game_id, token = table["game"], table["token"]
    seen = [etags(client, evening["id"])]

    def moved() -> None:
        now = etags(client, evening["id"])
        assert all(n != b for n, b in zip(now, seen[-1], strict=True)), (now, seen[-1])
        seen.append(now)

    assert deal(client, table, FIRST_WINS).status_code == 201
    moved()
    assert put_deal(client, game_id, token, 1, *FIRST_WINS[::-1]).status_code == 200
    moved()
    assert undo(client, game_id, token, changes(client, game_id)[0]["id"]).status_code == 200
    moved()
    closed = client.post(
        f"/api/evenings/{evening['id']}/rounds/1/close", headers=auth(evening["token"])
    )
    assert closed.status_code == 200, closed.get_json()
    moved()


def scored_game(client: FlaskClient, players: list[str]) -> tuple[str, str]:
    """A game of its own with these players, scored by this client's pages (a phone may
    rename only the players of games it keeps score of); its id and token."""
    body = {
        "variant": "classic",
        "sides": [
            {"name": "Left", "players": players[:2]},
            {"name": "Right", "players": ["X", "Y"]},
        ],
    }
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.get_json()
    game_id, token = made.get_json()["id"], made.get_json()["token"]
    assert client.post(f"/games/{game_id}/join", data={"token": token}).status_code == 302
    return game_id, token


def test_a_rename_of_a_player_on_a_bye_shows_on_the_evenings_screen(
    app: Flask, client: FlaskClient
) -> None:
    """Someone sitting out the round has no table of this evening; their new name still
    shows at once (a rename moves the stamp of each evening they are at), though the only
    game renamed is one of their own elsewhere."""
    evening = director(client, new_evening(client))
    (bye,) = evening["rounds"][-1]["byes"]
    scored_game(client, bye)
    before = etags(client, evening["id"])
    person = person_id(app, bye[0])
    renamed = client.post(f"/players/{person}/rename", data={"name": "Renamed Bye"})
    assert renamed.status_code == 303, renamed.status_code
    after = etags(client, evening["id"])
    assert all(a != b for a, b in zip(after, before, strict=True))
    screen = words(client.get(f"/evenings/{evening['id']}/screen").get_data(as_text=True))
    assert "Renamed Bye" in screen and bye[0] not in screen


def season_evening(client: FlaskClient, name: str = "Tuesday") -> tuple[Json, Json]:
    """A season and an evening of one round that joined it (the evening as its director
    reads it)."""
    season = client.post("/api/seasons", json={"name": "Autumn"}).get_json()
    body = evening_body(name=name, rounds=1, season=season["id"], season_token=season["token"])
    evening = client.post("/api/evenings", json=body).get_json()
    return season, director(client, evening)


def test_a_seasons_page_reads_one_stamp_however_many_evenings(
    app: Flask, client: FlaskClient
) -> None:
    season, _evening = season_evening(client)
    path = f"/seasons/{season['id']}"
    costs = []
    for more in range(3):
        if more:
            body = evening_body(
                name=f"More {more}", rounds=1, season=season["id"], season_token=season["token"]
            )
            assert client.post("/api/evenings", json=body).status_code == 201
        etag = client.get(path).headers["ETag"]
        with sent(app) as statements:
            assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
        (statement, parameters) = statements[0]
        assert len(statements) == 1, statements
        by_primary_keys(app, statement, parameters, {"season", "season_stamp"})
        costs.append(statement)
    assert len(set(costs)) == 1


def test_a_seasons_page_moves_with_what_it_shows_of_its_evenings(
    app: Flask, client: FlaskClient
) -> None:
    """A deal at one of its evenings' tables, an evening's command, a rename of a player
    present at one, and an evening joining each move the season's page; its ladder and
    names read afresh."""
    season, evening = season_evening(client)
    path = f"/seasons/{season['id']}"
    seen = [client.get(path).headers["ETag"]]

    def moved() -> str:
        response = client.get(path, headers={"If-None-Match": seen[-1]})
        assert response.status_code == 200
        seen.append(str(response.headers["ETag"]))
        return response.get_data(as_text=True)

    tables = evening["rounds"][-1]["tables"]
    for table in tables:
        assert deal(client, table, FIRST_WINS).status_code == 201
        moved()
    for table in tables:
        assert deal(client, table, FIRST_WINS).status_code == 201
    # Every table finished: the evening counts on the ladder.
    moved()
    (bye,) = evening["rounds"][-1]["byes"]
    scored_game(client, bye)
    renamed = client.post(f"/players/{person_id(app, bye[0])}/rename", data={"name": "Zora"})
    assert renamed.status_code == 303
    assert "Zora" in moved()
    body = evening_body(name="Joined later", season=season["id"], season_token=season["token"])
    assert client.post("/api/evenings", json=body).status_code == 201
    assert "Joined later" in moved()


def test_the_history_reads_its_version_alone_when_nothing_changed(
    app: Flask, client: FlaskClient
) -> None:
    """Read again with nothing changed, the history costs one statement (its counter, by
    its primary key) with three games or thirty; a phone with no games of its own here."""
    reader = app.test_client()
    costs = []
    for count in (3, 27):
        for _ in range(count):
            new_game(client)
        assert reader.get("/history").status_code == 200
        with sent(app) as statements:
            assert reader.get("/history").status_code == 200
        assert len(statements) == 1, statements
        (statement, parameters) = statements[0]
        if is_sqlite(app):
            plan = plan_of(app, statement, parameters)
            assert plan == ["SEARCH counter USING INDEX sqlite_autoindex_counter_1 (name=?)"]
        costs.append(statement)
    assert costs[0] == costs[1]


def history_words(client: FlaskClient, query: str = "") -> str:
    """The history page as a player reads it, through the worker's kept copy."""
    response = client.get(f"/history{query}")
    assert response.status_code == 200
    return words(response.get_data(as_text=True))


def test_every_thing_the_history_shows_moves_it(app: Flask, client: FlaskClient) -> None:
    """Each change of what the history shows (a game, a deal, a name, the player filter's
    choices, a deletion and a restore, an evening and its rounds) shows at its next
    reading: it moves the version the page is kept under."""
    # Read by another phone: the scorer's own page lists its deleted games apart.
    reader = app.test_client()
    game_id, token = scored_game(client, ["Ana", "Boris"])
    assert "Left 0" in history_words(reader)

    # A deal: the totals on the game's line.
    assert post_deal(client, game_id, token, CASE_B, CASE_A).status_code == 201
    assert "Left 265" in history_words(reader)

    # A rename: the filter's choices (and the game's players).
    ana = person_id(app, "Ana")
    assert "Anastasia" not in history_words(reader)
    assert client.post(f"/players/{ana}/rename", data={"name": "Anastasia"}).status_code == 303
    assert "Anastasia" in history_words(reader)

    # Someone added to the roster: the player filter offers them.
    assert client.post("/players", data={"name": "Newcomer"}).status_code == 303
    assert "Newcomer" in history_words(reader)

    # The game deleted, then restored.
    assert client.delete(f"/api/games/{game_id}", headers=auth(token)).status_code == 200
    assert "Left" not in history_words(reader)
    restored = client.post(f"/api/games/{game_id}/restore", headers=auth(token))
    assert restored.status_code == 200
    assert "Left 265" in history_words(reader)

    # An evening made, then its one round played to the end.
    evening = director(client, new_evening(client, name="Friday club", rounds=1, pairs=PAIRS[:4]))
    shown = history_words(reader)
    assert "Friday club" in shown and "The evening is over" not in shown
    for table in evening["rounds"][-1]["tables"]:
        for _ in range(evening["deals_per_round"]):
            assert deal(client, table, FIRST_WINS).status_code == 201
    assert "The evening is over" in history_words(reader)


def test_a_deal_and_time_called_at_once_wait_in_turn_not_in_a_circle(app: Flask) -> None:
    """PostgreSQL: a deal holds its game's lock when time is called; the director's command
    locks the evening's row, then waits for that game. The deal then moves the evening's
    stamp, a row the command does not hold, and commits; the command goes on. (Moving a
    column of the evening's row instead, the two would wait on each other, and PostgreSQL
    would cancel one.)"""
    if is_sqlite(app):
        pytest.skip("SQLite's writers take turns: one holds the whole database")
    client = app.test_client()
    evening = director(client, new_evening(client, rounds=1))
    table = evening["rounds"][-1]["tables"][0]
    with app.app_context():
        before = evenings.stamp_of(evening["id"])
        engine = db.engine
    locked, release = threading.Event(), threading.Event()
    dealer: list[Any] = []

    def hold(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        # The deal's thread, its game locked: wait here until the director waits for it.
        if threading.current_thread().name == "deal" and statement.startswith("INSERT INTO deal"):
            locked.set()
            release.wait(20)

    def save() -> None:
        dealer.append(deal(app.test_client(), table, FIRST_WINS))

    calling: list[Any] = []
    saving = threading.Thread(target=save, name="deal")
    closing = threading.Thread(
        target=lambda: calling.append(
            app.test_client().post(
                f"/api/evenings/{evening['id']}/rounds/1/close",
                headers=auth(evening["token"]),
            )
        )
    )
    event.listen(engine, "before_cursor_execute", hold)
    try:
        saving.start()
        assert locked.wait(20)
        closing.start()
        # In autocommit: a transaction reads pg_stat_activity once and keeps what it read,
        # so a watcher that looked before the director got there would never see it wait.
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as watcher:
            waiting = (
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            # (A deadline, not a count: the whole suite on two cores is slow to get there.)
            deadline = time.monotonic() + 30
            while not watcher.exec_driver_sql(waiting).scalar():
                assert closing.is_alive(), "the director's command went through without waiting"
                assert time.monotonic() < deadline, "the director's command never waited"
                time.sleep(0.05)
    finally:
        release.set()
        for thread in (saving, closing):
            if thread.ident is not None:
                thread.join(30)
        # Once both are done: a listener removed while the deal runs it breaks the engine's.
        event.remove(engine, "before_cursor_execute", hold)
    assert dealer[0].status_code == 201, dealer[0].get_json()
    assert calling[0].status_code == 200, calling[0].get_json()
    with app.app_context():
        after = evenings.stamp_of(evening["id"])
    assert before is not None and after is not None and after.tables >= before.tables + 2


def test_an_evenings_whole_pages_read_its_games_once_per_stamp(
    app: Flask, client: FlaskClient
) -> None:
    """The director's page, the room's screen and a player's guide, opened again with
    nothing changed, read the evening's stamp and none of its tables' games: the evening is
    built once per stamp, at five tables as at eleven. A deal builds it again, and the
    director's page and the screen show it."""
    for count in (5, 11):
        evening = director(client, new_evening(client, pairs=pairs(count)))
        pages = [path for path, _headers in _pages(app, evening["id"])[:3]]
        first = [client.get(path).get_data(as_text=True) for path in pages]
        for path in pages:
            with sent(app) as statements:
                assert client.get(path).status_code == 200, path
            read = " ".join(statement for statement, _p in statements)
            assert "evening_stamp" in read, (path, read)
            assert " game" not in read and "game." not in read, (path, read)
        table = evening["rounds"][-1]["tables"][0]
        assert deal(client, table, FIRST_WINS).status_code == 201
        # (The first guide's player may sit at another table: its poll is tested above.)
        after = [client.get(path).get_data(as_text=True) for path in pages[:2]]
        assert [a != b for a, b in zip(after, first, strict=False)] == [True, True], pages
