"""The whole database as one file and back: ``flask backup FILE`` and ``flask restore FILE``.

A backup keeps everything a game's pages and links depend on: game ids (the addresses),
the hashed edit secrets (scorer links keep working), the roster with its ids, every deal
as entered, its version and time. It is JSON (gzipped when the name ends in ``.gz``), so a
SQLite backup restores into PostgreSQL and back. A restore replays every game through the
rules engine and checks the totals and winner against those the backup recorded: a file
that would not show every game exactly as it was restores nothing. Every value is checked
as the app checks it when a game is created, imported or played (names, ids, options, dates
and figures), and every time is kept as the backup gives it.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from ..rules import Format, errors_of, validate_deal
from ..rules.limits import (
    MAX_DEALS,
    MAX_ENTRANTS,
    MAX_ID,
    MAX_MINUTES,
    MAX_REQUEST_KEY,
    MAX_ROUNDS,
    MAX_START,
    most_of,
)
from ..rules.scoring import INTEGER_FIELDS
from ..rules.text import Text
from .changes import (
    Restoring,
    check_first_dealer,
    check_start,
    evening_rules,
    restore_backup,
    table_rules,
)
from .changes.commit import fingerprint
from .db import db
from .errors import Refused, Why, check_moment, check_name, is_request_key
from .evenings import view_of
from .games import GAME_ID, Sheet, sheet_of, side_results
from .history import every_game
from .log import (
    RECORDED,
    Read,
    entries_json,
    log_json,
    read_log,
    reconstructed_log,
    results_of,
)
from .models import (
    Change,
    Deal,
    DealResult,
    Evening,
    EveningPlayer,
    EveningRound,
    EveningTable,
    Game,
    Person,
    Player,
    Side,
)
from .players import name_key
from .seats import check_cards

BACKUP_FORMAT = "canasta-scorekeeper/backup/1"


#: A SHA-256 in hex: a game's secret's, or a keyed request's (``Deal.request_hash``).
TOKEN_HASH = re.compile(r"[0-9a-f]{64}")


class BackupError(Refused):
    """A file that is not a backup this app can restore, or a database it would overwrite.
    Its sentences are for whoever runs the server, in English (not in the catalogues)."""

    def __init__(
        self, message: str, fields: Mapping[str, Text] | None = None, *, why: Why = Why.INVALID
    ) -> None:
        super().__init__(why, Text(message), fields)


@dataclass(frozen=True)
class Counts:
    games: int
    deals: int
    people: int


def _writer(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "wt", encoding="utf-8")
    return path.open("w", encoding="utf-8")


#: What a restore reads at a time (bytes, decompressed).
CHUNK = 1024 * 1024


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


def _bounded(path: Path, most: int) -> bytes:
    """The file's bytes, decompressed when it ends in ``.gz``: refused past ``most`` bytes
    as stored or decompressed, read a chunk at a time, so a small file that unpacks to
    gigabytes costs no more than ``most`` before it is refused."""
    too_large = (
        f"{path} holds more than {_mib(most)}{' once decompressed' if path.suffix == '.gz' else ''}"
        f", the most a restore reads (RESTORE_MAX_BYTES; FLASK_RESTORE_MAX_BYTES=<bytes> in "
        "the environment raises it)."
    )
    try:
        if path.stat().st_size > most:
            raise BackupError(too_large)
        chunks: list[bytes] = []
        read = 0
        with gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb") as source:
            while chunk := source.read(min(CHUNK, most + 1 - read)):
                chunks.append(chunk)
                read += len(chunk)
                if read > most:
                    raise BackupError(too_large)
    except (OSError, EOFError) as error:  # gzip.BadGzipFile is an OSError
        raise BackupError(f"Cannot read {path}: {error}") from None
    return b"".join(chunks)


def _stamp(moment: datetime) -> str:
    return moment.isoformat()


def _game(game: Game) -> dict[str, Any]:
    sheet = sheet_of(game)
    return {
        "id": game.id,
        "token_hash": game.token_hash,
        "variant": game.variant,
        "options": dict(game.options or {}),
        "first_dealer": game.first_dealer,
        "created_at": _stamp(game.created_at),
        "updated_at": _stamp(game.updated_at),
        # What is kept of its pages is keyed by it: a restored game must not go back to a
        # version whose pages showed something else.
        "version": game.version,
        "last_deal": game.last_deal,
        "sides": [
            {
                "name": side.name,
                "start": side.start,
                "players": [
                    {"name": p.name, "person": p.person_id, "card": p.card} for p in side.players
                ],
            }
            for side in game.sides
        ],
        "deals": [
            {
                "seq": deal.seq,
                "version": deal.version,
                "created_at": _stamp(deal.created_at),
                "results": [entries_json(r) for r in deal.results],
            }
            for deal in game.deals
        ],
        "totals": list(sheet.state.totals),
        "winner": sheet.state.winner,
        "deleted_at": None if game.deleted_at is None else _stamp(game.deleted_at),
        "changes": [
            {**log_json(c), "request_key": c.request_key, "request_hash": c.request_hash}
            for c in game.changes
        ],
    }


def backup(path: Path) -> Counts:
    """Write every game and the roster to ``path``."""
    people = db.session.scalars(select(Person).order_by(Person.id)).all()
    games = deals = 0
    with _writer(path) as out:
        roster = [{"id": p.id, "name": p.name, "created_at": _stamp(p.created_at)} for p in people]
        stamp = json.dumps(_stamp(datetime.now(UTC)))
        out.write(
            f'{{"format": {json.dumps(BACKUP_FORMAT)}, "created_at": {stamp},\n'
            f'"people": {json.dumps(roster)},\n"games": ['
        )
        count = len(people)
        for game in every_game(deleted=True):
            out.write(("," if games else "") + "\n" + json.dumps(_game(game)))
            games += 1
            deals += len(game.deals)
        out.write('\n],\n"evenings": [')
        evenings = db.session.scalars(select(Evening).order_by(Evening.created_at, Evening.id))
        for index, evening in enumerate(evenings):
            out.write(("," if index else "") + "\n" + json.dumps(_evening(evening)))
        out.write("\n]}\n")
    return Counts(games, deals, count)


def _evening(evening: Evening) -> dict[str, Any]:
    """A club evening as a backup keeps it: who played with whom, and each round's games."""
    return {
        "id": evening.id,
        "token_hash": evening.token_hash,
        "name": evening.name,
        "variant": evening.variant,
        "options": dict(evening.options or {}),
        "format": evening.format,
        "rounds": evening.rounds,
        "deals_per_round": evening.deals_per_round,
        "minutes_per_round": evening.minutes_per_round,
        "created_at": _stamp(evening.created_at),
        "version": evening.version,
        "players": [
            {"entrant": p.entrant, "position": p.position, "person": p.person_id}
            for p in evening.players
        ],
        "played": [
            {
                "number": r.number,
                "started_at": _stamp(r.started_at),
                "closed_at": None if r.closed_at is None else _stamp(r.closed_at),
                "byes": list(r.byes),
                "tables": [{"number": t.number, "game": t.game_id} for t in r.tables],
            }
            for r in evening.played_rounds
        ],
    }


