"""The end of every change: one step that no command can leave out.

Each command checks everything first and then calls ``commit``: it moves the game's
version (its pages' ETags and cache keys) and its people's, and marks what else moves: the
ratings' version when the game is finished before or after the change (``ratings_moved``),
the stamp of the evening it is a table of and of that evening's season, and the history's
version (every change). Those are moved once, when the change's transaction commits
(``_move_marked``), last and in one order: a command that changes several games (an
evening's round closed) takes those rows only after it has locked every game, so no two
changes wait on each other in a circle. ``commit`` also writes each side's
running total and record and the game's finished flag, writes the change log's entry and
keeps the request's key and fingerprint with it. Its statements are built once (Core, on
the tables): recording a deal is the change made most often, and building a statement and
the ORM's handling cost more than running it. A rename changes several games at once and
none of their figures (``commit_games``); an evening's command ends in
``commit_evening``, which moves the evening's version and keeps its key in the evening's
log (each table's game has been through ``commit`` by then). Nothing outside
``store/changes`` writes (``tests/test_one_door.py``).

A request key (a page form's nonce, an API ``Idempotency-Key``) is remembered with the
game's change log (an evening's command's with the evening's); ``request_keys`` finds the
change a key made. What a change checks before it commits (a replay that ends the game
too early, a round already over) is ``checks``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import bindparam, event, insert, select, update
from sqlalchemy.orm import Session, SessionTransaction
from sqlalchemy.orm.attributes import set_committed_value

from ...rules.stats import SideRecord, side_records
from .. import counters
from ..db import db
from ..games import Sheet, side_results
from ..log import (
    CREATED,
    EVENING_CREATED,
    MAX_DEVICE,
    SEASON_CREATED,
    Read,
    link_undoes,
)
from ..models import (
    Change,
    Evening,
    EveningChange,
    EveningPlayer,
    EveningRound,
    EveningStamp,
    EveningTable,
    Game,
    Person,
    Player,
    Season,
    SeasonChange,
    SeasonStamp,
    Side,
    utcnow,
)
from ..players import record_to_json
from .request_keys import RequestKey

GAME = Game.__table__
SIDE = Side.__table__
PERSON = Person.__table__
PLAYER = Player.__table__
CHANGE = Change.__table__
EVENING = Evening.__table__
EVENING_CHANGE = EveningChange.__table__
SEASON = Season.__table__
SEASON_CHANGE = SeasonChange.__table__
EVENING_STAMP = EveningStamp.__table__
SEASON_STAMP = SeasonStamp.__table__
ROUND = EveningRound.__table__
TABLE = EveningTable.__table__
EVENING_PLAYER = EveningPlayer.__table__

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
_SIDE_RECORD = (
    update(SIDE)
    .where(SIDE.c.id == bindparam("side_id"))
    .values(
        total=bindparam("new_total"),
        outcome=bindparam("new_outcome"),
        record=bindparam("new_record", type_=SIDE.c.record.type),
    )
)
_NEW_CHANGE = insert(CHANGE).returning(CHANGE.c.id)
_NEW_CHANGES = insert(CHANGE)
#: A change of several games that leaves their figures alone (a rename): each moves on.
_GAMES_CHANGED = (
    update(GAME)
    .where(GAME.c.id.in_(bindparam("games", expanding=True)))
    .values(version=GAME.c.version + 1, updated_at=bindparam("now", type_=GAME.c.updated_at.type))
)
#: And the people seated at them.
_PEOPLE_AT_GAMES = (
    update(PERSON)
    .where(
        PERSON.c.id.in_(
            select(PLAYER.c.person_id)
            .join(SIDE, SIDE.c.id == PLAYER.c.side_id)
            .where(
                SIDE.c.game_id.in_(bindparam("games", expanding=True)),
                PLAYER.c.person_id.is_not(None),
            )
        )
    )
    .values(version=PERSON.c.version + 1)
)
#: The evenings (with their seasons) whose pages show the marked games as tables...
_EVENINGS_OF_GAMES = (
    select(EVENING.c.id, EVENING.c.season_id)
    .join(ROUND, ROUND.c.evening_id == EVENING.c.id)
    .join(TABLE, TABLE.c.round_id == ROUND.c.id)
    .where(TABLE.c.game_id.in_(bindparam("games", expanding=True)))
)
#: ... the marked evenings themselves...
_EVENINGS_MARKED = select(EVENING.c.id, EVENING.c.season_id).where(
    EVENING.c.id.in_(bindparam("evenings", expanding=True))
)
#: ... and those where the renamed are present.
_EVENINGS_OF_PEOPLE = (
    select(EVENING.c.id, EVENING.c.season_id)
    .join(EVENING_PLAYER, EVENING_PLAYER.c.evening_id == EVENING.c.id)
    .where(EVENING_PLAYER.c.person_id.in_(bindparam("people", expanding=True)))
)
_EVENING_STAMPS_MOVED = (
    update(EVENING_STAMP)
    .where(EVENING_STAMP.c.evening_id.in_(bindparam("evenings", expanding=True)))
    .values(value=EVENING_STAMP.c.value + 1)
)
_SEASON_STAMPS_MOVED = (
    update(SEASON_STAMP)
    .where(SEASON_STAMP.c.season_id.in_(bindparam("seasons", expanding=True)))
    .values(value=SEASON_STAMP.c.value + 1)
)
_NEW_EVENING_STAMP = insert(EVENING_STAMP)
_NEW_SEASON_STAMP = insert(SEASON_STAMP)
#: A counter (``counters``) moved on by one.
_COUNTER_MOVED = (
    update(counters.COUNTER)
    .where(counters.COUNTER.c.name == bindparam("counter"))
    .values(value=counters.COUNTER.c.value + 1)
)
_EVENING_CHANGED = (
    update(EVENING)
    .where(EVENING.c.id == bindparam("evening_id"))
    .values(version=EVENING.c.version + 1)
)
_NEW_EVENING_CHANGE = insert(EVENING_CHANGE)
_SEASON_CHANGED = (
    update(SEASON).where(SEASON.c.id == bindparam("season_id")).values(version=SEASON.c.version + 1)
)
_NEW_SEASON_CHANGE = insert(SEASON_CHANGE)


@dataclass(frozen=True)
class LogEntry:
    """The change log's entry a change writes."""

    kind: str
    #: The deal's identity (``Deal.seq``) and its number when the change was made.
    deal: tuple[int, int] | None = None
    #: The deal before and after the change (``log.snapshot``), or a rename's names.
    before: object = None
    after: object = None
    #: The change an undo reverts.
    undoes: int | None = None


