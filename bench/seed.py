"""A realistic database for the benchmark: finished classic games, a long game, open games.

Every deal is generated at random but plausibly (one side goes out with a canasta, at most
four red threes, meld points that hold the canastas and reach the side's minimum) and is
recorded through the store layer (``import_game``: ``create_game``, then ``add_deal`` for
each deal), so the rules engine checks it exactly as it checks a deal entered at the table,
and the sides' cached totals and records (history, statistics) are what the app stores.
Besides the finished games it seeds the open games the writes go to: those the API records
deals into, those the deal page saves into (classic games by size, and Modern American
games, as many as the benchmark asks for) and a 1,000-deal game to export and import again.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import Integer, create_engine, event

from scorekeeper.rules import (
    VARIANTS,
    RuleSet,
    SideResult,
    apply_options,
    errors_of,
    score_deal,
    validate_deal,
)
from scorekeeper.rules.game import winner_of
from scorekeeper.store import db
from scorekeeper.store.changes import Claimed, SideSpec, import_game
from scorekeeper.store.models import Game

#: Fifty regulars of a club, by first name (the four languages' players).
# fmt: off
PLAYERS = (
    "Ana", "Boris", "Cveta", "Dimitar", "Elena", "Filip", "Gordana", "Hristo", "Irina", "Jovan",
    "Katarina", "Ljupčo", "Marija", "Nikola", "Olga", "Petar", "Radmila", "Stefan", "Tanja",
    "Vasil", "Zoran", "Biljana", "Goran", "Snežana", "Aleksandar", "Olena", "Dmitrij",
    "Svetlana", "Igor", "Natalia", "Sergej", "Tatiana", "Pavel", "Ludmila", "Mikhail", "Jana",
    "Peter", "Zuzana", "Martin", "Lucia", "Tomáš", "Eva", "Juraj", "Monika", "Michal", "Lenka",
    "Marek", "Zdenka", "Rastislav", "Vera",
)
# fmt: on
assert len(PLAYERS) == len(set(PLAYERS)) == 50

#: Finished games have this many deals (the issue's "15 to 30").
DEALS_PER_GAME = (15, 30)
#: The typical game the reads are measured on: one with this many deals is always seeded.
TYPICAL_DEALS = 23
#: Games are redated (and those changes committed) in batches of this many.
BATCH = 50
#: House rules of the games that must not end while the benchmark adds deals to them.
ENDLESS = {"target": 1_000_000}


@dataclass
class Seeded:
    """What the benchmark needs to know about the seeded database."""

    finished: int = 0
    deals: int = 0
    #: A finished game with a typical number of deals, and the 200-deal game.
    typical_id: str = ""
    typical_deals: int = 0
    long_id: str = ""
    long_deals: int = 0
    #: Open games (id, token) that the POST benchmark records deals into.
    open_games: list[tuple[str, str]] = field(default_factory=list)
    #: The edit token of the typical and the long game (for the scorer's view).
    tokens: dict[str, str] = field(default_factory=dict)
    #: Open games the deal page saves into, by their number of deals: (id, token) each.
    deal_page_games: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    #: Open Modern American games the deal page saves into (id, token), and their deals.
    american_games: list[tuple[str, str]] = field(default_factory=list)
    american_deals: int = 0
    #: An open game of many deals (id, token) that the benchmark exports and imports.
    import_id: str = ""
    import_deals: int = 0
    seconds: float = 0.0

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=1))


def drawn_red_threes(rng: random.Random, rules: RuleSet) -> list[int]:
    """The red threes each of two sides laid down in a deal."""
    red_threes = [0, 0]
    for _ in range(rules.max_red_threes):
        if rng.random() < 0.3:  # else still in the stock when the deal ended
            red_threes[rng.randrange(2)] += 1
    return red_threes


def random_deal(rng: random.Random, rules: RuleSet, minimums: tuple[int, ...]) -> list[SideResult]:
    """One classic deal as a table might write it down: one side goes out, mostly with a
    single canasta; the other is often caught with cards in hand."""
    out = rng.randrange(2)
    red_threes = drawn_red_threes(rng, rules)
    results = []
    for side in range(2):
        went_out = side == out
        if went_out:
            natural, mixed = rng.choice([(0, 1)] * 8 + [(1, 0)] * 2 + [(1, 1), (0, 2)])
        else:
            natural, mixed = rng.choice([(0, 0)] * 12 + [(0, 1)] * 3 + [(1, 0)])
        least = 35 * natural + 50 * mixed
        melded = went_out or natural + mixed > 0 or rng.random() < 0.7
        meld = max(least, minimums[side]) + 5 * rng.randrange(0, 12) if melded else 0
        hand = 5 * rng.randrange(4, 30) if went_out else 5 * rng.randrange(15, 110)
        results.append(
            SideResult(
                meld_points=meld,
                natural_canastas=natural,
                mixed_canastas=mixed,
                red_threes=red_threes[side],
                went_out=went_out,
                concealed=went_out and rng.random() < 0.03,
                hand_points=hand,
            )
        )
    return results


def random_american_deal(
    rng: random.Random, rules: RuleSet, minimums: tuple[int, ...]
) -> list[SideResult]:
    """One Modern American deal (RULES.md section 13): one side goes out with the two
    canastas it needs, now and then an aces or a sevens canasta among them, and lays down
    its black threes; the other side has a canasta or none, and its red threes count
    against it without one (the swing)."""
    out = rng.randrange(2)
    red_threes = drawn_red_threes(rng, rules)
    results = []
    for side in range(2):
        went_out = side == out
        aces = sevens = 0
        if went_out:
            natural, mixed = rng.choice([(1, 1)] * 6 + [(0, 2)] * 3 + [(2, 0), (2, 1)])
            special = rng.random()
            aces, sevens = int(special < 0.08), int(0.08 <= special < 0.12)
            natural = max(0, natural - aces - sevens) if natural + mixed > 2 else natural
        else:
            natural, mixed = rng.choice([(0, 0)] * 5 + [(0, 1)] * 4 + [(1, 0)] * 2 + [(1, 1)])
        least = 35 * natural + 50 * mixed + 140 * aces + 50 * sevens
        meld = max(least, minimums[side]) + 5 * rng.randrange(0, 30)
        hand = 5 * rng.randrange(2, 20) if went_out else 5 * rng.randrange(10, 60)
        results.append(
            SideResult(
                meld_points=meld,
                natural_canastas=natural,
                mixed_canastas=mixed,
                aces_canastas=aces,
                sevens_canastas=sevens,
                red_threes=red_threes[side],
                black_threes=rng.randrange(2) if went_out else 0,
                went_out=went_out,
                hand_points=hand,
            )
        )
    return results


#: How each rule set the benchmark seeds draws a deal.
DEALS_OF = {"classic": random_deal, "american": random_american_deal}


def random_game(
    rng: random.Random, rules: RuleSet, deals: int | None = None
) -> list[list[SideResult]]:
    """The deals of a whole game: until a side wins (between 15 and 30 deals; games outside
    that are drawn again), or exactly ``deals`` deals of a game that must not end."""
    while True:
        totals = [0, 0]
        game: list[list[SideResult]] = []
        while deals is None or len(game) < deals:
            minimums = tuple(rules.meld_minimum(total, len(game) + 1) for total in totals)
            results = DEALS_OF[rules.id](rng, rules, minimums)
            assert not errors_of(validate_deal(results, rules, minimums=minimums)), results
            game.append(results)
            totals = [t + s for t, s in zip(totals, score_deal(results, rules), strict=True)]
            if deals is None and winner_of(totals, rules.target) is not None:
                break
        low, high = DEALS_PER_GAME
        if deals is not None:
            assert winner_of(totals, rules.target) is None, "the endless game ended"
            return game
        if low <= len(game) <= high:
            return game


def _record(
    rng: random.Random,
    deals: list[list[SideResult]],
    created: datetime,
    options: dict[str, object] | None = None,
    table: int | None = None,
    variant: str = "classic",
) -> tuple[str, str, bool]:
    """A game of four players drawn from the fifty, with its deals, as the store imports a
    game: each deal checked by the rules engine, then the game replayed, its sides' records
    cached and committed. The game is then dated back to ``created``.

    A game of tonight's load, at table number ``table``, seats four players left unnamed
    ("Table 12 A 1"): none is on the roster. Thousands of tables at once cannot seat the
    club's fifty regulars (a player sits at one table at a time: every save would wait for
    other tables' saves of the same players), and thousands of named guests would make a
    roster no club has (the history's player picker lists everyone)."""
    a1, b1, a2, b2 = rng.sample(PLAYERS, 4)
    sides = [SideSpec(f"{a1} & {a2}", [a1, a2]), SideSpec(f"{b1} & {b2}", [b1, b2])]
    if table is not None:
        sides = [SideSpec(f"Table {table} A"), SideSpec(f"Table {table} B")]
    game_id, token = import_game(
        variant,
        sides,
        options or {},
        rng.randrange(4),
        deals,
        Claimed(created_at=created),
    )
    game = db.session.get(Game, game_id)
    assert game is not None
    game.updated_at = created + timedelta(minutes=4 * len(deals))
    return game_id, token, game.finished


def seed(
    app: Flask,
    *,
    games: int = 1000,
    long_deals: int = 200,
    open_games: int = 32,
    deal_page_games: Mapping[int, int] | None = None,
    american_games: int = 0,
    american_deals: int = 20,
    import_deals: int = 1000,
) -> Seeded:
    """Fill the (empty, migrated) database of ``app``; deterministic for a given size.
    ``deal_page_games`` maps a number of deals to how many open games of that size to seed;
    ``american_games`` Modern American games of ``american_deals`` are seeded besides."""
    rng = random.Random(8)
    rules = VARIANTS["classic"]
    long_options: dict[str, object] = {"target": 200_000}
    seeded = Seeded()
    started = time.perf_counter()
    now = datetime.now(UTC).replace(tzinfo=None)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            # A throw-away file: no need to wait for the disk on every commit while seeding.
            event.listen(db.engine, "connect", _unsynchronised)
            db.engine.dispose()
        index = 0
        # If no game had the typical number of deals, one more is drawn until one has.
        while index < games or seeded.typical_deals != TYPICAL_DEALS:
            deals = random_game(rng, rules)
            if index >= games and len(deals) != TYPICAL_DEALS:
                continue
            # Two years of club evenings, oldest first.
            created = now - timedelta(days=730) + timedelta(hours=17.5 * index)
            game_id, token, finished = _record(rng, deals, created)
            assert finished, "a seeded game did not end"
            seeded.finished += 1
            seeded.deals += len(deals)
            if abs(len(deals) - TYPICAL_DEALS) < abs(seeded.typical_deals - TYPICAL_DEALS):
                seeded.typical_id, seeded.typical_deals = game_id, len(deals)
                seeded.tokens["typical"] = token
            if index % BATCH == BATCH - 1:
                db.session.commit()
                db.session.expunge_all()
            index += 1
        db.session.commit()
        long_game = random_game(rng, apply_options(rules, long_options), deals=long_deals)
        seeded.long_id, token, _ = _record(rng, long_game, now - timedelta(hours=3), long_options)
        seeded.long_deals = len(long_game)
        seeded.tokens["long"] = token
        seeded.deals += len(long_game)
        for index in range(open_games):
            deals = random_game(rng, apply_options(rules, ENDLESS), deals=10)
            game_id, token, _ = _record(
                rng, deals, now - timedelta(minutes=90 - index), dict(ENDLESS), table=index
            )
            seeded.open_games.append((game_id, token))
            seeded.deals += len(deals)
        db.session.commit()
        endless = apply_options(rules, ENDLESS)
        tables = open_games
        # Tonight's games, begun 14 hours ago (a 200-deal game takes that long).
        for size, count in (deal_page_games or {}).items():
            found = seeded.deal_page_games.setdefault(size, [])
            for index in range(count):
                deals = random_game(rng, endless, deals=size)
                opened = now - timedelta(hours=14) + timedelta(seconds=index % 3600)
                game_id, token, _ = _record(rng, deals, opened, dict(ENDLESS), table=tables)
                tables += 1
                found.append((game_id, token))
                seeded.deals += len(deals)
                if index % BATCH == BATCH - 1:
                    db.session.commit()
                    db.session.expunge_all()
            db.session.commit()
        american = apply_options(VARIANTS["american"], ENDLESS)
        for index in range(american_games):
            deals = random_game(rng, american, deals=american_deals)
            opened = now - timedelta(hours=2) + timedelta(seconds=index % 3600)
            game_id, token, _ = _record(
                rng, deals, opened, dict(ENDLESS), table=tables, variant="american"
            )
            tables += 1
            seeded.american_games.append((game_id, token))
            seeded.deals += len(deals)
            if index % BATCH == BATCH - 1:
                db.session.commit()
                db.session.expunge_all()
        seeded.american_deals = american_deals if american_games else 0
        db.session.commit()
        if import_deals:
            deals = random_game(rng, endless, deals=import_deals)
            seeded.import_id, token, _ = _record(rng, deals, now - timedelta(days=3), dict(ENDLESS))
            seeded.import_deals = len(deals)
            seeded.tokens["import"] = token
            seeded.deals += len(deals)
            db.session.commit()
        _analyze()
        db.session.remove()
        db.engine.dispose()
        event.remove(db.engine, "connect", _unsynchronised)
    seeded.seconds = time.perf_counter() - started
    return seeded


def _unsynchronised(connection: Any, _record: Any) -> None:
    connection.execute("PRAGMA synchronous=OFF")


def _analyze() -> None:
    """Planner statistics, as a database that has run for a while has them (autovacuum)."""
    with db.engine.begin() as connection:
        connection.exec_driver_sql("ANALYZE")


def copy_into(source_url: str, app: Flask) -> float:
    """Copy every row of a seeded database into the (migrated) database of ``app``,
    table by table in dependency order, and move the id sequences past the copied rows.
    The same games then load both databases; returns the seconds it took."""
    started = time.perf_counter()
    source = create_engine(source_url)
    with app.app_context():
        with source.connect() as reading, db.engine.begin() as writing:
            # The migrations write rows of their own (the ratings' counter): the copy's
            # replace them, or its insert would be refused as a duplicate key.
            for table in reversed(db.metadata.sorted_tables):
                writing.execute(table.delete())
            for table in db.metadata.sorted_tables:
                rows = [dict(row._mapping) for row in reading.execute(table.select())]
                if rows:
                    writing.execute(table.insert(), rows)
            if db.engine.dialect.name == "postgresql":
                for table in db.metadata.sorted_tables:
                    if "id" in table.c and isinstance(table.c.id.type, Integer):
                        writing.exec_driver_sql(
                            f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                            f"(SELECT coalesce(max(id), 0) + 1 FROM {table.name}), false)"
                        )
        _analyze()
        db.session.remove()
        db.engine.dispose()
    source.dispose()
    return time.perf_counter() - started
