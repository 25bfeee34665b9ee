"""Checking that a deal entry could have happened at the table (RULES.md section 7): each
figure on its own, each side's figures together, and the deal's sides against the packs.
A refusal is a list of ``Violation``: the figure at fault, a rule code and a sentence."""

from __future__ import annotations

from collections.abc import Sequence

from .kinds import CANASTA_KINDS, WILD_KINDS, CanastaKind
from .limits import MAX_CANASTAS, MAX_FIGURE, most_of
from .ruleset import RuleSet
from .scoring import INTEGER_FIELDS, SideResult, figure_name
from .table_checks import deal_checks, figure_checks
from .text import N_, P, T, Text
from .violations import Severity, Violation, path

__all__ = ["Severity", "Violation", "errors_of", "validate_deal", "warnings_of"]


#: What each figure may be at most, and the step it comes in (points: 5; counts: 1).
_LIMITS = {name: most_of(name) for name in INTEGER_FIELDS}
_STEPS = {name: 5 if name.endswith("_points") else 1 for name in INTEGER_FIELDS}


def _figure_violations(side: int, result: SideResult, rules: RuleSet) -> list[Violation]:
    """Each figure on its own: whole, not negative, not absurd, multiple of 5 for points."""
    found: list[Violation] = []
    for name in INTEGER_FIELDS:
        value = getattr(result, name)
        if type(value) is int and 0 <= value <= _LIMITS[name] and not value % _STEPS[name]:
            continue  # the usual case: nothing to say (the label is worded only if needed)
        where = path(side, name)
        label = T(figure_name(rules, name))
        if isinstance(value, bool) or not isinstance(value, int):
            found.append(
                Violation(
                    where, "not_a_number", T("%(figure)s must be a whole number.", figure=label)
                )
            )
        elif value < 0:
            found.append(
                Violation(where, "negative", T("%(figure)s cannot be negative.", figure=label))
            )
        elif name.endswith("_points"):
            if value > MAX_FIGURE:
                found.append(
                    Violation(
                        where,
                        "too_large",
                        T(
                            "%(figure)s of %(value)s is more than any deal holds.",
                            figure=label,
                            value=value,
                        ),
                    )
                )
            elif value % 5:
                found.append(
                    Violation(
                        where,
                        "multiple_of_5",
                        T(
                            "%(figure)s must be a multiple of 5: "
                            "every card counts 5, 10, 20 or 50.",
                            figure=label,
                        ),
                    )
                )
        elif value > MAX_CANASTAS:
            found.append(
                Violation(
                    where,
                    "too_large",
                    T(
                        "%(figure)s: %(value)s is more than the cards allow.",
                        figure=label,
                        value=value,
                    ),
                )
            )
    return found


def validate_deal(
    results: Sequence[SideResult],
    rules: RuleSet,
    *,
    minimums: Sequence[int] | None = None,
) -> list[Violation]:
    """Check a deal entry against RULES.md section 7.

    Returns every violation found, errors and warnings; an entry with no error can be
    scored. ``minimums`` are the sides' initial-meld minimums for this deal, when known.
    """
    if len(results) != rules.sides:
        return [
            Violation(
                "results",
                "sides",
                T(
                    "A deal of %(rules)s has one result per side: %(sides)s, not %(given)s.",
                    rules=T(rules.name),
                    sides=rules.sides,
                    given=len(results),
                ),
            )
        ]
    found: list[Violation] = []
    for side, result in enumerate(results):
        found += _figure_violations(side, result, rules)
    if found:
        return found
    for side, result in enumerate(results):
        found += figure_checks(side, result, rules)
    if found:
        # Later checks do arithmetic on the figures; they need sound figures first.
        return found

    red_threes = 0
    sides_out = 0
    for side, result in enumerate(results):
        found += _side_violations(side, result, rules, minimums[side] if minimums else None)
        red_threes += result.red_threes + result.red_threes_in_hand
        if result.went_out:
            sides_out += 1
            if sides_out > 1:
                found.append(
                    Violation(
                        path(side, "went_out"),
                        "one_goes_out",
                        T(
                            "Only one side can go out: "
                            "the deal ends when the first player goes out."
                        ),
                    )
                )
    too_many_on_one_side = any(
        r.red_threes + r.red_threes_in_hand > rules.max_red_threes for r in results
    )
    if red_threes > rules.max_red_threes and not too_many_on_one_side:
        # Named at the last side that lists red threes: the figure most likely mistyped.
        # (A side that alone lists too many is already refused, at that very field.)
        last = max(side for side, r in enumerate(results) if r.red_threes or r.red_threes_in_hand)
        found.append(
            Violation(
                path(last, "red_threes" if results[last].red_threes else "red_threes_in_hand"),
                "red_threes_total",
                P(
                    "There is only %(num)s red three in the cards; this deal lists %(listed)s.",
                    "There are only %(num)s red threes in the cards; this deal lists %(listed)s.",
                    rules.max_red_threes,
                    listed=red_threes,
                ),
            )
        )
    found += _table_violations(results, rules)
    found += deal_checks(results, rules)
    return found


