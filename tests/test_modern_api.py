"""Modern American Canasta, Hand and Foot and Burraco through the JSON API (docs/API.md):
the rule sets listed, the worked deals of RULES.md sections 13 to 15 posted and scored part
by part, the refusals, the games' ends, and export, import, backup and restore.

Every score is RULES.md's own worked deal; the comment next to each shows its sum.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from .helpers.api import assert_error, get_game, post_deal

Json = dict[str, Any]
PAIRS = [{"name": "A", "players": ["Ana", "Boris"]}, {"name": "B", "players": ["Vera", "Goran"]}]


def new_game(
    client: FlaskClient, variant: str, sides: list[Json] | None = None, options: Json | None = None
) -> tuple[str, str]:
    body: Json = {"variant": variant, "sides": sides or PAIRS}
    if options is not None:
        body["options"] = options
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return created["id"], created["token"]


def record(client: FlaskClient, game_id: str, token: str, *results: Json) -> Json:
    response = post_deal(client, game_id, token, *results)
    assert response.status_code == 201, response.get_json()
    answer: Json = response.get_json()
    return answer


def scored(answer: Json) -> list[tuple[int, Json]]:
    return [(result["score"], result["parts"]) for result in answer["results"]]


# --------------------------------------------------------------------------- variants


@pytest.mark.one_database  # the rule sets, no game: on SQLite alone
def test_the_new_rule_sets_are_listed_with_their_numbers(client: FlaskClient) -> None:
    variants = {v["id"]: v for v in client.get("/api/variants").get_json()}
    american = variants["american"]
    assert american["target"] == 8500
    assert american["meld_minimums"] == [
        {"from": None, "minimum": 125},
        {"from": 3000, "minimum": 155},
        {"from": 5000, "minimum": 180},
    ]
    assert (american["meld_minimums_by_deal"], american["deals"]) == (None, None)
    assert american["canasta_bonuses"]["aces"] == 2500
    assert american["special_hands"]["straight"] == 3000
    assert american["swing"] == {"meld": [-1, 1], "threes": [-1, 0, 1]}
    assert american["going_out_blocked_by"] == [
        "unfinished_aces",
        "unfinished_sevens",
        "unfinished_wild",
    ]
    hand_and_foot = variants["hand-and-foot"]
    assert hand_and_foot["target"] is None
    assert (hand_and_foot["meld_minimums_by_deal"], hand_and_foot["deals"]) == (
        [50, 90, 120, 150],
        4,
    )
    assert hand_and_foot["contract"] == {"natural": 2, "mixed": 2}
    assert hand_and_foot["players_range"] == [4, 6]  # 2 or 3 partnerships of 2
    burraco = variants["burraco"]
    assert (burraco["target"], burraco["meld_minimums"]) == (2005, [{"from": None, "minimum": 0}])
    assert burraco["card_values"] == {"JK": 30, "2": 20, "A": 15, "3": 5}
    assert (variants["burraco-2"]["players"], variants["burraco-2"]["sides"]) == (2, 2)
    assert variants["classic"]["deals"] is None


# --------------------------------------------------------------------------- worked deals


def test_the_american_worked_deals(client: FlaskClient) -> None:
    """RULES.md section 13's worked deals, two sides to a deal, in the order given."""
    game_id, token = new_game(client, "american")
    first = record(
        client,
        game_id,
        token,
        {
            "natural_canastas": 1,
            "mixed_canastas": 1,
            "red_threes": 2,
            "black_threes": 1,
            "went_out": True,
            "meld_points": 420,
        },
        {"mixed_canastas": 1, "red_threes": 1, "meld_points": 250, "hand_points": 60},
    )
    # 500+300+300+100+100+420 = 1720; 300+250-60 = 490 (threes not counted: one canasta).
    assert scored(first) == [
        (
            1720,
            {
                "canastas": 800,
                "threes": 400,
                "meld": 420,
                "going_out": 100,
                "penalties": 0,
                "hand": 0,
                "special_hand": 0,
            },
        ),
        (
            490,
            {
                "canastas": 300,
                "threes": 0,
                "meld": 250,
                "going_out": 0,
                "penalties": 0,
                "hand": -60,
                "special_hand": 0,
            },
        ),
    ]
    second = record(
        client,
        game_id,
        token,
        {"red_threes": 1, "black_threes": 2, "meld_points": 180, "hand_points": 45},
        {
            "aces_canastas": 1,
            "natural_canastas": 1,
            "unfinished_wild": True,
            "meld_points": 500,
            "hand_points": 30,
        },
    )
    # No canasta: -180-100-300-45 = -625; 2500+500+500-2000-30 = 1470.
    assert [score for score, _ in scored(second)] == [-625, 1470]
    assert scored(second)[0][1]["meld"] == -180 and scored(second)[0][1]["threes"] == -400
    assert scored(second)[1][1]["penalties"] == -2000
    third = record(
        client,
        game_id,
        token,
        {"mixed_canastas": 1, "aces_or_sevens_held": 1, "meld_points": 210, "hand_points": 85},
        {"special_hand": "straight", "went_out": True},
    )
    # 300+210-85-1500 = -1075; a straight scores 3000 alone.
    assert [score for score, _ in scored(third)] == [-1075, 3000]
    assert scored(third)[1][1]["special_hand"] == 3000
    assert scored(third)[0][1]["penalties"] == -1500
    fourth = record(
        client,
        game_id,
        token,
        {
            "sevens_canastas": 1,
            "deuce_canastas": 1,
            "red_threes": 4,
            "went_out": True,
            "meld_points": 450,
        },
        {"meld_points": 0, "hand_points": 100},
    )
    # 2500+3000+1000+100+450 = 7050.
    assert [score for score, _ in scored(fourth)] == [7050, -100]
    game = get_game(client, game_id)
    assert [side["total"] for side in game["sides"]] == [7070, 4860]
    # Minimums by the totals: 7070 -> 180; 4860 -> 155.
    assert [side["meld_minimum"] for side in game["sides"]] == [180, 155]
    assert game["status"] == "in_progress"
    # The game document carries the parts too, deal by deal.
    assert game["deals"][0]["results"][0]["parts"]["threes"] == 400


