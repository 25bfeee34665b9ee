"""The bodies the API reads, as pydantic models: spectree validates each request against
them (``spec.validate`` in ``api/__init__.py``) and writes /api/openapi.json from them.

They check shapes, types and ranges only, with the limits the code already has. Whether a
deal could have happened, an option's value under a rule set, a name's letters and a game's
state stay with the rules engine and the store, which check every door alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, create_model
from pydantic_core import PydanticCustomError

from ..rules import VARIANTS
from ..rules.limits import (
    MAX_COUNT,
    MAX_DEALS,
    MAX_DRAWS,
    MAX_ENTRANTS,
    MAX_MELDS,
    MAX_MINUTES,
    MAX_NAME,
    MAX_ROUNDS,
    most_of,
)
from ..rules.scoring import BOOLEAN_FIELDS, INTEGER_FIELDS, SideResult
from ..store.games import EXPORT_FORMAT


class Body(BaseModel):
    """A JSON object with exactly these fields, each of exactly its JSON type (``"5"`` is
    not a number, ``1`` not true)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# --- games and deals (docs/API.md "Games", "Deals") --------------------------------------


def _figure(name: str) -> Any:
    return (int, Field(0, ge=0, le=most_of(name)))


class Entries(Body):
    """One side's entries; an omitted figure is 0, an omitted flag false."""

    side: int | None = Field(None, description="The side's number (results go in side order).")


#: The figures and flags of ``SideResult``, each optional.
_ENTRIES: dict[str, Any] = {
    **{name: _figure(name) for name in INTEGER_FIELDS},
    **{name: (bool, False) for name in BOOLEAN_FIELDS},
}
if TYPE_CHECKING:
    Result = Entries
else:
    Result = create_model("Result", __base__=Entries, __doc__=Entries.__doc__, **_ENTRIES)


def side_result(result: Entries) -> SideResult:
    """A result as the rules engine reads it."""
    return SideResult(**{name: getattr(result, name) for name in _ENTRIES})


class Deal(Body):
    """A deal to record: one result per side, in side order."""

    results: list[Result]


class Edit(Deal):
    """A deal's new entries; ``version`` (or ``If-Match``): only if unchanged since."""

    version: int | None = None


class ImportedDeal(Deal):
    """A deal of an export; ``seq`` is its place in the game (the change log's name for it)."""

    seq: int | None = None


Name = Annotated[str, Field(max_length=MAX_NAME)]


class Side(Body):
    name: Name | None = Field(None, description="Default: the player's name when alone.")
    players: list[Name] = []
    start: int = Field(0, description="A total carried over from a paper sheet.")
    cards: list[str] = Field(
        [],
        description=(
            "The card each player drew for seats (POST /api/seat-draw), in player order; "
            "all sides or none. Kept with the game and in its export."
        ),
    )


Variant = Annotated[str, Field(json_schema_extra={"enum": list(VARIANTS)})]
#: House rules by name; the rules engine checks each against the rule set.
Options = Annotated[dict[str, Any] | None, Field(None, description="House rules by name.")]


class NewGame(Body):
    variant: Variant = "classic"
    sides: list[Side] = Field(min_length=1)
    options: Options = None
    first_dealer: int = 0


def _export_format(value: object) -> str:
    if value != EXPORT_FORMAT:
        raise PydanticCustomError(
            "export_format",
            "This is not a Canasta Scorekeeper export (format {format!r}).",
            {"format": EXPORT_FORMAT},
        )
    return EXPORT_FORMAT


class Export(Body):
    """A game's export (``GET …/export``), to import as a new game."""

    # Checked even when missing, so that any other document hears what it is not.
    format: Annotated[
        str, PlainValidator(_export_format), Field(json_schema_extra={"const": EXPORT_FORMAT})
    ] = Field(None, validate_default=True)
    variant: Variant
    options: Options = None
    first_dealer: int = 0
    last_deal: int | None = Field(
        None, ge=0, le=MAX_DEALS, description="A club round's game ends after this deal."
    )
    created_at: str | None = None
    sides: list[Side] = Field(min_length=1)
    deals: list[ImportedDeal] = []
    totals: list[int] | None = None
    winner: int | None = None
    changes: list[dict[str, Any]] | None = None