def _entry_row(
    game_id: str, entry: LogEntry, at: datetime, device: str, key: RequestKey | None
) -> dict[str, object]:
    """A log's entry as its row holds it."""
    seq, number = entry.deal if entry.deal is not None else (None, None)
    return {
        "game_id": game_id,
        "kind": entry.kind,
        "at": at,
        "device": device[:MAX_DEVICE],
        "deal_seq": seq,
        "deal_number": number,
        "before": entry.before,
        "after": entry.after,
        "undoes": entry.undoes,
        "undone": False,
        "reconstructed": False,
        "request_key": None if key is None else key.key,
        "request_hash": None if key is None else key.fingerprint,
    }


@dataclass
class Marked:
    """What the changes of one transaction move when it commits (``_move_marked``)."""

    games: set[str] = field(default_factory=set)
    evenings: set[str] = field(default_factory=set)
    #: People renamed: the evenings they are present at show their names.
    people: set[int] = field(default_factory=set)
    ratings: bool = False


#: Where the session keeps what its transaction marked.
MARKED = "scorekeeper_marked"


def marked() -> Marked:
    """What this transaction marked so far (the history's version moves for any mark)."""
    found = db.session.info.get(MARKED)
    if found is None:
        found = db.session.info[MARKED] = Marked()
    assert isinstance(found, Marked)
    return found


@event.listens_for(Session, "before_commit")
def _move_marked(session: Session) -> None:
    """Move what the transaction marked, in its last statements and in one order (evenings
    and seasons by id, the ratings, the history): each counter's row is held from here
    to the commit, by a change that locked all else it needed first."""
    found = session.info.pop(MARKED, None)
    if found is None:
        return
    # What the ORM still holds goes first: it locks rows of its own.
    session.flush()
    showing: dict[str, str | None] = {}
    for query, name, marks in (
        (_EVENINGS_OF_GAMES, "games", found.games),
        (_EVENINGS_MARKED, "evenings", found.evenings),
        (_EVENINGS_OF_PEOPLE, "people", found.people),
    ):
        if marks:
            showing.update(
                (row[0], row[1]) for row in session.execute(query, {name: sorted(marks)})
            )
    if showing:
        session.execute(_EVENING_STAMPS_MOVED, {"evenings": sorted(showing)})
        seasons = sorted({season for season in showing.values() if season is not None})
        if seasons:
            session.execute(_SEASON_STAMPS_MOVED, {"seasons": seasons})
    if found.ratings:
        # Every worker rates the games again at its next ratings page...
        session.execute(_COUNTER_MOVED, {"counter": counters.RATINGS})
    # ... and renders the history again at its next reading.
    session.execute(_COUNTER_MOVED, {"counter": counters.HISTORY})


