"""An evening's public results (issue 44): the evening as ``evenings.view`` reads it, with
each table's deals as its score sheet keeps them.

Nothing here scores: each table's rows are its game's sheet (``games.sheet_of``, the rules
engine's replay that the score sheet itself shows), read in a fixed number of queries
however many tables the evening had.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .db import db
from .evenings import EveningView, view
from .games import sheet_of
from .models import Deal, Game, Side


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
