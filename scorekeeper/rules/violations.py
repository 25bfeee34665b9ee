"""What a refused deal entry says: the figure at fault, a rule code and a sentence."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .text import Text


class Severity(enum.Enum):
    #: The entry cannot be true under the rules: it is refused.
    ERROR = "error"
    #: Unlikely at a real table (a slip is likely), but the table has the last word.
    WARNING = "warning"


@dataclass(frozen=True)
class Violation:
    """A rule a deal entry breaks, the figure at fault and a sentence a player understands.

    ``field`` is a path such as ``results.1.red_threes`` (side index, then the figure);
    ``rule`` is a stable code for the rule, for translations and clients.
    """

    field: str
    rule: str
    text: Text
    severity: Severity = Severity.ERROR

    @property
    def message(self) -> str:
        """The sentence in English (``text.render`` gives it in another language)."""
        return str(self.text)

    @property
    def side(self) -> int | None:
        """The side whose figure is at fault (``field``'s index), or None for the deal as a
        whole."""
        parts = self.field.split(".")
        return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def path(side: int, figure: str) -> str:
    """Where a side's figure sits in a deal entry: ``results.1.red_threes``."""
    return f"results.{side}.{figure}"
