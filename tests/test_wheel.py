"""The app as a volunteer installs it (issue 20): the wheel built from this checkout,
installed into a throw-away environment, started with ``flask run`` from another folder,
serves every page and static file from what the wheel carries, on a migrated database.

Selected alone with ``pytest -m wheel``. It builds once (``python -m build``), and the
environment gets the wheel's runtime dependencies at the versions of the test environment
(from pip's cache), never the checkout: an app that still read templates or catalogues
from the repository would fail here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from .serving import ROOT, Answer, fetch, free_port, fresh_database

pytestmark = pytest.mark.wheel

#: What the deal of RULES.md's case A/B sends per side.
RESULT = {
    "meld_points": 120,
    "natural_canastas": 1,
    "mixed_canastas": 0,
    "red_threes": 0,
    "went_out": True,
    "concealed": False,
    "hand_points": 0,
}


def run(*command: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist of this checkout and the wheel built from that sdist (``python -m build``,
    in isolated build environments), once."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", out, ROOT)
    return out


@pytest.fixture(scope="module")
def wheel(dist: Path) -> Path:
    (built,) = dist.glob("canasta_scorekeeper-*.whl")
    return built


def test_the_sdist_keeps_the_repository_layout(dist: Path) -> None:
    (sdist,) = dist.glob("canasta_scorekeeper-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in [
        "pyproject.toml",
        "hatch_build.py",
        "templates/base.html",
        "static/vendor/htmx-2.0.11.min.js",
        "static/vendor/htmx-LICENSE.txt",
        "scorekeeper/translations/ru/LC_MESSAGES/messages.po",
        "scorekeeper/migrations/env.py",
        "deploy/scorekeeper.service",
        "docs/DEPLOY.md",
    ]:
        assert needed in names, needed
    assert not any(name.startswith(("tests/", "instance/", ".venv/")) for name in names)


def test_the_wheel_carries_what_the_app_needs(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in [
        "scorekeeper/templates/base.html",
        "scorekeeper/templates/sw.js",
        "scorekeeper/static/app.css",
        "scorekeeper/static/vendor/htmx-LICENSE.txt",
        "scorekeeper/migrations/env.py",
        "scorekeeper/migrations/alembic.ini",
    ]:
        assert needed in names
    for folder in ("templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file():
                assert f"scorekeeper/{path.relative_to(ROOT).as_posix()}" in names
    for po_path in (ROOT / "scorekeeper" / "translations").glob("*/LC_MESSAGES/messages.po"):
        compiled = po_path.relative_to(ROOT).with_suffix(".mo").as_posix()
        assert compiled in names, compiled
    versions = list((ROOT / "scorekeeper" / "migrations" / "versions").glob("*.py"))
    assert versions and all(path.relative_to(ROOT).as_posix() in names for path in versions)
    assert not any(name.startswith(("tests/", "instance/")) for name in names)


@pytest.fixture(scope="module")
def environment(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment of its own with the wheel and its runtime dependencies (and
    psycopg), pinned to this environment's versions so that pip takes them from its cache."""
    folder = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", folder)
    pins = folder / "pins.txt"
    versions: dict[str, str] = {}
    for dist in metadata.distributions():  # the first of a name is the one Python imports
        name = (dist.metadata["Name"] or "").lower()
        if name and name != "canasta-scorekeeper":
            versions.setdefault(name, dist.version)
    pins.write_text("".join(f"{name}=={version}\n" for name, version in versions.items()))
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        folder / "bin" / "python",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--constraint",
        pins,
        f"{wheel}[postgres]",
    )
    return folder


