"""A table's scorer once time is called (RULES.md section 16): no deal was in progress, so
the table plays no further deal and has finished its round."""

from __future__ import annotations

from ...rules.text import T
from ..db import transaction
from ..errors import Refused, Why
from ..evenings import time_called
from ..games import sheet_of
from ..log import TIME_CALLED
from .checks import GAME_GONE, locked, replayed
from .commit import LogEntry, commit_replayed
from .deals import Changed
from .request_keys import earlier, keyed

NOT_CALLED = T("Time has not been called on this table's round: it plays on.")
ROUND_OVER = T("This table has finished its round: there is no deal left to play.")


def no_deal_in_progress(
    game_id: str, *, secret: str | None, device: str = "", request_key: str | None = None
) -> Changed:
    """The table was between deals when time was called: its round ends after the deals
    recorded, through its change log (``time-called``, which its scorer can undo). A
    ``request_key`` this game has seen changes nothing again."""
    key = keyed(request_key, "no-deal-in-progress")
    with transaction():
        game = locked(game_id, secret)
        before = earlier(game_id, key, TIME_CALLED)
        if before is not None:
            return Changed(sheet_of(game), before.id, repeated=True)
        if game.deleted_at is not None:
            raise Refused(Why.GONE, GAME_GONE)
        if not time_called(game_id):
            raise Refused(Why.CONFLICT, NOT_CALLED)
        if sheet_of(game).state.finished:
            raise Refused(Why.CONFLICT, ROUND_OVER)
        last = game.last_deal
        game.last_deal = len(game.deals)
        sheet = replayed(game)
        entry = LogEntry(
            TIME_CALLED, before={"last_deal": last}, after={"last_deal": len(game.deals)}
        )
        return Changed(sheet, commit_replayed(sheet, entry, device=device, key=key))
