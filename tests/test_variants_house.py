"""The rule sets of RULES.md, engine only: house rules (section 6), the properties that
hold for every rule set, and seating and the dealer. Every expected number is worked out
by hand from RULES.md (tests/helpers/variants.py restates its tables)."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import (
    OptionError,
    RuleSet,
    Seat,
    SideResult,
    apply_options,
    errors_of,
    options_of,
    replay,
    score_deal,
    score_side,
    seating,
    validate_deal,
)
from scorekeeper.rules.variants import (
    CLASSIC,
    CLASSIC_2,
    CLASSIC_3,
    CLASSIC_6,
    CLASSIC_6X3,
    RAILROAD,
)

from .helpers.variants import (
    ALL_TABLES,
    CANASTA_LEAST,
    CLASSIC_KINDS,
    GAME_SETTINGS,
    RAILROAD_OUT,
    RULE_SETS,
    SETTINGS,
    SPECS,
    Spec,
    expected_minimum,
    expected_score,
    fives,
    quiet,
)

# --- house rules (section 6) ---------------------------------------------------------

#: A side with one natural and one mixed canasta, two red threes, out, meld 200, hand 10.
#: classic: 500 + 300 + 200 + 100 + 200 - 10 = 1290.
HOUSE_SIDE = SideResult(
    meld_points=200,
    natural_canastas=1,
    mixed_canastas=1,
    red_threes=2,
    went_out=True,
    hand_points=10,
)


@pytest.mark.parametrize(
    ("rules", "side", "options", "change"),
    [
        (CLASSIC, HOUSE_SIDE, {"natural_canasta_bonus": 600}, 100),  # 600 - 500
        (CLASSIC, HOUSE_SIDE, {"natural_canasta_bonus": 0}, -500),
        (CLASSIC, HOUSE_SIDE, {"mixed_canasta_bonus": 400}, 100),  # 400 - 300
        (CLASSIC, HOUSE_SIDE, {"red_three_bonus": 150}, 100),  # 2 x (150 - 100)
        (CLASSIC, HOUSE_SIDE, {"going_out_bonus": 250}, 150),  # 250 - 100
        (CLASSIC, replace(HOUSE_SIDE, red_threes=4), {"all_red_threes_bonus": 1000}, 200),
        # concealed: going out 100 + extra; extra 100 -> 300 is 200 more.
        (CLASSIC, replace(HOUSE_SIDE, concealed=True), {"concealed_going_out_bonus": 300}, 200),
        # concealed with going out 250: 250 + 100 instead of 100 + 100.
        (CLASSIC, replace(HOUSE_SIDE, concealed=True), {"going_out_bonus": 250}, 150),
        (CLASSIC_2, HOUSE_SIDE, {"natural_canasta_bonus": 750}, 250),
        (CLASSIC_3, HOUSE_SIDE, {"mixed_canasta_bonus": 200}, -100),
        # classic-6: all red threes are six (1200 by default).
        (CLASSIC_6, replace(HOUSE_SIDE, red_threes=6), {"all_red_threes_bonus": 1500}, 300),
        (CLASSIC_6X3, replace(HOUSE_SIDE, red_threes=6), {"all_red_threes_bonus": 2000}, 800),
        (CLASSIC_6, HOUSE_SIDE, {"red_three_bonus": 200}, 200),  # 2 x (200 - 100)
        # Railroad: 4100 with wild 1000 and sevens 1500.
        (RAILROAD, RAILROAD_OUT, {"wild_canasta_bonus": 1200}, 200),
        (RAILROAD, RAILROAD_OUT, {"sevens_canasta_bonus": 2000}, 500),
        (RAILROAD, RAILROAD_OUT, {"natural_canasta_bonus": 550}, 50),
        (RAILROAD, RAILROAD_OUT, {"red_three_bonus": 150}, 50),  # 1 x (150 - 100)
        (RAILROAD, RAILROAD_OUT, {"going_out_bonus": 200}, 100),
        (
            RAILROAD,
            RAILROAD_OUT,
            {"wild_canasta_bonus": 1100, "sevens_canasta_bonus": 1600, "mixed_canasta_bonus": 400},
            300,  # 100 + 100 + 100
        ),
    ],
)
def test_bonus_override_changes_score(
    rules: RuleSet, side: SideResult, options: dict[str, object], change: int
) -> None:
    """Section 6: each bonus a table overrides moves the score by the difference."""
    changed = apply_options(rules, options)
    assert score_side(side, changed) == score_side(side, rules) + change


@pytest.mark.parametrize(
    ("rules", "side", "score"),
    [
        (CLASSIC, HOUSE_SIDE, 1290),  # 500 + 300 + 200 + 100 + 200 - 10
        (CLASSIC, replace(HOUSE_SIDE, red_threes=4), 1890),  # 800 instead of 200: + 600
        (CLASSIC, replace(HOUSE_SIDE, concealed=True), 1390),  # 200 for out concealed
        (CLASSIC_6, replace(HOUSE_SIDE, red_threes=6), 2290),  # 1200 instead of 200
        (RAILROAD, RAILROAD_OUT, 4100),
    ],
)
def test_house_rule_base_scores(rules: RuleSet, side: SideResult, score: int) -> None:
    """The baselines the override table above moves from, by hand."""
    assert score_side(side, rules) == score


def test_red_three_bonus_override_counts_against_unmelded() -> None:
    """Section 6 with section 2: a red three of 150 counts -150 for a side that melded
    nothing: 2 x -150 - 40 hand = -340."""
    rules = apply_options(CLASSIC, {"red_three_bonus": 150})
    assert score_side(SideResult(red_threes=2, hand_points=40), rules) == -340


def test_meld_minimums_override() -> None:
    """Section 6: a table's own minimum tiers."""
    tiers = [
        {"from": None, "minimum": 15},
        {"from": 0, "minimum": 50},
        {"from": 1000, "minimum": 90},
        {"from": 2000, "minimum": 120},
    ]
    rules = apply_options(CLASSIC, {"meld_minimums": tiers})
    expected = {-5: 15, 0: 50, 995: 50, 1000: 90, 1995: 90, 2000: 120, 9000: 120}
    assert {total: rules.meld_minimum(total, 1) for total in expected} == expected
    assert options_of(rules)["meld_minimums"] == tiers
    railroad = apply_options(RAILROAD, {"meld_minimums": [{"from": None, "minimum": 0}]})
    assert railroad.meld_minimum(-100, 1) == 0
    assert railroad.meld_minimum(19_995, 1) == 0


