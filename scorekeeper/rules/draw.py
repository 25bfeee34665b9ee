"""The draw for seats and partners (RULES.md section 9, from the classic seed text).

Every player draws a card: A is high, then K down to 2; between equal ranks spades beat
hearts beat diamonds beat clubs. A joker, or a card equal in rank and suit to another drawn
card, draws again. The highest chooses a seat and plays first; partners come from the card
order and the rule set's sides; partners sit opposite; the player to the right of the
highest deals first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, CardError, Rank, Suit, parse_card
from .game import seating
from .ruleset import OptionError, RuleSet
from .text import T, Text

#: Ranks and suits for the draw, lowest first (the joker draws again, so it has no place).
DRAW_RANKS: tuple[Rank, ...] = tuple(rank for rank in Rank if rank is not Rank.JOKER)
DRAW_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def draw_card(typed: str) -> Card:
    """A drawn card from its notation (``QS``, ``10♥``, ``JK``). The suit is needed: it
    decides between equal ranks. Raises ``CardError``."""
    card = parse_card(typed)
    if card.rank is not Rank.JOKER and card.suit is None:
        raise CardError(
            typed,
            T("For the draw a card needs its suit, such as QS or 10H: suits decide ties."),
        )
    return card


def draw_strength(card: Card) -> int:
    """The card's place in the draw, higher is better: rank first, then suit."""
    if card.rank is Rank.JOKER or card.suit is None:
        raise ValueError("a joker or a card without its suit has no place in the draw")
    return DRAW_RANKS.index(card.rank) * len(DRAW_SUITS) + DRAW_SUITS.index(card.suit)


@dataclass(frozen=True)
class Drawn:
    """One player and the card they drew."""

    player: str
    card: Card


@dataclass(frozen=True)
class SeatDraw:
    """What the draw decided: the sides (best card first in each), the seats clockwise
    from the highest, and the first dealer (the player to the right of the highest)."""

    rules: RuleSet
    #: Players from the highest card down.
    order: tuple[str, ...]
    sides: tuple[tuple[str, ...], ...]
    seats: tuple[str, ...]

    @property
    def first_dealer(self) -> str:
        # Dealing goes clockwise, so the seat before the highest's is the last one.
        return self.seats[-1]

    @property
    def first_dealer_seat(self) -> int:
        return len(self.seats) - 1


class DrawError(ValueError):
    """A draw that cannot be read: ``field`` names what is wrong (``draws``,
    ``draws.2.player``)."""

    def __init__(self, field: str, text: Text) -> None:
        super().__init__(str(text))
        self.field = field
        self.text = text

    @property
    def message(self) -> str:
        return str(self.text)


class Redraw(ValueError):
    """Some players must draw again: ``players`` names them, in the order given."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = tuple(players)
        super().__init__(str(self.text))

    @property
    def text(self) -> Text:
        return T(
            "Draw again: %(players)s (a joker, or a card someone else drew too).",
            players=", ".join(self.players),
        )

    @property
    def message(self) -> str:
        return str(self.text)


def table_for(rules: RuleSet, players: int) -> RuleSet:
    """The rule set at a table of ``players``; raises ``DrawError`` when the rule set is
    not played by that many."""
    if rules.sides_range is not None and rules.players_per_side == 1:
        try:
            return rules.with_sides(players)
        except OptionError as error:
            raise DrawError("draws", error.text) from error
    if players != rules.players:
        raise DrawError(
            "draws",
            T(
                "%(rules)s is played by %(count)s players: give one card for each.",
                rules=T(rules.name),
                count=rules.players,
            ),
        )
    return rules


def redraws(draws: Sequence[Drawn]) -> tuple[str, ...]:
    """Who must draw again: jokers, and every holder of a card someone else drew too."""
    counts = Counter(draw.card for draw in draws)
    return tuple(
        draw.player for draw in draws if draw.card.rank is Rank.JOKER or counts[draw.card] > 1
    )


def draw_for_seats(rules: RuleSet, draws: Sequence[Drawn]) -> SeatDraw:
    """Sides, seats and first dealer from the cards drawn.

    Partnerships take the players in card order, ``players_per_side`` at a time (classic:
    1st and 2nd against 3rd and 4th; ``classic-6``: the three highest against the three
    lowest; ``classic-6x3``: 1-2, 3-4, 5-6); players alone are a side each. The seats go
    clockwise from the highest: each side's best in side order, then each side's second,
    so partners never sit side by side. Raises ``DrawError`` or ``Redraw``.
    """
    table = table_for(rules, len(draws))
    seen: set[str] = set()
    for index, draw in enumerate(draws):
        name = draw.player.strip()
        if not name:
            raise DrawError(f"draws.{index}.player", T("Each player needs a name."))
        if name.casefold() in seen:
            raise DrawError(
                f"draws.{index}.player",
                T("%(name)s is named twice: each player draws once.", name=name),
            )
        seen.add(name.casefold())
    again = redraws(draws)
    if again:
        raise Redraw(again)
    ranked = sorted(draws, key=lambda draw: draw_strength(draw.card), reverse=True)
    order = tuple(draw.player for draw in ranked)
    each = table.players_per_side
    sides = tuple(order[side * each : (side + 1) * each] for side in range(table.sides))
    seats = tuple(sides[seat.side][seat.player] for seat in seating([each] * table.sides))
    return SeatDraw(rules=table, order=order, sides=sides, seats=seats)
