"""Scoring one deal and checking a deal entry (RULES.md sections 2, 4, 6, 7 and 8).

Every expected number below is worked out by hand from RULES.md, never copied from a run of
the engine; the comment next to it shows the sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from scorekeeper.rules import (
    CLASSIC,
    OptionError,
    RuleSet,
    Severity,
    SideResult,
    Violation,
    apply_options,
    errors_of,
    score_breakdown,
    score_deal,
    score_side,
    validate_deal,
    warnings_of,
)

from .helpers.cases import CASE_A, CASE_B, CASE_C, CASE_D, CASE_E

#: Classic with the concealed-canasta house rule of RULES.md section 4.
CONCEALED_HOUSE = apply_options(CLASSIC, {"concealed_canasta_bonus": True})


#: An opponent that melded nothing, holds 50 and has no red three: fits beside every case.
BYSTANDER = SideResult(hand_points=50)


def found(violations: Sequence[Violation], severity: Severity) -> set[tuple[str, str]]:
    """The (field, rule) pairs of the violations of one severity."""
    return {(v.field, v.rule) for v in violations if v.severity is severity}


# --- RULES.md section 8: worked cases -------------------------------------------------


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        # A: 500 + 300 canastas + 100 red three + 100 out + 220 melded - 10 hand = 1210
        pytest.param(CASE_A, 1210, id="A"),
        # B: 200 red threes + 150 melded - 85 hand = 265
        pytest.param(CASE_B, 265, id="B"),
        # C: melded nothing, so red threes count -200; - 120 hand = -320
        pytest.param(CASE_C, -320, id="C"),
        # D: 2 x 500 + 800 (all four red threes) + 200 concealed + 310 - 15 = 2295
        pytest.param(CASE_D, 2295, id="D"),
        # E: 300 mixed canasta + 95 melded - 40 hand = 355
        pytest.param(CASE_E, 355, id="E"),
    ],
)
def test_worked_cases(result: SideResult, expected: int) -> None:
    """Section 8: the worked cases score as the rules text says."""
    assert score_side(result, CLASSIC) == expected
    assert score_breakdown(result, CLASSIC).total == expected


@pytest.mark.parametrize("case", [CASE_A, CASE_B, CASE_C, CASE_D, CASE_E], ids="ABCDE")
def test_worked_cases_are_valid_entries(case: SideResult) -> None:
    """Section 7: the worked cases are real deals, so checking them finds nothing to refuse
    (and, with an ordinary opponent and the 50 minimum, nothing to warn about either)."""
    violations = validate_deal([case, BYSTANDER], CLASSIC, minimums=(50, 50))
    assert errors_of(violations) == []
    assert warnings_of(violations) == []


def test_score_deal_scores_each_side_in_order() -> None:
    """Section 2: each side of a deal gets its own score, in side order."""
    # B: 265 (above); E: 355 (above).
    assert score_deal([CASE_B, CASE_E], CLASSIC) == (265, 355)
    assert score_deal([CASE_E, CASE_B], CLASSIC) == (355, 265)


# --- RULES.md section 2: the initial-meld minimum ------------------------------------


@pytest.mark.parametrize(
    ("total", "minimum"),
    [
        (-1000, 15),  # below 0
        (-5, 15),
        (0, 50),  # 0 to 1495
        (750, 50),
        (1495, 50),
        (1500, 90),  # 1500 to 2995
        (2995, 90),
        (3000, 120),  # 3000 or more
        (4995, 120),
        (10000, 120),
    ],
)
def test_meld_minimum_table(total: int, minimum: int) -> None:
    """Section 2: the initial-meld minimum follows the side's total at the start of the deal."""
    assert CLASSIC.meld_minimum(total, 1) == minimum


# --- RULES.md section 2: red threes -------------------------------------------------


@pytest.mark.parametrize(
    ("count", "melded_value"),
    [(0, 0), (1, 100), (2, 200), (3, 300), (4, 800)],  # 100 each; all four 800
)
def test_red_threes(count: int, melded_value: int) -> None:
    """Section 2: 100 per red three, 800 for all four; negative for a side that melded
    nothing (-100 each, -800 for four)."""
    melded = SideResult(meld_points=100, red_threes=count, hand_points=10)
    unmelded = SideResult(meld_points=0, red_threes=count, hand_points=10)
    assert score_breakdown(melded, CLASSIC).red_threes == melded_value
    assert score_breakdown(unmelded, CLASSIC).red_threes == -melded_value
    # Totals: 100 melded - 10 hand + red threes; 0 - 10 - red threes.
    assert score_side(melded, CLASSIC) == 90 + melded_value
    assert score_side(unmelded, CLASSIC) == -10 - melded_value