def _restored_evening(
    data: Mapping[str, Any], people: Mapping[int, Person], games: set[str]
) -> Evening:
    """An evening of a backup, every value checked; its tables' games restored before it."""
    evening_id = data["id"]
    if not _is_game_id(evening_id):
        raise _wrong("id", f"{_short(evening_id)} is not an evening id.")
    token_hash = data["token_hash"]
    if not (isinstance(token_hash, str) and TOKEN_HASH.fullmatch(token_hash)):
        raise _wrong("token_hash", "Not the hash of a secret (64 hex digits).")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise _wrong("options", "The house options are an object.")
    evening_rules(data["variant"], options)
    fmt = data["format"]
    if fmt not in [f.value for f in Format]:
        raise _wrong("format", "Either pairs or individual.")
    minutes = data.get("minutes_per_round")
    evening = Evening(
        id=evening_id,
        token_hash=token_hash,
        name=check_name(data["name"], "name", side=True),
        variant=data["variant"],
        options=dict(options),
        format=fmt,
        rounds=_whole(data["rounds"], "rounds", 1, MAX_ROUNDS),
        deals_per_round=_whole(data["deals_per_round"], "deals_per_round", 1, MAX_DEALS),
        minutes_per_round=None
        if minutes is None
        else _whole(minutes, "minutes_per_round", 1, MAX_MINUTES),
        created_at=check_moment(data.get("created_at"), "created_at"),
        version=_whole(data.get("version", 1), "version"),
    )
    entrants: set[int] = set()
    for index, player in enumerate(data["players"]):
        path = f"players.{index}"
        person = _whole(player["person"], f"{path}.person")
        if person not in people:
            raise _wrong(f"{path}.person", f"No player {person} on the roster.")
        entrant = _whole(player["entrant"], f"{path}.entrant", 0, MAX_ENTRANTS)
        entrants.add(entrant)
        evening.players.append(
            EveningPlayer(
                entrant=entrant,
                position=_whole(player["position"], f"{path}.position", 0, MAX_ENTRANTS),
                person=people[person],
            )
        )
    if entrants != set(range(len(entrants))):
        raise _wrong("players", "Entrants are numbered 0, 1, 2, … without a gap.")
    for index, played in enumerate(data["played"]):
        path = f"played.{index}"
        closed = played.get("closed_at")
        byes = played.get("byes", [])
        if (
            not isinstance(byes, list)
            or not all(isinstance(bye, int) and not isinstance(bye, bool) for bye in byes)
            or not set(byes) <= entrants
        ):
            raise _wrong(f"{path}.byes", "Byes name the evening's entrants by number.")
        round_ = EveningRound(
            number=_whole(played["number"], f"{path}.number", 1, MAX_ROUNDS),
            started_at=check_moment(played.get("started_at"), f"{path}.started_at"),
            closed_at=None if closed is None else check_moment(closed, f"{path}.closed_at"),
            byes=list(byes),
        )
        for place, table in enumerate(played["tables"]):
            game = table["game"]
            if game not in games:
                raise _wrong(f"{path}.tables.{place}.game", f"No game {_short(game)} restored.")
            round_.tables.append(
                EveningTable(
                    number=_whole(table["number"], f"{path}.tables.{place}.number"), game_id=game
                )
            )
        evening.played_rounds.append(round_)
    return evening


