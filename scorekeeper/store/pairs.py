"""Partnerships' ratings as the pages and the API show them (``rules.pair_ratings``, RULES.md
section 12, "Pairs"): the ladder read by pairs, a player's partnerships, one partnership's
rating. They come from the club's ratings (``ratings.club``, kept per version of the
finished games); only the names are read here (one query).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from ..rules.pair_ratings import PairRated
from ..rules.ratings import Rating
from .db import db
from .models import Person
from .ratings import Club

PERSON = Person.__table__
_NAMES = select(PERSON.c.id, PERSON.c.name, PERSON.c.key)


@dataclass(frozen=True)
class PairLine:
    """A rated pair on the ladder read by pairs: its people (id, name) by name, its place
    (1 plus the number of pairs rated higher), rating, rated games and games won."""

    people: tuple[tuple[int, str], ...]
    place: int
    rating: Rating
    games: int
    won: int

    @property
    def slug(self) -> str:
        """The partnership page's address part: the ids in ascending order."""
        return "-".join(str(person_id) for person_id in sorted(p for p, _ in self.people))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for _, name in self.people)


def _names() -> dict[int, tuple[str, str]]:
    return {person_id: (name, key) for person_id, name, key in db.session.execute(_NAMES)}


def pair_ladder(club: Club) -> list[PairLine]:
    """Every rated pair (two people on one side), the highest rating first, then by the
    names (one query)."""
    names = _names()
    pairs = [rated for key, rated in club.pairs.items() if len(key) == 2]
    shown = sorted((rated.rating.shown for rated in pairs), reverse=True)

    def line(rated: PairRated[int]) -> PairLine:
        people = sorted(rated.people, key=lambda person_id: names[person_id][1])
        return PairLine(
            tuple((person_id, names[person_id][0]) for person_id in people),
            shown.index(rated.rating.shown) + 1,
            rated.rating,
            len(rated.games),
            rated.won,
        )

    lines = [line(rated) for rated in pairs]
    lines.sort(key=lambda line: (line.place, [n.casefold() for n in line.names]))
    return lines


@dataclass(frozen=True)
class PartnerLine:
    """One partnership of a player's, rated as one entrant: the partner and its rating."""

    partner_id: int
    partner: str
    rating: Rating
    games: int


def pairs_of(club: Club, person_id: int) -> list[PartnerLine]:
    """The rated pairs a player sat in, the highest rating first, then by the partner's
    name (one query)."""
    names = _names()
    lines = []
    for key, rated in club.pairs.items():
        if len(key) != 2 or person_id not in key:
            continue
        (partner,) = key - {person_id}
        lines.append(PartnerLine(partner, names[partner][0], rated.rating, len(rated.games)))
    lines.sort(key=lambda line: (-line.rating.shown, names[line.partner_id][1]))
    return lines


def pair_rating(club: Club, person_ids: frozenset[int]) -> PairRated[int] | None:
    """A partnership's own rating, None when it has no rated game together."""
    return club.pairs.get(person_ids)