def _side_violations(
    side: int, result: SideResult, rules: RuleSet, minimum: int | None
) -> list[Violation]:
    found: list[Violation] = []

    def error(figure: str, rule: str, text: Text) -> None:
        found.append(Violation(path(side, figure), rule, text))

    def warning(figure: str, rule: str, text: Text) -> None:
        found.append(Violation(path(side, figure), rule, text, Severity.WARNING))

    for kind in CANASTA_KINDS:
        if kind not in rules.canasta_bonuses and result.canastas(kind):
            error(
                kind.field,
                "no_such_canasta",
                T(
                    "%(rules)s has no %(kind)s canastas.",
                    rules=T(rules.name),
                    kind=T(rules.canasta_name(kind).word),
                ),
            )
    for figure, scored in (
        ("black_threes_in_hand", rules.black_three_penalty),
        ("black_threes_taken", rules.black_three_taken_bonus),
    ):
        if scored is None and getattr(result, figure):
            error(
                figure,
                "no_such_figure",
                T(
                    "%(rules)s does not score black threes apart: they are card points.",
                    rules=T(rules.name),
                ),
            )
    if result.black_threes_apart > rules.black_threes_in_packs:
        error(
            "black_threes_taken" if result.black_threes_taken else "black_threes_in_hand",
            "black_threes_side",
            P(
                "There is only %(num)s black three in the cards.",
                "There are only %(num)s black threes in the cards.",
                rules.black_threes_in_packs,
            ),
        )

    if result.red_threes + result.red_threes_in_hand > rules.max_red_threes:
        error(
            "red_threes" if result.red_threes else "red_threes_in_hand",
            "red_threes_side",
            P(
                "There is only %(num)s red three in the cards.",
                "There are only %(num)s red threes in the cards.",
                rules.max_red_threes,
            ),
        )

    least_points = sum(
        rules.canasta_least_points(kind) * result.canastas(kind) for kind in rules.canasta_kinds
    )
    if result.meld_points < least_points:
        error(
            "meld_points",
            "canastas_need_points",
            T(
                "The canastas listed hold at least %(least)s card points; "
                "meld points of %(meld)s cannot hold them.",
                least=least_points,
                meld=result.meld_points,
            ),
        )

    if result.went_out and result.special_hand is None:
        missing = rules.kinds_missing_to_go_out(
            {kind: result.canastas(kind) for kind in rules.canasta_kinds}
        )
        if missing is not None:
            error("went_out", "out_needs_kinds", missing)
        elif result.total_canastas < rules.canastas_to_go_out:
            error(
                "went_out",
                "out_needs_canastas",
                P(
                    "Going out needs a canasta on the side's table.",
                    "Going out needs %(num)s canastas on the side's table.",
                    rules.canastas_to_go_out,
                ),
            )
    if result.concealed:
        if not result.went_out:
            error(
                "concealed",
                "concealed_needs_out",
                T("Only the side that went out can have gone out concealed."),
            )
        elif rules.concealed_going_out_bonus is None:
            # Possible at the table, only not scored: it counts as going out.
            warning(
                "concealed",
                "no_concealed_out",
                T(
                    "%(rules)s has no bonus for going out concealed: it scores as going out.",
                    rules=T(rules.name),
                ),
            )

    if result.concealed_canastas:
        if rules.concealed_canasta_bonus == 0:
            error(
                "concealed_canastas",
                "concealed_canastas_off",
                T("This game does not play the concealed-canasta house rule."),
            )
        elif result.concealed_canastas > result.total_canastas:
            error(
                "concealed_canastas",
                "concealed_canastas_exceed",
                T("A side cannot have more concealed canastas than canastas."),
            )

    # Plausibility: a slip of the pen is likely, but the table has the last word.
    # A player who goes out concealed needs no minimum (RULES.md section 2).
    out_concealed = result.went_out and result.concealed
    if minimum is not None and result.melded and result.meld_points < minimum and not out_concealed:
        warning(
            "meld_points",
            "below_minimum",
            T(
                "The side's initial meld needed %(minimum)s; meld points of %(meld)s "
                "are less than that.",
                minimum=minimum,
                meld=result.meld_points,
            ),
        )
    if result.special_hand is not None:
        return found  # laid down whole: nothing in hand (checked in ``figure_checks``)
    holding = rules.players_per_side - (1 if result.went_out else 0)
    held = result.hand_points + rules.least_card_points * result.black_threes_in_hand
    if held < holding * rules.least_card_points:
        if result.went_out:
            warning(
                "hand_points",
                "partner_holds_cards",
                T(
                    "When a player goes out, the partners still hold cards: "
                    "their points are the hand points."
                ),
            )
        else:
            warning(
                "hand_points",
                "hand_not_empty",
                T(
                    "A side that did not go out still holds cards, worth at least %(least)s.",
                    least=holding * rules.least_card_points,
                ),
            )
    return found


