"""The files of docs/DEPLOY.md (issue 20), tested as far as this machine allows: the systemd
units pass ``systemd-analyze verify``, the Caddyfile passes ``caddy validate`` (each skipped
where the tool is missing), and the units' own command lines, run as systemd would run them
(paths moved to a temporary folder), migrate the database, serve the app and back it up."""

from __future__ import annotations

import gzip
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .serving import ROOT, fetch, free_port, fresh_database

DEPLOY = ROOT / "deploy"
UNITS = ["scorekeeper.service", "scorekeeper-backup.service", "scorekeeper-backup.timer"]
#: Where the units expect the app; the tests put it elsewhere.
HOME = "/srv/scorekeeper"
VENV = Path(sys.prefix)


def service(name: str) -> list[tuple[str, str]]:
    """The [Service] settings of a unit, in order, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / name).read_text())
    settings, section = [], ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line
        elif section == "[Service]" and line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings.append((key, value))
    return settings


def moved(text: str, home: Path) -> str:
    """A unit's text with the app's folders under ``home`` and its venv this one."""
    return text.replace(f"{HOME}/venv", str(VENV)).replace(HOME, str(home))


def test_the_unit_files_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("needs systemd-analyze (Debian package systemd)")
    for name in UNITS:
        (tmp_path / name).write_text(moved((DEPLOY / name).read_text(), tmp_path))
    done = subprocess.run(
        [analyze, "verify", *(str(tmp_path / name) for name in UNITS)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # Complaints about the machine's own units (no systemd running here) are not ours.
    ours = [line for line in done.stderr.splitlines() if any(name in line for name in UNITS)]
    assert ours == [] and done.returncode == 0, done.stderr


def test_the_caddyfile_passes_caddy_validate(tmp_path: Path) -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("needs caddy (Debian package caddy)")
    environment = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    environment["XDG_CONFIG_HOME"] = str(tmp_path)
    done = subprocess.run(
        [caddy, "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
    )
    assert done.returncode == 0, done.stderr
    assert "reverse_proxy 127.0.0.1:8000" in (DEPLOY / "Caddyfile").read_text()


def command(value: str, home: Path, port: int) -> list[str]:
    """An Exec line as systemd runs it: its %% and $$ unescaped, the folders moved."""
    value = moved(value, home).replace("127.0.0.1:8000", f"127.0.0.1:{port}")
    return shlex.split(value.replace("%%", "%").replace("$$", "$"))


def environment_of(name: str, home: Path, database: str | None) -> dict[str, str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DATABASE_URL", "FLASK_", "SECRET_KEY", "SCOREKEEPER_"))
    }
    for key, value in service(name):
        if key == "Environment":
            variable, _, setting = value.partition("=")
            environment[variable] = moved(setting, home)
    assert environment.pop("DATABASE_URL") == "postgresql:///scorekeeper"
    if database:
        environment["DATABASE_URL"] = database
    return environment


def run_all(name: str, phase: str, home: Path, environment: dict[str, str]) -> None:
    for key, value in service(name):
        if key == phase:
            done = subprocess.run(
                command(value, home, 0),
                env=environment,
                capture_output=True,
                text=True,
                timeout=120,
                cwd=home,
            )
            assert done.returncode == 0, f"{name} {key}={value}:\n{done.stdout}{done.stderr}"


def test_the_units_commands_migrate_serve_and_back_up(tmp_path: Path) -> None:
    (tmp_path / "instance").mkdir()
    kind = "postgresql" if os.environ.get("DATABASE_URL_TEST") else "sqlite"
    with fresh_database(kind, tmp_path / "instance") as database:
        environment = environment_of("scorekeeper.service", tmp_path, database)
        assert environment["FLASK_AUTO_MIGRATE"] == "false"
        run_all("scorekeeper.service", "ExecStartPre", tmp_path, environment)  # migrates

        port = free_port()
        (start,) = (value for key, value in service("scorekeeper.service") if key == "ExecStart")
        log = (tmp_path / "gunicorn.log").open("wb")
        server = subprocess.Popen(
            command(start, tmp_path, port),
            env=environment,
            cwd=tmp_path,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                assert server.poll() is None, (tmp_path / "gunicorn.log").read_text()
                try:
                    fetch(url + "/")
                    break
                except OSError:
                    assert time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
                    time.sleep(0.2)
            # Behind the proxy: HTTPS as the proxy says, so the session cookie is secure.
            proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
            page = fetch(url + "/games/new", headers=proxied)
            assert page.status == 200
            assert "secure" in page.headers.get("set-cookie", "").lower()
            created = fetch(
                url + "/api/games",
                "POST",
                json.dumps(
                    {"sides": [{"players": ["Ana", "Boris"]}, {"players": ["Vera", "Goran"]}]}
                ).encode(),
                {"Content-Type": "application/json", **proxied},
            )
            assert created.status == 201, created.body  # the schema is there
            game = json.loads(created.body)["id"]
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
            log.close()

        backup = environment_of("scorekeeper-backup.service", tmp_path, database)
        for phase in ("ExecStartPre", "ExecStart", "ExecStartPost"):
            run_all("scorekeeper-backup.service", phase, tmp_path, backup)
        (kept,) = (tmp_path / "instance" / "backups").glob("club-*.json.gz")
        assert re.fullmatch(r"club-\d{4}-\d\d-\d\d\.json\.gz", kept.name)
        assert game in gzip.decompress(kept.read_bytes()).decode()
