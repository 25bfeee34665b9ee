"""A new game: its rule set, sides, players and first dealer checked, then created."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError

from ...rules import VARIANTS, OptionError, RuleSet, apply_options
from ...rules.limits import MAX_START
from ...rules.stats import Outcome, SideRecord
from ...rules.text import T
from ..db import db, transaction
from ..errors import Refused, Unavailable, Why, check_name
from ..games import hash_secret, sheet_of
from ..log import CREATED, describe
from ..models import Change, Game, Person, Player, Side, utcnow
from ..players import is_default_name, name_key, record_to_json
from ..seats import check_cards
from .commit import CHANGE, LogEntry, commit_replayed
from .request_keys import RequestKey, keyed, made_by
from .roster import person_for

#: Times a new game is built again after colliding with another one's new roster names.
CREATE_ATTEMPTS = 5

Made = TypeVar("Made")

#: The game a key created, and what it asked.
_CREATED_BY = select(CHANGE.c.game_id, CHANGE.c.request_hash).where(
    CHANGE.c.request_key == bindparam("key"), CHANGE.c.kind == CREATED
)


@dataclass
class SideSpec:
    """A side as the new-game form or the API gives it."""

    name: str
    players: list[str] = field(default_factory=list)
    start: int = 0
    #: The card each player drew for seats, in player order; empty when nobody drew.
    cards: list[str] = field(default_factory=list)


def creating(make: Callable[[], Made]) -> Made:
    """``make`` (a new game) in a writer's transaction. Two games naming the same new
    player at the same moment (PostgreSQL) both add them to the roster: the later collides
    on the roster's name key and is made again, finding the person the first one added."""
    for _attempt in range(CREATE_ATTEMPTS):
        try:
            with transaction():
                return make()
        except IntegrityError:
            continue
    raise Unavailable()  # as many new players named by others meanwhile: a moment later


def checked_rules(variant: str, sides: int, options: Mapping[str, object]) -> RuleSet:
    """The rules of a new table: its variant for ``sides`` sides, with its house options;
    refused for an unknown variant, a table it is not played at, or a bad option."""
    if variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise Refused(
            Why.INVALID,
            T(
                "There is no rule set called %(name)s; known: %(known)s.",
                name=repr(variant),
                known=known,
            ),
            {"variant": T("Unknown rule set; known: %(known)s.", known=known)},
        )
    try:
        seated = VARIANTS[variant].with_sides(sides)
    except OptionError as error:
        raise Refused(Why.INVALID, error.text, {"sides": error.text}) from None
    try:
        return apply_options(seated, options)
    except OptionError as error:
        raise Refused(Why.INVALID, error.text, {f"options.{error.option}": error.text}) from None


def check_start(start: int, rules: RuleSet, path: str) -> int:
    """A side's total carried over from paper: a score, short of the target."""
    if start % 5 or abs(start) > MAX_START:
        raise Refused(
            Why.INVALID,
            T("A starting total is a multiple of 5, like every score."),
            {path: T("A multiple of 5, like every score.")},
        )
    if rules.target is not None and start >= rules.target:
        raise Refused(
            Why.INVALID,
            T(
                "A starting total of %(start)s has already reached the target of %(target)s.",
                start=start,
                target=rules.target,
            ),
            {path: T("Less than the target, %(target)s.", target=rules.target)},
        )
    return start


def check_first_dealer(first_dealer: int, rules: RuleSet) -> int:
    """The seat of the first deal's dealer: one of the table's."""
    if not 0 <= first_dealer < rules.players:
        raise Refused(
            Why.INVALID,
            T("The first dealer must be one of the players."),
            {"first_dealer": T("Pick a player.")},
        )
    return first_dealer