def test_the_hand_and_foot_worked_deal(client: FlaskClient) -> None:
    game_id, token = new_game(client, "hand-and-foot")
    answer = record(
        client,
        game_id,
        token,
        {
            "natural_canastas": 2,
            "mixed_canastas": 2,
            "wild_canastas": 1,
            "red_threes": 2,
            "went_out": True,
            "meld_points": 1450,
        },
        {
            "natural_canastas": 1,
            "mixed_canastas": 1,
            "red_threes": 1,
            "red_threes_in_hand": 1,
            "meld_points": 640,
            "hand_points": 215,
        },
    )
    # 1000+600+1500+200+100+1450 = 4850; 500+300+100-100+640-215 = 1225.
    assert scored(answer) == [
        (
            4850,
            {
                "canastas": 3100,
                "threes": 200,
                "meld": 1450,
                "going_out": 100,
                "penalties": 0,
                "hand": 0,
            },
        ),
        (
            1225,
            {
                "canastas": 800,
                "threes": 100,
                "meld": 640,
                "going_out": 0,
                "penalties": -100,
                "hand": -215,
            },
        ),
    ]
    # The second round's minimum is 90, whatever the totals.
    assert [side["meld_minimum"] for side in answer["sides"]] == [90, 90]


@pytest.mark.parametrize("variant", ["burraco", "burraco-2"])
def test_the_burraco_worked_deal(client: FlaskClient, variant: str) -> None:
    sides = PAIRS if variant == "burraco" else [{"players": ["Ana"]}, {"players": ["Vera"]}]
    game_id, token = new_game(client, variant, sides)
    answer = record(
        client,
        game_id,
        token,
        {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "meld_points": 385},
        {"pot_missed": True, "meld_points": 140, "hand_points": 95},
    )
    # 200+100+100+385 = 785; 140-95-100 = -55.
    assert scored(answer) == [
        (785, {"canastas": 300, "meld": 385, "going_out": 100, "penalties": 0, "hand": 0}),
        (-55, {"canastas": 0, "meld": 140, "going_out": 0, "penalties": -100, "hand": -95}),
    ]
    assert [side["meld_minimum"] for side in answer["sides"]] == [0, 0]  # no minimum


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("variant", "result", "field", "words"),
    [
        (
            "american",
            {"natural_canastas": 1, "went_out": True, "meld_points": 100},
            "results.0.went_out",
            "2 canastas",
        ),
        (
            "american",
            {"natural_canastas": 2, "unfinished_aces": True, "went_out": True, "meld_points": 200},
            "results.0.unfinished_aces",
            "cannot go out",
        ),
        (
            "hand-and-foot",
            {"natural_canastas": 3, "mixed_canastas": 1, "went_out": True, "meld_points": 500},
            "results.0.went_out",
            "contract",
        ),
        (
            "burraco",
            {"natural_canastas": 1, "pot_missed": True, "went_out": True, "meld_points": 100},
            "results.0.pot_missed",
            "Pot never taken",
        ),
    ],
)
def test_going_out_without_what_it_needs_is_refused(
    client: FlaskClient, variant: str, result: Json, field: str, words: str
) -> None:
    game_id, token = new_game(client, variant)
    response = post_deal(client, game_id, token, result, {"hand_points": 50})
    body = assert_error(response, 422, field)
    assert words in body["fields"][field]
    assert get_game(client, game_id)["deals"] == []  # nothing recorded


