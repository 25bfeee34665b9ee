"""Conditional requests and the cache of rendered parts, both keyed by versions.

A game's version (``Game.version``) moves by one with every change of the game, in the
change's own transaction. A page that shows one game answers a phone that has it already
with 304 (a weak ETag from the version); a part of a page that is costly to render is kept
in Flask-Caching under a key that holds the version(s) of what it shows, so a change makes
a new key rather than invalidating an old one, and no worker can show a stale part.
"""

from __future__ import annotations

import copyreg
from collections.abc import Callable, Hashable
from types import MappingProxyType
from typing import TypeVar

from flask import Response, current_app, make_response, request
from flask.typing import ResponseReturnValue
from flask_caching import Cache

from .i18n import current_language
from .store import evenings, games, ratings
from .store.evenings import EveningView
from .store.games import Setup

cache = Cache()
T = TypeVar("T")


def read_only(items: dict[Hashable, object]) -> MappingProxyType[Hashable, object]:
    """A read-only mapping of ``items`` (as the rules' data hold them)."""
    return MappingProxyType(items)


# The cache keeps what it is given pickled, and the rules' data hold read-only mappings
# (an evening's rule set): pickle keeps one by its items, and gives it back read-only.
copyreg.pickle(MappingProxyType, lambda proxy: (read_only, (dict(proxy),)))


def conditional(etag: str, make: Callable[[], ResponseReturnValue]) -> Response:
    """The answer ``make`` gives, or 304 without calling it when the request's
    If-None-Match holds ``etag`` (a weak ETag: it names the content, not its bytes, so it
    holds for the compressed answer too)."""
    if request.if_none_match.contains_weak(etag):
        response = current_app.response_class(status=304)
    else:
        response = make_response(make())
    response.set_etag(etag, weak=True)
    # Phones keep it, and ask again each time (no-cache): the answer is a 304 or the news.
    response.cache_control.no_cache = True
    response.make_conditional(request)
    return response


def cached(key: tuple[Hashable, ...], make: Callable[[], T]) -> T:
    """What ``make`` gives (a rendered part of a page, a game's fixed facts), kept under
    ``key``, which holds the version(s) of what it shows, with the request's language and
    root path. A part that shows dates holds the time zone in its key (``i18n.zone_name``):
    the API never needs one, and reading it would open the session."""
    name = repr((*key, current_language(), request.script_root))
    value: T | None = cache.get(name)
    if value is None:
        value = make()
        cache.set(name, value)
    return value


def setup_of(game_id: str) -> Setup | None:
    """What never changes in a game (its rule set, sides and secret's hash), kept per
    game: a request to change it is read and checked without a query."""
    return cached(("setup", game_id), lambda: games.setup_of(game_id))


def rated_club() -> ratings.Club:
    """The club's ratings (people and pairs), rated again only when the finished games
    changed (their version): the pages and the API read the same. (The key names the
    pairs: a ``Club`` kept before they were rated has none.)"""
    return cached(("ratings", "pairs", ratings.version()), ratings.club)


def evening_view(evening_id: str, stamp: evenings.Stamp | None = None) -> EveningView | None:
    """An evening as its pages show it (``evenings.view``: every table's game read, the
    standings counted), built once per stamp (moved by every command of the evening and
    every change of one of its tables' games): the director's page, the room's screen,
    each player's guide and the results read the same. None for no such evening."""
    stamp = stamp or evenings.stamp_of(evening_id)
    if stamp is None:
        return None
    return cached(("evening-view", evening_id, stamp.key), lambda: evenings.view(evening_id))
