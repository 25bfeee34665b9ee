"""What the tests of the rules checks share (tests/test_checks_rules.py and
tests/test_checks_play_rules.py): card shorthand and the shape of a reason a player reads."""

from __future__ import annotations

from hypothesis import settings

from scorekeeper.rules import (
    VARIANTS,
    Card,
    Rank,
    parse_cards,
)

RAILROAD = VARIANTS["railroad"]
#: Moderate and reproducible, and no example database written into the project tree.
SETTINGS = settings(max_examples=200, database=None, deadline=None)

NATURAL_RANKS = [r for r in Rank if r not in (Rank.JOKER, Rank.TWO, Rank.THREE)]


def cards(text: str) -> tuple[Card, ...]:
    """Shorthand: the cards of a notation string."""
    return parse_cards(text)


def is_sentence(reason: object) -> bool:
    """A reason a player reads: non-empty, starts with a capital or a number, ends with a
    full stop (in English; the engine's sentences are translatable ``Text``)."""
    text = str(reason).strip()
    return len(text) > 1 and (text[0].isupper() or text[0].isdigit()) and text.endswith(".")