@pytest.mark.parametrize(
    ("variant", "field", "value", "empty"),
    [
        ("hand-and-foot", "concealed", True, False),
        ("burraco", "concealed", True, False),
        ("american", "concealed", True, False),  # only with the house rule's bonus
        ("classic", "special_hand", "pairs", None),
        ("classic", "black_threes", 1, 0),
        ("burraco", "red_threes", 1, 0),
        ("american", "pot_missed", True, False),
        ("hand-and-foot", "unfinished_wild", True, False),
        ("burraco", "aces_canastas", 1, 0),
    ],
)
def test_a_field_the_rule_set_does_not_know_is_a_422_naming_it(
    client: FlaskClient, variant: str, field: str, value: object, empty: object
) -> None:
    game_id, token = new_game(client, variant)
    response = post_deal(client, game_id, token, {"meld_points": 100, field: value}, {})
    assert_error(response, 422, f"results.0.{field}")
    # Its empty value (0, false, null) is accepted and ignored.
    ok = post_deal(client, game_id, token, {"meld_points": 100, field: empty}, {"hand_points": 20})
    assert ok.status_code == 201, ok.get_json()
    assert field not in ok.get_json()["results"][0]


def test_american_asks_concealed_with_the_house_bonus(client: FlaskClient) -> None:
    game_id, token = new_game(client, "american", options={"concealed_going_out_bonus": 100})
    answer = record(
        client,
        game_id,
        token,
        {"natural_canastas": 2, "went_out": True, "concealed": True, "meld_points": 200},
        {"hand_points": 50},
    )
    assert answer["results"][0]["parts"]["going_out"] == 200  # 100 + 100 concealed


# --------------------------------------------------------------------------- ends


def test_a_hand_and_foot_game_ends_after_its_fourth_deal(client: FlaskClient) -> None:
    """RULES.md 14: four rounds at 50, 90, 120, 150; then the higher total wins."""
    game_id, token = new_game(client, "hand-and-foot")
    seen = []
    for deal in range(1, 5):
        answer = record(
            client,
            game_id,
            token,
            {"meld_points": 200, "hand_points": 50},  # 150 a round
            {"meld_points": 100, "hand_points": 60},  # 40 a round
        )
        seen.append((answer["results"][0]["meld_minimum"], answer["status"], answer["winner"]))
        assert answer["number"] == deal
    assert seen == [
        (50, "in_progress", None),
        (90, "in_progress", None),
        (120, "in_progress", None),
        (150, "finished", 0),
    ]
    game = get_game(client, game_id)
    assert [side["total"] for side in game["sides"]] == [600, 160]
    assert (game["status"], game["winner"]) == ("finished", 0)
    fifth = post_deal(client, game_id, token, {"meld_points": 100}, {"meld_points": 100})
    assert fifth.status_code == 409


def test_a_hand_and_foot_game_level_after_four_deals_is_drawn(client: FlaskClient) -> None:
    game_id, token = new_game(client, "hand-and-foot")
    for _ in range(4):
        answer = record(client, game_id, token, {"meld_points": 100}, {"meld_points": 100})
    assert (answer["status"], answer["winner"]) == ("finished", None)


def test_a_dream_hand_ends_the_game(client: FlaskClient) -> None:
    """RULES.md 13: a dream hand wins the game at once, whatever the totals."""
    game_id, token = new_game(client, "american")
    record(
        client,
        game_id,
        token,
        {"natural_canastas": 2, "went_out": True, "meld_points": 300},
        {"meld_points": 200, "natural_canastas": 1, "hand_points": 40},
    )
    answer = record(
        client,
        game_id,
        token,
        {"meld_points": 150, "hand_points": 30},
        {"special_hand": "dream_plus_5", "went_out": True},
    )
    assert answer["results"][1]["score"] == 8500
    assert (answer["status"], answer["winner"]) == ("finished", 1)


