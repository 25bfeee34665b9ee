"""The JSON API as a client sees it (docs/API.md), scored by docs/RULES.md: variants,
creating and reading games, recording deals. Refusals, winning, editing and deleting:
tests/test_api_changes.py.

Every expected number is worked out by hand from RULES.md (section 2 scoring, section 7
checks, section 8 worked cases); the comment next to it shows the arithmetic.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers.api import (
    CASE_A,
    CASE_B,
    CASE_C,
    CASE_D,
    CASE_E,
    SIDES,
    Json,
    assert_error,
    auth,
    game_body,
    get_game,
    minimums,
    new_game,
    post_deal,
    result,
    scores,
    totals,
)

# --------------------------------------------------------------------------- variants


@pytest.mark.one_database  # the rule sets, no game: on SQLite alone
def test_variants_lists_classic(client: FlaskClient) -> None:
    response = client.get("/api/variants")
    assert response.status_code == 200
    variants = response.get_json()
    assert isinstance(variants, list)
    classic = next(v for v in variants if v["id"] == "classic")
    assert classic["players"] == 4
    assert classic["sides"] == 2
    assert classic["target"] == 5000
    assert isinstance(classic["name"], str) and classic["name"]
    # RULES.md section 2: below 0 -> 15; 0..1495 -> 50; 1500..2995 -> 90; 3000+ -> 120
    assert classic["meld_minimums"] == [
        {"from": None, "minimum": 15},
        {"from": 0, "minimum": 50},
        {"from": 1500, "minimum": 90},
        {"from": 3000, "minimum": 120},
    ]


# --------------------------------------------------------------------------- creating games


def test_create_game(client: FlaskClient) -> None:
    response = client.post("/api/games", json=game_body())
    assert response.status_code == 201
    body = response.get_json()
    assert isinstance(body["id"], str) and body["id"]
    assert body["url"] == f"/games/{body['id']}"
    assert body["variant"] == "classic"
    assert isinstance(body["options"], dict)
    assert body["status"] == "in_progress"
    assert body["winner"] is None
    assert body["deals"] == []
    assert isinstance(body["token"], str) and body["token"]
    assert len(body["sides"]) == 2
    for side, given in zip(body["sides"], SIDES, strict=True):
        assert side["name"] == given["name"]
        assert side["players"] == given["players"]
        assert side["total"] == 0
        assert side["meld_minimum"] == 50  # total 0 is in the 0..1495 tier


def test_created_game_reads_back_without_token(client: FlaskClient) -> None:
    created = client.post("/api/games", json=game_body()).get_json()
    response = client.get(f"/api/games/{created['id']}")  # no Authorization header
    assert response.status_code == 200
    game = response.get_json()
    assert "token" not in game
    # API.md: creation answers "the game (below) plus token".
    assert game == {k: v for k, v in created.items() if k != "token"}


def test_create_with_options(client: FlaskClient) -> None:
    response = client.post(
        "/api/games", json=game_body(options={"concealed_canasta_bonus": False, "target": 3000})
    )
    assert response.status_code == 201
    options = response.get_json()["options"]
    assert options["target"] == 3000
    assert options["concealed_canasta_bonus"] is False


@pytest.mark.parametrize(
    ("start", "minimum"),
    [
        (1500, 90),  # 1500..2995 -> 90
        (-20, 15),  # below 0 -> 15
        (-5, 15),
        (0, 50),
        (1495, 50),  # 0..1495 -> 50
        (2995, 90),
        (3000, 120),  # 3000 or more -> 120
    ],
)
def test_start_sets_total_and_minimum(client: FlaskClient, start: int, minimum: int) -> None:
    response = client.post("/api/games", json=game_body(starts=(start, 0)))
    assert response.status_code == 201
    sides = response.get_json()["sides"]
    assert sides[0]["total"] == start
    assert sides[0]["meld_minimum"] == minimum
    assert sides[1]["total"] == 0
    assert sides[1]["meld_minimum"] == 50


def _unknown_variant(body: Json) -> None:
    body["variant"] = "canasta-deluxe"


def _unknown_option(body: Json) -> None:
    body["options"] = {"bogus": 1}


def _target_zero(body: Json) -> None:
    body["options"] = {"target": 0}


def _start_not_multiple_of_5(body: Json) -> None:
    body["sides"][0]["start"] = 12


def _three_sides(body: Json) -> None:
    body["sides"].append({"name": "Others", "players": ["Mila", "Petar"]})


def _one_side(body: Json) -> None:
    del body["sides"][1]


def _three_players(body: Json) -> None:
    body["sides"][0]["players"].append("Lena")


def _one_player(body: Json) -> None:
    body["sides"][1]["players"] = ["Vera"]


def _empty_side_name(body: Json) -> None:
    body["sides"][0]["name"] = ""


def _empty_player_name(body: Json) -> None:
    body["sides"][1]["players"][0] = ""


def _start_as_text(body: Json) -> None:
    body["sides"][0]["start"] = "1500"


def _target_as_text(body: Json) -> None:
    body["options"] = {"target": "5000"}


@pytest.mark.one_database  # refused by the schema and the rules before the store: on SQLite alone
@pytest.mark.parametrize(
    ("change", "paths"),
    [
        (_unknown_variant, ("variant",)),
        (_unknown_option, ("options.bogus", "options")),
        (_target_zero, ("options.target", "options")),
        (_start_not_multiple_of_5, ("sides.0.start",)),
        (_three_sides, ("sides",)),
        (_one_side, ("sides",)),
        (_three_players, ("sides.0.players",)),
        (_one_player, ("sides.1.players",)),
        (_empty_side_name, ("sides.0.name",)),
        (_empty_player_name, ("sides.1.players.0", "sides.1.players")),
        (_start_as_text, ("sides.0.start",)),
        (_target_as_text, ("options.target", "options")),
    ],
)
def test_create_refusals(client: FlaskClient, change: Any, paths: tuple[str, ...]) -> None:
    before = client.get("/api/games").get_json()
    body = game_body()
    change(body)
    assert_error(client.post("/api/games", json=body), 422, *paths)
    assert client.get("/api/games").get_json() == before  # no game was created


@pytest.mark.one_database  # refused before the store: on SQLite alone
@pytest.mark.parametrize(
    "data",
    [
        b'{"variant": "classic", "sides": [',  # malformed JSON
        b"not json at all",
        b"",
        b'[{"variant": "classic"}]',  # an array, not an object
        b'"classic"',
        b'{"variant": "cl\xffassic"}',  # invalid UTF-8
    ],
)
def test_create_bad_body_is_400(client: FlaskClient, data: bytes) -> None:
    response = client.post("/api/games", data=data, content_type="application/json")
    assert_error(response, 400)


@pytest.mark.one_database  # refused before the store: on SQLite alone
def test_create_deeply_nested_json(client: FlaskClient) -> None:
    # 30 000 levels: 60 000 bytes, far deeper than any parser's recursion.
    data = b"[" * 30_000 + b"]" * 30_000
    response = client.post("/api/games", data=data, content_type="application/json")
    assert response.status_code in (400, 422)
    assert_error(response, response.status_code)


@pytest.mark.one_database  # refused before the store: on SQLite alone
def test_create_very_deeply_nested_json(client: FlaskClient) -> None:
    # 100 000 nested lists (200 000 bytes): API.md lists 400 for a body that is not usable
    # JSON and 422 for a broken rule; never a 500.
    data = b"[" * 100_000 + b"]" * 100_000
    response = client.post("/api/games", data=data, content_type="application/json")
    assert response.status_code in (400, 413, 422), (response.status_code, response.get_json())
    assert_error(response, response.status_code)


@pytest.mark.one_database  # refused before the store: on SQLite alone
def test_deeply_nested_json_inside_an_object(client: FlaskClient) -> None:
    data = b'{"variant": "classic", "sides": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"
    response = client.post("/api/games", data=data, content_type="application/json")
    assert response.status_code in (400, 422)
    assert_error(response, response.status_code)


@pytest.mark.one_database  # refused before the store: on SQLite alone
@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",  # what a form on another site can send without asking the browser
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        None,
    ],
)
def test_a_body_not_sent_as_json_is_415(client: FlaskClient, content_type: str | None) -> None:
    """API.md: a body not sent as application/json is a 415, so a form on another site
    cannot create games from a visitor's browser; nothing is created."""
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = client.post("/api/games", data=json.dumps(game_body()), headers=headers)
    body = assert_error(response, 415)
    assert "Content-Type" in body["error"] and body["fields"] == {}
    assert client.get("/api/games").get_json()["total"] == 0


