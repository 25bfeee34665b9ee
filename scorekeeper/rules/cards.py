"""Cards, their points, and the notation players type (API.md, "Rules checks").

A card is a rank ``A K Q J 10 9 8 7 6 5 4 3 2`` (``T`` for ten) with an optional suit
``S H D C`` (or ``♠ ♥ ♦ ♣``); a joker is ``JK``. A three needs its suit: a red three and a
black three are different cards. Cards are separated by spaces or commas, in any case.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .limits import MAX_CARDS
from .text import N_, T, Text


class Rank(enum.Enum):
    """Ranks from the joker up to the ace; ``value`` is what the notation writes."""

    JOKER = "JK"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def wild(self) -> bool:
        """Jokers and twos are wild (RULES.md section 1)."""
        return self in (Rank.JOKER, Rank.TWO)


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


#: Card points (RULES.md section 1). A red three has no card value: it is a bonus card.
POINTS: dict[Rank, int] = {
    Rank.JOKER: 50,
    Rank.TWO: 20,
    Rank.ACE: 20,
    **{rank: 10 for rank in (Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT)},
    **{rank: 5 for rank in (Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR)},
    Rank.THREE: 5,
}

#: The card classes of the deal form's card counter: a short label, a spoken name, and the
#: points of each card of the class.
COUNTER_CLASSES: tuple[tuple[str, str, int], ...] = (
    ("JK", N_("Jokers"), POINTS[Rank.JOKER]),
    ("2 A", N_("Twos and aces"), POINTS[Rank.ACE]),
    ("K–8", N_("K to 8"), POINTS[Rank.KING]),
    ("7–4", N_("7 to 4"), POINTS[Rank.SEVEN]),
    ("3♠♣", N_("Black threes"), POINTS[Rank.THREE]),
)


@dataclass(frozen=True)
class Card:
    """One card; ``suit`` is None when the player did not say (it matters for threes only)."""

    rank: Rank
    suit: Suit | None = None

    @property
    def wild(self) -> bool:
        return self.rank.wild

    @property
    def red_three(self) -> bool:
        return self.rank is Rank.THREE and self.suit is not None and self.suit.red

    @property
    def black_three(self) -> bool:
        return self.rank is Rank.THREE and self.suit is not None and not self.suit.red

    @property
    def natural(self) -> bool:
        """A natural card for melding: not wild, not a three."""
        return not self.wild and self.rank is not Rank.THREE

    @property
    def points(self) -> int:
        return 0 if self.red_three else POINTS[self.rank]

    def __str__(self) -> str:
        return self.rank.value + (self.suit.value if self.suit and not self.wild else "")


class CardError(ValueError):
    """Notation that names no card; ``typed`` is what was typed."""

    def __init__(self, typed: str, text: Text) -> None:
        super().__init__(str(text))
        self.typed = typed
        self.text = text

    @property
    def message(self) -> str:
        return str(self.text)


_SUITS = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_RANKS = {rank.value: rank for rank in Rank} | {"T": Rank.TEN, "JOKER": Rank.JOKER}
_SEPARATORS = re.compile(r"[\s,;]+")


def _any_case(text: str) -> str:
    """``text`` as a regular expression that matches it in any case (``[Jj][Kk]``)."""
    return "".join(f"[{c}{c.lower()}]" if c.isalpha() else re.escape(c) for c in text)


def _ranks(*ranks: Rank) -> str:
    spellings = sorted((text for text, rank in _RANKS.items() if rank in ranks), key=len)
    return "|".join(_any_case(text) for text in reversed(spellings))


_SUIT = "[" + "".join(sorted({*_SUITS, *(suit.lower() for suit in _SUITS)})) + "]"
_JOKER = _ranks(Rank.JOKER)
_NEEDS_NO_SUIT = _ranks(*(rank for rank in Rank if rank not in (Rank.JOKER, Rank.THREE)))
_THREE = _ranks(Rank.THREE)

#: One card as ``parse_card`` reads it (``QS``, ``10h``, ``3♥``, ``JK``), as a regular
#: expression without flags, so that JSON Schema (ECMA-262) and Python read it alike.
CARD_PATTERN = f"(?:{_JOKER}|(?:{_NEEDS_NO_SUIT}){_SUIT}?|(?:{_THREE}){_SUIT})"
#: A card drawn for seats (``draw.draw_card``): a joker, or a card with its suit.
DRAWN_CARD_PATTERN = f"(?:{_JOKER}|(?:{_NEEDS_NO_SUIT}|{_THREE}){_SUIT})"
#: What may stand between the cards of a text (a subset of what ``parse_cards`` splits on).
CARD_SEPARATOR_PATTERN = "[ \\t\\n\\r,;]"


def parse_card(typed: str) -> Card:
    """One card from its notation, e.g. ``9``, ``10H``, ``3S``, ``JK``."""
    text = typed.strip().upper()
    if text in ("JK", "JOKER"):
        return Card(Rank.JOKER)
    suit: Suit | None = None
    if text and text[-1] in _SUITS and text not in _RANKS:
        suit = _SUITS[text[-1]]
        text = text[:-1]
    rank = _RANKS.get(text)
    if rank is None or rank is Rank.JOKER:
        raise CardError(
            typed,
            T("%(card)s is not a card: use A K Q J 10 9 8 7 6 5 4 3 2 or JK.", card=repr(typed)),
        )
    if rank is Rank.THREE and suit is None:
        raise CardError(
            typed, T("A three needs its suit: 3H or 3D for a red three, 3S or 3C for a black one.")
        )
    return Card(rank, suit)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Cards from notation separated by spaces or commas (or a list of single cards)."""
    typed_cards = [t for t in _SEPARATORS.split(text) if t] if isinstance(text, str) else list(text)
    if len(typed_cards) > MAX_CARDS:
        raise CardError("", T("At most %(most)s cards at a time.", most=MAX_CARDS))
    return tuple(parse_card(typed) for typed in typed_cards)


def card_points(cards: Iterable[Card]) -> int:
    return sum(card.points for card in cards)