# --- RULES.md section 2: going out ---------------------------------------------------


def test_going_out_bonus() -> None:
    """Section 2: going out earns 100, going out concealed 200 in all, staying in nothing."""
    base = SideResult(meld_points=50, mixed_canastas=1, hand_points=10)
    out = replace(base, went_out=True)
    concealed = replace(out, concealed=True)
    assert score_breakdown(base, CLASSIC).going_out == 0
    assert score_breakdown(out, CLASSIC).going_out == 100
    assert score_breakdown(concealed, CLASSIC).going_out == 200
    # 300 mixed + 50 melded - 10 hand = 340, then + 100 or + 200.
    assert score_side(base, CLASSIC) == 340
    assert score_side(out, CLASSIC) == 440
    assert score_side(concealed, CLASSIC) == 540


# --- RULES.md section 4: the concealed-canasta house rule -----------------------------


@pytest.mark.parametrize(
    ("kind", "least_points", "bonus_with_house_rule"),
    [("mixed_canastas", 50, 400), ("natural_canastas", 35, 600)],  # 300 + 100, 500 + 100
)
def test_concealed_canasta_house_rule(
    kind: str, least_points: int, bonus_with_house_rule: int
) -> None:
    """Section 4: with the house rule, each canasta melded whole from the hand earns 100
    more: 400 mixed, 600 natural."""
    side = SideResult(meld_points=least_points, hand_points=10, concealed_canastas=1)
    side = replace(side, **{kind: 1})
    parts = score_breakdown(side, CONCEALED_HOUSE)
    assert parts.canastas + parts.concealed_canastas == bonus_with_house_rule
    assert score_side(side, CONCEALED_HOUSE) == bonus_with_house_rule + least_points - 10
    # Without the house rule the same canasta earns its plain bonus (100 less).
    assert score_side(side, CLASSIC) == bonus_with_house_rule - 100 + least_points - 10


def test_concealed_canasta_bonus_counts_each_canasta() -> None:
    """Section 4: the extra is per concealed canasta: two of them add 200."""
    side = SideResult(
        meld_points=100,
        natural_canastas=1,
        mixed_canastas=1,
        concealed_canastas=2,
        hand_points=20,
    )
    # 500 + 300 + 2 x 100 + 100 melded - 20 hand = 1080
    assert score_side(side, CONCEALED_HOUSE) == 1080


def test_house_rule_leaves_classic_alone() -> None:
    """Section 6: house rules override a game's rule set, not the variant itself."""
    assert CONCEALED_HOUSE is not CLASSIC
    side = SideResult(meld_points=50, mixed_canastas=1, concealed_canastas=1, hand_points=10)
    assert score_side(side, CLASSIC) == 340  # 300 + 50 - 10, no house-rule extra
    assert validate_deal([side, BYSTANDER], CONCEALED_HOUSE) == []


def test_target_option() -> None:
    """Section 6: a table may set its own target."""
    assert apply_options(CLASSIC, {"target": 3000}).target == 3000
    assert CLASSIC.target == 5000


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"no_such_option": True}, "no_such_option"),
        ({"target": 0}, "target"),
        ({"target": -5000}, "target"),
        ({"target": 5001}, "target"),
        ({"target": 4999}, "target"),
        ({"target": "5000"}, "target"),
        ({"target": True}, "target"),
        ({"concealed_canasta_bonus": 1}, "concealed_canasta_bonus"),
        ({"black_three_freezes": "yes"}, "black_three_freezes"),
        ({"wilds_may_outnumber_naturals": None}, "wilds_may_outnumber_naturals"),
    ],
)
def test_apply_options_refusals(options: dict[str, object], option: str) -> None:
    """Section 6: an unknown option, a target that is not a positive multiple of 5, or a
    flag that is not true/false is refused, naming the option at fault."""
    with pytest.raises(OptionError) as caught:
        apply_options(CLASSIC, options)
    assert caught.value.option == option


# --- RULES.md section 7: refusals ----------------------------------------------------

ERROR = Severity.ERROR
WARNING = Severity.WARNING


def test_baseline_entry_is_clean() -> None:
    """Section 7: the entry the refusal cases start from is itself a possible deal."""
    assert validate_deal([CASE_A, CASE_B], CLASSIC, minimums=(50, 50)) == []