def test_target_override() -> None:
    """Section 6: the target is the table's; the game ends there."""
    rules = apply_options(CLASSIC_6, {"target": 3000})
    assert rules.target == 3000
    deal = [SideResult(meld_points=3000, hand_points=0), SideResult(meld_points=0, hand_points=5)]
    assert replay(rules, [deal]).winner == 0
    assert replay(CLASSIC_6, [deal]).winner is None


@pytest.mark.parametrize(
    ("rules", "options", "option"),
    [
        (CLASSIC, {"target": 0}, "target"),
        (RAILROAD, {"target": 0}, "target"),
        (CLASSIC, {"natural_canasta_bonus": 333}, "natural_canasta_bonus"),
        (CLASSIC_6, {"red_three_bonus": 101}, "red_three_bonus"),
        (RAILROAD, {"sevens_canasta_bonus": 1501}, "sevens_canasta_bonus"),
        (CLASSIC, {"mixed_canasta_bonus": -100}, "mixed_canasta_bonus"),
        (CLASSIC, {"going_out_bonus": -5}, "going_out_bonus"),
        (CLASSIC, {"all_red_threes_bonus": -800}, "all_red_threes_bonus"),
        (CLASSIC_2, {"concealed_going_out_bonus": -100}, "concealed_going_out_bonus"),
        (
            CLASSIC,
            {
                "meld_minimums": [
                    {"from": None, "minimum": 15},
                    {"from": 1500, "minimum": 50},
                    {"from": 1500, "minimum": 90},
                ]
            },
            "meld_minimums",
        ),
        (
            CLASSIC,
            {
                "meld_minimums": [
                    {"from": None, "minimum": 15},
                    {"from": 3000, "minimum": 50},
                    {"from": 1500, "minimum": 90},
                ]
            },
            "meld_minimums",
        ),
        (
            CLASSIC,
            {"meld_minimums": [{"from": 0, "minimum": 50}, {"from": 1500, "minimum": 90}]},
            "meld_minimums",
        ),
        (
            RAILROAD,
            {
                "meld_minimums": [
                    {"from": None, "minimum": 15},
                    {"from": 0, "minimum": 90},
                    {"from": 5000, "minimum": 50},
                ]
            },
            "meld_minimums",
        ),
        (CLASSIC, {"wild_canasta_bonus": 1000}, "wild_canasta_bonus"),
        (CLASSIC_6, {"sevens_canasta_bonus": 1500}, "sevens_canasta_bonus"),
        (CLASSIC, {"bogus": 1}, "bogus"),
        (RAILROAD, {"joker_bonus": 50}, "joker_bonus"),
    ],
)
def test_option_refusals(rules: RuleSet, options: dict[str, object], option: str) -> None:
    """Section 6: options the rules cannot use are refused, naming the option."""
    with pytest.raises(OptionError) as caught:
        apply_options(rules, options)
    assert caught.value.option == option


