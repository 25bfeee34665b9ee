"""A deal confirmed by the other side of a club table (an evening that asks for it): that
phone holds a secret of its own (``store.evenings.confirm_secret``), which confirms the
table's deals and changes nothing else. The confirmation is kept on the deal
(``Deal.confirmed_at``); an edit of the deal, or an undo that changes it, clears it
(``deals.set_results``, and an undo's deal put back anew).

Confirming ends in the commit step like every change: the game's version moves (the
sheets and the director's page show it at their next poll), its log gets a
``deal-confirmed`` entry with the request's key (a retried request confirms once).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ...rules.text import T, Text
from ..db import transaction
from ..errors import Refused, Why
from ..evenings import EveningView
from ..games import DealTag, Sheet, confirmer_matches, load, lock_game, secret_matches, sheet_of
from ..log import CONFIRMED
from ..models import Game, utcnow
from .checks import NO_GAME, require_listed
from .commit import LogEntry, commit_replayed
from .deals import expected_deal
from .request_keys import earlier, keyed

NOT_ASKED = T(
    "This game's results are not confirmed at the table: only a club evening that asks for "
    "it gives its tables a second code, for the other side's phone."
)
OWN_RESULTS = T(
    "The scorer's phone cannot confirm its own table's results: the other side confirms "
    "them, on the phone that scanned the second code of the table card."
)
NOT_CONFIRMER = T(
    "Only the other side's phone can confirm this table's results (it scans the second "
    "code of the table card)."
)


class Confirmable(Protocol):
    """A game as far as its secrets go (a loaded ``Game``, or its ``Version``)."""

    @property
    def token_hash(self) -> str: ...

    @property
    def confirm_hash(self) -> str | None: ...


def require_confirmer(game: Confirmable, secret: str | None) -> None:
    """Refused unless ``secret`` is the other side's at a table that confirms results:
    a game that confirms none is a conflict; the scorer's own secret, or any other, is
    forbidden (each says which)."""
    if game.confirm_hash is None:
        raise Refused(Why.CONFLICT, NOT_ASKED)
    if secret_matches(game, secret):
        raise Refused(Why.FORBIDDEN, OWN_RESULTS)
    if not confirmer_matches(game.confirm_hash, secret):
        raise Refused(Why.FORBIDDEN, NOT_CONFIRMER)


@dataclass(frozen=True)
class Confirmed:
    """The game after a deal was confirmed, and the deal's number now."""

    sheet: Sheet
    number: int
    #: The change log's entry (None when nothing changed: confirmed before).
    change: int | None = None
    #: An earlier request with the same key confirmed it; nothing changed now.
    repeated: bool = False


def confirm_deal(
    game_id: str,
    number: int,
    *,
    secret: str | None,
    expected: DealTag | None = None,
    device: str = "",
    request_key: str | None = None,
) -> Confirmed:
    """Confirm deal ``number`` as it stands (with ``expected``: only if it is still that
    deal at that version, as the other side saw it). A deal confirmed already stays so,
    and nothing is logged again. A ``request_key`` this game has seen confirms nothing
    again and answers with the game as it stands; sent with another request, it is
    refused (``Why.REUSED``)."""
    key = keyed(request_key, "confirm-deal", number, expected)
    with transaction():
        game = load(game_id) if lock_game(game_id) else None
        if game is None:
            raise Refused(Why.NOT_FOUND, NO_GAME)
        require_confirmer(game, secret)
        before = earlier(game_id, key, CONFIRMED)
        if before is not None:
            return Confirmed(sheet_of(game), _now_at(game, before.deal_seq, number), None, True)
        require_listed(game.deleted_at is not None)
        deal = expected_deal(game, number, expected)
        if deal.confirmed_at is not None:
            return Confirmed(sheet_of(game), number)
        deal.confirmed_at = utcnow()
        sheet = sheet_of(game)
        change = commit_replayed(
            sheet, LogEntry(CONFIRMED, deal=(deal.seq, number)), device=device, key=key
        )
    return Confirmed(sheet, number, change)


def _now_at(game: Game, seq: int | None, number: int) -> int:
    """Where the deal a repeated request confirmed is now (its number then, once gone)."""
    for place, deal in enumerate(game.deals, start=1):
        if deal.seq == seq:
            return place
    return number


def _waiting_at(table: int, deals: Sequence[int]) -> Text:
    # Its own call: the catalogue's extractor misses a T() nested in another's arguments.
    return T("table %(table)s (deals %(deals)s)", table=table, deals=", ".join(map(str, deals)))


def check_confirmed(current: EveningView) -> None:
    """Refused while a deal of the current round waits for the other side's confirmation,
    naming the tables and deals (the director may start the round anyway: ``force``)."""
    waiting = [t for t in current.played[-1].tables if t.unconfirmed] if current.played else []
    if waiting:
        raise Refused(
            Why.CONFLICT,
            T(
                "Round %(number)s has results the other side has not confirmed yet: "
                "%(tables)s. Wait for them, or start the next round anyway.",
                number=len(current.played),
                tables=tuple(_waiting_at(t.number, t.unconfirmed) for t in waiting),
            ),
            {"force": T("Send true to start the round anyway.")},
        )
