"""The counters the commit step moves (``Counter``: one row by its name; the door moves
them, ``changes.commit``): the versions of pages that show many games, read as one row
whatever the club's size."""

from __future__ import annotations

from sqlalchemy import bindparam, select

from .db import version_row
from .models import Counter

#: The ratings' counter: every change that can move a rating moves it.
RATINGS = "ratings"
#: The history page's counter: every change of a game moves it.
HISTORY = "history"

COUNTER = Counter.__table__
_VALUE = select(COUNTER.c.value).where(COUNTER.c.name == bindparam("counter"))


def value(name: str) -> int:
    """The counter ``name``'s value (0 before its migration made it)."""
    row = version_row(_VALUE, {"counter": name})
    return 0 if row is None else int(row[0])
