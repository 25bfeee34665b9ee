"""What the store refuses, as data: the web and API layers choose the status and the words.

A refusal names why (``Why``), a sentence (a ``rules.text.Text``, rendered in the reader's
language by whoever shows it) and, per field path such as ``results.1.red_threes``, what is
wrong with that field. Nothing was changed by a refused call.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from types import MappingProxyType

from ..rules import Severity, Violation
from ..rules.limits import MAX_NAME, MAX_REQUEST_KEY
from ..rules.text import T, Text

#: No game of this app was played before it: an older date is a slip (or a year 1).
EARLIEST = datetime(1990, 1, 1)
#: How far past this server's clock a date may be (a phone's clock set wrong): later dates
#: would stay at the head of every newest-first list.
AHEAD = timedelta(days=1)


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
    #: The request's key (a form's nonce, an Idempotency-Key) already made a change of
    #: another request (another route, deal or body).
    REUSED = "reused"
    #: The game was deleted (its change log can restore it).
    GONE = "gone"


class Unavailable(Exception):
    """The database could not be reached (stopped, restarting, the connection lost) or
    stayed locked by other writers past the wait: nothing was read or changed, and the
    same request, sent again later, may well succeed (API.md: a 503 with ``Retry-After``,
    never a 409, which means a real conflict, and never a 500)."""

    #: Seconds a client waits before it tries again (about half SQLite's busy timeout).
    retry_after = 5


class Refused(Exception):
    """A change the store did not make, and why."""

    def __init__(
        self,
        why: Why,
        text: Text,
        fields: Mapping[str, Text] | None = None,
        *,
        warnings: Mapping[str, Text] | None = None,
        current_version: int | None = None,
        deal: int | None = None,
        change: int | None = None,
        evening: str | None = None,
        season: str | None = None,
    ) -> None:
        super().__init__(str(text))
        self.why = why
        self.text = text
        self.fields: Mapping[str, Text] = MappingProxyType(dict(fields or {}))
        #: What looks unlikely in the entry, per field (saved anyway once the errors go).
        self.warnings: Mapping[str, Text] = MappingProxyType(dict(warnings or {}))
        #: With ``Why.OUTDATED``: the deal's version now.
        self.current_version = current_version
        #: With ``Why.REUSED``: the number of the deal the key's change was of, if any.
        self.deal = deal
        #: With an undo refused: the later change in its way.
        self.change = change
        #: With a new evening's key sent again: the evening it created.
        self.evening = evening
        #: With a new season's key sent again: the season it created.
        self.season = season

    @classmethod
    def breaking(cls, violations: Sequence[Violation], prefix: str = "") -> Refused:
        """An entry that breaks a rule: ALL the rules engine found in it (as
        ``validate_deal`` returns them), errors in ``fields`` and warnings in ``warnings``
        (the first per path), worded by the first error. ``prefix`` places their paths
        (``deals.3.`` in an imported document)."""
        fields: dict[str, Text] = {}
        warnings: dict[str, Text] = {}
        for violation in violations:
            kept = fields if violation.severity is Severity.ERROR else warnings
            kept.setdefault(prefix + violation.field, violation.text)
        first = next((v for v in violations if v.severity is Severity.ERROR), violations[0])
        return cls(Why.INVALID, first.text, fields, warnings=warnings)


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


def is_request_key(key: str) -> bool:
    """Whether ``key`` may be kept as a request key: 1 to ``MAX_REQUEST_KEY`` printable
    ASCII characters (it goes into logs and the change log's column as it is)."""
    return 0 < len(key) <= MAX_REQUEST_KEY and key.isascii() and key.isprintable()


def check_moment(value: object, path: str) -> datetime:
    """A date and time in ISO 8601 (``Z`` or an offset; none is UTC) as the tables keep it,
    naive UTC; refused when it is not one, or before 1990 or more than a day from now."""
    example = "2026-12-01T20:15:03Z"
    moment: datetime | None = None
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
    except ValueError:
        raise Refused(
            Why.INVALID,
            T("A date and time is written like %(example)s.", example=example),
            {path: T("A date and time, like %(example)s.", example=example)},
        ) from None
    except OverflowError:
        moment = None  # in UTC it falls before year 1 or after 9999
    latest = datetime.now(UTC).replace(tzinfo=None) + AHEAD
    if moment is None or not EARLIEST <= moment <= latest:
        earliest = EARLIEST.date().isoformat()
        raise Refused(
            Why.INVALID,
            T("A date is from %(earliest)s to a day from now.", earliest=earliest),
            {path: T("From %(earliest)s to a day from now.", earliest=earliest)},
        )
    return moment
