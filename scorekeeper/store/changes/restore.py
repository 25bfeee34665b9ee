"""A restore from a backup (``flask restore``), as one command: the backup's reader
(``backup.restore``) checks each player, game and club evening and hands it to ``Restoring``,
whose writes do the commit step's duties for games that come back as they were: each
side's cached record and the finished flag kept, the game's own change log written as it
is (its request keys with it), the ratings' and the history's versions moved once at the
end, each evening and season given its stamp. Versions and times are kept as the backup
gives them: a restored game's pages are the ones saved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from sqlalchemy import delete, func, select, text

from ..db import db, transaction
from ..errors import Refused
from ..games import Sheet
from ..log import Read
from ..models import (
    Change,
    Deal,
    DealResult,
    Evening,
    EveningChange,
    EveningPlayer,
    EveningRound,
    EveningStamp,
    EveningTable,
    Game,
    Person,
    Player,
    Season,
    SeasonChange,
    SeasonStamp,
    Side,
)
from .commit import carry_log, keep_records, ratings_moved

Loaded = TypeVar("Loaded")

#: Every table, children first: what a restore that replaces the database deletes.
_EVERY_TABLE = (
    EveningStamp,
    EveningChange,
    EveningTable,
    EveningRound,
    EveningPlayer,
    Evening,
    SeasonStamp,
    SeasonChange,
    Season,
    Change,
    DealResult,
    Deal,
    Player,
    Side,
    Game,
    Person,
)
#: The tables whose rows come back with their ids (PostgreSQL's sequences follow them).
_KEPT_IDS = ("person", "change")


class Restoring:
    """The writes of one restore, in its transaction; a ``DBAPIError`` from one names a
    clash (an id or name twice) for the reader to place in the file."""

    def __init__(self) -> None:
        self._people: list[Person] = []

    def people(self, people: Iterable[Person]) -> None:
        """The roster, with its ids."""
        self._people = list(people)
        db.session.add_all(self._people)
        db.session.flush()

    def game(self, game: Game, sheet: Sheet, log: Iterable[Read]) -> None:
        """A game replayed (``sheet``) and checked, with its own log: its records kept, then
        written in one INSERT each (no UPDATE after, which would stamp today)."""
        with db.session.no_autoflush:
            keep_records(sheet)
        db.session.add(game)
        db.session.flush()
        carry_log(game.id, list(log), None)
        db.session.flush()
        # One game at a time in memory; the roster stays for the next game's seats.
        db.session.expunge_all()
        db.session.add_all(self._people)

    def season(self, season: Season) -> None:
        """A club's season, before the evenings that name it."""
        db.session.add_all((season, SeasonStamp(season_id=season.id)))
        db.session.flush()

    def evening(self, evening: Evening) -> None:
        """A club evening whose games came back before it."""
        db.session.add_all((evening, EveningStamp(evening_id=evening.id)))
        db.session.flush()


def restore_backup(
    load: Callable[[Restoring], Loaded], *, replace: bool, occupied: Refused
) -> Loaded:
    """Restore what ``load`` reads, in one transaction: refused (``occupied``) when the
    database holds games or players, unless ``replace`` (then every row goes first). A
    refusal from ``load`` restores nothing."""
    with transaction():
        held = db.session.scalar(select(func.count(Game.id))) or db.session.scalar(
            select(func.count(Person.id))
        )
        if held and not replace:
            raise occupied
        if replace:
            for table in _EVERY_TABLE:
                db.session.execute(delete(table))
        loaded = load(Restoring())
        if db.session.get_bind().dialect.name == "postgresql":
            # Rows restored with their ids: the next new one takes the id after them.
            for name in _KEPT_IDS:
                db.session.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), max(id))"
                        f" FROM {name} HAVING max(id) IS NOT NULL"
                    )
                )
        # Every rating may differ now (and the history with them, which moves at any
        # mark); the counters only grow, so no kept copy comes back.
        ratings_moved()
    return loaded
