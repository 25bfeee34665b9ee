"""Sentences for people, kept translatable: the engine speaks English, and the web layer
renders the same sentence in the player's language.

``T("... %(name)s ...", name=value)`` is a sentence; ``P(singular, plural, n, ...)`` one
whose words follow a number (Russian, Slovak and Macedonian have several plural forms).
Both are extraction keywords for Babel; values may themselves be sentences (or tuples of
them, written as a list), and are translated too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

#: gettext and ngettext, as the caller's language has them (identity for English).
Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _same(text: str) -> str:
    return text


def _same_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


@dataclass(frozen=True)
class Text:
    """A sentence with its values apart; ``str()`` gives the English."""

    template: str
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    plural: str | None = None
    #: The value a plural sentence's form follows.
    count: int = 0

    def render(self, gettext: Gettext = _same, ngettext: Ngettext = _same_plural) -> str:
        """The sentence in the language of ``gettext`` / ``ngettext``."""
        values = {name: _value(value, gettext, ngettext) for name, value in self.params.items()}
        if self.plural is not None:
            pattern = ngettext(self.template, self.plural, self.count)
            values.setdefault("num", self.count)
        else:
            pattern = gettext(self.template)
        return pattern % values if values else pattern

    def __str__(self) -> str:
        return self.render()


def _value(value: object, gettext: Gettext, ngettext: Ngettext) -> object:
    if isinstance(value, Text):
        return value.render(gettext, ngettext)
    if isinstance(value, tuple):
        return ", ".join(str(_value(item, gettext, ngettext)) for item in value)
    return value


def T(template: str, /, **params: object) -> Text:
    """A sentence to translate, with named values."""
    return Text(template, MappingProxyType(params))


def P(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A sentence whose words follow ``count`` (``%(num)s`` in the sentence is the count)."""
    return Text(singular, MappingProxyType({"num": count, **params}), plural, count)


def N_(text: str) -> str:
    """Marks a word or name for translation where it is defined; translated where shown."""
    return text
