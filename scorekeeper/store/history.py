"""Every game played here, for the history page: filtered, searched and paged in a fixed
number of queries however many games there are (totals come from each side's cached
record, not from replaying the deals); and the club evenings beside them, by the same
filters.

What the page shows is kept under ``version``: a counter (``Counter``, named ``history``)
read as one row by its name, which the commit step moves with every change of a game
(a deal, a rename, a game deleted or restored), every evening's command and every player
added to the roster (the page's player filter lists them)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, case, func, or_, select
from sqlalchemy.orm import InstrumentedAttribute, selectinload

from . import counters
from .db import db
from .log import GAME_DELETED, replacement
from .models import (
    Change,
    Deal,
    Evening,
    EveningPlayer,
    EveningRound,
    EveningTable,
    Game,
    Person,
    Player,
    Side,
)
from .players import name_key


def version() -> int:
    """The history's version (``changes.commit`` moves it), one row by its name."""
    return counters.value(counters.HISTORY)


#: Games on one page of the history.
PER_PAGE = 20

#: Evenings the history lists above its games, the newest; the filters find the others.
EVENINGS = 20


@dataclass(frozen=True)
class Filters:
    """What the history is narrowed to; every field optional. The days asked for are the
    phone's, so their bounds come as stored moments (UTC): games begun at ``since`` or
    later, and before ``before``."""

    player: int | None = None
    variant: str | None = None
    since: datetime | None = None
    before: datetime | None = None
    search: str = ""

    @property
    def active(self) -> bool:
        return any((self.player, self.variant, self.since, self.before, self.search))


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _folded(column: ColumnElement[str] | InstrumentedAttribute[str]) -> ColumnElement[str]:
    """A text column with its case folded in the database, in any alphabet."""
    if db.session.get_bind().dialect.name == "sqlite":
        return func.casefold(column)  # registered in db.py
    return func.lower(column)


def _conditions(filters: Filters) -> list[ColumnElement[bool]]:
    """The WHERE clauses of the filters (none: every game not deleted)."""
    where: list[ColumnElement[bool]] = [Game.deleted_at.is_(None)]
    if filters.player is not None:
        seated = select(Side.game_id).join(Player, Player.side_id == Side.id)
        where.append(Game.id.in_(seated.where(Player.person_id == filters.player)))
    if filters.variant:
        where.append(Game.variant == filters.variant)
    if filters.since:
        where.append(Game.created_at >= filters.since)
    if filters.before:
        where.append(Game.created_at < filters.before)
    if filters.search.strip():
        # Player names match through the roster's folded key, side names folded likewise:
        # "ана" finds "Ана" (SQLite's own LIKE folds only ASCII).
        people = select(Person.id).where(Person.key.like(_like(name_key(filters.search)), "\\"))
        matching = (
            select(Side.game_id)
            .outerjoin(Player, Player.side_id == Side.id)
            .where(
                or_(
                    Player.person_id.in_(people),
                    _folded(Side.name).like(_like(name_key(filters.search)), "\\"),
                )
            )
        )
        where.append(Game.id.in_(matching))
    return where


GAME = Game.__table__
#: The history's order: games in progress first, newest first.
ORDER = (GAME.c.finished, GAME.c.created_at.desc(), GAME.c.id)


def history(filters: Filters, page: int = 1, per_page: int = PER_PAGE) -> tuple[list[Game], int]:
    """One page of games, in progress first and newest first, and how many games match."""
    total = db.session.scalar(select(func.count(Game.id)).where(*_conditions(filters))) or 0
    games = db.session.scalars(
        select(Game)
        .where(*_conditions(filters))
        .order_by(*ORDER)
        .options(selectinload(Game.sides).selectinload(Side.players))
        .limit(per_page)
        .offset((page - 1) * per_page)
    ).all()
    return list(games), total


@dataclass(frozen=True)
class Listing:
    """A page of the history as ids and versions: what it shows, without showing it."""

    page: int
    pages: int
    total: int
    #: Each game on the page: its id and version.
    games: tuple[tuple[str, int], ...]


