"""How the pages and the API answer what the store refuses: one status per kind of refusal
(``REFUSALS``), and the one check of a game's secret their views run before they read a
request (``scorer_only``), so that the answers come in API.md's order: 404, 403, then
400/422/409. The words are the store's; each layer renders them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from types import MappingProxyType
from typing import NamedTuple, ParamSpec, TypeVar

from .caching import setup_of
from .store.changes import NO_GAME, require_secret
from .store.errors import Refused, Why
from .store.games import Setup


class RefusalAnswer(NamedTuple):
    """How a refusal is answered."""

    status: int
    #: Nothing of the page can be shown (no such game or deal any more, or not this
    #: phone's to change): a page answers with the error page; else the page again with
    #: the message.
    error_page: bool


#: Each refusal of the store as the pages and the API answer it.
REFUSALS: Mapping[Why, RefusalAnswer] = MappingProxyType(
    {
        Why.INVALID: RefusalAnswer(422, error_page=False),
        Why.CONFLICT: RefusalAnswer(409, error_page=False),
        Why.OUTDATED: RefusalAnswer(409, error_page=False),
        # API.md: a key sent again with another request is a 422, as a broken rule.
        Why.REUSED: RefusalAnswer(422, error_page=False),
        Why.FORBIDDEN: RefusalAnswer(403, error_page=True),
        Why.NOT_FOUND: RefusalAnswer(404, error_page=True),
        Why.GONE: RefusalAnswer(410, error_page=True),
    }
)


def status_of(refusal: Refused) -> int:
    return REFUSALS[refusal.why].status


def scorer_setup(game_id: str, secret: str | None) -> Setup:
    """The game's fixed facts (kept: no query) once ``secret`` is its secret; else the
    store's refusal (no such game, then not the scorer). A deleted game passes: undo and
    restore change one, and the store refuses the rest."""
    setup = setup_of(game_id)
    if setup is None:
        raise Refused(Why.NOT_FOUND, NO_GAME)
    require_secret(setup, secret)
    return setup


Params = ParamSpec("Params")
Result = TypeVar("Result")


def scorer_only(
    secret: Callable[[], str | None],
) -> Callable[[Callable[Params, Result]], Callable[Params, Result]]:
    """A view of a game (``game_id``) for its scorer alone, the secret read by ``secret``
    (a page's cookie, the API's Authorization header): the game's 404 and the secret's 403 come
    before anything the view reads. The store checks again, under the game's lock."""

    def guard(view: Callable[Params, Result]) -> Callable[Params, Result]:
        @wraps(view)
        def guarded(*args: Params.args, **kwargs: Params.kwargs) -> Result:
            scorer_setup(str(kwargs["game_id"]), secret())
            return view(*args, **kwargs)

        return guarded

    return guard
