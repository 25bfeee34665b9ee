"""Fixtures: a fresh database per test (flaskr's app / client / runner), on SQLite and on
PostgreSQL, served by an app each worker makes once and puts back after every test (its
settings, its cache: ``kept_apps``).

``app`` (and so ``client``, ``runner`` and ``other_worker``) is parametrized over the two
databases: a test that uses it runs once on each (``[sqlite]``, ``[postgresql]``; the
PostgreSQL one is skipped unless ``DATABASE_URL_TEST`` names a server, as
``scripts/with-postgres`` sets it). A test that uses none of them touches no database and
runs once.

The schema comes from the committed migrations, as in production, run once per test
session (per pytest-xdist worker): into a template SQLite file that each test gets a copy
of, and into a PostgreSQL database of the worker's own that is emptied after each test
(``tests/test_migrations.py`` runs every migration from an empty database on both).

Markers applied here (pyproject.toml declares them): ``browser`` (tests/browser/),
``postgres`` (a test that runs on PostgreSQL), so each part runs alone (README.md). A
module marked ``one_database`` runs its app tests on SQLite alone; so does a test marked so
(or a ``pytest.param`` given the mark) in a module that mixes.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import psycopg
import pytest
from alembic.script import ScriptDirectory
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import inspect, text

from scorekeeper import MIGRATIONS, caching, create_app, upgrade_database
from scorekeeper.extensions import limiter
from scorekeeper.store import db

DATABASES = ["sqlite", "postgresql"]
BROWSER = Path(__file__).parent / "browser"


def app_for_tests(url: str, **config: object) -> Flask:
    """An app as the tests make them: on ``url``, CSRF and the rate limit off (the schema
    brought up to date unless ``AUTO_MIGRATE=False``)."""
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


def close(app: Flask) -> None:
    """Let go of the app's connections (its database files can then be copied or removed)."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def worker() -> str:
    """This pytest-xdist worker's name (``gw0``, ...), ``main`` without xdist."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test for the part it belongs to; without a PostgreSQL server the
    ``postgres`` ones are deselected (the summary counts them), not skipped one by one."""
    for item in items:
        if BROWSER in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
        params = getattr(item, "callspec", None)
        if params is not None and "postgresql" in params.params.values():
            item.add_marker(pytest.mark.postgres)
        if item.get_closest_marker("wheel"):
            # One worker builds the wheel once for the module (pytest -n, --dist loadgroup).
            item.add_marker(pytest.mark.xdist_group("wheel"))
    # A module or test whose subject is not the store (rules through the API, links, languages,
    # page weight) cannot fail on PostgreSQL for a reason of its own: it runs on SQLite.
    once = [
        item
        for item in items
        if item.get_closest_marker("postgres") and item.get_closest_marker("one_database")
    ]
    if not os.environ.get("DATABASE_URL_TEST"):
        once = [item for item in items if item.get_closest_marker("postgres")]
    if once:
        config.hook.pytest_deselected(items=once)
        dropped = set(once)
        items[:] = [item for item in items if item not in dropped]


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, once per worker: each test copies it."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite"
    close(app_for_tests(f"sqlite:///{path}"))
    return path


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """This worker's own PostgreSQL database on the test server, migrated once."""
    server = os.environ.get("DATABASE_URL_TEST")
    if not server:
        pytest.skip("needs a PostgreSQL server (DATABASE_URL_TEST; scripts/with-postgres)")
    name = f"scorekeeper_test_{worker()}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    url = server.rsplit("/", 1)[0] + f"/{name}"
    close(app_for_tests(url))
    yield url
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@cache
def newest_migration() -> str | None:
    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def empty_postgres(app: Flask) -> None:
    """Empty every table for the next test; a test that left the schema elsewhere than the
    newest migration (tests/test_migrations.py goes down and up) gets it built again.

    DELETE, children first, and each sequence restarted: a TRUNCATE of every table makes
    new files for each table and index, which cost a tenth of a second per test."""
    with app.app_context(), db.engine.begin() as connection:
        tables = set(inspect(connection).get_table_names())
        newest = tables == {*db.metadata.tables, "alembic_version"} and connection.execute(
            text("SELECT version_num FROM alembic_version")
        ).scalars().all() == [newest_migration()]
        if newest:
            # The counters stay: they only grow (a kept copy is never shown again), and
            # the migration's seeded row is what the app reads.
            for table in reversed(db.metadata.sorted_tables):
                if table.name != "counter":
                    connection.execute(table.delete())
            sequences = connection.execute(
                text("SELECT sequencename FROM pg_sequences WHERE last_value IS NOT NULL")
            ).scalars()
            for sequence in sequences:
                connection.execute(text(f'ALTER SEQUENCE "{sequence}" RESTART'))
    if not newest:
        with app.app_context(), db.engine.begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
        upgrade_database(app)


