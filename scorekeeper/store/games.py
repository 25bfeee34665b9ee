"""Games as the pages and the API use them: create, load, record, edit and delete deals.

Every change checks the entry with the rules engine, replays the game and commits in one
transaction; a refused change leaves the database as it was.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from flask_babel import gettext as _
from sqlalchemy import bindparam, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import selectinload

from ..i18n import say
from ..rules import (
    VARIANTS,
    GameState,
    OptionError,
    RuleSet,
    Seat,
    SideResult,
    Violation,
    apply_options,
    errors_of,
    replay,
    seating,
    validate_deal,
)
from ..rules.scoring import INTEGER_FIELDS
from ..rules.stats import side_records
from .db import db
from .models import Deal, DealResult, Game, Person, Player, Side, _now
from .players import is_default_name, person_for, record_to_json, touch_people
from .refusal import Refusal, check_name

#: A starting total carried over from paper cannot be wilder than this.
MAX_START = 1_000_000
#: Game ids are URL-safe random tokens (``secrets.token_urlsafe``).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


@dataclass
class SideSpec:
    """A side as the new-game form or the API gives it."""

    name: str
    players: list[str] = field(default_factory=list)
    start: int = 0


@dataclass(frozen=True)
class Sheet:
    """A loaded game with everything the score sheet shows."""

    game: Game
    rules: RuleSet
    state: GameState
    seats: tuple[Seat, ...]

    def player_name(self, seat: Seat) -> str:
        return self.game.sides[seat.side].players[seat.player].name

    @property
    def next_dealer_name(self) -> str:
        return self.player_name(self.state.next_dealer)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Secured(Protocol):
    """A game as far as its secret goes (a loaded ``Game``, or ``recording.Head``)."""

    @property
    def token_hash(self) -> str: ...


def token_matches(game: Secured, token: str | None) -> bool:
    """Constant-time comparison of a presented secret with the game's."""
    if not token:
        return False
    return hmac.compare_digest(hash_token(token), game.token_hash)


def rules_for(game: Game) -> RuleSet:
    """The game's rule set: its variant at its table size, with its house rules."""
    return apply_options(VARIANTS[game.variant].with_sides(len(game.sides)), game.options or {})


def side_results(deal: Deal) -> list[SideResult]:
    return [
        SideResult(
            **{name: getattr(r, name) for name in INTEGER_FIELDS},
            went_out=r.went_out,
            concealed=r.concealed,
        )
        for r in deal.results
    ]


def seats_of(game: Game) -> tuple[Seat, ...]:
    return seating([len(side.players) for side in game.sides])


def sheet_of(game: Game) -> Sheet:
    rules = rules_for(game)
    seats = seats_of(game)
    state = replay(
        rules,
        [side_results(deal) for deal in game.deals],
        starts=[side.start for side in game.sides],
        seats=seats,
        first_dealer=game.first_dealer,
    )
    return Sheet(game=game, rules=rules, state=state, seats=seats)


def load(game_id: str) -> Game | None:
    """The game with its sides, players and deals, in a fixed number of queries."""
    if not GAME_ID.fullmatch(game_id):
        return None  # not an id this app makes (and kept away from the database)
    return db.session.scalars(
        select(Game)
        .where(Game.id == game_id)
        .options(
            selectinload(Game.sides).selectinload(Side.players),
            selectinload(Game.deals).selectinload(Deal.results),
        )
    ).one_or_none()


#: The version's read, built once: every poll of every follower runs it.
_VERSION = select(Game.updated_at).where(Game.id == bindparam("game_id"))


def game_version(game_id: str) -> str | None:
    """When the game last changed (one indexed read): the followers' ETag."""
    if not GAME_ID.fullmatch(game_id):
        return None
    # On the session's connection (its transaction), without the ORM's result handling.
    changed = db.session.connection().execute(_VERSION, {"game_id": game_id}).scalar()
    return None if changed is None else changed.isoformat()


def version_of(game: Game) -> str:
    """The version of a loaded game, as ``game_version`` reads it."""
    return game.updated_at.isoformat()


