"""The session cookie (Flask's own, issue 20): it outlives closing the browser, for 31 days
from its last change; it goes out only when the session changes, never with a static file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

from flask import Flask
from flask.testing import FlaskClient

from .helpers.pages import ACCEPT, played_game


def session_cookie(headers: list[str]) -> str | None:
    return next((value for value in headers if value.startswith("session=")), None)


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
