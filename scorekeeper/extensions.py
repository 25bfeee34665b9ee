"""The Flask extensions of the app, made here and bound to it by ``create_app``: a view
imports what it decorates or reads (``creates_game``, ``htmx``) from this module, never
from the package that builds the app."""

from __future__ import annotations

from flask import Response, current_app
from flask_compress import Compress
from flask_htmx import HTMX
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_wtf.csrf import CSRFProtect

compress = Compress()
csrf = CSRFProtect()
htmx = HTMX()
migrate = Migrate()
#: Per-client limits (creating games). Its counters live in RATELIMIT_STORAGE_URI: memory
#: by default (one process); point several instances at a shared store such as Redis.
limiter = Limiter(key_func=get_remote_address)


def game_creation_limit() -> str:
    """The configured limit on creating games, per client."""
    limit: str = current_app.config["GAME_CREATION_LIMIT"]
    return limit


def created_a_game(response: Response) -> bool:
    """Whether the answer is a game created: the API's 201 (a new game, an import) or the
    new-game page's redirect to the new sheet. A refused request, a seat draw or a shared
    link of the page (200 or 4xx) spends nothing of the budget."""
    return response.status_code in (201, 302, 303)


#: One budget per client for every route that creates a game (the new-game page, the API,
#: import): each door counting on its own would let a client through three times over.
#: Only games created count (``deduct_when``): the limit is tested before the view and
#: spent after it, so a client's refused attempts never keep it from starting a game.
creates_game = limiter.shared_limit(
    game_creation_limit, scope="new-game", methods=["POST"], deduct_when=created_a_game
)