@contextmanager
def flask_run(venv: Path, instance: Path, elsewhere: Path, database: str | None) -> Iterator[str]:
    """``flask --app scorekeeper run`` from a folder that is not the checkout."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DATABASE_URL", "FLASK_", "SECRET_KEY", "PYTHON", "VIRTUAL_ENV"))
    }
    env |= {"SCOREKEEPER_INSTANCE": str(instance), "PATH": f"{venv / 'bin'}:{env['PATH']}"}
    if database:
        env["DATABASE_URL"] = database
    log = instance.parent / "flask-run.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [
                venv / "bin" / "flask",
                "--app",
                "scorekeeper",
                "run",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            cwd=elsewhere,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                pytest.fail(f"flask run exited ({server.returncode}):\n{log.read_text()}")
            try:
                fetch(url + "/api/variants")
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=20)


def ok(answer: Answer, what: str) -> str:
    assert answer.status == 200, f"{what}: {answer.status} {answer.body[:2000]!r}"
    return answer.body.decode(errors="replace")


def test_installed_app_serves_every_page_and_file_from_another_folder(
    environment: Path, tmp_path: Path
) -> None:
    installed = run(
        environment / "bin" / "python",
        "-c",
        "import scorekeeper; print(scorekeeper.__file__)",
        cwd=tmp_path,
    )
    assert installed.startswith(str(environment)), installed  # the wheel, not the checkout
    instance, elsewhere = tmp_path / "instance", tmp_path / "elsewhere"
    elsewhere.mkdir()
    kind = "postgresql" if os.environ.get("DATABASE_URL_TEST") else "sqlite"
    with (
        fresh_database(kind, instance) as database,
        flask_run(environment, instance, elsewhere, database) as url,
    ):
        home = ok(fetch(url + "/"), "/")
        created = fetch(
            url + "/api/games",
            "POST",
            json.dumps(
                {
                    "variant": "classic",
                    "sides": [{"players": ["Ana", "Boris"]}, {"players": ["Vera", "Goran"]}],
                }
            ).encode(),
            {"Content-Type": "application/json"},
        )
        assert created.status == 201, created.body  # the schema is there: migrated on start
        game = json.loads(created.body)
        token = {"Authorization": f"Bearer {game['token']}", "Content-Type": "application/json"}
        deal = {"results": [RESULT, {**RESULT, "went_out": False, "meld_points": 60}]}
        recorded = fetch(
            f"{url}/api/games/{game['id']}/deals", "POST", json.dumps(deal).encode(), token
        )
        assert recorded.status == 201, recorded.body

        pages = [
            "/games/new",
            "/history",
            "/players",
            "/rules",
            "/rules/railroad",
            "/check",
            "/offline",
            f"/games/{game['id']}",
            f"/games/{game['id']}/sheet.csv",
            "/api/variants",
            "/api/openapi.json",
            f"/api/games/{game['id']}",
        ]
        for page in pages:
            ok(fetch(url + page), page)
        totals = [side["total"] for side in json.loads(recorded.body)["sides"]]
        sheet = ok(fetch(f"{url}/games/{game['id']}"), "the sheet")
        assert all(f">{total}<" in sheet for total in totals), totals

        # Every static file the pages and the service worker name, under its hashed name.
        worker = ok(fetch(url + "/sw.js"), "/sw.js")
        files = set(re.findall(r'"(/static/[^"]+)"', worker))
        files |= set(re.findall(r'(?:href|src)="(/static/[^"]+)"', home))
        assert any("htmx" in name for name in files) and any(".css" in name for name in files)
        for name in files:
            answer = fetch(url + name)
            ok(answer, name)
            if re.search(r"\.[0-9a-f]{10}(\.\w+)?$", name):
                assert "immutable" in answer.headers["cache-control"], name
        ok(fetch(url + "/static/vendor/htmx-LICENSE.txt"), "htmx's licence")

        # The catalogues the wheel carries: a page in Russian.
        with (ROOT / "scorekeeper/translations/ru/LC_MESSAGES/messages.po").open("rb") as po:
            russian = read_po(po, locale="ru")
        history = russian.get("New game")
        assert history is not None and history.string
        page = ok(fetch(url + "/", headers={"Accept-Language": "ru"}), "/ in Russian")
        assert str(history.string) in page and 'lang="ru"' in page

        backup = tmp_path / "club.json.gz"
        env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance)}
        if database:
            env["DATABASE_URL"] = database
        for key in ("FLASK_APP", "PYTHONPATH", "VIRTUAL_ENV"):
            env.pop(key, None)
        done = subprocess.run(
            [environment / "bin" / "flask", "--app", "scorekeeper", "backup", str(backup)],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0 and backup.stat().st_size > 0, done.stderr
