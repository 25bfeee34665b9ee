"""Answers kept whole, in front of the app: a repeated read costs one indexed row.

Most requests a club's server sees ask again for something that has not changed: a
follower's sheet polled every ten seconds, the scorer's phone reloading the sheet, the
history and the statistics between games. Rendering is already cheap for those (the
sheet, history and player parts are kept, see ``web/sheets.py`` and ``web/fragments.py``),
but the framework's own work for a request (routing, sessions, languages, CSRF, Babel,
compression, after-request hooks) then costs twice or three times a bare Flask view.

So each worker keeps, for a few pages, the last answers it gave **exactly as it sent them**
(status, headers, compressed body) and gives them again, without Flask, to a request that
is the same in every part the answer can depend on, as long as what the page shows has not
changed in the database:

- *the same request*: method, path, query string, scheme, and every request header
  (cookies, languages, encodings, ``HX-*``, ``If-None-Match``, ``Authorization``, the host)
  except a few that no view reads (``IGNORED``). A phone with a session has its own
  answers; two phones never share one that came from a session.
- *the same data*: each kept page names a **probe**, a query of one or two indexed rows
  that changes whenever anything the page shows does (the game's ``updated_at``; the
  newest change and count of games and of the roster; a player's ``changed_at``). The
  probe runs on **every** request, before the page is looked up, and an answer is given
  again only if the probe
  reads what it read before that answer was made: a worker never answers older than the
  database, whichever worker changed it.
- *an answer fit to give again*: 200 or 304, with no ``Set-Cookie`` (an answer that starts
  a session or pops a flashed message is never kept).

Everything else goes to Flask as before. What is kept is bounded in number and in bytes,
least recently used dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from flask import Flask
from sqlalchemy import TextClause, text
from sqlalchemy.engine import Engine
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

#: Request headers that no kept page reads, left out of a request's identity so that they
#: do not split what is kept (browsers send them with different values all the time).
IGNORED = frozenset(
    (
        "HTTP_USER_AGENT",
        "HTTP_CONNECTION",
        "HTTP_KEEP_ALIVE",
        "HTTP_CACHE_CONTROL",
        "HTTP_PRAGMA",
        "HTTP_REFERER",
        "HTTP_UPGRADE_INSECURE_REQUESTS",
        "HTTP_PRIORITY",
        "HTTP_DNT",
        "HTTP_SEC_FETCH_DEST",
        "HTTP_SEC_FETCH_MODE",
        "HTTP_SEC_FETCH_SITE",
        "HTTP_SEC_FETCH_USER",
        "HTTP_SEC_CH_UA",
        "HTTP_SEC_CH_UA_MOBILE",
        "HTTP_SEC_CH_UA_PLATFORM",
    )
)

#: Statuses worth giving again: the page, and "you have it already".
KEPT_STATUSES = frozenset(("200 OK", "304 NOT MODIFIED", "304 Not Modified"))


@dataclass(frozen=True)
class Probe:
    """A query that reads what a page's data looks like now, with the view's URL
    arguments as its parameters (``:game_id``)."""

    sql: str
    statement: TextClause = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "statement", text(self.sql))

    def read(self, engine: Engine, args: Mapping[str, object]) -> tuple[object, ...] | None:
        with engine.connect() as connection:
            if engine.dialect.name != "sqlite":
                # One round trip, not BEGIN, SELECT and ROLLBACK (a read needs no transaction).
                connection = connection.execution_options(isolation_level="AUTOCOMMIT")
            row = connection.execute(self.statement, dict(args)).first()
        return None if row is None else tuple(row)


#: A game: its last change (a rename of one of its players marks it changed too).
GAME = Probe("SELECT updated_at FROM game WHERE id = :game_id")
#: Every game and the roster: the newest change and how many there are of each.
EVERYTHING = Probe(
    "SELECT (SELECT max(updated_at) FROM game), (SELECT count(*) FROM game),"
    " (SELECT max(changed_at) FROM person), (SELECT count(*) FROM person)"
)
#: A player: their page's version, which a rename and every change of a game they sat in
#: move (``store.players.touch_people``; a rename also moves everyone who met them).
PERSON = Probe("SELECT changed_at FROM person WHERE id = :person_id")


@dataclass(frozen=True)
class Answer:
    """An answer as it was sent, and the probe's reading it was made after."""

    reading: tuple[object, ...] | None
    status: str
    headers: list[tuple[str, str]]
    body: bytes


Key = tuple[object, ...]
StartResponse = Callable[..., Any]


