"""Every request goes through Flask: the app's hooks and limits apply to every answer; a
read of a game is one snapshot; unchanged games answer 304 to a phone that has them."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from flask import Flask, Response, g, request
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.extensions import limiter
from scorekeeper.store import db

from .conftest import app_for_tests
from .helpers.api import auth, get_game, new_game, result

DEAL = {"results": [result(120, hand=10), result(90, hand=15)]}


def test_a_hook_and_a_limit_added_to_the_app_apply_to_recording_a_deal(tmp_path: Any) -> None:
    """What a maintainer adds tomorrow (a request id, a rate limit on a view) is not passed
    by: the API's deal answers carry the hook's header and the limit holds."""
    app = app_for_tests(f"sqlite:///{tmp_path / 'hooks.sqlite'}", RATELIMIT_ENABLED=True)
    seen: list[str] = []

    @app.before_request
    def count() -> None:
        g.request_id = f"r{len(seen)}"
        seen.append(request.path)

    @app.after_request
    def stamp(response: Response) -> Response:
        response.headers["X-Request-Id"] = g.get("request_id", "")
        return response

    app.view_functions["api.record"] = limiter.limit("2 per minute")(
        app.view_functions["api.record"]
    )
    client = app.test_client()
    game_id, token = new_game(client)
    seen.clear()
    answers = [
        client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=auth(token)) for _ in range(5)
    ]
    assert [answer.status_code for answer in answers] == [201, 201, 429, 429, 429]
    assert len(seen) == 5
    for answer in answers:
        assert answer.headers["X-Request-Id"].startswith("r")
        assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert len(get_game(client, game_id)["deals"]) == 2


@pytest.mark.one_database  # headers: on SQLite alone
def test_every_kind_of_answer_carries_the_security_headers(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    recorded = client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=auth(token))
    shown = client.get(f"/api/games/{game_id}")
    etag = {"If-None-Match": shown.headers["ETag"]}
    unchanged = client.get(f"/api/games/{game_id}", headers=etag)
    answers = {
        "201": recorded,
        "200": shown,
        "304": unchanged,
        "404 JSON": client.get("/api/games/nosuchgame"),
        "404 page": client.get("/games/nosuchgame"),
        "403": client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=auth("wrong")),
    }
    assert [answer.status_code for answer in answers.values()] == [201, 200, 304, 404, 404, 403]
    for kind, answer in answers.items():
        assert answer.headers.get("X-Frame-Options") == "DENY", kind
        assert answer.headers.get("Referrer-Policy") == "no-referrer", kind
        assert answer.headers.get("X-Content-Type-Options") == "nosniff", kind


def test_the_api_answers_304_while_the_game_is_unchanged(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    first = client.get(f"/api/games/{game_id}")
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag.startswith('W/"')
    same = client.get(f"/api/games/{game_id}", headers={"If-None-Match": tag})
    assert same.status_code == 304 and same.data == b""
    client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=auth(token))
    changed = client.get(f"/api/games/{game_id}", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert len(changed.get_json()["deals"]) == 1
    # A rename of a player changes what the game shows: a new ETag.
    # The roster's first player (the page links the ladder, /players/ladder, too).
    first = re.search(r'href="/players/([0-9]+)"', client.get("/players").text)
    assert first is not None
    person = first[1]
    assert client.post(f"/games/{game_id}/join", data={"token": token}).status_code == 302
    assert client.post(f"/players/{person}/rename", data={"name": "Anka"}).status_code == 303
    etag = {"If-None-Match": changed.headers["ETag"]}
    renamed = client.get(f"/api/games/{game_id}", headers=etag)
    assert renamed.status_code == 200


VIEWS = {
    "sheet": ("/games/{id}", {}),
    "follower's poll": ("/games/{id}", {"HX-Request": "true"}),
    "JSON": ("/api/games/{id}", {}),
    "export": ("/api/games/{id}/export", {}),
    "CSV": ("/games/{id}/sheet.csv", {}),
}


@pytest.mark.parametrize("view", VIEWS)
def test_a_read_overlapping_a_deletion_sees_the_game_whole(app: Flask, view: str) -> None:
    """A phone deletes deal 3 between the read of the game's deals and the read of their
    entries: the read is one snapshot, so it shows the three deals whole (it answered 500,
    ``zip() argument 2 is shorter``, when each query saw the database anew)."""
    client = app.test_client()
    game_id, token = new_game(client, options={"target": 1_000_000})
    for _ in range(3):
        assert client.post(f"/api/games/{game_id}/deals", json=DEAL, headers=auth(token))
    with app.app_context():
        engine = db.engine
    deleted: list[int] = []

    def delete_meanwhile(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if (
            threading.current_thread().name == "reader"
            and statement.lstrip().startswith("SELECT deal_result")
            and not deleted
        ):
            other = threading.Thread(
                target=lambda: deleted.append(
                    app.test_client()
                    .delete(f"/api/games/{game_id}/deals/3", headers=auth(token))
                    .status_code
                )
            )
            other.start()
            other.join(20)

    path, headers = VIEWS[view]
    answers: list[Any] = []
    event.listen(engine, "before_cursor_execute", delete_meanwhile)
    try:
        reader = threading.Thread(
            target=lambda: answers.append(
                app.test_client().get(path.format(id=game_id), headers=headers)
            ),
            name="reader",
        )
        reader.start()
        reader.join(30)
    finally:
        event.remove(engine, "before_cursor_execute", delete_meanwhile)
    assert deleted == [200]
    (answer,) = answers
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    if view in ("JSON", "export"):
        assert len(answer.get_json()["deals"]) == 3
    elif view == "CSV":
        assert len(text.strip().splitlines()) == 1 + 3
    else:
        assert text.count('<th scope="row">') == 3
    # And the next read shows the deletion.
    assert len(get_game(client, game_id)["deals"]) == 2
