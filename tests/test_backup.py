"""Export a game as JSON and import it again: identical scores, totals and winner."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import CLASSIC, SideResult, errors_of, replay, validate_deal
from scorekeeper.store import changes, db
from scorekeeper.store.models import Game

from .helpers.api import auth, counts, get_game, new_game, post_deal, result
from .helpers.strategies import deals


def comparable(game: dict[str, Any]) -> dict[str, Any]:
    """A game without what an import gives anew (id, address, creation time)."""
    return {k: v for k, v in game.items() if k not in {"id", "url", "created_at"}}


def test_export_then_import_gives_the_same_game(client: FlaskClient) -> None:
    game_id, token = new_game(client, starts=(100, -50), options={"target": 3000})
    case_a = result(220, natural=1, mixed=1, red_threes=1, went_out=True, hand=10)
    case_b = result(150, red_threes=2, hand=85)
    assert post_deal(client, game_id, token, case_a, case_b).status_code == 201
    assert post_deal(client, game_id, token, case_b, case_a).status_code == 201
    exported = client.get(f"/api/games/{game_id}/export")
    assert exported.status_code == 200
    document = exported.get_json()
    assert document["format"] == "canasta-scorekeeper/1"
    imported = client.post("/api/games/import", json=document)
    assert imported.status_code == 201
    copy = imported.get_json()
    assert copy["id"] != game_id and copy["token"] != token
    assert comparable(get_game(client, copy["id"])) == comparable(get_game(client, game_id))


def test_a_long_game_exports_and_imports_whole(app: Flask, client: FlaskClient) -> None:
    """A long game's export is larger than any other request may be (64 KB), and imports
    all the same; an import is still bounded."""
    game_id, token = new_game(client, options={"target": 1_000_000})
    body = {"results": [result(150, hand=10), result(90, hand=15)]}
    document = client.get(f"/api/games/{game_id}/export").get_json()
    document["deals"] = [body] * 400
    document.pop("totals"), document.pop("winner")
    raw = json.dumps(document).encode()
    assert len(raw) > app.config["MAX_CONTENT_LENGTH"]
    imported = client.post("/api/games/import", data=raw, content_type="application/json")
    assert imported.status_code == 201, imported.get_json()
    copy = get_game(client, imported.get_json()["id"])
    assert len(copy["deals"]) == 400
    exported = client.get(f"/api/games/{copy['id']}/export").get_json()
    again = client.post("/api/games/import", json=exported)
    assert again.status_code == 201
    assert comparable(get_game(client, again.get_json()["id"])) == comparable(copy)
    # A deal body that large is refused, and so is an import past its own bound.
    deals = f"/api/games/{game_id}/deals"
    too_big = client.post(deals, data=raw, headers=auth(token), content_type="application/json")
    assert too_big.status_code == 413
    document["deals"] = [body] * 40_000
    huge = client.post("/api/games/import", json=document)
    assert huge.status_code == 413
    assert client.get("/api/games").get_json()["total"] == 3


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.lists(deals(), min_size=0, max_size=6),
    starts=st.tuples(*[st.integers(-200, 600).map(lambda n: n * 5)] * 2),
)
def test_round_trip_of_generated_games(
    client: FlaskClient, game: list[Any], starts: tuple[int, int]
) -> None:
    game_id, token = new_game(client, starts=starts)
    played: list[Any] = []
    for deal in game:
        if replay(CLASSIC, played, starts=starts).finished:
            break  # a finished game takes no more deals
        assert not errors_of(validate_deal(deal, CLASSIC))
        sides = [dataclasses.asdict(side) for side in deal]
        assert post_deal(client, game_id, token, *sides).status_code == 201
        played.append(deal)
    original = get_game(client, game_id)
    document = client.get(f"/api/games/{game_id}/export").get_json()
    copy = client.post("/api/games/import", json=document).get_json()
    assert comparable(get_game(client, copy["id"])) == comparable(original)


def test_bad_or_foreign_json_is_refused_and_changes_nothing(
    client: FlaskClient, app: Flask
) -> None:
    game_id, token = new_game(client)
    post_deal(client, game_id, token, result(150, red_threes=2, hand=85), result(90, hand=20))
    document = client.get(f"/api/games/{game_id}/export").get_json()
    before = counts(app)

    foreign = {"name": "some other app", "players": ["a", "b"]}
    assert client.post("/api/games/import", json=foreign).status_code == 422
    wrong_format = {**document, "format": "other/1"}
    assert client.post("/api/games/import", json=wrong_format).status_code == 422
    # A deal in the middle that breaks a rule (five red threes): nothing is created.
    broken = {
        **document,
        "deals": [
            *document["deals"],
            {"results": [result(90, red_threes=3, hand=20), result(90, red_threes=2, hand=20)]},
        ],
    }
    response = client.post("/api/games/import", json=broken)
    assert response.status_code == 422
    assert "deals.1.results.1.red_threes" in response.get_json()["fields"]
    assert (
        client.post("/api/games/import", data=b"{", content_type="application/json").status_code
        == 400
    )
    assert counts(app) == before


def test_an_imported_game_reads_as_written_in_the_same_session(app: Flask) -> None:
    """The store's import leaves the game it made as it wrote it: finished, its totals and
    version, read in the same session (a script that seeds games reads them straight on)."""
    won = [
        SideResult(meld_points=300, natural_canastas=1, mixed_canastas=1, went_out=True),
        SideResult(meld_points=50),
    ]
    with app.app_context():
        game_id, _token = changes.import_game(
            "classic",
            [changes.SideSpec("We", ["Ana", "Vera"]), changes.SideSpec("They", ["Boris", "Goran"])],
            {"target": 1000},
            0,
            [won],
        )
        game = db.session.get(Game, game_id)
        assert game is not None
        seen = (game.finished, game.version, [side.total for side in game.sides])
        db.session.expire_all()
        fresh = db.session.get(Game, game_id)
        assert fresh is not None
        assert seen == (True, fresh.version, [1200, 50])
        assert seen[2] == [side.total for side in fresh.sides]
