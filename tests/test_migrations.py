"""The committed migrations build exactly the schema the models describe, and go back down."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from scorekeeper import MIGRATIONS
from scorekeeper.store import db

from .conftest import app_for_tests, close
from .serving import fresh_database

TABLES = {"game", "side", "player", "deal", "deal_result"}


def test_migrations_match_the_models(app: Flask) -> None:
    """A model change without its migration fails here (the app's schema comes from them)."""
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []


def test_downgrade_to_empty_and_upgrade_again(app: Flask) -> None:
    with app.app_context():
        assert set(inspect(db.engine).get_table_names()) >= TABLES
        downgrade(directory=str(MIGRATIONS), revision="base")
        assert not TABLES & set(inspect(db.engine).get_table_names())
        upgrade(directory=str(MIGRATIONS))
        assert set(inspect(db.engine).get_table_names()) >= TABLES


def test_upgrade_puts_existing_players_on_the_roster_and_caches_records(app: Flask) -> None:
    """Games recorded before the roster existed: their named seats join it (default names
    such as "Us 1" do not) and each side gets its total, outcome and record."""
    from datetime import datetime

    from sqlalchemy import text

    with app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="a0e8686026bd")
        now = datetime(2026, 5, 1, 20, 0)
        with db.engine.begin() as c:
            c.execute(
                text(
                    "INSERT INTO game (id, token_hash, variant, options, first_dealer, created_at,"
                    " updated_at, finished) VALUES ('old', :h, 'classic', '{\"target\": 1000}', 0,"
                    " :t, :t, :f)"
                ),
                {"h": "0" * 64, "t": now, "f": True},
            )
            for side, (name, players) in enumerate(
                [("Us", ["Ana", "Boris"]), ("Them", ["Them 1", "Them 2"])]
            ):
                c.execute(
                    text(
                        "INSERT INTO side (id, game_id, position, name, start)"
                        " VALUES (:i, 'old', :p, :n, 0)"
                    ),
                    {"i": side + 1, "p": side, "n": name},
                )
                for seat, player in enumerate(players):
                    c.execute(
                        text("INSERT INTO player (side_id, position, name) VALUES (:s, :p, :n)"),
                        {"s": side + 1, "p": seat, "n": player},
                    )
            c.execute(
                text(
                    "INSERT INTO deal (id, game_id, seq, version, created_at)"
                    " VALUES (1, 'old', 1, 1, :t)"
                ),
                {"t": now},
            )
            for side, (meld, natural, mixed, threes, out, hand) in enumerate(
                [(220, 1, 1, 1, True, 10), (150, 0, 0, 2, False, 85)]
            ):
                c.execute(
                    text(
                        "INSERT INTO deal_result (deal_id, side_position, meld_points,"
                        " natural_canastas, mixed_canastas, wild_canastas, sevens_canastas,"
                        " concealed_canastas, red_threes, went_out, concealed, hand_points)"
                        " VALUES (1, :p, :m, :n, :x, 0, 0, 0, :r, :o, :c, :h)"
                    ),
                    {
                        "p": side,
                        "m": meld,
                        "n": natural,
                        "x": mixed,
                        "r": threes,
                        "o": out,
                        "c": False,
                        "h": hand,
                    },
                )
        upgrade(directory=str(MIGRATIONS))
        with db.engine.connect() as c:
            people = c.execute(text("SELECT name, key FROM person ORDER BY key")).all()
            sides = c.execute(
                text("SELECT total, outcome, record FROM side ORDER BY position")
            ).all()
            linked = c.execute(
                text("SELECT count(*) FROM player WHERE person_id IS NOT NULL")
            ).scalar()
            log = c.execute(
                text(
                    "SELECT kind, deal_seq, deal_number, after, reconstructed, at FROM change"
                    " WHERE game_id = 'old' ORDER BY id"
                )
            ).all()
    # The change log starts from the deals as they stood: the game, then each deal.
    assert [(kind, seq, number) for kind, seq, number, *_ in log] == [
        ("game-created", None, None),
        ("deal-recorded", 1, 1),
    ]
    assert all(row.reconstructed for row in log)
    import json as _json

    after = log[1].after if isinstance(log[1].after, dict) else _json.loads(log[1].after)
    assert after["results"][1]["hand_points"] == 85 and after["version"] == 1
    assert [tuple(p) for p in people] == [("Ana", "ana"), ("Boris", "boris")]
    assert linked == 2
    # Case A (1210) wins at a target of 1000; case B scores 265.
    assert [(total, outcome) for total, outcome, _ in sides] == [(1210, "won"), (265, "lost")]
    import json

    us = sides[0][2] if isinstance(sides[0][2], dict) else json.loads(sides[0][2])
    assert us["natural_canastas"] == 1 and us["went_out"] == 1 and us["tiers"] == {"50": 1}


