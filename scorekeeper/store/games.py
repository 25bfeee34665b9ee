"""Reading games: a whole game for its score sheet, or its head for its next deal.

Scores, totals, minimums and winners come from the rules engine: ``sheet_of`` replays a
loaded game's deal entries. Each side's running total and record are also kept next to it
(written by ``changes`` with every change), so that the next deal, the history and the
statistics need no replay: ``head`` reads a game without its deals.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import selectinload

from ..rules import (
    VARIANTS,
    GameState,
    RuleSet,
    Seat,
    SideResult,
    apply_options,
    replay,
    seating,
)
from ..rules.scoring import ENTRY_FIELDS
from ..rules.stats import Outcome, SideRecord
from .db import db, version_row
from .log import entries_json, log_json
from .models import Change, Deal, Game, Player, Side
from .players import record_from_json

#: Game ids are URL-safe random tokens (``secrets.token_urlsafe``).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: The export document's format tag: an import refuses anything else.
EXPORT_FORMAT = "canasta-scorekeeper/1"


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Secured(Protocol):
    """A game as far as its secret goes (a loaded ``Game``, or a ``Head``)."""

    @property
    def token_hash(self) -> str: ...


def secret_matches(game: Secured, secret: str | None) -> bool:
    """Constant-time comparison of a presented secret with the game's."""
    if not secret:
        return False
    return hmac.compare_digest(hash_secret(secret), game.token_hash)


def confirmer_matches(confirm_hash: str | None, secret: str | None) -> bool:
    """Whether ``secret`` is the other side's at a club table that confirms results
    (``Game.confirm_hash``; None: nobody's)."""
    if not secret or confirm_hash is None:
        return False
    return hmac.compare_digest(hash_secret(secret), confirm_hash)


@lru_cache(maxsize=256)
def _rules(variant: str, sides: int, options: str) -> RuleSet:
    return apply_options(VARIANTS[variant].with_sides(sides), json.loads(options))


def rules_of(variant: str, sides: int, options: dict[str, Any] | None) -> RuleSet:
    """A game's rule set: its variant at its table size, with its house rules (made once
    per process for each such game: a game's never change)."""
    return _rules(variant, sides, json.dumps(options or {}, sort_keys=True))


def rules_for(game: Game) -> RuleSet:
    return rules_of(game.variant, len(game.sides), game.options)


def side_results(deal: Deal) -> list[SideResult]:
    return [SideResult(**{name: getattr(r, name) for name in ENTRY_FIELDS}) for r in deal.results]


def seats_of(game: Game) -> tuple[Seat, ...]:
    return seating([len(side.players) for side in game.sides])


@dataclass(frozen=True)
class Sheet:
    """A loaded game with everything the score sheet shows."""

    game: Game
    rules: RuleSet
    state: GameState
    seats: tuple[Seat, ...]

    def player_name(self, seat: Seat) -> str:
        return self.game.sides[seat.side].players[seat.player].name

    @property
    def next_dealer_name(self) -> str:
        return self.player_name(self.state.next_dealer)

    @property
    def dealers_from_next(self) -> list[str]:
        """Who deals the next deal and each one after it, in turn (for deals typed offline)."""
        start = self.seats.index(self.state.next_dealer)
        return [self.player_name(seat) for seat in self.seats[start:] + self.seats[:start]]


def sheet_of(game: Game, entry: tuple[int, Sequence[SideResult]] | None = None) -> Sheet:
    """The game replayed; with ``entry`` (a deal's number and new results), as it would
    stand with that deal entered so (an edit's dry run: nothing changes)."""
    rules = rules_for(game)
    seats = seats_of(game)
    deals = [side_results(deal) for deal in game.deals]
    if entry is not None:
        number, results = entry
        deals[number - 1] = list(results)
    state = replay(
        rules,
        deals,
        starts=[side.start for side in game.sides],
        seats=seats,
        first_dealer=game.first_dealer,
        last_deal=game.last_deal,
    )
    return Sheet(game=game, rules=rules, state=state, seats=seats)


def load(game_id: str) -> Game | None:
    """The game with its sides, players and deals, in a fixed number of queries."""
    if not GAME_ID.fullmatch(game_id):
        return None  # not an id this app makes (and kept away from the database)
    return db.session.scalars(
        select(Game)
        .where(Game.id == game_id)
        .options(
            selectinload(Game.sides).selectinload(Side.players),
            selectinload(Game.deals).selectinload(Deal.results),
        )
    ).one_or_none()


class Version(NamedTuple):
    """A game's version, and its secret's hash (whether the reader may score it)."""

    version: int
    token_hash: str
    #: The game was deleted: its pages answer 410 (Gone).
    deleted: bool = False
    #: The hash of the other side's secret at a club table whose evening asks for
    #: results confirmed (``Game.confirm_hash``); else None.
    confirm_hash: str | None = None


# The statements read on every request are built once (Core, on the tables): building a
# statement and the ORM's handling of it cost more than running it.
GAME = Game.__table__
SIDE = Side.__table__
PLAYER = Player.__table__
DEAL = Deal.__table__