@pytest.mark.one_database  # refused before the store: on SQLite alone
def test_every_api_write_takes_json_only(client: FlaskClient) -> None:
    """Deals, edits, imports and the rules checks refuse a body of another type alike, and
    change nothing; a charset is fine, and a DELETE without a body needs no type."""
    game_id, token = new_game(client)
    deal = {"results": [result(150, red_threes=2, hand=85), result(90, hand=20)]}
    deals = f"/api/games/{game_id}/deals"
    assert client.post(deals, json=deal, headers=auth(token)).status_code == 201
    export = client.get(f"/api/games/{game_id}/export").get_json()
    before = get_game(client, game_id)
    writes = [
        ("POST", deals, deal),
        ("PUT", f"{deals}/1", deal),
        ("DELETE", f"{deals}/1", {}),
        ("POST", "/api/games/import", export),
        ("POST", "/api/check/meld", {"cards": "9 9 9"}),
        ("POST", "/api/check/initial-meld", {"melds": ["K K K"]}),
        ("POST", "/api/check/pickup", {"top": "9"}),
        ("POST", "/api/check/going-out", {}),
    ]
    for method, path, body in writes:
        response = client.open(
            path,
            method=method,
            data=json.dumps(body),
            headers={**auth(token), "Content-Type": "text/plain"},
        )
        assert_error(response, 415)
    assert get_game(client, game_id) == before
    assert client.get("/api/games").get_json()["total"] == 1
    with_charset = client.post(
        deals,
        data=json.dumps(deal),
        headers={**auth(token), "Content-Type": "application/json; charset=utf-8"},
    )
    assert with_charset.status_code == 201
    assert client.delete(f"{deals}/2", headers=auth(token)).status_code == 200
    assert len(get_game(client, game_id)["deals"]) == 1


