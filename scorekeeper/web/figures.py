"""Figures a person types: whole numbers as the page's language writes them (4,800 /
4 800 / 4.800), with a leading minus where a figure may be below zero, and the sums such
as ``120+35`` the deal form takes. One reader for every number field of the pages: the
forms' fields below and the rule tools' (``read_arg``)."""

from __future__ import annotations

from typing import Any

from babel.numbers import NumberFormatError, get_decimal_symbol, get_group_symbol, parse_decimal
from flask_babel import gettext as _
from wtforms import Field, Form, StringField
from wtforms.validators import ValidationError
from wtforms.widgets import TextInput

from ..i18n import current_language, locale_of, number
from ..rules.limits import MAX_CANASTAS, MAX_FIGURE

#: A language that groups digits with a no-break space takes a plain one too: phones type
#: that (and some keyboards the narrow one).
SPACES = (" ", "\u00a0", "\u202f")
#: Longer than this, a typed figure is no figure of a card game (and is not read).
LONGEST = 16
#: A sum of more parts than this is not a count made at the table.
MOST_PARTS = 30


class Unreadable(ValueError):
    """Not a whole number as the page's language writes it; ``negative``: it is one, below
    zero where no figure may be."""

    def __init__(self, text: str, *, negative: bool = False) -> None:
        super().__init__(text)
        self.negative = negative


def read_figure(text: str, language: str, *, negative: bool = False) -> int:
    """A whole number typed in ``language`` (Babel's reading of its grouping: 4,800 in
    English, 4.800 in Macedonian, 4 800 in Russian and Slovak), with a leading minus when
    ``negative`` figures are allowed. Raises ``Unreadable``."""
    typed = text.strip().replace("\u2212", "-")  # the minus sign the app prints
    locale = locale_of(language)
    group, point = get_group_symbol(locale), get_decimal_symbol(locale)
    if group in SPACES:
        for space in SPACES:
            typed = typed.replace(space, group)
    body = typed.removeprefix("-")
    if not body[:1].isdigit() or len(typed) > LONGEST:
        raise Unreadable(text)
    if any(not (c.isdigit() or c in (group, point)) for c in body):
        raise Unreadable(text)
    try:
        value = parse_decimal(body, locale=locale, strict=True)
    except NumberFormatError:
        raise Unreadable(text) from None
    if value != value.to_integral_value():
        raise Unreadable(text)  # 4.8 in English: a slip for 4,800 or 48, not a score
    whole = -int(value) if typed.startswith("-") else int(value)
    if whole < 0 and not negative:
        raise Unreadable(text, negative=True)
    return whole


def read_sum(text: str, language: str) -> int:
    """A figure or a sum of them as counted at the table (``120+35+15``), none negative.
    Raises ``Unreadable``."""
    parts = text.split("+")
    if len(parts) > MOST_PARTS:
        raise Unreadable(text)
    return sum(read_figure(part, language) for part in parts)


def unreadable_message(*, negative: bool, example: int) -> str:
    """What a field says of a figure it cannot read, with an example in the page's way."""
    if negative:
        return _(
            "Type a whole number, such as %(example)s or %(negative)s.",
            example=number(example),
            negative=number(-150),
        )
    return _("Type a whole number, such as %(example)s.", example=number(example))


def range_message(low: int, high: int) -> str:
    return _("From %(low)s to %(high)s.", low=number(low), high=number(high))