@pytest.mark.parametrize(
    ("results", "rules", "expected"),
    [
        pytest.param(
            # 2 + 3 = 5 red threes, but two packs hold only 4.
            [replace(CASE_A, red_threes=2), replace(CASE_B, red_threes=3)],
            CLASSIC,
            # Named at the last side listing red threes, so the form marks that stepper.
            {("results.1.red_threes", "red_threes_total")},
            id="red_threes_total",
        ),
        pytest.param(
            [replace(CASE_A, red_threes=0), replace(CASE_B, red_threes=5)],
            CLASSIC,
            # Once, at that side's field: the total adds nothing (the page printed both).
            {("results.1.red_threes", "red_threes_side")},
            id="red_threes_side",
        ),
        pytest.param(
            [CASE_A, replace(CASE_B, natural_canastas=1, went_out=True)],
            CLASSIC,
            {("results.1.went_out", "one_goes_out")},
            id="one_goes_out",
        ),
        pytest.param(
            [replace(CASE_A, natural_canastas=0, mixed_canastas=0), CASE_B],
            CLASSIC,
            {("results.0.went_out", "out_needs_canastas")},
            id="out_needs_canastas",
        ),
        pytest.param(
            [CASE_A, replace(CASE_B, concealed=True)],
            CLASSIC,
            {("results.1.concealed", "concealed_needs_out")},
            id="concealed_needs_out",
        ),
        pytest.param(
            [CASE_A, replace(CASE_B, meld_points=152)],
            CLASSIC,
            {("results.1.meld_points", "multiple_of_5")},
            id="multiple_of_5-meld",
        ),
        pytest.param(
            [replace(CASE_A, hand_points=12), CASE_B],
            CLASSIC,
            {("results.0.hand_points", "multiple_of_5")},
            id="multiple_of_5-hand",
        ),
        pytest.param(
            [CASE_A, replace(CASE_B, meld_points=-10)],
            CLASSIC,
            {("results.1.meld_points", "negative")},
            id="negative-meld",
        ),
        pytest.param(
            [CASE_A, replace(CASE_B, hand_points=-5)],
            CLASSIC,
            {("results.1.hand_points", "negative")},
            id="negative-hand",
        ),
        pytest.param(
            [CASE_A, replace(CASE_B, red_threes=-1)],
            CLASSIC,
            {("results.1.red_threes", "negative")},
            id="negative-red-threes",
        ),
        pytest.param(
            [replace(CASE_A, mixed_canastas=-1), CASE_B],
            CLASSIC,
            {("results.0.mixed_canastas", "negative")},
            id="negative-canastas",
        ),
        pytest.param(
            # A natural canasta holds at least seven fours: 35.
            [CASE_A, replace(CASE_B, meld_points=30, natural_canastas=1)],
            CLASSIC,
            {("results.1.meld_points", "canastas_need_points")},
            id="canastas_need_points-natural",
        ),
        pytest.param(
            # A mixed canasta holds at least six fours and a two: 50.
            [CASE_A, replace(CASE_B, meld_points=45, mixed_canastas=1)],
            CLASSIC,
            {("results.1.meld_points", "canastas_need_points")},
            id="canastas_need_points-mixed",
        ),
        pytest.param(
            # One of each needs 35 + 50 = 85.
            [replace(CASE_A, meld_points=80), CASE_B],
            CLASSIC,
            {("results.0.meld_points", "canastas_need_points")},
            id="canastas_need_points-both",
        ),
        pytest.param(
            [replace(CASE_A, concealed_canastas=1), CASE_B],
            CLASSIC,
            {("results.0.concealed_canastas", "concealed_canastas_off")},
            id="concealed_canastas_off",
        ),
        pytest.param(
            # Case A has two canastas; three of them cannot be concealed.
            [replace(CASE_A, concealed_canastas=3), CASE_B],
            CONCEALED_HOUSE,
            {("results.0.concealed_canastas", "concealed_canastas_exceed")},
            id="concealed_canastas_exceed",
        ),
        pytest.param(
            [replace(CASE_A, meld_points=360, wild_canastas=1), CASE_B],
            CLASSIC,
            {("results.0.wild_canastas", "no_such_canasta")},
            id="no_such_canasta-wild",
        ),
        pytest.param(
            [CASE_A, replace(CASE_B, sevens_canastas=1)],
            CLASSIC,
            {("results.1.sevens_canastas", "no_such_canasta")},
            id="no_such_canasta-sevens",
        ),
        pytest.param([CASE_A], CLASSIC, {("results", "sides")}, id="sides-one"),
        pytest.param(
            [CASE_A, CASE_B, BYSTANDER], CLASSIC, {("results", "sides")}, id="sides-three"
        ),
        pytest.param(
            [CASE_A, replace(CASE_B, meld_points=10**30)],
            CLASSIC,
            {("results.1.meld_points", "too_large")},
            id="too_large-meld",
        ),
        pytest.param(
            [replace(CASE_A, hand_points=10**30), CASE_B],
            CLASSIC,
            {("results.0.hand_points", "too_large")},
            id="too_large-hand",
        ),
        pytest.param(
            [CASE_A, replace(CASE_B, red_threes=10**30)],
            CLASSIC,
            {("results.1.red_threes", "too_large")},
            id="too_large-red-threes",
        ),
        pytest.param(
            [replace(CASE_A, natural_canastas=10**30), CASE_B],
            CLASSIC,
            {("results.0.natural_canastas", "too_large")},
            id="too_large-canastas",
        ),
    ],
)
def test_refusals(
    results: list[SideResult], rules: RuleSet, expected: set[tuple[str, str]]
) -> None:
    """Section 7: an entry that cannot have happened is refused, naming the figure at fault
    and the rule it breaks, and nothing else is blamed."""
    assert found(validate_deal(results, rules), ERROR) == expected


