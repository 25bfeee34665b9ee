"""Recording the next deal of a game without loading the game.

A deal added at the end changes nothing before it: the deal is played from the totals the
game stands at, and each side's record gains one deal. Both are kept next to each side
(``Side.total``, ``Side.record``, recomputed by the rules engine whenever a game changes),
so the next deal needs the game's row, its sides and players, not its deals: a handful of
statements whatever the game's length, instead of loading and replaying every deal.

The rules engine still computes everything (``rules.game.next_line``,
``rules.stats.record_with``, ``rules.scoring.validate_deal``); the store only reads what it
needs and writes what came out, in one transaction that holds the game as ``games.lock``
does. Edits and deletions change earlier deals and go through ``games`` (a full replay).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from ..rules import VARIANTS, SideResult
from ..rules.game import DealLine, Seat, next_line, seating, winner_of
from ..rules.scoring import INTEGER_FIELDS, Violation, errors_of, validate_deal, warnings_of
from ..rules.stats import ended, record_with
from ..rules.variants import RuleSet, apply_options
from .db import db
from .games import GAME_ID, over_message
from .models import Deal, DealResult, Game, Player, Side, _now
from .players import record_from_json, record_to_json
from .refusal import Refusal

GAME = Game.__table__
SIDE = Side.__table__
PLAYER = Player.__table__
DEAL = Deal.__table__
RESULT = DealResult.__table__

_HEAD = select(
    GAME.c.token_hash,
    GAME.c.variant,
    GAME.c.options,
    GAME.c.first_dealer,
    GAME.c.finished,
    GAME.c.updated_at,
).where(GAME.c.id == bindparam("game_id"))
#: Each side with its players, in seat order (every side has one player at least).
_SIDES = (
    select(
        SIDE.c.id,
        SIDE.c.name,
        SIDE.c.start,
        SIDE.c.total,
        SIDE.c.outcome,
        SIDE.c.record,
        PLAYER.c.name.label("player"),
    )
    .join(PLAYER, PLAYER.c.side_id == SIDE.c.id)
    .where(SIDE.c.game_id == bindparam("game_id"))
    .order_by(SIDE.c.position, PLAYER.c.position)
)
_DEALS = select(func.count(), func.max(DEAL.c.seq)).where(DEAL.c.game_id == bindparam("game_id"))
_REPEATED = select(DEAL.c.id).where(
    DEAL.c.game_id == bindparam("game_id"), DEAL.c.request_key == bindparam("key")
)
#: SQLite locks the file for writing with the first write (as BEGIN IMMEDIATE would).
_LOCK_SQLITE = (
    update(GAME)
    .where(GAME.c.id == bindparam("game_id"))
    .values(updated_at=GAME.c.updated_at)
    .returning(GAME.c.updated_at)
)
_LOCK = select(GAME.c.updated_at).where(GAME.c.id == bindparam("game_id")).with_for_update()
_SAVE_SIDE = (
    update(SIDE)
    .where(SIDE.c.id == bindparam("side_id"))
    .values(
        total=bindparam("new_total"),
        outcome=bindparam("new_outcome"),
        record=bindparam("new_record", type_=SIDE.c.record.type),
    )
)


@dataclass(frozen=True)
class SideHead:
    id: int
    name: str
    start: int
    total: int
    outcome: str
    record: dict[str, object]
    players: tuple[str, ...]


@dataclass(frozen=True)
class Head:
    """What recording the next deal needs to know of a game: not its deals."""

    id: str
    token_hash: str
    rules: RuleSet
    first_dealer: int
    finished: bool
    #: The game's version when read: if it is still the version under the lock, nothing
    #: changed the game since, and what was read stands.
    updated_at: datetime
    sides: tuple[SideHead, ...]

    @property
    def seats(self) -> tuple[Seat, ...]:
        return seating([len(side.players) for side in self.sides])

    def player_name(self, seat: Seat) -> str:
        return self.sides[seat.side].players[seat.player]

    def dealer(self, number: int) -> Seat:
        seats = self.seats
        return seats[(self.first_dealer + number - 1) % len(seats)]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(side.total for side in self.sides)


def head(game_id: str) -> Head | None:
    """The game's row, sides and players (three indexed reads), or None."""
    if not GAME_ID.fullmatch(game_id):
        return None
    session = db.session()
    connection = session.connection()
    row = connection.execute(_HEAD, {"game_id": game_id}).first()
    if row is None:
        return None
    rows: dict[int, list[Any]] = {}
    for side in connection.execute(_SIDES, {"game_id": game_id}):
        rows.setdefault(side.id, []).append(side)
    sides = tuple(
        SideHead(
            s.id, s.name, s.start, s.total, s.outcome, s.record or {}, tuple(r.player for r in rs)
        )
        for rs in rows.values()
        for s in rs[:1]
    )
    rules = apply_options(VARIANTS[row.variant].with_sides(len(sides)), row.options or {})
    return Head(
        game_id, row.token_hash, rules, row.first_dealer, row.finished, row.updated_at, sides
    )


