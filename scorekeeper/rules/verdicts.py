"""What the meld checks answer (``melds``, ``runs``): a verdict, and how a check words a
refusal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .kinds import CanastaKind
from .text import Text


@dataclass(frozen=True)
class MeldVerdict:
    """Whether a group of cards is a legal meld, and what it is worth."""

    legal: bool
    reason: Text
    rule: str
    #: The meld's rank ("wild" for a meld of wild cards only), or None (a sequence, or
    #: cards of several ranks).
    rank: str | None
    naturals: int
    wilds: int
    points: int
    canasta: CanastaKind | None = None


class Refuse(Protocol):
    """A check's way of saying no: the rule broken, why, and the meld's rank if any."""

    def __call__(self, rule: str, reason: Text, rank: str | None = None) -> MeldVerdict: ...
