"""What every change checks before it is made: the game is there, the request holds its
secret, and the game's state allows the change (not deleted; for a new deal, not over).
Each check refuses with the one ``Refused`` the page and the API turn into words."""

from __future__ import annotations

from ...rules.text import T
from ..errors import Refused, Why
from ..games import Head, Secured, head, load, lock_game, secret_matches
from ..models import Game

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


def require_secret(game: Secured, secret: str | None) -> None:
    if not secret_matches(game, secret):
        raise Refused(Why.FORBIDDEN, NOT_SCORER)


def locked_head(game_id: str, secret: str | None) -> Head:
    """The game without its deals, its row locked until the transaction ends, once the
    secret is checked (a deleted game's too: the caller answers a retry before refusing)."""
    game = head(game_id) if lock_game(game_id) else None
    if game is None:
        raise Refused(Why.NOT_FOUND, NO_GAME)
    require_secret(game, secret)
    return game


def locked(game_id: str, secret: str | None) -> Game:
    """The whole game, its row locked until the transaction ends, once the secret is
    checked (a deleted game's too: undo and restore change one)."""
    found = load(game_id) if lock_game(game_id) else None
    if found is None:
        raise Refused(Why.NOT_FOUND, NO_GAME)
    require_secret(found, secret)
    return found


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
