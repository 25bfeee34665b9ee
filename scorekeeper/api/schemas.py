"""The bodies the API reads, as pydantic models: spectree validates each request against
them (``spec.validate`` in ``api/__init__.py``) and writes /api/openapi.json from them.

They state the shape of every request, as every door enforces it whatever the rule set:
required fields, types and ranges with the limits the code already has (``rules.limits``),
card notation with the rules engine's own pattern, the rule sets' ids, the bounds every rule
set keeps (sides, players), and the headers' and the query's forms; so the document says
what the app enforces (tests/test_openapi_contract.py holds them to it). Whether a deal
could have happened, an option's value under a rule set, the sides and players a rule set
seats, a name's letters and a game's state stay with the rules engine and the store, which
check every door alike.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    WithJsonSchema,
    create_model,
)
from pydantic_core import PydanticCustomError

from ..rules import VARIANTS, CanastaKind, RuleSet
from ..rules.cards import CARD_PATTERN, CARD_SEPARATOR_PATTERN, DRAWN_CARD_PATTERN
from ..rules.kinds import SPECIAL_HAND_NAMES
from ..rules.limits import (
    MAX_CARDS,
    MAX_COUNT,
    MAX_DEALS,
    MAX_DRAWS,
    MAX_ENTRANTS,
    MAX_ID,
    MAX_MELDS,
    MAX_MINUTES,
    MAX_NAME,
    MAX_PAGE,
    MAX_REQUEST_KEY,
    MAX_ROUNDS,
    MAX_START,
    most_of,
)
from ..rules.scoring import BOOLEAN_FIELDS, INTEGER_FIELDS, SideResult
from ..rules.victory_points import BYE_VP, MATCH_POINTS, MOST_BOUND, MOST_STEPS, PUBLISHED, TOTAL
from ..store.games import EXPORT_FORMAT


def _sides_of(rules: RuleSet) -> tuple[int, int]:
    return rules.sides_range or (rules.sides, rules.sides)


# What every rule set has in common (each checks its own table when the game is made).
#: The fewest and the most sides a table of any rule set has (Railroad: players).
FEWEST_SIDES = min(_sides_of(rules)[0] for rules in VARIANTS.values())
MOST_SIDES = max(_sides_of(rules)[1] for rules in VARIANTS.values())
#: The most players of one side, and at one table.
MOST_PER_SIDE = max(rules.players_per_side for rules in VARIANTS.values())
MOST_PLAYERS = max(_sides_of(rules)[1] * rules.players_per_side for rules in VARIANTS.values())
#: The fewest players at a table of any rule set.
FEWEST_PLAYERS = min(_sides_of(rules)[0] * rules.players_per_side for rules in VARIANTS.values())
#: The rule sets of partners, the only ones a club evening plays.
PARTNERSHIPS = [variant for variant, rules in VARIANTS.items() if rules.partnerships]

#: A name holds something other than spaces (the store also refuses control characters).
NAME_PATTERN = r"\S"


def _integral(value: object) -> object:
    """A number JSON writes with a fraction of zero (``2.0``) is the whole number it is, as
    JSON Schema's ``integer`` says; any other value is left for the type to judge."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: A whole number: an integer, or a number with a zero fraction (never a string or a flag).
#: Its limits go in a ``Field`` of its own (``Field(0, ge=0)``) or before the validator
#: (``Annotated[int, Field(ge=0), BeforeValidator(_integral)]``): set around this alias,
#: they reach the document under pydantic's names (``ge``), which JSON Schema ignores.
Whole = Annotated[int, BeforeValidator(_integral)]
#: A side's number (each rule set has its number of sides).
SideIndex = Annotated[int, Field(ge=0, le=MOST_SIDES - 1), BeforeValidator(_integral)]
#: A row's number (a deal's place, a player's, a change's) or a version: from 1, a number
#: the tables can hold.
Number = Annotated[int, Field(ge=1, le=MAX_ID), BeforeValidator(_integral)]