_VERSION = select(GAME.c.version, GAME.c.token_hash, GAME.c.deleted_at, GAME.c.confirm_hash).where(
    GAME.c.id == bindparam("game_id")
)


def version_of(game_id: str) -> Version | None:
    """The game's version (one indexed read): the ETag of its pages."""
    if not GAME_ID.fullmatch(game_id):
        return None
    row = version_row(_VERSION, {"game_id": game_id})
    if row is None:
        return None
    return Version(row.version, row.token_hash, row.deleted_at is not None, row.confirm_hash)


@dataclass(frozen=True)
class SideHead:
    id: int
    name: str
    start: int
    total: int
    record: SideRecord
    players: tuple[str, ...]
    #: The roster's person in each seat (None for a seat named only "Us 1").
    people: tuple[int | None, ...]


@dataclass(frozen=True)
class Head:
    """A game without its deals: what its next deal is played from."""

    id: str
    token_hash: str
    variant: str
    options: dict[str, Any]
    rules: RuleSet
    first_dealer: int
    finished: bool
    version: int
    deleted: bool
    sides: tuple[SideHead, ...]
    #: Deals recorded so far, and the last one's place in the game (``Deal.seq``).
    deals: int
    last_seq: int
    #: The deal after which the game ends whatever the totals (``Game.last_deal``).
    last_deal: int | None = None
    seats: tuple[Seat, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", seating([len(side.players) for side in self.sides]))

    def player_name(self, seat: Seat) -> str:
        return self.sides[seat.side].players[seat.player]

    def dealer(self, number: int) -> Seat:
        """Who deals deal ``number``: the deal passes to the left, seat after seat."""
        return self.seats[(self.first_dealer + number - 1) % len(self.seats)]

    @property
    def next_deal(self) -> int:
        return self.deals + 1

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(side.total for side in self.sides)

    @property
    def minimums(self) -> tuple[int, ...]:
        return tuple(self.rules.meld_minimum(total, self.next_deal) for total in self.totals)

    @property
    def winner(self) -> int | None:
        won = [i for i, side in enumerate(self.sides) if side.record.outcome is Outcome.WON]
        return won[0] if won else None

    @property
    def people(self) -> tuple[int, ...]:
        """The roster's people seated at the game."""
        return tuple(sorted({p for side in self.sides for p in side.people if p is not None}))


class Setup(NamedTuple):
    """What never changes in a game: its rule set, its number of sides, its secret's hash
    (what a request to change it is read and checked against before it is made)."""

    variant: str
    options: dict[str, Any]
    sides: int
    token_hash: str

    @property
    def rules(self) -> RuleSet:
        return rules_of(self.variant, self.sides, self.options)


_SETUP = select(
    GAME.c.variant,
    GAME.c.options,
    GAME.c.token_hash,
    select(func.count(SIDE.c.id)).where(SIDE.c.game_id == GAME.c.id).scalar_subquery(),
).where(GAME.c.id == bindparam("game_id"))


def setup_of(game_id: str) -> Setup | None:
    """The game's rule set, number of sides and secret's hash, or None (no such game)."""
    if not GAME_ID.fullmatch(game_id):
        return None
    row = db.session.execute(_SETUP, {"game_id": game_id}).one_or_none()
    if row is None:
        return None
    variant, options, token_hash, sides = row
    return Setup(variant, dict(options or {}), sides, token_hash)


_LOCK_GAME = select(GAME.c.id).where(GAME.c.id == bindparam("game_id")).with_for_update()


def lock_game(game_id: str) -> bool:
    """Inside ``db.transaction()``: lock the game's row until the transaction ends, so that
    changes of one game take turns (SQLite's writer holds the whole database already).
    A statement of its own: PostgreSQL's next statement then reads what the change before
    committed (a statement that waited for a lock still reads from before it waited).
    False when there is no such game."""
    if not GAME_ID.fullmatch(game_id):
        return False
    if db.session.get_bind().dialect.name == "sqlite":
        return True
    return db.session.scalar(_LOCK_GAME, {"game_id": game_id}) is not None


#: A game's row with its sides and players, one row per player in seat order, and its
#: last deal's place (``Deal.seq``): not its deals.
_HEAD = (
    select(
        GAME.c.token_hash,
        GAME.c.variant,
        GAME.c.options,
        GAME.c.first_dealer,
        GAME.c.finished,
        GAME.c.version,
        GAME.c.deleted_at,
        GAME.c.last_deal,
        select(func.coalesce(func.max(DEAL.c.seq), 0))
        .where(DEAL.c.game_id == GAME.c.id)
        .scalar_subquery()
        .label("last_seq"),
        SIDE.c.id.label("side_id"),
        SIDE.c.name.label("side_name"),
        SIDE.c.start,
        SIDE.c.total,
        SIDE.c.outcome,
        SIDE.c.record,
        PLAYER.c.name.label("player"),
        PLAYER.c.person_id,
    )
    .join(SIDE, SIDE.c.game_id == GAME.c.id)
    .join(PLAYER, PLAYER.c.side_id == SIDE.c.id)
    .where(GAME.c.id == bindparam("game_id"))
    .order_by(SIDE.c.position, PLAYER.c.position)
)


def head(game_id: str) -> Head | None:
    """The game's row, its sides and players (not its deals: one query whatever the game's
    length), or None."""
    if not GAME_ID.fullmatch(game_id):
        return None
    rows = db.session.execute(_HEAD, {"game_id": game_id}).all()
    if not rows:
        return None
    seated: dict[int, list[tuple[str, int | None]]] = {}
    for row in rows:
        seated.setdefault(row.side_id, []).append((row.player, row.person_id))
    sides = tuple(
        SideHead(
            row.side_id,
            row.side_name,
            row.start,
            row.total,
            record_from_json(row.outcome, row.total, row.record),
            tuple(name for name, _person in seated[row.side_id]),
            tuple(person for _name, person in seated.pop(row.side_id)),
        )
        for row in rows
        if row.side_id in seated
    )
    game = rows[0]
    options = dict(game.options or {})
    return Head(
        id=game_id,
        token_hash=game.token_hash,
        variant=game.variant,
        options=options,
        rules=rules_of(game.variant, len(sides), options),
        first_dealer=game.first_dealer,
        finished=game.finished,
        version=game.version,
        deleted=game.deleted_at is not None,
        sides=sides,
        # Each side's record counts the deals played.
        deals=sides[0].record.deals,
        last_seq=game.last_seq,
        last_deal=game.last_deal,
    )


def recent(page: int = 1, per_page: int = 20) -> tuple[list[Game], int]:
    """Games newest first, with their deals (for totals), and the total count for paging,
    in a fixed number of queries whatever the page size."""
    listed = Game.deleted_at.is_(None)
    total = db.session.scalar(select(func.count()).select_from(Game).where(listed)) or 0
    games = db.session.scalars(
        select(Game)
        .where(listed)
        .order_by(Game.created_at.desc(), Game.id)
        .options(
            selectinload(Game.sides).selectinload(Side.players),
            selectinload(Game.deals).selectinload(Deal.results),
        )
        .limit(per_page)
        .offset((page - 1) * per_page)
    ).all()
    return list(games), total


def log_of(game_id: str) -> list[Change] | None:
    """The game's change log, newest first; None when there is no such game."""
    if not GAME_ID.fullmatch(game_id):
        return None
    if db.session.scalar(select(GAME.c.id).where(GAME.c.id == game_id)) is None:
        return None
    return list(
        db.session.scalars(
            select(Change).where(Change.game_id == game_id).order_by(Change.id.desc())
        )
    )


def deal_at(game: Game, number: int) -> Deal | None:
    """Deal ``number`` (1-based) of a loaded game."""
    return game.deals[number - 1] if 1 <= number <= len(game.deals) else None


class DealTag(NamedTuple):
    """Which deal, as it was: its place (``seq``, kept when later deals are renumbered)
    and its version. A change meant for it is refused once either differs."""

    seq: int
    version: int


def tag_of(deal: Deal) -> DealTag:
    return DealTag(deal.seq, deal.version)


_DEAL_TAG = (
    select(DEAL.c.seq, DEAL.c.version)
    .where(DEAL.c.game_id == bindparam("game_id"))
    .order_by(DEAL.c.seq)
    .offset(bindparam("before"))
    .limit(1)
)


def deal_tag(game_id: str, number: int) -> DealTag | None:
    """The tag of deal ``number`` of the game as it stands (one indexed read)."""
    if number < 1:
        return None
    row = db.session.execute(_DEAL_TAG, {"game_id": game_id, "before": number - 1}).first()
    return None if row is None else DealTag(row.seq, row.version)


def export_game(sheet: Sheet) -> dict[str, object]:
    """The game as one JSON-ready document: its setup and every deal's inputs (the
    computed figures ride along for people reading it; an import recomputes them)."""
    game = sheet.game
    return {
        "format": EXPORT_FORMAT,
        "variant": game.variant,
        "options": dict(game.options or {}),
        "first_dealer": game.first_dealer,
        # A club round's game ends after this deal (absent for every other game).
        **({"last_deal": game.last_deal} if game.last_deal is not None else {}),
        "created_at": game.created_at.isoformat() + "Z",
        "sides": [
            {
                "name": side.name,
                "players": [p.name for p in side.players],
                "start": side.start,
                # The cards drawn for seats, when the table drew.
                **(
                    {"cards": [p.card for p in side.players]}
                    if all(p.card for p in side.players)
                    else {}
                ),
            }
            for side in game.sides
        ],
        "deals": [
            {"seq": deal.seq, "results": [entries_json(r) for r in deal.results]}
            for deal in game.deals
        ],
        "totals": list(sheet.state.totals),
        "winner": sheet.state.winner,
        "changes": [log_json(change) for change in game.changes],
    }
