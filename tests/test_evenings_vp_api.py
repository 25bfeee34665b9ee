"""Club evenings scored by victory points through the JSON API (API.md "Club evenings",
RULES.md section 16): the scale and the bye's VP given at creation, each finished table
side's VP, the standings by VP, and a 422 naming each bad value.

Scores by RULES.md section 2 (tests/helpers/evenings.py): a deal of ``FIRST_WINS`` is +900
for the first side and +50 for the second; ``SECOND_WINS`` the other way round.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import Json, assert_error, auth
from .helpers.evenings import FIRST_WINS, SECOND_WINS, deal, director, evening_body

#: A Canasta evening's scale: the 3-deal Burraco bounds ten times larger (RULES.md 16).
CANASTA = [
    [500, 10],
    [1500, 11],
    [2500, 12],
    [3500, 13],
    [5000, 14],
    [6500, 15],
    [8000, 16],
    [10000, 17],
    [12500, 18],
    [15000, 19],
    [None, 20],
]


def new_evening(client: FlaskClient, **changes: Any) -> Json:
    response = client.post("/api/evenings", json=evening_body(**changes))
    assert response.status_code == 201, response.get_json()
    body: Json = response.get_json()
    return body


def play(client: FlaskClient, evening: Json, plays: list[list[list[Json]]]) -> Json:
    """Each table of the current round plays its deals (``plays[table]``); the evening
    as it then stands."""
    for table, deals in zip(evening["rounds"][-1]["tables"], plays, strict=True):
        for results in deals:
            assert deal(client, table, results).status_code == 201
    return director(client, evening)


def test_an_evening_by_a_typed_scale_ranks_by_victory_points(client: FlaskClient) -> None:
    made = new_evening(client, scoring={"victory_points": CANASTA}, bye_vp=14)
    assert made["scoring"] == {"victory_points": CANASTA} and made["bye_vp"] == 14
    (bye,) = made["rounds"][0]["byes"]
    # The bye scores its 14 VP at once; the tables have none while they play.
    assert [line["victory_points"] for line in made["standings"]] == [14, 0, 0, 0, 0]
    assert made["standings"][0]["players"] == bye
    sides = [side for table in made["rounds"][0]["tables"] for side in table["sides"]]
    assert [side["victory_points"] for side in sides] == [None] * 4
    # Table 1: 1800 to 100, a difference of 1700: 12-8. Table 2: 950 each, 10-10.
    after = play(client, made, [[FIRST_WINS, FIRST_WINS], [FIRST_WINS, SECOND_WINS]])
    first, second = after["rounds"][0]["tables"]
    assert [(s["total"], s["victory_points"]) for s in first["sides"]] == [(1800, 12), (100, 8)]
    assert [(s["total"], s["victory_points"]) for s in second["sides"]] == [(950, 10), (950, 10)]
    # By match points the table's winner would lead (2, +1700, before the bye's 2, 0); by
    # VP the bye's 14 lead its 12.
    shown = [(line["players"], line["victory_points"]) for line in after["standings"]]
    assert shown[:2] == [(bye, 14), (first["sides"][0]["players"], 12)]
    assert [vp for _players, vp in shown] == [14, 12, 10, 10, 8]
    assert after["standings"][1]["match_points"] == 2
    # The next round is seated from these standings.
    started = client.post(f"/api/evenings/{made['id']}/rounds", headers=auth(made["token"]))
    assert started.status_code == 201
    assert started.get_json()["rounds"][1]["byes"] == [first["sides"][1]["players"]]


def test_a_published_scale_by_its_name_and_the_default_bye(client: FlaskClient) -> None:
    made = new_evening(client, scoring={"victory_points": "burraco-3"})
    assert made["scoring"] == {"victory_points": "burraco-3"} and made["bye_vp"] == 12
    # 1800 to 100 is over 1500: 20-0, the whole table's VP.
    after = play(client, made, [[FIRST_WINS, FIRST_WINS], [SECOND_WINS, FIRST_WINS]])
    first = after["rounds"][0]["tables"][0]
    assert [s["victory_points"] for s in first["sides"]] == [20, 0]
    assert [line["victory_points"] for line in after["standings"]] == [20, 12, 10, 10, 0]
    # The reader without the token sees the same VP.
    anyone = client.get(f"/api/evenings/{made['id']}").get_json()
    assert anyone["standings"] == after["standings"]


def test_a_match_points_evening_says_so_and_shows_no_victory_points(client: FlaskClient) -> None:
    made = new_evening(client)
    explicit = new_evening(client, scoring="match_points")
    for evening in (made, explicit):
        assert evening["scoring"] == "match_points"
        assert all("victory_points" not in line for line in evening["standings"])
    after = play(client, made, [[FIRST_WINS, FIRST_WINS], [FIRST_WINS, SECOND_WINS]])
    assert all("victory_points" not in s for t in after["rounds"][0]["tables"] for s in t["sides"])


VP = "scoring.victory_points"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"scoring": "victory_points"}, "scoring"),
        ({"scoring": None}, "scoring"),
        ({"scoring": {"victory_points": "burraco-5"}}, VP),
        ({"scoring": {"victory_points": []}}, VP),
        ({"scoring": {"victory_points": "burraco-3", "bye": 14}}, "scoring"),
        ({"scoring": {"victory_points": [[500, 10], [200, 11], [None, 20]]}}, f"{VP}.1.0"),
        ({"scoring": {"victory_points": [[500, 10], [1500, 11]]}}, f"{VP}.1.0"),
        ({"scoring": {"victory_points": [[None, 10], [None, 20]]}}, f"{VP}.0.0"),
        ({"scoring": {"victory_points": [[502, 10], [None, 20]]}}, f"{VP}.0.0"),
        ({"scoring": {"victory_points": [[500, 9], [None, 20]]}}, f"{VP}.0.1"),
        ({"scoring": {"victory_points": [[500, 15], [None, 12]]}}, f"{VP}.1.1"),
        ({"scoring": {"victory_points": [[500, 10, 1], [None, 20]]}}, f"{VP}.0"),
        ({"bye_vp": 21}, "bye_vp"),
        ({"bye_vp": -1}, "bye_vp"),
        ({"bye_vp": "12"}, "bye_vp"),
        # Three sides at a table share no 20 VP.
        (
            {
                "variant": "classic-6x3",
                "pairs": [[f"P{n}a", f"P{n}b"] for n in range(6)],
                "scoring": {"victory_points": "burraco-3"},
            },
            "scoring",
        ),
    ],
)
def test_a_bad_scoring_is_refused_naming_the_field(
    client: FlaskClient, app: Flask, changes: Json, field: str
) -> None:
    answer = assert_error(client.post("/api/evenings", json=evening_body(**changes)), 422, field)
    assert answer["fields"][field]
    assert client.get("/api/games").get_json()["games"] == []


def test_a_classic_6x3_evening_by_match_points_is_still_made(client: FlaskClient) -> None:
    pairs = [[f"P{n}a", f"P{n}b"] for n in range(6)]
    assert new_evening(client, variant="classic-6x3", pairs=pairs)["scoring"] == "match_points"


def test_a_victory_point_evening_is_backed_up_and_restored_elsewhere(
    client: FlaskClient, app: Flask, other: Flask, tmp_path: Any
) -> None:
    made = new_evening(client, scoring={"victory_points": CANASTA}, bye_vp=14)
    before = play(client, made, [[FIRST_WINS, FIRST_WINS], [FIRST_WINS, SECOND_WINS]])
    path = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    after = other.test_client().get(f"/api/evenings/{made['id']}", headers=auth(made["token"]))
    assert {**after.get_json(), "token": made["token"]} == before
    assert before["standings"][0]["victory_points"] == 14