@pytest.fixture(scope="session")
def kept_apps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Flask]]:
    """One app per database for this worker, made at its first test and kept.

    Making an app costs some 40 ms, nearly all of it Werkzeug compiling each URL rule's
    builder: made for each of the suite's thousands of app tests, that was a minute and
    more of the CI run. What a test can change is put back after it (``app``)."""
    apps: dict[str, Flask] = {}
    yield apps
    for app in apps.values():
        close(app)


#: The kept apps a test is using now.
IN_USE: set[str] = set()


@contextmanager
def fresh_app(kind: str, request: pytest.FixtureRequest) -> Iterator[Flask]:
    """The kept app of ``kind``, on a database as the migrations leave it, its cache empty."""
    kept_apps: dict[str, Flask] = request.getfixturevalue("kept_apps")
    # Two fixtures of one test on the kept app would copy a fresh file under the first.
    assert kind not in IN_USE, f"one test asks for the kept {kind} app twice"
    IN_USE.add(kind)
    try:
        if kind == "sqlite":
            template: Path = request.getfixturevalue("sqlite_template")
            path = template.with_name("test.sqlite")
            # The previous test's app let go of the file (close below), and so of its WAL.
            for name in (path.name + "-wal", path.name + "-shm"):
                path.with_name(name).unlink(missing_ok=True)
            shutil.copyfile(template, path)
            url = f"sqlite:///{path}"
        else:
            url = request.getfixturevalue("postgres_url")
        if kind not in kept_apps:
            kept_apps[kind] = app_for_tests(url, AUTO_MIGRATE=False)
        app = kept_apps[kind]
        config = dict(app.config)
        # The limiter is one for the process: an app a test made with the limit on left it on.
        limiter.enabled = app.config["RATELIMIT_ENABLED"]
        try:
            yield app
            with app.app_context():
                db.session.remove()
                caching.cache.clear()
            if kind == "postgresql":
                empty_postgres(app)
            close(app)
        finally:
            # A test that changed a setting (a trusted host, CSRF on) changed it for itself.
            app.config.clear()
            app.config.update(config)
    finally:
        IN_USE.discard(kind)


@pytest.fixture(params=DATABASES)
def app(request: pytest.FixtureRequest) -> Iterator[Flask]:
    with fresh_app(request.param, request) as app:
        yield app


@pytest.fixture
def other_worker(app: Flask) -> Iterator[Flask]:
    """Another worker: a second app on the same database (what gunicorn's other process
    is), for changes one worker makes and the other must show."""
    second = app_for_tests(app.config["SQLALCHEMY_DATABASE_URI"], AUTO_MIGRATE=False)
    yield second
    close(second)


@pytest.fixture
def other(tmp_path: Path) -> Iterator[Flask]:
    """Another machine: a fresh app with its own empty SQLite database (where an export
    is imported, a backup restored)."""
    second = app_for_tests(f"sqlite:///{tmp_path / 'other.sqlite'}", SECRET_KEY="elsewhere")
    yield second
    close(second)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def sqlite_client(request: pytest.FixtureRequest) -> Iterator[FlaskClient]:
    """A client of an app on SQLite alone, for pages and checks that read no stored game
    (the rule tools): run on PostgreSQL too, they could fail for no reason of their own."""
    with fresh_app("sqlite", request) as app:
        yield app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
