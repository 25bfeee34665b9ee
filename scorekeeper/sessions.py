"""Sessions: Flask's signed cookies, always permanent, and never on a static file.

Their lifetime and flags are Flask's own settings (``create_app``); what is made here uses
Flask's public extension points alone (docs/LIBRARIES.md says why).
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import URLSafeTimedSerializer


class PermanentSession(SecureCookieSession):
    """A session that outlives closing the browser (the CSRF token in it with it), for
    Flask's PERMANENT_SESSION_LIFETIME, without a ``_permanent`` entry in every cookie."""

    permanent = True


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, permanent, and left off static files: a file that
    sets no cookie and does not vary on one is the same for everyone, so any cache may
    keep it. Flask sends the cookie when the session changes (SESSION_REFRESH_EACH_REQUEST
    is off)."""

    session_class = PermanentSession

    def __init__(self) -> None:
        self._signers: dict[tuple[object, ...], URLSafeTimedSerializer | None] = {}

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, made once per key set: Flask makes one for every request, and
        making one serializes a test value (8 µs, a sixth of opening a poll's session)."""
        keys = (app.secret_key, *(app.config["SECRET_KEY_FALLBACKS"] or ()))
        if keys not in self._signers:
            self._signers[keys] = super().get_signing_serializer(app)
        return self._signers[keys]

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if request.endpoint != "static":
            super().save_session(app, session, response)

    def get_cookie_secure(self, app: Flask) -> bool:
        """``Secure`` when SESSION_COOKIE_SECURE says so or the request came over HTTPS
        (behind a proxy, as ``FLASK_PROXY_FIX`` lets its ``X-Forwarded-Proto`` tell), as the
        scorer's and director's cookies: over plain HTTP at a table it stays without."""
        return super().get_cookie_secure(app) or request.is_secure


def init_app(app: Flask) -> None:
    """Give the app its session interface."""
    app.session_interface = SessionInterface()
