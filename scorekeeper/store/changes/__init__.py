"""Every change to a game: one command each, each one transaction (``db.transaction``).

A command locks the game's row first (on SQLite the database's write lock), reads what it
changes, checks everything the change needs (the game is there and may change, the
secret, the figures against the rule set) and refuses with one ``Refused`` carrying every
problem; then it writes the change and ends in the one shared commit step
(``commit.commit``): the versions moved, the sides' records and the change log's entry
written, the request's key remembered. The deal page, the API and import all call these.

One module per kind of change: ``new_game``, ``deals`` (record, edit, delete, and
``preview_deal``: the dry run of a record or an edit that the live line shows), ``undo``
(undo, delete and restore a game), ``imports``, ``evenings`` (a club evening's rounds),
``time_called`` (a table between deals when time was called), ``confirm`` (a club
table's deal confirmed by the other side), ``restore`` (a backup restored) and ``roster``
(someone added, a player renamed). Nothing
else writes: ``tests/test_one_door.py`` fails on a write anywhere outside this package.
"""

from ..log import MAX_DEVICE
from .checks import GAME_GONE, GAME_OVER, NO_GAME, no_deal, require_secret, round_seated
from .commit import keep_records, ratings_moved
from .confirm import Confirmed, confirm_deal, require_confirmer
from .deals import (
    Changed,
    Edited,
    Played,
    Recorded,
    delete_deal,
    edit_deal,
    preview_deal,
    record_deal,
)
from .evenings import (
    check_movement,
    close_round,
    create_evening,
    evening_rules,
    start_round,
    swap,
)
from .imports import Claimed, import_game
from .new_game import (
    SideSpec,
    check_first_dealer,
    check_start,
    checked_rules,
    create_game,
)
from .restore import Restoring, restore_backup
from .roster import add_person, rename_player
from .seasons import change_points, create_season
from .time_called import no_deal_in_progress
from .undo import Undone, delete_game, restore_game, undo_change

__all__ = [
    "GAME_GONE",
    "GAME_OVER",
    "MAX_DEVICE",
    "NO_GAME",
    "Changed",
    "Claimed",
    "Confirmed",
    "Edited",
    "Played",
    "Recorded",
    "Restoring",
    "SideSpec",
    "Undone",
    "add_person",
    "change_points",
    "check_first_dealer",
    "check_movement",
    "check_start",
    "checked_rules",
    "close_round",
    "confirm_deal",
    "create_evening",
    "create_game",
    "create_season",
    "delete_deal",
    "delete_game",
    "edit_deal",
    "evening_rules",
    "import_game",
    "keep_records",
    "no_deal",
    "no_deal_in_progress",
    "preview_deal",
    "ratings_moved",
    "record_deal",
    "rename_player",
    "require_confirmer",
    "require_secret",
    "restore_backup",
    "restore_game",
    "round_seated",
    "start_round",
    "swap",
    "undo_change",
]
