"""Recording the next deal without loading the game (store/recording.py): the answer and
everything kept next to each side are what replaying the whole game gives, however the
deals before were recorded, edited or deleted; and the work does not grow with the game."""

from __future__ import annotations

import re
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, select

from scorekeeper import create_app
from scorekeeper.rules.stats import side_records
from scorekeeper.store import db
from scorekeeper.store.games import load, sheet_of, side_results
from scorekeeper.store.models import Person
from scorekeeper.store.players import record_to_json

from .helpers.api import auth, get_game, new_game, post_deal, result
from .helpers.pages import CASE_A as PAGE_A
from .helpers.pages import CASE_B as PAGE_B
from .helpers.pages import deal_form, form_nonce
from .helpers.queries import counted, sent

CASE_A = result(220, natural=1, mixed=1, red_threes=1, went_out=True, hand=10)  # 1210
CASE_B = result(150, red_threes=2, hand=85)  # 265
#: Deals a table could enter: each side wins some, one goes out concealed, one is small.
DEALS = [
    [CASE_A, CASE_B],
    [CASE_B, CASE_A],
    [result(50, hand=5), result(90, hand=10)],
    [result(300, natural=2, went_out=True, concealed=True), result(120, hand=40)],
    [result(0, hand=60), result(130, natural=1, red_threes=4, went_out=True)],
]


def kept_as_replayed(app: Flask, game_id: str) -> None:
    """Each side's total, outcome and record as the rules engine gives them from scratch."""
    with app.app_context():
        game = load(game_id)
        assert game is not None
        sheet = sheet_of(game)
        records = side_records(sheet.state, [side_results(deal) for deal in game.deals])
        for side, record in zip(game.sides, records, strict=True):
            assert side.total == record.total
            assert side.outcome == record.outcome.value
            assert side.record == record_to_json(record)
        assert game.finished == sheet.state.finished
        db.session.remove()


def answers_as_the_game_shows(answer: dict[str, Any], game: dict[str, Any]) -> None:
    """The answer to a recorded deal says what the whole game then says about it."""
    deal = game["deals"][answer["number"] - 1]
    assert answer["results"] == deal["results"]
    assert answer["dealer"] == deal["dealer"]
    assert answer["version"] == deal["version"]
    assert answer["sides"] == game["sides"]
    assert answer["status"] == game["status"]
    assert answer["winner"] == game["winner"]
    assert answer["next_dealer"] == game["next_dealer"]


operations = st.lists(
    st.one_of(
        st.tuples(st.just("post"), st.integers(0, len(DEALS) - 1), st.just(0)),
        st.tuples(st.just("edit"), st.integers(0, len(DEALS) - 1), st.integers(1, 8)),
        st.tuples(st.just("delete"), st.just(0), st.integers(1, 8)),
    ),
    min_size=1,
    max_size=14,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations, st.sampled_from([3000, 5000]), st.sampled_from([0, 1, 3]))
def test_recorded_deals_keep_what_a_replay_gives(
    app: Flask, client: FlaskClient, ops: list[tuple[str, int, int]], target: int, dealer: int
) -> None:
    response = client.post(
        "/api/games",
        json={
            "variant": "classic",
            "sides": [
                {"name": "Us", "players": ["Ana", "Boris"], "start": 500},
                {"name": "Them", "players": ["Vera", "Goran"]},
            ],
            "options": {"target": target},
            "first_dealer": dealer,
        },
    )
    assert response.status_code == 201
    game_id, token = response.get_json()["id"], response.get_json()["token"]
    for kind, which, number in ops:
        if kind == "post":
            answer = post_deal(client, game_id, token, *DEALS[which])
            game = get_game(client, game_id)
            if answer.status_code == 409:  # the game is over
                assert game["status"] == "finished"
            else:
                assert answer.status_code == 201, answer.get_json()
                answers_as_the_game_shows(answer.get_json(), game)
        elif kind == "edit":
            client.put(
                f"/api/games/{game_id}/deals/{number}",
                json={"results": DEALS[which]},
                headers=auth(token),
            )
        else:
            client.delete(f"/api/games/{game_id}/deals/{number}", headers=auth(token))
        kept_as_replayed(app, game_id)