@pytest.mark.parametrize("table", ALL_TABLES)
def test_options_of_round_trip(table: str) -> None:
    """``apply_options(rules, options_of(rules))`` gives the same rule set."""
    rules = RULE_SETS[table]
    assert apply_options(rules, options_of(rules)) == rules
    assert apply_options(rules, {}) == rules


@st.composite
def house_options(draw: st.DrawFn, rules: RuleSet) -> dict[str, object]:
    """A valid set of house options for ``rules``."""
    options: dict[str, object] = {}
    bonus = fives(0, 5000)
    names = ["target", "red_three_bonus", "all_red_threes_bonus", "going_out_bonus"]
    names += [f"{kind.value}_canasta_bonus" for kind in rules.canasta_kinds]
    names += ["concealed_going_out_bonus", "meld_minimums", "concealed_canasta_bonus"]
    for name in draw(st.lists(st.sampled_from(names), unique=True)):
        if name == "target":
            options[name] = draw(fives(5, 50_000))
        elif name == "meld_minimums":
            starts = draw(st.lists(fives(-5000, 50_000), max_size=5, unique=True))
            mins = sorted(draw(st.lists(fives(0, 500), min_size=len(starts) + 1, max_size=6)))
            tiers: list[dict[str, int | None]] = [{"from": None, "minimum": mins[0]}]
            tiers += [
                {"from": start, "minimum": minimum}
                for start, minimum in zip(sorted(starts), mins[1:], strict=False)
            ]
            options[name] = tiers
        elif name == "concealed_canasta_bonus":
            options[name] = draw(st.booleans())
        else:
            options[name] = draw(bonus)
    return options


@pytest.mark.parametrize("table", ALL_TABLES)
@SETTINGS
@given(data=st.data())
def test_options_of_round_trip_with_house_rules(table: str, data: st.DataObject) -> None:
    """Whatever valid house rules a table sets, ``options_of`` names them all."""
    rules = apply_options(RULE_SETS[table], data.draw(house_options(RULE_SETS[table])))
    assert apply_options(rules, options_of(rules)) == rules
    assert apply_options(RULE_SETS[table], options_of(rules)) == rules


# --- properties that hold for every rule set ----------------------------------------


@st.composite
def side_results(draw: st.DrawFn, spec: Spec, *, went_out: bool, red_threes: int) -> SideResult:
    """One side's valid entry under ``spec``: at most 2 natural and 2 mixed canastas and
    at most one wild and one sevens (so every bound of section 7 holds, even with six
    Railroad players: sevens 8n // 7 >= n, wild 10n // 7 >= n)."""
    counts = {kind: draw(st.integers(0, 2 if kind in CLASSIC_KINDS else 1)) for kind in spec.kinds}
    if went_out:
        if spec.every_kind_to_go_out:
            counts = {kind: max(count, 1) for kind, count in counts.items()}
        while sum(counts.values()) < spec.canastas_to_go_out:
            counts[draw(st.sampled_from(CLASSIC_KINDS))] += 1
    least = sum(CANASTA_LEAST[kind] * count for kind, count in counts.items())
    meld = least + draw(fives(0, 400))
    return SideResult(
        meld_points=meld,
        **{f"{kind}_canastas": count for kind, count in counts.items()},
        red_threes=red_threes,
        went_out=went_out,
        concealed=went_out and draw(st.booleans()),
        hand_points=draw(fives(0, 300)),
    )


@st.composite
def deals(draw: st.DrawFn, spec: Spec) -> list[SideResult]:
    """A valid deal entry for every side of ``spec``."""
    out = draw(st.sampled_from([None, *range(spec.sides)]))
    left = draw(st.integers(0, spec.max_red_threes))
    reds = []
    for _ in range(spec.sides - 1):
        count = draw(st.integers(0, left))
        reds.append(count)
        left -= count
    reds.append(left)
    reds = draw(st.permutations(reds))
    return [
        draw(side_results(spec, went_out=out == side, red_threes=reds[side]))
        for side in range(spec.sides)
    ]


@pytest.mark.parametrize("table", ALL_TABLES)
@SETTINGS
@given(data=st.data())
def test_valid_deals_are_accepted(table: str, data: st.DataObject) -> None:
    """Section 7: a deal that could happen at the table is never refused."""
    deal = data.draw(deals(SPECS[table]))
    assert errors_of(validate_deal(deal, RULE_SETS[table])) == []


