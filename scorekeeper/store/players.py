"""The roster read: people who play here, their seats in every game, and their statistics.

A seat named at a new game finds its person by name (``changes.person_for``: "ana" is
Ana), so a player's history follows them across games and variants; renaming a person
(``changes.rename_player``) renames their seats and keeps the history. Statistics add up
each side's cached ``SideRecord`` (stored by ``games`` after every change, from
``rules.stats``), so a player's page reads rows, not replays.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Select, and_, bindparam, case, func, or_, select

from ..rules.stats import (
    Meeting,
    Outcome,
    Rivalry,
    SideRecord,
    Summary,
    head_to_head,
    summarise,
)
from .db import db
from .models import Deal, Game, Person, Player, Side

#: The counting figures of a ``SideRecord``, as ``Side.record`` stores them.
RECORD_COUNTS = tuple(
    f.name for f in fields(SideRecord) if f.name not in ("outcome", "total", "tiers")
)


def record_to_json(record: SideRecord) -> dict[str, object]:
    data: dict[str, object] = {name: getattr(record, name) for name in RECORD_COUNTS}
    data["tiers"] = {str(minimum): deals for minimum, deals in record.tiers.items()}
    return data


def name_key(name: str) -> str:
    """A name folded for matching: case, width and spacing do not make another person."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def is_default_name(side: str, position: int, name: str, seats: int) -> bool:
    """Whether a seat carries the name a game gives when none is typed ("Us 1" on the side
    "Us"): such a seat is nobody on the roster."""
    return seats > 1 and name_key(name) == name_key(f"{side} {position + 1}")


class Listed(NamedTuple):
    """Someone on the roster as their page's frame needs them."""

    id: int
    name: str
    #: Their page's version (see ``Person.version``).
    version: int


PERSON = Person.__table__
_FIND = select(PERSON.c.id, PERSON.c.name, PERSON.c.version).where(
    PERSON.c.id == bindparam("person_id")
)


def find(person_id: int) -> Listed | None:
    row = db.session.execute(_FIND, {"person_id": person_id}).one_or_none()
    return None if row is None else Listed(row.id, row.name, row.version)


@dataclass(frozen=True)
class RosterLine:
    person: Person
    games: int
    won: int
    last_played: object | None


WON = Outcome.WON.value


#: A game played, as a player's page counts one (``rules.stats.Tally``): finished, with a
#: deal (a club table closed before its first deal is a draw nobody played).
_PLAYED = and_(
    Game.id.is_not(None),
    Game.finished.is_(True),
    select(Deal.id).where(Deal.game_id == Game.id).exists(),
)


def roster() -> list[RosterLine]:
    """Everyone on the roster, by name, with games played and won, as their pages count
    them, and the day they last sat down (one query)."""
    rows = db.session.execute(
        select(
            Person,
            func.coalesce(func.sum(case((_PLAYED, 1), else_=0)), 0),
            func.coalesce(func.sum(case((and_(_PLAYED, Side.outcome == WON), 1), else_=0)), 0),
            func.max(Game.created_at),
        )
        .outerjoin(Player, Player.person_id == Person.id)
        .outerjoin(Side, Side.id == Player.side_id)
        # A deleted game counts in nobody's figures until it is restored.
        .outerjoin(Game, and_(Game.id == Side.game_id, Game.deleted_at.is_(None)))
        .group_by(Person.id)
        .order_by(Person.key)
    ).all()
    return [RosterLine(person, games, won, last) for person, games, won, last in rows]


_CHOICES = select(PERSON.c.id, PERSON.c.name).order_by(PERSON.c.key)


def roster_choices() -> list[tuple[int, str]]:
    """Everyone's id and name, by name (for pickers: one light query)."""
    return [(person_id, name) for person_id, name in db.session.execute(_CHOICES)]


def may_rename(person_id: int, scoring: Collection[str]) -> bool:
    """Whether the caller keeps score of every game this person sat in (``scoring``: the
    ids of the games whose secret it holds), and of one at least. Their name shows on each
    of those sheets: a phone may change only what the sheets it scores show, never a sheet
    another phone keeps (a game made elsewhere with their name, in any case, is such a
    sheet)."""
    if not scoring:
        return False
    sat_in = select(Side.game_id).join(Player, Player.side_id == Side.id)
    sat_in = sat_in.where(Player.person_id == person_id)
    kept = list(scoring)
    if db.session.scalar(sat_in.where(Side.game_id.in_(kept)).limit(1)) is None:
        return False
    return db.session.scalar(sat_in.where(Side.game_id.not_in(kept)).limit(1)) is None


@dataclass(frozen=True)
class PlayedSide:
    """A game as one person (or partnership) played it: read as plain rows, not objects,
    so a page over thousands of games costs a handful of queries."""

    game_id: str
    created_at: datetime
    variant: str
    side_id: int
    record: SideRecord


@dataclass(frozen=True)
class Partnership:
    """People who sat on one side together, and how they did."""

    people: tuple[Person, ...]
    summary: Summary

    @property
    def slug(self) -> str:
        return "-".join(str(person.id) for person in self.people)


@dataclass(frozen=True)
class PlayerPage:
    person: Person
    summary: Summary
    sides_played: list[PlayedSide]
    partnerships: list[Partnership]
    rivals: list[Rivalry[Person]]


