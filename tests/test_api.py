"""The JSON API as a client sees it (docs/API.md), scored by docs/RULES.md.

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
    put_deal,
    result,
    scores,
    totals,
)

# --------------------------------------------------------------------------- helpers


# D: 2 * 500 + 800 (all four red threes) + 200 (out concealed) + 310 - 15 = 2295
CASE_D = result(310, natural=2, red_threes=4, went_out=True, concealed=True, hand=15)


# --------------------------------------------------------------------------- variants


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


def test_create_deeply_nested_json(client: FlaskClient) -> None:
    # 30 000 levels: 60 000 bytes, far deeper than any parser's recursion.
    data = b"[" * 30_000 + b"]" * 30_000
    response = client.post("/api/games", data=data, content_type="application/json")
    assert response.status_code in (400, 422)
    assert_error(response, response.status_code)


def test_create_very_deeply_nested_json(client: FlaskClient) -> None:
    # 100 000 nested lists (200 000 bytes): API.md lists 400 for a body that is not usable
    # JSON and 422 for a broken rule; never a 500.
    data = b"[" * 100_000 + b"]" * 100_000
    response = client.post("/api/games", data=data, content_type="application/json")
    assert response.status_code in (400, 413, 422), (response.status_code, response.get_json())
    assert_error(response, response.status_code)


def test_deeply_nested_json_inside_an_object(client: FlaskClient) -> None:
    data = b'{"variant": "classic", "sides": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"
    response = client.post("/api/games", data=data, content_type="application/json")
    assert response.status_code in (400, 422)
    assert_error(response, response.status_code)


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


# --------------------------------------------------------------------------- refusals


def _with(base: Json, **changes: Any) -> Json:
    return {**base, **changes}


REFUSED_DEALS: list[tuple[str, list[Any], tuple[str, ...]]] = [
    (
        "five red threes in all",  # 3 + 2 > 4
        [_with(CASE_B, red_threes=3), CASE_B],
        ("results", "results.0.red_threes", "results.1.red_threes"),
    ),
    (
        "five red threes on one side",
        [_with(CASE_B, red_threes=5), result(100, hand=20)],
        ("results.0.red_threes",),
    ),
    (
        "both sides went out",
        [CASE_A, CASE_A],
        ("results.1.went_out", "results.0.went_out"),
    ),
    (
        "went out without a canasta",
        [result(150, went_out=True, hand=5), CASE_B],
        ("results.0.went_out",),
    ),
    (
        "went out having melded nothing",
        [CASE_B, result(0, went_out=True, hand=5)],
        ("results.1.went_out",),
    ),
    (
        "concealed without going out",
        [_with(CASE_B, concealed=True), result(100, hand=20)],
        ("results.0.concealed",),
    ),
    (
        "meld points not a multiple of 5",
        [_with(CASE_A, meld_points=222), CASE_B],
        ("results.0.meld_points",),
    ),
    (
        "hand points not a multiple of 5",
        [CASE_A, _with(CASE_B, hand_points=83)],
        ("results.1.hand_points",),
    ),
    (
        "negative hand points",
        [CASE_A, _with(CASE_B, hand_points=-5)],
        ("results.1.hand_points",),
    ),
    (
        "negative meld points",
        [CASE_A, _with(CASE_B, meld_points=-150)],
        ("results.1.meld_points",),
    ),
    (
        "negative red threes",
        [_with(CASE_B, red_threes=-1), result(100, hand=20)],
        ("results.0.red_threes",),
    ),
    (
        "negative canastas",
        [CASE_A, _with(CASE_B, natural_canastas=-1)],
        ("results.1.natural_canastas",),
    ),
    (
        "a natural canasta in 30 points (needs 35)",
        [result(30, natural=1, hand=10), CASE_B],
        ("results.0.meld_points", "results.0.natural_canastas"),
    ),
    (
        "a mixed canasta in 45 points (needs 50)",
        [CASE_B, result(45, mixed=1, hand=10)],
        ("results.1.meld_points", "results.1.mixed_canastas"),
    ),
    (
        "two canastas in 80 points (need 35 + 50 = 85)",
        [_with(CASE_A, meld_points=80), CASE_B],
        ("results.0.meld_points", "results.0.natural_canastas", "results.0.mixed_canastas"),
    ),
    (
        "a canasta without melding anything",
        [CASE_B, result(0, natural=1, hand=10)],
        ("results.1.meld_points", "results.1.natural_canastas"),
    ),
    (
        "text where a number belongs",
        [_with(CASE_A, meld_points="abc"), CASE_B],
        ("results.0.meld_points",),
    ),
    (
        "a number in a string",
        [CASE_A, _with(CASE_B, hand_points="85")],
        ("results.1.hand_points",),
    ),
    (
        "a boolean where a number belongs",
        [_with(CASE_A, meld_points=True), CASE_B],
        ("results.0.meld_points",),
    ),
    (
        "null where a number belongs",
        [CASE_A, _with(CASE_B, red_threes=None)],
        ("results.1.red_threes",),
    ),
    (
        "a fraction where a number belongs",
        [CASE_A, _with(CASE_B, meld_points=150.5)],
        ("results.1.meld_points",),
    ),
    (
        "an absurdly large figure",
        [_with(CASE_A, meld_points=10**20), CASE_B],
        ("results.0.meld_points",),
    ),
    (
        "a number where a boolean belongs",
        [_with(CASE_A, went_out=1), CASE_B],
        ("results.0.went_out",),
    ),
    (
        "text where a boolean belongs",
        [CASE_A, _with(CASE_B, concealed="false")],
        ("results.1.concealed",),
    ),
    (
        "an unknown field in a result",
        [CASE_A, _with(CASE_B, jokers=2)],
        ("results.1.jokers",),
    ),
    (
        "a result that is not an object",
        [CASE_A, 265],
        ("results.1",),
    ),
    ("one result", [CASE_A], ("results",)),
    ("three results", [CASE_A, CASE_B, result(100, hand=20)], ("results",)),
    ("no results", [], ("results",)),
]


@pytest.mark.parametrize(
    ("results", "paths"),
    [pytest.param(r, p, id=name) for name, r, p in REFUSED_DEALS],
)
def test_refused_deal_changes_nothing(
    client: FlaskClient, results: list[Any], paths: tuple[str, ...]
) -> None:
    game_id, token = new_game(client)
    assert post_deal(client, game_id, token, CASE_E, CASE_C).status_code == 201
    before = get_game(client, game_id)
    assert_error(post_deal(client, game_id, token, *results), 422, *paths)
    assert get_game(client, game_id) == before


@pytest.mark.parametrize(
    ("body", "paths"),
    [
        ({"results": "CASE_A"}, ("results",)),
        ({}, ("results",)),
        ({"results": [CASE_A, CASE_B], "comment": "good deal"}, ("comment",)),
    ],
)
def test_refused_deal_body(client: FlaskClient, body: Json, paths: tuple[str, ...]) -> None:
    game_id, token = new_game(client)
    before = get_game(client, game_id)
    response = client.post(f"/api/games/{game_id}/deals", json=body, headers=auth(token))
    assert_error(response, 422, *paths)
    assert get_game(client, game_id) == before


@pytest.mark.parametrize(
    "data",
    [
        b'{"results": [',
        b'[{"meld_points": 0}, {"meld_points": 0}]',
        b'{"results": []}\xff',
        b'{"results": ' + b"[" * 30_000 + b"]" * 30_000 + b"}",
    ],
)
def test_deal_bad_body_is_400(client: FlaskClient, data: bytes) -> None:
    game_id, token = new_game(client)
    before = get_game(client, game_id)
    response = client.post(
        f"/api/games/{game_id}/deals",
        data=data,
        content_type="application/json",
        headers=auth(token),
    )
    assert response.status_code in (400, 422)
    assert_error(response, response.status_code)
    assert get_game(client, game_id) == before


# --------------------------------------------------------------------------- winning


def test_whole_game_to_a_win(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    side1 = result(100, hand=20)  # 100 - 20 = 80
    expected = [(2295, 80), (4590, 160)]  # case D each deal for side 0
    for number, (total0, total1) in enumerate(expected, start=1):
        response = post_deal(client, game_id, token, CASE_D, side1)
        assert response.status_code == 201
        deal = response.get_json()
        assert deal["number"] == number
        assert totals(deal) == [total0, total1]
        assert deal["status"] == "in_progress"
        assert deal["winner"] is None
    # 4590 + 2295 = 6885 >= 5000; side 1: 160 + 80 = 240
    response = post_deal(client, game_id, token, CASE_D, side1)
    assert response.status_code == 201
    deal = response.get_json()
    assert totals(deal) == [6885, 240]
    assert deal["status"] == "finished"
    assert deal["winner"] == 0
    game = get_game(client, game_id)
    assert game["status"] == "finished"
    assert game["winner"] == 0
    assert len(game["deals"]) == 3

    before = game
    assert_error(post_deal(client, game_id, token, CASE_A, CASE_B), 409)
    assert get_game(client, game_id) == before


def test_highest_total_wins_when_both_reach_target(client: FlaskClient) -> None:
    game_id, token = new_game(client, starts=(4000, 4000))
    # Side 1: 2 * 500 natural + 320 melded - 20 hand = 1300 (did not go out)
    side1 = result(320, natural=2, hand=20)
    response = post_deal(client, game_id, token, CASE_A, side1)
    assert response.status_code == 201
    deal = response.get_json()
    assert totals(deal) == [5210, 5300]  # 4000 + 1210, 4000 + 1300: both over 5000
    assert deal["status"] == "finished"
    assert deal["winner"] == 1  # the higher total, not the side that went out


def test_tie_at_the_top_plays_on(client: FlaskClient) -> None:
    game_id, token = new_game(client, starts=(4000, 4000))
    # Side 0: 500 natural + 100 out + 405 melded - 5 (partner's hand) = 1000
    side0 = result(405, natural=1, went_out=True, hand=5)
    # Side 1: 500 natural + 510 melded - 10 hand = 1000
    side1 = result(510, natural=1, hand=10)
    response = post_deal(client, game_id, token, side0, side1)
    assert response.status_code == 201
    deal = response.get_json()
    assert totals(deal) == [5000, 5000]  # an exact tie at the target
    assert deal["status"] == "in_progress"
    assert deal["winner"] is None
    game = get_game(client, game_id)
    assert game["status"] == "in_progress"
    assert game["winner"] is None
    assert minimums(game) == [120, 120]  # 5000 is 3000 or more

    # Another deal is played and decides: side 1 gets 150 - 85 = 65 more, side 0 120 - 20.
    response = post_deal(client, game_id, token, result(120, hand=20), result(150, hand=85))
    assert response.status_code == 201
    deal = response.get_json()
    assert totals(deal) == [5100, 5065]
    assert deal["status"] == "finished"
    assert deal["winner"] == 0


# --------------------------------------------------------------------------- editing deals


def _two_deal_game(client: FlaskClient) -> tuple[str, str]:
    """A game after deal 1 = (A, B) and deal 2 = (E, C): totals 1565 and -55."""
    game_id, token = new_game(client)
    assert post_deal(client, game_id, token, CASE_A, CASE_B).status_code == 201
    assert post_deal(client, game_id, token, CASE_E, CASE_C).status_code == 201
    return game_id, token


def test_replace_deal_recomputes(client: FlaskClient) -> None:
    game_id, token = _two_deal_game(client)
    game = get_game(client, game_id)
    assert [r["meld_minimum"] for r in game["deals"][1]["results"]] == [50, 50]

    # Deal 1 becomes (D, 150 - 85 = 65): side 0 reaches 2295 after it.
    response = put_deal(client, game_id, token, 1, CASE_D, result(150, hand=85))
    assert response.status_code == 200
    deal = response.get_json()
    assert deal["number"] == 1
    assert scores(deal) == [2295, 65]
    assert totals(deal) == [2650, -255]  # 2295 + 355, 65 - 320
    assert minimums(deal) == [90, 15]  # 2650 in 1500..2995; -255 below 0

    game = get_game(client, game_id)
    assert [scores(d) for d in game["deals"]] == [[2295, 65], [355, -320]]
    assert totals(game) == [2650, -255]
    assert minimums(game) == [90, 15]
    assert game["deals"][0]["results"][0]["concealed"] is True
    # Deal 2 was played from 2295 (needs 90) and 65 (needs 50).
    assert [r["meld_minimum"] for r in game["deals"][1]["results"]] == [90, 50]


@pytest.mark.parametrize("number", [3, 99])
def test_replace_unknown_deal_is_404(client: FlaskClient, number: int) -> None:
    game_id, token = _two_deal_game(client)
    before = get_game(client, game_id)
    assert_error(put_deal(client, game_id, token, number, CASE_A, CASE_B), 404)
    assert get_game(client, game_id) == before


def test_replace_deal_needs_token(client: FlaskClient) -> None:
    game_id, _ = _two_deal_game(client)
    before = get_game(client, game_id)
    response = client.put(f"/api/games/{game_id}/deals/1", json={"results": [CASE_D, CASE_E]})
    assert_error(response, 403)
    assert_error(put_deal(client, game_id, "wrong", 1, CASE_D, CASE_E), 403)
    assert get_game(client, game_id) == before


@pytest.mark.parametrize(
    ("results", "paths"),
    [pytest.param(r, p, id=name) for name, r, p in REFUSED_DEALS],
)
def test_refused_replacement_changes_nothing(
    client: FlaskClient, results: list[Any], paths: tuple[str, ...]
) -> None:
    game_id, token = _two_deal_game(client)
    before = get_game(client, game_id)
    assert_error(put_deal(client, game_id, token, 1, *results), 422, *paths)
    assert get_game(client, game_id) == before


# --------------------------------------------------------------------------- deleting deals


def test_delete_deal_renumbers(client: FlaskClient) -> None:
    game_id, token = _two_deal_game(client)
    # Deal 3: 100 - 20 = 80 and 60 - 10 = 50.
    third = (result(100, hand=20), result(60, hand=10))
    assert post_deal(client, game_id, token, *third).status_code == 201
    assert totals(get_game(client, game_id)) == [1645, -5]  # 1565 + 80, -55 + 50

    response = client.delete(f"/api/games/{game_id}/deals/2", headers=auth(token))
    assert response.status_code in (200, 204)
    game = get_game(client, game_id)
    assert [d["number"] for d in game["deals"]] == [1, 2]
    assert [scores(d) for d in game["deals"]] == [[1210, 265], [80, 50]]
    assert game["deals"][1]["results"][0]["meld_points"] == 100  # the old deal 3
    assert game["deals"][1]["results"][1]["meld_points"] == 60
    assert totals(game) == [1290, 315]  # 1210 + 80, 265 + 50
    assert minimums(game) == [50, 50]
    # The renumbered deal 2 was played from 1210 and 265: both need 50.
    assert [r["meld_minimum"] for r in game["deals"][1]["results"]] == [50, 50]

    # There is no deal 3 any more.
    assert_error(client.delete(f"/api/games/{game_id}/deals/3", headers=auth(token)), 404)
    assert_error(put_deal(client, game_id, token, 3, *third), 404)
    # The next deal recorded is deal 3.
    response = post_deal(client, game_id, token, *third)
    assert response.status_code == 201
    assert response.get_json()["number"] == 3


def test_delete_unknown_deal_is_404(client: FlaskClient) -> None:
    game_id, token = _two_deal_game(client)
    before = get_game(client, game_id)
    assert_error(client.delete(f"/api/games/{game_id}/deals/7", headers=auth(token)), 404)
    assert_error(client.delete("/api/games/no-such-game/deals/1", headers=auth(token)), 404)
    assert get_game(client, game_id) == before


def test_delete_needs_token(client: FlaskClient) -> None:
    game_id, _ = _two_deal_game(client)
    before = get_game(client, game_id)
    assert_error(client.delete(f"/api/games/{game_id}/deals/1"), 403)
    assert_error(client.delete(f"/api/games/{game_id}/deals/1", headers=auth("x")), 403)
    assert get_game(client, game_id) == before


def test_delete_every_deal(client: FlaskClient) -> None:
    game_id, token = _two_deal_game(client)
    for _ in range(2):
        response = client.delete(f"/api/games/{game_id}/deals/1", headers=auth(token))
        assert response.status_code in (200, 204)
    game = get_game(client, game_id)
    assert game["deals"] == []
    assert totals(game) == [0, 0]
    assert minimums(game) == [50, 50]


# --------------------------------------------------------------------------- editing finished games


def _finished_game(client: FlaskClient) -> tuple[str, str]:
    """Side 0 starts at 3000. Deal 1: E (355) / C (-320) -> 3355 / -320.
    Deal 2: D (2295) / 150 - 85 = 65 -> 5650 / -255: side 0 wins after deal 2."""
    game_id, token = new_game(client, starts=(3000, 0))
    assert post_deal(client, game_id, token, CASE_E, CASE_C).status_code == 201
    response = post_deal(client, game_id, token, CASE_D, result(150, hand=85))
    assert response.status_code == 201
    game = get_game(client, game_id)
    assert totals(game) == [5650, -255]
    assert game["status"] == "finished"
    assert game["winner"] == 0
    return game_id, token


def test_edit_that_ends_game_earlier_is_409(client: FlaskClient) -> None:
    game_id, token = _finished_game(client)
    before = get_game(client, game_id)
    # Deal 1 as D / 65 would give 3000 + 2295 = 5295 after deal 1, with deal 2 after it.
    response = put_deal(client, game_id, token, 1, CASE_D, result(150, hand=85))
    assert_error(response, 409)
    assert get_game(client, game_id) == before


def test_edit_that_ends_in_progress_game_earlier_is_409(client: FlaskClient) -> None:
    game_id, token = new_game(client, starts=(4000, 0))
    assert post_deal(client, game_id, token, CASE_E, CASE_B).status_code == 201  # 4355
    assert post_deal(client, game_id, token, result(100, hand=20), CASE_B).status_code == 201
    before = get_game(client, game_id)
    assert before["status"] == "in_progress"  # 4355 + 80 = 4435
    # Deal 1 as A: 4000 + 1210 = 5210 after deal 1, yet deal 2 follows.
    assert_error(put_deal(client, game_id, token, 1, CASE_A, CASE_B), 409)
    assert get_game(client, game_id) == before


def test_edit_last_deal_reopens_finished_game(client: FlaskClient) -> None:
    game_id, token = _finished_game(client)
    # Deal 2 as E (355) / 65: 3355 + 355 = 3710, under 5000.
    response = put_deal(client, game_id, token, 2, CASE_E, result(150, hand=85))
    assert response.status_code == 200
    deal = response.get_json()
    assert deal["status"] == "in_progress"
    assert deal["winner"] is None
    assert totals(deal) == [3710, -255]
    game = get_game(client, game_id)
    assert game["status"] == "in_progress"
    assert game["winner"] is None

    response = post_deal(client, game_id, token, CASE_A, CASE_B)
    assert response.status_code == 201
    deal = response.get_json()
    assert deal["number"] == 3
    assert totals(deal) == [4920, 10]  # 3710 + 1210, -255 + 265
    assert deal["status"] == "in_progress"


def test_delete_last_deal_reopens_finished_game(client: FlaskClient) -> None:
    game_id, token = _finished_game(client)
    response = client.delete(f"/api/games/{game_id}/deals/2", headers=auth(token))
    assert response.status_code in (200, 204)
    game = get_game(client, game_id)
    assert game["status"] == "in_progress"
    assert game["winner"] is None
    assert totals(game) == [3355, -320]
    assert minimums(game) == [120, 15]  # 3355 is 3000 or more; -320 below 0
    assert post_deal(client, game_id, token, CASE_A, CASE_B).status_code == 201


# --------------------------------------------------------------------------- HTTP odds and ends


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PATCH", "/api/games/{id}"),
        ("PUT", "/api/games/{id}"),
        ("GET", "/api/games/{id}/restore"),
        ("GET", "/api/games/{id}/deals"),
        ("PATCH", "/api/games/{id}/deals/1"),
        ("DELETE", "/api/variants"),
    ],
)
def test_method_not_allowed_is_json(client: FlaskClient, method: str, path: str) -> None:
    game_id, token = _two_deal_game(client)
    before = get_game(client, game_id)
    response = client.open(
        path.format(id=game_id), method=method, json={"status": "finished"}, headers=auth(token)
    )
    assert_error(response, 405)
    assert get_game(client, game_id) == before


@pytest.mark.parametrize("path", ["/api/nothing-here", "/api/games/x/y/z", "/api/"])
def test_unknown_api_path_is_json_404(client: FlaskClient, path: str) -> None:
    assert_error(client.get(path), 404)
