"""Languages: English, Macedonian, Russian and Slovak (Flask-Babel).

The language comes from, in order: the ``lang`` cookie (set by the switch on every page),
then the browser's Accept-Language, then English. Catalogues live in
scorekeeper/translations/<lang>/LC_MESSAGES/messages.po (committed) and are compiled to
.mo files when the app starts if the .mo is missing or older.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations
from flask import Flask, g, request
from flask_babel import Babel, LazyString, get_locale, get_translations

from .rules.text import Text

#: The languages the app speaks, each in its own words.
LANGUAGES = {"en": "English", "mk": "Македонски", "ru": "Русский", "sk": "Slovenčina"}
DEFAULT = "en"
COOKIE = "lang"
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

babel = Babel()


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def select_language() -> Locale:
    """The request's language, as a Locale made once per language (Flask-Babel takes a
    Locale as it is; from a code it would parse one anew on every request)."""
    chosen = request.cookies.get(COOKIE)
    if chosen not in LANGUAGES:
        chosen = request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT)
    return _locale(chosen or DEFAULT)


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


def translations() -> NullTranslations:
    """The request's catalogue, found once for the request (with its language, which
    Flask-Babel keeps on ``g`` too): Flask-Babel finds it anew for every word."""
    found: NullTranslations | None = g.get("translations")
    if found is None:
        found = g.translations = get_translations()
    return found


def gettext(string: str, **variables: object) -> str:
    """A word or sentence in the request's language (as Flask-Babel's ``gettext``)."""
    translated: str = translations().ugettext(string)
    return translated % variables if variables else translated


def lazy_gettext(string: str, **variables: object) -> LazyString:
    """``gettext`` when the string is shown (labels of forms defined at import)."""
    return LazyString(gettext, string, **variables)


def say(text: Text | str) -> str:
    """A sentence of the rules engine in the request's language."""
    if isinstance(text, str):
        return text
    # The catalogue's own lookups: the sentence formats its values itself.
    catalogue = translations()
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
    babel.init_app(app, locale_selector=select_language)
    # As Flask-Babel installs them, with the catalogue found once (the i18n extension adds
    # the method).
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: translations().ugettext(s),
        ngettext=lambda s, p, n: translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: translations().unpgettext(c, s, p, n),
    )
    app.jinja_env.filters["num"] = number
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["say"] = say
    app.jinja_env.filters["decimal"] = decimal
    app.jinja_env.filters["percent"] = percent
    app.jinja_env.globals.update(LANGUAGES=LANGUAGES, current_language=current_language)
