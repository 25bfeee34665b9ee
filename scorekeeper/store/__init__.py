"""Persistence: what happened at the table (games, sides, players, deal entries).

Scores, totals, minimums and winners are never stored; ``games`` replays the rules engine
over the stored entries.
"""

from .db import db

__all__ = ["db"]