def listing(filters: Filters, page: int = 1, per_page: int = PER_PAGE) -> Listing:
    """Page ``page`` of the history (the last page when past the end) as the ids and
    versions of its games, in two light queries."""
    where = _conditions(filters)
    # count(*), not count(id): the index of listed games answers it without reading a row.
    total = db.session.scalar(select(func.count()).select_from(GAME).where(*where)) or 0
    pages = max(1, -(-total // per_page))
    page = min(page, pages)
    rows = db.session.execute(
        select(GAME.c.id, GAME.c.version)
        .where(*where)
        .order_by(*ORDER)
        .limit(per_page)
        .offset((page - 1) * per_page)
    ).all()
    return Listing(page, pages, total, tuple((row.id, row.version) for row in rows))


def games_of(listed: Listing) -> list[Game]:
    """The games of a listing, in its order, with their sides and players."""
    ids = [game_id for game_id, _version in listed.games]
    found = db.session.scalars(
        select(Game)
        .where(Game.id.in_(ids))
        .options(selectinload(Game.sides).selectinload(Side.players))
    ).all()
    by_id = {game.id: game for game in found}
    return [by_id[game_id] for game_id in ids if game_id in by_id]


def deleted_among(game_ids: Sequence[str]) -> list[Game]:
    """The deleted games among ``game_ids`` (those a phone kept score of) that may be
    restored, the latest deleted first, with their sides and players (not a club table's
    game a swap replaced: it stays deleted)."""
    if not game_ids:
        return []
    found = list(
        db.session.scalars(
            select(Game)
            .where(Game.id.in_(list(game_ids)), Game.deleted_at.is_not(None))
            .order_by(Game.deleted_at.desc(), Game.id)
            .options(selectinload(Game.sides).selectinload(Side.players))
        )
    )
    if not found:
        return []
    deletions = db.session.scalars(
        select(Change).where(
            Change.game_id.in_([game.id for game in found]), Change.kind == GAME_DELETED
        )
    )
    replaced = {change.game_id for change in deletions if replacement(change) is not None}
    return [game for game in found if game.id not in replaced]


def every_game(batch: int = 100, *, deleted: bool = False) -> Iterator[Game]:
    """All games (with ``deleted``, the deleted ones too), oldest first, loaded with their
    deals and change logs a batch at a time (for exports and backups)."""
    query = select(Game.id).order_by(Game.created_at, Game.id)
    ids = list(db.session.scalars(query if deleted else query.where(Game.deleted_at.is_(None))))
    for start in range(0, len(ids), batch):
        chunk = ids[start : start + batch]
        games = db.session.scalars(
            select(Game)
            .where(Game.id.in_(chunk))
            .order_by(Game.created_at, Game.id)
            .options(
                selectinload(Game.sides).selectinload(Side.players),
                selectinload(Game.deals).selectinload(Deal.results),
                selectinload(Game.changes),
            )
        ).all()
        yield from games
        db.session.expunge_all()


@dataclass(frozen=True)
class EveningLine:
    """An evening as the history lists it."""

    id: str
    name: str
    variant: str
    created_at: datetime
    #: Rounds seated so far, and planned.
    played: int
    rounds: int
    #: Every planned round was seated and every table of it finished.
    finished: bool


def _evening_conditions(filters: Filters) -> list[ColumnElement[bool]]:
    """An evening matches by its rule set, day and name, and by who was present: a player
    filter finds the evenings that player came to (a bye too), a search their names."""
    where: list[ColumnElement[bool]] = []
    if filters.variant:
        where.append(Evening.variant == filters.variant)
    if filters.since:
        where.append(Evening.created_at >= filters.since)
    if filters.before:
        where.append(Evening.created_at < filters.before)
    present = select(EveningPlayer.evening_id)
    if filters.player is not None:
        where.append(Evening.id.in_(present.where(EveningPlayer.person_id == filters.player)))
    if filters.search.strip():
        pattern = _like(name_key(filters.search))
        people = select(Person.id).where(Person.key.like(pattern, "\\"))
        named = _folded(Evening.name).like(pattern, "\\")
        where.append(or_(named, Evening.id.in_(present.where(EveningPlayer.person_id.in_(people)))))
    return where


def evening_lines(filters: Filters, limit: int = EVENINGS) -> tuple[list[EveningLine], int]:
    """The newest ``limit`` evenings the filters match, with how far each went, and how
    many match (two queries)."""
    where = _evening_conditions(filters)
    total = db.session.scalar(select(func.count(Evening.id)).where(*where)) or 0
    playing = func.coalesce(func.sum(case((Game.finished.is_(False), 1), else_=0)), 0)
    rows = db.session.execute(
        select(
            Evening.id,
            Evening.name,
            Evening.variant,
            Evening.created_at,
            Evening.rounds,
            func.count(func.distinct(EveningRound.id)),
            playing,
        )
        .select_from(Evening)
        .where(*where)
        .outerjoin(EveningRound, EveningRound.evening_id == Evening.id)
        .outerjoin(EveningTable, EveningTable.round_id == EveningRound.id)
        .outerjoin(Game, Game.id == EveningTable.game_id)
        .group_by(Evening.id, Evening.name, Evening.variant, Evening.created_at, Evening.rounds)
        .order_by(Evening.created_at.desc(), Evening.id)
        .limit(limit)
    ).all()
    lines = [
        EveningLine(
            id=row[0],
            name=row[1],
            variant=row[2],
            created_at=row[3],
            rounds=row[4],
            played=int(row[5]),
            finished=int(row[5]) >= row[4] and int(row[6]) == 0,
        )
        for row in rows
    ]
    return lines, total