#: Kinds bounded by the ranks and the canastas in all (``max_natural_canastas`` and
#: ``max_canastas``), checked before the kinds that need particular cards.
_RANK_KINDS = frozenset({CanastaKind.NATURAL, CanastaKind.MIXED})


def _table_violations(results: Sequence[SideResult], rules: RuleSet) -> list[Violation]:
    """Bounds over all sides together: the packs hold only so many canastas (an error) and
    so many card points (a warning: a miscount is likelier than a wrong deal, and the table
    may count its cards differently)."""
    found: list[Violation] = []
    naturals = sum(r.natural_canastas for r in results)
    canastas = sum(r.total_canastas for r in results)
    points = sum(r.meld_points + r.hand_points for r in results)
    if naturals > rules.max_natural_canastas:
        last = max(side for side, r in enumerate(results) if r.natural_canastas)
        found.append(
            Violation(
                path(last, "natural_canastas"),
                "natural_canastas_total",
                P(
                    "The cards make at most %(num)s natural canasta in all; "
                    "this deal lists %(listed)s.",
                    "The cards make at most %(num)s natural canastas in all; "
                    "this deal lists %(listed)s.",
                    rules.max_natural_canastas,
                    listed=naturals,
                ),
            )
        )
    elif canastas > rules.max_canastas:
        last = max(side for side, r in enumerate(results) if r.total_canastas)
        found.append(
            Violation(
                path(
                    last, "mixed_canastas" if results[last].mixed_canastas else "natural_canastas"
                ),
                "canastas_total",
                P(
                    "The cards make at most %(num)s canasta in all; this deal lists %(listed)s.",
                    "The cards make at most %(num)s canastas in all; this deal lists %(listed)s.",
                    rules.max_canastas,
                    listed=canastas,
                ),
            )
        )
    # Only so many twos, jokers, sevens and cards of a suit exist, for all sides together
    # (RULES.md sections 7 and 10); canastas of wild cards alone share the wild cards.
    kinds = [kind for kind in rules.canasta_kinds if kind not in _RANK_KINDS]
    groups: list[tuple[tuple[CanastaKind, ...], int]] = [
        ((kind,), rules.max_canastas_of(kind)) for kind in kinds
    ]
    wild = tuple(kind for kind in kinds if kind in WILD_KINDS)
    if len(wild) > 1:
        groups.append((wild, rules.max_wild_canastas))
    for group, most in groups:
        listed = sum(r.canastas(kind) for r in results for kind in group)
        if listed <= most:
            continue
        last = max(side for side, r in enumerate(results) if any(r.canastas(k) for k in group))
        kind = next(k for k in reversed(group) if results[last].canastas(k))
        word = T(rules.canasta_name(group[0]).word) if len(group) == 1 else T(N_("wild"))
        found.append(
            Violation(
                path(last, kind.field),
                f"{group[0].value if len(group) == 1 else 'wild'}_canastas_cards",
                P(
                    "The cards make at most %(num)s %(kind)s canasta in all; "
                    "this deal lists %(listed)s.",
                    "The cards make at most %(num)s %(kind)s canastas in all; "
                    "this deal lists %(listed)s.",
                    most,
                    kind=word,
                    listed=listed,
                ),
            )
        )
        break
    black_threes = sum(r.black_threes_apart for r in results)
    if black_threes > rules.black_threes_in_packs and all(
        r.black_threes_apart <= rules.black_threes_in_packs for r in results
    ):
        last = max(side for side, r in enumerate(results) if r.black_threes_apart)
        found.append(
            Violation(
                path(
                    last,
                    "black_threes_taken"
                    if results[last].black_threes_taken
                    else "black_threes_in_hand",
                ),
                "black_threes_total",
                P(
                    "There is only %(num)s black three in the cards; this deal lists %(listed)s.",
                    "There are only %(num)s black threes in the cards; this deal lists %(listed)s.",
                    rules.black_threes_in_packs,
                    listed=black_threes,
                ),
            )
        )
    if points > rules.max_card_points:
        found.append(
            Violation(
                "results",
                "card_points_total",
                T(
                    "All the cards together count %(all)s; melded and hand points add up to "
                    "%(points)s.",
                    all=rules.max_card_points,
                    points=points,
                ),
                Severity.WARNING,
            )
        )
    return found


def errors_of(violations: Sequence[Violation]) -> list[Violation]:
    return [v for v in violations if v.severity is Severity.ERROR]


def warnings_of(violations: Sequence[Violation]) -> list[Violation]:
    return [v for v in violations if v.severity is Severity.WARNING]