def _read(path: Path, most: int) -> dict[str, Any]:
    """The backup document, at most ``most`` bytes of JSON: an object of the backup format
    whose ``people`` and ``games`` are lists."""
    raw = _bounded(path, most)
    try:
        document = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise BackupError(f"{path} is not JSON: {_short(error)}") from None
    if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
        raise BackupError(
            f"{path} is not a backup of this app (its format should be {BACKUP_FORMAT!r}; "
            "a single game's export goes through POST /api/games/import)."
        )
    for part, what in (("people", "players"), ("games", "games")):
        if not isinstance(document.get(part), list):
            raise _wrong(part, f"{part}: a list of {what}, not {_short(document.get(part))}.")
    return document


def _short(value: object) -> str:
    """A value as a refusal quotes it: a 10,000-character name is not repeated whole."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _wrong(path: str, message: str) -> BackupError:
    return BackupError(message, {path: Text(message)})


def _whole(value: object, path: str, low: int = 1, high: int = MAX_ID) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _wrong(path, f"{_short(value)} is not a whole number from {low} to {high}.")
    return value


def _result(data: Mapping[str, Any], path: str) -> DealResult:
    figures = {}
    for name in INTEGER_FIELDS:
        value = data.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most_of(name):
            raise _wrong(f"{path}.{name}", f"{_short(value)} is not a figure of a deal.")
        figures[name] = value
    flags = {}
    for name in ("went_out", "concealed"):
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise _wrong(f"{path}.{name}", f"{_short(value)} is not true or false.")
        flags[name] = value
    return DealResult(**figures, **flags)


def _restored_person(data: Mapping[str, Any]) -> Person:
    """A roster entry, checked as the roster checks a new name."""
    person = Person(
        id=_whole(data["id"], "id"),
        name=check_name(data["name"], "name", side=False),
        created_at=check_moment(data.get("created_at"), "created_at"),
    )
    person.key = name_key(person.name)
    return person


def _restored_game(data: Mapping[str, Any], people: Mapping[int, Person]) -> tuple[Game, Sheet]:
    """A game of the backup, every value checked as a new game, an import and a deal are
    (paths are the game's own: ``sides.0.name``), and its replay, each deal checked against
    the minimum it was played at."""
    game_id = data["id"]
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise _wrong("id", f"{_short(game_id)} is not a game id of this app.")
    token_hash = data["token_hash"]
    if not isinstance(token_hash, str) or not TOKEN_HASH.fullmatch(token_hash):
        raise _wrong("token_hash", "Not the hash of a game's secret (64 hex digits).")
    sides = data["sides"]
    if not isinstance(sides, list):
        raise _wrong("sides", "The sides are a list.")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise _wrong("options", "The house options are an object.")
    rules = table_rules(data["variant"], len(sides), options)
    game = Game(
        id=game_id,
        token_hash=token_hash,
        variant=data["variant"],
        options=dict(options),
        first_dealer=check_first_dealer(
            _whole(data.get("first_dealer", 0), "first_dealer", 0), rules
        ),
        created_at=check_moment(data.get("created_at"), "created_at"),
        updated_at=check_moment(data.get("updated_at"), "updated_at"),
        version=_whole(data.get("version", 1), "version"),
        deleted_at=None
        if data.get("deleted_at") is None
        else check_moment(data["deleted_at"], "deleted_at"),
        last_deal=None
        if data.get("last_deal") is None
        else _whole(data["last_deal"], "last_deal", 0, MAX_DEALS),
    )
    seated: set[int] = set()
    for position, side_data in enumerate(sides):
        path = f"sides.{position}"
        start = _whole(side_data.get("start", 0), f"{path}.start", -MAX_START, MAX_START)
        side = Side(
            position=position,
            name=check_name(side_data["name"], f"{path}.name", side=True),
            start=check_start(start, rules, f"{path}.start"),
        )
        players = side_data["players"]
        if not isinstance(players, list) or len(players) != rules.players_per_side:
            raise _wrong(f"{path}.players", f"A side here has {rules.players_per_side} players.")
        for seat, player in enumerate(players):
            person = player.get("person")
            if person is not None:
                person = _whole(person, f"{path}.players.{seat}.person")
            if person is not None and (person not in people or person in seated):
                raise _wrong(f"{path}.players.{seat}.person", f"Unknown or seated twice: {person}.")
            name = check_name(player["name"], f"{path}.players.{seat}.name", side=False)
            if person is not None:
                seated.add(person)
                if name != people[person].name:
                    # A seat shows its person's name (a rename renames every seat).
                    raise _wrong(
                        f"{path}.players.{seat}.name",
                        f"{_short(name)} is not the name of player {person} of the roster "
                        f"({_short(people[person].name)}), who sits there.",
                    )
            side.players.append(
                Player(
                    position=seat, name=name, person=people[person] if person is not None else None
                )
            )
        game.sides.append(side)
    # The cards drawn for seats: all players' or none, a draw that decided.
    drawn = [[p.get("card") for p in side_data["players"]] for side_data in sides]
    if any(card is not None for cards in drawn for card in cards):
        for position, cards in enumerate(drawn):
            for seat, card in enumerate(cards):
                if not isinstance(card, str):
                    raise _wrong(
                        f"sides.{position}.players.{seat}.card",
                        "Every player drew a card, or none.",
                    )
        kept = check_cards(drawn, rules.players_per_side)
        for side, cards in zip(game.sides, kept, strict=True):
            for player, card in zip(side.players, cards, strict=True):
                player.card = card
    deals = data["deals"]
    if not isinstance(deals, list):
        raise _wrong("deals", "The deals are a list.")
    for number, deal_data in enumerate(deals):
        path = f"deals.{number}"
        key = deal_data.get("request_key")
        if key is not None and not (isinstance(key, str) and is_request_key(key)):
            raise _wrong(
                f"{path}.request_key",
                f"A request key is 1 to {MAX_REQUEST_KEY} printable ASCII characters.",
            )
        # Backups from before keys were kept in the change log keep them on the deals:
        # checked all the same, and carried over to the change that recorded the deal.
        _request_hash(deal_data, path)
        deal = Deal(
            seq=_whole(deal_data["seq"], f"{path}.seq"),
            version=_whole(deal_data.get("version", 1), f"{path}.version"),
            created_at=check_moment(deal_data.get("created_at"), f"{path}.created_at"),
        )
        results = deal_data["results"]
        if not isinstance(results, list) or len(results) != len(sides):
            raise _wrong(f"{path}.results", "A deal has one result per side.")
        for position, result in enumerate(results):
            stored = _result(result, f"{path}.results.{position}")
            stored.side_position = position
            deal.results.append(stored)
        game.deals.append(deal)
    sheet = sheet_of(game)
    for number, (deal, line) in enumerate(zip(game.deals, sheet.state.lines, strict=True)):
        errors = errors_of(validate_deal(side_results(deal), rules, minimums=line.minimums))
        if errors:
            raise Refused.breaking(errors, prefix=f"deals.{number}.")
    if sheet.state.deals_after_end:
        raise _wrong("deals", f"The game ended with deal {sheet.state.finished_after}.")
    return game, sheet


def _request_hash(data: Mapping[str, Any], path: str) -> str | None:
    """What a kept request key's request asked (None from before that was kept: a retry is
    then answered as before)."""
    digest = data.get("request_hash")
    if digest is not None and not (isinstance(digest, str) and TOKEN_HASH.fullmatch(digest)):
        raise _wrong(f"{path}.request_hash", "Not the hash of a request (64 hex digits).")
    return digest


def _restored_log(data: Mapping[str, Any], game: Game) -> list[Read]:
    """The game's change log, checked as an import's is; a backup from before the log
    gets one reconstructed from its deals, as the migration that began it did."""
    if "changes" not in data:
        read: list[Read] = [
            (change, None) for change in reconstructed_log(game.created_at, game.deals)
        ]
    else:
        deals = [(deal.seq, deal.results) for deal in game.deals]
        read = read_log(data["changes"], len(game.sides), deals, last_deal=game.last_deal)
        for index, ((change, _place), item) in enumerate(zip(read, data["changes"], strict=True)):
            key = item.get("request_key")
            if key is not None and not (isinstance(key, str) and is_request_key(key)):
                raise _wrong(f"changes.{index}.request_key", "Not a request key.")
            change.request_key = key
            change.request_hash = _request_hash(item, f"changes.{index}")
            # Its id as it was: an undo names it, and so may an API client.
            change.id = _whole(item.get("id"), f"changes.{index}.id")
    _keys_from_deals(data, [change for change, _place in read])
    return read


def _keys_from_deals(data: Mapping[str, Any], log: Sequence[Change]) -> None:
    """A backup from before keys were kept in the change log keeps each on the deal it
    recorded: it goes to the change that recorded that deal, as the migration moved them
    (with what that request asked, from the change's own figures)."""
    keyed = {c.request_key for c in log if c.request_key is not None}
    for deal_data in data["deals"]:
        key = deal_data.get("request_key")
        if key is None or key in keyed:
            continue
        recorded = next(
            (c for c in log if c.kind == RECORDED and c.deal_seq == deal_data.get("seq")), None
        )
        if recorded is not None and recorded.request_key is None:
            recorded.request_key = key
            if deal_data.get("request_hash") is not None:
                recorded.request_hash = fingerprint("record-deal", results_of(recorded.after))
            keyed.add(key)


def _placed(refused: Refused, where: str, label: str) -> BackupError:
    """A refusal of one value of a game or a player, with its place in the file."""
    field = next(iter(refused.fields), "")
    fields = {f"{where}.{path}": text for path, text in refused.fields.items()}
    return BackupError(f"{label}, {field}: {refused.text}", fields)


def restore(path: Path, *, most: int, replace: bool = False) -> Counts:
    """Load a backup of at most ``most`` bytes (decompressed) into this database. Refused
    when the database already holds games or players, unless ``replace`` (then they are
    deleted first, in the same transaction). Every value is checked as the app checks it
    anywhere else, and every time is kept; the writes are the store's (``restore_backup``)."""
    document = _read(path, most)
    occupied = BackupError(
        "This database already holds games or players; restore into an empty one, or "
        "pass --replace to delete them first.",
        why=Why.CONFLICT,
    )
    return restore_backup(
        lambda restoring: _load(document, restoring), replace=replace, occupied=occupied
    )


def _load(document: Mapping[str, Any], restoring: Restoring) -> Counts:
    """Each player, game and evening of the document checked and handed to ``restoring``."""
    people: dict[int, Person] = {}
    read: list[Person] = []  # each as the file has it: one there twice is a clash
    for index, data in enumerate(document["people"]):
        where = f"people.{index}"
        try:
            person = _restored_person(data)
        except Refused as refused:
            raise _placed(refused, where, where) from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise BackupError(f"{where}: not a player ({error!r}).") from None
        people[person.id] = person
        read.append(person)
    try:
        restoring.people(read)
    except DBAPIError as error:
        message = f"people: two players share an id or a name ({error.orig})."
        raise BackupError(message) from None
    games = deals = 0
    restored: set[str] = set()
    for index, data in enumerate(document["games"]):
        where = f"games.{index}"
        game_id = data.get("id") if isinstance(data, dict) else None
        label = f"{where} (game {game_id})" if _is_game_id(game_id) else where
        try:
            # Built whole before it is written (``Restoring.game``).
            with db.session.no_autoflush:
                game, sheet = _restored_game(data, people)
                log = _restored_log(data, game)
        except Refused as refused:
            raise _placed(refused, where, label) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise BackupError(f"{where}: not a game of this app's backups ({error!r}).") from None
        if list(sheet.state.totals) != data.get("totals") or sheet.state.winner != data.get(
            "winner"
        ):
            raise BackupError(
                f"{label}: replayed it gives totals {list(sheet.state.totals)} and "
                f"winner {sheet.state.winner}, the backup says {data.get('totals')} and "
                f"{data.get('winner')}; nothing was restored."
            )
        deals += len(game.deals)
        restored.add(game.id)
        try:
            restoring.game(game, sheet, log)
        except DBAPIError as error:
            raise BackupError(f"{label}: twice, or clashing ({error.orig}).") from None
        games += 1
    evenings = document.get("evenings", [])  # none in backups from before evenings
    if not isinstance(evenings, list):
        raise _wrong("evenings", "evenings: a list of club evenings.")
    for index, data in enumerate(evenings):
        where = f"evenings.{index}"
        try:
            evening = _restored_evening(data, people, restored)
            restoring.evening(evening)
            # Its players, pairs and tables must make an evening the pages can show.
            view_of(evening)
        except Refused as refused:
            raise _placed(refused, where, where) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise BackupError(f"{where}: not a club evening ({error!r}).") from None
        except DBAPIError as error:
            raise BackupError(f"{where}: twice, or clashing ({error.orig}).") from None
    return Counts(games, deals, len(people))


def _is_game_id(value: object) -> bool:
    return isinstance(value, str) and GAME_ID.fullmatch(value) is not None
