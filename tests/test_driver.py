"""Statements run on the driver (store/driver.py): they read and write what the ORM reads
and writes, fail with SQLAlchemy's errors, roll back what was not committed, are seen by
the engine's events; and the app's SQLite writers take turns across processes."""

from __future__ import annotations

import os
import threading
import time
from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.store import db
from scorekeeper.store.driver import Prepared, WriterTurns, transaction
from scorekeeper.store.models import Deal, Game, Side

from .test_api import new_game
from .test_query_counts import counted

GAME = Game.__table__
SIDE = Side.__table__

READ = Prepared(
    select(GAME.c.updated_at, GAME.c.options, GAME.c.finished, SIDE.c.record)
    .join(SIDE, SIDE.c.game_id == GAME.c.id)
    .where(GAME.c.id == bindparam("game_id"), SIDE.c.position == 0)
)
WRITE = Prepared(
    update(GAME)
    .where(GAME.c.id == bindparam("game_id"))
    .values(updated_at=bindparam("when"), finished=bindparam("over"))
)
WRITE_SIDE = Prepared(
    update(SIDE)
    .where(SIDE.c.game_id == bindparam("game_id"), SIDE.c.position == 0)
    .values(record=bindparam("record", type_=SIDE.c.record.type))
)
#: A deal numbered as the game's first already is.
SAME_PLACE = Prepared(
    Deal.__table__.insert().values(
        game_id=bindparam("game_id"), seq=1, version=1, created_at=bindparam("when")
    )
)


def test_values_read_and_written_are_the_orms(app: Flask, client: FlaskClient) -> None:
    game_id, _ = new_game(client, options={"target": 3000})
    when = datetime(2026, 11, 29, 21, 30, 15, 123456)
    record = {"deals": 3, "tiers": {"15": 2, "50": 1}}
    with app.app_context():
        with transaction(db.engine) as run:
            row = run.first(READ, game_id=game_id)
            game = db.session.get(Game, game_id)
            assert game is not None
            assert row == [game.updated_at, game.options, game.finished, game.sides[0].record]
            assert isinstance(row[0], datetime) and row[1] == {"target": 3000}
            assert run.run(WRITE, game_id=game_id, when=when, over=True) == 1
            run.run(WRITE_SIDE, game_id=game_id, record=record)
            run.commit()
        db.session.remove()
        game = db.session.get(Game, game_id)
        assert game is not None
        assert (game.updated_at, game.finished, game.sides[0].record) == (when, True, record)


def test_a_failed_statement_is_sqlalchemys_error_and_nothing_stays(
    app: Flask, client: FlaskClient
) -> None:
    game_id, _ = new_game(client)
    with app.app_context():
        before = db.session.get(Game, game_id)
        assert before is not None
        updated = before.updated_at
        db.session.remove()
        with transaction(db.engine) as run:
            run.writing()
            run.run(SAME_PLACE, game_id=game_id, when=datetime(2026, 1, 1))
            run.run(WRITE, game_id=game_id, when=datetime(2026, 1, 2), over=True)
            with pytest.raises(IntegrityError):
                run.run(SAME_PLACE, game_id=game_id, when=datetime(2026, 1, 3))
            run.rollback()
            # The connection goes on: another transaction on it commits.
            run.writing()
            run.run(WRITE, game_id=game_id, when=datetime(2026, 1, 4), over=False)
            # ... and one left without a commit is rolled back when the block ends.
        game = db.session.get(Game, game_id)
        assert game is not None
        assert (game.updated_at, game.finished, len(game.deals)) == (updated, False, 0)


def test_the_engines_events_see_each_statement(app: Flask, client: FlaskClient) -> None:
    game_id, _ = new_game(client)
    with counted(app) as statements, app.app_context(), transaction(db.engine) as run:
        run.first(READ, game_id=game_id)
        run.run(WRITE, game_id=game_id, when=datetime(2026, 1, 4), over=False)
    assert len(statements) == 2
    assert statements[0].startswith("SELECT") and statements[1].startswith("UPDATE game")


def _sqlite_file(app: Flask) -> None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("turns are for SQLite files")


def test_threads_take_turns(app: Flask) -> None:
    _sqlite_file(app)
    with app.app_context():
        turns = WriterTurns.of(db.engine)
    assert turns is not None
    order: list[str] = []
    assert turns.acquire(5)

    def other() -> None:
        assert turns.acquire(5)
        order.append("other")
        turns.release()

    thread = threading.Thread(target=other)
    thread.start()
    time.sleep(0.2)
    order.append("first")
    turns.release()
    thread.join(5)
    assert order == ["first", "other"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_worker_waits_for_the_others_turn(app: Flask) -> None:
    """Gunicorn forks its workers: each must lock on a file it opened itself (a lock on
    a file opened before the fork is the same lock in both processes, and never waits)."""
    _sqlite_file(app)
    with app.app_context():
        engine = db.engine
    turns = WriterTurns.of(engine)
    assert turns is not None
    assert turns.acquire(5)
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # the other worker
        try:
            started = time.monotonic()
            theirs = WriterTurns.of(engine)
            assert theirs is not None and theirs is not turns
            assert theirs.acquire(5)
            waited = time.monotonic() - started
            theirs.release()
            os.write(writing, f"{waited:.3f}".encode())
        finally:
            os._exit(0)
    os.close(writing)
    time.sleep(0.3)
    turns.release()
    _, status = os.waitpid(child, 0)
    waited = float(os.read(reading, 64).decode() or "0")
    os.close(reading)
    assert status == 0
    assert waited >= 0.25, f"the other worker went on after {waited} s"


def test_a_turn_that_does_not_come_is_given_up(app: Flask) -> None:
    """A writer outside the app holding the file does not make the app's writers wait for
    each other longer than SQLite would wait for the file."""
    _sqlite_file(app)
    with app.app_context():
        turns = WriterTurns.of(db.engine)
    assert turns is not None
    assert turns.acquire(5)
    given_up: list[float] = []

    def other() -> None:
        started = time.monotonic()
        assert not turns.acquire(0.2)
        given_up.append(time.monotonic() - started)

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(5)
    turns.release()
    assert len(given_up) == 1 and 0.2 <= given_up[0] < 2
    assert turns.acquire(0.2)  # free again
    turns.release()


def test_only_sqlite_files_take_turns(tmp_path: os.PathLike[str]) -> None:
    from .conftest import app_for_tests

    memory = app_for_tests("sqlite://")
    with memory.app_context():
        assert WriterTurns.of(db.engine) is None
    with app_for_tests(f"sqlite:///{tmp_path}/x.sqlite").app_context():
        assert WriterTurns.of(db.engine) is not None
    # No lock file where none can be made: SQLite's own waiting (and its errors) only.
    nowhere = app_for_tests(f"sqlite:///{tmp_path}/no/such/folder/x.sqlite", AUTO_MIGRATE=False)
    with nowhere.app_context():
        assert WriterTurns.of(db.engine) is None
