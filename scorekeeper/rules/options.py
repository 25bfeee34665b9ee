"""House rules (RULES.md section 6): the options a table may set, read into a rule set
(``apply_options``) and written back out of one (``options_of``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .kinds import SPECIAL_HAND_NAMES, CanastaKind, MeldTier, frozen
from .limits import MAX_BONUS, MAX_DEALS, MAX_TARGET
from .ruleset import OptionError, RuleSet
from .text import N_, T

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

#: Options of the rule sets of RULES.md sections 13 to 15, and "minimum by deal" (any).
_PENALTY_SUFFIX = "_penalty"
_TABLE_OPTIONS = ("meld_minimums_by_deal", "deals", "special_hands", "contract")

OPTION_NAMES = (
    "target",
    *_TABLE_OPTIONS,
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


def _by_deal(value: object) -> tuple[int, ...]:
    """Minimums for deal 1, 2, 3 ... (``[50, 90, 120, 150]``); null or [] for none."""
    name = "meld_minimums_by_deal"
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_DEALS:
        raise OptionError(name, T("The minimums by deal are a list of points, deal 1 first."))
    return tuple(
        _points(name, minimum, low=0, high=MAX_BONUS, what=N_("minimum")) for minimum in value
    )


def _deals(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_DEALS:
        raise OptionError(
            "deals", T("The number of deals is a whole number from 1 to %(high)s.", high=MAX_DEALS)
        )
    return value


def _special_hands(rules: RuleSet, value: object) -> Mapping[str, int]:
    """The special hands a table recognises, with their values (Pagat's four: a smaller
    table; garbage at 2000)."""
    name = "special_hands"
    if not isinstance(value, dict):
        raise OptionError(name, T('The special hands are {"name": points, ...}.'))
    hands: dict[str, int] = {}
    for hand, points in value.items():
        if hand not in SPECIAL_HAND_NAMES:
            raise OptionError(name, T("There is no special hand called %(name)s.", name=repr(hand)))
        hands[hand] = _points(name, points, low=0, high=MAX_BONUS, what=N_("special hand"))
    return frozen(hands)


def _contract(rules: RuleSet, value: object) -> Mapping[CanastaKind, int]:
    """The canastas of each kind going out needs (``{"natural": 2, "mixed": 2}``)."""
    name = "contract"
    if not isinstance(value, dict):
        raise OptionError(name, T('The contract is {"kind": count, ...}.'))
    contract: dict[CanastaKind, int] = {}
    for written, count in value.items():
        kind = _CANASTA_OPTIONS.get(f"{written}_canasta_bonus")
        if kind is None or kind not in rules.canasta_bonuses:
            raise OptionError(
                name,
                T(
                    "%(rules)s has no such canastas: %(kind)s.",
                    rules=T(rules.name),
                    kind=repr(written),
                ),
            )
        if isinstance(count, bool) or not isinstance(count, int):
            raise OptionError(name, T("The canastas to go out are a whole number."))
        if not 0 <= count <= MOST_CANASTAS_TO_GO_OUT:
            raise OptionError(
                name,
                T(
                    "The canastas to go out must be between %(low)s and %(high)s.",
                    low=0,
                    high=MOST_CANASTAS_TO_GO_OUT,
                ),
            )
        if count:
            contract[kind] = count
    return frozen(contract)


def apply_options(rules: RuleSet, options: Mapping[str, object]) -> RuleSet:
    """Return ``rules`` with a table's house rules applied (RULES.md section 6).

    Raises ``OptionError`` naming the first option that is unknown or out of range.
    """
    changes: dict[str, object] = {}
    bonuses = dict(rules.canasta_bonuses)
    red_three_totals = dict(rules.red_three_totals)
    black_threes_taken_totals = dict(rules.black_threes_taken_totals)
    penalties = dict(rules.penalties)
    for name, value in options.items():
        if name == "target":
            changes["target"] = (
                None
                if value is None
                else _points(name, value, low=5, high=MAX_TARGET, what=N_("target"))
            )
        elif name == "meld_minimums_by_deal":
            changes[name] = _by_deal(value)
        elif name == "deals":
            changes[name] = _deals(value)
        elif name == "special_hands":
            changes[name] = _special_hands(rules, value)
        elif name == "contract":
            changes[name] = _contract(rules, value)
        elif name.endswith(_PENALTY_SUFFIX) and name[: -len(_PENALTY_SUFFIX)] in penalties:
            penalties[name[: -len(_PENALTY_SUFFIX)]] = _points(
                name, value, low=0, high=MAX_BONUS, what=N_("penalty")
            )
        elif name in _CANASTA_OPTIONS:
            kind = _CANASTA_OPTIONS[name]
            if kind not in bonuses and kind not in rules.house_canastas:
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
            least = max(1, sum(rules.contract.values()))
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
            if name == "concealed_going_out_bonus":
                changes["asks_concealed"] = True
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
    if "meld_minimums_by_deal" in options and "deals" not in options:
        # A game with minimums by deal ends after its last listed deal (RULES.md section 14).
        by_deal = changes["meld_minimums_by_deal"]
        changes["deals"] = len(by_deal) if by_deal else rules.deals  # type: ignore[arg-type]
    target = changes.get("target", rules.target)
    if target is None and changes.get("deals", rules.deals) is None:
        raise OptionError("target", T("A game needs a target or a number of deals."))
    changes["penalties"] = frozen(penalties)
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
    for figure, points in rules.penalties.items():
        options[f"{figure}{_PENALTY_SUFFIX}"] = points
    if rules.special_hands:
        options["special_hands"] = dict(rules.special_hands)
    if rules.contract:
        options["contract"] = {kind.value: count for kind, count in rules.contract.items()}
    options["canastas_to_go_out"] = rules.canastas_to_go_out
    options["meld_minimums"] = [
        {"from": tier.from_total, "minimum": tier.minimum} for tier in rules.meld_minimums
    ]
    if rules.meld_minimums_by_deal:
        options["meld_minimums_by_deal"] = list(rules.meld_minimums_by_deal)
    if rules.deals is not None:
        options["deals"] = rules.deals
    options["wilds_may_outnumber_naturals"] = rules.wilds_may_outnumber_naturals
    options["black_three_freezes"] = rules.black_three_freezes
    options["concealed_canasta_bonus"] = rules.concealed_canasta_bonus > 0
    return options
