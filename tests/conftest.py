"""Fixtures: a fresh app and database per test (flaskr's app / client / runner).

The schema comes from the committed migrations, as in production. Set
``DATABASE_URL_TEST`` to a PostgreSQL URL to run the same tests there; each test then gets
its own schema-free database state by dropping every table afterwards.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import create_app
from scorekeeper.store import db


def app_for_tests(url: str, **config: object) -> Flask:
    """An app as the tests make them: on ``url``, CSRF and the rate limit off."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            **config,
        }
    )


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    url = os.environ.get("DATABASE_URL_TEST") or f"sqlite:///{tmp_path / 'test.sqlite'}"
    app = app_for_tests(url)
    yield app
    with app.app_context():
        db.session.remove()
        if url.startswith("postgres"):
            db.drop_all()
            with db.engine.begin() as connection:
                connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
        db.engine.dispose()


@pytest.fixture
def other_worker(app: Flask) -> Iterator[Flask]:
    """Another worker: a second app on the same database (what gunicorn's other process
    is), for changes one worker makes and the other must show."""
    second = app_for_tests(app.config["SQLALCHEMY_DATABASE_URI"])
    yield second
    with second.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
