"""The API's busiest write, a deal recorded at the end of a game, answered in front of Flask.

``POST /api/games/<id>/deals`` spends about two fifths of its time in Flask's request
machinery and the app's hooks (a request context, routing, the session, CSRF, compression
and rate-limit hooks, a response object): 0.27 of 0.71 ms in one process, for a view whose
own work is a read, a few writes and a commit. This middleware takes the request first and,
when it is the plain case, does what the view (``api.record``) does with the view's own
steps: ``_results`` reads the body, the deal recorder checks, scores and saves it,
``_appended_answer`` says what happened. It answers 201 with the bytes and headers the view
sends (a test compares them).

Everything else goes to Flask untouched, with nothing written: a body that is not a deal,
no bearer token or a wrong one, an unknown or finished game, a broken rule, a busy database,
an ``Idempotency-Key`` (the view answers a retry as the first time), a cookie (the view's
answer may renew the session's). The shortcut answers nothing but a recorded deal; every
refusal is the view's. Once a deal is saved its answer is given here, through Flask's own
response handling when it is not the plain case (a deal with warnings, worded in the
request's language; an answer long enough to compress). A database error before the deal
is saved goes to the view too; one after it is not retried (it would record the deal twice).
``RECORDING_SHORTCUT = False`` leaves the shortcut out.

It stands aside (``plain_pipeline``, looked at on the first request) when the app puts
anything before the view that it does not do itself: a trusted-hosts check, an app-wide
rate limit, a request hook other than the CSRF check (the API is exempt from it).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from flask import Flask, jsonify
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wsgi import get_content_length

from ..store.db import engine_of
from ..store.games import token_matches
from ..store.recording import Appended, Busy, recorder
from ..store.refusal import Refusal
from . import ApiError, _appended_answer, _results

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: The view's route, for the game ids the app makes (any other id: the view's 404).
DEALS = re.compile(r"/api/games/(?P<game_id>[A-Za-z0-9_-]{1,32})/deals")
#: Requests with these go to the view: a retry key (answered as the first time), and
#: cookies (the view's answer may renew the session's).
PLAIN_CASE_HEADERS = frozenset({"HTTP_IDEMPOTENCY_KEY", "HTTP_COOKIE"})


class RecordingShortcut:
    """WSGI middleware: the plain ``POST /api/games/<id>/deals``, answered before Flask."""

    def __init__(self, app: Flask, wsgi_app: WSGIApplication) -> None:
        self.app = app
        self.wsgi_app = wsgi_app

    @cached_property
    def plain(self) -> bool:
        return plain_pipeline(self.app)

    @cached_property
    def engine(self) -> Engine:
        return engine_of(self.app)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if (
            environ.get("REQUEST_METHOD") == "POST"
            and PLAIN_CASE_HEADERS.isdisjoint(environ)
            and environ.get("HTTP_AUTHORIZATION", "")[:7].lower() == "bearer "
            and self.plain
        ):
            found = DEALS.fullmatch(environ.get("PATH_INFO", ""))
            if found is not None:
                body = self._body(environ)
                appended = None if body is None else self._record(found["game_id"], body, environ)
                if appended is not None:
                    return self._answer(appended, environ, start_response)
        return self.wsgi_app(environ, start_response)

    def _body(self, environ: WSGIEnvironment) -> Any:
        """The request's JSON, or None (the view then reads the body and says what is
        wrong). The body read here is handed on to Flask as it came."""
        length = get_content_length(environ)  # as Werkzeug reads it; None: chunked
        most = self.app.config.get("MAX_CONTENT_LENGTH")
        if not length or (most is not None and length > most):
            return None
        raw = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(raw)
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None

    def _record(self, game_id: str, body: Any, environ: WSGIEnvironment) -> Appended | None:
        """The deal recorded as the view records it; None when the view should answer."""
        token = environ["HTTP_AUTHORIZATION"].partition(" ")[2].strip()
        appended = None
        try:
            with recorder(self.engine) as saving:
                game = saving.head(game_id)
                if game is None or game.finished or not token_matches(game, token):
                    return None
                appended = saving.append(game, _results(body, game.rules))
        except (ApiError, Refusal, Busy):
            return None  # nothing was written: the view refuses, or tries again
        except SQLAlchemyError:
            if appended is None:
                return None  # nothing was written: the view tries, and answers a failure
            raise  # the deal is saved: it must not be recorded again
        return appended

    def _answer(
        self, appended: Appended, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes]:
        app = self.app
        if not appended.warnings:
            answer = _appended_answer(appended)
            compact = app.json.compact  # type: ignore[attr-defined]
            if not (compact is False or (compact is None and app.debug)):
                data = f"{app.json.dumps(answer, separators=(',', ':'))}\n".encode()
                if len(data) < app.config["COMPRESS_MIN_SIZE"]:
                    # As ``jsonify`` and the app's hooks answer it: short, so not compressed.
                    start_response(
                        "201 CREATED",
                        [
                            ("Content-Type", app.json.mimetype),  # type: ignore[attr-defined]
                            ("Content-Length", str(len(data))),
                            ("Vary", "Accept-Encoding"),
                        ],
                    )
                    return [data]
        # Warnings in the request's language, or an answer to compress: Flask's own way.
        with app.request_context(environ):
            response = app.make_response((jsonify(_appended_answer(appended)), 201))
            response = app.process_response(response)
        return response(environ, start_response)


#: Request hooks the shortcut may pass by: the CSRF check (the API is exempt from it) and,
#: in debug mode, the static files' refresh.
PASSED_HOOKS = frozenset({"csrf_protect", "refresh"})


def plain_pipeline(app: Flask) -> bool:
    """Whether the view's requests meet nothing before it that the shortcut does not do:
    no trusted-hosts check, no hook but ``PASSED_HOOKS`` (an app-wide rate limit is one:
    ``create_app`` keeps Flask-Limiter's check only then), no URL value preprocessor."""
    if app.config.get("TRUSTED_HOSTS"):
        return False
    for scope in (None, "api"):
        if app.url_value_preprocessors.get(scope):
            return False
        for hook in app.before_request_funcs.get(scope, ()):
            if getattr(hook, "__name__", None) not in PASSED_HOOKS:
                return False
    return True


def init_app(app: Flask) -> None:
    """Put the shortcut in front of Flask (inside the security headers and kept answers)."""
    if app.config.get("RECORDING_SHORTCUT", True):
        app.wsgi_app = RecordingShortcut(app, app.wsgi_app)  # type: ignore[method-assign]
