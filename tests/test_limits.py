"""One set of limits at every door: a deal the API or the deal form records comes back
through an export and an import, and through `flask backup` and `flask restore`; and an id
too large for the database's integers names nothing (404), in every route."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.rules.limits import MAX_CANASTAS, MAX_FIGURE, MAX_ID

from .helpers.api import Json, auth, get_game, new_game, post_deal, result, totals
from .helpers.pages import CASE_A, CASE_B, deal_form
from .helpers.pages import new_game as new_game_form


def biggest_deal(client: FlaskClient) -> tuple[str, str]:
    """A game whose one deal holds the largest figures any door accepts."""
    game_id, token = new_game(client)
    response = post_deal(
        client,
        game_id,
        token,
        result(MAX_FIGURE, natural=1, mixed=1, went_out=True),
        result(MAX_FIGURE, hand=MAX_FIGURE),
    )
    assert response.status_code == 201, response.get_json()
    return game_id, token


def deals_of(game: Json) -> list[object]:
    return [deal["results"] for deal in game["deals"]]


def test_the_largest_figure_goes_through_export_and_import(client: FlaskClient) -> None:
    game_id, _token = biggest_deal(client)
    game = get_game(client, game_id)
    export = client.get(f"/api/games/{game_id}/export").get_json()
    imported = client.post("/api/games/import", json=export)
    assert imported.status_code == 201, imported.get_json()
    copy = get_game(client, imported.get_json()["id"])
    assert totals(copy) == totals(game) and deals_of(copy) == deals_of(game)
    # Its change log came along, the figures in it too.
    log = client.get(f"/api/games/{copy['id']}/changes").get_json()["changes"]
    assert log[0]["after"]["results"][0]["meld_points"] == MAX_FIGURE


def test_a_change_log_figure_past_the_limit_is_refused_by_name(client: FlaskClient) -> None:
    game_id, _token = biggest_deal(client)
    export = client.get(f"/api/games/{game_id}/export").get_json()
    export["changes"][1]["after"]["results"][0]["meld_points"] = MAX_FIGURE + 5
    export["changes"][1]["after"]["results"][1]["red_threes"] = MAX_CANASTAS
    response = client.post("/api/games/import", json=export)
    assert response.status_code == 422
    assert "changes.1.after.results.0.meld_points" in response.get_json()["fields"]


def test_the_largest_figure_goes_through_backup_and_restore(
    client: FlaskClient,
    runner: FlaskCliRunner,
    other: Flask,
    tmp_path: Path,
) -> None:
    game_id, _token = biggest_deal(client)
    # The deal form takes the same figures (a sum at the table, typed).
    typed = new_game_form(client)
    most = {"meld_points": f"{MAX_FIGURE - 5}+5", "natural_canastas": 1, "mixed_canastas": 1}
    answer = client.post(
        f"/games/{typed}/deals/new",
        data=deal_form("0", we=most, they={"meld_points": MAX_FIGURE}),
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)
    before = {gid: get_game(client, gid) for gid in (game_id, typed)}
    assert before[typed]["deals"][0]["results"][0]["meld_points"] == MAX_FIGURE

    path = tmp_path / "club.json"
    done = runner.invoke(args=["backup", str(path)])
    assert done.exit_code == 0, done.output
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    there = other.test_client()
    for gid, game in before.items():
        assert get_game(there, gid) == game  # same deals, scores and totals
    assert json.loads(path.read_text())["games"][0]["deals"]


# --- ids too large for the database's integers -----------------------------------------

HUGE = (MAX_ID + 1, 2**63, 10**30)


@pytest.mark.parametrize("huge", HUGE)
def test_a_huge_id_in_an_api_route_is_a_404(client: FlaskClient, huge: int) -> None:
    game_id, token = biggest_deal(client)
    for method, path in (
        ("post", f"/api/games/{game_id}/changes/{huge}/undo"),
        ("get", f"/api/games/{game_id}/deals/{huge}"),
        ("put", f"/api/games/{game_id}/deals/{huge}"),
        ("delete", f"/api/games/{game_id}/deals/{huge}"),
    ):
        response = getattr(client, method)(path, headers=auth(token), json={"results": []})
        assert response.status_code == 404, (path, response.get_data(as_text=True))
        assert response.is_json and response.get_json()["error"]
    assert len(get_game(client, game_id)["deals"]) == 1


@pytest.mark.parametrize("huge", HUGE)
def test_a_huge_id_in_a_page_route_is_a_404(client: FlaskClient, huge: int) -> None:
    game_id = new_game_form(client)
    for method, path in (
        ("post", f"/games/{game_id}/changes/{huge}/undo"),
        ("get", f"/games/{game_id}/deals/{huge}/edit"),
        ("post", f"/games/{game_id}/deals/{huge}/delete"),
        ("get", f"/players/{huge}"),
        ("post", f"/players/{huge}/rename"),
    ):
        response = getattr(client, method)(path)
        assert response.status_code == 404, (path, response.status_code)


def test_the_largest_id_is_looked_up_and_not_found(client: FlaskClient) -> None:
    game_id, token = biggest_deal(client)
    response = client.post(f"/api/games/{game_id}/changes/{MAX_ID}/undo", headers=auth(token))
    assert response.status_code == 404
    assert "no change" in response.get_json()["error"]


@pytest.mark.parametrize("value", ["²", "99999999999"])
def test_a_deal_form_naming_its_deal_oddly_is_no_500(client: FlaskClient, value: str) -> None:
    game_id = new_game_form(client)
    form = deal_form("0", we=CASE_A, they=CASE_B)
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 302
    shown = {"seq": value, "version": value}
    edit = client.post(f"/games/{game_id}/deals/1/edit", data={**form, **shown})
    assert edit.status_code in (302, 409), edit.status_code
    delete = client.post(f"/games/{game_id}/deals/1/delete", data=shown)
    assert delete.status_code == 302, delete.status_code


def test_a_name_of_40_characters_is_kept_and_41_refused(client: FlaskClient) -> None:
    """A side's or a player's name fits a phone's score sheet at 40 characters at most."""

    def create(name: str) -> int:
        sides = [{"name": name, "players": ["Ana", "Boris"]}, {"players": ["Vera", "Goran"]}]
        return client.post("/api/games", json={"variant": "classic", "sides": sides}).status_code

    assert create("N" * 40) == 201
    assert create("N" * 41) == 422
