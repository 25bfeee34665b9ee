"""Who sits where: the table drawn from above (``Place``) for a game's sheet, the new-game
page's draw and an evening's table cards; the evening table a game is played at; and the
regulars that the new-game and new-evening pages seat with one tap."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..caching import cached
from ..rules import Seat, plays_first, seating
from ..store import evenings, players
from ..store.evenings import Seated, TableView
from ..store.games import Sheet

#: Names offered as one-tap chips on the new-game page: who played most recently.
REGULARS = 12
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True)
class Place:
    """A seat of the table drawing: who sits there, their side, the card they drew, and
    whether they deal the (first or next) deal or play first in it."""

    name: str
    side: int
    side_name: str
    card: str | None
    deals: bool
    plays_first: bool

    @property
    def card_label(self) -> str:
        """The card as players write it: ``Q♠``."""
        if not self.card:
            return ""
        return self.card[:-1] + SUIT_SYMBOLS[self.card[-1]]

    @property
    def red(self) -> bool:
        return bool(self.card) and self.card[-1] in "HD"  # type: ignore[index]


def seat_places(
    seats: Sequence[Seat],
    names: Sequence[str],
    *,
    side_names: Sequence[str] = (),
    cards: Sequence[str | None] = (),
    dealer: Seat | None = None,
) -> list[Place]:
    """The table seat by seat (``names`` in seat order): each player's side, its name where
    sides have one, the card drawn, and who deals and who plays first (with a dealer)."""
    first = None if dealer is None else plays_first(seats, dealer)
    return [
        Place(
            name=name,
            side=seat.side,
            side_name=side_names[seat.side] if side_names else "",
            card=cards[index] if cards else None,
            deals=seat == dealer,
            plays_first=seat == first,
        )
        for index, (seat, name) in enumerate(zip(seats, names, strict=True))
    ]


def sheet_places(sheet: Sheet) -> list[Place]:
    """Who sits where in a game: its seats in order, the cards drawn, who deals the next
    deal and who plays first in it."""
    sides = sheet.game.sides
    seated = [sides[seat.side].players[seat.player] for seat in sheet.seats]
    return seat_places(
        sheet.seats,
        [player.name for player in seated],
        side_names=[side.name for side in sides] if sheet.rules.partnerships else (),
        cards=[player.card for player in seated],
        dealer=sheet.state.next_dealer,
    )


def table_places(table: TableView) -> list[Place]:
    """An evening table's seats in the game's order (partners opposite), for its card."""
    seats = seating([len(side.players) for side in table.sides])
    return seat_places(seats, [table.sides[seat.side].players[seat.player] for seat in seats])


def seated_at(game_id: str) -> Seated | None:
    """The evening table a game is played at, kept per game (it never changes): the sheet
    asks once per game and worker."""
    found: Seated | None = cached(("seated", game_id), lambda: evenings.seated(game_id))
    return found


def roster_chips(regulars: int) -> tuple[list[str], list[str]]:
    """Everyone on the roster (the names a seat's field suggests), and the ``regulars``
    who played most recently, by name: the chips that seat one of them with a tap."""
    lines = players.roster()
    recent = sorted(
        (line for line in lines if line.last_played is not None),
        key=lambda line: line.last_played,  # type: ignore[arg-type,return-value]
        reverse=True,
    )[:regulars]
    return (
        [line.person.name for line in lines],
        sorted((line.person.name for line in recent), key=str.casefold),
    )
