"""The JSON API as a client sees it (docs/API.md), scored by docs/RULES.md: refusals,
winning, editing and deleting deals, finished games, and HTTP odds and ends.

Every expected number is worked out by hand from RULES.md (section 2 scoring, section 7
checks, section 8 worked cases); the comment next to it shows the arithmetic.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers.api import (
    CASE_A,
    CASE_B,
    CASE_C,
    CASE_D,
    CASE_E,
    Json,
    assert_error,
    auth,
    get_game,
    minimums,
    new_game,
    post_deal,
    put_deal,
    result,
    scores,
    totals,
)

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

#: The refusals that run on both databases: one of the rules, and a figure too large for
#: an integer. The rest run on SQLite alone: the body's schema refuses a type or an unknown
#: field before the store reads the game, and every refusal of the rules takes one path
#: through the store (the game locked and replayed, the rule refused before anything is
#: written, the transaction rolled back), which the first of them walks on PostgreSQL too.
ON_BOTH = {"five red threes in all", "an absurdly large figure"}


def _where(name: str) -> list[pytest.MarkDecorator]:
    return [] if name in ON_BOTH else [pytest.mark.one_database]


@pytest.mark.parametrize(
    ("results", "paths"),
    [pytest.param(r, p, id=name, marks=_where(name)) for name, r, p in REFUSED_DEALS],
)
def test_refused_deal_changes_nothing(
    client: FlaskClient, results: list[Any], paths: tuple[str, ...]
) -> None:
    game_id, token = new_game(client)
    assert post_deal(client, game_id, token, CASE_E, CASE_C).status_code == 201
    before = get_game(client, game_id)
    assert_error(post_deal(client, game_id, token, *results), 422, *paths)
    assert get_game(client, game_id) == before


@pytest.mark.one_database  # refused by the body's schema before the store: on SQLite alone
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


@pytest.mark.one_database  # unreadable JSON, refused before the store: on SQLite alone
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
    [pytest.param(r, p, id=name, marks=_where(name)) for name, r, p in REFUSED_DEALS],
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


@pytest.mark.one_database  # routing, before the store: on SQLite alone
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


@pytest.mark.one_database  # routing, before the store: on SQLite alone
@pytest.mark.parametrize("path", ["/api/nothing-here", "/api/games/x/y/z", "/api/"])
def test_unknown_api_path_is_json_404(client: FlaskClient, path: str) -> None:
    assert_error(client.get(path), 404)