@pytest.mark.parametrize("table", ALL_TABLES)
@SETTINGS
@given(data=st.data())
def test_scores_follow_the_rules_text(table: str, data: st.DataObject) -> None:
    """Sections 1, 2, 3 and 5: each score is the hand-written sum, a multiple of 5."""
    spec, rules = SPECS[table], RULE_SETS[table]
    deal = data.draw(deals(spec))
    scores = score_deal(deal, rules)
    assert all(score % 5 == 0 for score in scores)
    assert scores == tuple(expected_score(spec, side) for side in deal)


@pytest.mark.parametrize("table", ALL_TABLES)
@SETTINGS
@given(data=st.data())
def test_permuting_sides_permutes_scores(table: str, data: st.DataObject) -> None:
    """A side's score depends on its own entry, not its place on the sheet."""
    rules = RULE_SETS[table]
    deal = data.draw(deals(SPECS[table]))
    order = data.draw(st.permutations(range(rules.sides)))
    scores = score_deal(deal, rules)
    assert score_deal([deal[i] for i in order], rules) == tuple(scores[i] for i in order)
    assert errors_of(validate_deal([deal[i] for i in order], rules)) == []


@pytest.mark.parametrize("table", ALL_TABLES)
@GAME_SETTINGS
@given(data=st.data())
def test_replay_totals(table: str, data: st.DataObject) -> None:
    """Section 6: totals are the starting totals plus every deal score; each deal's
    minimum comes from the total before it."""
    spec, rules = SPECS[table], RULE_SETS[table]
    game = data.draw(st.lists(deals(spec), max_size=8))
    starts = data.draw(st.lists(fives(-3000, 15_000), min_size=spec.sides, max_size=spec.sides))
    state = replay(rules, game, starts=starts)
    running = list(starts)
    for deal, line in zip(game, state.lines, strict=True):
        for minimum, total in zip(line.minimums, running, strict=True):
            assert minimum == expected_minimum(table, total)
        running = [
            total + expected_score(spec, side) for total, side in zip(running, deal, strict=True)
        ]
        assert line.totals == tuple(running)
    assert state.totals == tuple(
        start + sum(score_side(deal[side], rules) for deal in game)
        for side, start in enumerate(starts)
    )


# --- seating and the dealer ---------------------------------------------------------


def seats(*names: str) -> tuple[Seat, ...]:
    """Seats from names like "B2": side letter, player number."""
    return tuple(Seat(ord(name[0]) - ord("A"), int(name[1:]) - 1) for name in names)


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("classic", seats("A1", "B1", "A2", "B2")),
        ("classic-2", seats("A1", "B1")),
        ("classic-3", seats("A1", "B1", "C1")),
        ("classic-6", seats("A1", "B1", "A2", "B2", "A3", "B3")),
        ("classic-6x3", seats("A1", "B1", "C1", "A2", "B2", "C2")),
        ("railroad-2", seats("A1", "B1")),
        ("railroad-3", seats("A1", "B1", "C1")),
        ("railroad-4", seats("A1", "B1", "C1", "D1")),
        ("railroad-5", seats("A1", "B1", "C1", "D1", "E1")),
        ("railroad-6", seats("A1", "B1", "C1", "D1", "E1", "F1")),
    ],
)
def test_seating_and_dealer_rotation(table: str, expected: tuple[Seat, ...]) -> None:
    """Partners alternate round the table; the deal moves one seat a deal and wraps."""
    rules = RULE_SETS[table]
    assert seating([rules.players_per_side] * rules.sides) == expected
    count = len(expected)
    deal = quiet(rules.sides, hand=5)  # -5 each: nobody ever wins
    for first in range(count):
        state = replay(rules, [deal] * (2 * count + 1), first_dealer=first)
        assert [line.dealer for line in state.lines] == [
            expected[(first + n) % count] for n in range(2 * count + 1)
        ]
        assert state.next_dealer == expected[(first + 2 * count + 1) % count]


def test_seating_literal_cases() -> None:
    """The three seatings of the brief, spelled out."""
    assert seating([3, 3]) == (
        Seat(0, 0),
        Seat(1, 0),
        Seat(0, 1),
        Seat(1, 1),
        Seat(0, 2),
        Seat(1, 2),
    )
    assert seating([2, 2, 2]) == (
        Seat(0, 0),
        Seat(1, 0),
        Seat(2, 0),
        Seat(0, 1),
        Seat(1, 1),
        Seat(2, 1),
    )
    assert seating([1] * 5) == tuple(Seat(side, 0) for side in range(5))
