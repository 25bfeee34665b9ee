"""A table's house rules in words, and the link that shares them (issue 30): each house
option's name and value as the pages write them, the lines "Target: 5,000 as published,
3,000 at this table", and the new-game address that fills the same rules in."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode

from flask import url_for
from flask_babel import LazyString
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..i18n import number, render_text
from ..rules import (
    CanastaKind,
    OptionError,
    RuleSet,
    SharedRules,
    differences,
    encode_option,
    read_share_query,
    share_query,
)
from ..rules.kinds import CANASTA_NAMES, SPECIAL_HAND_NAMES
from ..rules.scoring import FIGURE_NAMES

#: Each house option as the pages name it; an option missing here (one the rules learnt
#: since) is named after itself (``option_label``), so it still shows.
OPTION_LABELS: Mapping[str, LazyString] = {
    "target": _l("Target"),
    "natural_canasta_bonus": _l("Natural canasta"),
    "mixed_canasta_bonus": _l("Mixed canasta"),
    "wild_canasta_bonus": _l("Wild canasta"),
    "sevens_canasta_bonus": _l("Sevens canasta"),
    "sequence_canasta_bonus": _l("Sequence canasta (samba, escalera)"),
    "deuce_canasta_bonus": _l("Seven-twos canasta"),
    "joker_canasta_bonus": _l("Four-jokers canasta"),
    "black_three_penalty": _l("Each black three left in hand (minus)"),
    "black_three_taken_bonus": _l("Each black three taken with the pile"),
    "all_black_threes_taken_bonus": _l("All black threes taken by one side"),
    "canastas_to_go_out": _l("Canastas needed to go out"),
    "red_three_bonus": _l("Each red three"),
    "all_red_threes_bonus": _l("All red threes to one side"),
    "going_out_bonus": _l("Going out"),
    "concealed_going_out_bonus": _l("Extra for going out concealed"),
    "meld_minimums": _l("Initial-meld minimums"),
    "wilds_may_outnumber_naturals": _l("Wild cards may outnumber natural cards in a meld"),
    "black_three_freezes": _l("A black three on the pile freezes it"),
    "concealed_canasta_bonus": _l("+100 for each canasta melded whole from the hand"),
    # RULES.md sections 13 to 15.
    "aces_canasta_bonus": _l("Aces canasta"),
    "semi_natural_canasta_bonus": _l("Semi-natural canasta (Burraco's semi-clean burraco)"),
    "meld_minimums_by_deal": _l("Initial-meld minimums by deal"),
    "deals": _l("Deals in a game"),
    "special_hands": _l("Special hands"),
    "contract": _l("Canastas going out needs, by kind"),
    "unfinished_aces_penalty": _l("Unfinished aces meld (minus)"),
    "unfinished_sevens_penalty": _l("Unfinished sevens meld (minus)"),
    "unfinished_wild_penalty": _l("Unfinished wild meld (minus)"),
    "aces_or_sevens_held_penalty": _l("Three aces or sevens held (minus)"),
    "red_threes_in_hand_penalty": _l("Each red three left in a hand or foot (minus)"),
    "pot_missed_penalty": _l("Pot never taken (minus)"),
}

#: The longest share query kept in a page's hidden field (its values come back in a post).
MAX_KEPT = 2000


#: A penalty's option is its figure's name with this ending (``unfinished_wild_penalty``).
PENALTY = "_penalty"


def option_label(name: str) -> str:
    """A house option's name in the reader's language (``black_three_penalty``, unknown
    here: "Black three penalty"); a penalty is its figure's ("Unfinished wild meld (minus)")."""
    label = OPTION_LABELS.get(name)
    if label is not None:
        return str(label)
    figure = FIGURE_NAMES.get(name.removesuffix(PENALTY)) if name.endswith(PENALTY) else None
    if figure is not None:
        return _("%(figure)s (minus)", figure=_(figure))
    return name.replace("_", " ").capitalize()


def _tier(tier: Mapping[str, object]) -> str:
    minimum, start = tier.get("minimum"), tier.get("from")
    if not isinstance(minimum, int):
        return str(minimum)
    if not isinstance(start, int):
        return number(minimum)
    return _("%(minimum)s from %(total)s", minimum=number(minimum), total=number(start))


def _entry(key: str, item: object, rules: RuleSet | None) -> str:
    """One entry of an option that maps names to numbers: a special hand and its value
    ("Straight 3,000"), or a kind of canasta and how many going out needs ("2 × clean
    book", under the rule set's names where it is known)."""
    if key in SPECIAL_HAND_NAMES:
        return f"{_(SPECIAL_HAND_NAMES[key])} {option_value(item)}"
    kind = next((kind for kind in CanastaKind if kind.value == key), None)
    if kind is None:
        return f"{key} {option_value(item)}"
    name = rules.canasta_name(kind) if rules is not None else CANASTA_NAMES[kind]
    return _("%(count)s × %(kind)s", count=option_value(item), kind=_(name.word))


def option_value(value: object, rules: RuleSet | None = None) -> str:
    """A house option's value as the pages write it: numbers grouped (5,000), a switch
    yes or no, the initial-meld table tier by tier ("15 · 50 from 0 · 90 from 1,500"),
    named numbers one by one ("Pairs 2,500 · Straight 3,000"; "2 × clean book")."""
    if isinstance(value, Mapping):
        return " · ".join(_entry(str(key), item, rules) for key, item in value.items())
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("none")
    if isinstance(value, int):
        return number(value)
    if isinstance(value, list):
        return " · ".join(
            _tier(item) if isinstance(item, Mapping) else option_value(item) for item in value
        )
    return str(value)


def difference_lines(rules: RuleSet, published: RuleSet) -> list[str]:
    """Where a table's rules differ from its rule set as published, one line each."""
    return [
        _(
            "%(option)s: %(published)s as published, %(table)s at this table",
            option=option_label(difference.option),
            published=option_value(difference.published, published),
            table=option_value(difference.table, rules),
        )
        for difference in differences(rules, published)
    ]


def share_path(rules: RuleSet, published: RuleSet) -> str:
    """The new-game page with a table's rule set and house rules filled in."""
    query: dict[str, Any] = dict(share_query(rules, published))
    return url_for("web.create", **query)


def refusal_line(error: OptionError) -> str:
    """A shared house rule the page could not use, named, with the rules' reason."""
    return _(
        "%(option)s from the shared link was left out: %(reason)s",
        option=option_label(error.option),
        reason=render_text(error.text),
    )


def kept_text(options: Mapping[str, object]) -> str:
    """House options written for the page's hidden field (as a share query writes them)."""
    return urlencode({name: encode_option(value) for name, value in options.items()})


def read_kept(text: str | None, published: RuleSet) -> SharedRules:
    """The house options of the page's hidden field, read as a shared query is."""
    try:
        pairs = parse_qsl((text or "")[:MAX_KEPT], keep_blank_values=True, max_num_fields=100)
    except ValueError:  # more fields than any rule set has options: not this page's own
        pairs = []
    return read_share_query(dict(pairs), published)
