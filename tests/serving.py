"""The app served for real by gunicorn on 127.0.0.1, on SQLite or on a fresh PostgreSQL
database, for the tests that need separate worker processes."""

from __future__ import annotations

import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .gunicorn_ready import READY

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
#: The workers' "ready" line (tests/gunicorn_ready.py).
SETTINGS = Path(__file__).with_name("gunicorn_ready.py")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def fetch(
    url: str,
    method: str = "GET",
    body: bytes | None = None,
    headers: Mapping[str, str] | None = None,
) -> Answer:
    """One request on a connection of its own (gunicorn's sync workers close it anyway)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request(method, path, body=body, headers=dict(headers or {}))
        response = connection.getresponse()
        return Answer(
            response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        )
    finally:
        connection.close()


class Gunicorn:
    """gunicorn serving ``scorekeeper:create_app()`` from an instance folder of its own,
    with the app's defaults: migrated on start by every worker, no SECRET_KEY given."""

    def __init__(
        self,
        instance: Path,
        *,
        workers: int = 2,
        database_url: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = instance.parent / f"{instance.name}-gunicorn.log"
        environment = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DATABASE_URL", "FLASK_", "SECRET_KEY"))
        }
        environment |= {"SCOREKEEPER_INSTANCE": str(instance), "RATELIMIT_ENABLED": "false"}
        if database_url:
            environment["DATABASE_URL"] = database_url
        environment |= dict(env or {})
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    str(BIN / "gunicorn"),
                    "-w",
                    str(workers),
                    "--log-level",
                    "info",
                    "-c",
                    str(SETTINGS),
                    "-b",
                    f"127.0.0.1:{self.port}",
                    "scorekeeper:create_app()",
                ],
                cwd=ROOT,
                env=environment,
                start_new_session=True,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"gunicorn exited ({self.process.returncode}):\n{self.output()}")
            try:
                if fetch(self.url + "/api/variants").status == 200:
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        pytest.fail(f"gunicorn did not answer within 60 s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-6000:]

    def wait_until_ready(self, workers: int, seconds: float = 20) -> None:
        """Until ``workers`` workers have loaded the app, the master has exited (a worker
        that fails to boot takes it down), or ``seconds`` have passed."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.process.poll() is None:
            if self.log.read_text(errors="replace").count(READY) >= workers:
                return
            time.sleep(0.05)

    def workers(self) -> list[int]:
        """The pids of the master's live worker processes."""
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == self.process.pid and fields[0] != "Z":
                found.append(int(stat.parent.name))
        return found

    def kill(self) -> None:
        """SIGKILL to the master and every worker: requests in flight are cut short."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


@contextmanager
def served(instance: Path, **options: object) -> Iterator[Gunicorn]:
    server = Gunicorn(instance, **options)  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def fresh_database(kind: str, instance: Path) -> Iterator[str | None]:
    """A database nobody has used: SQLite in the instance folder (None: the app's default),
    or a new database on the test PostgreSQL server (dropped afterwards)."""
    if kind == "sqlite":
        yield None
        return
    server = os.environ.get("DATABASE_URL_TEST")
    if not server:
        pytest.skip("needs a PostgreSQL server (DATABASE_URL_TEST; scripts/with-postgres)")
    import psycopg

    name = f"scorekeeper_fresh_{secrets.token_hex(4)}"
    admin = server.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A throw-away Redis (Debian's redis-server) on 127.0.0.1, keeping nothing on disk;
    the test is skipped where it is not installed."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("needs redis-server (Debian package redis-server)")
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not answer on port {port}")
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
