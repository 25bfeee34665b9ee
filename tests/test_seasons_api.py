"""Seasons through the JSON API (API.md "Seasons and results"): a season made, evenings
joining it with its secret, its points table changed by its director, and its ladder equal
to a count by hand from its evenings' own standings."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers.api import Json, assert_error, auth
from .helpers.evenings import FIRST_WINS, LEVEL, SECOND_WINS, evening_body, play_round

DEFAULT = [12, 10, 8, 7, 6, 5, 4, 3, 2, 1]


def new_season(client: FlaskClient, **body: Any) -> Json:
    response = client.post("/api/seasons", json={"name": "Winter 2027", **body})
    assert response.status_code == 201, response.get_json()
    assert response.headers["Cache-Control"] == "private, no-store"
    made: Json = response.get_json()
    return made


def season_evening(client: FlaskClient, season: Json, **changes: Any) -> Json:
    """A one-round evening of the season (five pairs: two tables and a bye)."""
    body = evening_body(rounds=1, season=season["id"], season_token=season["token"], **changes)
    response = client.post("/api/evenings", json=body)
    assert response.status_code == 201, response.get_json()
    made: Json = response.get_json()
    return made


def test_a_new_season_has_the_default_points_and_no_evening(client: FlaskClient) -> None:
    season = new_season(client)
    assert season["token"] and season["points"] == DEFAULT
    assert season["url"] == f"/seasons/{season['id']}"
    read = client.get(f"/api/seasons/{season['id']}")
    assert read.status_code == 200
    body = read.get_json()
    assert "token" not in body
    assert (body["name"], body["evenings"], body["ladder"]) == ("Winter 2027", [], [])


def test_a_season_of_three_evenings_ladders_as_counted_by_hand(client: FlaskClient) -> None:
    """Three evenings played through the API; the ladder is counted here from each
    evening's own standings (its place, the default table's points), not by the app's
    ladder code."""
    season = new_season(client)
    played = []
    for results, pairs in (
        (FIRST_WINS, None),
        (SECOND_WINS, None),
        # The same pairs, partners listed the other way round: the same entrants.
        (LEVEL, [list(reversed(pair)) for pair in evening_body()["pairs"]]),
    ):
        evening = season_evening(client, season, **({"pairs": pairs} if pairs else {}))
        play_round(client, evening, results)
        played.append(client.get(f"/api/evenings/{evening['id']}").get_json())
    # An evening still playing is listed, and not counted.
    playing = season_evening(client, season)

    counted: dict[frozenset[str], dict[str, Any]] = {}
    for evening in played:
        assert evening["status"] == "finished"
        for place, line in enumerate(evening["standings"], start=1):
            entry = counted.setdefault(
                frozenset(line["players"]), {"points": 0, "evenings": 0, "best": 99}
            )
            entry["points"] += DEFAULT[place - 1] if place <= len(DEFAULT) else 0
            entry["evenings"] += 1
            entry["best"] = min(entry["best"], place)

    body = client.get(f"/api/seasons/{season['id']}").get_json()
    assert [e["id"] for e in body["evenings"]] == [e["id"] for e in played] + [playing["id"]]
    assert [e["status"] for e in body["evenings"]] == ["finished"] * 3 + ["playing"]
    ladder = body["ladder"]
    assert len(ladder) == 5
    assert {
        frozenset(line["players"]): {
            "points": line["points"],
            "evenings": line["evenings"],
            "best": line["best_place"],
        }
        for line in ladder
    } == counted
    # Best first: points, then the best place.
    keys = [(-line["points"], line["best_place"]) for line in ladder]
    assert keys == sorted(keys)
    # Five pairs, three evenings: 12 + 10 + 8 + 7 + 6 handed out each time.
    assert sum(line["points"] for line in ladder) == 3 * 43


def test_the_director_changes_the_points_and_the_ladder_follows(client: FlaskClient) -> None:
    season = new_season(client)
    evening = season_evening(client, season)
    play_round(client, evening, FIRST_WINS)
    path = f"/api/seasons/{season['id']}"
    changed = client.put(path, json={"points": [3, 2, 1]}, headers=auth(season["token"]))
    assert changed.status_code == 200, changed.get_json()
    body = changed.get_json()
    assert body["points"] == [3, 2, 1]
    assert sorted(line["points"] for line in body["ladder"]) == [0, 0, 1, 2, 3]
    assert client.get(path).get_json()["ladder"] == body["ladder"]


def test_a_retried_points_change_acts_once(client: FlaskClient) -> None:
    season = new_season(client)
    path = f"/api/seasons/{season['id']}"
    headers = {**auth(season["token"]), "Idempotency-Key": "points-1"}
    assert client.put(path, json={"points": [5, 3]}, headers=headers).status_code == 200
    assert client.put(path, json={"points": [5, 3]}, headers=headers).status_code == 200
    assert_error(client.put(path, json={"points": [9]}, headers=headers), 422, "Idempotency-Key")
    assert client.get(path).get_json()["points"] == [5, 3]


def test_a_retried_new_season_makes_none(client: FlaskClient) -> None:
    headers = {"Idempotency-Key": "season-1"}
    first = client.post("/api/seasons", json={"name": "Spring"}, headers=headers)
    assert first.status_code == 201
    again = client.post("/api/seasons", json={"name": "Spring"}, headers=headers)
    assert_error(again, 409, "Idempotency-Key")
    assert first.get_json()["id"] in again.get_json()["fields"]["Idempotency-Key"]


def test_only_the_director_changes_the_points(client: FlaskClient) -> None:
    season = new_season(client)
    path = f"/api/seasons/{season['id']}"
    assert_error(client.put(path, json={"points": [1]}), 403)
    assert_error(client.put(path, json={"points": [1]}, headers=auth("not-it")), 403)
    assert_error(client.put("/api/seasons/nope", json={"points": [1]}, headers=auth("x")), 404)
    assert_error(client.get("/api/seasons/nope"), 404)
    assert client.get(path).get_json()["points"] == DEFAULT


@pytest.mark.one_database  # refused by the body's schema before the store: on SQLite alone
def test_bad_points_are_refused_naming_the_entry(client: FlaskClient) -> None:
    season = new_season(client)
    path = f"/api/seasons/{season['id']}"
    token = auth(season["token"])
    for points, field in (
        ([10, 12], "points.1"),
        ([12, -1], "points.1"),
        ([12, "ten"], "points.1"),
        ([12, 10.5], "points.1"),
        ([], "points"),
        ("12, 10", "points"),
        ([5000], "points.0"),
    ):
        assert_error(client.put(path, json={"points": points}, headers=token), 422, field)
        assert_error(client.post("/api/seasons", json={"name": "X", "points": points}), 422, field)
    assert_error(client.put(path, json={}, headers=token), 422, "points")
    assert_error(client.post("/api/seasons", json={"name": " "}), 422, "name")
    assert_error(client.post("/api/seasons", json={"points": [1]}), 422, "name")
    assert_error(client.post("/api/seasons", json={"name": "X", "extra": 1}), 422, "extra")
    assert client.get(path).get_json()["points"] == DEFAULT


def test_an_evening_joins_a_season_only_with_its_secret(client: FlaskClient) -> None:
    season = new_season(client)
    other = new_season(client, name="Other")

    def made(**joining: Any) -> Any:
        return client.post("/api/evenings", json=evening_body(**joining))

    assert_error(made(season=season["id"], season_token=other["token"]), 403, "season_token")
    assert_error(made(season=season["id"]), 403, "season_token")
    assert_error(made(season="no-such-season", season_token=season["token"]), 404, "season")
    assert_error(made(season_token=season["token"]), 422, "season")
    assert_error(made(season=12, season_token=season["token"]), 422, "season")
    assert client.get(f"/api/seasons/{season['id']}").get_json()["evenings"] == []
    joined = made(season=season["id"], season_token=season["token"])
    assert joined.status_code == 201
    listed = client.get(f"/api/seasons/{season['id']}").get_json()["evenings"]
    assert [e["id"] for e in listed] == [joined.get_json()["id"]]
