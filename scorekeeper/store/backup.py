"""The whole database as one file and back: ``flask backup FILE`` and ``flask restore FILE``.

A backup keeps everything a game's pages and links depend on: game ids (the addresses),
the hashed edit secrets (scorer links keep working), the roster with its ids, every deal
as entered, its version and time. It is JSON (gzipped when the name ends in ``.gz``), so a
SQLite backup restores into PostgreSQL and back. A restore replays every game through the
rules engine and checks the totals and winner against those the backup recorded: a file
that would not show every game exactly as it was restores nothing.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import delete, func, select, text
from sqlalchemy.exc import IntegrityError

from ..rules import OptionError
from ..rules.scoring import INTEGER_FIELDS
from .changes import keep_records
from .db import db, write
from .games import entries_json, sheet_of
from .history import every_game
from .models import Deal, DealResult, Game, Person, Player, Side
from .players import name_key

BACKUP_FORMAT = "canasta-scorekeeper/backup/1"


class BackupError(Exception):
    """A file that is not a backup this app can restore, or a database it would overwrite."""


@dataclass(frozen=True)
class Counts:
    games: int
    deals: int
    people: int


def _open(path: Path, mode: str) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8")  # type: ignore[return-value]
    return path.open(mode, encoding="utf-8")


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
        "sides": [
            {
                "name": side.name,
                "start": side.start,
                "players": [{"name": p.name, "person": p.person_id} for p in side.players],
            }
            for side in game.sides
        ],
        "deals": [
            {
                "seq": deal.seq,
                "version": deal.version,
                "request_key": deal.request_key,
                "created_at": _stamp(deal.created_at),
                "results": [entries_json(r) for r in deal.results],
            }
            for deal in game.deals
        ],
        "totals": list(sheet.state.totals),
        "winner": sheet.state.winner,
    }


def backup(path: Path) -> Counts:
    """Write every game and the roster to ``path``."""
    people = db.session.scalars(select(Person).order_by(Person.id)).all()
    games = deals = 0
    with _open(path, "w") as out:
        roster = [{"id": p.id, "name": p.name, "created_at": _stamp(p.created_at)} for p in people]
        stamp = json.dumps(_stamp(datetime.now(UTC)))
        out.write(
            f'{{"format": {json.dumps(BACKUP_FORMAT)}, "created_at": {stamp},\n'
            f'"people": {json.dumps(roster)},\n"games": ['
        )
        count = len(people)
        for game in every_game():
            out.write(("," if games else "") + "\n" + json.dumps(_game(game)))
            games += 1
            deals += len(game.deals)
        out.write("\n]}\n")
    return Counts(games, deals, count)


def _read(path: Path) -> dict[str, Any]:
    try:
        with _open(path, "r") as source:
            document = json.load(source)
    except (OSError, EOFError) as error:
        raise BackupError(f"Cannot read {path}: {error}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise BackupError(f"{path} is not JSON: {error}") from None
    if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
        raise BackupError(
            f"{path} is not a backup of this app (its format should be {BACKUP_FORMAT!r}; "
            "a single game's export goes through POST /api/games/import)."
        )
    return document


def _time(value: object, where: str) -> datetime:
    if not isinstance(value, str):
        raise BackupError(f"{where}: a date and time is missing.")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise BackupError(f"{where}: {value!r} is not a date and time.") from None
    return moment.replace(tzinfo=None)


def _result(data: Mapping[str, Any], where: str) -> DealResult:
    figures = {}
    for name in INTEGER_FIELDS:
        value = data.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 100_000:
            raise BackupError(f"{where}.{name}: {value!r} is not a figure of a deal.")
        figures[name] = value
    flags = {}
    for name in ("went_out", "concealed"):
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise BackupError(f"{where}.{name}: {value!r} is not true or false.")
        flags[name] = value
    return DealResult(**figures, **flags)


def _games(
    document: Mapping[str, Any], people: Mapping[int, Person]
) -> Iterator[tuple[Game, Mapping[str, Any]]]:
    for index, data in enumerate(document.get("games") or []):
        where = f"games.{index}"
        try:
            game = Game(
                id=str(data["id"]),
                token_hash=str(data["token_hash"]),
                variant=str(data["variant"]),
                options=dict(data.get("options") or {}),
                first_dealer=int(data.get("first_dealer", 0)),
                created_at=_time(data.get("created_at"), f"{where}.created_at"),
                updated_at=_time(data.get("updated_at"), f"{where}.updated_at"),
                version=int(data.get("version", 1)),
            )
            for position, side_data in enumerate(data["sides"]):
                side = Side(
                    position=position, name=str(side_data["name"]), start=int(side_data["start"])
                )
                for seat, player in enumerate(side_data["players"]):
                    person = player.get("person")
                    if person is not None and person not in people:
                        raise BackupError(f"{where}.sides.{position}: unknown person {person}.")
                    side.players.append(
                        Player(
                            position=seat,
                            name=str(player["name"]),
                            person=people[person] if person is not None else None,
                        )
                    )
                game.sides.append(side)
            for number, deal_data in enumerate(data["deals"]):
                deal = Deal(
                    seq=int(deal_data["seq"]),
                    version=int(deal_data.get("version", 1)),
                    request_key=deal_data.get("request_key"),
                    created_at=_time(deal_data.get("created_at"), f"{where}.deals.{number}"),
                )
                for position, result in enumerate(deal_data["results"]):
                    stored = _result(result, f"{where}.deals.{number}.results.{position}")
                    stored.side_position = position
                    deal.results.append(stored)
                game.deals.append(deal)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise BackupError(f"{where}: not a game of this app's backups ({error!r}).") from None
        yield game, data


def restore(path: Path, *, replace: bool = False) -> Counts:
    """Load a backup into this database. Refused when the database already holds games or
    players, unless ``replace`` (then they are deleted first, in the same transaction)."""
    document = _read(path)
    with write():
        occupied = db.session.scalar(select(func.count(Game.id))) or db.session.scalar(
            select(func.count(Person.id))
        )
        if occupied and not replace:
            raise BackupError(
                "This database already holds games or players; restore into an empty one, or "
                "pass --replace to delete them first."
            )
        if replace:
            for table in (DealResult, Deal, Player, Side, Game, Person):
                db.session.execute(delete(table))
        people: dict[int, Person] = {}
        for index, data in enumerate(document.get("people") or []):
            try:
                person = Person(
                    id=int(data["id"]),
                    name=str(data["name"]),
                    created_at=_time(data.get("created_at"), f"people.{index}.created_at"),
                )
            except (KeyError, TypeError, ValueError) as error:
                raise BackupError(f"people.{index}: not a player ({error!r}).") from None
            person.key = name_key(person.name)
            people[person.id] = person
            db.session.add(person)
        try:
            db.session.flush()
        except IntegrityError as error:
            message = f"people: two players share an id or a name ({error.orig})."
            raise BackupError(message) from None
        games = deals = 0
        for game, data in _games(document, people):
            try:
                db.session.add(game)
                db.session.flush()
                sheet = sheet_of(game)
            except IntegrityError as error:
                raise BackupError(f"Game {game.id}: twice, or clashing ({error.orig}).") from None
            except (KeyError, OptionError, ValueError, TypeError, IndexError) as error:
                message = f"Game {game.id}: not a game of these rules ({error!r})."
                raise BackupError(message) from None
            if list(sheet.state.totals) != data.get("totals") or sheet.state.winner != data.get(
                "winner"
            ):
                raise BackupError(
                    f"Game {game.id}: replayed it gives totals {list(sheet.state.totals)} and "
                    f"winner {sheet.state.winner}, the backup says {data.get('totals')} and "
                    f"{data.get('winner')}; nothing was restored."
                )
            keep_records(sheet)
            game.updated_at = _time(data.get("updated_at"), f"game {game.id}")
            games += 1
            deals += len(game.deals)
            db.session.flush()
            db.session.expunge_all()
            for person in people.values():  # the roster stays in the session for the seats
                db.session.add(person)
        if db.session.get_bind().dialect.name == "postgresql" and people:
            db.session.execute(
                text("SELECT setval(pg_get_serial_sequence('person', 'id'), max(id)) FROM person")
            )
    return Counts(games, deals, len(people))
