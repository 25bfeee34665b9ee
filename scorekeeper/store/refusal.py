"""A change the store refuses, and the checks shared by everything that names someone."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

from flask_babel import gettext as _

from ..i18n import say
from ..rules import Violation

#: Longest name for a side or a player; longer would not fit a phone's score sheet.
MAX_NAME = 40


class Refusal(Exception):
    """A request the rules or the game's state do not allow; nothing was changed.

    ``status`` is the HTTP status the API answers with (409 conflict, 422 a broken rule);
    ``fields`` maps a path such as ``results.1.red_threes`` to what is wrong with it.
    """

    def __init__(self, message: str, fields: Mapping[str, str] | None = None, status: int = 422):
        super().__init__(message)
        self.message = message
        self.fields = dict(fields or {})
        self.status = status

    @classmethod
    def from_violations(cls, violations: Sequence[Violation]) -> Refusal:
        first = violations[0]
        fields: dict[str, str] = {}
        for violation in violations:
            fields.setdefault(violation.field, say(violation.text))
        return cls(say(first.text), fields)


def check_name(value: str, path: str, side: bool) -> str:
    """A side's or player's name, its spaces tidied; refused when empty, too long, or holding
    control characters."""
    name = " ".join(value.split())
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn") for char in name):
        raise Refusal(
            _("A name is letters, digits and punctuation, not control characters."),
            {path: _("No control characters.")},
        )
    if not name:
        message = _("Each side needs a name.") if side else _("Each player needs a name.")
        raise Refusal(message, {path: message})
    # The roster matches names folded (NFKC): a few characters unfold into many (ﷺ is 18).
    if len(name) > MAX_NAME or len(unicodedata.normalize("NFKC", name).casefold()) > 60:
        raise Refusal(
            _("A name has at most %(most)s letters.", most=MAX_NAME),
            {path: _("At most %(most)s letters.", most=MAX_NAME)},
        )
    return name
