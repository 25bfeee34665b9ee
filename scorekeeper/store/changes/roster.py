"""The roster's changes: someone added, a person found or added for a seat, a player
renamed (and a rename undone).

A person's name shows on every sheet of every game they sat in: a rename is a change of
each of those games, so it locks them first (as every change of a game takes its row
first), checks, writes the names, and ends in the commit step (``commit_games``): each
game's version and log, its people's versions, the ratings' (the ladder shows names).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import bindparam, func, select, update

from ...rules.text import T
from ..db import db, transaction
from ..errors import Refused, Why, check_name
from ..log import RENAMED
from ..models import Game, Person, Player, Side
from ..players import may_rename, name_key
from .commit import LogEntry, commit_games, roster_changed
from .request_keys import RequestKey, earlier_among, keyed

NO_PERSON = T("There is no such player on the list.")

#: The games a person sat in (deleted ones too), locked in id order: the order in which
#: every change takes its games, so a rename and a deal saved meanwhile never wait for
#: each other in a circle (PostgreSQL would cancel one of them).
_GAMES_OF = (
    select(Game.id)
    .where(
        Game.id.in_(
            select(Side.game_id)
            .join(Player, Player.side_id == Side.id)
            .where(Player.person_id == bindparam("person_id"))
        )
    )
    .order_by(Game.id)
    .with_for_update()
)


def add_person(name: str) -> Person:
    """Add someone to the roster; refused when the name is taken."""
    name = check_name(name, "name", side=False)
    with transaction():
        if db.session.scalar(select(Person.id).where(Person.key == name_key(name))) is not None:
            raise Refused(
                Why.CONFLICT,
                T("%(name)s is already on the list.", name=name),
                {"name": T("Already on the list.")},
            )
        person = Person(name=name, key=name_key(name))
        db.session.add(person)
        roster_changed()
    return person


def person_for(name: str) -> Person:
    """The roster's person of this name, added when new (in the command's transaction)."""
    key = name_key(name)
    for pending in db.session.new:
        if isinstance(pending, Person) and pending.key == key:
            return pending
    with db.session.no_autoflush:
        person = db.session.scalar(select(Person).where(Person.key == key))
    if person is None:
        person = Person(name=name, key=key)
        db.session.add(person)
    return person


def rename_player(
    person_id: int,
    name: str,
    *,
    scoring: Collection[str],
    device: str = "",
    request_key: str | None = None,
) -> Person:
    """Give a person a new name, on the roster and in every seat they took. Only someone who
    keeps score of every game they sat in (``scoring``: the ids of the games whose secret
    the caller holds) may (``may_rename``): the name shows on each of those sheets, and in
    their change logs. A ``request_key`` that renamed them before renames nothing again
    and answers with the person as they are; sent with another name, it is refused."""
    name = check_name(name, "name", side=False)
    key = keyed(request_key, "rename-player", person_id, name)
    with transaction():
        person = db.session.get(Person, person_id)
        if person is None:
            raise Refused(Why.NOT_FOUND, NO_PERSON)
        games = _locked_games(person, scoring)
        if earlier_among(games, key, RENAMED) is None:
            _rename(person, name, games, device=device, key=key)
    return person


def rename_back(
    person: Person, name: str, *, scoring: Collection[str], device: str, logged_in: str
) -> None:
    """A rename undone from the log of game ``logged_in`` (whose undo logs itself, through
    its own commit), in the caller's transaction: the same checks and writes as a rename,
    logged in each other game."""
    games = _locked_games(person, scoring)
    _rename(person, name, [game for game in games if game != logged_in], device=device)


def _locked_games(person: Person, scoring: Collection[str]) -> list[str]:
    """The person's games, locked; refused, changing nothing, unless the caller keeps score
    of every one of them (``may_rename``)."""
    games = list(db.session.scalars(_GAMES_OF, {"person_id": person.id}))
    if not may_rename(person.id, scoring):
        raise Refused(
            Why.FORBIDDEN,
            T(
                "Only a phone that keeps score of every game %(name)s played in may change "
                "their name, which shows on each of those sheets; nothing was changed.",
                name=person.name,
            ),
        )
    return games


def _rename(
    person: Person,
    name: str,
    games: Sequence[str],
    *,
    device: str,
    key: RequestKey | None = None,
) -> None:
    """The names written (refused when someone else on the list has the name), then the
    commit step for ``games``."""
    new_key = name_key(name)
    taken = select(Person.id).where(Person.key == new_key, Person.id != person.id)
    if db.session.scalar(taken) is not None:
        raise Refused(
            Why.CONFLICT,
            T("Someone else on the list is called %(name)s.", name=name),
            {"name": T("Already on the list.")},
        )
    # A side of one player is named after them (classic for 2 or 3, Railroad): it follows.
    singles = select(Player.side_id).group_by(Player.side_id).having(func.count(Player.id) == 1)
    alone = db.session.scalars(
        select(Side.id)
        .join(Player, Player.side_id == Side.id)
        .where(Player.person_id == person.id, Player.name == Side.name, Side.id.in_(singles))
    ).all()
    entry = LogEntry(
        RENAMED,
        before={"person": person.id, "name": person.name},
        after={"person": person.id, "name": name},
    )
    if alone:
        db.session.execute(update(Side).where(Side.id.in_(alone)).values(name=name))
    db.session.execute(update(Player).where(Player.person_id == person.id).values(name=name))
    person.name = name
    person.key = new_key
    commit_games(games, entry, people=[person.id], device=device, key=key)