class FigureField(Field):
    """A whole number from ``minimum`` to ``maximum``, typed as the page's language writes
    it; ``data`` is None when left empty. Below zero is allowed where ``minimum`` is: the
    field then asks for the phone's text keyboard, since the numeric and decimal pads of
    iPhones have no minus key (Android's numeric pad has one, the iPhone's none)."""

    widget = TextInput()

    def __init__(
        self,
        label: str | None = None,
        validators: Any = None,
        *,
        minimum: int = 0,
        maximum: int,
        example: int = 1500,
        **kwargs: Any,
    ) -> None:
        render_kw = {
            "inputmode": "text" if minimum < 0 else "numeric",
            "autocomplete": "off",
            **kwargs.pop("render_kw", {}),
        }
        super().__init__(label, validators, render_kw=render_kw, **kwargs)
        self.minimum, self.maximum, self.example = minimum, maximum, example

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])  # as typed, shown again with its message
        return "" if self.data is None else str(self.data)

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = None
        if not valuelist or not str(valuelist[0]).strip():
            return
        try:
            self.data = read_figure(
                str(valuelist[0]), current_language(), negative=self.minimum < 0
            )
        except Unreadable as error:
            if error.negative:
                raise ValueError(range_message(self.minimum, self.maximum)) from None
            raise ValueError(
                unreadable_message(negative=self.minimum < 0, example=self.example)
            ) from None

    def post_validate(self, form: Form, validation_stopped: bool) -> None:
        if validation_stopped or self.data is None:
            return
        if not self.minimum <= self.data <= self.maximum:
            raise ValidationError(range_message(self.minimum, self.maximum))


def read_arg(text: str | None, *, default: int, minimum: int, maximum: int) -> tuple[int, str]:
    """A rule tool's figure from its query string (left out: ``default``), as a field
    reads it, and the message when it cannot be used ("" when it can)."""
    if text is None or not text.strip():
        return default, ""
    try:
        value = read_figure(text, current_language(), negative=minimum < 0)
    except Unreadable as error:
        if error.negative:
            return default, range_message(minimum, maximum)
        return default, unreadable_message(negative=minimum < 0, example=1500)
    if not minimum <= value <= maximum:
        return default, range_message(minimum, maximum)
    return value, ""


class PointsField(StringField):
    """Card points: a whole number, or a sum such as ``120+35+15`` counted at the table,
    each part typed as the page's language writes numbers."""

    def __init__(self, label: str, **kwargs: Any) -> None:
        render_kw = {"inputmode": "numeric", "autocomplete": "off", "enterkeyhint": "next"}
        super().__init__(label, render_kw=render_kw, **kwargs)
        self.points: int = 0

    def pre_validate(self, form: Form) -> None:
        text = (self.data or "").strip()
        self.points = 0
        if not text:
            return
        try:
            self.points = read_sum(text, current_language())
        except Unreadable as error:
            if error.negative:
                raise ValidationError(
                    _("%(figure)s cannot be negative.", figure=self.label.text)
                ) from None
            raise ValidationError(
                _(
                    "%(figure)s: type a number such as 120, or a sum such as 120+35.",
                    figure=self.label.text,
                )
            ) from None
        if self.points > MAX_FIGURE:
            raise ValidationError(
                _(
                    "%(figure)s of %(value)s is more than any deal holds.",
                    figure=self.label.text,
                    value=number(self.points),
                )
            )


class CountField(FigureField):
    """A small count with - and + buttons beside it (canastas, red threes); empty is 0."""

    def __init__(self, label: str, **kwargs: Any) -> None:
        super().__init__(
            label, default=0, maximum=MAX_CANASTAS, example=1, render_kw={"min": 0}, **kwargs
        )

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = 0
        if not valuelist or not str(valuelist[0]).strip():
            return
        try:
            self.data = read_figure(str(valuelist[0]), current_language())
        except Unreadable as error:
            self.data = None
            if error.negative:
                raise ValueError(_("From 0 to %(max)s.", max=self.maximum)) from None
            raise ValueError(
                _("%(figure)s: type a whole number, such as 1.", figure=self.label.text)
            ) from None

    def post_validate(self, form: Form, validation_stopped: bool) -> None:
        if not validation_stopped and self.data is not None and self.data > self.maximum:
            raise ValidationError(_("From 0 to %(max)s.", max=self.maximum))
