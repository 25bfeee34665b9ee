"""``flask restore FILE``: a backup (``backup.write``) loaded into this database. The file
is read in the shape ``backup.document`` states, each player, game and club evening made
rows again and checked (``backup.rebuild``), and every game replayed: its totals and winner
must be those the backup recorded, or nothing is restored. Every time is kept as the backup
gives it; the writes are the store's (``store.changes.restore_backup``)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from sqlalchemy.exc import DBAPIError

from ..rules.text import Text
from ..store.changes import Restoring, restore_backup
from ..store.db import db
from ..store.errors import Refused, Why
from ..store.evenings import view_of
from ..store.games import GAME_ID
from ..store.models import Person
from . import document, rebuild
from .document import BACKUP_FORMAT, BackupError, Counts, first_error

#: What a restore reads at a time (bytes, decompressed).
CHUNK = 1024 * 1024

Part = TypeVar("Part", bound=BaseModel)


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


def _read(path: Path, most: int) -> dict[str, Any]:
    """The backup document, at most ``most`` bytes of JSON: an object of the backup format
    whose ``people``, ``games`` and ``evenings`` are lists."""
    raw = _bounded(path, most)
    try:
        found = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise BackupError(f"{path} is not JSON: {rebuild.short(error)}") from None
    if not isinstance(found, dict) or found.get("format") != BACKUP_FORMAT:
        raise BackupError(
            f"{path} is not a backup of this app (its format should be {BACKUP_FORMAT!r}; "
            "a single game's export goes through POST /api/games/import)."
        )
    # The evenings: none in backups from before evenings.
    parts = (("people", "players"), ("games", "games"), ("seasons", "seasons"))
    for part, what in (*parts, ("evenings", "club evenings")):
        listed = found.get(part, [] if part in ("evenings", "seasons") else None)
        if not isinstance(listed, list):
            raise rebuild.wrong(part, f"{part}: a list of {what}, not {rebuild.short(listed)}.")
    return found


def _part(model: type[Part], data: object, where: str, label: str, what: str) -> Part:
    """One player, game or evening of the file in its model; refused naming the field and
    the rule it breaks (``games.0 (game x), sides.0.name: …``)."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        field, rule, shape = first_error(error)
        if shape or not field:
            message = f"{where}: not {what} ({field or 'it'}: {rule})."
        else:
            message = f"{label}, {field}: {rule}."
        raise BackupError(message, {f"{where}.{field}" if field else where: Text(rule)}) from None


def _placed(refused: Refused, where: str, label: str) -> BackupError:
    """A refusal of one value of a game or a player, with its place in the file."""
    field = next(iter(refused.fields), "")
    fields = {f"{where}.{path}": text for path, text in refused.fields.items()}
    return BackupError(f"{label}, {field}: {refused.text}", fields)


def restore(path: Path, *, most: int, replace: bool = False) -> Counts:
    """Load a backup of at most ``most`` bytes (decompressed) into this database. Refused
    when the database already holds games or players, unless ``replace`` (then they are
    deleted first, in the same transaction)."""
    found = _read(path, most)
    occupied = BackupError(
        "This database already holds games or players; restore into an empty one, or "
        "pass --replace to delete them first.",
        why=Why.CONFLICT,
    )
    return restore_backup(
        lambda restoring: _load(found, restoring), replace=replace, occupied=occupied
    )


def _people(found: Mapping[str, Any], restoring: Restoring) -> dict[int, Person]:
    people: dict[int, Person] = {}
    read: list[Person] = []  # each as the file has it: one there twice is a clash
    for index, data in enumerate(found["people"]):
        where = f"people.{index}"
        person = _part(document.PersonBackup, data, where, where, "a player")
        try:
            row = rebuild.person(person)
        except Refused as refused:
            raise _placed(refused, where, where) from None
        people[row.id] = row
        read.append(row)
    try:
        restoring.people(read)
    except DBAPIError as error:
        message = f"people: two players share an id or a name ({error.orig})."
        raise BackupError(message) from None
    return people


def _load(found: Mapping[str, Any], restoring: Restoring) -> Counts:
    """Each player, game and evening of the document checked and handed to ``restoring``."""
    people = _people(found, restoring)
    games = deals = 0
    restored: set[str] = set()
    for index, data in enumerate(found["games"]):
        where = f"games.{index}"
        game_id = data.get("id") if isinstance(data, dict) else None
        named = isinstance(game_id, str) and GAME_ID.fullmatch(game_id)
        label = f"{where} (game {game_id})" if named else where
        kept = _part(document.GameBackup, data, where, label, "a game of this app's backups")
        try:
            # Built whole before it is written (``Restoring.game``).
            with db.session.no_autoflush:
                game, sheet = rebuild.game(kept, people)
                log = rebuild.log(kept, data, game)
        except Refused as refused:
            raise _placed(refused, where, label) from None
        if list(sheet.state.totals) != kept.totals or sheet.state.winner != kept.winner:
            raise BackupError(
                f"{label}: replayed it gives totals {list(sheet.state.totals)} and "
                f"winner {sheet.state.winner}, the backup says {kept.totals} and "
                f"{kept.winner}; nothing was restored."
            )
        deals += len(game.deals)
        restored.add(game.id)
        try:
            restoring.game(game, sheet, log)
        except DBAPIError as error:
            raise BackupError(f"{label}: twice, or clashing ({error.orig}).") from None
        games += 1
    seasons: set[str] = set()
    for index, data in enumerate(found.get("seasons", [])):
        where = f"seasons.{index}"
        season = _part(document.SeasonBackup, data, where, where, "a season")
        try:
            restoring.season(rebuild.season(season))
        except Refused as refused:
            raise _placed(refused, where, where) from None
        except DBAPIError as error:
            raise BackupError(f"{where}: twice, or clashing ({error.orig}).") from None
        seasons.add(season.id)
    for index, data in enumerate(found.get("evenings", [])):
        where = f"evenings.{index}"
        evening = _part(document.EveningBackup, data, where, where, "a club evening")
        try:
            row = rebuild.evening(evening, people, restored, seasons)
            restoring.evening(row)
            # Its players, pairs and tables must make an evening the pages can show.
            view_of(row)
        except Refused as refused:
            raise _placed(refused, where, where) from None
        except DBAPIError as error:
            raise BackupError(f"{where}: twice, or clashing ({error.orig}).") from None
    return Counts(games, deals, len(people))
