"""Every change to a game: one function each, each one transaction (``db.write``).

A change holds the game first (its row locked; on SQLite the database's write lock), then
reads what it changes, asks the rules engine to check and score, and writes the deal
entries, each side's running total and record, the game's version and its players'
versions, and commits. The deal page, the API and import all call these functions.

Recording a deal plays it from the totals kept next to each side, without reading the
game's deals: its cost does not grow with the game. An edit or a deletion changes what
every later deal was played from, so it replays the game.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..rules import (
    VARIANTS,
    OptionError,
    RuleSet,
    SideResult,
    Violation,
    apply_options,
    errors_of,
    validate_deal,
    warnings_of,
)
from ..rules.game import DealLine, next_line, winner_of
from ..rules.scoring import INTEGER_FIELDS
from ..rules.stats import Outcome, SideRecord, ended, record_with, side_records
from ..rules.text import T, Text
from .db import BUSY, db, write
from .errors import Refused, Why, check_name
from .games import (
    Head,
    Secured,
    Sheet,
    hash_token,
    head,
    hold,
    load,
    rules_for,
    seats_of,
    sheet_of,
    side_results,
    token_matches,
)
from .log import (
    CREATED,
    DEAL_KINDS,
    DELETED,
    EDITED,
    GAME_DELETED,
    GAME_RESTORED,
    MAX_DEVICE,
    RECORDED,
    RENAMED,
    UNDO,
    describe,
    entries_json,
    link_undoes,
    read_log,
    results_of,
    snapshot,
)
from .models import Change, Deal, DealResult, Game, Person, Player, Side, utcnow
from .players import is_default_name, name_key, person_for, record_to_json, renamed, touch_people
from .seats import check_cards

#: A starting total carried over from paper cannot be wilder than this.
MAX_START = 1_000_000
#: Times a new game is built again after colliding with another one's new roster names.
CREATE_ATTEMPTS = 5

NO_GAME = T("There is no such game.")
Made = TypeVar("Made")

GAME_OVER = T("This game is over: start a new game, or edit or delete a deal to reopen it.")
GAME_GONE = T("This game was deleted; restore it from its change log or the history.")


@dataclass
class SideSpec:
    """A side as the new-game form or the API gives it."""

    name: str
    players: list[str] = field(default_factory=list)
    start: int = 0
    #: The card each player drew for seats, in player order; empty when nobody drew.
    cards: list[str] = field(default_factory=list)


def _require_secret(game: Secured, secret: str | None) -> None:
    if not token_matches(game, secret):
        raise Refused(
            Why.FORBIDDEN,
            T(
                "Only the phone that keeps this game's score can change it (ask for the scorer "
                "link)."
            ),
        )


def _result_rows(deal_id: int, results: Sequence[SideResult]) -> list[dict[str, object]]:
    return [
        {"deal_id": deal_id, "side_position": position, **entries_json(result)}
        for position, result in enumerate(results)
    ]


def _creating(make: Callable[[], Made]) -> Made:
    """``make`` (a new game) in a writer's transaction. Two games naming the same new
    player at the same moment (PostgreSQL) both add them to the roster: the later collides
    on the roster's name key and is made again, finding the person the first one added."""
    for _attempt in range(CREATE_ATTEMPTS):
        try:
            with write():
                return make()
        except IntegrityError:
            continue
    raise Refused(Why.BUSY, BUSY)


# --- new games -----------------------------------------------------------------------------


def table_rules(variant: str, sides: int, options: Mapping[str, object]) -> RuleSet:
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
    if start >= rules.target:
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
) -> tuple[Game, str]:
    """Create a game; returns it with its edit secret (shown once, stored hashed)."""

    def make() -> tuple[Game, str]:
        game, token = _new_game(variant, sides, options, first_dealer)
        _log(game.id, CREATED, device=device, at=game.created_at)
        return game, token

    return _creating(make)