@event.listens_for(Session, "after_transaction_end")
def _forget_marked(session: Session, transaction: SessionTransaction) -> None:
    """A transaction rolled back moves nothing: its marks go with it."""
    if transaction.parent is None:
        session.info.pop(MARKED, None)


def commit(
    game_id: str,
    entries: Sequence[LogEntry],
    *,
    records: Sequence[tuple[int, SideRecord]],
    finished: bool,
    was_finished: bool,
    people: Sequence[int],
    device: str,
    key: RequestKey | None,
    at: datetime | None = None,
    carried: Sequence[Read] = (),
) -> int | None:
    """The shared end of every change, in its transaction: the game's and its people's
    versions moved, each side's record (``(side id, record)``) and the finished flag
    kept, the log's entries written, the first with the request's key; the last entry's
    id. An import that carries its own change log (``carried``, as ``log.read_log``
    reads it) writes that instead, as it is, its creation with the key.
    A game finished after the change (``finished``) or before it (``was_finished``) is
    rated, or was: the ratings' version moves too (a deleted game is still finished).
    The game's evening, its season and the history move at the commit (``marked``)."""
    now = at or utcnow()
    if carried:
        carry_log(game_id, carried, key)
    # What the ORM changed (deals, a restored game's date) goes first.
    db.session.flush()
    db.session.execute(_GAME_CHANGED, {"game_id": game_id, "now": now, "finished": finished})
    db.session.execute(
        _SIDE_RECORD,
        [
            {
                "side_id": side_id,
                "new_total": record.total,
                "new_outcome": record.outcome.value,
                "new_record": record_to_json(record),
            }
            for side_id, record in records
        ],
    )
    if people:
        db.session.execute(_PEOPLE_CHANGED, {"people": list(people)})
    change_id = None
    for index, entry in enumerate(entries):
        row = _entry_row(game_id, entry, now, device, key if index == 0 else None)
        change_id = db.session.scalar(_NEW_CHANGE, row)
    marked().games.add(game_id)
    if finished or was_finished:
        ratings_moved()
    return change_id


def carry_log(game_id: str, carried: Sequence[Read], key: RequestKey | None) -> None:
    """A document's own log written as it is (its times, phones and undos), the request's
    key kept with its creation (``log.check_log`` found exactly one)."""
    for change, _place in carried:
        change.game_id = game_id
        if key is not None and change.kind == CREATED:
            change.request_key, change.request_hash = key.key, key.fingerprint
        db.session.add(change)
    db.session.flush()
    link_undoes(carried)


def commit_games(
    game_ids: Sequence[str],
    entry: LogEntry,
    *,
    people: Sequence[int] = (),
    device: str,
    key: RequestKey | None,
    at: datetime | None = None,
) -> None:
    """The end of a change of several games that leaves their figures alone (a player
    renamed): each game's version moved and its people's, each game's log given the
    entry, the first with the request's key; the ratings' version moves (the ladder shows
    names), and so do the evenings where ``people`` (the renamed) are present. The caller
    locked the games first, in the order every change takes them."""
    now = at or utcnow()
    db.session.flush()
    if game_ids:
        games = list(game_ids)
        db.session.execute(_GAMES_CHANGED, {"games": games, "now": now})
        db.session.execute(_PEOPLE_AT_GAMES, {"games": games})
        rows = [
            _entry_row(game_id, entry, now, device, key if index == 0 else None)
            for index, game_id in enumerate(games)
        ]
        db.session.execute(_NEW_CHANGES, rows)
    found = marked()
    found.games.update(game_ids)
    found.people.update(people)
    ratings_moved()


