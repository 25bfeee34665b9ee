"""The session cookie (Flask's own, issue 20): it outlives closing the browser, for 31 days
from its last change; it goes out only when the session changes, never with a static file;
behind the proxy it is ``Secure`` over HTTPS, as every other cookie (issue 40)."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .conftest import app_for_tests, close
from .helpers.pages import ACCEPT, NAMES, played_game


def session_cookie(headers: list[str]) -> str | None:
    return next((value for value in headers if value.startswith("session=")), None)


@pytest.mark.one_database  # the session cookie: on SQLite alone
def test_the_session_lasts_31_days_and_is_sent_only_when_it_changes(
    app: Flask, client: FlaskClient
) -> None:
    game_id = played_game(client, deals=1)  # a flash message waits in the session
    shown = client.get(f"/games/{game_id}")  # ... and is shown: the session changed
    cookie = session_cookie(shown.headers.getlist("Set-Cookie"))
    assert cookie is not None and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    expires = parsedate_to_datetime(cookie.split("Expires=")[1].split(";")[0])
    assert abs(expires - (datetime.now(UTC) + timedelta(days=31))) < timedelta(minutes=5)
    kept = client.get_cookie("session")
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    assert kept is not None
    content = serializer.loads(kept.value)
    assert content["scoring"] == [game_id] and "_permanent" not in content  # no bytes for it

    # Read, not changed: no cookie on the page, the poll, the API or a static file.
    for path, headers in [
        (f"/games/{game_id}", {}),
        (f"/games/{game_id}", {"HX-Request": "true"}),
        (f"/api/games/{game_id}", {}),
        ("/static/app.css", ACCEPT),
    ]:
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200, path
        assert session_cookie(answer.headers.getlist("Set-Cookie")) is None, path


#: A new evening as a director fills it in (tests/test_evening_pages.py has the same).
EVENING = {
    "name": "Tuesday club",
    "variant": "classic",
    "format": "pairs",
    "players": "Ana, Boris\nVera, Goran\nDana, Ivo\nMila, Petar",
    "rounds": "2",
    "deals_per_round": "2",
}


def _set_cookies(client: FlaskClient, headers: dict[str, str]) -> dict[str, str]:
    """Every cookie set by a new game, a new evening and a language switch, by name."""
    game = client.post(
        "/games/new",
        data={
            "sides-0-name": "We",
            "sides-1-name": "They",
            **{f"players-{i}": name for i, name in enumerate(NAMES)},
            "first_dealer": "0",
            "target": "5000",
        },
        headers=headers,
    )
    assert game.status_code == 302, game.get_data(as_text=True)
    evening = client.post("/evenings/new", data=EVENING, headers=headers)
    assert evening.status_code == 302, evening.get_data(as_text=True)
    language = client.get("/language/sk", headers=headers)
    assert language.status_code == 302
    cookies = [
        value
        for answer in (game, evening, language)
        for value in answer.headers.getlist("Set-Cookie")
    ]
    return {value.split("=", 1)[0]: value for value in cookies}


@pytest.mark.parametrize("https", [True, False], ids=["https", "http"])
def test_behind_the_proxy_every_cookie_follows_the_requests_scheme(
    sqlite_template: Path, tmp_path: Path, https: bool
) -> None:
    """FLASK_PROXY_FIX=1 (README, docs/DEPLOY.md): a request the proxy says came over
    HTTPS gets every cookie ``Secure``, the session's as the scorer's and the director's;
    a plain HTTP one (``make run`` on a LAN) gets none ``Secure``, or no phone could keep
    its session."""
    path = tmp_path / "proxied.sqlite"
    shutil.copyfile(sqlite_template, path)
    app = app_for_tests(f"sqlite:///{path}", PROXY_FIX=1, AUTO_MIGRATE=False)
    try:
        headers = {"X-Forwarded-Proto": "https"} if https else {}
        cookies = _set_cookies(app.test_client(), headers)
        assert {"session", "scorer", "director"} <= set(cookies), cookies
        for name, value in cookies.items():
            assert ("; Secure" in value) is https, (name, value)
    finally:
        close(app)