def _new_game(
    variant: str,
    sides: Sequence[SideSpec],
    options: Mapping[str, object] | None,
    first_dealer: int,
    created_at: datetime | None = None,
) -> tuple[Game, str]:
    """The game built and flushed in the current transaction."""
    rules = table_rules(variant, len(sides), options or {})
    token = secrets.token_urlsafe(24)
    now = created_at or utcnow()
    game = Game(
        id=secrets.token_urlsafe(12),
        token_hash=hash_token(token),
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
    # Their pages count one game more.
    db.session.execute(touch_people(select(Game.id).where(Game.id == game.id)))
    return game, token


# --- the next deal -------------------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    """A deal recorded at the end of a game, and the game after it."""

    #: The game as it stood before the deal (its names, rules and seats).
    head: Head
    number: int
    line: DealLine
    results: tuple[SideResult, ...]
    #: The side that won with this deal (or earlier, for a repeated request).
    winner: int | None
    warnings: tuple[Violation, ...]
    #: An earlier request with the same key recorded it; nothing new was recorded.
    repeated: bool = False
    #: The deal's version (1 unless it was edited since, for a repeated request).
    version: int = 1
    #: The change log's entry (None for a repeated request: it made none).
    change: int | None = None

    @property
    def minimums(self) -> tuple[int, ...]:
        return tuple(self.head.rules.meld_minimum(total) for total in self.line.totals)

    @property
    def next_dealer(self) -> str | None:
        if self.winner is not None:
            return None
        return self.head.player_name(self.head.dealer(self.number + 1))


# Recording a deal is the change made most often: its statements are built once (Core, on
# the tables), as building a statement and the ORM's handling cost more than running it.
GAME = Game.__table__
SIDE = Side.__table__
DEAL = Deal.__table__
RESULT = DealResult.__table__
PERSON = Person.__table__
_REPEATED = select(DEAL.c.seq, DEAL.c.request_hash).where(
    DEAL.c.game_id == bindparam("game_id"), DEAL.c.request_key == bindparam("key")
)
#: A deal's number: its place among the game's deals.
_NUMBER = (
    select(func.count())
    .select_from(DEAL)
    .where(DEAL.c.game_id == bindparam("game_id"), DEAL.c.seq <= bindparam("seq"))
)
_NEW_DEAL = (
    insert(DEAL)
    .values(
        game_id=bindparam("game_id"),
        seq=bindparam("seq"),
        version=1,
        request_key=bindparam("key"),
        request_hash=bindparam("hash"),
        created_at=bindparam("now", type_=DEAL.c.created_at.type),
    )
    .returning(DEAL.c.id)
)
_NEW_RESULT = insert(RESULT)
_SIDE_RECORD = (
    update(SIDE)
    .where(SIDE.c.id == bindparam("side_id"))
    .values(
        total=bindparam("new_total"),
        outcome=bindparam("new_outcome"),
        record=bindparam("new_record", type_=SIDE.c.record.type),
    )
)
#: The game moves to its next version: its pages' ETags and cache keys change with it.
_GAME_CHANGED = (
    update(GAME)
    .where(GAME.c.id == bindparam("game_id"))
    .values(
        version=GAME.c.version + 1,
        updated_at=bindparam("now", type_=GAME.c.updated_at.type),
        finished=bindparam("finished"),
    )
)
#: And so do the pages of the people at the game.
_PEOPLE_CHANGED = (
    update(PERSON)
    .where(PERSON.c.id.in_(bindparam("people", expanding=True)))
    .values(version=PERSON.c.version + 1)
)


def record_deal(
    game_id: str,
    results: Sequence[SideResult],
    *,
    secret: str | None,
    request_key: str | None = None,
    device: str = "",
) -> Recorded:
    """Record the next deal of a game, played from the running totals kept next to its
    sides (its deals are not read). A ``request_key`` this game has seen records nothing
    and answers with the deal it recorded then (a double tap, a retried request); sent
    with other figures, it is refused (``Why.REUSED``). Refused when the game is over or
    the entry breaks a rule."""
    with write():
        game = head(game_id) if hold(game_id) else None
        if game is None:
            raise Refused(Why.NOT_FOUND, NO_GAME)
        _require_secret(game, secret)
        if game.deleted:
            raise Refused(Why.GONE, GAME_GONE)
        digest = None
        if request_key is not None:
            digest = request_hash(results)
            before = db.session.execute(_REPEATED, {"game_id": game_id, "key": request_key}).first()
            if before is not None:
                # A deal kept before hashes were (None) answers as it always did.
                if before.request_hash not in (None, digest):
                    raise _reused(game_id, before.seq)
                return _recorded_before(game, before.seq)
        if game.finished:
            raise Refused(Why.CONFLICT, GAME_OVER)
        rules = game.rules
        violations = validate_deal(results, rules, minimums=game.minimums)
        if errors_of(violations):
            raise Refused.breaking(violations)
        number = game.next_deal
        line = next_line(rules, game.totals, results, number, game.dealer(number))
        winner = winner_of(line.totals, rules.target)
        records = [
            ended(record_with(side.record, line, index, result), index, winner)
            for index, (side, result) in enumerate(zip(game.sides, results, strict=True))
        ]
        now = utcnow()
        db.session.execute(
            _GAME_CHANGED, {"game_id": game_id, "now": now, "finished": winner is not None}
        )
        deal_id = db.session.scalar(
            _NEW_DEAL,
            {
                "game_id": game_id,
                "seq": game.last_seq + 1,
                "key": request_key,
                "hash": digest,
                "now": now,
            },
        )
        assert deal_id is not None
        db.session.execute(_NEW_RESULT, _result_rows(deal_id, results))
        change = _log(
            game_id,
            RECORDED,
            device=device,
            at=now,
            deal=(game.last_seq + 1, number),
            after=snapshot(1, results),
        )
        db.session.execute(
            _SIDE_RECORD,
            [
                {
                    "side_id": side.id,
                    "new_total": record.total,
                    "new_outcome": record.outcome.value,
                    "new_record": record_to_json(record),
                }
                for side, record in zip(game.sides, records, strict=True)
            ],
        )
        if game.people:
            db.session.execute(_PEOPLE_CHANGED, {"people": list(game.people)})
    return Recorded(
        game, number, line, tuple(results), winner, tuple(warnings_of(violations)), change=change
    )


def request_hash(results: Sequence[SideResult]) -> str:
    """What a keyed request recorded, as a SHA-256 hex: the entries as the rules engine
    reads them, so neither the body's spacing and key order nor figures left out at their
    default make it another request."""
    entries = [entries_json(result) for result in results]
    canonical = json.dumps(entries, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _reused(game_id: str, seq: int) -> Refused:
    """The refusal of a key that recorded the deal ``seq`` with other figures."""
    number = db.session.scalar(_NUMBER, {"game_id": game_id, "seq": seq})
    return Refused(
        Why.REUSED,
        T(
            "This request's key was already used for deal %(number)s, with other figures; "
            "nothing was recorded.",
            number=number,
        ),
        {
            "Idempotency-Key": T(
                "Already used for deal %(number)s with another body.", number=number
            )
        },
        deal=number,
    )


def _recorded_before(game: Head, seq: int) -> Recorded:
    """The answer to a request repeated with its key: the deal as it was played."""
    loaded = load(game.id)
    assert loaded is not None
    sheet = sheet_of(loaded)
    number = next(n for n, deal in enumerate(loaded.deals, start=1) if deal.seq == seq)
    deal = loaded.deals[number - 1]
    line = sheet.state.lines[number - 1]
    results = side_results(deal)
    won = sheet.state.finished_after is not None and sheet.state.finished_after <= number
    violations = validate_deal(results, sheet.rules, minimums=line.minimums)
    return Recorded(
        game,
        number,
        line,
        tuple(results),
        sheet.state.winner if won else None,
        tuple(warnings_of(violations)),
        repeated=True,
        version=deal.version,
    )


# --- edits and deletions: the game is replayed ---------------------------------------------


def _held(game_id: str, secret: str | None, *, deleted: bool = False) -> Game:
    """The whole game, its row held until the transaction ends, once the secret is checked;
    refused when it was deleted (unless ``deleted``: restoring it, undoing in its log)."""
    found = load(game_id) if hold(game_id) else None
    if found is None:
        raise Refused(Why.NOT_FOUND, NO_GAME)
    _require_secret(found, secret)
    if found.deleted_at is not None and not deleted:
        raise Refused(Why.GONE, GAME_GONE)
    return found


def _deal(game: Game, number: int) -> Deal:
    if not 1 <= number <= len(game.deals):
        raise Refused(Why.NOT_FOUND, T("This game has no deal %(number)s.", number=number))
    return game.deals[number - 1]


def keep_records(sheet: Sheet) -> None:
    """Keep each side's total, outcome and statistics next to it (``Side.record``) and the
    game's finished flag, as a replay of the game gives them."""
    deals = [side_results(deal) for deal in sheet.game.deals]
    for side, record in zip(sheet.game.sides, side_records(sheet.state, deals), strict=True):
        side.total = record.total
        side.outcome = record.outcome.value
        side.record = record_to_json(record)
    sheet.game.finished = sheet.state.finished


def _replayed(game: Game) -> Sheet:
    """The changed game (as changed in memory) replayed, its records kept and its version
    moved; refused when the change would leave deals after the one that ended the game."""
    sheet = sheet_of(game)
    after = sheet.state.deals_after_end
    if after:
        raise Refused(
            Why.CONFLICT,
            T(
                "With this change the game ends after deal %(number)s, yet %(after)s more "
                "deal(s) follow it; delete those first.",
                number=sheet.state.finished_after,
                after=after,
            ),
        )
    keep_records(sheet)
    game.version += 1
    game.updated_at = utcnow()
    db.session.execute(touch_people(select(Game.id).where(Game.id == game.id)))
    return sheet


@dataclass(frozen=True)
class Edited:
    """The game after an edit, and what looks unlikely in the new entry."""

    sheet: Sheet
    number: int
    warnings: tuple[Violation, ...]
    #: The change log's entry (None for a resent form: it made none).
    change: int | None = None


@dataclass(frozen=True)
class Changed:
    """The game after a change, and the change log's entry for it."""

    sheet: Sheet
    change: int


def edit_deal(
    game_id: str,
    number: int,
    results: Sequence[SideResult],
    *,
    secret: str | None,
    version: int | None = None,
    device: str = "",
    request_key: str | None = None,
) -> Edited:
    """Replace the entries of deal ``number``; later totals follow. With ``version``, the
    edit is refused when the deal is no longer at that version. A ``request_key`` this
    game has seen changes nothing again (a resent form)."""
    with write():
        game = _held(game_id, secret)
        if _made_before(game_id, request_key):
            return Edited(sheet_of(game), number, ())
        deal = _deal(game, number)
        if version is not None and deal.version != version:
            raise _outdated(deal, number)
        before = sheet_of(game)
        violations = validate_deal(
            results, before.rules, minimums=before.state.lines[number - 1].minimums
        )
        if errors_of(violations):
            raise Refused.breaking(violations)
        was = snapshot(deal.version, deal.results)
        _set_results(deal, results)
        deal.version += 1
        sheet = _replayed(game)
        change = _log(
            game_id,
            EDITED,
            device=device,
            deal=(deal.seq, number),
            before=was,
            after=snapshot(deal.version, results),
            request_key=request_key,
        )
    return Edited(sheet, number, tuple(warnings_of(violations)), change)


def _set_results(deal: Deal, results: Sequence[SideResult]) -> None:
    for stored, result in zip(deal.results, results, strict=True):
        for name in INTEGER_FIELDS:
            setattr(stored, name, getattr(result, name))
        stored.went_out = result.went_out
        stored.concealed = result.concealed


def delete_deal(
    game_id: str,
    number: int,
    *,
    secret: str | None,
    seq: int | None = None,
    version: int | None = None,
    device: str = "",
) -> Changed:
    """Remove deal ``number``; the later deals move up one. With ``seq`` (the deal as the
    confirmation showed it), a resent confirmation cannot delete the deal that moved up;
    with ``version``, a deal changed since is not deleted."""
    with write():
        game = _held(game_id, secret)
        deal = _deal(game, number)
        if seq is not None and deal.seq != seq:
            raise Refused(Why.CONFLICT, T("That deal was already deleted; nothing else was."))
        if version is not None and deal.version != version:
            raise _outdated(deal, number)
        was = snapshot(deal.version, deal.results)
        game.deals.remove(deal)
        db.session.delete(deal)
        sheet = _replayed(game)
        change = _log(game_id, DELETED, device=device, deal=(deal.seq, number), before=was)
        return Changed(sheet, change)


def _outdated(deal: Deal, number: int) -> Refused:
    return Refused(
        Why.OUTDATED,
        T(
            "Deal %(number)s was changed on another phone meanwhile; here is the newer "
            "version. Check it, then save your change again.",
            number=number,
        ),
        {"version": T("Now version %(version)s.", version=deal.version)},
        current_version=deal.version,
    )


# --- the change log: every change kept, any of them undone ---------------------------------

CHANGE = Change.__table__
_NEW_CHANGE = insert(CHANGE)
_MADE_BEFORE = select(CHANGE.c.id).where(
    CHANGE.c.game_id == bindparam("game_id"), CHANGE.c.request_key == bindparam("key")
)


def _log(
    game_id: str,
    kind: str,
    *,
    device: str,
    at: datetime | None = None,
    deal: tuple[int, int] | None = None,
    before: object = None,
    after: object = None,
    undoes: int | None = None,
    request_key: str | None = None,
) -> int:
    """Keep a change in the game's log (in the change's own transaction); its id."""
    seq, number = deal if deal is not None else (None, None)
    change_id = db.session.scalar(
        _NEW_CHANGE.returning(CHANGE.c.id),
        {
            "game_id": game_id,
            "kind": kind,
            "at": at or utcnow(),
            "device": device[:MAX_DEVICE],
            "deal_seq": seq,
            "deal_number": number,
            "before": before,
            "after": after,
            "undoes": undoes,
            "undone": False,
            "reconstructed": False,
            "request_key": request_key,
        },
    )
    assert change_id is not None
    return change_id


def _made_before(game_id: str, request_key: str | None) -> bool:
    """Whether a change with this key (a resent form, a retried request) was made."""
    if request_key is None:
        return False
    found = db.session.execute(_MADE_BEFORE, {"game_id": game_id, "key": request_key})
    return found.first() is not None


@dataclass(frozen=True)
class Undone:
    """The game after an undo, and the undo's own change (itself undoable)."""

    sheet: Sheet
    change: int
    #: The change it reverted.
    reverted: Change
    #: When that was itself an undo: the change it had undone (done again now).
    original: Change | None = None


def undo_change(
    game_id: str,
    change_id: int,
    *,
    secret: str | None,
    device: str = "",
    request_key: str | None = None,
) -> Undone:
    """Revert change ``change_id`` of the game and log the undo. A deal's change puts the
    deal back as it was before it (a recorded deal goes, a deleted one comes back at its
    number, an edit's old figures return); undoing an undo makes the change again; a
    deleted game comes back, a restored one goes. Refused when the change was undone
    already, or a later change built on it (the refusal names that change)."""
    with write():
        game = _held(game_id, secret, deleted=True)
        if _made_before(game_id, request_key):
            undo = db.session.scalar(
                select(Change).where(Change.game_id == game_id, Change.request_key == request_key)
            )
            assert undo is not None and undo.undoes is not None
            reverted = db.session.get(Change, undo.undoes)
            assert reverted is not None
            original = db.session.get(Change, reverted.undoes) if reverted.undoes else None
            return Undone(sheet_of(game), undo.id, reverted, original)
        change = db.session.get(Change, change_id)
        if change is None or change.game_id != game_id:
            raise Refused(Why.NOT_FOUND, T("This game has no change %(id)s.", id=change_id))
        if change.undone:
            raise Refused(Why.CONFLICT, T("That change was undone already; nothing else was."))
        target = _effect_of(change)
        if target in DEAL_KINDS:
            if game.deleted_at is not None:
                raise Refused(Why.GONE, GAME_GONE)
            number = _put_back(game, change)
        elif target in (GAME_DELETED, GAME_RESTORED):
            # Undoing a deletion restores the game, undoing a restore deletes it again.
            deleting = (target == GAME_RESTORED) != (change.kind == UNDO)
            if (game.deleted_at is not None) == deleting:
                raise _in_the_way(game_id, change)
            game.deleted_at = utcnow() if deleting else None
            number = None
        elif target == RENAMED:
            _name_back(game, change, device)
            number = None
        else:
            raise Refused(Why.CONFLICT, T("A new game cannot be undone; delete the game instead."))
        sheet = _replayed(game)
        if target in DEAL_KINDS:
            _check_put_back(sheet, change.deal_seq)
        change.undone = True
        redone = None
        if change.kind == UNDO and change.undoes is not None:
            # Undoing an undo makes the change again: it is no longer undone.
            redone = db.session.get(Change, change.undoes)
            if redone is not None:
                redone.undone = False
        undo_id = _log(
            game_id,
            UNDO,
            device=device,
            deal=(change.deal_seq, number) if change.deal_seq is not None and number else None,
            before=change.after,
            after=change.before,
            undoes=change.id,
            request_key=request_key,
        )
        return Undone(sheet, undo_id, change, redone)


def _effect_of(change: Change) -> str:
    """The kind of change an entry made: an undo's is that of the change it reverted
    (it made it backwards)."""
    seen = 0
    while change.kind == UNDO and change.undoes is not None and seen < 1000:
        found = db.session.get(Change, change.undoes)
        if found is None:
            break
        change = found
        seen += 1
    return change.kind


def _put_back(game: Game, change: Change) -> int:
    """Set the change's deal to what it was before the change (``change.before``), if
    it is still as the change left it (``change.after``); the deal's number after."""
    seq = change.deal_seq
    current = next((deal for deal in game.deals if deal.seq == seq), None)
    now = None if current is None else [entries_json(r) for r in current.results]
    if now != results_of(change.after):
        raise _in_the_way(game.id, change)
    wanted = results_of(change.before)
    if current is not None and wanted is None:
        number = game.deals.index(current) + 1
        game.deals.remove(current)
        db.session.delete(current)
        return number
    results = [SideResult(**entries) for entries in wanted or [] if isinstance(entries, dict)]
    if current is not None:
        _set_results(current, results)
        current.version += 1
    else:
        version = change.before.get("version", 0) if isinstance(change.before, dict) else 0
        current = Deal(seq=seq, version=int(version) + 1, created_at=utcnow())
        current.results = [
            DealResult(side_position=position, **entries_json(result))
            for position, result in enumerate(results)
        ]
        game.deals.append(current)
        game.deals.sort(key=lambda deal: deal.seq)
    return game.deals.index(current) + 1


def _check_put_back(sheet: Sheet, seq: int | None) -> None:
    """The figures an undo put back pass the same checks as a deal entered (the log of an
    imported game, or of an older version, might hold others)."""
    for number, deal in enumerate(sheet.game.deals, start=1):
        if deal.seq == seq:
            minimums = sheet.state.lines[number - 1].minimums
            errors = errors_of(validate_deal(side_results(deal), sheet.rules, minimums=minimums))
            if errors:
                raise Refused.breaking(errors)


def _name_back(game: Game, change: Change, device: str) -> None:
    """Undo a rename: the player gets the name from before it, if they still have the name
    it gave (everywhere: the roster, every seat, every game's log)."""
    before, after = change.before, change.after
    person = None
    if isinstance(before, dict) and isinstance(after, dict):
        person = db.session.get(Person, before.get("person"))
    if person is None or person.name != after.get("name"):
        raise _in_the_way(game.id, change)
    renamed(person, str(before.get("name")), device=device, logged_in=game.id)


def _in_the_way(game_id: str, change: Change) -> Refused:
    """The refusal of an undo that a later change builds on, naming that change."""
    later = db.session.scalars(
        select(Change)
        .where(Change.game_id == game_id, Change.id > change.id)
        .where(
            Change.deal_seq == change.deal_seq
            if change.deal_seq is not None
            else Change.kind.in_((GAME_DELETED, GAME_RESTORED, UNDO))
        )
        .order_by(Change.id.desc())
        .limit(1)
    ).first()
    if later is None:
        return Refused(Why.CONFLICT, T("That change cannot be undone any more."))
    return Refused(
        Why.CONFLICT,
        T(
            "A later change builds on it: change %(id)s (%(what)s). Undo that one first.",
            id=later.id,
            what=describe(later),
        ),
        {"change": T("Change %(id)s is in the way.", id=later.id)},
        change=later.id,
    )


def delete_game(game_id: str, *, secret: str | None, device: str = "") -> Changed:
    """Delete a game: it leaves every list and statistic; its log can restore it."""
    return _delete_or_restore(game_id, secret, device, deleting=True)


def restore_game(game_id: str, *, secret: str | None, device: str = "") -> Changed:
    """Bring a deleted game back into every list, as it was."""
    return _delete_or_restore(game_id, secret, device, deleting=False)


def _delete_or_restore(game_id: str, secret: str | None, device: str, *, deleting: bool) -> Changed:
    with write():
        game = _held(game_id, secret, deleted=True)
        if (game.deleted_at is not None) == deleting:
            raise Refused(
                Why.CONFLICT,
                T("This game was deleted already.")
                if deleting
                else T("This game is not deleted; nothing was changed."),
            )
        game.deleted_at = utcnow() if deleting else None
        sheet = _replayed(game)
        kind = GAME_DELETED if deleting else GAME_RESTORED
        return Changed(sheet, _log(game_id, kind, device=device))


# --- import: a whole game at once ----------------------------------------------------------


@dataclass(frozen=True)
class Claimed:
    """What an export document says the game came to: an import must come to the same."""

    totals: list[int] | None = None
    #: Whether the document names a winner (null included) to check.
    names_winner: bool = False
    winner: int | None = None
    created_at: datetime | None = None


def import_game(
    variant: str,
    sides: Sequence[SideSpec],
    options: Mapping[str, object],
    first_dealer: int,
    deals: Sequence[Sequence[SideResult]],
    claimed: Claimed = Claimed(),
    *,
    seqs: Sequence[int] | None = None,
    changes: object = None,
    device: str = "",
) -> tuple[str, str]:
    """Create a game and play its deals through the same checks as the deal page, in one
    transaction and in one pass: a document with any refused deal, or whose totals or
    winner differ from what its deals give, creates nothing. The game keeps its date, its
    deals their places (``seqs``) and its change log (``changes``, as exports write it;
    without one, the log starts from the deals as they stand). Returns the new game's id
    and its edit secret."""
    places = list(seqs) if seqs is not None else list(range(1, len(deals) + 1))
    if len(places) != len(deals) or any(
        not a < b < 2**31 for a, b in zip([0, *places], places, strict=False)
    ):
        raise Refused(
            Why.INVALID,
            T("The deals' places (seq) are whole numbers from 1, each larger than the last."),
            {"deals": T("Places from 1, in order.")},
        )

    def make() -> tuple[str, str]:
        game, token = _new_game(variant, sides, options, first_dealer, claimed.created_at)
        _import_deals(game, deals, claimed, places)
        if changes is None:
            _log(game.id, CREATED, device=device, at=game.created_at)
            for number, (seq, results) in enumerate(zip(places, deals, strict=True), start=1):
                after = snapshot(1, results)
                _log(
                    game.id,
                    RECORDED,
                    device=device,
                    at=game.created_at,
                    deal=(seq, number),
                    after=after,
                )
        else:
            read = read_log(changes, len(sides))
            for change, _place in read:
                change.game_id = game.id
                db.session.add(change)
            db.session.flush()
            link_undoes(read)
        return game.id, token

    return _creating(make)


def _import_deals(
    game: Game, deals: Sequence[Sequence[SideResult]], claimed: Claimed, seqs: Sequence[int]
) -> None:
    rules = rules_for(game)
    seats = seats_of(game)
    totals = tuple(side.start for side in game.sides)
    records = [SideRecord(Outcome.OPEN, start) for start in totals]
    winner: int | None = None
    for index, results in enumerate(deals):
        number = index + 1
        if winner is not None:
            raise _deal_refused(number, GAME_OVER, {})
        minimums = tuple(rules.meld_minimum(total) for total in totals)
        errors = errors_of(validate_deal(results, rules, minimums=minimums))
        if errors:
            refused = Refused.breaking(errors, prefix=f"deals.{index}.")
            raise _deal_refused(number, refused.text, refused.fields)
        dealer = seats[(game.first_dealer + index) % len(seats)]
        line = next_line(rules, totals, results, number, dealer)
        records = [record_with(r, line, side, results[side]) for side, r in enumerate(records)]
        totals = line.totals
        winner = winner_of(totals, rules.target)
    _check_claims(totals, winner, claimed)
    now = game.created_at
    if deals:
        ids = db.session.scalars(
            insert(Deal).returning(Deal.id, sort_by_parameter_order=True),
            [{"game_id": game.id, "seq": seq, "created_at": now} for seq in seqs],
        ).all()
        db.session.execute(
            insert(DealResult),
            [
                row
                for deal_id, results in zip(ids, deals, strict=True)
                for row in _result_rows(deal_id, results)
            ],
        )
    for index, (side, record) in enumerate(zip(game.sides, records, strict=True)):
        kept = ended(record, index, winner)
        side.total = kept.total
        side.outcome = kept.outcome.value
        side.record = record_to_json(kept)
    game.finished = winner is not None


def _deal_refused(number: int, reason: Text, fields: Mapping[str, Text]) -> Refused:
    return Refused(
        Why.INVALID, T("Deal %(number)s: %(reason)s", number=number, reason=reason), fields
    )


def _check_claims(totals: tuple[int, ...], winner: int | None, claimed: Claimed) -> None:
    if claimed.totals is not None and list(totals) != list(claimed.totals):
        raise Refused(
            Why.INVALID,
            T(
                "The document says the totals are %(claimed)s, but its deals add up to %(totals)s.",
                claimed=", ".join(str(t) for t in claimed.totals),
                totals=", ".join(str(t) for t in totals),
            ),
            {"totals": T("The deals add up to %(totals)s.", totals=list(totals))},
        )
    if claimed.names_winner and winner != claimed.winner:
        raise Refused(
            Why.INVALID,
            T("The document names another winner than its deals give."),
            {"winner": T("The deals give %(winner)s.", winner=str(winner))},
        )
