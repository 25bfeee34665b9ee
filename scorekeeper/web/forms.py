"""What every page's form builds on: ``PageForm``, ``ConfirmForm`` for a POST-only button,
and ``fit_entries``. Each page's own forms live beside its views (``deals/forms.py``,
``new_game/forms.py``, ``evenings/forms.py``; a page with one small form keeps it in its
module, as ``history.py``)."""

from __future__ import annotations

from functools import cache

from babel.support import NullTranslations, Translations
from flask_wtf import FlaskForm
from wtforms import FieldList, Form, HiddenField
from wtforms.i18n import messages_path
from wtforms.validators import Length, Optional

from ..i18n import current_language


def fit_entries(entries: FieldList, count: int) -> None:
    """Exactly ``count`` entries: the game's sides or seats, whatever a client posted."""
    del entries.entries[count:]
    entries.last_index = len(entries.entries) - 1
    while len(entries.entries) < count:
        entries.append_entry()


@cache
def _wtforms_translations(language: str) -> NullTranslations:
    return Translations.load(messages_path(), [language], domain="wtforms")


class PageForm(FlaskForm):
    """A page's form. Its CSRF token is the app's (CSRFProtect checks it on every POST
    before the view, and templates write it with ``csrf_field()``), so the form does not
    check it again; WTForms' own messages are read once per language, not per request."""

    class Meta:
        csrf = False

        def get_translations(self, form: Form) -> NullTranslations:
            return _wtforms_translations(current_language())


class ConfirmForm(PageForm):
    """A POST-only button with its CSRF token; ``seq`` and ``version`` name the deal it
    confirms, as it was shown."""

    seq = HiddenField(validators=[Optional(), Length(max=12)])
    version = HiddenField(validators=[Optional(), Length(max=12)])
