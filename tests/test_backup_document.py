"""A backup's document is pydantic models (issue 41, part 4): what `flask backup` writes
reads back through them, a game's deals are the API's own model, and a value out of its
rule is refused naming the field and the rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.api.schemas import ImportedDeal
from scorekeeper.backup import document

from .helpers.history import seed_month


def backed_up(client: FlaskClient, runner: FlaskCliRunner, path: Path) -> Any:
    """A month of games, and the document ``flask backup`` writes of it at ``path``."""
    seed_month(client)
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    return json.loads(path.read_text())


def test_what_a_backup_writes_its_models_read(
    client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    written = backed_up(client, runner, tmp_path / "backup.json")
    people = [document.PersonBackup.model_validate(p) for p in written["people"]]
    games = [document.GameBackup.model_validate(g) for g in written["games"]]
    assert len(people) == 4 and len(games) == 3
    assert all(isinstance(deal, ImportedDeal) for game in games for deal in game.deals)


def test_a_value_out_of_its_rule_is_named_with_the_rule(
    client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "backup.json"
    written = backed_up(client, runner, path)
    written["games"][0]["deals"][0]["version"] = 0
    path.write_text(json.dumps(written))
    done = runner.invoke(args=["restore", "--replace", str(path)])
    assert done.exit_code == 1, done.output
    assert "games.0 (game " in done.output, done.output
    assert "deals.0.version: Input should be greater than or equal to 1." in done.output
