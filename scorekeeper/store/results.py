"""An evening's public results (issue 44): the evening as ``evenings.view`` reads it, with
each table's deals as its score sheet keeps them; and the evenings the history lists.

Nothing here scores: each table's rows are its game's sheet (``games.sheet_of``, the rules
engine's replay that the score sheet itself shows), read in a fixed number of queries
however many tables the evening had.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, func, select
from sqlalchemy.orm import selectinload

from .db import db
from .evenings import EveningView, view
from .games import sheet_of
from .models import Deal, Evening, EveningRound, EveningTable, Game, Side


@dataclass(frozen=True)
class DealRow:
    """One row of a table's sheet: the deal's number, each side's score and running total."""

    number: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class Results:
    """An evening with every table's deals, by the table's game."""

    evening: EveningView
    deals: Mapping[str, tuple[DealRow, ...]]

    def rows(self, game_id: str) -> tuple[DealRow, ...]:
        return self.deals.get(game_id, ())


def results(evening_id: str) -> Results | None:
    """The evening and each of its tables' sheets, or None when there is no such evening."""
    found = view(evening_id)
    if found is None:
        return None
    game_ids = [table.game_id for round_ in found.played for table in round_.tables]
    games = db.session.scalars(
        select(Game)
        .where(Game.id.in_(game_ids))
        .options(
            selectinload(Game.sides).selectinload(Side.players),
            selectinload(Game.deals).selectinload(Deal.results),
        )
    ).all()
    deals = {
        game.id: tuple(
            DealRow(line.number, tuple(line.scores), tuple(line.totals))
            for line in sheet_of(game).state.lines
        )
        for game in games
    }
    return Results(found, deals)


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


def evening_lines() -> list[EveningLine]:
    """Every evening, newest first, with how far it went (one query)."""
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
        .outerjoin(EveningRound, EveningRound.evening_id == Evening.id)
        .outerjoin(EveningTable, EveningTable.round_id == EveningRound.id)
        .outerjoin(Game, Game.id == EveningTable.game_id)
        .group_by(Evening.id, Evening.name, Evening.variant, Evening.created_at, Evening.rounds)
        .order_by(Evening.created_at.desc(), Evening.id)
    ).all()
    return [
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