def test_the_deal_that_wins_ends_the_game(app: Flask, client: FlaskClient) -> None:
    game_id, token = new_game(client, options={"target": 2000})
    first = post_deal(client, game_id, token, CASE_A, CASE_B).get_json()
    assert first["status"] == "in_progress" and first["next_dealer"] == "Vera"
    won = post_deal(client, game_id, token, CASE_A, CASE_B)
    assert won.status_code == 201
    body = won.get_json()
    assert body["status"] == "finished" and body["winner"] == 0 and body["next_dealer"] is None
    assert [side["total"] for side in body["sides"]] == [2420, 530]
    assert "game" not in body  # the answer carries the deal, not every deal of the game
    kept_as_replayed(app, game_id)
    late = post_deal(client, game_id, token, CASE_A, CASE_B)
    assert late.status_code == 409
    assert "This game is over" in late.get_json()["error"]


def test_refused_deals_change_nothing(app: Flask, client: FlaskClient) -> None:
    game_id, token = new_game(client)
    post_deal(client, game_id, token, CASE_A, CASE_B)
    before = get_game(client, game_id)
    both_out = [result(220, natural=1, went_out=True), result(150, natural=1, went_out=True)]
    refused = post_deal(client, game_id, token, *both_out)
    assert refused.status_code == 422
    assert get_game(client, game_id) == before
    assert post_deal(client, game_id, "not-the-token", CASE_A, CASE_B).status_code == 403
    assert post_deal(client, "nosuchgame", token, CASE_A, CASE_B).status_code == 404
    assert get_game(client, game_id) == before
    kept_as_replayed(app, game_id)