# --------------------------------------------------------------------------- reading games


def test_unknown_game_is_404(client: FlaskClient) -> None:
    assert_error(client.get("/api/games/no-such-game"), 404)


def test_list_games_newest_first(client: FlaskClient) -> None:
    ids = [new_game(client)[0] for _ in range(25)]
    listed: list[str] = []
    page = 1
    while True:
        response = client.get(f"/api/games?page={page}")
        assert response.status_code == 200
        games = response.get_json()["games"]
        if not games:
            break
        listed += [game["id"] for game in games]
        page += 1
        assert page < 30
    assert listed == list(reversed(ids))


def test_list_games_first_page_is_default(client: FlaskClient) -> None:
    first, _ = new_game(client)
    second, _ = new_game(client)
    games = client.get("/api/games").get_json()["games"]
    assert [game["id"] for game in games] == [second, first]
    for game in games:
        assert game["status"] == "in_progress"
        assert totals(game) == [0, 0]


@pytest.mark.one_database  # refused before the store: on SQLite alone
@pytest.mark.parametrize("page", ["0", "-1", "abc", "1.5", ""])
def test_list_games_bad_page_is_400(client: FlaskClient, page: str) -> None:
    assert_error(client.get(f"/api/games?page={page}"), 400)


# --------------------------------------------------------------------------- recording deals


