"""Request keys (a page form's nonce, an API ``Idempotency-Key``), remembered with the
change a request made: ``earlier`` finds the change a key made in a game (``made_by`` what
a key made elsewhere, ``evening_earlier`` an evening's command), so that a retried request
answers as the first time and changes nothing, even after that change was undone or its
deal deleted; the key sent with another request is refused (``Why.REUSED``). The commit
step (``commit``) keeps each key with its change's log entry.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Executable, Row, bindparam, select

from ...rules.text import T, Text
from ..db import db
from ..errors import Refused, Why
from ..log import describe, describe_evening
from ..models import Change, EveningChange

CHANGE = Change.__table__
EVENING_CHANGE = EveningChange.__table__
_EARLIER_COLUMNS = (
    CHANGE.c.id,
    CHANGE.c.kind,
    CHANGE.c.deal_seq,
    CHANGE.c.deal_number,
    CHANGE.c.after,
    CHANGE.c.undoes,
    CHANGE.c.request_hash,
)
_EARLIER = select(*_EARLIER_COLUMNS).where(
    CHANGE.c.request_key == bindparam("key"), CHANGE.c.game_id == bindparam("game_id")
)
#: A key of a change of several games, kept with the first game's entry.
_EARLIER_AMONG = (
    select(*_EARLIER_COLUMNS)
    .where(
        CHANGE.c.request_key == bindparam("key"),
        CHANGE.c.game_id.in_(bindparam("games", expanding=True)),
    )
    .limit(1)
)
_EVENING_EARLIER = select(
    EVENING_CHANGE.c.id,
    EVENING_CHANGE.c.kind,
    EVENING_CHANGE.c.round,
    EVENING_CHANGE.c.request_hash,
).where(
    EVENING_CHANGE.c.request_key == bindparam("key"),
    EVENING_CHANGE.c.evening_id == bindparam("evening_id"),
)


@dataclass(frozen=True)
class RequestKey:
    """A request's key and its fingerprint: what it asked, as ``fingerprint`` writes it."""

    key: str
    fingerprint: str


def fingerprint(route: str, *asked: object) -> str:
    """What a request asked, as a SHA-256 hex: the command (``record-deal``), its target
    (a deal's number, a change's id) and its figures as the rules engine reads them, so
    that neither a body's spacing and key order nor figures left out at their default
    make it another request. Every command computes its own the same way."""
    canonical = json.dumps([route, *asked], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def keyed(key: str | None, route: str, *asked: object) -> RequestKey | None:
    """The request key of a command, with its fingerprint; None without a key."""
    return None if key is None else RequestKey(key, fingerprint(route, *asked))


@dataclass(frozen=True)
class Earlier:
    """The change a request key made, as its retry is answered from."""

    id: int
    kind: str
    deal_seq: int | None
    deal_number: int | None
    after: Any
    undoes: int | None
    request_hash: str | None


def earlier(game_id: str, key: RequestKey | None, kind: str) -> Earlier | None:
    """The change this request's key made before in this game (a double tap, a retry), or
    None. The key sent with another request (another command, target or body) is refused.
    A key kept before fingerprints were has none: it answers as before when the change is
    of this command's ``kind``."""
    if key is None:
        return None
    row = db.session.execute(_EARLIER, {"game_id": game_id, "key": key.key}).first()
    return None if row is None else _same_request(Earlier(*row), key, kind)


def earlier_among(games: Sequence[str], key: RequestKey | None, kind: str) -> Earlier | None:
    """``earlier`` for a change of several games (a rename): the key is kept with the
    entry of the first game it changed."""
    if key is None or not games:
        return None
    found = db.session.execute(_EARLIER_AMONG, {"games": list(games), "key": key.key}).first()
    return None if found is None else _same_request(Earlier(*found), key, kind)


def _same_request(found: Earlier, key: RequestKey, kind: str) -> Earlier:
    if found.request_hash != key.fingerprint and (found.request_hash or found.kind != kind):
        what = describe(Change(kind=found.kind, deal_number=found.deal_number))
        raise reused(what, deal=found.deal_number, change=found.id)
    return found


def made_by(
    query: Executable,
    key: RequestKey | None,
    what: Callable[[Row[Any]], Text],
    **where: object,
) -> Row[Any] | None:
    """What a request's key made before (``query``'s row, with its ``request_hash``, found
    by the key and ``where``) when it was this same request; None without a key or for one
    not seen. The key sent with another request is refused (``reused``), naming what it
    made (``what`` says it of the row)."""
    if key is None:
        return None
    row = db.session.execute(query, {**where, "key": key.key}).first()
    if row is not None and row.request_hash != key.fingerprint:
        raise reused(what(row))
    return row


def reused(what: Text, *, deal: int | None = None, change: int | None = None) -> Refused:
    """The refusal of a key that made another change (``what``) than the one asked now."""
    return Refused(
        Why.REUSED,
        T(
            "This request's key was already used for another request (%(what)s); nothing "
            "was changed.",
            what=what,
        ),
        {"Idempotency-Key": T("Already used for another request (%(what)s).", what=what)},
        deal=deal,
        change=change,
    )


def evening_earlier(evening_id: str, key: RequestKey | None) -> bool:
    """Whether this request's key made a command of this evening before (a double tap, a
    retry); the key sent with another request is refused."""
    found = made_by(
        _EVENING_EARLIER,
        key,
        lambda row: describe_evening(row.kind, row.round),
        evening_id=evening_id,
    )
    return found is not None