def recent(page: int = 1, per_page: int = 20, *, deals: bool = False) -> tuple[list[Game], int]:
    """Games newest first, with the total count for paging; with ``deals``, their deal
    entries too (for totals), in a fixed number of queries whatever the page size."""
    loads = [selectinload(Game.sides).selectinload(Side.players)]
    if deals:
        loads.append(selectinload(Game.deals).selectinload(Deal.results))
    total = db.session.scalar(select(func.count()).select_from(Game)) or 0
    games = db.session.scalars(
        select(Game)
        .order_by(Game.created_at.desc(), Game.id)
        .options(*loads)
        .limit(per_page)
        .offset((page - 1) * per_page)
    ).all()
    return list(games), total


def create_game(
    variant: str,
    sides: Sequence[SideSpec],
    options: Mapping[str, object] | None = None,
    first_dealer: int = 0,
    *,
    commit: bool = True,
) -> tuple[Game, str]:
    """Create a game; returns it with its edit secret (shown once, stored hashed).

    Two games naming the same new player at the same moment both add them to the roster:
    the later one collides on the roster's name key and is built again, finding the
    person the first one added."""
    if not commit:
        return _new_game(variant, sides, options, first_dealer)
    for _attempt in range(SAVE_ATTEMPTS):
        game, token = _new_game(variant, sides, options, first_dealer)
        try:
            _commit(game)
        except (Collision, IntegrityError, OperationalError):
            db.session.rollback()
            continue
        return game, token
    raise Refusal(busy_message(), status=409)



def _new_game(
    variant: str,
    sides: Sequence[SideSpec],
    options: Mapping[str, object] | None,
    first_dealer: int,
) -> tuple[Game, str]:
    """The game built and added to the session, not yet committed."""
    if variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise Refusal(
            _(
                "There is no rule set called %(name)s; known: %(known)s.",
                name=repr(variant),
                known=known,
            ),
            {"variant": _("Unknown rule set; known: %(known)s.", known=known)},
        )
    try:
        seated = VARIANTS[variant].with_sides(len(sides))
    except OptionError as error:
        raise Refusal(say(error.text), {"sides": say(error.text)}) from None
    try:
        rules = apply_options(seated, options or {})
    except OptionError as error:
        raise Refusal(say(error.text), {f"options.{error.option}": say(error.text)}) from None
    game = Game(id=secrets.token_urlsafe(12), variant=variant, options=dict(options or {}))
    token = secrets.token_urlsafe(24)
    game.token_hash = hash_token(token)
    seated_people: list[Person] = []
    for position, spec in enumerate(sides):
        path = f"sides.{position}"
        side = Side(
            position=position,
            name=check_name(spec.name, f"{path}.name", side=True),
            start=spec.start,
        )
        if spec.start % 5 or abs(spec.start) > MAX_START:
            raise Refusal(
                _("A starting total is a multiple of 5, like every score."),
                {f"{path}.start": _("A multiple of 5, like every score.")},
            )
        if spec.start >= rules.target:
            raise Refusal(
                _(
                    "A starting total of %(start)s has already reached the target of %(target)s.",
                    start=spec.start,
                    target=rules.target,
                ),
                {f"{path}.start": _("Less than the target, %(target)s.", target=rules.target)},
            )
        players = list(spec.players) or (
            [side.name]
            if rules.players_per_side == 1
            else [f"{side.name} {n + 1}" for n in range(rules.players_per_side)]
        )
        if len(players) != rules.players_per_side:
            raise Refusal(
                _(
                    "Each side of %(rules)s has %(count)s players.",
                    rules=_(rules.name),
                    count=rules.players_per_side,
                ),
                {f"{path}.players": _("Give %(count)s players.", count=rules.players_per_side)},
            )
        for index, player in enumerate(players):
            name = check_name(player, f"{path}.players.{index}", side=False)
            seat = Player(position=index, name=name)
            if spec.players and not is_default_name(side.name, index, name, len(players)):
                seat.person = person_for(name)
                if seat.person in seated_people:
                    raise Refusal(
                        _("%(name)s cannot sit at the table twice.", name=name),
                        {f"{path}.players.{index}": _("Already seated.")},
                    )
                seated_people.append(seat.person)
            side.players.append(seat)
        game.sides.append(side)
    if not 0 <= first_dealer < rules.players:
        raise Refusal(
            _("The first dealer must be one of the players."),
            {"first_dealer": _("Pick a player.")},
        )
    game.first_dealer = first_dealer
    db.session.add(game)
    return game, token


def check_deal(sheet: Sheet, results: Sequence[SideResult], number: int) -> list[Violation]:
    """Every violation of the entry for deal ``number`` (1-based) of this game."""
    state = sheet.state
    editing = number <= len(state.lines)
    minimums = state.lines[number - 1].minimums if editing else state.minimums
    return validate_deal(results, sheet.rules, minimums=minimums)


def sheet_with(sheet: Sheet, number: int, results: Sequence[SideResult]) -> GameState:
    """The game as it would stand with ``results`` as deal ``number`` (for the live
    preview): the stored deal replaced, or the next deal added."""
    deals = [side_results(deal) for deal in sheet.game.deals]
    if number <= len(deals):
        deals[number - 1] = list(results)
    else:
        deals.append(list(results))
    return replay(
        sheet.rules,
        deals,
        starts=[side.start for side in sheet.game.sides],
        seats=sheet.seats,
        first_dealer=sheet.game.first_dealer,
    )


def _new_results(results: Sequence[SideResult]) -> list[DealResult]:
    return [
        DealResult(
            side_position=position,
            **{name: getattr(result, name) for name in INTEGER_FIELDS},
            went_out=result.went_out,
            concealed=result.concealed,
        )
        for position, result in enumerate(results)
    ]


def _store_results(deal: Deal, results: Sequence[SideResult]) -> None:
    deal.results.clear()
    db.session.flush()
    deal.results.extend(_new_results(results))


class Collision(Exception):
    """Another request changed the same game in the same moment (a unique key clashed)."""


#: Times a deal is tried again after colliding with another phone's save.
SAVE_ATTEMPTS = 10


def lock(game: Game) -> None:
    """Hold the game until the transaction ends, so that two phones changing one game take
    turns and each sees the other's deal.

    PostgreSQL locks the game's row (SELECT ... FOR UPDATE); SQLite, which locks the whole
    file for writing, starts the transaction with a write (like BEGIN IMMEDIATE), waiting
    up to the busy timeout for another writer. Either reads the game's version under the
    lock: when it is the version loaded, nothing changed the game since (every change
    moves it), and what was read stands; otherwise the game reloads, now, under the lock.
    """
    game_id = game.id
    session = db.session()
    loaded = game.__dict__.get("updated_at")
    if session.new or session.dirty or session.deleted:
        loaded = None  # unsaved changes: drop them, as a fresh start would
    if loaded is None:
        session.rollback()
    else:
        # End the read transaction without expiring what it read.
        session.expire_on_commit = False
        try:
            session.commit()
        finally:
            session.expire_on_commit = True
    try:
        if session.get_bind().dialect.name == "sqlite":
            current = session.scalar(
                update(Game)
                .where(Game.id == game_id)
                .values(updated_at=Game.updated_at)
                .returning(Game.updated_at)
            )
        else:
            current = session.scalar(
                select(Game.updated_at).where(Game.id == game_id).with_for_update()
            )
    except OperationalError:
        # SQLite: another writer held the file for the whole busy timeout.
        session.rollback()
        raise Refusal(busy_message(), status=409) from None
    if loaded is None or current != loaded:
        # Expired: reading an expired game reloads its deals with it, and that must
        # happen now, under the lock, not before it.
        session.expire(game)


def _commit(game: Game, *, reload_deals: bool = True) -> Sheet:
    """Replay the changed game and commit it in one transaction.

    Refuses (and rolls back) a change that would leave deals after the one that ended the
    game; raises ``Collision`` when another request saved the same game meanwhile. The
    game stays as committed (not expired): the answer shows it without reading it again.
    ``reload_deals=False`` replays the deals as they are in memory (a deal added last).
    """
    db.session.flush()
    if reload_deals:
        db.session.expire(game, ["deals"])
    sheet = sheet_of(game)
    after = sheet.state.deals_after_end
    if after:
        db.session.rollback()
        raise Refusal(
            _(
                "With this change the game ends after deal %(number)s, yet %(after)s more deal(s) "
                "follow it; delete those first.",
                number=sheet.state.finished_after,
                after=after,
            ),
            status=409,
        )
    game.finished = sheet.state.finished
    _cache_records(sheet)
    now = _now()
    game.updated_at = now  # the viewers' ETag: any change of the game's deals
    db.session.execute(touch_people(select(Game.id).where(Game.id == game.id), now))
    session = db.session()
    session.expire_on_commit = False
    try:
        session.commit()
    except (IntegrityError, OperationalError):
        # A clashing key, or (SQLite) a write begun from a snapshot another write replaced.
        session.rollback()
        raise Collision from None
    finally:
        session.expire_on_commit = True
    return sheet


def _cache_records(sheet: Sheet) -> None:
    """Keep each side's total, outcome and statistics next to it (``Side.record``)."""
    deals = [side_results(deal) for deal in sheet.game.deals]
    for side, record in zip(sheet.game.sides, side_records(sheet.state, deals), strict=True):
        side.total = record.total
        side.outcome = record.outcome.value
        side.record = record_to_json(record)


def _commit_or_refuse(game: Game) -> Sheet:
    try:
        return _commit(game)
    except Collision:
        raise Refusal(
            _("Another phone changed this game at the same moment; reload and try again."),
            status=409,
        ) from None


def _require_valid(sheet: Sheet, results: Sequence[SideResult], number: int) -> None:
    errors = errors_of(check_deal(sheet, results, number))
    if errors:
        raise Refusal.from_violations(errors)


def busy_message() -> str:
    """What a save answers after colliding with other phones' saves time after time."""
    return _("This game is too busy right now; try again.")


def over_message() -> str:
    """What a finished game answers a new deal, in the reader's language."""
    return _("This game is over: start a new game, or edit or delete a deal to reopen it.")


def require_open(sheet: Sheet) -> None:
    """A finished game takes no more deals (409)."""
    if sheet.state.finished:
        raise Refusal(over_message(), status=409)


@dataclass(frozen=True)
class Saved:
    """A recorded deal: its number, the game after it, and whether this request had been
    seen before (a retry: nothing new was recorded)."""

    number: int
    sheet: Sheet
    repeated: bool = False


def add_deal(
    game: Game,
    results: Sequence[SideResult],
    *,
    request_key: str | None = None,
    commit: bool = True,
) -> Saved:
    """Record the next deal. A ``request_key`` seen before for this game records nothing
    and answers with the deal it recorded then; two phones saving at the same moment get
    consecutive numbers (the later one is checked and numbered again)."""
    for _attempt in range(SAVE_ATTEMPTS):
        try:
            if commit:
                lock(game)
            if request_key is not None:
                for number, deal in enumerate(game.deals, start=1):
                    if deal.request_key == request_key:
                        return Saved(number, sheet_of(game), repeated=True)
            sheet = sheet_of(game)
            require_open(sheet)
            number = sheet.state.next_deal
            _require_valid(sheet, results, number)
            seq = (max((deal.seq for deal in game.deals), default=0)) + 1
            game.deals.append(Deal(seq=seq, request_key=request_key, results=_new_results(results)))
            if not commit:
                db.session.flush()
                return Saved(number, sheet_of(game))
            # The new deal is the last (the highest seq): the deals in memory are the game's.
            return Saved(number, _commit(game, reload_deals=False))
        except (Collision, IntegrityError, OperationalError):
            db.session.rollback()
            reloaded = load(game.id)
            if reloaded is None:
                raise Refusal(_("This game was deleted meanwhile."), status=404) from None
            game = reloaded
    raise Refusal(busy_message(), status=409)



def deal_at(game: Game, number: int) -> Deal:
    """Deal ``number`` (1-based) of the game, or a 404 refusal."""
    if not 1 <= number <= len(game.deals):
        raise Refusal(_("This game has no deal %(number)s.", number=number), status=404)
    return game.deals[number - 1]


class Outdated(Refusal):
    """An edit of a deal that another phone changed meanwhile (optimistic check)."""

    def __init__(self, number: int, current: Deal) -> None:
        super().__init__(
            _(
                "Deal %(number)s was changed on another phone meanwhile; here is the newer "
                "version. Check it, then save your change again.",
                number=number,
            ),
            {"version": _("Now version %(version)s.", version=current.version)},
            status=409,
        )
        self.current = current


def replace_deal(
    game: Game, number: int, results: Sequence[SideResult], *, version: int | None = None
) -> Sheet:
    """Replace the entries of deal ``number``; later totals follow. With ``version``, the
    edit is refused when the deal is no longer at that version."""
    lock(game)
    deal = deal_at(game, number)
    db.session.refresh(deal)
    if version is not None and deal.version != version:
        raise Outdated(number, deal)
    _require_valid(sheet_of(game), results, number)
    _store_results(deal, results)
    deal.version += 1
    return _commit_or_refuse(game)


def delete_deal(game: Game, number: int, *, seq: int | None = None) -> Sheet:
    """Remove deal ``number``; the later deals move up one. With ``seq`` (the deal as the
    confirmation showed it), a resent confirmation cannot delete the deal that moved up."""
    lock(game)
    deal = deal_at(game, number)
    if seq is not None and deal.seq != seq:
        raise Refusal(_("That deal was already deleted; nothing else was."), status=409)
    game.deals.remove(deal)
    db.session.delete(deal)
    return _commit_or_refuse(game)


#: The export document's format tag: an import refuses anything else.
EXPORT_FORMAT = "canasta-scorekeeper/1"


def entries_json(result: DealResult | SideResult) -> dict[str, object]:
    """One side's entries for a deal as the exports write them (every figure, both flags)."""
    return {
        **{name: getattr(result, name) for name in INTEGER_FIELDS},
        "went_out": result.went_out,
        "concealed": result.concealed,
    }


def export_game(sheet: Sheet) -> dict[str, object]:
    """The game as one JSON-ready document: its setup and every deal's inputs (the
    computed figures ride along for people reading it; an import recomputes them)."""
    game = sheet.game
    return {
        "format": EXPORT_FORMAT,
        "variant": game.variant,
        "options": dict(game.options or {}),
        "first_dealer": game.first_dealer,
        "created_at": game.created_at.isoformat() + "Z",
        "sides": [
            {"name": side.name, "players": [p.name for p in side.players], "start": side.start}
            for side in game.sides
        ],
        "deals": [
            {
                "results": [entries_json(result) for result in deal.results]
            }
            for deal in game.deals
        ],
        "totals": list(sheet.state.totals),
        "winner": sheet.state.winner,
    }


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
) -> tuple[Game, str]:
    """Create a game and replay its deals through the same checks as the deal form, in
    one transaction: a document with any refused deal, or whose totals or winner differ
    from what the replay gives, creates nothing. The game keeps the document's date."""
    for _attempt in range(SAVE_ATTEMPTS):
        try:
            game, token = create_game(variant, sides, options, first_dealer, commit=False)
            if claimed.created_at is not None:
                game.created_at = game.updated_at = claimed.created_at
            for index, results in enumerate(deals):
                try:
                    add_deal(game, results, commit=False)
                except Refusal as refusal:
                    fields = {f"deals.{index}.{path}": msg for path, msg in refusal.fields.items()}
                    raise Refusal(
                        _("Deal %(number)s: %(reason)s", number=index + 1, reason=refusal.message),
                        fields,
                        status=422,
                    ) from None
            _check_claims(sheet_of(game), claimed)
            _commit(game)
        except Refusal:
            db.session.rollback()
            raise
        except (Collision, IntegrityError, OperationalError):
            db.session.rollback()
            continue
        return game, token
    raise Refusal(busy_message(), status=409)



def _check_claims(sheet: Sheet, claimed: Claimed) -> None:
    state = sheet.state
    if claimed.totals is not None and list(state.totals) != list(claimed.totals):
        raise Refusal(
            _(
                "The document says the totals are %(claimed)s, but its deals add up to "
                "%(totals)s.",
                claimed=", ".join(str(t) for t in claimed.totals),
                totals=", ".join(str(t) for t in state.totals),
            ),
            {"totals": _("The deals add up to %(totals)s.", totals=list(state.totals))},
        )
    if claimed.names_winner and state.winner != claimed.winner:
        raise Refusal(
            _("The document names another winner than its deals give."),
            {"winner": _("The deals give %(winner)s.", winner=str(state.winner))},
        )