def test_deal_needs_token(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    other_id, other_token = new_game(client)
    before = get_game(client, game_id)
    url = f"/api/games/{game_id}/deals"
    body = {"results": [CASE_A, CASE_B]}
    assert_error(client.post(url, json=body), 403)
    assert_error(client.post(url, json=body, headers=auth("not-the-token")), 403)
    assert_error(client.post(url, json=body, headers=auth(other_token)), 403)
    assert_error(client.post(url, json=body, headers={"Authorization": token}), 403)
    assert_error(client.post(url, json=body, headers={"Authorization": "Bearer "}), 403)
    assert get_game(client, game_id) == before
    assert get_game(client, other_id)["deals"] == []


def test_deal_on_unknown_game_is_404(client: FlaskClient) -> None:
    _, token = new_game(client)
    response = post_deal(client, "no-such-game", token, CASE_A, CASE_B)
    assert_error(response, 404)


def test_record_worked_cases(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    response = post_deal(client, game_id, token, CASE_A, CASE_B)
    assert response.status_code == 201
    deal = response.get_json()
    assert deal["number"] == 1
    assert [r["side"] for r in deal["results"]] == [0, 1]
    assert scores(deal) == [1210, 265]  # cases A and B of RULES.md section 8
    assert deal["results"][0]["meld_points"] == 220
    assert deal["results"][1]["red_threes"] == 2
    assert deal["status"] == "in_progress"
    assert deal["winner"] is None
    assert totals(deal) == [1210, 265]  # 0 + 1210, 0 + 265
    assert minimums(deal) == [50, 50]  # 1210 and 265 are both in 0..1495

    # Deal 2: side 0 case E (355), side 1 case C (-320).
    response = post_deal(client, game_id, token, CASE_E, CASE_C)
    assert response.status_code == 201
    deal = response.get_json()
    assert deal["number"] == 2
    assert scores(deal) == [355, -320]
    assert totals(deal) == [1565, -55]  # 1210 + 355, 265 - 320
    assert minimums(deal) == [90, 15]  # 1565 is in 1500..2995; -55 is below 0

    game = get_game(client, game_id)
    assert [d["number"] for d in game["deals"]] == [1, 2]
    assert [scores(d) for d in game["deals"]] == [[1210, 265], [355, -320]]
    assert totals(game) == [1565, -55]
    assert minimums(game) == [90, 15]
    # Each deal's result carries the minimum in force for that deal.
    assert [r["meld_minimum"] for r in game["deals"][0]["results"]] == [50, 50]
    assert [r["meld_minimum"] for r in game["deals"][1]["results"]] == [50, 50]

    # Deal 3 is played with the minimums 90 and 15.
    response = post_deal(client, game_id, token, result(120, hand=20), result(30, hand=10))
    assert response.status_code == 201
    deal = response.get_json()
    assert [r["meld_minimum"] for r in deal["results"]] == [90, 15]
    assert scores(deal) == [100, 20]  # 120 - 20, 30 - 10
    assert totals(deal) == [1665, -35]  # 1565 + 100, -55 + 20


def test_omitted_fields_are_zero_and_false(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    side0 = {
        "meld_points": 220,
        "natural_canastas": 1,
        "mixed_canastas": 1,
        "red_threes": 1,
        "went_out": True,
        "hand_points": 10,
    }  # case A without "concealed": 1210
    response = post_deal(client, game_id, token, side0, {"meld_points": 60, "hand_points": 20})
    assert response.status_code == 201
    deal = response.get_json()
    assert scores(deal) == [1210, 40]  # case A; 60 - 20 (no canastas, threes or bonus)
    side1 = deal["results"][1]
    assert side1["natural_canastas"] == 0
    assert side1["mixed_canastas"] == 0
    assert side1["red_threes"] == 0
    assert side1["went_out"] is False
    assert side1["concealed"] is False
    assert deal["results"][0]["concealed"] is False

    # A result that is an empty object is a side that melded nothing and holds nothing.
    response = post_deal(client, game_id, token, {}, result(100, hand=20))
    assert response.status_code == 201
    assert scores(response.get_json()) == [0, 80]  # 0; 100 - 20


def test_meld_below_minimum_is_only_a_warning(client: FlaskClient) -> None:
    game_id, token = new_game(client, starts=(1500, 0))
    # Side 0 needs 90 (total 1500) and side 1 needs 50 (total 0); both fall short.
    response = post_deal(client, game_id, token, result(60, hand=10), result(40, hand=15))
    assert response.status_code == 201
    deal = response.get_json()
    assert [r["meld_minimum"] for r in deal["results"]] == [90, 50]
    assert scores(deal) == [50, 25]  # 60 - 10, 40 - 15
    assert totals(deal) == [1550, 25]


def test_going_out_concealed_scores_case_d(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    response = post_deal(client, game_id, token, CASE_D, result(100, hand=30))
    assert response.status_code == 201
    assert scores(response.get_json()) == [2295, 70]  # case D; 100 - 30


def test_concealed_canasta_house_rule(client: FlaskClient) -> None:
    game_id, token = new_game(client, options={"concealed_canasta_bonus": True})
    side0 = {**CASE_A, "concealed_canastas": 1}
    response = post_deal(client, game_id, token, side0, CASE_B)
    assert response.status_code == 201
    # RULES.md section 4: case A plus 100 for the one canasta melded whole: 1210 + 100
    assert scores(response.get_json()) == [1310, 265]

    before = get_game(client, game_id)
    side0 = {**CASE_A, "concealed_canastas": 3}  # more concealed canastas than its two
    response = post_deal(client, game_id, token, side0, CASE_B)
    assert_error(response, 422, "results.0.concealed_canastas")
    assert get_game(client, game_id) == before
