"""Reading a club's seasons (API.md "Seasons and results"); their commands are
``changes.seasons``.

A season keeps its name, its points table and its director's secret's hash; its evenings
point at it. Its ladder is recomputed from its finished evenings' standings by the rules
engine (``rules.season``), as an evening's standings are from its games.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import selectinload

from ..rules.season import DEFAULT_POINTS, LadderLine, SeasonEvening, ladder
from .db import db, version_row
from .evenings import EveningView, view_of
from .games import GAME_ID, Secured, hash_secret
from .models import (
    Evening,
    EveningPlayer,
    EveningRound,
    EveningTable,
    Game,
    Season,
    SeasonStamp,
    Side,
)


def director_matches(season: Secured, secret: str | None) -> bool:
    """Whether ``secret`` is the season director's (constant time)."""
    return bool(secret) and hmac.compare_digest(hash_secret(secret or ""), season.token_hash)


@dataclass(frozen=True)
class SeasonView:
    """A season with everything its page and the API show."""

    id: str
    name: str
    points: tuple[int, ...]
    token_hash: str
    created_at: datetime
    version: int
    #: Every evening of the season, oldest first, finished or not.
    evenings: tuple[EveningView, ...]
    #: Best first, from the finished evenings alone (``counted``).
    ladder: tuple[LadderLine, ...]

    @property
    def counted(self) -> tuple[EveningView, ...]:
        """The finished evenings, in the order the ladder's places follow."""
        return tuple(evening for evening in self.evenings if evening.finished)

    @property
    def default_points(self) -> bool:
        """The points table is the default one (the page says so)."""
        return self.points == DEFAULT_POINTS


def load(season_id: str, *, lock: bool = False) -> Season | None:
    """The season's row (locked until the transaction ends with ``lock``), or None."""
    if not GAME_ID.fullmatch(season_id):
        return None
    query = select(Season).where(Season.id == season_id)
    if lock:
        query = query.with_for_update()
    return db.session.scalars(query).one_or_none()


def _evenings(season_id: str) -> Sequence[Evening]:
    """The season's evenings, oldest first, with all their standings need, in a fixed
    number of queries whatever their count."""
    return db.session.scalars(
        select(Evening)
        .where(Evening.season_id == season_id)
        .order_by(Evening.created_at, Evening.id)
        .options(
            selectinload(Evening.players).selectinload(EveningPlayer.person),
            selectinload(Evening.played_rounds)
            .selectinload(EveningRound.tables)
            .selectinload(EveningTable.game)
            .selectinload(Game.sides)
            .selectinload(Side.players),
        )
    ).all()


def view(season_id: str) -> SeasonView | None:
    """The season with its evenings and its ladder, or None."""
    season = load(season_id)
    return None if season is None else view_of_season(season)


def view_of_season(season: Season) -> SeasonView:
    evenings = tuple(view_of(evening) for evening in _evenings(season.id))
    points = tuple(season.points or DEFAULT_POINTS)
    counted = [
        SeasonEvening(tuple(line.players for line in evening.standings))
        for evening in evenings
        if evening.finished
    ]
    return SeasonView(
        id=season.id,
        name=season.name,
        points=points,
        token_hash=season.token_hash,
        created_at=season.created_at,
        version=season.version,
        evenings=evenings,
        ladder=ladder(counted, points),
    )


@dataclass(frozen=True)
class Stamp:
    """What a season's page is keyed by: its own version (an evening joins with a new
    one) and its stamp (``SeasonStamp``: moved by the commit step whenever one of its
    evenings' stamps moves)."""

    version: int
    evenings: int
    token_hash: str


SEASON = Season.__table__
SEASON_STAMP = SeasonStamp.__table__
#: The season's row and its stamp's, each by its primary key.
_STAMP = (
    select(SEASON.c.version, SEASON.c.token_hash, SEASON_STAMP.c.value)
    .join(SEASON_STAMP, SEASON_STAMP.c.season_id == SEASON.c.id)
    .where(SEASON.c.id == bindparam("season_id"))
)


def stamp_of(season_id: str) -> Stamp | None:
    """The season's ``Stamp`` (the ETag of its page) in one statement of two rows read by
    their primary keys, however many evenings it has, or None."""
    if not GAME_ID.fullmatch(season_id):
        return None
    row = version_row(_STAMP, {"season_id": season_id})
    return None if row is None else Stamp(row[0], row[2], row[1])


def named(season_ids: Sequence[str]) -> list[tuple[str, str]]:
    """The ``(id, name)`` of each of ``season_ids`` there is, newest first (one query)."""
    ids = [season_id for season_id in season_ids if GAME_ID.fullmatch(season_id)]
    if not ids:
        return []
    rows = db.session.execute(
        select(Season.id, Season.name)
        .where(Season.id.in_(ids))
        .order_by(Season.created_at.desc(), Season.id)
    )
    return [(row[0], row[1]) for row in rows]