def test_a_retry_answers_exactly_as_the_first_time(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    headers = {**auth(token), "Idempotency-Key": "phone-a-deal-1"}
    body = {"results": [CASE_A, result(40, hand=85)]}
    first = client.post(f"/api/games/{game_id}/deals", json=body, headers=headers)
    again = client.post(f"/api/games/{game_id}/deals", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert len(get_game(client, game_id)["deals"]) == 1


def test_recording_costs_the_same_in_a_long_game(app: Flask, client: FlaskClient) -> None:
    counts = []
    for deals in (1, 200):
        game_id, token = new_game(client, options={"target": 1_000_000})
        for _ in range(deals):
            saved = post_deal(client, game_id, token, result(50, hand=5), result(90))
            assert saved.status_code == 201
        with counted(app) as statements:
            assert post_deal(client, game_id, token, CASE_A, CASE_B).status_code == 201
        counts.append(len(statements))
    # Under the write lock: the game's head (PostgreSQL: its row locked first), its new
    # version, the deal, its results, its change-log entry, the sides' totals and the
    # players' versions; at the commit, the evening the game is a table of (none here) and
    # the history's version. The same in the first deal and the 201st.
    assert counts[0] == counts[1] <= 10, counts


def test_a_deal_moves_the_pages_of_the_people_at_its_game_and_no_one_else(
    app: Flask, client: FlaskClient
) -> None:
    """Everyone seated at the game (and only they) has a changed page after a deal: their
    version moves; someone on the roster who sat elsewhere keeps theirs."""
    game_id, token = new_game(client)
    other = {
        "variant": "classic",
        "sides": [
            {"name": "Them", "players": ["Petra", "Ivo"]},
            {"name": "Us", "players": ["Lina", "Marko"]},
        ],
    }
    assert client.post("/api/games", json=other).status_code == 201

    def versions() -> dict[str, object]:
        with app.app_context():
            people = db.session.scalars(select(Person)).all()
            seen = {person.name: person.version for person in people}
            db.session.remove()
            return seen

    before = versions()
    assert post_deal(client, game_id, token, CASE_A, CASE_B).status_code == 201
    after = versions()
    seated = {name for side in get_game(client, game_id)["sides"] for name in side["players"]}
    assert seated and seated <= set(after)
    assert {name for name in after if after[name] != before[name]} == seated


def test_recording_a_deal_searches_indexes_and_never_scans_a_table(
    app: Flask, client: FlaskClient
) -> None:
    """SQLite: every statement of a recorded deal finds its rows by key (the players'
    pages are moved by their ids, as read with the game: the roster, small here, was
    scanned, and the game's sides and seats searched again)."""
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite's query plans")
        path = db.engine.url.database
    for n in range(60):
        assert client.post("/players", data={"name": f"Guest {n}"}).status_code == 303
    for _ in range(3):
        new_game(client)
    game_id, token = new_game(client)
    with sent(app) as ran:
        assert post_deal(client, game_id, token, CASE_A, CASE_B).status_code == 201
    plans = sqlite3.connect(str(path))
    try:
        plans.execute("ANALYZE")
        for statement, parameters in ran:
            if isinstance(parameters, list):  # executemany: the plan is the same for each
                parameters = parameters[0]
            plan = plans.execute(f"EXPLAIN QUERY PLAN {statement}", parameters).fetchall()
            scans = [row[3] for row in plan if row[3].startswith("SCAN")]
            assert not scans, (statement, scans)
    finally:
        plans.close()
    assert len(ran) >= 5


def test_a_database_held_by_another_writer_answers_503_to_try_again(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite: while another program holds the file for writing longer than the busy
    timeout, saving, editing, deleting and renaming answer 503 with Retry-After (the API's
    error shape, a page for the pages, JSON for the phone's queue) and change nothing; the
    same request sent again afterwards is made once (issue 31: it was a 409, "too busy")."""
    database = sys.modules["scorekeeper.store.db"]  # the module (``store.db`` is the handle)
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite's file lock")
        path = db.engine.url.database
        monkeypatch.setattr(database, "SQLITE_BUSY_TIMEOUT_MS", 20)
        db.engine.dispose()  # new connections wait 20 ms, not 10 s
    game_id, token = new_game(client)
    assert post_deal(client, game_id, token, CASE_A, CASE_B).status_code == 201
    before = get_game(client, game_id)
    ana = next(
        int(link) for link in re.findall(r'href="/players/(\d+)"', client.get("/players").text)
    )
    scorer = app.test_client()
    assert scorer.post(f"/games/{game_id}/join", data={"token": token}).status_code == 302
    nonce = form_nonce(scorer, game_id)
    keyed = {**auth(token), "Idempotency-Key": "held-1"}
    holder = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        saved = client.post(
            f"/api/games/{game_id}/deals", json={"results": [CASE_B, CASE_A]}, headers=keyed
        )
        edited = client.put(
            f"/api/games/{game_id}/deals/1", json={"results": [CASE_B, CASE_A]}, headers=auth(token)
        )
        deleted = client.delete(f"/api/games/{game_id}/deals/1", headers=auth(token))
        for answer in (saved, edited, deleted):
            assert answer.status_code == 503, answer.get_json()
            assert answer.headers["Retry-After"] == "5"
            assert set(answer.get_json()) == {"error", "fields"}
            assert "try again in a moment" in answer.get_json()["error"].lower()
        form = deal_form("0", we=PAGE_A, they=PAGE_B) | {"nonce": nonce}
        page = scorer.post(f"/games/{game_id}/deals/new", data=form)
        assert page.status_code == 503 and page.headers["Retry-After"] == "5"
        assert "Try again in a moment" in page.text
        queued = scorer.post(
            f"/games/{game_id}/deals/new", data=form, headers={"Accept": "application/json"}
        )
        assert queued.status_code == 503 and "error" in queued.get_json()
        renamed = scorer.post(f"/players/{ana}/rename", data={"name": "Anka"})
        assert renamed.status_code == 503 and "Try again in a moment" in renamed.text
        # Reading goes on meanwhile (write-ahead log: readers never wait for a writer).
        assert get_game(client, game_id) == before
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert get_game(client, game_id) == before
    # Sent again, each is made, once.
    again = client.post(
        f"/api/games/{game_id}/deals", json={"results": [CASE_B, CASE_A]}, headers=keyed
    )
    assert again.status_code == 201
    assert scorer.post(f"/games/{game_id}/deals/new", data=form).status_code == 302
    assert scorer.post(f"/games/{game_id}/deals/new", data=form).status_code == 302
    assert len(get_game(client, game_id)["deals"]) == 3


@pytest.mark.parametrize("change", ["record", "edit"])
def test_a_rename_while_a_deal_is_saved_waits_its_turn(
    app: Flask, client: FlaskClient, change: str
) -> None:
    """A deal being saved holds its game, then marks its players changed; a rename of one
    of them marks their games first, then them: the same order, so one waits for the
    other (on PostgreSQL the opposite order deadlocked and the rename answered 500)."""
    game_id, token = new_game(client)
    assert post_deal(client, game_id, token, CASE_A, CASE_B).status_code == 201
    with app.app_context():
        ana = db.session.scalar(select(Person.id).where(Person.name == "Ana"))
        engine = db.engine
    at_people, go_on = threading.Event(), threading.Event()

    def pause_the_saver(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if threading.current_thread().name == "saver" and statement.lstrip().startswith(
            "UPDATE person"
        ):
            at_people.set()
            go_on.wait(5)

    answers: dict[str, int] = {}

    def saver() -> None:
        phone = app.test_client()
        body, headers = {"results": [CASE_B, CASE_A]}, auth(token)
        if change == "record":
            answer = phone.post(f"/api/games/{game_id}/deals", json=body, headers=headers)
        else:
            answer = phone.put(f"/api/games/{game_id}/deals/1", json=body, headers=headers)
        answers["saver"] = answer.status_code

    scorer = app.test_client()
    assert scorer.post(f"/games/{game_id}/join", data={"token": token}).status_code == 302

    def renamer() -> None:
        answer = scorer.post(f"/players/{ana}/rename", data={"name": "Anka"})
        answers["renamer"] = answer.status_code

    event.listen(engine, "before_cursor_execute", pause_the_saver)
    try:
        first = threading.Thread(target=saver, name="saver")
        first.start()
        assert at_people.wait(10)
        second = threading.Thread(target=renamer, name="renamer")
        second.start()
        time.sleep(0.3)  # the rename now waits for the saver's game
        go_on.set()
        first.join(30)
        second.join(30)
    finally:
        go_on.set()
        event.remove(engine, "before_cursor_execute", pause_the_saver)
    assert answers == {"saver": 201 if change == "record" else 200, "renamer": 303}
    game = get_game(client, game_id)
    assert game["sides"][0]["players"][0] == "Anka"
    assert len(game["deals"]) == (2 if change == "record" else 1)
    kept_as_replayed(app, game_id)


def test_a_connection_opened_while_another_holds_the_file_waits_for_it(tmp_path: Path) -> None:
    """SQLite: a worker that starts while another migrates a fresh file (holding it
    whole) waits the app's busy timeout for it, not the driver's 5 s: on a slow machine the
    second worker failed to boot, and gunicorn stopped the server with it."""
    path = tmp_path / "held.sqlite"
    holder = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("CREATE TABLE t (x)")
    release = threading.Timer(6, holder.execute, ("COMMIT",))
    release.start()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "AUTO_MIGRATE": False})
    try:
        # Opened only once the holder let go (6 s): the driver alone waits 5 s, then refuses.
        with app.app_context(), db.engine.connect() as connection:
            mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
        assert mode == "wal" and release.finished.is_set()
    finally:
        release.join()
        holder.close()
        with app.app_context():
            db.engine.dispose()