class Body(BaseModel):
    """A JSON object with exactly these fields, each of exactly its JSON type (``"5"`` is
    not a number, ``1`` not true)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# --- games and deals (docs/API.md "Games", "Deals") --------------------------------------


def _figure(name: str) -> Any:
    return (Whole, Field(0, ge=0, le=most_of(name)))


class SideEntries(Body):
    """One side's entries; an omitted figure is 0, an omitted flag false."""

    side: SideIndex | None = Field(
        None, description="The side's number (results go in side order)."
    )


#: The figures and flags of ``SideResult``, each optional.
_ENTRIES: dict[str, Any] = {
    **{name: _figure(name) for name in INTEGER_FIELDS},
    **{name: (bool, False) for name in BOOLEAN_FIELDS},
    "special_hand": (Literal[tuple(SPECIAL_HAND_NAMES)] | None, None),
}
if TYPE_CHECKING:
    Result = SideEntries
else:
    Result = create_model("Result", __base__=SideEntries, __doc__=SideEntries.__doc__, **_ENTRIES)


def side_result(result: SideEntries) -> SideResult:
    """A result as the rules engine reads it."""
    return SideResult(**{name: getattr(result, name) for name in _ENTRIES})


class NewDeal(Body):
    """A deal to record: one result per side, in side order."""

    results: list[Result] = Field(min_length=FEWEST_SIDES, max_length=MOST_SIDES)


class Edit(NewDeal):
    """A deal's new entries; ``version`` (or ``If-Match``): only if unchanged since."""

    version: Number | None = None


class ImportedDeal(NewDeal):
    """A deal of an export; ``seq`` is its place in the game (the change log's name for it)."""

    seq: Number | None = None


#: A side's or a player's name. That it holds more than spaces is stated here and checked
#: where every door's names are (``store.errors.check_name``, the draw), in their words.
Name = Annotated[
    str,
    Field(max_length=MAX_NAME, json_schema_extra={"minLength": 1, "pattern": NAME_PATTERN}),
]


def _card(pattern: str, kind: str = "card") -> Any:
    """A validator of one card's notation: ``pattern`` (the rules engine's) must match,
    else an error of ``kind`` (the API words it with the rules engine's reason)."""

    def card(value: object) -> str:
        if isinstance(value, str) and re.fullmatch(pattern, value):
            return value
        raise PydanticCustomError(kind, "Not a card.")

    return card


def _card_schema(pattern: str) -> dict[str, Any]:
    return {"type": "string", "pattern": f"^{pattern}$"}


#: A card in the notation of API.md "Rules checks" (``QS``, ``10h``, ``3♥``, ``JK``).
Card = Annotated[
    str, PlainValidator(_card(CARD_PATTERN)), WithJsonSchema(_card_schema(CARD_PATTERN))
]
#: A card drawn for seats: with its suit, which decides between equal ranks (or a joker).
DrawnCard = Annotated[
    str,
    PlainValidator(_card(DRAWN_CARD_PATTERN, "drawn_card")),
    WithJsonSchema(_card_schema(DRAWN_CARD_PATTERN)),
]


class Side(Body):
    name: Name | None = Field(None, description="Default: the player's name when alone.")
    players: list[Name] = Field(
        [],
        max_length=MOST_PER_SIDE,
        description="Default: the side's name, numbered (as many as the rule set seats).",
    )
    start: Whole = Field(
        0,
        ge=-MAX_START,
        le=MAX_START,
        multiple_of=5,
        description="A total carried over from a paper sheet.",
    )
    cards: list[DrawnCard] = Field(
        [],
        max_length=MOST_PER_SIDE,
        description=(
            "The card each player drew for seats (POST /api/seat-draw), in player order; "
            "all sides or none. Kept with the game and in its export."
        ),
    )


def _one_of(variants: list[str], kind: str, message: str) -> Any:
    """A validator of a rule set's id: one of ``variants``, else an error of ``kind``."""
    known = ", ".join(variants)

    def variant(value: str) -> str:
        if value not in variants:
            raise PydanticCustomError(kind, message, {"known": known})
        return value

    return variant


