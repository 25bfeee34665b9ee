"""A few fixed statements run with the least work between them and the database.

``Connection.execute`` spends 20 to 50 µs on every statement before the driver sees it (a
cache key, an execution context, a result object); the driver itself takes about 4 µs.
For the request the app answers most often among its writes, recording a deal
(``recording.py``: a read, a few writes, a commit), that was half of the request's time.

A ``Prepared`` statement is an ordinary Core statement, compiled once per kind of database,
whose parameters and results get the conversions SQLAlchemy's types give them (dates as
text on SQLite, JSON), run on the connection's own cursor through
``Connection._cursor_execute``: the path SQLAlchemy itself takes for sequences and column
defaults, with the engine's events (statement counts, tests' hooks) and its exceptions
(``IntegrityError``, ``OperationalError``) as for any other statement.

Only statements with plain named parameters: no ``IN`` lists expanded at run time, nothing
that needs SQLAlchemy's statement cache.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.engine.interfaces import DBAPICursor
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from .db import SQLITE_BUSY_TIMEOUT_MS

try:
    import fcntl
except ImportError:  # not a POSIX system: SQLite's own waiting only
    fcntl = None  # type: ignore[assignment]

Processor = Callable[[Any], Any]


@dataclass(frozen=True)
class _Form:
    """A statement as one kind of database takes it."""

    sql: str
    #: Positional parameter styles (SQLite's ``?``): the parameters' names in order.
    order: tuple[str, ...] | None
    #: Values written into the statement itself (``literal(1)``, a function's constants).
    fixed: Mapping[str, Any]
    #: Each parameter's conversion to the driver's value (only those that have one).
    binds: Mapping[str, Processor]
    #: The result columns that need a conversion from the driver's value, and it.
    results: tuple[tuple[int, Processor], ...]

    def parameters(self, values: Mapping[str, Any]) -> Sequence[Any] | Mapping[str, Any]:
        merged = values
        if self.fixed or self.binds:
            merged = {**self.fixed, **values}
            for name, process in self.binds.items():
                merged[name] = process(merged[name])
        if self.order is None:
            return merged
        return tuple([merged[name] for name in self.order])

    def row(self, raw: Sequence[Any]) -> list[Any]:
        row = list(raw)
        for index, process in self.results:
            row[index] = process(row[index])
        return row


class Prepared:
    """A Core statement compiled once per kind of database (see the module's docstring)."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._forms: dict[tuple[object, ...], _Form] = {}

    def form(self, dialect: Dialect) -> _Form:
        key = (type(dialect), dialect.paramstyle, dialect.server_version_info)
        form = self._forms.get(key)
        if form is None:
            form = self._forms[key] = self._compile(dialect)
        return form

    def _compile(self, dialect: Dialect) -> _Form:
        compiled = self.statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        if compiled.literal_execute_params or compiled.post_compile_params:
            raise ValueError("parameters expanded at run time need Connection.execute")
        if compiled.escaped_bind_names:
            raise ValueError("parameter names the database cannot take as they are")
        fixed: dict[str, Any] = {}
        binds: dict[str, Processor] = {}
        for name, bind in compiled.binds.items():
            if bind.value is not None or not bind.required:
                fixed[name] = bind.effective_value
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                binds[name] = process
        columns = getattr(self.statement, "exported_columns", ())
        processors = (
            column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns
        )
        results = tuple(
            (index, process) for index, process in enumerate(processors) if process is not None
        )
        order = tuple(compiled.positiontup or ()) if compiled.positional else None
        return _Form(compiled.string, order, fixed, binds, results)


class Statements:
    """Prepared statements run in one transaction on one connection (``transaction``)."""

    def __init__(self, connection: Connection, turns: WriterTurns | None = None) -> None:
        self.connection = connection
        self.dialect = connection.dialect
        self._turns = turns
        self._writing = False

    def writing(self) -> None:
        """Call before the transaction's first write: on SQLite, wait for this process's
        turn among the app's writers (``WriterTurns``), as long as SQLite would wait for
        the file; elsewhere nothing."""
        if self._turns is not None and not self._writing:
            self._writing = self._turns.acquire(SQLITE_BUSY_TIMEOUT_MS / 1000)

    def _done(self) -> None:
        if self._writing:
            self._writing = False
            assert self._turns is not None
            self._turns.release()

    def run(self, prepared: Prepared, **values: Any) -> int:
        """Run a statement; how many rows it changed."""
        cursor = self._execute(prepared.form(self.dialect), values)
        rowcount: int = cursor.rowcount
        cursor.close()
        return rowcount

    def run_each(self, prepared: Prepared, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run a statement once for each of a few rows of values."""
        form = prepared.form(self.dialect)
        for values in rows:
            self._execute(form, values).close()

    def rows(self, prepared: Prepared, **values: Any) -> list[list[Any]]:
        form = prepared.form(self.dialect)
        cursor = self._execute(form, values)
        rows = [form.row(raw) for raw in cursor.fetchall()]
        cursor.close()
        return rows

    def first(self, prepared: Prepared, **values: Any) -> list[Any] | None:
        rows = self.rows(prepared, **values)
        return rows[0] if rows else None

    def commit(self) -> None:
        self._end(self.connection.commit)

    def rollback(self) -> None:
        self._end(self.connection.rollback)

    def _end(self, end: Callable[[], None]) -> None:
        """End the transaction (and this writer's turn); the next statement starts one."""
        try:
            end()
        finally:
            self._done()
        self.connection.begin()

    def _execute(self, form: _Form, values: Mapping[str, Any]) -> DBAPICursor:
        # A cursor per statement: SQLAlchemy closes the cursor of a statement that failed.
        cursor = self.connection.connection.cursor()
        self.connection._cursor_execute(cursor, form.sql, form.parameters(values))
        return cursor


@contextmanager
def transaction(engine: Engine) -> Iterator[Statements]:
    """A connection of the engine's pool, in a transaction that ends with ``commit`` (or is
    rolled back when the block ends without one)."""
    with engine.connect() as connection:
        connection.begin()
        statements = Statements(connection, WriterTurns.of(engine))
        try:
            yield statements
        finally:
            statements._done()


#: How long a writer sleeps before it looks again whether its turn came, at first and at
#: most (seconds).
FIRST_PAUSE = 0.00005
LONGEST_PAUSE = 0.002


class WriterTurns:
    """Writers to one SQLite file taking turns without sleeping.

    SQLite lets one connection write at a time; another that wants to write meanwhile is
    told "busy" and its busy handler sleeps 1 ms, then 2, then 5... before trying again,
    although a deal's writes hold the file for about a quarter of a millisecond: with two
    workers recording deals, each spent a fifth of its time asleep. Writers that first
    take this lock (``flock`` on a file next to the database, and a thread lock) look
    again after 50 µs, then 100... and go on soon after the writer before them lets go.
    SQLite's own locking is unchanged: writers that do not take turns (another program,
    the app's other writes) wait for the file as before, and a writer whose turn does not
    come within SQLite's busy timeout goes on without it."""

    #: Each engine's, in this process (a lock on a file opened before a fork would be
    #: shared by both processes): made on first use, closed with the engine.
    _of: ClassVar[weakref.WeakKeyDictionary[Engine, tuple[int, WriterTurns | None]]] = (
        weakref.WeakKeyDictionary()
    )

    def __init__(self, path: str) -> None:
        self._threads = threading.Lock()
        self._file = open(path, "a+b")  # noqa: SIM115 (kept open: the lock is on it)

    def __del__(self) -> None:
        file = getattr(self, "_file", None)
        if file is not None:
            file.close()

    @classmethod
    def of(cls, engine: Engine) -> WriterTurns | None:
        """The engine's turns; None unless its database is a SQLite file."""
        pid = os.getpid()
        known = cls._of.get(engine)
        if known is not None and known[0] == pid:
            return known[1]
        turns = None
        database = engine.url.database
        if engine.dialect.name == "sqlite" and fcntl and database and database != ":memory:":
            try:
                turns = None if database.startswith("file:") else cls(database + ".writer")
            except OSError:  # a folder the app may not write to: SQLite's waiting only
                turns = None
        cls._of[engine] = (pid, turns)
        return turns

    def acquire(self, timeout: float) -> bool:
        """Wait for this process's turn, at most ``timeout`` seconds; False when it did
        not come (a writer outside the app holds the file longer than that: SQLite's own
        waiting, with its own timeout, then decides)."""
        deadline = time.monotonic() + timeout
        if not self._threads.acquire(timeout=timeout):
            return False
        try:
            pause = FIRST_PAUSE
            while True:
                try:
                    fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        self._threads.release()
                        return False
                    # A deal holds the file for about 0.3 ms: look again soon, then less
                    # often (SQLite's own handler first sleeps a whole millisecond).
                    time.sleep(pause)
                    pause = min(pause * 2, LONGEST_PAUSE)
        except BaseException:
            self._threads.release()
            raise

    def release(self) -> None:
        try:
            fcntl.flock(self._file, fcntl.LOCK_UN)
        finally:
            self._threads.release()