@pytest.mark.parametrize(
    ("meld_points", "natural", "mixed"),
    [(35, 1, 0), (50, 0, 1), (85, 1, 1), (70, 2, 0)],  # 35 per natural, 50 per mixed
)
def test_canastas_with_just_enough_points(meld_points: int, natural: int, mixed: int) -> None:
    """Section 7: meld points exactly at what the canastas need are accepted."""
    side = SideResult(
        meld_points=meld_points, natural_canastas=natural, mixed_canastas=mixed, hand_points=20
    )
    assert errors_of(validate_deal([side, CASE_B], CLASSIC)) == []


def test_concealed_canastas_up_to_canastas_accepted() -> None:
    """Section 4: every canasta of the side may have been melded concealed."""
    side = replace(CASE_A, concealed_canastas=2)
    assert errors_of(validate_deal([side, CASE_B], CONCEALED_HOUSE)) == []


# --- RULES.md section 7: warnings ----------------------------------------------------


def test_meld_below_minimum_warns() -> None:
    """Section 7: a side that melded less than its minimum is flagged, not refused."""
    violations = validate_deal(
        [CASE_A, replace(CASE_B, meld_points=40)], CLASSIC, minimums=(50, 50)
    )
    assert found(violations, ERROR) == set()
    assert found(violations, WARNING) == {("results.1.meld_points", "below_minimum")}


def test_meld_at_minimum_does_not_warn() -> None:
    """Section 7: meld points equal to the minimum are enough (50 at a total of 0)."""
    violations = validate_deal(
        [CASE_A, replace(CASE_B, meld_points=50)], CLASSIC, minimums=(50, 50)
    )
    assert violations == []


def test_side_that_melded_nothing_has_no_minimum_warning() -> None:
    """Section 7: the minimum concerns a side that melded; case C melded nothing."""
    assert validate_deal([CASE_C, CASE_E], CLASSIC, minimums=(120, 50)) == []


def test_concealed_going_out_needs_no_minimum() -> None:
    """Section 2: going out concealed needs no minimum; going out openly still does."""
    stayed = replace(CASE_B, red_threes=0)
    concealed = replace(CASE_D, meld_points=100)  # 2 naturals need 70; short of 120
    violations = validate_deal([concealed, stayed], CLASSIC, minimums=(120, 50))
    assert violations == []
    openly = replace(concealed, concealed=False)
    violations = validate_deal([openly, stayed], CLASSIC, minimums=(120, 50))
    assert found(violations, ERROR) == set()
    assert found(violations, WARNING) == {("results.0.meld_points", "below_minimum")}


@pytest.mark.parametrize("hand_points", [0, 5])
def test_empty_hand_for_side_not_out_warns(hand_points: int) -> None:
    """Section 7: both partners of a side that did not go out hold a card: at least 10."""
    violations = validate_deal([CASE_A, replace(CASE_B, hand_points=hand_points)], CLASSIC)
    assert found(violations, ERROR) == set()
    assert found(violations, WARNING) == {("results.1.hand_points", "hand_not_empty")}


def test_two_cards_in_hand_do_not_warn() -> None:
    """Section 7: 10 hand points (a card of 5 each) is possible for a side not out."""
    assert validate_deal([CASE_A, replace(CASE_B, hand_points=10)], CLASSIC) == []


