"""`flask backup` and `flask restore`: a backup restored on another machine shows every game
exactly as it was (on PostgreSQL runs, the other machine is SQLite: across databases)."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.store import db

from .conftest import app_for_tests
from .test_api import auth, get_game, result
from .test_bad_input import counts
from .test_history import CASE_A, CASE_B, person_id, seed_month, words


@pytest.fixture
def other(tmp_path: Path) -> Iterator[Flask]:
    """Another machine: a fresh app with its own empty SQLite database."""
    app = app_for_tests(f"sqlite:///{tmp_path / 'other.sqlite'}", SECRET_KEY="elsewhere")
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def history_text(client: FlaskClient) -> str:
    return words(client.get("/history").get_data(as_text=True))


def test_backup_restored_elsewhere_shows_every_game_as_it_was(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, other: Flask, tmp_path: Path
) -> None:
    games = seed_month(client)
    railroad = client.post(
        "/api/games",
        json={
            "variant": "railroad",
            "sides": [{"name": n, "players": [n]} for n in ("Ana", "Lea", "Max")],
        },
    ).get_json()
    games.append(railroad["id"])
    before = {game_id: get_game(client, game_id) for game_id in games}
    ana = person_id(app, "Ana")
    ana_page = words(client.get(f"/players/{ana}").get_data(as_text=True))
    sheet_csv = client.get(f"/games/{games[0]}/sheet.csv").get_data()

    path = tmp_path / "club.json.gz"
    done = runner.invoke(args=["backup", str(path)])
    assert done.exit_code == 0, done.output
    assert "Backed up 4 games, 5 deals and 6 players" in done.output
    assert json.loads(gzip.decompress(path.read_bytes()))["format"] == (
        "canasta-scorekeeper/backup/1"
    )

    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    assert "Restored 4 games, 5 deals and 6 players" in done.output
    there = other.test_client()
    for game_id, game in before.items():
        assert get_game(there, game_id) == game  # same address, deals, totals, winner
        # The same version: what is kept of its pages stays true to it (the ETag holds it).
        etag = client.get(f"/api/games/{game_id}").headers["ETag"]
        assert there.get(f"/api/games/{game_id}").headers["ETag"] == etag
    # The same figures (the rename form is the scorer's: this client held no game there).
    figures = words(there.get(f"/players/{ana}").get_data(as_text=True))
    assert figures.split(" Only a phone ")[0] == ana_page.split(" Rename ")[0]
    assert there.get(f"/games/{games[0]}/sheet.csv").get_data() == sheet_csv
    assert history_text(there) == history_text(client)
    # The scorer's secret still works there: the Railroad game takes its next deal.
    deal = {
        "results": [
            result(120, hand=20),  # nobody went out: the stock ran out
            result(60, hand=30),
            result(40, hand=50),
        ]
    }
    response = there.post(
        f"/api/games/{railroad['id']}/deals", json=deal, headers=auth(railroad["token"])
    )
    assert response.status_code == 201, response.get_json()
    # A new name on the other machine gets a fresh id (the roster's ids carried over).
    assert there.post("/players", data={"name": "Newcomer"}).status_code == 303


def test_restore_refuses_to_overwrite_unless_asked(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    games = seed_month(client)
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    before = counts(app)
    done = runner.invoke(args=["restore", str(path)])
    assert done.exit_code == 1
    assert "already holds games or players" in done.output
    assert "Nothing was changed." in done.output
    assert counts(app) == before
    # With --replace the same backup replaces what is there: the same games again.
    game = get_game(client, games[1])
    done = runner.invoke(args=["restore", "--replace", str(path)])
    assert done.exit_code == 0, done.output
    assert counts(app) == before
    assert get_game(client, games[1]) == game


def test_a_bad_backup_restores_nothing(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, other: Flask, tmp_path: Path
) -> None:
    seed_month(client)
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    document = json.loads(path.read_text())
    restore = other.test_cli_runner()

    def refused(text: str, changed: dict[str, object]) -> str:
        bad = tmp_path / "bad.json"
        bad.write_text(text if not changed else json.dumps({**document, **changed}))
        done = restore.invoke(args=["restore", str(bad)])
        assert done.exit_code == 1, done.output
        assert "Nothing was changed." in done.output
        assert counts(other) == (0, 0, 0)
        return done.output

    assert "is not JSON" in refused("{", {})
    assert "is not a backup of this app" in refused("", {"format": "canasta-scorekeeper/1"})
    # A deal edited by hand: replayed, the totals no longer match what the backup says.
    games = [dict(game) for game in document["games"]]
    games[0]["deals"] = [dict(games[0]["deals"][0], results=[CASE_B, CASE_A])]
    assert re.search(r"replayed it gives totals \[265, 1210\]", refused("", {"games": games}))
    games[0] = {**document["games"][0], "sides": "nonsense"}
    assert "games.0: not a game" in refused("", {"games": games})


def test_a_damaged_game_is_named_and_restores_nothing(
    client: FlaskClient, runner: FlaskCliRunner, other: Flask, tmp_path: Path
) -> None:
    seed_month(client)
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    document = json.loads(path.read_text())
    first = document["games"][0]
    for damaged in (
        {**document, "games": [{**first, "variant": "poker"}]},
        {**document, "games": [first, first]},
        {**document, "people": document["people"] * 2},
    ):
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(damaged))
        done = other.test_cli_runner().invoke(args=["restore", str(bad)])
        assert done.exit_code == 1, done.output
        assert "Nothing was changed." in done.output
        assert "Traceback" not in done.output
        assert counts(other) == (0, 0, 0)
