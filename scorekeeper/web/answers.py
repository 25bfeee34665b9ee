"""How a page answers what it cannot do: no such game, and the store's refusals, turned
into a status (the API's too: ``refusals.REFUSALS``) and a message."""

from __future__ import annotations

from flask import abort, request
from flask_babel import lazy_gettext

from ..i18n import render_text
from ..refusals import REFUSALS, status_of
from ..rules.text import T, Text
from ..store import changes, games
from ..store.errors import Refused, Why
from ..store.games import Head
from ..store.models import Game

NO_GAME = lazy_gettext("There is no such game. Check the address, or start a new game.")


def game_or_404(game_id: str) -> Game:
    """The whole game (for its sheet), or a 404 page (410 once deleted)."""
    game = games.load(game_id)
    if game is None:
        abort(404, str(NO_GAME))
    if game.deleted_at is not None:
        abort(410, render_text(changes.GAME_GONE))
    return game


def head_or_404(game_id: str) -> Head:
    """The game without its deals, or a 404 page (410 once deleted)."""
    game = games.head(game_id)
    if game is None:
        abort(404, str(NO_GAME))
    if game.deleted:
        abort(410, render_text(changes.GAME_GONE))
    return game


def refusal_text(refusal: Refused) -> Text:
    """What a page says of a refusal: the store's sentence, but a form's key used before
    speaks of the form (the store's speaks of a request's key)."""
    if refusal.why is Why.REUSED and refusal.deal is not None:
        # The form was saved before with other figures (changed after a slow save, or
        # sent again from the history): say so, rather than drop them silently.
        return T(
            "This form was already saved as deal %(number)s; these figures were not saved.",
            number=refusal.deal,
        )
    return refusal.text


def abort_refused(refusal: Refused) -> None:
    """A refusal the page cannot show next to a field: the error page with its status."""
    abort(status_of(refusal), render_text(refusal_text(refusal)))


def abort_if_lost(refusal: Refused) -> None:
    """No such game or deal (any more), or not this phone's to change: the error page; a
    page shows every other refusal itself."""
    if REFUSALS[refusal.why].error_page:
        abort_refused(refusal)


def wants_json() -> bool:
    """Whether the request asks for JSON rather than a page (the phone's queue of deals
    saved offline, static/offline.js): the answer is then ``{"error", "fields"}``."""
    best = request.accept_mimetypes.best_match(("text/html", "application/json"))
    return best == "application/json"