#: A rule set's id (``GET /api/variants``).
Variant = Annotated[
    str,
    AfterValidator(_one_of(list(VARIANTS), "variant", "Unknown rule set; known: {known}.")),
    Field(json_schema_extra={"enum": list(VARIANTS)}),
]
#: House rules by name; the rules engine checks each against the rule set.
Options = Annotated[dict[str, Any] | None, Field(None, description="House rules by name.")]
#: The seat of the first deal's dealer (each rule set has its number of seats).
FirstDealer = Annotated[int, Field(ge=0, le=MOST_PLAYERS - 1), BeforeValidator(_integral)]


class NewGame(Body):
    variant: Variant = "classic"
    sides: list[Side] = Field(min_length=FEWEST_SIDES, max_length=MOST_SIDES)
    options: Options = None
    first_dealer: FirstDealer = 0


def _export_format(value: object) -> str:
    if value != EXPORT_FORMAT:
        raise PydanticCustomError(
            "export_format",
            "This is not a Canasta Scorekeeper export (format {format!r}).",
            {"format": EXPORT_FORMAT},
        )
    return EXPORT_FORMAT


def _format_required(schema: dict[str, Any]) -> None:
    schema["required"] = ["format", *schema.get("required", [])]


class Export(Body):
    """A game's export (``GET …/export``), to import as a new game."""

    model_config = ConfigDict(json_schema_extra=_format_required)

    # Checked even when missing, so that any other document hears what it is not.
    format: Annotated[
        str, PlainValidator(_export_format), Field(json_schema_extra={"const": EXPORT_FORMAT})
    ] = Field(None, validate_default=True)
    variant: Variant
    options: Options = None
    first_dealer: FirstDealer = 0
    last_deal: Annotated[int, Field(ge=0, le=MAX_DEALS), BeforeValidator(_integral)] | None = Field(
        None, description="A club round's game ends after this deal."
    )
    created_at: str | None = None
    sides: list[Side] = Field(min_length=FEWEST_SIDES, max_length=MOST_SIDES)
    deals: list[ImportedDeal] = []
    totals: list[Whole] | None = Field(None, min_length=FEWEST_SIDES, max_length=MOST_SIDES)
    winner: SideIndex | None = None
    changes: list[dict[str, Any]] | None = None


# --- headers and the query (documented here, read as strings: the views check them, each
# --- a 400 after what the game answers, 404 or 403) ----------------------------------------

#: An ``Idempotency-Key``: 1 to ``MAX_REQUEST_KEY`` printable ASCII characters, no space at
#: either end.
REQUEST_KEY_PATTERN = "^[!-~](?:[ -~]*[!-~])?$"
#: A deal's ETag (``"<seq>.<version>"``): numbers of up to one digit fewer than ``MAX_ID``
#: has, so that every such number names a row the tables could hold.
_DIGITS = len(str(MAX_ID)) - 1
DEAL_ETAG_PATTERN = f'"([0-9]{{1,{_DIGITS}}})\\.([0-9]{{1,{_DIGITS}}})"'


def _absent(schema: dict[str, Any]) -> None:
    """A header or a query parameter left out is absent, never null: no default to send."""
    schema.pop("default", None)


class Key(BaseModel):
    idempotency_key: Annotated[
        str | None,
        WithJsonSchema(
            {"type": "string", "pattern": REQUEST_KEY_PATTERN, "maxLength": MAX_REQUEST_KEY}
        ),
    ] = Field(
        None,
        alias="Idempotency-Key",
        description="The same key with the same body answers as the first time.",
        json_schema_extra=_absent,
    )


class IfMatch(BaseModel):
    if_match: Annotated[
        str | None,
        WithJsonSchema({"type": "string", "pattern": f"^(?:\\*|{DEAL_ETAG_PATTERN})$"}),
    ] = Field(
        None,
        alias="If-Match",
        description="The deal's ETag: only if unchanged since.",
        json_schema_extra=_absent,
    )


class KeyAndIfMatch(Key, IfMatch):
    pass


class Page(BaseModel):
    page: Annotated[
        str | None, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_PAGE})
    ] = Field(None, description="1, 2, … (20 games a page).", json_schema_extra=_absent)


# --- the seat draw and the rules checks (docs/API.md "Seat draw", "Rules checks") ---------


class DrawnPlayer(Body):
    player: Name
    card: DrawnCard


