"""A deal recorded through the API is answered before Flask when it is the plain case
(``api/shortcut.py``): with the status, headers and bytes the view sends, whatever the
deal, the language or the length of the answer; every other request is the view's, and
the shortcut writes nothing for it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import db
from scorekeeper.store.recording import Busy, Recorder

from .conftest import app_for_tests
from .test_api import auth, game_body, get_game, result

Json = Any
CYRILLIC = re.compile("[\u0400-\u04ff]")

CASE_A = result(220, natural=1, mixed=1, red_threes=1, went_out=True, hand=10)
CASE_B = result(150, red_threes=2, hand=85)
#: The other side melded nothing and counted no cards: recorded, with a warning.
WARNED = [result(300, natural=1, went_out=True), result(0, hand=0)]
CLASSIC_DEALS = [
    [CASE_A, CASE_B],
    WARNED,
    [result(50, hand=5), result(90, hand=10)],
    [result(300, natural=2, went_out=True, concealed=True), result(120, hand=40)],
    [CASE_B, CASE_A],
]
RAILROAD = {
    "variant": "railroad",
    "sides": [{"players": [name]} for name in ("Ana", "Vera", "Ivo", "Lina", "Marko", "Petra")],
}
RAILROAD_DEALS = [[result(50 + 5 * n, hand=10 + 5 * n) for n in range(6)]] * 2


@pytest.fixture
def view_app(app: Flask) -> Iterator[Flask]:
    """The same database served without the shortcut: the view answers every deal."""
    second = app_for_tests(app.config["SQLALCHEMY_DATABASE_URI"], RECORDING_SHORTCUT=False)
    yield second
    with second.app_context():
        db.session.remove()
        db.engine.dispose()


def count_view_calls(app: Flask) -> list[str]:
    """From now on, the games whose deal the view (``api.record``) answers in ``app``."""
    calls: list[str] = []
    view = app.view_functions["api.record"]

    def counted(game_id: str) -> Any:
        calls.append(game_id)
        return view(game_id)

    app.view_functions["api.record"] = counted
    return calls


@pytest.fixture
def view_calls(app: Flask) -> list[str]:
    """The games whose deal the view answered, in the app with the shortcut."""
    return count_view_calls(app)


def as_sent(response: Any) -> tuple[str, list[tuple[str, str]], bytes]:
    """An answer as the client receives it: status, headers in order, bytes."""
    return response.status, list(response.headers.items()), response.get_data()


def created(client: FlaskClient, body: Json) -> tuple[str, str]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"], response.get_json()["token"]


@pytest.mark.parametrize(
    ("body", "deals"), [(game_body(), CLASSIC_DEALS), (RAILROAD, RAILROAD_DEALS)]
)
def test_the_shortcut_answers_each_deal_as_the_view_does(
    app: Flask, view_app: Flask, view_calls: list[str], body: Json, deals: list[list[Json]]
) -> None:
    """Two games alike, one recorded through the view and one through the shortcut: every
    answer is the same status, the same headers in the same order and the same bytes (a
    warning in the request's language; a six-player answer compressed)."""
    shortcut, view = app.test_client(), view_app.test_client()
    ours, theirs = created(shortcut, body), created(view, body)
    compressed = False
    for number, deal in enumerate(deals):
        headers = {"Accept-Encoding": "gzip, br"}
        if number % 2:
            headers["Accept-Language"] = "ru"
        answers = [
            client.post(
                f"/api/games/{game_id}/deals",
                json={"results": deal},
                headers={**headers, **auth(token)},
            )
            for client, (game_id, token) in ((shortcut, ours), (view, theirs))
        ]
        first, second = answers
        assert first.status_code == 201, first.get_data()
        assert as_sent(first) == as_sent(second)
        compressed |= "Content-Encoding" in first.headers
    assert view_calls == []  # the app with the shortcut never entered the view
    assert get_game(shortcut, ours[0])["sides"] == get_game(view, theirs[0])["sides"]
    assert compressed or body is not RAILROAD  # six sides' answer is long enough


def test_a_warned_deal_is_worded_in_the_request_language(
    client: FlaskClient, view_calls: list[str]
) -> None:
    game_id, token = created(client, game_body())
    answer = client.post(
        f"/api/games/{game_id}/deals",
        json={"results": WARNED},
        headers={**auth(token), "Accept-Language": "ru"},
    )
    assert answer.status_code == 201
    warnings = answer.get_json()["warnings"]
    assert warnings and all(CYRILLIC.search(warning["message"]) for warning in warnings)
    assert view_calls == []


def refusals(game_id: str, token: str) -> list[tuple[dict[str, Any], int]]:
    """Requests the view must answer, with the status it answers them with."""
    url = f"/api/games/{game_id}/deals"
    deal = {"results": [CASE_A, CASE_B]}
    return [
        ({"path": url, "json": deal, "headers": auth("not-the-token")}, 403),
        ({"path": url, "json": deal}, 403),
        ({"path": url, "json": deal, "headers": {"Authorization": f"Basic {token}"}}, 403),
        ({"path": "/api/games/no-such-game/deals", "json": deal, "headers": auth(token)}, 404),
        ({"path": url, "data": b"{not json", "headers": auth(token)}, 400),
        ({"path": url, "data": b"\xff\xfe", "headers": auth(token)}, 400),
        ({"path": url, "json": [1, 2], "headers": auth(token)}, 400),
        ({"path": url, "json": {"results": [CASE_A]}, "headers": auth(token)}, 422),
        (
            {
                "path": url,
                "json": {"results": [CASE_A, result(-5)]},
                "headers": auth(token),
            },
            422,
        ),
        (
            {
                "path": url,
                "json": {"results": [CASE_A, {**CASE_B, "jokers": 2}]},
                "headers": auth(token),
            },
            422,
        ),
        # Both sides went out: a broken rule the rules engine finds.
        ({"path": url, "json": {"results": [CASE_A, CASE_A]}, "headers": auth(token)}, 422),
    ]


def test_everything_but_a_recorded_deal_is_the_views_answer(
    client: FlaskClient, view_calls: list[str]
) -> None:
    game_id, token = created(client, game_body())
    for request, status in refusals(game_id, token):
        path = request.pop("path")
        before = len(view_calls)
        answer = client.post(path, **request)
        assert answer.status_code == status, (path, request, answer.get_data())
        assert set(answer.get_json()) == {"error", "fields"}
        assert len(view_calls) == before + 1, (path, request)
    assert get_game(client, game_id)["deals"] == []  # nothing was recorded meanwhile


def test_a_retry_key_and_a_finished_game_are_the_views(
    client: FlaskClient, view_calls: list[str]
) -> None:
    game_id, token = created(client, {**game_body(), "options": {"target": 1000}})
    keyed = {**auth(token), "Idempotency-Key": "deal-1"}
    first = client.post(
        f"/api/games/{game_id}/deals", json={"results": [CASE_A, CASE_B]}, headers=keyed
    )
    again = client.post(
        f"/api/games/{game_id}/deals", json={"results": [CASE_A, CASE_B]}, headers=keyed
    )
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert first.get_json()["status"] == "finished"  # 1210 passes the table's 1000
    assert len(view_calls) == 2
    over = client.post(
        f"/api/games/{game_id}/deals", json={"results": [CASE_A, CASE_B]}, headers=auth(token)
    )
    assert over.status_code == 409
    assert len(view_calls) == 3
    assert len(get_game(client, game_id)["deals"]) == 1


def test_a_deal_posted_with_cookies_is_the_views(
    app: Flask, client: FlaskClient, view_calls: list[str]
) -> None:
    """A browser's session may be renewed by the view's answer: with cookies, the view."""
    game_id, token = created(client, game_body())
    client.set_cookie("theme", "dark")
    answer = client.post(
        f"/api/games/{game_id}/deals", json={"results": [CASE_A, CASE_B]}, headers=auth(token)
    )
    assert answer.status_code == 201
    assert view_calls == [game_id]


def test_a_game_winning_deal_answers_as_the_view_does(app: Flask, view_app: Flask) -> None:
    """The deal that ends the game: its status, winner and no next dealer, alike."""
    shortcut, view = app.test_client(), view_app.test_client()
    body = {**game_body(), "options": {"target": 1000}}
    answers = []
    for client in (shortcut, view):
        game_id, token = created(client, body)
        answers.append(
            client.post(
                f"/api/games/{game_id}/deals",
                json={"results": [CASE_A, CASE_B]},
                headers=auth(token),
            )
        )
    first, second = answers
    assert first.get_json()["status"] == "finished"
    assert first.get_json()["next_dealer"] is None
    assert as_sent(first) == as_sent(second)


def test_a_deal_the_shortcut_could_not_save_is_saved_once_by_the_view(
    client: FlaskClient, view_calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another phone saved meanwhile (``Busy``): nothing written, the view tries again."""
    append = Recorder.append
    tries: list[int] = []

    def busy_first(self: Recorder, *args: Any, **kwargs: Any) -> Any:
        tries.append(1)
        if len(tries) == 1:
            raise Busy
        return append(self, *args, **kwargs)

    monkeypatch.setattr(Recorder, "append", busy_first)
    game_id, token = created(client, game_body())
    answer = client.post(
        f"/api/games/{game_id}/deals", json={"results": [CASE_A, CASE_B]}, headers=auth(token)
    )
    assert answer.status_code == 201
    assert answer.get_json()["number"] == 1
    assert view_calls == [game_id]
    assert len(get_game(client, game_id)["deals"]) == 1


def a_hook() -> None:
    """A request hook the shortcut knows nothing of."""


@pytest.mark.parametrize(
    ("config", "host", "status"),
    [
        ({"TRUSTED_HOSTS": ["scores.example"]}, "elsewhere.example", 400),
        ({"RATELIMIT_ENABLED": True, "RATELIMIT_DEFAULT": "1 per hour"}, "localhost", 429),
        ({}, "localhost", 201),  # with a hook of its own (added below)
    ],
)
def test_the_shortcut_stands_aside_for_what_flask_checks_first(
    app: Flask, config: dict[str, Any], host: str, status: int
) -> None:
    """A trusted-hosts check, an app-wide rate limit or a request hook the shortcut does not
    know: the view answers every deal, as that check decides."""
    other = app_for_tests(app.config["SQLALCHEMY_DATABASE_URI"], **config)
    try:
        if not config:
            other.before_request(a_hook)
        calls = count_view_calls(other)
        client = other.test_client()
        game_id, token = created(app.test_client(), game_body())
        url = f"/api/games/{game_id}/deals"
        deal = {"results": [CASE_A, CASE_B]}
        client.post(url, json=deal, headers=auth(token), base_url=f"http://{host}")
        answer = client.post(url, json=deal, headers=auth(token), base_url=f"http://{host}")
        assert answer.status_code == status
        recorded = len(get_game(app.test_client(), game_id)["deals"])
        assert recorded == {400: 0, 429: 1, 201: 2}[status]
        assert len(calls) == recorded  # every deal saved was the view's
    finally:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()