def test_a_special_hand_the_table_does_not_play_is_refused(client: FlaskClient) -> None:
    """Pagat's four special hands (a house rule): a dream hand is then not played."""
    pagat = {"pairs": 2500, "wild_pairs": 2000, "straight": 3000, "garbage": 2000}
    game_id, token = new_game(client, "american", options={"special_hands": pagat})
    refused = post_deal(
        client, game_id, token, {"special_hand": "dream_plus_4", "went_out": True}, {}
    )
    assert_error(refused, 422, "results.0.special_hand")
    answer = record(client, game_id, token, {"special_hand": "garbage", "went_out": True}, {})
    assert answer["results"][0]["score"] == 2000


# --------------------------------------------------------------------------- moving games


def _played(client: FlaskClient) -> list[tuple[str, str]]:
    """A game of each new rule set with a deal or more (its id and token): American ended
    by a dream hand, Hand and Foot after its four deals, Burraco going on."""
    american, american_token = new_game(client, "american")
    token = american_token
    record(
        client,
        american,
        token,
        {
            "natural_canastas": 1,
            "mixed_canastas": 1,
            "red_threes": 2,
            "black_threes": 1,
            "went_out": True,
            "meld_points": 420,
        },
        {"mixed_canastas": 1, "aces_or_sevens_held": 1, "meld_points": 250, "hand_points": 60},
    )
    record(client, american, token, {"special_hand": "dream_plus_4", "went_out": True}, {})
    hand_and_foot, hand_and_foot_token = new_game(client, "hand-and-foot")
    token = hand_and_foot_token
    for _ in range(4):
        record(
            client,
            hand_and_foot,
            token,
            {"natural_canastas": 2, "mixed_canastas": 2, "went_out": True, "meld_points": 900},
            {"red_threes": 1, "red_threes_in_hand": 1, "meld_points": 200, "hand_points": 80},
        )
    burraco, token = new_game(client, "burraco", options={"semi_natural_canasta_bonus": 150})
    record(
        client,
        burraco,
        token,
        {"semi_natural_canastas": 1, "natural_canastas": 1, "went_out": True, "meld_points": 300},
        {"pot_missed": True, "meld_points": 60, "hand_points": 70},
    )
    return [(american, american_token), (hand_and_foot, hand_and_foot_token), (burraco, token)]


def comparable(game: Json) -> Json:
    """A game without what an import gives anew (id, address, creation time)."""
    return {k: v for k, v in game.items() if k not in {"id", "url", "created_at"}}


def test_export_then_import_gives_the_same_game_of_each_rule_set(client: FlaskClient) -> None:
    statuses = []
    for game_id, _ in _played(client):
        document = client.get(f"/api/games/{game_id}/export").get_json()
        imported = client.post("/api/games/import", json=document)
        assert imported.status_code == 201, imported.get_json()
        copy = get_game(client, imported.get_json()["id"])
        original = get_game(client, game_id)
        assert comparable(copy) == comparable(original)  # scores, parts, totals, winner
        statuses.append((original["status"], original["winner"]))
    assert statuses == [("finished", 0), ("finished", 0), ("in_progress", None)]


def test_an_export_with_a_changed_figure_no_longer_matches(client: FlaskClient) -> None:
    """The new figures travel in the export: change one and the claimed totals disagree."""
    game_id = _played(client)[0][0]
    document = client.get(f"/api/games/{game_id}/export").get_json()
    document.pop("changes")
    document["deals"][0]["results"][1]["aces_or_sevens_held"] = 0
    response = client.post("/api/games/import", json=document)
    assert response.status_code == 422


def test_backup_and_restore_keep_the_new_figures(
    client: FlaskClient, runner: FlaskCliRunner, other: Flask, tmp_path: Path
) -> None:
    games = _played(client)
    before = {game_id: get_game(client, game_id) for game_id, _ in games}
    path = tmp_path / "club.json"
    done = runner.invoke(args=["backup", str(path)])
    assert done.exit_code == 0, done.output
    restored = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert restored.exit_code == 0, restored.output
    there = other.test_client()
    for game_id, game in before.items():
        assert get_game(there, game_id) == game
    burraco_id, burraco_token = games[2]
    burraco = before[burraco_id]
    assert burraco["deals"][0]["results"][0]["semi_natural_canastas"] == 1
    assert burraco["deals"][0]["results"][0]["parts"]["canastas"] == 350  # 150 + 200
    # The restored game still takes deals with its secret, under its house rule.
    answer = record(
        there,
        burraco_id,
        burraco_token,
        {"semi_natural_canastas": 1, "went_out": True, "meld_points": 120},
        {"meld_points": 40, "hand_points": 30},
    )
    assert answer["results"][0]["score"] == 370  # 150 + 100 + 120