def create_game(
    variant: str,
    sides: Sequence[SideSpec],
    options: Mapping[str, object] | None = None,
    first_dealer: int = 0,
    device: str = "",
    *,
    request_key: str | None = None,
) -> tuple[Game, str]:
    """Create a game; returns it with its edit secret (shown once, stored hashed). A
    ``request_key`` that created a game before creates none: its secret cannot be given
    again, so the retry is refused (``Why.CONFLICT``) naming that game; sent with another
    setup, it is refused as reused (``Why.REUSED``)."""
    asked = [variant, [asdict(spec) for spec in sides], dict(options or {}), first_dealer]
    key = keyed(request_key, "create-game", *asked)

    def make() -> tuple[Game, str]:
        check_created_before(key)
        game, secret = new_game(variant, sides, options, first_dealer)
        commit_replayed(
            sheet_of(game), LogEntry(CREATED), device=device, key=key, at=game.created_at
        )
        return game, secret

    return creating(make)


def check_created_before(key: RequestKey | None) -> None:
    """Refused when the key created a game before (an import's too): as ``create_game``."""
    row = made_by(_CREATED_BY, key, lambda _row: describe(Change(kind=CREATED)))
    if row is not None:
        raise Refused(
            Why.CONFLICT,
            T(
                "This request already created game %(id)s; its secret was given only in that "
                "first answer (it is kept hashed), so nothing was created again.",
                id=row.game_id,
            ),
            {"Idempotency-Key": T("Already created game %(id)s.", id=row.game_id)},
        )


def new_game(
    variant: str,
    sides: Sequence[SideSpec],
    options: Mapping[str, object] | None,
    first_dealer: int,
    created_at: datetime | None = None,
) -> tuple[Game, str]:
    """The game built and flushed in the current transaction (``commit`` ends it)."""
    rules = checked_rules(variant, len(sides), options or {})
    secret = secrets.token_urlsafe(24)
    now = created_at or utcnow()
    game = Game(
        id=secrets.token_urlsafe(12),
        token_hash=hash_secret(secret),
        variant=variant,
        options=dict(options or {}),
        created_at=now,
        updated_at=now,
    )
    seated_people: list[Person] = []
    drawn = check_cards([spec.cards for spec in sides], rules.players_per_side)
    for position, spec in enumerate(sides):
        path = f"sides.{position}"
        side = Side(
            position=position,
            name=check_name(spec.name, f"{path}.name", side=True),
            start=spec.start,
            total=spec.start,
        )
        check_start(spec.start, rules, f"{path}.start")
        players = list(spec.players) or (
            [side.name]
            if rules.players_per_side == 1
            else [f"{side.name} {n + 1}" for n in range(rules.players_per_side)]
        )
        if len(players) != rules.players_per_side:
            raise Refused(
                Why.INVALID,
                T(
                    "Each side of %(rules)s has %(count)s players.",
                    rules=T(rules.name),
                    count=rules.players_per_side,
                ),
                {f"{path}.players": T("Give %(count)s players.", count=rules.players_per_side)},
            )
        for index, player in enumerate(players):
            name = check_name(player, f"{path}.players.{index}", side=False)
            seat = Player(position=index, name=name, card=drawn[position][index] if drawn else None)
            if spec.players and not is_default_name(side.name, index, name, len(players)):
                seat.person = person_for(name)
                # "ana" typed for the roster's Ana sits as Ana: one spelling per person;
                # a side of one named after its player is spelled so too.
                seat.name = seat.person.name
                if len(players) == 1 and name_key(side.name) == seat.person.key:
                    side.name = seat.person.name
                if seat.person in seated_people:
                    raise Refused(
                        Why.INVALID,
                        T("%(name)s cannot sit at the table twice.", name=name),
                        {f"{path}.players.{index}": T("Already seated.")},
                    )
                seated_people.append(seat.person)
            side.players.append(seat)
        game.sides.append(side)
    game.first_dealer = check_first_dealer(first_dealer, rules)
    for side in game.sides:
        side.record = record_to_json(SideRecord(Outcome.OPEN, side.start))
    db.session.add(game)
    db.session.flush()
    return game, secret