# --- headers and the query (documented and read as strings; the views check them) ---------


class Key(BaseModel):
    idempotency_key: str | None = Field(
        None,
        alias="Idempotency-Key",
        description="The same key with the same body answers as the first time.",
    )


class Version(BaseModel):
    if_match: str | None = Field(
        None, alias="If-Match", description="The deal's ETag: only if unchanged since."
    )


class KeyAndVersion(Key, Version):
    pass


class Page(BaseModel):
    page: str | None = Field(None, description="1, 2, … (20 games a page).")


# --- the seat draw and the rules checks (docs/API.md "Seat draw", "Rules checks") ---------


class Drawn(Body):
    player: str
    card: str


class Draw(Body):
    variant: Variant = "classic"
    draws: list[Drawn] = Field(min_length=1, max_length=MAX_DRAWS)


def _cards(value: object) -> str | list[str]:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(card, str) for card in value):
        return value
    raise PydanticCustomError("cards", 'Must be cards, such as "9 9 2".')


#: Cards as text (``"9 9 2"``) or a list (``["9", "9", "2"]``).
Cards = Annotated[str | list[str], PlainValidator(_cards, json_schema_input_type=str | list[str])]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]


class Context(Body):
    """A check is asked under a rule set and house rules, or under a game's own rules."""

    variant: Variant = "classic"
    options: Options = None
    game: str | None = Field(None, description="A game's id: its rule set and house rules.")


class Meld(Context):
    cards: Cards
    going_out: bool = False


class InitialMeld(Context):
    score: int = 0
    side: int | None = Field(None, description="A side of the game instead of score.")
    melds: list[Cards] = Field(max_length=MAX_MELDS)
    pile_top: str | None = None


class Pickup(Context):
    top: str
    frozen: bool = False
    side_has_melded: bool = False
    hand: Cards | None = None
    natural_matches: Count = 0
    wild_cards: Count = 0
    cards_in_hand: Count = 2
    side_melds: Cards = []
    full_melds: Cards = []
    pile_size: Count = 2


class GoingOut(Context):
    canastas: dict[str, Count] = Field({}, description='By kind: {"natural": 1, "mixed": 0}.')
    cards_left: Count = 0
    last_discard: str | None = None
    melded_before: bool = False


# --- answers -------------------------------------------------------------------------------


# --- club evenings (API.md "Club evenings") ----------------------------------------------


class NewEvening(Body):
    """A new evening; ``pairs`` for a pairs evening, ``players`` for an individual one."""

    name: Name
    variant: Variant = "classic"
    options: Options = None
    format: Annotated[str, Field(json_schema_extra={"enum": ["pairs", "individual"]})]
    pairs: list[list[Name]] | None = Field(None, max_length=MAX_ENTRANTS)
    players: list[Name] | None = Field(None, max_length=MAX_ENTRANTS)
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    deals_per_round: int = Field(ge=1, le=MAX_DEALS)
    minutes_per_round: int | None = Field(None, ge=1, le=MAX_MINUTES)


class Swap(Body):
    """Two players to swap between tables (in a pairs evening, their pairs move)."""

    players: list[Name] = Field(min_length=2, max_length=2)


class Error(BaseModel):
    """Every refusal: a sentence, and per field path (``results.1.red_threes``) what is
    wrong with it."""

    error: str
    fields: dict[str, str]


class Redraw(Error):
    """A seat draw to repeat names who draws again."""

    redraw: list[str] | None = None


class Seats(BaseModel):
    sides: list[dict[str, list[str]]]
    seats: list[str]
    first_dealer: str