BROKEN = '''"""a migration that fails halfway (a test's)"""
from alembic import op
import sqlalchemy as sa

revision = "ffffffffffff"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("deal") as batch_op:
        batch_op.add_column(sa.Column("broken", sa.Integer(), nullable=True))
    op.execute("UPDATE game SET variant = 'broken'")
    raise RuntimeError("a migration that fails halfway")


def downgrade():
    pass
'''


def test_a_failed_migration_leaves_the_database_as_it_was(app: Flask, tmp_path: Path) -> None:
    """Every migration runs in one transaction: one that fails halfway (after rebuilding a
    table and changing rows) leaves the schema, the data and the revision as they were, and
    the next start migrates as if it had never run."""
    from alembic.script import ScriptDirectory
    from flask.testing import FlaskClient

    from .helpers.api import auth, get_game, new_game, result

    client: FlaskClient = app.test_client()
    game_id, token = new_game(client)
    deal = {"results": [result(120, hand=10), result(90, hand=15)]}
    assert client.post(f"/api/games/{game_id}/deals", json=deal, headers=auth(token))
    before = get_game(client, game_id)
    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    broken = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, broken, ignore=shutil.ignore_patterns("__pycache__"))
    (broken / "versions" / "ffffffffffff_broken.py").write_text(BROKEN.format(head=head))
    with app.app_context():
        with pytest.raises(SystemExit):  # Flask-Migrate logs the error and exits
            upgrade(directory=str(broken))
        db.session.remove()
        tables = set(inspect(db.engine).get_table_names())
        columns = {column["name"] for column in inspect(db.engine).get_columns("deal")}
        with db.engine.connect() as connection:
            revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert revision == head
    assert "broken" not in columns
    assert not [name for name in tables if name.startswith("_alembic_tmp")]
    assert get_game(client, game_id) == before
    with app.app_context():
        upgrade(directory=str(MIGRATIONS))  # the next start: nothing to do, nothing broken
    assert client.post(f"/api/games/{game_id}/deals", json=deal, headers=auth(token))
    assert len(get_game(client, game_id)["deals"]) == 2


def test_a_table_left_by_an_interrupted_batch_is_dropped(app: Flask) -> None:
    """SQLite: a batch migration interrupted before migrations ran in one transaction left
    ``_alembic_tmp_<table>`` behind, and every later upgrade failed on it. The copy is
    dropped (its table is still there) and the upgrade goes on."""
    from alembic.script import ScriptDirectory

    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite's batch migrations rebuild tables")
        head = ScriptDirectory(str(MIGRATIONS)).get_revision("head")
        downgrade(directory=str(MIGRATIONS), revision=head.down_revision)
        with db.engine.begin() as connection:
            connection.exec_driver_sql("CREATE TABLE _alembic_tmp_game (id VARCHAR(32))")
        upgrade(directory=str(MIGRATIONS))
        tables = set(inspect(db.engine).get_table_names())
        with db.engine.connect() as connection:
            revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert revision == head.revision
    assert "_alembic_tmp_game" not in tables and "game" in tables


def test_drawn_cards_come_and_go_with_their_migration(app: Flask) -> None:
    """e5f7a9b1c3d2 adds the card each player drew for seats: games from before it keep
    their seats and have no cards; going back down drops the cards and keeps the game."""
    client = app.test_client()
    sides = [
        {"name": "We", "players": ["Vera", "Goran"], "cards": ["AC", "KD"]},
        {"name": "They", "players": ["Ana", "Boris"], "cards": ["QS", "7H"]},
    ]
    drawn = client.post(
        "/api/games", json={"variant": "classic", "sides": sides, "first_dealer": 3}
    )
    assert drawn.status_code == 201
    game_id = drawn.get_json()["id"]
    with app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="e7a9c1d3f5b7")
        assert "card" not in {c["name"] for c in inspect(db.engine).get_columns("player")}
        upgrade(directory=str(MIGRATIONS))
        with db.engine.connect() as connection:
            cards = connection.execute(text("SELECT card FROM player")).scalars().all()
        assert cards == [None] * 4
    document = client.get(f"/api/games/{game_id}/export").get_json()
    assert [side["players"] for side in document["sides"]] == [["Vera", "Goran"], ["Ana", "Boris"]]
    assert document["first_dealer"] == 3 and all("cards" not in s for s in document["sides"])


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_every_migration_runs_on_an_empty_database(kind: str, tmp_path: Path) -> None:
    """The other tests start from a copy of a schema built once per run; a new database
    is built here by every migration in turn, as a first start does, and matches the models."""
    with fresh_database(kind, tmp_path) as url:
        app = app_for_tests(url or f"sqlite:///{tmp_path / 'empty.sqlite'}")
        try:
            with app.app_context(), db.engine.connect() as connection:
                assert set(inspect(connection).get_table_names()) >= TABLES
                context = MigrationContext.configure(connection, opts={"compare_type": True})
                assert compare_metadata(context, db.metadata) == []
        finally:
            close(app)
