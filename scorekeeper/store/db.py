"""The SQLAlchemy handle, and how transactions begin on each database.

Reads see one snapshot: every query of a request's session sees the database as it stood
at the first one (SQLite: SQLAlchemy emits ``BEGIN``, which the sqlite3 module leaves out
before a SELECT; PostgreSQL: REPEATABLE READ, set in the app factory). The version a page
is kept by is read before that, on a connection of its own (``version_row``). A change goes
through ``transaction()``: it waits for the lock before it reads anything it will change
(SQLite: ``BEGIN IMMEDIATE``, the database's one writer; PostgreSQL: READ COMMITTED, and
the game's row is locked with ``SELECT ... FOR UPDATE``), so it reads what the last
committed change left and never loses a race after it has begun.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Executable, MetaData, event
from sqlalchemy.engine import Connection, Engine, ExceptionContext, Row
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import DeclarativeBase

from .errors import Unavailable

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


#: Objects stay as loaded after a commit: a change's answer shows what it committed
#: without reading it again.
logger = logging.getLogger(__name__)
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})

#: How long a SQLite write waits for another to finish before giving up (milliseconds).
SQLITE_BUSY_TIMEOUT_MS = 10_000
#: The execution option that marks a connection's transaction as a writer's.
WRITER = "scorekeeper_writer"
#: PostgreSQL's isolation for readers (one snapshot) and for writers (see the module).
READ_ISOLATION = "REPEATABLE READ"
WRITE_ISOLATION = "READ COMMITTED"


@event.listens_for(Engine, "connect")
def _sqlite_connect(connection: Any, _record: Any) -> None:
    """SQLite: SQLAlchemy begins transactions (``_sqlite_begin``), write-ahead log (readers
    never wait for a writer), a busy timeout instead of "database is locked", foreign keys
    on, a page cache of 32 MB (a club's years of games outgrow the default 2 MB, and every
    deal then reads its game's pages from the file again), and a ``casefold`` function for
    searching names in any alphabet.

    ``synchronous=NORMAL`` (as most SQLite-backed servers set it with WAL): a commit writes
    the log without waiting for the disk. The app or its server crashing loses nothing
    committed; a power cut may lose the last deals committed before it."""
    if isinstance(connection, sqlite3.Connection):
        connection.isolation_level = None
        cursor = connection.cursor()
        # The wait first: a worker that starts while another migrates the file waits for
        # it here too (journal_mode needs a lock), not only the driver's 5 s.
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA cache_size=-32000")
        cursor.close()
        # SQLite's lower() folds only ASCII: searching "мы" must find "Мы" too.
        connection.create_function("casefold", 1, _casefold, deterministic=True)


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection: Connection) -> None:
    """SQLite: a reader's transaction holds its snapshot from its first query; a writer's
    takes the write lock at once (waiting up to the busy timeout)."""
    if connection.dialect.name == "sqlite":
        writer = connection.get_execution_options().get(WRITER)
        # On the driver's connection: a statement of SQLAlchemy's own would cost as much
        # as the query the transaction is begun for (so its errors are the driver's too).
        try:
            connection.connection.driver_connection.execute(  # type: ignore[union-attr]
                "BEGIN IMMEDIATE" if writer else "BEGIN"
            )
        except sqlite3.OperationalError as error:
            if _sqlite_unavailable(error):
                logger.warning("The database stayed locked: %s", error)
                raise Unavailable() from error
            raise


#: SQLite's primary result codes for a file held by another connection (BUSY, LOCKED) or
#: one that cannot be opened (CANTOPEN).
SQLITE_UNAVAILABLE = {5, 6, 14}


def _sqlite_unavailable(error: sqlite3.Error) -> bool:
    return (getattr(error, "sqlite_errorcode", 0) & 0xFF) in SQLITE_UNAVAILABLE


@event.listens_for(Engine, "handle_error")
def _unavailable(context: ExceptionContext) -> BaseException | None:
    """Every statement, and every connection made: a database out of reach or locked past
    the wait becomes the one domain error ``Unavailable`` (answered 503 by the pages and
    the API), reads and writes alike. Other errors (a broken constraint, a bug) stay as
    they are. SQLAlchemy has invalidated a lost connection by then: the pool makes a new
    one for the next request."""
    if context.is_pre_ping:
        # The pool's check of a connection it kept (``engine_options``): a dead one is
        # let go and another opened, which is where a server still down shows.
        return None
    original = context.original_exception
    if isinstance(original, sqlite3.Error):
        unavailable = _sqlite_unavailable(original)
    else:
        # PostgreSQL: stopped, restarting, shutting down, the connection lost, a deadlock
        # or a lock or statement timeout: its driver's OperationalError, or a disconnect.
        unavailable = context.is_disconnect or isinstance(
            context.sqlalchemy_exception, OperationalError
        )
    if not unavailable:
        return None
    logger.warning("The database is unavailable: %s", original)
    return Unavailable()


def _casefold(value: str | None) -> str | None:
    return value.casefold() if isinstance(value, str) else value


def engine_options(url: str) -> dict[str, Any]:
    """SQLALCHEMY_ENGINE_OPTIONS for ``url``: PostgreSQL readers see one snapshot, and a
    pooled connection is checked before each request uses it (``pool_pre_ping``: a
    ``SELECT 1``, a round trip on the socket it already has). A server restarted between
    two requests closed every connection in each worker's pool: the check finds each one
    dead and opens another, so the restart costs no request a 503."""
    if url.startswith("postgresql"):
        return {"isolation_level": READ_ISOLATION, "pool_pre_ping": True}
    return {}


def writer_options(connection_or_engine: Connection | Engine) -> dict[str, Any]:
    """The execution options of a writer's connection on this database."""
    options: dict[str, Any] = {WRITER: True}
    if connection_or_engine.dialect.name == "postgresql":
        options["isolation_level"] = WRITE_ISOLATION
    return options


def version_row(
    statement: Executable, params: dict[str, Any] | None = None
) -> Row[*tuple[Any, ...]] | None:
    """The one row of a version (what a page's ETag or cache key is made of), read on a
    connection of its own, outside the request's session: a conditional request that ends
    in a 304 opens no session. On PostgreSQL in autocommit, one statement being its own
    snapshot: after the pool's check, one round trip where the session's BEGIN, SELECT and
    ROLLBACK take three (docs/PERFORMANCE.md, "The evening on PostgreSQL"). What the page
    then reads in the session is as new as the version or newer, never older."""
    with db.engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        return connection.execute(statement, params).one_or_none()


@contextmanager
def transaction() -> Iterator[None]:
    """One change, in one transaction of ``db.session``: committed when the block ends,
    rolled back when it raises. Whatever the session read before is let go first, so the
    change reads afresh under the lock (lock the game's row with ``with_for_update``).
    The lock not had in time, or the database out of reach, raises ``Unavailable``:
    nothing was written."""
    session = db.session
    session.rollback()
    try:
        session.connection(execution_options=writer_options(db.engine))
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise
