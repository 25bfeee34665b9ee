"""Reading club evenings (RULES.md section 11); their commands are ``changes.evenings``.

Each table's round is an ordinary game. The evening keeps only who is present, which games
make each round and who sat out; its standings and the next seating come from the rules
engine (``rules.evening``), fed with its games as they stand.

The director holds the evening's secret. Each table's scorer secret is derived from it
(``table_secret``): it is stored nowhere, and the director's page can still hand every
table its scorer link.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import aliased, selectinload

from ..rules import (
    VARIANTS,
    Entrant,
    EveningError,
    Format,
    Movement,
    RoundResult,
    RuleSet,
    SideTotal,
    Standing,
    TableResult,
    seat_movement,
    standings,
)
from ..rules.victory_points import BYE_VP, Scale, read_scoring, table_victory_points, vp_standings
from .db import db, version_row
from .games import GAME_ID, Secured, hash_secret, rules_of
from .models import (
    Deal,
    Evening,
    EveningPlayer,
    EveningRound,
    EveningStamp,
    EveningTable,
    Game,
    Side,
)

EVENING = Evening.__table__
EVENING_STAMP = EveningStamp.__table__


def table_secret(director_secret: str, game_id: str) -> str:
    """A table's scorer secret: derived from the director's and the table's game, so the
    director can hand it out again and nobody else can make it."""
    digest = hmac.new(director_secret.encode(), game_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


#: What a table's confirm secret is derived under, so it never equals its scorer secret.
CONFIRM_LABEL = b"confirm:"


def confirm_secret(director_secret: str, game_id: str) -> str:
    """The secret of the other side's phone at a table (its card's second code), in an
    evening that asks for results confirmed: derived from the director's as
    ``table_secret`` is, under a label of its own. It confirms deals and nothing else."""
    message = CONFIRM_LABEL + game_id.encode()
    digest = hmac.new(director_secret.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def director_matches(evening: Secured, secret: str | None) -> bool:
    return bool(secret) and hmac.compare_digest(hash_secret(secret or ""), evening.token_hash)


@dataclass(frozen=True)
class TableView:
    """A table of a round as it stands."""

    number: int
    game_id: str
    finished: bool
    deals: int
    #: Each side's players (as the roster names them now) and total.
    sides: tuple[SideTotal, ...]
    #: The round's length at this table (lowered when time was called).
    last_deal: int | None
    #: The round's length as the evening set it.
    planned: int | None = None
    #: Each side's victory points, once the table finished in an evening scored by them.
    victory_points: tuple[int, ...] | None = None
    #: The director called time on the table's round.
    called: bool = False
    #: The deals the other side has not confirmed yet (an evening that asks for it).
    unconfirmed: tuple[int, ...] = ()

    @property
    def status(self) -> str:
        """``finished``; ``time_called``: the round's time is up and the table plays out its
        deal in progress, its last; or ``in_progress``."""
        if self.finished:
            return "finished"
        return "time_called" if self.called else "in_progress"

    @property
    def cut_short(self) -> bool:
        """The table's round ended before the evening's number of deals (time called)."""
        return (
            self.last_deal is not None
            and self.planned is not None
            and (self.last_deal < self.planned)
        )


@dataclass(frozen=True)
class RoundView:
    number: int
    started_at: datetime
    closed_at: datetime | None
    #: When the round's time is up, for its countdown (None without minutes per round).
    ends_at: datetime | None
    tables: tuple[TableView, ...]
    byes: tuple[Entrant, ...]

    @property
    def finished(self) -> bool:
        return all(table.finished for table in self.tables)


@dataclass(frozen=True)
class EveningView:
    """An evening with everything its pages and the API show."""

    id: str
    name: str
    variant: str
    options: Mapping[str, object]
    rules: RuleSet
    format: Format
    movement: Movement
    rounds: int
    deals_per_round: int
    minutes_per_round: int | None
    created_at: datetime
    version: int
    token_hash: str
    entrants: tuple[Entrant, ...]
    played: tuple[RoundView, ...]
    standings: tuple[Standing, ...]
    #: The victory-point scale the evening ranks by; None: match points.
    scale: Scale | None = None
    #: What a bye scores in victory points.
    bye_vp: int = BYE_VP
    #: Each deal is confirmed on the other side's phone.
    confirmations: bool = False

    @property
    def current(self) -> RoundView | None:
        return self.played[-1] if self.played else None

    @property
    def finished(self) -> bool:
        current = self.current
        return len(self.played) == self.rounds and current is not None and current.finished

    @property
    def may_start_round(self) -> bool:
        current = self.current
        return len(self.played) < self.rounds and (current is None or current.finished)


def usual_sides(variant: str) -> int:
    """The sides of a rule set's usual table (``classic-6x3``: three)."""
    return VARIANTS[variant].sides if variant in VARIANTS else 2


def result_of(round_: RoundView) -> RoundResult:
    """A round as the rules engine ranks it: its finished tables, and its byes."""
    return RoundResult(
        tables=tuple(TableResult(table.sides) for table in round_.tables if table.finished),
        byes=round_.byes,
    )


def seating_of(round_: RoundView) -> RoundResult:
    """A round as it was seated, every table finished or not."""
    return RoundResult(tables=tuple(TableResult(t.sides) for t in round_.tables), byes=round_.byes)


def next_tables(evening: EveningView) -> Mapping[Entrant, int | None]:
    """Where each pair sits in the next round (None: a bye) where a Mitchell or a round robin
    knows it from round 1; empty for a Swiss evening (the standings decide) or after the
    last round."""
    if evening.movement is Movement.SWISS or not 0 < len(evening.played) < evening.rounds:
        return {}
    rounds = [seating_of(round_) for round_ in evening.played]
    try:
        # A Mitchell's or a round robin's later rounds draw nothing: any generator will do.
        seating = seat_movement(
            evening.movement,
            evening.rules,
            evening.format,
            evening.entrants,
            rounds,
            random.Random(),
        )
    except EveningError:
        return {}
    places: dict[Entrant, int | None] = {bye: None for bye in seating.byes}
    for number, table in enumerate(seating.tables, start=1):
        places.update({side: number for side in table.sides})
    return places


def load(evening_id: str, *, lock: bool = False) -> Evening | None:
    """The evening with its players, rounds, tables and their games' sides, in a fixed
    number of queries; with ``lock``, its row locked until the transaction ends."""
    if not GAME_ID.fullmatch(evening_id):
        return None
    query = select(Evening).where(Evening.id == evening_id)
    if lock:
        query = query.with_for_update(of=Evening)
    return db.session.scalars(
        query.options(
            selectinload(Evening.players).selectinload(EveningPlayer.person),
            selectinload(Evening.played_rounds)
            .selectinload(EveningRound.tables)
            .selectinload(EveningTable.game)
            .selectinload(Game.sides)
            .selectinload(Side.players),
        )
    ).one_or_none()


def view(evening_id: str) -> EveningView | None:
    """The evening with its rounds, tables and standings, or None."""
    evening = load(evening_id)
    return None if evening is None else view_of(evening)


def standings_by(
    fmt: Format,
    entrants: Sequence[Entrant],
    rounds: Sequence[RoundResult],
    scale: Scale | None,
    bye_vp: int,
) -> tuple[Standing, ...]:
    """The standings as an evening ranks: by match points, or by its victory-point scale."""
    if scale is None:
        return standings(fmt, entrants, rounds)
    return vp_standings(fmt, entrants, rounds, scale, bye_vp)


def view_of(evening: Evening) -> EveningView:
    """An evening as it stands: its tables' games read as their sides keep them (each
    side's running total and outcome, written with every change of the game)."""
    fmt = Format(evening.format)
    entrants: dict[int, list[str]] = {}
    for player in evening.players:
        entrants.setdefault(player.entrant, []).append(player.person.name)
    ranked = tuple(tuple(entrants[number]) for number in sorted(entrants))
    scale = read_scoring(evening.scoring)
    unconfirmed = (
        unconfirmed_deals([t.game_id for r in evening.played_rounds for t in r.tables])
        if evening.confirmations
        else {}
    )
    played = []
    for round_ in evening.played_rounds:
        tables = []
        for table in round_.tables:
            game = table.game
            tables.append(
                TableView(
                    number=table.number,
                    game_id=game.id,
                    finished=game.finished,
                    deals=int(game.sides[0].record.get("deals", 0)) if game.sides else 0,
                    sides=tuple(
                        SideTotal(tuple(p.name for p in side.players), side.total)
                        for side in game.sides
                    ),
                    last_deal=game.last_deal,
                    planned=evening.deals_per_round,
                    victory_points=(
                        table_victory_points([side.total for side in game.sides], scale)
                        if scale is not None and game.finished
                        else None
                    ),
                    called=round_.closed_at is not None,
                    unconfirmed=unconfirmed.get(game.id, ()),
                )
            )
        minutes = evening.minutes_per_round
        played.append(
            RoundView(
                number=round_.number,
                started_at=round_.started_at,
                closed_at=round_.closed_at,
                ends_at=None if minutes is None else round_.started_at + timedelta(minutes=minutes),
                tables=tuple(tables),
                byes=tuple(ranked[index] for index in round_.byes),
            )
        )
    return EveningView(
        id=evening.id,
        name=evening.name,
        variant=evening.variant,
        options=dict(evening.options or {}),
        rules=rules_of(evening.variant, usual_sides(evening.variant), evening.options),
        format=fmt,
        movement=Movement(evening.movement),
        rounds=evening.rounds,
        deals_per_round=evening.deals_per_round,
        minutes_per_round=evening.minutes_per_round,
        created_at=evening.created_at,
        version=evening.version,
        token_hash=evening.token_hash,
        entrants=ranked,
        played=tuple(played),
        standings=standings_by(fmt, ranked, [result_of(r) for r in played], scale, evening.bye_vp),
        scale=scale,
        bye_vp=evening.bye_vp,
        confirmations=evening.confirmations,
    )


def unconfirmed_deals(game_ids: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """The numbers of each game's deals the other side has not confirmed (one query)."""
    found: dict[str, list[int]] = {}
    counted: dict[str, int] = {}
    rows = db.session.execute(
        select(Deal.game_id, Deal.confirmed_at)
        .where(Deal.game_id.in_(list(game_ids)))
        .order_by(Deal.game_id, Deal.seq)
    )
    for game_id, confirmed_at in rows:
        counted[game_id] = number = counted.get(game_id, 0) + 1
        if confirmed_at is None:
            found.setdefault(game_id, []).append(number)
    return {game_id: tuple(numbers) for game_id, numbers in found.items()}


@dataclass(frozen=True)
class Stamp:
    """What an evening's pages are keyed by: its own version and its stamp
    (``EveningStamp``: moved by the commit step with every command of the evening, every
    change of one of its tables' games and every rename of someone present), with the
    secret's hash (whether the reader is the director)."""

    version: int
    tables: int
    token_hash: str

    @property
    def key(self) -> str:
        """The stamp in an ETag or a cache key (its form unlike the sums keyed before)."""
        return f"{self.version}-t{self.tables}"


#: The evening's row and its stamp's, each by its primary key.
_STAMP = (
    select(EVENING.c.version, EVENING.c.token_hash, EVENING_STAMP.c.value)
    .join(EVENING_STAMP, EVENING_STAMP.c.evening_id == EVENING.c.id)
    .where(EVENING.c.id == bindparam("evening_id"))
)


def stamp_of(evening_id: str) -> Stamp | None:
    """The evening's ``Stamp`` (the ETag of its pages) in one statement of two rows read
    by their primary keys, whatever the evening's size, or None."""
    if not GAME_ID.fullmatch(evening_id):
        return None
    row = version_row(_STAMP, {"evening_id": evening_id})
    return None if row is None else Stamp(row[0], row[2], row[1])


@dataclass(frozen=True)
class Seated:
    """Where a table's game belongs: its evening, round and table, and when the round's
    time is up (None without minutes per round). Fixed for the game's life: a swap makes
    new games, and a round's start never moves."""

    evening_id: str
    evening_name: str
    round: int
    table: int
    ends_at: datetime | None


def seated(game_id: str) -> Seated | None:
    """The evening table ``game_id`` is played at (one indexed read), or None for a game
    of its own."""
    row = db.session.execute(
        select(
            Evening.id,
            Evening.name,
            Evening.minutes_per_round,
            EveningRound.number,
            EveningRound.started_at,
            EveningTable.number,
        )
        .select_from(EveningTable)
        .join(EveningRound, EveningRound.id == EveningTable.round_id)
        .join(Evening, Evening.id == EveningRound.evening_id)
        .where(EveningTable.game_id == game_id)
    ).one_or_none()
    if row is None:
        return None
    evening_id, name, minutes, number, started_at, table = row
    ends_at = None if minutes is None else started_at + timedelta(minutes=minutes)
    return Seated(evening_id, name, number, table, ends_at)


def time_called(game_id: str) -> bool:
    """Whether ``game_id`` is a table of a round its director called time on (one indexed
    read): until it finishes, the deal in progress is its last."""
    closed = db.session.scalar(
        select(EveningRound.closed_at)
        .select_from(EveningTable)
        .join(EveningRound, EveningRound.id == EveningTable.round_id)
        .where(EveningTable.game_id == game_id)
    )
    return closed is not None


def version(evening_id: str) -> int | None:
    """The evening's own version (one indexed read): a finished table's way on moves with it
    (the next round seated, two players swapped)."""
    row = version_row(select(Evening.version).where(Evening.id == evening_id))
    return None if row is None else int(row[0])


@dataclass(frozen=True)
class NextSeat:
    """Where some of a finished table's players play the next round."""

    players: tuple[str, ...]
    #: Their table of the next round, and its game; None for a bye.
    table: int | None
    game_id: str | None


@dataclass(frozen=True)
class Onward:
    """Where a finished table's players go next (its sheet says it, in place of a new game
    with the same players)."""

    evening_id: str
    #: The round after the table's, and whether the table's round was the evening's last.
    next_round: int
    last_round: bool
    #: Where the table's players sit in the next round, by table; empty while it is not
    #: seated yet.
    seats: tuple[NextSeat, ...]


def onward(where: Seated) -> Onward | None:
    """Where the players of table ``where.table`` of round ``where.round`` play next."""
    found = view(where.evening_id)
    if found is None or where.round > len(found.played):
        return None
    table = next((t for t in found.played[where.round - 1].tables if t.number == where.table), None)
    if table is None:
        return None
    next_round = where.round + 1
    if next_round > len(found.played):
        return Onward(found.id, next_round, where.round >= found.rounds, ())
    later = found.played[next_round - 1]
    seats: dict[int | None, list[str]] = {}
    games: dict[int | None, str | None] = {None: None}
    for name in (n for side in table.sides for n in side.players):
        at = next((t for t in later.tables if any(name in s.players for s in t.sides)), None)
        number = None if at is None else at.number
        seats.setdefault(number, []).append(name)
        if at is not None:
            games[number] = at.game_id
    ordered = sorted(seats.items(), key=lambda item: (item[0] is None, item[0] or 0))
    return Onward(
        found.id,
        next_round,
        False,
        tuple(NextSeat(tuple(names), number, games[number]) for number, names in ordered),
    )


def next_round_seated(game_id: str) -> tuple[int, int] | None:
    """When ``game_id`` is a table of a round after which the next round was seated (from
    that round's standings): the two rounds' numbers; else None (one indexed read)."""
    later = aliased(EveningRound)
    row = db.session.execute(
        select(EveningRound.number, func.min(later.number))
        .select_from(EveningTable)
        .join(EveningRound, EveningRound.id == EveningTable.round_id)
        .join(
            later,
            (later.evening_id == EveningRound.evening_id) & (later.number > EveningRound.number),
        )
        .where(EveningTable.game_id == game_id)
        .group_by(EveningRound.number)
    ).first()
    return None if row is None else (row[0], row[1])