def test_card_points_over_all_cards_warn() -> None:
    """Section 7: melded plus hand points over all sides above 1180 is flagged."""
    # 940 + 10 + 150 + 85 = 1185 > 1180
    violations = validate_deal([replace(CASE_A, meld_points=940), CASE_B], CLASSIC)
    assert found(violations, ERROR) == set()
    assert found(violations, WARNING) == {("results", "card_points_total")}


def test_card_points_at_all_cards_do_not_warn() -> None:
    """Section 7: exactly 1180 in all is possible."""
    # 935 + 10 + 150 + 85 = 1180
    assert validate_deal([replace(CASE_A, meld_points=935), CASE_B], CLASSIC) == []


def test_warnings_are_warnings() -> None:
    """Section 7: every warning carries severity WARNING and is no error."""
    # 1140 + 10 + 40 + 0 = 1190 > 1180; 40 < 50; a hand of 0 for a side not out.
    violations = validate_deal(
        [replace(CASE_A, meld_points=1140), replace(CASE_B, meld_points=40, hand_points=0)],
        CLASSIC,
        minimums=(50, 50),
    )
    assert len(violations) == 3
    assert all(v.severity is WARNING for v in violations)
    assert errors_of(violations) == []
    assert len(warnings_of(violations)) == 3


def test_more_natural_canastas_than_the_cards_make_is_refused() -> None:
    """Section 7: eight of each rank in two packs make at most 11 natural canastas."""
    # 6 + 6 = 12 natural canastas; meld points 6 * 35 = 210 hold each side's six.
    we = replace(CASE_A, natural_canastas=6, mixed_canastas=0, meld_points=210)
    they = replace(CASE_B, natural_canastas=6, meld_points=210)
    violations = validate_deal([we, they], CLASSIC)
    assert found(violations, ERROR) == {("results.1.natural_canastas", "natural_canastas_total")}


def test_eleven_natural_canastas_in_all_are_possible() -> None:
    we = replace(CASE_A, natural_canastas=6, mixed_canastas=0, meld_points=210)
    they = replace(CASE_B, natural_canastas=5, meld_points=175)
    assert found(validate_deal([we, they], CLASSIC), ERROR) == set()


def test_more_canastas_than_the_cards_make_is_refused() -> None:
    """Section 7: all canastas at most 13 over all sides."""
    # 5 natural + 4 mixed = 9 and 2 natural + 3 mixed = 5: 14 canastas, 7 natural.
    we = replace(CASE_A, natural_canastas=5, mixed_canastas=4, meld_points=5 * 35 + 4 * 50)
    they = replace(CASE_B, natural_canastas=2, mixed_canastas=3, meld_points=2 * 35 + 3 * 50)
    violations = validate_deal([we, they], CLASSIC)
    assert found(violations, ERROR) == {("results.1.mixed_canastas", "canastas_total")}


def test_a_violation_names_the_side_at_fault_or_none_for_the_whole_deal() -> None:
    """They went out with no canasta: side 1's fault; a deal of three results for two
    sides is the deal's own (the pages name the side when the words stand apart)."""
    out_bare = SideResult(meld_points=90, hand_points=0, went_out=True)
    found = errors_of(validate_deal([SideResult(meld_points=50), out_bare], CLASSIC))
    assert found and {v.side for v in found} == {1}
    whole = validate_deal([SideResult()] * 3, CLASSIC)
    assert [v.side for v in whole] == [None]


@pytest.mark.parametrize(
    ("figure", "value", "rule"),
    [
        # 99 of a kind is still a figure the rules weigh: what the packs hold refuses it.
        ("natural_canastas", 99, "natural_canastas_total"),
        ("natural_canastas", 100, "too_large"),
        ("red_threes", 99, "red_threes_side"),
        ("red_threes", 100, "too_large"),
        ("hand_points", 100_000, None),
        ("hand_points", 100_005, "too_large"),
    ],
)
def test_a_figure_past_every_table_is_refused_at_the_figure(
    figure: str, value: int, rule: str | None
) -> None:
    """limits.py: counts up to 99 and card points up to 100 000 are figures the rules weigh;
    one more is a slip, refused as too large before anything else is said of it."""
    side = replace(CASE_B, **{figure: value})
    rules = {v.rule for v in errors_of(validate_deal([side, CASE_A], CLASSIC))}
    if rule is not None:
        assert rule in rules
    assert ("too_large" in rules) is (rule == "too_large")
