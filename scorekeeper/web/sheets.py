"""Score sheets recently shown, kept in the worker's memory.

Every poll of a follower's phone, and every reload of the scorer's, asks for a sheet that
has mostly not changed since the last time. Loading a game and its deals through the ORM,
replaying it and rendering its deals costs ten to a hundred times what answering takes
otherwise, so each worker keeps the last few games it showed: the game as loaded (detached
from the database session, so nothing expires or changes it), its replayed state, its chart,
and the live part of the sheet rendered per language and per kind of viewer.

An entry is found by the game's id and its version (``updated_at``, the followers' ETag),
which the sheet reads from the database on every request, one indexed row: a worker never
shows a sheet older than the database's, whichever worker recorded the change.

An answer made only of such a cached part also names itself to Flask-Compress
(``compress_as``), which then keeps its compressed bytes (``CompressedCache``) instead of
compressing the same bytes again for every follower.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Response, current_app, render_template, request
from markupsafe import Markup
from werkzeug.wrappers import Request

from ..i18n import current_language
from ..store import db
from ..store.games import Sheet, sheet_of, version_of
from ..store.models import Game
from .chart import Chart, running_totals

#: Games a worker keeps: the club's tables of an evening, and then some.
SIZE = 32


@dataclass
class Shown:
    """A game's sheet at one version, and its live part as rendered so far."""

    sheet: Sheet
    chart: Chart | None
    version: str
    #: The live part by (language, may the viewer score, the app's root path).
    fragments: dict[tuple[str, bool, str], Markup] = field(default_factory=dict)
    #: The game as the API's JSON by the app's root path (it speaks no language).
    documents: dict[str, bytes] = field(default_factory=dict)

    def json(self, make: Callable[[], Response]) -> Response:
        """The game as JSON, as ``make`` answers it (made once per root path); named for
        Flask-Compress's cache too."""
        root = request.script_root
        body = self.documents.get(root)
        if body is None:
            body = self.documents[root] = make().get_data()
        compress_as(f"api;{root};{self.sheet.game.id};{self.version}")
        return current_app.response_class(body, mimetype=current_app.json.mimetype)  # type: ignore[attr-defined]

    def live(self, can_score: bool) -> Markup:
        """The part of the sheet that changes with each deal (``games/_live.html``)."""
        key = (current_language(), can_score, request.script_root)
        html = self.fragments.get(key)
        if html is None:
            html = Markup(
                render_template(
                    "games/_live.html", sheet=self.sheet, can_score=can_score, chart=self.chart
                )
            )
            self.fragments[key] = html
        return html


class SheetCache:
    """The last ``size`` games shown, least recently shown dropped first."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._shown: OrderedDict[str, Shown] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: str) -> Shown | None:
        with self._lock:
            shown = self._shown.get(game_id)
            if shown is None or shown.version != version:
                return None
            self._shown.move_to_end(game_id)
            return shown

    def put(self, game: Game) -> Shown:
        """The sheet of a game just loaded, kept for the next requests. The game leaves the
        database session: what is shown later never changes or expires with it."""
        sheet = sheet_of(game)
        shown = Shown(sheet, running_totals(sheet.state), version_of(game))
        db.session.expunge(game)
        with self._lock:
            self._shown[game.id] = shown
            self._shown.move_to_end(game.id)
            while len(self._shown) > self.size:
                self._shown.popitem(last=False)
        return shown


#: Where a view names its answer for Flask-Compress's cache (the WSGI environ).
COMPRESSED_AS = "scorekeeper.compressed_as"


def compress_as(name: str) -> None:
    """Say that this request's answer is the same bytes for every request that names it
    so (a game's version is in the name): its compressed form may be kept. (On the
    request, not on ``g``, which an app context can share between requests.)"""
    request.environ[COMPRESSED_AS] = name


def compressed_key(request: Request) -> str:
    """COMPRESS_CACHE_KEY: the name the view gave its answer, or "" (not to be kept)."""
    return str(request.environ.get(COMPRESSED_AS, ""))


class CompressedCache:
    """COMPRESS_CACHE_BACKEND: compressed answers by Flask-Compress's key (algorithm, then
    ``compressed_key``); answers with no name are never kept. A few dozen, least recently
    used dropped first."""

    def __init__(self, size: int = 2 * SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def set(self, key: str, value: bytes) -> None:
        _algorithm, _, name = key.partition(";")
        if not name:
            return
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


def sheet_cache() -> SheetCache:
    """This app's cache (each app its own: tests make many apps, on many databases)."""
    cache = current_app.extensions.get("sheet_cache")
    if cache is None:
        cache = current_app.extensions["sheet_cache"] = SheetCache()
    return cache
