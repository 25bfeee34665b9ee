"""The committed migrations build exactly the schema the models describe, and go back down."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from scorekeeper import MIGRATIONS
from scorekeeper.store import db

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
