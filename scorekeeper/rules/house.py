"""House rules against the book: where a table's rules differ from its rule set as
published, and the query that sets the same house rules on another phone's new-game page.

Both read ``options_of`` and nothing else (RULES.md section 6: every house rule is an
option of the rule set), key by key: an option that ``options_of`` learns is compared and
shared with no change here.

A shared value is written as short as it reads back the same: a number as its digits, a
switch as ``true`` or ``false``, the initial-meld table as ``15,0:50,1500:90,3000:120``
(each tier ``from:minimum``, the bottom tier its minimum alone); anything else as compact
JSON.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .options import apply_options, options_of
from .ruleset import OptionError, RuleSet

#: The new-game page's query parameters that are not house options: the rule set, and the
#: number of players where the rule set lets the table choose (Railroad: 2 or more; Hand
#: and Foot: 4 or 6).
VARIANT = "variant"
PLAYERS = "players"
#: Names a house option may not take, since the new-game page reads them otherwise
#: (``from``: "new game, same players").
RESERVED = frozenset({VARIANT, PLAYERS, "from"})

#: The initial-meld table as a shared value: tiers ``from:minimum``, separated by commas.
_TIERS = re.compile(r"(?:-?\d{1,9}:)?\d{1,9}(?:,(?:-?\d{1,9}:)?\d{1,9})*")
#: One number of such a table.
_NUMBER = re.compile(r"-?\d{1,9}")
_TIER_KEYS = frozenset({"from", "minimum"})


@dataclass(frozen=True)
class Difference:
    """One house option a table plays otherwise than the rule set as published.

    ``published`` is None where the published rule set has no value for the option (for
    example no bonus for all the red threes); otherwise both are as ``options_of`` gives
    them.
    """

    option: str
    published: object
    table: object


@dataclass(frozen=True)
class SharedRules:
    """What a new-game page makes of a shared query: the rule set with the house options
    it could use, those options, and an ``OptionError`` for each one it could not."""

    rules: RuleSet
    options: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    refused: tuple[OptionError, ...] = ()


def _same(one: object, other: object) -> bool:
    """Equal as a table means it: ``True`` is not the number 1 (JSON tells them apart)."""
    return json.dumps(one, sort_keys=True, default=repr) == json.dumps(
        other, sort_keys=True, default=repr
    )


def differences(rules: RuleSet, published: RuleSet) -> list[Difference]:
    """Every house option where ``rules`` (a table's) differs from ``published`` (its rule
    set as the book has it), in the order ``options_of`` lists them; an option only the
    table has comes after those of the book."""
    table = options_of(rules)
    book = options_of(published)
    names = [*book, *(name for name in table if name not in book)]
    return [
        Difference(name, book.get(name), table.get(name))
        for name in names
        if not _same(book.get(name), table.get(name))
    ]


def _is_tiers(value: object) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(tier, dict) and set(tier) == _TIER_KEYS for tier in value)
    )


def _short(value: object) -> str | None:
    """The short writing of a value, where it has one (a string, the initial-meld table)."""
    if isinstance(value, str):
        return value
    if _is_tiers(value):
        assert isinstance(value, list)
        return ",".join(
            str(tier["minimum"]) if tier["from"] is None else f"{tier['from']}:{tier['minimum']}"
            for tier in value
        )
    return None


def encode_option(value: object) -> str:
    """A house option's value as a query parameter writes it (``decode_option`` reads
    it back the same)."""
    short = _short(value)
    if short is not None and _same(decode_option(short), value):
        return short
    return json.dumps(value, separators=(",", ":"), sort_keys=True, default=repr)


def decode_option(text: str) -> object:
    """A house option's value from a query parameter: the initial-meld table, a JSON value
    (number, ``true``, ``false``, ``null``, list, object), else the text as it is. Nothing
    here is checked against the rules: ``apply_options`` does that."""
    if ("," in text or ":" in text) and _TIERS.fullmatch(text):
        tiers: list[dict[str, int | None]] = []
        for part in text.split(","):
            start, _, minimum = part.rpartition(":")
            tiers.append({"from": int(start) if start else None, "minimum": int(minimum)})
        return tiers
    try:
        value: object = json.loads(text)
    except (ValueError, RecursionError):
        # Not JSON (or too deeply nested to read): a table with a word in it, as a table
        # whose word stays a word (``15,0:50,1500:xx``: the rules then name the "xx"), or
        # a word, which no option takes today.
        if "," in text or ":" in text:
            return _tiers_with_words(text)
        return text
    return value


def _tiers_with_words(text: str) -> list[dict[str, int | str | None]]:
    """An initial-meld table written ``from:minimum,...`` in which some part is no number:
    each part a number where it is one, else the text as the link wrote it."""

    def part(written: str) -> int | str:
        return int(written) if _NUMBER.fullmatch(written) else written

    tiers: list[dict[str, int | str | None]] = []
    for tier in text.split(","):
        start, colon, minimum = tier.rpartition(":")
        tiers.append({"from": part(start) if colon else None, "minimum": part(minimum)})
    return tiers


def share_query(rules: RuleSet, published: RuleSet) -> dict[str, str]:
    """The new-game page's query that reproduces a table's house rules: the rule set's
    id, the table's size where the rule set lets it choose, and each option that differs
    from the book (``read_share_query`` of it, applied to ``published``, gives ``rules``).

    Raises ``ValueError`` when ``rules`` is not played from ``published`` (another rule
    set or table size), or when an option's name is one the page reads otherwise.
    """
    if rules.id != published.id or rules.sides != published.sides:
        raise ValueError(
            f"the table plays {rules.id} with {rules.sides} sides, "
            f"not {published.id} with {published.sides}"
        )
    query = {VARIANT: published.id}
    if published.sides_range is not None:
        query[PLAYERS] = str(published.players)
    for difference in differences(rules, published):
        if difference.option in RESERVED:
            raise ValueError(f"the house option {difference.option!r} cannot be shared")
        query[difference.option] = encode_option(difference.table)
    return query


#: Minimums by deal are applied with the number of deals as it stands: alone, they would
#: set the deals to their count, where a link that names no ``deals`` keeps the book's
#: (``read_share_query``).
_BY_DEAL = "meld_minimums_by_deal"
_DEALS = "deals"


def read_share_query(query: Mapping[str, str], published: RuleSet) -> SharedRules:
    """The house rules a shared query sets on ``published``: each option read and applied
    on its own, so that one the rules refuse (unknown, out of range, not a number) is set
    aside with its ``OptionError`` and the others still apply. ``variant`` and ``players``
    are the caller's to read (they choose ``published``)."""
    rules = published
    options: dict[str, object] = {}
    waiting = [(name, decode_option(text)) for name, text in query.items() if name not in RESERVED]
    errors: dict[str, OptionError] = {}
    # An option may need another first (no target needs a number of deals): those refused
    # are tried again after the others, until a round applies none.
    while waiting:
        refused: list[tuple[str, object]] = []
        for name, value in waiting:
            together = {_DEALS: rules.deals} if name == _BY_DEAL else {}
            try:
                rules = apply_options(rules, {name: value, **together})
            except OptionError as error:
                errors[name] = error
                refused.append((name, value))
                continue
            errors.pop(name, None)
            options.update({**together, name: value})
        if len(refused) == len(waiting):
            break
        waiting = refused
    return SharedRules(rules, MappingProxyType(options), tuple(errors.values()))
