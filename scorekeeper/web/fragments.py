"""Rendered parts of the history and the player pages, kept in the worker's memory.

Their figures change only when a game does, yet rendering twenty games or a player's
tables costs many times what answering takes otherwise. A part is found by what it shows
(the filters and page, or the player) **and a version read from the database on every
request** (``store.history.data_version``, ``store.players.person_version``): a worker
never shows a part older than the database's, whichever worker changed a game. Parts are
rendered per language and per root path, and hold no CSRF token and no flashed message.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import current_app, request
from markupsafe import Markup

from ..i18n import current_language

#: Parts a worker keeps: a club's evening of history pages and player pages.
SIZE = 64


class Fragments:
    """The last ``size`` parts rendered, least recently used dropped first."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, Markup] = OrderedDict()
        self._lock = threading.Lock()

    def render(self, key: Hashable, make: Callable[[], str]) -> Markup:
        """The part ``key`` names, in this request's language: kept, or ``make``d now."""
        key = (key, current_language(), request.script_root)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        html = Markup(make())
        with self._lock:
            self._kept[key] = html
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return html


def fragments() -> Fragments:
    """This app's parts (each app its own: tests make many apps, on many databases)."""
    kept = current_app.extensions.get("fragments")
    if kept is None:
        kept = current_app.extensions["fragments"] = Fragments()
    return kept
