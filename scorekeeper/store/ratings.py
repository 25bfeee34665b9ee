"""The club's ratings (``rules.ratings``) over every finished game that is listed.

They are recomputed from the sides' cached totals (``Side.total``, kept by every change),
never stored: an edit, a deletion or a restore just works. ``version`` is what they depend
on, for the key they are kept under (``caching.cached``): a counter (``Counter``, named
``ratings``) read as one row by its name; ``club`` reads the games in the order they were
played, in one query, and rates them.

Why ``version`` moves with every change that can move a rating (or a name on the ladder):
every change of a game ends in ``changes.commit``, which moves it (``ratings_moved``) in the
change's transaction whenever the game is finished before or after it (a deal that ends or
reopens it, an edit or an undo in a finished game, a finished game deleted, restored or
imported, time called); a rename moves it too, and so does a restore from a backup. A game
in progress counts for nobody, so its deals leave the ratings alone.

A table of a club evening scored by victory points is rated by its sides' VP with the margin
(``rules.ratings``, RULES.md section 12): ``SEATS`` reads the evening's scoring beside the
seats, so still one query. The partnerships are rated as partnerships from the same games
(``rules.pair_ratings``), kept in the same ``Club``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby

from sqlalchemy import select

from ..rules.pair_ratings import PairRated, rate_pairs
from ..rules.ratings import PlayedGame, RatedSide, Rating, rate
from ..rules.victory_points import read_scoring, table_victory_points
from . import counters
from .db import db
from .models import Deal, Evening, EveningRound, EveningTable, Game, Person, Player, Side

GAME = Game.__table__
DEAL = Deal.__table__
SIDE = Side.__table__
PLAYER = Player.__table__
PERSON = Person.__table__
EVENING = Evening.__table__
ROUND = EveningRound.__table__
TABLE = EveningTable.__table__

#: The finished games that are listed (not deleted): what the ratings are made of.
_FINISHED = (GAME.c.finished.is_(True), GAME.c.deleted_at.is_(None))

#: Every seat of those games, in the order they were played (ties of time by id), with the
#: scoring of the club evening a game is a table of (None for other games).
SEATS = (
    select(
        GAME.c.id,
        GAME.c.created_at,
        SIDE.c.position,
        SIDE.c.total,
        PLAYER.c.person_id,
        EVENING.c.scoring,
    )
    .select_from(GAME.join(SIDE, SIDE.c.game_id == GAME.c.id))
    .join(PLAYER, PLAYER.c.side_id == SIDE.c.id)
    .outerjoin(TABLE, TABLE.c.game_id == GAME.c.id)
    .outerjoin(ROUND, ROUND.c.id == TABLE.c.round_id)
    .outerjoin(EVENING, EVENING.c.id == ROUND.c.evening_id)
    # A club table whose round was closed before its first deal is a draw nobody played.
    .where(*_FINISHED, select(DEAL.c.id).where(DEAL.c.game_id == GAME.c.id).exists())
    .order_by(GAME.c.created_at, GAME.c.id, SIDE.c.position, PLAYER.c.position)
)

_NAMES = select(PERSON.c.id, PERSON.c.name, PERSON.c.key)


def version() -> int:
    """The version of the ratings: it moves with every change that can move one."""
    return counters.value(counters.RATINGS)


@dataclass(frozen=True)
class Rated:
    """A rated person as the pages show them: their rating, the figure shown after each
    of their rated games (oldest first), the games they won and when they last played.
    Kept in the cache, so plain figures: a tuple of ints reads back ten times faster than
    as many objects (docs/PERFORMANCE.md, "Ratings")."""

    rating: Rating
    history: tuple[int, ...]
    won: int
    last_played: datetime


@dataclass(frozen=True)
class Club:
    """Everyone rated, how many games counted, and every partnership rated as one (its
    people's ids as a set)."""

    people: Mapping[int, Rated]
    games: int
    pairs: Mapping[frozenset[int], PairRated[int]]


def played_games() -> tuple[list[PlayedGame[int]], dict[str, datetime]]:
    """The finished, listed games in play order, and when each was played (one query).
    A table of an evening scored by victory points carries its sides' VP as its scores."""
    games: list[PlayedGame[int]] = []
    played: dict[str, datetime] = {}
    for game_id, seats in groupby(db.session.execute(SEATS), key=lambda row: row[0]):
        sides: dict[int, tuple[list[int | None], int]] = {}
        scoring: object = None
        for _, created_at, position, total, person_id, evening_scoring in seats:
            played[game_id], scoring = created_at, evening_scoring
            sides.setdefault(position, ([], total))[0].append(person_id)
        rated = tuple(RatedSide(tuple(people), total) for people, total in sides.values())
        games.append(PlayedGame(game_id, rated, _scores(scoring, rated)))
    return games, played


def _scores(scoring: object, sides: tuple[RatedSide[int], ...]) -> tuple[int, ...] | None:
    """The sides' VP at a table of an evening scored by them (of two sides), else None."""
    scale = read_scoring(scoring)
    if scale is None or len(sides) != 2:
        return None
    return table_victory_points([side.total for side in sides], scale)


def club() -> Club:
    """The ratings after every finished, listed game (one query)."""
    games, played = played_games()
    ratings = rate(games)
    people = {
        person_id: Rated(
            steps[-1].rating,
            tuple(step.rating.shown for step in steps),
            sum(step.won for step in steps),
            played[steps[-1].game_id],
        )
        for person_id, steps in ratings.history.items()
    }
    return Club(people, len(ratings.rated), rate_pairs(games))


def place(club: Club, person_id: int) -> tuple[int, int] | None:
    """A rated person's place on the ladder (1 plus the number rated higher, so equal
    ratings share a place) and how many are on it; None for someone not rated yet."""
    if person_id not in club.people:
        return None
    shown = club.people[person_id].rating.shown
    higher = sum(rated.rating.shown > shown for rated in club.people.values())
    return higher + 1, len(club.people)


@dataclass(frozen=True)
class LadderLine:
    """A rated person's line on the club ladder."""

    person_id: int
    name: str
    #: 1 plus the number of people rated higher (equal ratings share a place).
    place: int
    rating: Rating
    games: int
    won: int
    last_played: datetime


def ladder(club: Club) -> list[LadderLine]:
    """Everyone with a rated game, the highest rating first, then by name (one query)."""
    names = {person_id: (name, key) for person_id, name, key in db.session.execute(_NAMES)}
    shown = sorted((rated.rating.shown for rated in club.people.values()), reverse=True)
    lines = [
        LadderLine(
            person_id,
            names[person_id][0],
            # Equal ratings share a place: the first of them in ``shown``.
            shown.index(rated.rating.shown) + 1,
            rated.rating,
            len(rated.history),
            rated.won,
            rated.last_played,
        )
        for person_id, rated in club.people.items()
    ]
    lines.sort(key=lambda line: (line.place, names[line.person_id][1]))
    return lines