def ratings_moved() -> None:
    """Mark the version of the ratings (``ratings.version``) to move when the change's
    transaction commits: every worker rates the games again at its next ratings page."""
    marked().ratings = True


def roster_changed() -> None:
    """Mark the history's version to move (its player filter lists the roster)."""
    marked()


def commit_evening(
    evening: Evening,
    kind: str,
    *,
    round_number: int | None,
    device: str,
    key: RequestKey | None,
    at: datetime | None = None,
) -> None:
    """The end of a club evening's command (each table's game went through ``commit``):
    the evening's version moved and its log given the command's entry, with the request's
    key; its stamp (its pages' keys), its season's and the history's move at the commit.
    A new evening's stamp is made here."""
    db.session.flush()
    if kind == EVENING_CREATED:
        db.session.execute(_NEW_EVENING_STAMP, {"evening_id": evening.id})
    db.session.execute(_EVENING_CHANGED, {"evening_id": evening.id})
    db.session.execute(
        _NEW_EVENING_CHANGE,
        {
            "evening_id": evening.id,
            "kind": kind,
            "round": round_number,
            "at": at or utcnow(),
            "device": device[:MAX_DEVICE],
            "request_key": None if key is None else key.key,
            "request_hash": None if key is None else key.fingerprint,
        },
    )
    set_committed_value(evening, "version", evening.version + 1)
    marked().evenings.add(evening.id)


def commit_season(
    season: Season,
    kind: str,
    *,
    device: str,
    key: RequestKey | None,
    at: datetime | None = None,
) -> None:
    """The end of a season's command (made, its points changed, an evening joined): the
    season's version moved (its page's ETag) and its log given the command's entry, with
    the request's key. A new season's stamp is made here."""
    db.session.flush()
    if kind == SEASON_CREATED:
        db.session.execute(_NEW_SEASON_STAMP, {"season_id": season.id})
    db.session.execute(_SEASON_CHANGED, {"season_id": season.id})
    db.session.execute(
        _NEW_SEASON_CHANGE,
        {
            "season_id": season.id,
            "kind": kind,
            "at": at or utcnow(),
            "device": device[:MAX_DEVICE],
            "request_key": None if key is None else key.key,
            "request_hash": None if key is None else key.fingerprint,
        },
    )
    set_committed_value(season, "version", season.version + 1)


def commit_replayed(
    sheet: Sheet,
    entry: LogEntry,
    *,
    device: str,
    key: RequestKey | None,
    at: datetime | None = None,
) -> int:
    """``commit`` for a change that replayed the whole game (an edit, a deletion, an undo,
    a new game): the records are the replay's."""
    game = sheet.game
    deals = [side_results(deal) for deal in game.deals]
    records = list(zip(game.sides, side_records(sheet.state, deals), strict=True))
    people = sorted(
        {p.person_id for side in game.sides for p in side.players if p.person_id is not None}
    )
    now = at or utcnow()
    change = commit(
        game.id,
        [entry],
        records=[(side.id, record) for side, record in records],
        finished=sheet.state.finished,
        # As loaded: ``as_committed`` sets what this change wrote only after it.
        was_finished=bool(game.finished),
        people=people,
        device=device,
        key=key,
        at=now,
    )
    as_committed(game, records, sheet.state.finished, now)
    assert change is not None
    return change


def as_committed(
    game: Game, records: Sequence[tuple[Side, SideRecord]], finished: bool, at: datetime
) -> None:
    """The loaded game as ``commit`` wrote it (an answer, or the caller, reads it next;
    the session keeps its objects past the commit), without writing it twice."""
    for side, record in records:
        set_committed_value(side, "total", record.total)
        set_committed_value(side, "outcome", record.outcome.value)
        set_committed_value(side, "record", record_to_json(record))
    set_committed_value(game, "finished", finished)
    set_committed_value(game, "version", game.version + 1)
    set_committed_value(game, "updated_at", at)


def keep_records(sheet: Sheet) -> None:
    """Keep each side's total, outcome and statistics next to it (``Side.record``) and the
    game's finished flag on the loaded game, as a replay gives them (a restore, which
    keeps every version as the backup has it)."""
    deals = [side_results(deal) for deal in sheet.game.deals]
    for side, record in zip(sheet.game.sides, side_records(sheet.state, deals), strict=True):
        side.total = record.total
        side.outcome = record.outcome.value
        side.record = record_to_json(record)
    sheet.game.finished = sheet.state.finished