def repeated(game_id: str, key: str) -> bool:
    """Whether a deal of this game was recorded with this request key."""
    found = db.session.connection().execute(_REPEATED, {"game_id": game_id, "key": key})
    return found.first() is not None


@dataclass(frozen=True)
class Appended:
    """The deal just recorded, and the game after it."""

    head: Head
    number: int
    line: DealLine
    results: tuple[SideResult, ...]
    winner: int | None
    warnings: list[Violation]

    @property
    def minimums(self) -> tuple[int, ...]:
        rules = self.head.rules
        return tuple(rules.meld_minimum(total) for total in self.line.totals)


class Busy(Exception):
    """The game changed between reading it and holding it: read it again, under the lock."""


def append_deal(
    game: Head, results: Sequence[SideResult], *, request_key: str | None = None
) -> Appended:
    """Record ``results`` as the game's next deal; refused (422, 409) as ``games.add_deal``
    refuses. ``game`` was read before the lock: it is read again under it."""
    session = db.session()
    session.rollback()  # the reads so far end; the write transaction begins with the lock
    connection = session.connection()
    try:
        if connection.dialect.name == "sqlite":
            locked = connection.execute(_LOCK_SQLITE, {"game_id": game.id}).first()
        else:
            locked = connection.execute(_LOCK, {"game_id": game.id}).first()
        if locked is None:
            raise Refusal(_("This game was deleted meanwhile."), status=404)
        current = game if locked.updated_at == game.updated_at else head(game.id)
        if current is None:
            raise Refusal(_("This game was deleted meanwhile."), status=404)
        if current.finished:
            raise Refusal(over_message(), status=409)
        count, last_seq = connection.execute(_DEALS, {"game_id": game.id}).one()
        number = count + 1
        line = next_line(current.rules, current.totals, results, number, current.dealer(number))
        violations = validate_deal(results, current.rules, minimums=line.minimums)
        errors = errors_of(violations)
        if errors:
            raise Refusal.from_violations(errors)
        winner = winner_of(line.totals, current.rules.target)
        now = _now()
        deal_id = connection.execute(
            insert(DEAL).returning(DEAL.c.id),
            {
                "game_id": game.id,
                "seq": (last_seq or 0) + 1,
                "version": 1,
                "request_key": request_key,
                "created_at": now,
            },
        ).scalar_one()
        connection.execute(
            insert(RESULT),
            [
                {
                    "deal_id": deal_id,
                    "side_position": position,
                    **{name: getattr(result, name) for name in INTEGER_FIELDS},
                    "went_out": result.went_out,
                    "concealed": result.concealed,
                }
                for position, result in enumerate(results)
            ],
        )
        records = [
            ended(
                record_with(record_from_json("open", side.total, side.record), line, index, result),
                index,
                winner,
            )
            for index, (side, result) in enumerate(zip(current.sides, results, strict=True))
        ]
        connection.execute(
            _SAVE_SIDE,
            [
                {
                    "side_id": side.id,
                    "new_total": record.total,
                    "new_outcome": record.outcome.value,
                    "new_record": record_to_json(record),
                }
                for side, record in zip(current.sides, records, strict=True)
            ],
        )
        connection.execute(
            update(GAME)
            .where(GAME.c.id == game.id)
            .values(finished=winner is not None, updated_at=now)
        )
        session.commit()
    except (IntegrityError, OperationalError):
        session.rollback()
        raise Busy from None
    except BaseException:
        session.rollback()
        raise
    return Appended(current, number, line, tuple(results), winner, warnings_of(violations))
