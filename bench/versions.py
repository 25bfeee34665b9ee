"""What each version the pages read first costs at N games (docs/PERFORMANCE.md, "Versions
read as one row"): the ratings' and the history's counters, an evening's stamp and a
season's, each beside the read it replaced (issue 45, part 3).

    .venv/bin/python bench/versions.py 60 6000        # SQLite, in a temporary folder
    DATABASE_URL=postgresql://... .venv/bin/python bench/versions.py 60 6000

The games are written straight into the tables, as ``bench/ratings.py`` writes them, and
every one is a table of a club evening: evenings of 30 tables and two rounds (60 games
each), all in one season. The evening measured is the last one (60 tables whatever the
count); the season holds every game; the history lists them all.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime, timedelta

from ratings import median_ms  # bench/ratings.py (bench/ is the script's own folder)
from sqlalchemy import delete, func, insert, select

from scorekeeper import create_app
from scorekeeper.store import db, evenings, history, ratings, seasons
from scorekeeper.store.models import (
    Evening,
    EveningRound,
    EveningStamp,
    EveningTable,
    Game,
    Season,
    SeasonStamp,
    Side,
)
from scorekeeper.store.players import roster_choices

TABLES = 30
ROUNDS = 2


def seed(count: int) -> tuple[str, str]:
    """``count`` finished games, each a table of an evening of the one season; the last
    evening's id and the season's."""
    for table in (EveningTable, EveningRound, EveningStamp, Evening, SeasonStamp, Season):
        db.session.execute(delete(table))
    for table in (Side, Game):
        db.session.execute(delete(table))
    start = datetime(2025, 1, 1)
    season_id = "season"
    db.session.execute(
        insert(Season),
        [
            {
                "id": season_id,
                "token_hash": "0" * 64,
                "name": "All",
                "points": [],
                "created_at": start,
            }
        ],
    )
    db.session.execute(insert(SeasonStamp), [{"season_id": season_id}])
    games, sides, evening_rows, stamps, rounds, tables = [], [], [], [], [], []
    evening_id = ""
    for n in range(count):
        game_id = f"g{n:06d}"
        at = start + timedelta(minutes=10 * n)
        games.append(
            {"id": game_id, "token_hash": "0" * 64, "variant": "classic", "options": {},
             "created_at": at, "updated_at": at, "finished": True, "version": 7}
        )  # fmt: skip
        for position in range(2):
            sides.append(
                {"id": 2 * n + position + 1, "game_id": game_id, "position": position,
                 "name": "Us", "total": 1000 * position, "outcome": "won", "record": {}}
            )  # fmt: skip
        evening, seat = divmod(n, TABLES * ROUNDS)
        evening_id = f"e{evening:05d}"
        round_id = n // TABLES + 1
        if seat == 0:
            evening_rows.append(
                {"id": evening_id, "token_hash": "0" * 64, "name": evening_id,
                 "variant": "classic", "options": {}, "format": "pairs", "rounds": ROUNDS,
                 "deals_per_round": 4, "created_at": at, "season_id": season_id}
            )  # fmt: skip
            stamps.append({"evening_id": evening_id})
        if seat % TABLES == 0:
            number = seat // TABLES + 1
            rounds.append(
                {"id": round_id, "evening_id": evening_id, "number": number,
                 "started_at": at, "byes": []}
            )  # fmt: skip
        tables.append({"round_id": round_id, "number": seat % TABLES + 1, "game_id": game_id})
    db.session.execute(insert(Game), games)
    db.session.execute(insert(Side), sides)
    db.session.execute(insert(Evening), evening_rows)
    db.session.execute(insert(EveningStamp), stamps)
    db.session.execute(insert(EveningRound), rounds)
    db.session.execute(insert(EveningTable), tables)
    db.session.commit()
    return evening_id, season_id


def evening_sum(evening_id: str) -> object:
    """The evening's key before: its version and the sum of its tables' games' versions."""
    return db.session.execute(
        select(Evening.version, Evening.token_hash, func.coalesce(func.sum(Game.version), 0))
        .select_from(Evening)
        .outerjoin(EveningRound, EveningRound.evening_id == Evening.id)
        .outerjoin(EveningTable, EveningTable.round_id == EveningRound.id)
        .outerjoin(Game, Game.id == EveningTable.game_id)
        .where(Evening.id == evening_id)
        .group_by(Evening.id, Evening.version, Evening.token_hash)
    ).one_or_none()


def season_sums(season_id: str) -> object:
    """The season's key before: its row, then its evenings' games' and its evenings'
    versions summed (three queries)."""
    row = db.session.execute(
        select(Season.version, Season.token_hash).where(Season.id == season_id)
    ).one_or_none()
    games = db.session.scalar(
        select(func.coalesce(func.sum(Game.version), 0))
        .select_from(Evening)
        .join(EveningRound, EveningRound.evening_id == Evening.id)
        .join(EveningTable, EveningTable.round_id == EveningRound.id)
        .join(Game, Game.id == EveningTable.game_id)
        .where(Evening.season_id == season_id)
    )
    evenings_sum = db.session.scalar(
        select(func.coalesce(func.sum(Evening.version), 0)).where(Evening.season_id == season_id)
    )
    return row, games, evenings_sum


def history_before() -> object:
    """What the history page read before at every request, its copy kept or not: the
    roster for its filter, the listing its key held, and the evenings beside it."""
    return (
        roster_choices(),
        history.listing(history.Filters()),
        history.evening_lines(history.Filters()),
    )


def rows(evening_id: str, season_id: str) -> dict[str, Callable[[], object]]:
    """Each version read, and the read it replaced."""
    return {
        "ratings (counter)": ratings.version,
        "history (counter)": history.version,
        "history before (listing, evenings, roster)": history_before,
        "evening (its stamp)": lambda: evenings.stamp_of(evening_id),
        "evening before (sum of 60 tables)": lambda: evening_sum(evening_id),
        "season (its stamp)": lambda: seasons.stamp_of(season_id),
        "season before (three sums)": lambda: season_sums(season_id),
    }


def between() -> None:
    """Each read as a request makes it: a version on a connection of its own (``version_row``),
    the sums it replaced in a reader's transaction of their own (its BEGIN timed)."""
    db.session.rollback()


def main(counts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/versions.sqlite"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
        with app.test_request_context():
            print(f"database: {db.engine.dialect.name}")
            for count in counts:
                for name, work in rows(*seed(count)).items():
                    work()
                    print(f"{count:>6} games  {name:<42} {median_ms(200, work, between):.3f} ms")
            db.session.remove()
            db.engine.dispose()


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [60, 6000])
