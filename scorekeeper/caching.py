"""Conditional requests and the cache of rendered parts, both keyed by versions.

A game's version (``Game.version``) moves by one with every change of the game, in the
change's own transaction. A page that shows one game answers a phone that has it already
with 304 (a weak ETag from the version); a part of a page that is costly to render is kept
in Flask-Caching with the version(s) of what it shows, and used only at those versions, so
no worker can show a stale part. The part made at the next version takes the old one's
place: a game keeps one entry per part, not one per deal (docs/PERFORMANCE.md, "The
cache's size").
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


def cached(key: tuple[Hashable, ...], make: Callable[[], T], at: Hashable = None) -> T:
    """What ``make`` gives (a rendered part of a page, a game's fixed facts), kept under
    ``key`` with the request's language and root path, and ``at``: the version(s) of what
    it shows (None for what never changes). Kept at another version, it is made anew and
    replaces that one. A part that shows dates holds the time zone in its key
    (``i18n.zone_name``): the API never needs one, and reading it would open the session."""
    name = repr((*key, current_language(), request.script_root))
    kept: tuple[Hashable, T] | None = cache.get(name)
    if kept is not None and kept[0] == at:
        return kept[1]
    value = make()
    cache.set(name, (at, value))
    return value


def setup_of(game_id: str) -> Setup | None:
    """What never changes in a game (its rule set, sides and secret's hash), kept per
    game: a request to change it is read and checked without a query."""
    return cached(("setup", game_id), lambda: games.setup_of(game_id))


def rated_club() -> ratings.Club:
    """The club's ratings (people and pairs), rated again only when the finished games
    changed (their version): the pages and the API read the same. (The key names the
    pairs: a ``Club`` kept before they were rated has none.)"""
    return cached(("ratings", "pairs"), ratings.club, at=ratings.version())


def evening_view(evening_id: str, stamp: evenings.Stamp | None = None) -> EveningView | None:
    """An evening as its pages show it (``evenings.view``: every table's game read, the
    standings counted), built once per stamp (moved by every command of the evening and
    every change of one of its tables' games): the director's page, the room's screen,
    each player's guide and the results read the same. None for no such evening."""
    stamp = stamp or evenings.stamp_of(evening_id)
    if stamp is None:
        return None
    return cached(("evening-view", evening_id), lambda: evenings.view(evening_id), at=stamp.key)
