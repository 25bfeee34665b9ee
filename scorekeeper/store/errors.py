"""What the store refuses, as data: the web and API layers choose the status and the words.

A refusal names why (``Why``), a sentence (a ``rules.text.Text``, rendered in the reader's
language by whoever shows it) and, per field path such as ``results.1.red_threes``, what is
wrong with that field. Nothing was changed by a refused call.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ..rules import Violation
from ..rules.text import T, Text

#: Longest name for a side or a player; longer would not fit a phone's score sheet.
MAX_NAME = 40


class Why(enum.Enum):
    """The kinds of refusal."""

    #: The request breaks a rule (a deal that cannot be true, a bad name, an option).
    INVALID = "invalid"
    #: Changing the game needs its secret, which the request did not hold.
    FORBIDDEN = "forbidden"
    #: No such game or deal.
    NOT_FOUND = "not-found"
    #: The game's state does not allow it (it is over; an edit would leave deals after
    #: the winning one; the confirmed deal is gone).
    CONFLICT = "conflict"
    #: A deal changed since the phone read it (the version check failed).
    OUTDATED = "outdated"
    #: The database stayed held by other writers for longer than a request waits.
    BUSY = "busy"
    #: The request's key (a form's nonce, an Idempotency-Key) already recorded a deal
    #: with other figures.
    REUSED = "reused"


class Refused(Exception):
    """A change the store did not make, and why."""

    def __init__(
        self,
        why: Why,
        text: Text,
        fields: Mapping[str, Text] | None = None,
        *,
        current_version: int | None = None,
        deal: int | None = None,
    ) -> None:
        super().__init__(str(text))
        self.why = why
        self.text = text
        self.fields: Mapping[str, Text] = MappingProxyType(dict(fields or {}))
        #: With ``Why.OUTDATED``: the deal's version now.
        self.current_version = current_version
        #: With ``Why.REUSED``: the number of the deal the key recorded.
        self.deal = deal

    @classmethod
    def breaking(cls, violations: Sequence[Violation], prefix: str = "") -> Refused:
        """The rules engine's errors for an entry; ``prefix`` places their paths
        (``deals.3.`` in an imported document)."""
        fields: dict[str, Text] = {}
        for violation in violations:
            fields.setdefault(prefix + violation.field, violation.text)
        return cls(Why.INVALID, violations[0].text, fields)


def check_name(value: str, path: str, *, side: bool) -> str:
    """A side's or player's name, its spaces tidied; refused when empty, too long, or holding
    control characters."""
    name = " ".join(value.split())
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn") for char in name):
        raise Refused(
            Why.INVALID,
            T("A name is letters, digits and punctuation, not control characters."),
            {path: T("No control characters.")},
        )
    if not name:
        message = T("Each side needs a name.") if side else T("Each player needs a name.")
        raise Refused(Why.INVALID, message, {path: message})
    # The roster matches names folded (NFKC): a few characters unfold into many (ﷺ is 18).
    if len(name) > MAX_NAME or len(unicodedata.normalize("NFKC", name).casefold()) > 60:
        raise Refused(
            Why.INVALID,
            T("A name has at most %(most)s letters.", most=MAX_NAME),
            {path: T("At most %(most)s letters.", most=MAX_NAME)},
        )
    return name
