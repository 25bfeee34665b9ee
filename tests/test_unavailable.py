"""A database that cannot be reached answers 503 with Retry-After, reads and writes alike,
on the pages and in the API (API.md "Unavailable"; issue 31: a stopped PostgreSQL answered
500, a restarting one 409), and the app answers again once it is back. A PostgreSQL server
of the test's own, started as scripts/with-postgres starts one, is stopped under it. (The
SQLite file held by another writer: tests/test_recording.py.)"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask import Flask

from .conftest import app_for_tests, close
from .helpers.api import CASE_A, CASE_B, auth, new_game
from .helpers.pages import CASE_A as PAGE_A
from .helpers.pages import CASE_B as PAGE_B
from .helpers.pages import deal_form
from .helpers.pages import new_game as new_game_form

BINARIES = sorted(Path("/usr/lib/postgresql").glob("*/bin"))


class Server:
    """A throw-away PostgreSQL server on 127.0.0.1 that the test stops and starts."""

    def __init__(self, folder: Path) -> None:
        if not BINARIES or not (BINARIES[-1] / "initdb").exists():
            pytest.skip("needs PostgreSQL (Debian package postgresql)")
        self.bin = BINARIES[-1]
        self.folder = folder
        self.as_pg: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            shutil.chown(folder, "postgres")
            self.as_pg = ["runuser", "-u", "postgres", "--"]
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.run("initdb", "-D", str(folder / "data"), "-U", "postgres", "-A", "trust", "--no-sync")
        self.start()
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "club")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/club"

    def run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self.as_pg, str(self.bin / tool), *args], check=True, capture_output=True, timeout=60
        )

    def start(self) -> None:
        options = f"-k {self.folder} -h 127.0.0.1 -p {self.port} -F"
        data, log = str(self.folder / "data"), str(self.folder / "log")
        self.run("pg_ctl", "-D", data, "-l", log, "-w", "-o", options, "start")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")


@pytest.fixture
def server() -> Iterator[Server]:
    # Under /tmp itself, as scripts/with-postgres: the postgres user cannot reach pytest's
    # folders, which are root's alone.
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg."))
    try:
        started = Server(folder)
        yield started
        with contextlib.suppress(subprocess.CalledProcessError):  # stopped already
            started.run("pg_ctl", "-D", str(folder / "data"), "-m", "immediate", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def unavailable(answer: Any, *, api: bool) -> None:
    assert answer.status_code == 503, answer.get_data(as_text=True)[:300]
    assert int(answer.headers["Retry-After"]) > 0
    if api:
        assert set(answer.get_json()) == {"error", "fields"}
        assert "nothing was saved" in answer.get_json()["error"]
    else:
        assert answer.mimetype == "text/html"
        assert "Try again in a moment" in answer.get_data(as_text=True)


def test_a_stopped_postgresql_answers_503_and_the_app_comes_back(server: Server) -> None:
    app: Flask = app_for_tests(server.url)
    try:
        client = app.test_client()
        game_id, token = new_game(client)
        page_game = new_game_form(client)  # this client keeps its score
        server.stop()
        for path in ("/", "/history", f"/games/{game_id}", "/players"):
            unavailable(client.get(path), api=False)
        unavailable(client.get("/history", headers={"Accept": "application/json"}), api=True)
        for path in (f"/api/games/{game_id}", "/api/games"):
            unavailable(client.get(path), api=True)
        deal = {"results": [CASE_A, CASE_B]}
        keyed = {**auth(token), "Idempotency-Key": "restart-1"}
        unavailable(client.post(f"/api/games/{game_id}/deals", json=deal, headers=keyed), api=True)
        form = deal_form("0", we=PAGE_A, they=PAGE_B) | {"nonce": "restart-form-1"}
        unavailable(client.post(f"/games/{page_game}/deals/new", data=form), api=False)
        queued = client.post(
            f"/games/{page_game}/deals/new", data=form, headers={"Accept": "application/json"}
        )
        unavailable(queued, api=True)  # what the phone's queue reads: JSON, to send again
        body = {"variant": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
        unavailable(client.post("/api/games", json=body), api=True)

        server.start()
        # Back: the pool's lost connections were let go; the same requests are made once.
        assert client.get("/").status_code == 200
        first = client.post(f"/api/games/{game_id}/deals", json=deal, headers=keyed)
        assert first.status_code == 201
        again = client.post(f"/api/games/{game_id}/deals", json=deal, headers=keyed)
        assert again.status_code == 201 and again.get_json()["number"] == 1
        assert client.post(f"/games/{page_game}/deals/new", data=form).status_code == 302
        assert client.post(f"/games/{page_game}/deals/new", data=form).status_code == 302
        assert len(client.get(f"/api/games/{page_game}").get_json()["deals"]) == 1
    finally:
        close(app)


def _answers(client: Any, game_id: str, token: str, key: str) -> None:
    """A page, the API's reading and a deal saved: each answers as usual."""
    assert client.get("/").status_code == 200
    assert client.get(f"/api/games/{game_id}").status_code == 200
    deal = {"results": [CASE_A, CASE_B]}
    saved = client.post(
        f"/api/games/{game_id}/deals",
        json=deal,
        headers={**auth(token), "Idempotency-Key": key},
    )
    assert saved.status_code == 201, saved.get_data(as_text=True)[:300]


def test_a_postgresql_restart_between_requests_costs_no_request(server: Server) -> None:
    """The server restarts while nobody is asking (a restart, an upgrade at night): every
    connection the worker's pool keeps is closed under it. The next request gets a live
    one, not a 503; so does the next after its backends are ended from another connection
    (what a restart does to the pool's connections)."""
    app: Flask = app_for_tests(server.url)
    try:
        client = app.test_client()
        game_id, token = new_game(client)
        _answers(client, game_id, token, "before")
        server.stop()
        server.start()
        _answers(client, game_id, token, "after-restart")
        with psycopg.connect(server.url, autocommit=True) as other:
            ended = other.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = 'club' AND pid <> pg_backend_pid()"
            ).fetchone()
        assert ended is not None and ended[0] >= 1  # the pool's connection was there
        _answers(client, game_id, token, "after-terminate")
    finally:
        close(app)
