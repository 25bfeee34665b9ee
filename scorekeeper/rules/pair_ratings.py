"""Partnerships rated as partnerships (RULES.md section 12, "Pairs"): each side of a game
is one entrant of the model, whoever its people are, so a pair's rating says how well those
people do *together*, which the people's own ratings (``ratings.rate``) cannot: there each
person is rated alone and a side's strength is its people's together.

A partnership is the set of its people, so Ana with Boris and Boris with Ana are one. A game
counts for the partnerships when it counts for the people (``ratings.counts``) and every
side has two seats or more (a game of players alone has no partnership). A side with a seat
nobody on the roster took plays as a newcomer partnership for that game and is forgotten,
as a guest is for the people. The model, the ranking, the margin of a VP evening's table and
the figure shown are the people's (``ratings.rate_game``, ``Rating``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Generic

from openskill.models import PlackettLuceRating

from .ratings import MODEL, Person, PlayedGame, Rating, check_seated_once, counts, rate_game


@dataclass(frozen=True)
class PairRated(Generic[Person]):
    """A partnership's rating now, its rated games (oldest first) and the games it won
    alone (the sole first place)."""

    people: frozenset[Person]
    rating: Rating
    games: tuple[str, ...]
    won: int


def pair_counts(game: PlayedGame[Person]) -> bool:
    """Whether the game moves partnerships' ratings: it counts for the people and every
    side has two seats or more."""
    return counts(game) and all(len(side.people) >= 2 for side in game.sides)


def partnership(people: Iterable[Person | None]) -> frozenset[Person] | None:
    """The partnership of a side's people, in any order; None when a seat is a guest's."""
    seated = tuple(people)
    if any(person is None for person in seated):
        return None
    return frozenset(person for person in seated if person is not None)


def rate_pairs(
    games: Iterable[PlayedGame[Person]],
) -> Mapping[frozenset[Person], PairRated[Person]]:
    """Every rated partnership after ``games``, given in the order they were played."""
    now: dict[frozenset[Person], PlackettLuceRating] = {}
    played: dict[frozenset[Person], list[str]] = {}
    won: dict[frozenset[Person], int] = {}
    for game in games:
        if not pair_counts(game):
            continue
        check_seated_once(game)
        pairs = [partnership(side.people) for side in game.sides]
        # One entrant per side: a guest's side is a newcomer each time, and is not kept.
        sides = [[now[pair] if pair in now else MODEL.rating()] for pair in pairs]
        after, ranks = rate_game(sides, game)
        alone = ranks.count(1) == 1
        for pair, rated, place in zip(pairs, after, ranks, strict=True):
            if pair is None:
                continue
            now[pair] = rated[0]
            played.setdefault(pair, []).append(game.game_id)
            won[pair] = won.get(pair, 0) + (place == 1 and alone)
    return {
        pair: PairRated(pair, Rating.of(rating), tuple(played[pair]), won[pair])
        for pair, rating in now.items()
    }
