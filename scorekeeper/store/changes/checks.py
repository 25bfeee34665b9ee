"""What every change checks before it is made: the game is there, the request holds its
secret, and the game's state allows the change (not deleted; for a new deal, not over).
Each check refuses with the one ``Refused`` the page and the API turn into words."""

from __future__ import annotations

from typing import TypeVar

from ...rules.text import T, Text
from ..errors import Refused, Why
from ..evenings import next_round_seated
from ..games import Head, Secured, Sheet, head, load, lock_game, secret_matches, sheet_of
from ..models import Game

#: A game as a change reads it: its head, or the whole of it.
Found = TypeVar("Found", Head, Game)

NO_GAME = T("There is no such game.")
GAME_OVER = T("This game is over: start a new game, or edit or delete a deal to reopen it.")
GAME_GONE = T("This game was deleted; restore it from its change log or the history.")
ROUND_OVER = T(
    "This table's round is over: its deals are played or the director called time. Edit or "
    "delete a deal to correct it."
)
NOT_SCORER = T(
    "Only the phone that keeps this game's score can change it (ask for the scorer link)."
)


def no_deal(number: int) -> Text:
    """The words of a deal asked for by a number the game has no deal at."""
    return T("This game has no deal %(number)s.", number=number)


def require_secret(game: Secured, secret: str | None) -> None:
    if not secret_matches(game, secret):
        raise Refused(Why.FORBIDDEN, NOT_SCORER)


def secured(game: Found | None, secret: str | None) -> Found:
    """The game read for a change, once the secret is checked (a deleted game's too: the
    caller answers a retry before refusing)."""
    if game is None:
        raise Refused(Why.NOT_FOUND, NO_GAME)
    require_secret(game, secret)
    return game


def locked_head(game_id: str, secret: str | None) -> Head:
    """The game without its deals, its row locked until the transaction ends (``secured``)."""
    return secured(head(game_id) if lock_game(game_id) else None, secret)


def locked(game_id: str, secret: str | None) -> Game:
    """The whole game, its row locked until the transaction ends (``secured``): undo and
    restore change a deleted one."""
    return secured(load(game_id) if lock_game(game_id) else None, secret)


def require_listed(deleted: bool) -> None:
    """A deleted game takes no change of its deals (restore it first)."""
    if deleted:
        raise Refused(Why.GONE, GAME_GONE)


def require_open(finished: bool, last_deal: int | None = None) -> None:
    """A finished game takes no new deal."""
    if finished and last_deal is not None:
        raise Refused(Why.CONFLICT, ROUND_OVER)
    if finished:
        raise Refused(Why.CONFLICT, GAME_OVER)


def replayed(game: Game) -> Sheet:
    """The changed game (as changed in memory) replayed, and checked (``checked_replay``)."""
    return checked_replay(sheet_of(game))


def checked_replay(sheet: Sheet) -> Sheet:
    """A changed game's replay, refused when the change would leave deals after the one
    that ended the game, or reopen a club table whose round the next round was seated
    after."""
    if sheet.game.finished and not sheet.state.finished:
        require_round_playing(sheet.game.id)
    after = sheet.state.deals_after_end
    if after:
        raise Refused(
            Why.CONFLICT,
            T(
                "With this change the game ends after deal %(number)s, yet %(after)s more "
                "deal(s) follow it; delete those first.",
                number=sheet.state.finished_after,
                after=after,
            ),
        )
    return sheet


def require_round_playing(game_id: str) -> None:
    """A club table may play on (a change reopens it) only while the next round is not
    seated: that round was seated from the standings of this one's finished tables."""
    rounds = next_round_seated(game_id)
    if rounds is not None:
        number, following = rounds
        raise Refused(Why.CONFLICT, round_seated(number, following))


def round_seated(number: int, following: int) -> Text:
    """Why a finished club table stays finished once the next round is seated."""
    return T(
        "Round %(number)s is over: round %(next)s was seated from its standings, so no "
        "table of round %(number)s can play on.",
        number=number,
        next=following,
    )
