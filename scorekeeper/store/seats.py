"""The cards a table drew for seats (RULES.md section 9), checked before they are kept.

The seats themselves are the sides' and players' positions and the first dealer; the
cards are the record of how they were drawn. Either every player has a card or none
does, and a draw that had to be repeated (a joker, a card drawn twice) is not one to keep.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import CardError
from ..rules.draw import Drawn, draw_card, redraws
from ..rules.text import T
from .errors import Refused, Why


def check_cards(cards: Sequence[Sequence[str] | None], players_per_side: int) -> list[list[str]]:
    """Each side's drawn cards (``cards[side]``, one per player, or None for no draw), in
    the rules' notation; ``[]`` when nobody drew. Raises ``Refused`` naming the field
    (``sides.1.cards.0``)."""
    if not any(cards):
        return []
    drawn: list[Drawn] = []
    paths: list[str] = []
    kept: list[list[str]] = []
    for position, side_cards in enumerate(cards):
        path = f"sides.{position}.cards"
        if side_cards is None or len(side_cards) != players_per_side:
            raise Refused(
                Why.INVALID,
                T("Give the card every player drew for seats, or none."),
                {path: T("One card for each player of the side.")},
            )
        kept.append([])
        for index, typed in enumerate(side_cards):
            try:
                card = draw_card(typed)
            except CardError as error:
                raise Refused(Why.INVALID, error.text, {f"{path}.{index}": error.text}) from None
            drawn.append(Drawn(f"{position}.{index}", card))
            paths.append(f"{path}.{index}")
            kept[-1].append(str(card))
    again = set(redraws(drawn))
    if again:
        text = T(
            "A joker, or a card someone else drew too, draws again: keep the draw that decided."
        )
        raise Refused(
            Why.INVALID,
            text,
            {path: text for path, who in zip(paths, drawn, strict=True) if who.player in again},
        )
    return kept
