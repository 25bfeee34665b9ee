"""Languages: English, Macedonian, Russian and Slovak (Flask-Babel); dates in the phone's
own time zone.

The language comes from, in order: the ``lang`` cookie (set by the switch on every page),
then the browser's Accept-Language, then English. Catalogues live in
scorekeeper/translations/<lang>/LC_MESSAGES/messages.po (committed) and are compiled to
.mo files when the app starts if the .mo is missing or older.

Times are stored in UTC. The phone's time zone (its IANA name) comes from the ``tz``
cookie that static/app.js sets on every page, and is kept in the session
(``remember_zone``); Flask-Babel's time-zone selector gives it to every date shown, and
the history's day filters use it. Until the phone has sent it (its very first page), dates
are UTC and say so.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, date, datetime, time
from functools import cache
from pathlib import Path

from babel import Locale
from babel.dates import get_timezone
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from flask import Flask, request, session
from flask_babel import (
    Babel,
    format_date,
    format_time,
    get_locale,
    get_translations,
    to_user_timezone,
    to_utc,
)

from .rules.text import Text

#: The languages the app speaks, each in its own words.
LANGUAGES = {"en": "English", "mk": "Македонски", "ru": "Русский", "sk": "Slovenčina"}
DEFAULT = "en"
COOKIE = "lang"
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

babel = Babel()


@cache
def locale_of(language: str) -> Locale:
    """The Babel Locale of a language code, made once per language (Babel parses a code
    anew on every call that is given one: five times for each figure a form reads)."""
    return Locale.parse(language)


def select_language() -> Locale:
    """The request's language, as a Locale made once per language (Flask-Babel takes a
    Locale as it is; from a code it would parse one anew on every request)."""
    chosen = request.cookies.get(COOKIE)
    if chosen not in LANGUAGES:
        chosen = request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT)
    return locale_of(chosen or DEFAULT)


#: The cookie static/app.js sets to the phone's time zone, and the session key that keeps it.
ZONE_COOKIE = "tz"
ZONE_KEY = "zone"


def known_zone(name: object) -> str | None:
    """``name`` as the time-zone database spells it (Europe/Skopje), if it is a zone the
    database knows; None for anything else (never an error). The database is the one
    Flask-Babel formats with (Babel's lookup: pytz when installed, as Flask-Babel needs)."""
    if not isinstance(name, str) or not 0 < len(name) <= 64:
        return None
    try:
        return str(get_timezone(name))
    except (LookupError, ValueError):
        return None


def remember_zone() -> None:
    """Keep the zone the page sent in the session (before each page's request).

    The page can only tell the server on requests it makes itself, and most are plain
    links: a cookie goes with every one of them, from the second page on. The session
    keeps the checked name, so the zone holds while the cookie is away (blocked, cleared)
    and the server never formats with an unchecked value."""
    sent = known_zone(request.cookies.get(ZONE_COOKIE))
    if sent is not None and session.get(ZONE_KEY) != sent:
        session[ZONE_KEY] = sent


def zone_name() -> str | None:
    """The phone's time zone as the session keeps it; None before the phone has sent it."""
    return known_zone(session.get(ZONE_KEY))


def local_date(moment: datetime) -> str:
    """The date of a stored (UTC) moment in the phone's time zone: 2026-06-02."""
    return str(format_date(moment, "yyyy-MM-dd"))


def day(moment: datetime) -> str:
    """``local_date`` as a page shows it: with "UTC" while the phone's zone is unknown."""
    return local_date(moment) if zone_name() else f"{local_date(moment)} UTC"


def when(moment: datetime) -> str:
    """A stored (UTC) moment in the phone's time zone and language: the time alone when
    it is today there, else the date and the time (Jun 2, 2026, 12:30 AM)."""
    clock: str = format_time(moment, "short")
    if to_user_timezone(moment).date() != to_user_timezone(datetime.now(UTC)).date():
        locale = get_locale() or locale_of(DEFAULT)
        # As Babel joins a date and a time (the language's own order and punctuation).
        pattern = str(locale.datetime_formats["medium"]).replace("'", "")
        clock = pattern.replace("{0}", clock).replace("{1}", format_date(moment, "medium"))
    return clock if zone_name() else f"{clock} UTC"


def day_start(chosen: date) -> datetime | None:
    """The first moment (UTC, as stored) of a day in the phone's time zone; None when it
    lies outside what a datetime can hold (the day is then no bound at all)."""
    try:
        start: datetime = to_utc(datetime.combine(chosen, time()))
    except OverflowError:
        return None
    return start


def current_language() -> str:
    locale = get_locale()
    return str(locale.language) if locale is not None else DEFAULT


#: Whole numbers a language's fast formatter must write as Babel does before it is used.
_SAMPLES = (0, 7, -7, 999, -999, 1000, -1000, 12345, -12345, 999999, 1000000, -1234567)


@cache
def _whole_numbers(language: str) -> Callable[[int], str]:
    """How ``language`` writes a whole number, looked up once: Python's own grouping with
    the language's separator and minus sign (a score sheet writes hundreds of numbers, and
    Babel's general formatter is slow: docs/PERFORMANCE.md). A language whose pattern is
    not plain groups of three keeps Babel's (the samples must come out the same)."""
    symbols = Locale.parse(language).number_symbols["latn"]
    group, minus = symbols["group"], symbols["minusSign"]

    def fast(value: int) -> str:
        text = f"{value:,}"
        if value < 0:
            text = minus + text[1:]
        return text.replace(",", group) if group != "," else text

    def babel(value: int) -> str:
        return format_decimal(value, locale=language, group_separator=True)

    if all(fast(sample) == babel(sample) for sample in _SAMPLES):
        return fast
    return babel


def number(value: int) -> str:
    """A number as the language writes it: 5,000 (English), 5 000 (Slovak, Russian)."""
    if type(value) is int:
        return _whole_numbers(current_language())(value)
    return format_decimal(value, locale=current_language(), group_separator=True)


def number_group() -> str:
    """The language's digit-group separator, for the scripts that read and write figures
    with no connection (the browser's own may lack the language: Chromium writes 1,780
    for Macedonian)."""
    return str(Locale.parse(current_language()).number_symbols["latn"]["group"])


def signed(value: int) -> str:
    """A deal's score with its sign: +1,210, -320, 0."""
    return ("+" if value > 0 else "") + number(value)


def decimal(value: float | None, places: int = 1) -> str:
    """A figure such as an average with ``places`` decimals (2.5 / 2,5); a dash for none."""
    if value is None:
        return "–"
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return format_decimal(value, format=pattern, locale=current_language())


def percent(value: float | None) -> str:
    """A share as a whole percentage (47 % / 47%); a dash for none."""
    if value is None:
        return "–"
    return format_percent(value, locale=current_language())


def render_text(text: Text | str) -> str:
    """A sentence of the rules engine in the request's language."""
    if isinstance(text, str):
        return text
    # The catalogue's own lookups: the sentence formats its values itself.
    catalogue = get_translations()
    return text.render(catalogue.gettext, catalogue.ngettext)


def compile_catalogues(folder: Path = TRANSLATIONS) -> None:
    """Compile each messages.po to messages.mo when the .mo is missing or older."""
    for po_path in folder.glob("*/LC_MESSAGES/messages.po"):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalogue = read_po(po_file, locale=po_path.parts[-3])
        # Written whole, then moved into place: another worker starting at the same
        # moment reads the old file or the new one, never half of one.
        draft = mo_path.with_suffix(f".mo.{os.getpid()}")
        try:
            with draft.open("wb") as mo_file:
                write_mo(mo_file, catalogue, use_fuzzy=False)
        except PermissionError:
            if mo_path.exists():
                continue  # installed read-only: the .mo the wheel was built with
            raise
        os.replace(draft, mo_path)


def init_app(app: Flask) -> None:
    compile_catalogues()
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_language, timezone_selector=zone_name)
    app.jinja_env.filters["num"] = number
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["render_text"] = render_text
    app.jinja_env.filters["decimal"] = decimal
    app.jinja_env.filters["percent"] = percent
    app.jinja_env.filters["day"] = day
    app.jinja_env.filters["when"] = when
    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES, current_language=current_language, number_group=number_group
    )
