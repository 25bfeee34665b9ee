"""What the tests of the rule sets through the JSON API share (tests/test_variants_api.py,
tests/test_variants_api_house.py): games made and played through the API, and the
initial-meld tables of RULES.md written out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from .api import assert_error, get_game, minimums, post_deal, scores, totals

Json = dict[str, Any]

#: RULES.md section 2: below 0 -> 15; 0..1495 -> 50; 1500..2995 -> 90; 3000+ -> 120.
CLASSIC_TIERS: list[Json] = [
    {"from": None, "minimum": 15},
    {"from": 0, "minimum": 50},
    {"from": 1500, "minimum": 90},
    {"from": 3000, "minimum": 120},
]
#: RULES.md section 3: classic-6 needs 150 from 7500.
CLASSIC_6_TIERS: list[Json] = [*CLASSIC_TIERS, {"from": 7500, "minimum": 150}]
#: RULES.md section 5: <0 15; 0..4995 50; 5000..9995 90; 10000..14995 120; 15000+ 150.
RAILROAD_TIERS: list[Json] = [
    {"from": None, "minimum": 15},
    {"from": 0, "minimum": 50},
    {"from": 5000, "minimum": 90},
    {"from": 10_000, "minimum": 120},
    {"from": 15_000, "minimum": 150},
]


# --------------------------------------------------------------------------- helpers


def create(
    client: FlaskClient, variant: str, sides: list[Json], options: Json | None = None
) -> TestResponse:
    """POST /api/games."""
    body: Json = {"variant": variant, "sides": sides}
    if options is not None:
        body["options"] = options
    return client.post("/api/games", json=body)


def new_game(
    client: FlaskClient, variant: str, sides: list[Json], options: Json | None = None
) -> tuple[str, str, Json]:
    """Create a game; return its id, token and the created game."""
    response = create(client, variant, sides, options)
    assert response.status_code == 201, response.get_json()
    body: Json = response.get_json()
    return body["id"], body["token"], body


def alone(name: str, start: int = 0) -> Json:
    """A player alone: the side takes the player's name."""
    return {"players": [name], "start": start}


def team(name: str, players: list[str], start: int = 0) -> Json:
    return {"name": name, "players": players, "start": start}


def res(
    meld: int = 0,
    *,
    natural: int = 0,
    mixed: int = 0,
    wild: int | None = None,
    sevens: int | None = None,
    red: int = 0,
    out: bool = False,
    concealed: bool = False,
    hand: int = 0,
) -> Json:
    """One side's result; wild and sevens canastas only when given (Railroad)."""
    body: Json = {
        "meld_points": meld,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": red,
        "went_out": out,
        "concealed": concealed,
        "hand_points": hand,
    }
    if wild is not None:
        body["wild_canastas"] = wild
    if sevens is not None:
        body["sevens_canastas"] = sevens
    return body


def game_count(client: FlaskClient) -> int:
    count: int = client.get("/api/games").get_json()["total"]
    return count


# The worked cases of RULES.md section 8 (classic: 2 packs).
# A: 500 + 300 + 100 red three + 100 out + 220 - 10 = 1210
CASE_A = res(220, natural=1, mixed=1, red=1, out=True, hand=10)
# B: 2 x 100 red threes + 150 - 85 = 265
CASE_B = res(150, red=2, hand=85)
# E: 300 mixed + 95 - 40 = 355
CASE_E = res(95, mixed=1, hand=40)
# Railroad, section 8: 500 + 300 + 1000 + 1500 + 100 red three + 100 out + 600 - 0 = 4100
RAILROAD_OUT = res(600, natural=1, mixed=1, wild=1, sevens=1, red=1, out=True, hand=0)


def railroad(meld: int = 0, **figures: Any) -> Json:
    """A Railroad result: wild and sevens canastas always spelled out."""
    figures.setdefault("wild", 0)
    figures.setdefault("sevens", 0)
    return res(meld, **figures)


@dataclass(frozen=True)
class Step:
    """A deal to post and what the game shows after it (worked out by hand)."""

    results: list[Json]
    scores: list[int]
    totals: list[int]
    #: Each side's minimum for the next deal; None where RULES.md leaves it open.
    minimums: list[int | None]
    #: The winning side once this deal ends the game; None while it goes on.
    winner: int | None = None


def check_minimums(shown: list[int], expected: list[int | None]) -> None:
    assert len(shown) == len(expected)
    for got, want in zip(shown, expected, strict=True):
        if want is not None:
            assert got == want, (shown, expected)


def play(
    client: FlaskClient,
    variant: str,
    sides: list[Json],
    first_minimums: list[int | None],
    steps: list[Step],
) -> Json:
    """Create a game, post ``steps`` checking each, and return the finished game."""
    game_id, token, created = new_game(client, variant, sides)
    assert created["status"] == "in_progress"
    assert created["winner"] is None
    assert totals(created) == [side.get("start", 0) for side in sides]
    check_minimums(minimums(created), first_minimums)
    in_force = first_minimums
    for number, step in enumerate(steps, start=1):
        response = post_deal(client, game_id, token, *step.results)
        assert response.status_code == 201, response.get_json()
        deal = response.get_json()
        assert deal["number"] == number
        assert scores(deal) == step.scores
        assert totals(deal) == step.totals
        check_minimums(minimums(deal), step.minimums)
        check_minimums([r["meld_minimum"] for r in deal["results"]], in_force)
        finished = step.winner is not None
        assert deal["status"] == ("finished" if finished else "in_progress")
        assert deal["winner"] == step.winner
        assert finished == (number == len(steps))
        in_force = step.minimums
    game = get_game(client, game_id)
    last = steps[-1]
    assert game["status"] == "finished"
    assert game["winner"] == last.winner
    assert totals(game) == last.totals
    check_minimums(minimums(game), last.minimums)
    assert [scores(deal) for deal in game["deals"]] == [step.scores for step in steps]
    # A finished game takes no more deals, and the refusal changes nothing.
    assert_error(post_deal(client, game_id, token, *steps[-1].results), 409)
    assert get_game(client, game_id) == game
    return game
