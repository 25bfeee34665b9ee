"""The app as it is served: gunicorn with two workers, on SQLite and on PostgreSQL.

Two workers start at once on a fresh instance and both come up (they migrate one after the
other and read one secret key); reads that overlap deals being recorded and deleted in the
other worker never fail."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from alembic.script import ScriptDirectory

from scorekeeper import MIGRATIONS

from .helpers.api import game_body, result
from .serving import Gunicorn, fetch, fresh_database, redis_server, served

DATABASES = ["sqlite", "postgresql"]
HEAD = ScriptDirectory(str(MIGRATIONS)).get_current_head()
NAMES = ["Ana", "Vera", "Boris", "Goran"]


def schema_of(server: Gunicorn, instance: Path, url: str | None) -> tuple[str, list[str]]:
    """The database's migration revision and its tables."""
    if url is None:
        with sqlite3.connect(instance / "scorekeeper.sqlite") as connection:
            revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
            tables = [
                row[0]
                for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
        return revision[0], tables
    import psycopg

    with psycopg.connect(url) as connection:
        revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            )
        ]
    assert revision is not None
    return revision[0], tables


def start_a_game_through_the_form(base: str) -> int:
    """A phone opens the new-game page (one worker) and sends it (perhaps the other)."""
    page = fetch(base + "/games/new")
    assert page.status == 200
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.body)
    assert token is not None
    cookie = page.headers["set-cookie"].split(";", 1)[0]
    form = {
        "csrf_token": token.group(1).decode(),
        "sides-0-name": "We",
        "sides-1-name": "They",
        "target": "5000",
        **{f"players-{i}": name for i, name in enumerate(NAMES)},
    }
    sent = fetch(
        base + "/games/new",
        "POST",
        urlencode(form).encode(),
        {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
    )
    return sent.status


@pytest.mark.parametrize("kind", DATABASES)
def test_two_workers_boot_on_a_fresh_instance(tmp_path: Path, kind: str) -> None:
    """Fresh instance, default settings: both workers migrate on start, at the same moment,
    and make the secret key if there is none. Three times over, as a race would show."""
    for attempt in range(3):
        instance = tmp_path / f"instance-{attempt}"
        with fresh_database(kind, instance) as url, served(instance, database_url=url) as server:
            # Both loaded the app: a worker that failed to boot never says so.
            server.wait_until_ready(2)
            assert len(server.workers()) == 2, server.output()
            log = server.output()
            assert log.count("Booting worker") == 2, log
            for failure in ("Traceback", "Worker failed to boot", "already exists"):
                assert failure not in log, log
            # Forms made by one worker are accepted by the other: one secret key.
            assert [start_a_game_through_the_form(server.url) for _ in range(8)] == [302] * 8
            revision, tables = schema_of(server, instance, url)
        assert revision == HEAD
        assert {"game", "side", "player", "deal", "deal_result", "person"} <= set(tables)
        assert not [name for name in tables if name.startswith("_alembic_tmp")]


def deal_body() -> dict[str, Any]:
    return {"results": [result(120, hand=10), result(90, hand=15)]}


#: Reads while the scorer records and deletes: some fifty changes land among them.
READS = 800


@pytest.mark.parametrize("kind", DATABASES)
def test_reads_overlapping_changes_never_fail(tmp_path: Path, kind: str) -> None:
    """One phone records and deletes deals as fast as it can while three follow every view
    of the game; the two workers serve both. Every read is whole: no 5xx."""
    instance = tmp_path / "instance"
    with fresh_database(kind, instance) as url, served(instance, database_url=url) as server:
        created = fetch(
            server.url + "/api/games",
            "POST",
            json.dumps(game_body(options={"target": 1_000_000})).encode(),
            {"Content-Type": "application/json"},
        )
        assert created.status == 201
        game = json.loads(created.body)
        auth = {"Authorization": f"Bearer {game['token']}", "Content-Type": "application/json"}
        deals = f"{server.url}/api/games/{game['id']}/deals"
        for _ in range(3):
            assert fetch(deals, "POST", json.dumps(deal_body()).encode(), auth).status == 201
        views = [
            (f"/games/{game['id']}", {}),
            (f"/games/{game['id']}", {"HX-Request": "true"}),
            (f"/api/games/{game['id']}", {}),
            (f"/api/games/{game['id']}/export", {}),
            (f"/games/{game['id']}/sheet.csv", {}),
            (f"/api/games/{game['id']}/deals/1", {}),
        ]
        stop = threading.Event()
        statuses: Counter[int] = Counter()
        failures: list[str] = []
        changes = Counter[str]()
        lock = threading.Lock()

        def scorer() -> None:
            while not stop.is_set():
                saved = fetch(deals, "POST", json.dumps(deal_body()).encode(), auth)
                number = json.loads(saved.body).get("number")
                deleted = fetch(f"{deals}/{number}", "DELETE", headers=auth)
                with lock:
                    changes[f"{saved.status} {deleted.status}"] += 1

        def follower(offset: int) -> None:
            turn = offset
            while not stop.is_set():
                path, headers = views[turn % len(views)]
                turn += 1
                answer = fetch(server.url + path, headers=headers)
                with lock:
                    statuses[answer.status] += 1
                    if answer.status >= 500:
                        failures.append(f"{path} {answer.status} {answer.body[:300]!r}")

        threads = [threading.Thread(target=scorer)] + [
            threading.Thread(target=follower, args=(n,)) for n in range(3)
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        while sum(statuses.values()) < READS and time.monotonic() < deadline:
            time.sleep(0.2)
        stop.set()
        for thread in threads:
            thread.join(30)
        log = server.output()
    assert failures == [], failures
    assert set(statuses) == {200}, statuses
    assert sum(statuses.values()) >= READS, statuses
    assert set(changes) == {"201 200"} and sum(changes.values()) >= 50, changes
    assert "Traceback" not in log, log


@pytest.mark.one_database  # the rate limit's budget in Redis: on SQLite alone
@pytest.mark.redis
@pytest.mark.parametrize("kind", DATABASES)
def test_workers_share_one_budget_for_new_games_through_redis(tmp_path: Path, kind: str) -> None:
    """Two workers count one client's new games in one shared store (Redis): the page, the
    API and import together let exactly the limit through, whichever worker answers."""
    instance = tmp_path / "instance"
    with (
        redis_server(tmp_path / "redis") as redis_url,
        fresh_database(kind, instance) as url,
        served(
            instance,
            database_url=url,
            env={
                "RATELIMIT_ENABLED": "true",
                "FLASK_GAME_CREATION_LIMIT": "6 per minute",
                "FLASK_RATELIMIT_STORAGE_URI": redis_url,
            },
        ) as server,
    ):
        json_headers = {"Content-Type": "application/json"}
        new = json.dumps(game_body()).encode()
        created = fetch(server.url + "/api/games", "POST", new, json_headers)
        assert created.status == 201, created.body
        game_id = json.loads(created.body)["id"]
        export = fetch(server.url + f"/api/games/{game_id}/export").body
        answers = [created.status]
        for attempt in range(11):
            if attempt % 3 == 0:
                answer = fetch(server.url + "/api/games", "POST", new, json_headers).status
            elif attempt % 3 == 1:
                imported = fetch(server.url + "/api/games/import", "POST", export, json_headers)
                answer = imported.status
            else:
                answer = start_a_game_through_the_form(server.url)
            answers.append(answer)
        assert len([a for a in answers if a in (201, 302)]) == 6, answers
        assert answers[6:] == [429] * 6, answers
        listed = json.loads(fetch(server.url + "/api/games").body)
        assert len(listed["games"]) == 6, server.output()
