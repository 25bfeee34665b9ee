"""How long the club's ratings take to rebuild from N finished games (docs/PERFORMANCE.md,
"Ratings"): the version every rating page reads first (one counter row), the rebuild a
changed game costs once per worker (read every seat in one query, rate the games), and the
size of what is kept in the cache.

    .venv/bin/python bench/ratings.py 2000 6000        # SQLite, in a temporary folder
    DATABASE_URL=postgresql://... .venv/bin/python bench/ratings.py 2000 6000

The games are written straight into the tables (rows as the store keeps them: finished,
each side's total, four seats from 50 regulars, a few guests' seats, one deal row, for a
game without a deal is not rated), not played through the rules engine: what is measured
is the read and the rating, not the seeding.
"""

from __future__ import annotations

import os
import pickle
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import delete, insert

from scorekeeper import create_app
from scorekeeper.store import db, ratings
from scorekeeper.store.models import Deal, Game, Person, Player, Side

REGULARS = 50


def seed(count: int) -> None:
    """``count`` finished classic games, two sides of two, over two years."""
    rng = random.Random(33)
    for table in (Deal, Player, Side, Game, Person):
        db.session.execute(delete(table))
    db.session.execute(
        insert(Person),
        [{"id": i + 1, "name": f"Player {i + 1}", "key": f"player {i + 1}"} for i in range(50)],
    )
    start = datetime(2025, 1, 1)
    games, sides, seats, deals = [], [], [], []
    for n in range(count):
        game_id = f"g{n:06d}"
        at = start + timedelta(minutes=175 * n)
        games.append(
            {"id": game_id, "token_hash": "0" * 64, "variant": "classic", "options": {},
             "created_at": at, "updated_at": at, "finished": True}
        )  # fmt: skip
        deals.append({"game_id": game_id, "seq": 1, "created_at": at})
        people = rng.sample(range(1, REGULARS + 1), 4)
        winner = rng.randrange(2)
        for position in range(2):
            side_id = 2 * n + position + 1
            won = position == winner
            total = rng.randrange(5000, 7000, 5) if won else rng.randrange(0, 5000, 5)
            sides.append(
                {"id": side_id, "game_id": game_id, "position": position, "name": "Us",
                 "total": total, "outcome": "won" if won else "lost",
                 "record": {}}
            )  # fmt: skip
            for seat in range(2):
                # One seat in twenty is a guest nobody on the list took.
                person = people[2 * position + seat] if rng.random() > 0.05 else None
                seats.append(
                    {"side_id": side_id, "position": seat, "name": "x", "person_id": person}
                )
    db.session.execute(insert(Game), games)
    db.session.execute(insert(Side), sides)
    db.session.execute(insert(Player), seats)
    db.session.execute(insert(Deal), deals)
    db.session.commit()


def median_ms(
    runs: int, work: Callable[[], object], between: Callable[[], object] = lambda: None
) -> float:
    """The median of ``runs`` timings of ``work()``, in milliseconds, ``between()`` before
    each, untimed."""
    times = []
    for _ in range(runs):
        between()
        began = time.perf_counter()
        work()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main(counts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/ratings.sqlite"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
        with app.app_context():
            print(f"database: {db.engine.dialect.name}")
            for count in counts:
                seed(count)
                club = ratings.club()
                kept = pickle.dumps(club)
                size = len(kept) / 1000
                # What a worker's page part costs when it misses: the club read back.
                unpickle = median_ms(5, lambda kept=kept: pickle.loads(kept))
                version = median_ms(20, ratings.version)
                rebuild = median_ms(5, ratings.club)
                read = median_ms(5, lambda: db.session.execute(ratings.SEATS).all())
                ladder = median_ms(5, lambda club=club: ratings.ladder(club))
                print(
                    f"{count:>6} games: version {version:.3f} ms, rebuild {rebuild:.0f} ms "
                    f"(reading the seats {read:.0f} ms), ladder {ladder:.1f} ms, "
                    f"cached {size:.0f} kB (read back {unpickle:.0f} ms)"
                )
            db.session.remove()
            db.engine.dispose()


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [2000, 6000])