class Draw(Body):
    variant: Variant = "classic"
    draws: list[DrawnPlayer] = Field(min_length=FEWEST_PLAYERS, max_length=MAX_DRAWS)


#: Cards as text: up to ``MAX_CARDS`` cards with spaces or commas between them.
CARDS_PATTERN = (
    f"^{CARD_SEPARATOR_PATTERN}*"
    f"(?:{CARD_PATTERN}(?:{CARD_SEPARATOR_PATTERN}+{CARD_PATTERN}){{0,{MAX_CARDS - 1}}}"
    f"{CARD_SEPARATOR_PATTERN}*)?$"
)


def _cards(value: object) -> str | list[str]:
    if isinstance(value, str) and re.fullmatch(CARDS_PATTERN, value):
        return value
    if (
        isinstance(value, list)
        and len(value) <= MAX_CARDS
        and all(isinstance(card, str) and re.fullmatch(CARD_PATTERN, card) for card in value)
    ):
        return value
    raise PydanticCustomError("cards", "Not cards.")


#: Cards as text (``"9 9 2"``) or a list (``["9", "9", "2"]``).
Cards = Annotated[
    str | list[str],
    PlainValidator(_cards),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "pattern": CARDS_PATTERN},
                {"type": "array", "items": _card_schema(CARD_PATTERN), "maxItems": MAX_CARDS},
            ]
        }
    ),
]
_MAYBE_CARD = f"(?:{CARD_PATTERN})?"
_maybe_card = _card(_MAYBE_CARD)


def _card_or_none(value: object) -> str | None:
    return None if value is None else _maybe_card(value)


#: A card, or none said (null, or an empty string as a form sends it).
MaybeCard = Annotated[
    str | None,
    PlainValidator(_card_or_none),
    WithJsonSchema({"anyOf": [_card_schema(_MAYBE_CARD), {"type": "null"}]}),
]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT), BeforeValidator(_integral)]


class Context(Body):
    """A check is asked under a rule set and house rules, or under a game's own rules."""

    variant: Variant = "classic"
    options: Options = None
    game: str | None = Field(None, description="A game's id: its rule set and house rules.")


class Meld(Context):
    cards: Cards
    going_out: bool = False
    initial: bool = Field(False, description="Part of the side's initial meld (American aces).")


class InitialMeld(Context):
    score: Whole = 0
    side: SideIndex | None = Field(None, description="A side of the game instead of score.")
    deal: Annotated[int, Field(ge=1, le=MAX_DEALS), BeforeValidator(_integral)] | None = Field(
        None,
        description=(
            "The deal's number, where the minimum goes by deal (Hand and Foot); default: "
            "the game's next deal, or 1."
        ),
    )
    melds: list[Cards] = Field(max_length=MAX_MELDS)
    pile_top: MaybeCard = None


class Pickup(Context):
    top: Card
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
    # Keys are read as the kinds' names (spectree hands the model a parsed object).
    canastas: dict[Annotated[CanastaKind, Strict(False)], Count] = Field(
        {}, description='By kind: {"natural": 1, "mixed": 0}.'
    )
    cards_left: Count = 0
    last_discard: MaybeCard = None
    melded_before: bool = False
    # What forbids going out where the rule set says so (``going_out_blocked_by``); true
    # under another rule set is a 422 naming it, as a deal's figure is.
    unfinished_aces: bool = Field(False, description="Modern American: an unfinished aces meld.")
    unfinished_sevens: bool = Field(
        False, description="Modern American: an unfinished sevens meld."
    )
    unfinished_wild: bool = Field(False, description="Modern American: an unfinished wild meld.")
    pot_missed: bool = Field(False, description="Burraco: the side has not taken its pot.")


# --- answers -------------------------------------------------------------------------------


# --- club evenings (API.md "Club evenings") ----------------------------------------------


def _lists(given: str, format: str, other: str) -> dict[str, Any]:
    """An evening of ``format`` lists ``given`` (and not ``other``): the view checks it."""
    return {
        "properties": {
            "format": {"const": format},
            given: {"type": "array"},
            other: {"type": "null"},
        },
        "required": [given],
    }