def record_from_json(outcome: str, total: int, data: Mapping[str, Any] | None) -> SideRecord:
    """A side's cached record as ``record_to_json`` wrote it."""
    data = data or {}
    return SideRecord(
        outcome=Outcome(outcome),
        total=total,
        **{name: int(data.get(name, 0)) for name in RECORD_COUNTS},
        tiers={int(minimum): int(deals) for minimum, deals in data.get("tiers", {}).items()},
    )


def _sides_together(person_ids: Sequence[int], *, exactly: bool) -> Select[Any]:
    """The ids of sides on which all these people sat (with ``exactly``: nobody else)."""
    # A deleted game counts in nobody's figures until it is restored.
    listed = select(Side.id).join(Game, Game.id == Side.game_id).where(Game.deleted_at.is_(None))
    query = (
        select(Player.side_id)
        .where(Player.person_id.in_(person_ids), Player.side_id.in_(listed))
        .group_by(Player.side_id)
        .having(func.count(func.distinct(Player.person_id)) == len(person_ids))
    )
    if exactly:
        crowded = select(Player.side_id).where(
            Player.side_id.in_(query),
            or_(Player.person_id.not_in(person_ids), Player.person_id.is_(None)),
        )
        query = query.where(Player.side_id.not_in(crowded))
    return query


def _sides_played(sides: Select[Any]) -> list[PlayedSide]:
    """The sides' games that had a deal, oldest first, each with the side's cached record
    (one query). A game with no deal was not played: it is in no figure, no strip of the
    last games, no partnership and no head to head."""
    rows = db.session.execute(
        select(Game.id, Game.created_at, Game.variant)
        .add_columns(Side.id, Side.outcome, Side.total, Side.record)
        .join(Side, Side.game_id == Game.id)
        .where(Side.id.in_(sides))
        .order_by(Game.created_at, Game.id)
    ).all()
    sides_played = [
        PlayedSide(game_id, created, variant, side_id, record_from_json(outcome, total, record))
        for game_id, created, variant, side_id, outcome, total, record in rows
    ]
    return [played for played in sides_played if played.record.deals]


def _summary(sides_played: Sequence[PlayedSide]) -> Summary:
    return summarise([(played.variant, played.record) for played in sides_played])


def player_page(person_id: int) -> PlayerPage | None:
    """A person's statistics, partnerships and rivals, in a fixed number of queries."""
    person = db.session.get(Person, person_id)
    if person is None:
        return None
    mine = _sides_together([person.id], exactly=False)
    sides_played = _sides_played(mine)
    # Everyone at those games: (game, side, side's outcome, person) rows, one query.
    games = select(Side.game_id).where(Side.id.in_(mine))
    rows = db.session.execute(
        select(Side.game_id, Side.id, Side.outcome, Player.person_id)
        .join(Player, Player.side_id == Side.id)
        .where(Side.game_id.in_(games))
    ).all()
    people = {
        p.id: p
        for p in db.session.scalars(
            select(Person).where(Person.id.in_({row[3] for row in rows if row[3] is not None}))
        )
    }
    people[person.id] = person
    seated: dict[int, list[int | None]] = {}
    at_game: dict[str, list[tuple[int, str, int | None]]] = {}
    for game_id, side_id, outcome, seated_person in rows:
        seated.setdefault(side_id, []).append(seated_person)
        at_game.setdefault(game_id, []).append((side_id, outcome, seated_person))

    together: dict[tuple[int, ...], list[PlayedSide]] = {}
    meetings: list[Meeting[Person]] = []
    for played in sides_played:
        mates = seated.get(played.side_id, [])
        if len(mates) > 1 and None not in mates:
            together.setdefault(tuple(sorted(m for m in mates if m is not None)), []).append(played)
        if played.record.outcome is Outcome.OPEN:
            continue
        for side_id, outcome, other in at_game.get(played.game_id, []):
            if side_id != played.side_id and other is not None:
                meetings.append(
                    Meeting(
                        people[other],
                        won=played.record.outcome is Outcome.WON,
                        lost=outcome == Outcome.WON.value,
                    )
                )
    partnerships = [
        Partnership(tuple(people[i] for i in key), _summary(partners))
        for key, partners in together.items()
    ]
    partnerships.sort(key=lambda p: (-p.summary.games.played, p.slug))
    return PlayerPage(
        person=person,
        summary=_summary(sides_played),
        sides_played=sides_played,
        partnerships=partnerships,
        rivals=head_to_head(meetings),
    )


@dataclass(frozen=True)
class PartnershipPage:
    people: tuple[Person, ...]
    summary: Summary
    sides_played: list[PlayedSide]


def partnership_page(person_ids: Sequence[int]) -> PartnershipPage | None:
    """The games these people played as one side, and their figures; None when they are
    not all on the roster."""
    ids = sorted(set(person_ids))
    people = list(db.session.scalars(select(Person).where(Person.id.in_(ids))))
    if len(ids) < 2 or len(people) != len(ids):
        return None
    sides_played = _sides_played(_sides_together(ids, exactly=True))
    return PartnershipPage(
        tuple(sorted(people, key=lambda p: p.id)), _summary(sides_played), sides_played
    )
