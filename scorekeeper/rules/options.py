"""House rules (RULES.md section 6): the options a table may set, read into a rule set
(``apply_options``) and written back out of one (``options_of``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .limits import MAX_BONUS, MAX_TARGET
from .text import N_, T
from .variants import CanastaKind, MeldTier, OptionError, RuleSet, frozen

#: Boolean house options (RULES.md sections 2 and 4).
_BOOLEAN_OPTIONS = (
    "wilds_may_outnumber_naturals",
    "black_three_freezes",
    "concealed_canasta_bonus",
)
#: The concealed-canasta house rule's bonus per canasta (RULES.md section 4).
CONCEALED_CANASTA_BONUS = 100
#: Point options: the canasta bonuses, then the other bonuses (RULES.md section 6).
_CANASTA_OPTIONS = {f"{kind.value}_canasta_bonus": kind for kind in CanastaKind}
_BONUS_OPTIONS = (
    "red_three_bonus",
    "all_red_threes_bonus",
    "going_out_bonus",
    "concealed_going_out_bonus",
)
#: Black-three options, for the rule sets that score black threes apart (section 10).
_BLACK_THREE_OPTIONS = {
    "black_three_penalty": "black_three_penalty",
    "black_three_taken_bonus": "black_three_taken_bonus",
    "all_black_threes_taken_bonus": "black_three_taken_bonus",
}
#: Most canastas a table may ask before going out: more than a side ever melds.
MOST_CANASTAS_TO_GO_OUT = 10

OPTION_NAMES = (
    "target",
    *_CANASTA_OPTIONS,
    *_BONUS_OPTIONS,
    *_BLACK_THREE_OPTIONS,
    "canastas_to_go_out",
    "meld_minimums",
    *_BOOLEAN_OPTIONS,
)


def _points(name: str, value: object, *, low: int, high: int, what: str) -> int:
    noun = T(what)
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(name, T("The %(what)s must be a whole number of points.", what=noun))
    if not low <= value <= high:
        raise OptionError(
            name,
            T("The %(what)s must be between %(low)s and %(high)s.", what=noun, low=low, high=high),
        )
    if value % 5:
        raise OptionError(
            name, T("The %(what)s must be a multiple of 5, like every score.", what=noun)
        )
    return value


def _tiers(value: object) -> tuple[MeldTier, ...]:
    """The initial-meld table as the API writes it: ``[{"from": null, "minimum": 15},
    {"from": 0, "minimum": 50}, ...]``, lowest tier first."""
    name = "meld_minimums"
    if not isinstance(value, list) or not value:
        raise OptionError(name, T("The minimum table is a list of tiers, lowest first."))
    tiers: list[MeldTier] = []
    for index, tier in enumerate(value):
        if not isinstance(tier, dict) or set(tier) != {"from", "minimum"}:
            raise OptionError(name, T('Each tier is {"from": total or null, "minimum": points}.'))
        start = tier["from"]
        for written in (start, tier["minimum"]):
            if isinstance(written, str):
                # A shared link's table with a word for a number (``1500:xx``).
                shown = written if len(written) <= 20 else f"{written[:19]}…"
                raise OptionError(name, T('"%(value)s" is not a number.', value=shown))
        if index == 0 and start is not None:
            # The bottom tier reaches down to every total.
            raise OptionError(name, T("The first tier starts from null (every total below)."))
        if index > 0:
            start = _points(name, start, low=-MAX_TARGET, high=MAX_TARGET, what=N_("tier's total"))
            previous = tiers[-1].from_total
            if previous is not None and start <= previous:
                raise OptionError(name, T("The tiers' totals must rise from one tier to the next."))
        minimum = _points(name, tier["minimum"], low=0, high=MAX_BONUS, what=N_("minimum"))
        if tiers and minimum < tiers[-1].minimum:
            raise OptionError(name, T("A higher tier cannot need a smaller minimum."))
        tiers.append(MeldTier(start, minimum))
    return tuple(tiers)


def apply_options(rules: RuleSet, options: Mapping[str, object]) -> RuleSet:
    """Return ``rules`` with a table's house rules applied (RULES.md section 6).

    Raises ``OptionError`` naming the first option that is unknown or out of range.
    """
    changes: dict[str, object] = {}
    bonuses = dict(rules.canasta_bonuses)
    red_three_totals = dict(rules.red_three_totals)
    black_threes_taken_totals = dict(rules.black_threes_taken_totals)
    for name, value in options.items():
        if name == "target":
            changes["target"] = _points(name, value, low=5, high=MAX_TARGET, what=N_("target"))
        elif name in _CANASTA_OPTIONS:
            kind = _CANASTA_OPTIONS[name]
            if kind not in bonuses:
                raise OptionError(
                    name,
                    T(
                        "%(rules)s has no %(kind)s canastas.",
                        rules=T(rules.name),
                        kind=T(rules.canasta_name(kind).word),
                    ),
                )
            bonuses[kind] = _points(name, value, low=0, high=MAX_BONUS, what=N_("bonus"))
        elif name in _BLACK_THREE_OPTIONS:
            if getattr(rules, _BLACK_THREE_OPTIONS[name]) is None:
                raise OptionError(
                    name,
                    T("%(rules)s does not score black threes apart.", rules=T(rules.name)),
                )
            points = _points(name, value, low=0, high=MAX_BONUS, what=N_("bonus"))
            if name == "all_black_threes_taken_bonus":
                black_threes_taken_totals[rules.black_threes_in_packs] = points
            else:
                changes[name] = points
        elif name == "canastas_to_go_out":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(name, T("The canastas to go out are a whole number."))
            least = max(1, len(rules.kinds_to_go_out))
            if not least <= value <= MOST_CANASTAS_TO_GO_OUT:
                raise OptionError(
                    name,
                    T(
                        "The canastas to go out must be between %(low)s and %(high)s.",
                        low=least,
                        high=MOST_CANASTAS_TO_GO_OUT,
                    ),
                )
            changes[name] = value
        elif name == "all_red_threes_bonus":
            points = _points(name, value, low=0, high=MAX_BONUS, what=N_("bonus"))
            red_three_totals[rules.max_red_threes] = points
        elif name == "concealed_going_out_bonus" and value is None:
            changes[name] = None
        elif name in _BONUS_OPTIONS:
            changes[name] = _points(name, value, low=0, high=MAX_BONUS, what=N_("bonus"))
        elif name == "meld_minimums":
            changes[name] = _tiers(value)
        elif name in _BOOLEAN_OPTIONS:
            if not isinstance(value, bool):
                raise OptionError(
                    name, T("The option %(name)s is either true or false.", name=name)
                )
            if name == "concealed_canasta_bonus":
                changes[name] = CONCEALED_CANASTA_BONUS if value else 0
            else:
                changes[name] = value
        else:
            raise OptionError(name, T("There is no house option called %(name)s.", name=repr(name)))
    changes["canasta_bonuses"] = frozen(bonuses)
    changes["red_three_totals"] = frozen(red_three_totals)
    changes["black_threes_taken_totals"] = frozen(black_threes_taken_totals)
    return replace(rules, **changes)  # type: ignore[arg-type]


def options_of(rules: RuleSet) -> dict[str, object]:
    """Every house option in force, as a table would name them (``apply_options`` of
    this gives the same rule set)."""
    options: dict[str, object] = {"target": rules.target}
    for kind, bonus in rules.canasta_bonuses.items():
        options[f"{kind.value}_canasta_bonus"] = bonus
    options["red_three_bonus"] = rules.red_three_bonus
    if rules.max_red_threes in rules.red_three_totals:
        options["all_red_threes_bonus"] = rules.red_three_totals[rules.max_red_threes]
    options["going_out_bonus"] = rules.going_out_bonus
    options["concealed_going_out_bonus"] = rules.concealed_going_out_bonus
    if rules.black_three_penalty is not None:
        options["black_three_penalty"] = rules.black_three_penalty
    if rules.black_three_taken_bonus is not None:
        options["black_three_taken_bonus"] = rules.black_three_taken_bonus
        if rules.black_threes_in_packs in rules.black_threes_taken_totals:
            options["all_black_threes_taken_bonus"] = rules.black_threes_taken_totals[
                rules.black_threes_in_packs
            ]
    options["canastas_to_go_out"] = rules.canastas_to_go_out
    options["meld_minimums"] = [
        {"from": tier.from_total, "minimum": tier.minimum} for tier in rules.meld_minimums
    ]
    options["wilds_may_outnumber_naturals"] = rules.wilds_may_outnumber_naturals
    options["black_three_freezes"] = rules.black_three_freezes
    options["concealed_canasta_bonus"] = rules.concealed_canasta_bonus > 0
    return options
