"""Ratings across the club (RULES.md section 12): every finished game moves its players'
ratings, whatever the rule set, the evening or the number of sides.

The model is openskill's Plackett-Luce (Weng and Lin's Bayesian approximation, 2011), kept
as a library (docs/LIBRARIES.md): each person's skill is a belief ``mu`` with an uncertainty
``sigma``; a side's strength is its players' together, and a game's sides are ranked by
their final totals, the highest first, equal totals sharing a place (a draw). The rating
shown to players is the library's ordinal (``mu - 3 sigma``: a skill they are almost
certainly above) on a scale like a chess club's, where a newcomer starts at 1000 and the
figure settles as games tell more.

Which games count: the caller gives finished games in the order they were played. A game
counts when every side has somebody from the roster; a seat without one plays as a guest
with a newcomer's rating, used for that game and forgotten. A game of guests only on one
side would rate the club against nobody in particular, so it is left out.

The margin: a table of a club evening scored by victory points gives each side its VP as
its score, and the model is told to count the margin (openskill's ``rate(scores=...)`` with
the model's ``margin`` of ``VP_MARGIN``): the ranking is by those VP (a 10-10 table is a
draw), and a win by more than one step of the scale counts for more than a plain win
between sides of unequal estimates (RULES.md section 12). Other games are ranked by their
totals, the margin left out.

Ratings are recomputed from the games each time, so an edited, deleted or restored game
just works, as a deal of a game does.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from openskill.models import PlackettLuce, PlackettLuceRating

#: Who is rated: a roster person's id (any hashable key; the tests use names too).
Person = TypeVar("Person", bound=Hashable)

#: The library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): a newcomer's belief
#: and how fast it moves are those the model was published and tested with.
MODEL = PlackettLuce()

#: The shown rating: the ordinal times SCALE, plus START. A newcomer's ordinal is 0 (1000);
#: a settled club spans ordinals of about 10 to 26, so about 1400 to 2050.
SCALE = 40.0
START = 1000.0

#: The margin, in victory points, past which a VP table's win is more than a plain one: one
#: step of a scale (11-9 counts as a plain win; 12-8 more, 20-0 most).
VP_MARGIN = 2.0
#: The same model told to count that margin when a game gives scores (openskill's
#: documented ``margin``: the difference of scores needed for a win to be impressive).
MARGIN_MODEL = PlackettLuce(margin=VP_MARGIN)


class RatingError(ValueError):
    """Games that cannot be rated as given (the caller's mistake); the message says why."""


@dataclass(frozen=True)
class Rating:
    """A skill belief: ``mu`` the estimate, ``sigma`` how unsure it still is, and ``shown``
    the figure players see (the library's ordinal, scaled)."""

    mu: float
    sigma: float
    shown: int

    @classmethod
    def of(cls, rating: PlackettLuceRating) -> Rating:
        return cls(rating.mu, rating.sigma, round(rating.ordinal(alpha=SCALE, target=START)))


#: Everyone's rating before their first rated game.
NEWCOMER = Rating.of(MODEL.rating())


@dataclass(frozen=True)
class RatedSide(Generic[Person]):
    """A side as the game ended: who sat on it (None for a seat nobody on the roster
    took) and its final total."""

    people: tuple[Person | None, ...]
    total: int


@dataclass(frozen=True)
class PlayedGame(Generic[Person]):
    """A finished game: its id and its sides (two or three); ``scores``, one per side, when
    its margin counts (a VP evening's table: each side's VP), else None (ranked by totals)."""

    game_id: str
    sides: tuple[RatedSide[Person], ...]
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True)
class RatingStep:
    """A person's rating after one rated game, with their side's place in it (1 is the
    best; sides with equal totals share a place) and whether it won alone."""

    game_id: str
    rating: Rating
    place: int
    won: bool


@dataclass(frozen=True)
class Ratings(Generic[Person]):
    """Every rated person's steps, oldest first, and the games that counted."""

    history: Mapping[Person, tuple[RatingStep, ...]]
    rated: tuple[str, ...]

    def current(self, person: Person) -> Rating:
        """A person's rating now (a newcomer's when no game of theirs counted)."""
        steps = self.history.get(person)
        return steps[-1].rating if steps else NEWCOMER


def places(totals: Sequence[int]) -> tuple[int, ...]:
    """Each side's place by its total: 1 plus the number of sides above it, so equal
    totals share a place (a draw) and the next place is skipped (1, 1, 3)."""
    return tuple(1 + sum(other > total for other in totals) for total in totals)


def counts(game: PlayedGame[Person]) -> bool:
    """Whether the game moves ratings: two sides or more, each with someone on the roster."""
    return len(game.sides) >= 2 and all(
        any(person is not None for person in side.people) for side in game.sides
    )


def rate_game(
    sides: list[list[PlackettLuceRating]], game: PlayedGame[Person]
) -> tuple[list[list[PlackettLuceRating]], tuple[int, ...]]:
    """One game's sides (their ratings before it, in the game's order) after it, and each
    side's place: by the scores with the margin when the game has them, else by totals."""
    if game.scores is not None:
        if len(game.scores) != len(game.sides):
            raise RatingError(f"Game {game.game_id} gives a score to each side or to none.")
        after = MARGIN_MODEL.rate(sides, scores=[float(score) for score in game.scores])
        return after, places(game.scores)
    ranks = places([side.total for side in game.sides])
    return MODEL.rate(sides, ranks=[float(place) for place in ranks]), ranks


def check_seated_once(game: PlayedGame[Person]) -> None:
    seated = [person for side in game.sides for person in side.people if person is not None]
    if len(seated) != len(set(seated)):
        raise RatingError(f"Game {game.game_id} seats the same person twice.")


def rate(games: Iterable[PlayedGame[Person]]) -> Ratings[Person]:
    """Everyone's ratings after ``games``, given in the order they were played."""
    now: dict[Person, PlackettLuceRating] = {}
    history: dict[Person, list[RatingStep]] = {}
    rated = []
    for game in games:
        if not counts(game):
            continue
        check_seated_once(game)
        # A guest's seat (None) is a newcomer each time: it weighs in, and is not kept.
        sides = [
            [now[p] if p in now else MODEL.rating() for p in side.people] for side in game.sides
        ]
        after, ranks = rate_game(sides, game)
        alone = ranks.count(1) == 1
        for side, rated_side, place in zip(game.sides, after, ranks, strict=True):
            for person, rating in zip(side.people, rated_side, strict=True):
                if person is None:
                    continue
                now[person] = rating
                step = RatingStep(game.game_id, Rating.of(rating), place, place == 1 and alone)
                history.setdefault(person, []).append(step)
        rated.append(game.game_id)
    return Ratings({person: tuple(steps) for person, steps in history.items()}, tuple(rated))
