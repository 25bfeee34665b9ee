"""The SQLAlchemy handle shared by the models and the app factory."""

import sqlite3
from typing import Any

from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

# Named constraints so that migrations can alter them on every database (SQLite included).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)


def engine_of(app: Flask) -> Engine:
    """The app's database engine, for code that runs before Flask (WSGI middleware)."""
    with app.app_context():
        return db.engine


#: How long a SQLite write waits for another to finish before giving up (milliseconds).
SQLITE_BUSY_TIMEOUT_MS = 10_000


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """SQLite: write-ahead log (readers never wait for a writer), a busy timeout instead of
    "database is locked", foreign keys on, and a ``casefold`` function for searching names
    in any alphabet.

    ``synchronous=NORMAL`` (as Rails and most SQLite-backed servers set it with WAL): a
    commit writes the log without waiting for the disk to confirm it. The app (or its
    server) crashing loses nothing committed and the file is never corrupted; a power cut
    or an operating-system crash may lose the last deals committed before it. Waiting for
    the disk on every commit made recording a deal about a quarter slower, and its p99
    went past 50 ms under load (docs/PERFORMANCE.md)."""
    if isinstance(connection, sqlite3.Connection):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()
        # SQLite's lower() folds only ASCII: searching "мы" must find "Мы" too.
        connection.create_function("casefold", 1, _casefold, deterministic=True)


def _casefold(value: str | None) -> str | None:
    return value.casefold() if isinstance(value, str) else value
