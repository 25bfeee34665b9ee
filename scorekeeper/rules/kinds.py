"""The vocabulary rule sets are written in: kinds of canasta, their names, the rows of a
minimum table, the swing of a side's parts, and the constants of the packs."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from .text import N_


class CanastaKind(enum.Enum):
    """The kinds of canasta a rule set may score, in the order score sheets list them.

    Seven wild cards make a WILD canasta; Cuban scores two compositions of them apart:
    seven twos (DEUCE) and four jokers with three twos (JOKER). A SEQUENCE is seven cards
    of one suit in a row (Samba's samba, Bolivia's escalera). Modern American scores natural
    ACES apart; Burraco's SEMI_NATURAL burraco has its one wild card at an end.
    """

    NATURAL = "natural"
    MIXED = "mixed"
    SEMI_NATURAL = "semi_natural"
    SEQUENCE = "sequence"
    DEUCE = "deuce"
    JOKER = "joker"
    WILD = "wild"
    ACES = "aces"
    SEVENS = "sevens"

    #: The name of the deal-entry figure that counts canastas of this kind.
    field: str

    def __init__(self, value: str) -> None:
        self.field = f"{value}_canastas"

    # Members are looked up in mappings at every deal scored: hashed as the singletons
    # they are (in C), not by name (Enum's own __hash__, in Python).
    __hash__ = object.__hash__


#: Every kind, in the order score sheets list them.
CANASTA_KINDS = tuple(CanastaKind)
#: Kinds made of wild cards alone: they share the twos and jokers of the packs.
WILD_KINDS = frozenset({CanastaKind.DEUCE, CanastaKind.JOKER, CanastaKind.WILD})


#: The least card points a canasta of each kind can hold (RULES.md sections 7, 10 and 15):
#: seven fours; six fours and a two; seven fives and a two; 4 to 10 of a suit; seven twos;
#: four jokers and three twos; seven twos; seven aces; seven sevens.
CANASTA_MIN_POINTS: Mapping[CanastaKind, int] = MappingProxyType(
    {
        CanastaKind.NATURAL: 35,
        CanastaKind.MIXED: 50,
        CanastaKind.SEMI_NATURAL: 55,
        CanastaKind.SEQUENCE: 50,
        CanastaKind.DEUCE: 140,
        CanastaKind.JOKER: 260,
        CanastaKind.WILD: 140,
        CanastaKind.ACES: 140,
        CanastaKind.SEVENS: 35,
    }
)


@dataclass(frozen=True)
class CanastaName:
    """How a kind of canasta is called: ``label`` heads its figure on the deal form and the
    score sheet ("Sambas"), ``word`` names one in a sentence ("samba")."""

    label: str
    word: str


#: The kinds' names where a rule set gives them no name of its own.
CANASTA_NAMES: Mapping[CanastaKind, CanastaName] = MappingProxyType(
    {
        CanastaKind.NATURAL: CanastaName(N_("Natural canastas"), N_("natural")),
        CanastaKind.MIXED: CanastaName(N_("Mixed canastas"), N_("mixed")),
        CanastaKind.SEMI_NATURAL: CanastaName(N_("Semi-natural canastas"), N_("semi-natural")),
        CanastaKind.SEQUENCE: CanastaName(N_("Sequence canastas"), N_("sequence")),
        CanastaKind.DEUCE: CanastaName(N_("Seven-twos canastas"), N_("seven-twos")),
        CanastaKind.JOKER: CanastaName(N_("Four-jokers canastas"), N_("four-jokers")),
        CanastaKind.WILD: CanastaName(N_("Wild canastas"), N_("wild")),
        CanastaKind.ACES: CanastaName(N_("Aces canastas"), N_("aces")),
        CanastaKind.SEVENS: CanastaName(N_("Sevens canastas"), N_("sevens")),
    }
)


@dataclass(frozen=True)
class MeldTier:
    """One row of the initial-meld table: from this total upward, the first meld needs
    ``minimum`` card points. ``from_total`` is None for the bottom row (below the next)."""

    from_total: int | None
    minimum: int


K = TypeVar("K")


def frozen(mapping: Mapping[K, int]) -> Mapping[K, int]:
    """A read-only copy of a table of numbers (a rule set never changes once made)."""
    return MappingProxyType(dict(mapping))


#: Card points of one 52-card pack without jokers (RULES.md section 1): four aces and four
#: twos at 20, twenty-four K-8 at 10, sixteen 7-4 at 5, two black threes at 5.
PACK_CARD_POINTS = 4 * 20 + 4 * 20 + 24 * 10 + 16 * 5 + 2 * 5
JOKER_POINTS = 50
#: Natural ranks a canasta can be made of: A K Q J 10 9 8 7 6 5 4.
NATURAL_RANKS = 11
CANASTA_SIZE = 7


@dataclass(frozen=True)
class Swing:
    """How a side's parts count by the canastas it completed (RULES.md section 13): each
    tuple gives the sign (1 plus, 0 not counted, -1 minus) for 0, 1, 2 ... canastas, its
    last entry for any more."""

    meld: tuple[int, ...]
    threes: tuple[int, ...]

    @staticmethod
    def sign(signs: tuple[int, ...], canastas: int) -> int:
        return signs[min(canastas, len(signs) - 1)]


#: Modern American's special hands (RULES.md section 13), by the id a deal entry names,
#: with the words the deal form's picker shows.
SPECIAL_HAND_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "pairs": N_("Pairs"),
        "wild_pairs": N_("Wild pairs"),
        "miami_pairs": N_("Miami pairs"),
        "zip_code": N_("Zip code"),
        "straight": N_("Straight"),
        "garbage": N_("Garbage"),
        "blast_off": N_("Blast off"),
        "triples": N_("Triples"),
        "quads": N_("Quads"),
        "dream_plus_4": N_("Dream hand plus 4"),
        "dream_plus_5": N_("Dream hand plus 5"),
    }
)
