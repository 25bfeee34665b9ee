"""A season is backed up and restored with its evenings (issue 44): the same season, ladder
and points table elsewhere, its director's secret still its."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import auth
from .helpers.evenings import FIRST_WINS, evening_body, play_round


def test_a_season_is_backed_up_and_restored_elsewhere(
    client: FlaskClient, app: Flask, other: Flask, tmp_path: Path
) -> None:
    season = client.post("/api/seasons", json={"name": "Winter", "points": [5, 3, 1]}).get_json()
    for _ in range(2):
        body = evening_body(rounds=1, season=season["id"], season_token=season["token"])
        evening = client.post("/api/evenings", json=body).get_json()
        play_round(client, evening, FIRST_WINS)
    before = client.get(f"/api/seasons/{season['id']}").get_json()
    assert len(before["evenings"]) == 2 and before["ladder"]
    path = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    there = other.test_client()
    assert there.get(f"/api/seasons/{season['id']}").get_json() == before
    # Its director's secret works there.
    path_there = f"/api/seasons/{season['id']}"
    changed = there.put(path_there, json={"points": [2, 1]}, headers=auth(season["token"]))
    assert changed.status_code == 200


def test_a_backup_whose_evening_names_no_season_restores_nothing(
    client: FlaskClient, app: Flask, other: Flask, tmp_path: Path
) -> None:
    season = client.post("/api/seasons", json={"name": "Winter"}).get_json()
    body = evening_body(season=season["id"], season_token=season["token"])
    assert client.post("/api/evenings", json=body).status_code == 201
    path = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    document = json.loads(path.read_text())
    assert document["evenings"][0]["season"] == season["id"]
    document["seasons"][0]["points"] = [1, 2]
    path.write_text(json.dumps(document))
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code != 0 and "seasons.0" in done.output and "points.1" in done.output
    document["seasons"] = []
    path.write_text(json.dumps(document))
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code != 0 and "evenings.0" in done.output, done.output
    assert other.test_client().get("/api/games").get_json()["games"] == []
