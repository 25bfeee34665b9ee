"""A backup's document as pydantic models: the shape of every player, game and club evening
(types, ranges, ids and hashes), stated once. A game's parts are the API's own
(``api.schemas``: a deal's entries, the rule set, the house options, the first dealer), so a
backup and an import read a deal alike. What depends on the rule set or on the rest of the
file (a seat's person, a side's players, a name's letters, the replay) is the restore's."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

from ..api.schemas import (
    Body,
    FirstDealer,
    ImportedDeal,
    Name,
    Number,
    Options,
    SideIndex,
    Variant,
    Whole,
)
from ..rules import Format
from ..rules.limits import MAX_DEALS, MAX_ENTRANTS, MAX_MINUTES, MAX_ROUNDS, MAX_START
from ..rules.text import Text
from ..rules.victory_points import BYE_VP, TOTAL
from ..store.errors import Refused, Why, is_request_key
from ..store.games import GAME_ID

BACKUP_FORMAT = "canasta-scorekeeper/backup/1"


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


def _pattern(regex: re.Pattern[str]) -> str:
    return f"^{regex.pattern}$"


def _request_key(value: str) -> str:
    if not is_request_key(value):
        raise PydanticCustomError("request_key", "Not a request key (printable ASCII).")
    return value


def _format(value: str) -> str:
    if value not in [f.value for f in Format]:
        raise PydanticCustomError("format", "Either pairs or individual.")
    return value


#: A game's or an evening's id, as its address has it.
Id = Annotated[str, Field(pattern=_pattern(GAME_ID))]
#: A SHA-256 in hex: a game's secret's, or a keyed request's (``Change.request_hash``).
Sha256 = Annotated[str, Field(pattern="^[0-9a-f]{64}$")]
#: A request key as a change keeps it (``Change.request_key``).
KeyText = Annotated[str, AfterValidator(_request_key)]
#: A date and time as the backup gives it; ``store.errors.check_moment`` reads it.
Moment = str | None


class PersonBackup(Body):
    id: Number
    name: Name
    created_at: Moment = None


class SeatBackup(Body):
    name: Name
    person: Number | None = None
    #: A card drawn for seats, checked with the others (``store.seats.check_cards``).
    card: str | None = None


class SideBackup(Body):
    name: Name
    start: Whole = Field(0, ge=-MAX_START, le=MAX_START)
    players: list[SeatBackup]


class DealBackup(ImportedDeal):
    """A deal as recorded, with what a backup from before the change log kept on it."""

    seq: Number
    version: Number = 1
    created_at: Moment = None
    #: When the other side of a club table confirmed it (older backups: never).
    confirmed_at: Moment = None
    request_key: KeyText | None = None
    request_hash: Sha256 | None = None


class ChangeBackup(Body):
    """What a restore reads of an entry of a game's log itself; the rest is the import's
    (``store.log.read_log``), read from the file as it is."""

    model_config = ConfigDict(extra="allow")

    #: Required, but checked after the import's own checks of the entry (``backup.rebuild``).
    id: Number | None = None
    request_key: KeyText | None = None
    request_hash: Sha256 | None = None


class GameBackup(Body):
    id: Id
    token_hash: Sha256
    variant: Variant
    options: Options = None
    first_dealer: FirstDealer = 0
    created_at: Moment = None
    updated_at: Moment = None
    version: Number = 1
    last_deal: Whole | None = Field(None, ge=0, le=MAX_DEALS)
    #: The other side's secret's hash, at a table of an evening that confirms results.
    confirm_hash: Sha256 | None = None
    sides: list[SideBackup]
    deals: list[DealBackup]
    totals: list[Whole] | None = None
    winner: SideIndex | None = None
    deleted_at: Moment = None
    #: None in a backup from before the log (one is reconstructed from the deals).
    changes: list[ChangeBackup] | None = None


class EntrantBackup(Body):
    entrant: Whole = Field(ge=0, le=MAX_ENTRANTS)
    position: Whole = Field(ge=0, le=MAX_ENTRANTS)
    person: Number


class TableBackup(Body):
    number: Number
    game: str


class RoundBackup(Body):
    number: Whole = Field(ge=1, le=MAX_ROUNDS)
    started_at: Moment = None
    closed_at: Moment = None
    byes: list[Whole] = Field([])
    tables: list[TableBackup]


class EveningBackup(Body):
    id: Id
    token_hash: Sha256
    name: Name
    variant: Variant
    options: Options = None
    format: Annotated[str, AfterValidator(_format)]
    #: Backups from before movements seated every evening by standings.
    movement: Literal["swiss", "mitchell", "round_robin"] = "swiss"
    rounds: Whole = Field(ge=1, le=MAX_ROUNDS)
    deals_per_round: Whole = Field(ge=1, le=MAX_DEALS)
    minutes_per_round: Whole | None = Field(None, ge=1, le=MAX_MINUTES)
    #: Checked by the rules engine's reader (``rebuild.evening``); older backups have none.
    scoring: dict[str, Any] | None = None
    bye_vp: Whole = Field(BYE_VP, ge=0, le=TOTAL)
    #: Backups from before results were confirmed at the table: none was.
    confirmations: bool = False
    #: The season it counts for (``seasons`` of the backup); older backups have none.
    season: Id | None = None
    created_at: Moment = None
    version: Number = 1
    players: list[EntrantBackup]
    played: list[RoundBackup]


class SeasonBackup(Body):
    """A club's season: its evenings name it (``EveningBackup.season``)."""

    id: Id
    token_hash: Sha256
    name: Name
    #: Checked by the rules engine's reader (``rebuild.season``).
    points: list[Any]
    created_at: Moment = None
    version: Number = 1


#: Errors that say a part is of another shape altogether, not a value out of its rule.
SHAPES = {"model_type", "list_type", "dict_type", "missing", "extra_forbidden"}


def first_error(error: ValidationError) -> tuple[str, str, bool]:
    """The first thing ``error`` found: its field's path (``sides.0.name``), its rule, and
    whether it is of another shape (a part missing, unknown, or not an object or a list)."""
    found = error.errors(include_url=False)[0]
    path = ".".join(str(part) for part in found["loc"])
    return path, found["msg"], found["type"] in SHAPES
