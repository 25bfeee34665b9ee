"""Recording the next deal of a game without loading the game.

A deal added at the end changes nothing before it: the deal is played from the totals the
game stands at, and each side's record gains one deal. Both are kept next to each side
(``Side.total``, ``Side.record``, recomputed by the rules engine whenever a game changes),
so the next deal needs the game's row, its sides and players, not its deals: a handful of
statements whatever the game's length, instead of loading and replaying every deal.

The rules engine still computes everything (``rules.game.next_line``,
``rules.stats.record_with``, ``rules.scoring.validate_deal``); the store reads what it
needs (one indexed read) and writes what came out (one transaction), with statements run
on the database driver (``driver.py``: this is the write the app answers most). The first
write claims the game at the version read, as ``games.lock`` checks it: a game another
phone changed meanwhile is read again. Edits and deletions change earlier deals and go
through ``games`` (a full replay).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache

from sqlalchemy import String, bindparam, cast, func, insert, literal, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError

from ..rules import VARIANTS, SideResult
from ..rules.game import DealLine, Seat, next_line, seating, winner_of
from ..rules.scoring import INTEGER_FIELDS, Violation, errors_of, validate_deal, warnings_of
from ..rules.stats import ended, record_with
from ..rules.variants import RuleSet, apply_options
from .db import db
from .driver import Prepared, Statements, transaction
from .games import GAME_ID, over_message
from .models import Deal, DealResult, Game, Person, Player, Side, _now
from .players import record_from_json, record_to_json
from .refusal import Refusal

GAME = Game.__table__
SIDE = Side.__table__
PLAYER = Player.__table__
DEAL = Deal.__table__
RESULT = DealResult.__table__
PERSON = Person.__table__

#: The game's row with each of its sides and their players, in seat order (every side has
#: one player at least): one row per player. JSON and the version as the database's text:
#: the options are the key of the rule set they make (``_rules``), a side's record is
#: decoded once (not once per player), and the version goes back as read (``_CLAIMED``).
_HEAD = Prepared(
    select(
        GAME.c.token_hash,
        GAME.c.variant,
        cast(GAME.c.options, String),
        GAME.c.first_dealer,
        GAME.c.finished,
        cast(GAME.c.updated_at, String),
        SIDE.c.id,
        SIDE.c.name,
        SIDE.c.start,
        SIDE.c.total,
        cast(SIDE.c.record, String),
        PLAYER.c.name,
        PLAYER.c.person_id,
    )
    .select_from(GAME)
    .join(SIDE, SIDE.c.game_id == GAME.c.id)
    .join(PLAYER, PLAYER.c.side_id == SIDE.c.id)
    .where(GAME.c.id == bindparam("game_id"))
    .order_by(SIDE.c.position, PLAYER.c.position)
)
_REPEATED = Prepared(
    select(DEAL.c.id).where(
        DEAL.c.game_id == bindparam("game_id"), DEAL.c.request_key == bindparam("key")
    )
)
#: Holding a game: PostgreSQL locks its row; SQLite locks the file for writing with a
#: first write (as BEGIN IMMEDIATE would).
_HOLD = Prepared(select(GAME.c.id).where(GAME.c.id == bindparam("game_id")).with_for_update())
_HOLD_SQLITE = Prepared(
    update(GAME).where(GAME.c.id == bindparam("game_id")).values(updated_at=GAME.c.updated_at)
)
#: The first write: the game, if still at the version read, is now at this deal's. The
#: deal that wins also finishes it; ``finished`` is otherwise left alone: writing it, even
#: unchanged, rewrites its two indexes (SQLite: two pages more to commit of about eleven;
#: PostgreSQL: no update in place).
_CLAIMED = update(GAME).where(
    GAME.c.id == bindparam("game_id"), cast(GAME.c.updated_at, String) == bindparam("seen")
)
_CLAIM = Prepared(_CLAIMED.values(updated_at=bindparam("now")))
_CLAIM_FINISHING = Prepared(_CLAIMED.values(updated_at=bindparam("now"), finished=True))


@lru_cache(maxsize=16)
def _touch_people(count: int) -> Prepared:
    """Everyone seated at the game (``count`` people, by the ids ``head`` read): their
    pages' version moves (as ``players.touch_people`` moves it). By primary key: the
    roster is not searched (its size does not matter)."""
    return Prepared(
        update(PERSON)
        .where(PERSON.c.id.in_([bindparam(f"person_{n}") for n in range(count)]))
        .values(changed_at=bindparam("now", type_=PERSON.c.changed_at.type))
    )


#: The deal, after the game's last (its place in the game: see ``Deal.seq``).
_NEW_DEAL = Prepared(
    insert(DEAL)
    .from_select(
        ["game_id", "seq", "version", "request_key", "created_at"],
        select(
            bindparam("game_id", type_=DEAL.c.game_id.type),
            func.coalesce(func.max(DEAL.c.seq), 0) + 1,
            literal(1),
            bindparam("request_key", type_=DEAL.c.request_key.type),
            bindparam("now", type_=DEAL.c.created_at.type),
        ).where(DEAL.c.game_id == bindparam("game_id")),
    )
    .returning(DEAL.c.id)
)
_NEW_RESULT = Prepared(
    insert(RESULT).values(
        {
            name: bindparam(name)
            for name in ("deal_id", "side_position", *INTEGER_FIELDS, "went_out", "concealed")
        }
    )
)
_SAVE_SIDE = Prepared(
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
    #: The game's version when read (``Game.updated_at`` as the database's text):
    #: ``append`` saves only while it is still the game's version (nothing changed the
    #: game since, and what was read stands).
    version: str
    sides: tuple[SideHead, ...]
    #: The roster's people seated at the game (players without one are not on it).
    people: tuple[int, ...]

    @cached_property
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

    @property
    def deals(self) -> int:
        """Deals recorded so far (each side's record counts them)."""
        deals = self.sides[0].record.get("deals", 0)
        return deals if isinstance(deals, int) else 0


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
    """The game changed since it was read: read it again and try again."""


@contextmanager
def recorder(engine: Engine | None = None) -> Iterator[Recorder]:
    """Reading a game and recording its next deal, on a connection of its own (``driver``:
    the statements go to the database without ``Connection.execute``'s cost each); of the
    app's database unless ``engine`` names it (outside a request)."""
    with transaction(engine or db.engine) as statements:
        yield Recorder(statements)


@lru_cache(maxsize=256)
def _rules(variant: str, sides: int, options: str | None) -> RuleSet:
    """A game's rule set, from its variant, sides and options (as stored: a game's never
    change), made once per worker for each such game."""
    return apply_options(VARIANTS[variant].with_sides(sides), json.loads(options or "{}"))


class Recorder:
    def __init__(self, statements: Statements) -> None:
        self.statements = statements

    def head(self, game_id: str, *, hold: bool = False) -> Head | None:
        """The game's row with its sides and players (one indexed read), or None. With
        ``hold``, the game is held first, until the transaction ends (as ``games.lock``
        holds it): what is read cannot change before ``append`` saves."""
        if not GAME_ID.fullmatch(game_id):
            return None
        run = self.statements
        if hold:
            run.writing()
            run.run(_HOLD_SQLITE if run.dialect.name == "sqlite" else _HOLD, game_id=game_id)
        rows = run.rows(_HEAD, game_id=game_id)
        if not rows:
            return None
        players: dict[int, list[str]] = {}
        for row in rows:
            players.setdefault(row[6], []).append(row[11])
        sides = tuple(
            SideHead(
                row[6],
                row[7],
                row[8],
                row[9],
                json.loads(row[10] or "{}"),
                tuple(players.pop(row[6])),
            )
            for row in rows
            if row[6] in players
        )
        token_hash, variant, options, first_dealer, finished, version = rows[0][:6]
        rules = _rules(variant, len(sides), options)
        people = tuple(sorted({row[12] for row in rows if row[12] is not None}))
        return Head(game_id, token_hash, rules, first_dealer, finished, version, sides, people)

    def repeated(self, game_id: str, key: str) -> bool:
        """Whether a deal of this game was recorded with this request key."""
        return self.statements.first(_REPEATED, game_id=game_id, key=key) is not None

    def append(
        self, game: Head, results: Sequence[SideResult], *, request_key: str | None = None
    ) -> Appended:
        """Record ``results`` as the next deal of ``game`` (as ``head`` read it); refused
        (422, 409) as ``games.add_deal`` refuses, with nothing written. Saved only if the
        game is still at the version read (every change of a game moves it): the first
        write claims the game at that version, and holds it (PostgreSQL: its row; SQLite:
        the file) until the commit. Otherwise ``Busy``: another phone saved meanwhile; read
        the game again, held (``head(..., hold=True)``), and the next try cannot miss."""
        if game.finished:
            raise Refusal(over_message(), status=409)
        number = game.deals + 1
        line = next_line(game.rules, game.totals, results, number, game.dealer(number))
        violations = validate_deal(results, game.rules, minimums=line.minimums)
        errors = errors_of(violations)
        if errors:
            raise Refusal.from_violations(errors)
        winner = winner_of(line.totals, game.rules.target)
        records = [
            ended(
                record_with(record_from_json("open", side.total, side.record), line, index, result),
                index,
                winner,
            )
            for index, (side, result) in enumerate(zip(game.sides, results, strict=True))
        ]
        # Everything written is made before the first write: the file (SQLite) or the
        # game's row (PostgreSQL) is held for the writes alone.
        result_rows = [
            {
                "side_position": position,
                **{name: getattr(result, name) for name in INTEGER_FIELDS},
                "went_out": result.went_out,
                "concealed": result.concealed,
            }
            for position, result in enumerate(results)
        ]
        side_rows = [
            {
                "side_id": side.id,
                "new_total": record.total,
                "new_outcome": record.outcome.value,
                "new_record": record_to_json(record),
            }
            for side, record in zip(game.sides, records, strict=True)
        ]
        now = _now()
        run = self.statements
        run.writing()
        try:
            claimed = run.run(
                _CLAIM if winner is None else _CLAIM_FINISHING,
                game_id=game.id,
                seen=game.version,
                now=now,
            )
            if claimed != 1:
                raise Busy
            created = run.first(_NEW_DEAL, game_id=game.id, request_key=request_key, now=now)
            assert created is not None
            run.run_each(_NEW_RESULT, [{"deal_id": created[0], **row} for row in result_rows])
            if game.people:
                run.run(
                    _touch_people(len(game.people)),
                    now=now,
                    **{f"person_{n}": person for n, person in enumerate(game.people)},
                )
            run.run_each(_SAVE_SIDE, side_rows)
            run.commit()
        except (Busy, IntegrityError, OperationalError):
            run.rollback()
            raise Busy from None
        except BaseException:
            run.rollback()
            raise
        return Appended(game, number, line, tuple(results), winner, warnings_of(violations))

    def rollback(self) -> None:
        self.statements.rollback()