def _scoring(value: object) -> object:
    """An evening's scoring, passed on whole: the rules engine reads it (``read_scoring``)
    and names the step at fault, for the new-evening page and the API alike."""
    if value is None:
        raise PydanticCustomError(
            "scoring", 'Scoring is "match_points", or an object with "victory_points".'
        )
    return value


#: A typed scale's step: [upper bound or null, the winner's VP] (the order and the rise of
#: the steps, and the VP's range, the engine checks).
_FIGURE = {"type": ["integer", "null"], "minimum": 0, "maximum": MOST_BOUND}
_STEP = {"type": "array", "minItems": 2, "maxItems": 2, "items": _FIGURE}
#: API.md's scoring: match points, or victory points by a published scale or typed steps.
SCORING_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {"const": MATCH_POINTS},
        {
            "type": "object",
            "properties": {
                "victory_points": {
                    "oneOf": [
                        {"enum": list(PUBLISHED)},
                        {"type": "array", "minItems": 1, "maxItems": MOST_STEPS, "items": _STEP},
                    ]
                }
            },
            "required": ["victory_points"],
            "additionalProperties": False,
        },
    ],
    "default": MATCH_POINTS,
    "description": "How a table's result ranks: match points, or victory points (20 a table) "
    "by a published scale's name or steps of [upper bound (null: every larger difference), "
    "the winner's VP].",
}


class NewEvening(Body):
    """A new evening; ``pairs`` for a pairs evening, ``players`` for an individual one."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [
                _lists("pairs", "pairs", "players"),
                _lists("players", "individual", "pairs"),
            ]
        }
    )

    name: Name
    variant: Annotated[
        str,
        AfterValidator(
            _one_of(PARTNERSHIPS, "partnership", "A club evening plays partners: {known}.")
        ),
        Field(json_schema_extra={"enum": PARTNERSHIPS}),
    ] = "classic"
    options: Options = None
    format: Literal["pairs", "individual"]
    pairs: list[Annotated[list[Name], Field(min_length=2, max_length=MOST_PER_SIDE)]] | None = (
        Field(None, max_length=MAX_ENTRANTS)
    )
    players: list[Name] | None = Field(None, max_length=MAX_ENTRANTS)
    #: How rounds after the first are seated; a round robin may leave out ``rounds``.
    movement: Literal["swiss", "mitchell", "round_robin"] = "swiss"
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS), BeforeValidator(_integral)] | None = None
    deals_per_round: Whole = Field(ge=1, le=MAX_DEALS)
    minutes_per_round: (
        Annotated[int, Field(ge=1, le=MAX_MINUTES), BeforeValidator(_integral)] | None
    ) = None
    scoring: Annotated[object, PlainValidator(_scoring), WithJsonSchema(SCORING_SCHEMA)] = (
        MATCH_POINTS
    )
    bye_vp: Whole = Field(BYE_VP, ge=0, le=TOTAL, description="The victory points a bye scores.")
    confirmations: bool = Field(False, description="Each deal confirmed by the other side.")
    season: str | None = Field(None, max_length=32, description="The season it joins.")
    season_token: str | None = Field(None, description="The season director's secret.")


class StartRound(Body):
    """Start the next round; ``force``: even with results not confirmed yet."""

    force: bool = False


class Swap(Body):
    """Two players to swap between tables (in a pairs evening, their pairs move)."""

    players: list[Name] = Field(min_length=2, max_length=2)


class CloseRound(Body):
    """Time called on a round; ``final``: every table stops as it stands."""

    final: bool = False


class TimeCalled(Body):
    """A table's scorer after time is called: ``false``, no deal was in progress."""

    deal_in_progress: bool


class Error(BaseModel):
    """Every refusal: a sentence, and per field path (``results.1.red_threes``) what is
    wrong with it."""

    error: str
    fields: dict[str, str]


class RedrawError(Error):
    """A seat draw to repeat names who draws again."""

    redraw: list[str] | None = None


class Seats(BaseModel):
    sides: list[dict[str, list[str]]]
    seats: list[str]
    first_dealer: str


from .season_schemas import NewSeason, SeasonPoints  # noqa: E402,F401  (for the document)