def request_key(environ: Mapping[str, Any]) -> Key:
    """Everything about a request that a kept page's answer may depend on."""
    headers = sorted(
        (name, value)
        for name, value in environ.items()
        if name.startswith("HTTP_") and name not in IGNORED
    )
    return (
        environ.get("wsgi.url_scheme"),
        environ.get("SCRIPT_NAME", ""),
        environ.get("PATH_INFO", ""),
        environ.get("QUERY_STRING", ""),
        tuple(headers),
    )


class KeptAnswers:
    """WSGI middleware: the last answers of the pages named in ``probes`` (endpoint ->
    probe), given again while their probe reads the same. At most ``size`` answers and
    ``max_bytes`` of bodies."""

    def __init__(
        self,
        app: Flask,
        probes: Mapping[str, Probe],
        size: int = 512,
        max_bytes: int = 32 * 1024 * 1024,
    ) -> None:
        self.app = app
        self.wsgi_app = app.wsgi_app
        self.probes = dict(probes)
        self.size = size
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Key, Answer] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        #: Answers given again, and answers Flask made for a kept page (for tests).
        self.hits = 0
        self.misses = 0

    @cached_property
    def engine(self) -> Engine:
        from .store.db import engine_of

        return engine_of(self.app)

    def _probe(self, environ: dict[str, Any]) -> tuple[Probe, Mapping[str, object]] | None:
        """The probe of the page this request asks for, with its URL arguments."""
        try:
            adapter = self.app.url_map.bind_to_environ(environ)
            endpoint, args = adapter.match()
        except (HTTPException, RequestRedirect):
            return None
        probe = self.probes.get(str(endpoint))
        return None if probe is None else (probe, args)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "GET":
            return self.wsgi_app(environ, start_response)
        found = self._probe(environ)
        if found is None:
            return self.wsgi_app(environ, start_response)
        probe, args = found
        try:
            reading = probe.read(self.engine, args)
        except Exception:
            return self.wsgi_app(environ, start_response)
        key = request_key(environ)
        with self._lock:
            answer = self._kept.get(key)
            if answer is not None and answer.reading == reading:
                self._kept.move_to_end(key)
                self.hits += 1
            else:
                answer = None
        if answer is not None:
            start_response(answer.status, list(answer.headers))
            return [answer.body]
        self.misses += 1
        return self._answer_and_keep(environ, start_response, key, reading)

    def _answer_and_keep(
        self,
        environ: dict[str, Any],
        start_response: StartResponse,
        key: Key,
        reading: tuple[object, ...] | None,
    ) -> Iterable[bytes]:
        sent: list[Any] = []

        def keep_start_response(status: str, headers: list[tuple[str, str]], *exc: Any) -> Any:
            sent[:] = [status, list(headers)]
            return start_response(status, headers, *exc)

        result = self.wsgi_app(environ, keep_start_response)
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        if sent and self._fit_to_keep(sent[0], sent[1], body):
            self._keep(key, Answer(reading, sent[0], sent[1], body))
        return [body]

    def _fit_to_keep(self, status: str, headers: list[tuple[str, str]], body: bytes) -> bool:
        if status not in KEPT_STATUSES or len(body) > self.max_bytes // 16:
            return False
        # ``Cache-Control: private, no-store`` (the scorer's sheet, which shows the scorer
        # link) speaks to the browser's and proxies' caches; here the answer is kept in the
        # server's memory and given only to a request with the same cookies and headers.
        return not any(name.lower() == "set-cookie" for name, _value in headers)

    def _keep(self, key: Key, answer: Answer) -> None:
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self._bytes -= len(old.body)
            self._kept[key] = answer
            self._bytes += len(answer.body)
            while len(self._kept) > self.size or self._bytes > self.max_bytes:
                _, dropped = self._kept.popitem(last=False)
                self._bytes -= len(dropped.body)


#: The pages kept, by endpoint, and what each shows from the database.
KEPT_PAGES: Mapping[str, Probe] = {
    "web.sheet": GAME,
    "api.show": GAME,
    "web.history_page": EVERYTHING,
    "web.index": EVERYTHING,
    "web.player": PERSON,
}


def init_app(app: Flask) -> None:
    """Put the kept answers in front of the app (``KEPT_ANSWERS = False`` leaves them out)."""
    if not app.config.get("KEPT_ANSWERS", True):
        return
    kept = KeptAnswers(app, KEPT_PAGES)
    app.extensions["kept_answers"] = kept
    app.wsgi_app = kept  # type: ignore[method-assign]
