"""The SQL statements a request sends, counted."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from sqlalchemy import event

from scorekeeper.store import db


@contextmanager
def sent(app: Flask) -> Iterator[list[tuple[str, Any]]]:
    """Each SQL statement a request sends, with its parameters (to ask the database for
    its plan)."""
    statements: list[tuple[str, Any]] = []

    def keep(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        statements.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", keep)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", keep)


@contextmanager
def counted(app: Flask) -> Iterator[list[str]]:
    """The statements a request sends (``sent`` without their parameters), read after the
    block."""
    texts: list[str] = []
    with sent(app) as statements:
        yield texts
    texts.extend(statement for statement, _parameters in statements)
