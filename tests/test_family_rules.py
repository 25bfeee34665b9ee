"""The Canasta family of RULES.md section 10 (Samba, Bolivia, Cuban, Uruguay), engine only.

The expected numbers are section 10.6's worked examples and sums worked out by hand from
sections 10.1 to 10.4 (the comment beside each shows the sum); nothing is copied from a run
of the engine.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    VARIANTS,
    CanastaKind,
    OptionError,
    Severity,
    SideResult,
    apply_options,
    errors_of,
    options_of,
    score_side,
    validate_deal,
)

SETTINGS = settings(max_examples=60, database=None, deadline=None)
FAMILY = ("samba", "bolivia", "cuban", "uruguay")


def rules_of(variant: str):  # type: ignore[no-untyped-def]
    return VARIANTS[variant]


# --- section 10.6: the worked examples ------------------------------------------------

WORKED = [
    # samba A: 1500 + 500 + 200 (two red threes) + 200 (out) + 400 = 2800
    (
        "samba",
        SideResult(
            meld_points=400, sequence_canastas=1, natural_canastas=1, red_threes=2, went_out=True
        ),
        2800,
    ),
    # samba B: one canasta only, so the red three counts minus: 300 - 100 + 180 - 45 = 335
    ("samba", SideResult(meld_points=180, mixed_canastas=1, red_threes=1, hand_points=45), 335),
    # samba A, six red threes with two canastas: 500 + 300 + 1000 + 350 - 20 = 2130
    (
        "samba",
        SideResult(
            meld_points=350, natural_canastas=1, mixed_canastas=1, red_threes=6, hand_points=20
        ),
        2130,
    ),
    # samba B, six red threes with one canasta: 300 - 1000 + 120 - 30 = -610
    ("samba", SideResult(meld_points=120, mixed_canastas=1, red_threes=6, hand_points=30), -610),
    # bolivia A: 1500 (escalera) + 2500 (bolivia) + 200 + 100 + 500 = 4800
    (
        "bolivia",
        SideResult(
            meld_points=500, sequence_canastas=1, wild_canastas=1, red_threes=1, went_out=True
        ),
        4800,
    ),
    # bolivia B: 500 + 200 - 60 - 2 x 100 (black threes in hand) = 440
    (
        "bolivia",
        SideResult(meld_points=200, natural_canastas=1, black_threes_in_hand=2, hand_points=60),
        440,
    ),
    # cuban A: 500 + 4000 (seven twos) + 100 (out) + 500 (three red threes) + 100 (four
    # black threes taken) + 400 = 5600
    (
        "cuban",
        SideResult(
            meld_points=400,
            natural_canastas=1,
            deuce_canastas=1,
            red_threes=3,
            went_out=True,
            black_threes_taken=4,
        ),
        5600,
    ),
    # cuban B: no canasta, so two red threes count minus: -300 + 90 - 35 = -245
    ("cuban", SideResult(meld_points=90, red_threes=2, hand_points=35), -245),
    # uruguay A: 2000 (wild) + 500 + 200 (out concealed) + 300 = 3000
    (
        "uruguay",
        SideResult(
            meld_points=300, wild_canastas=1, natural_canastas=1, went_out=True, concealed=True
        ),
        3000,
    ),
]


@pytest.mark.parametrize(("variant", "side", "score"), WORKED)
def test_worked_examples(variant: str, side: SideResult, score: int) -> None:
    assert score_side(side, rules_of(variant)) == score


@pytest.mark.parametrize(("variant", "side", "score"), WORKED)
def test_worked_examples_are_legal_deals(variant: str, side: SideResult, score: int) -> None:
    """Each example is a deal a table can enter: with a quiet other side, no error."""
    rules = rules_of(variant)
    other = SideResult(meld_points=0, hand_points=50)
    assert errors_of(validate_deal([side, other], rules)) == []


#: Sections 10.1 to 10.4: from each total upward, the initial meld needs the minimum.
TIERS = {
    "samba": [(0, 50), (1500, 90), (3000, 120), (7000, 160)],
    "bolivia": [(0, 50), (1500, 90), (3000, 120), (7000, 150)],
    "cuban": [(0, 50), (1500, 90), (3000, 120), (5000, 150)],
    "uruguay": [(0, 50), (1500, 90), (3000, 120)],
}


@pytest.mark.parametrize("variant", FAMILY)
def test_minimums_at_every_tier_edge(variant: str) -> None:
    """Below 0: 15; each tier from its total, the one below it up to 5 less."""
    rules = rules_of(variant)
    assert rules.meld_minimum(-5, 1) == 15
    below = 15
    for start, minimum in TIERS[variant]:
        assert rules.meld_minimum(start - 5, 1) == below, start
        assert rules.meld_minimum(start, 1) == minimum, start
        below = minimum
    assert rules.meld_minimum(100_000, 1) == below


@pytest.mark.parametrize(
    ("variant", "total", "minimum"),
    [("samba", 6995, 120), ("samba", 7000, 160), ("bolivia", 7000, 150), ("cuban", 4995, 120),
     ("cuban", 5000, 150)],
)  # fmt: skip
def test_worked_minimums(variant: str, total: int, minimum: int) -> None:
    """Section 10.6's minimums."""
    assert rules_of(variant).meld_minimum(total, 1) == minimum


@pytest.mark.parametrize(
    ("variant", "target", "packs", "jokers", "cards_each", "draw", "red_threes"),
    [
        ("samba", 10_000, 3, 6, 15, 2, 6),
        ("bolivia", 15_000, 3, 6, 15, 2, 6),
        ("cuban", 7500, 2, 4, 13, 1, 4),
        ("uruguay", 5000, 2, 4, 11, 1, 4),
    ],
)
def test_the_cards_and_the_game(
    variant: str, target: int, packs: int, jokers: int, cards_each: int, draw: int, red_threes: int
) -> None:
    rules = rules_of(variant)
    assert (rules.target, rules.packs, rules.jokers) == (target, packs, jokers)
    assert (rules.cards_each, rules.draw, rules.max_red_threes) == (cards_each, draw, red_threes)
    assert (rules.sides, rules.players_per_side) == (2, 2)


@pytest.mark.parametrize(
    ("variant", "bonuses"),
    [
        ("samba", {"natural": 500, "mixed": 300, "sequence": 1500}),
        ("bolivia", {"natural": 500, "mixed": 300, "sequence": 1500, "wild": 2500}),
        ("cuban", {"natural": 500, "mixed": 300, "deuce": 4000, "joker": 3000, "wild": 2000}),
        ("uruguay", {"natural": 500, "mixed": 300, "wild": 2000}),
    ],
)
def test_each_kind_of_canasta_scores_its_bonus(variant: str, bonuses: dict[str, int]) -> None:
    """One canasta of a kind, nothing else melded beyond its cards: the bonus plus 0."""
    rules = rules_of(variant)
    assert {kind.value for kind in rules.canasta_kinds} == set(bonuses)
    for kind, bonus in bonuses.items():
        side = SideResult(**{f"{kind}_canastas": 1})
        assert score_side(side, rules) == bonus


@pytest.mark.parametrize(
    ("variant", "out", "concealed"),
    [("samba", 200, 200), ("bolivia", 200, 200), ("cuban", 100, 100), ("uruguay", 100, 200)],
)
def test_going_out(variant: str, out: int, concealed: int) -> None:
    """Samba and Bolivia 200, Cuban 100, none with a concealed bonus but Uruguay's 200."""
    rules = rules_of(variant)
    assert score_side(SideResult(went_out=True), rules) == out
    assert score_side(SideResult(went_out=True, concealed=True), rules) == concealed


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        # six red threes: 1000; plus with two canastas, minus with one (section 10.1)
        ("samba", {1: 100, 2: 200, 5: 500, 6: 1000}),
        ("bolivia", {1: 100, 6: 1000}),
        # Cuban: one 100, two 300, three 500, four 1000; plus with one canasta
        ("cuban", {1: 100, 2: 300, 3: 500, 4: 1000}),
        ("uruguay", {1: 100, 3: 300, 4: 800}),
    ],
)
def test_red_threes_plus_and_minus(variant: str, counts: dict[int, int]) -> None:
    rules = rules_of(variant)
    # The canastas each rule set asks before red threes count plus (section 10).
    need = {"samba": 2, "bolivia": 2, "cuban": 1, "uruguay": 0}[variant]
    for count, value in counts.items():
        short = SideResult(meld_points=50, natural_canastas=max(0, need - 1), red_threes=count)
        enough = SideResult(meld_points=50, natural_canastas=need, red_threes=count)
        bonus = 500 * short.natural_canastas
        assert score_side(short, rules) == 50 + bonus + (value if need == 0 else -value)
        assert score_side(enough, rules) == 50 + 500 * need + value
    # Uruguay as classic: a side that melded nothing counts them minus.
    if variant == "uruguay":
        assert score_side(SideResult(red_threes=2), rules) == -200


def test_cuban_black_threes_taken() -> None:
    """5 each, 100 for all four (section 10.3)."""
    cuban = rules_of("cuban")
    for count, value in {0: 0, 1: 5, 2: 10, 3: 15, 4: 100}.items():
        assert score_side(SideResult(black_threes_taken=count), cuban) == value


def test_bolivia_black_threes_in_hand() -> None:
    """-100 each, in place of their card points (section 10.2, Decision)."""
    bolivia = rules_of("bolivia")
    for count in range(7):
        side = SideResult(hand_points=25, black_threes_in_hand=count)
        assert score_side(side, bolivia) == -25 - 100 * count


# --- what going out needs -------------------------------------------------------------


def outs(variant: str, **canastas: int) -> set[str]:
    side = SideResult(meld_points=600, went_out=True, **canastas)
    found = validate_deal([side, SideResult(hand_points=50)], rules_of(variant))
    return {v.rule for v in errors_of(found)}


def test_samba_goes_out_with_two_canastas_of_any_kind() -> None:
    assert "out_needs_canastas" in outs("samba", natural_canastas=1)
    assert "out_needs_canastas" not in outs("samba", natural_canastas=1, sequence_canastas=1)
    assert not outs("samba", mixed_canastas=2)


def test_bolivia_goes_out_with_two_canastas_one_an_escalera() -> None:
    assert "out_needs_kinds" in outs("bolivia", natural_canastas=2)
    assert "out_needs_canastas" in outs("bolivia", sequence_canastas=1)
    assert not outs("bolivia", sequence_canastas=1, wild_canastas=1)


@pytest.mark.parametrize("variant", ["cuban", "uruguay"])
def test_cuban_and_uruguay_go_out_with_one_canasta(variant: str) -> None:
    assert "out_needs_canastas" in outs(variant)
    assert not outs(variant, natural_canastas=1)


# --- section 7 for three packs and these canastas -------------------------------------


def refused(variant: str, *sides: SideResult) -> set[tuple[str, str]]:
    return {(v.field, v.rule) for v in errors_of(validate_deal(list(sides), rules_of(variant)))}


def test_six_red_threes_with_three_packs_seven_refused() -> None:
    six = SideResult(meld_points=350, natural_canastas=1, mixed_canastas=1, red_threes=6)
    assert refused("samba", six, SideResult(hand_points=30)) == set()
    seven = SideResult(meld_points=350, natural_canastas=1, mixed_canastas=1, red_threes=7)
    assert ("results.0.red_threes", "red_threes_side") in refused("samba", seven, SideResult())


def test_all_four_black_threes_to_one_side_and_none_left_for_the_other() -> None:
    """Cuban has four black threes: one side may find all four; a fifth on the other side
    is more than the packs hold, said at the side that lists the last of them."""
    four = SideResult(meld_points=400, natural_canastas=1, black_threes_taken=4)
    assert refused("cuban", four, SideResult(hand_points=30)) == set()
    one = SideResult(hand_points=30, black_threes_taken=1)
    assert "black_threes_total" in {rule for _, rule in refused("cuban", four, one)}
    split = [SideResult(meld_points=100, red_threes=4), SideResult(meld_points=100, red_threes=3)]
    assert ("results.1.red_threes", "red_threes_total") in refused("samba", *split)


def test_sambas_cannot_exceed_what_the_cards_allow() -> None:
    """Every run of seven from 4 to A holds its suit's 8, 9 and 10, and three packs hold
    three of each: three sambas a suit, 12 in all."""
    most = SideResult(meld_points=12 * 50, sequence_canastas=12)
    assert refused("samba", most, SideResult(hand_points=50)) == set()
    over = SideResult(meld_points=13 * 50, sequence_canastas=13)
    assert ("results.0.sequence_canastas", "sequence_canastas_cards") in refused(
        "samba", over, SideResult(hand_points=50)
    )


def test_bolivias_cannot_exceed_the_wild_cards() -> None:
    """Twelve twos and six jokers: two bolivias at most, over both sides."""
    one = SideResult(meld_points=140, wild_canastas=1)
    assert refused("bolivia", one, one) == set()
    two = SideResult(meld_points=280, wild_canastas=2)
    assert ("results.1.wild_canastas", "wild_canastas_cards") in refused("bolivia", one, two)


def test_at_most_one_wild_canasta_in_a_cuban_deal() -> None:
    """Eight twos and four jokers: twelve wild cards, one wild canasta of any kind."""
    deuces = SideResult(meld_points=140, deuce_canastas=1)
    jokers = SideResult(meld_points=260, joker_canastas=1)
    assert refused("cuban", deuces, SideResult(hand_points=50)) == set()
    assert ("results.1.joker_canastas", "wild_canastas_cards") in refused("cuban", deuces, jokers)
    both = SideResult(meld_points=400, deuce_canastas=1, wild_canastas=1)
    assert ("results.0.wild_canastas", "wild_canastas_cards") in refused(
        "cuban", both, SideResult(hand_points=50)
    )


@pytest.mark.parametrize(
    ("variant", "kind", "least"),
    [
        ("samba", "sequence", 50),  # 4 to 10 of a suit
        ("bolivia", "wild", 140),  # seven twos
        ("cuban", "deuce", 140),
        ("cuban", "joker", 260),  # four jokers and three twos
        ("uruguay", "wild", 140),
    ],
)
def test_a_canasta_needs_its_least_card_points(variant: str, kind: str, least: int) -> None:
    enough = SideResult(meld_points=least, **{f"{kind}_canastas": 1})
    short = SideResult(meld_points=least - 5, **{f"{kind}_canastas": 1})
    other = SideResult(hand_points=50)
    assert refused(variant, enough, other) == set()
    assert ("results.0.meld_points", "canastas_need_points") in refused(variant, short, other)


@pytest.mark.parametrize(
    ("variant", "figure"),
    [
        ("classic", "black_threes_in_hand"),
        ("samba", "black_threes_taken"),
        ("bolivia", "black_threes_taken"),
        ("cuban", "black_threes_in_hand"),
        ("uruguay", "black_threes_in_hand"),
    ],
)
def test_a_black_three_figure_the_rule_set_does_not_score_is_refused(
    variant: str, figure: str
) -> None:
    side = SideResult(meld_points=50, hand_points=10, **{figure: 1})
    assert (f"results.0.{figure}", "no_such_figure") in refused(variant, side, SideResult())


@pytest.mark.parametrize(("variant", "kind"), [("classic", "sequence"), ("uruguay", "deuce")])
def test_a_kind_the_rule_set_does_not_have_is_refused(variant: str, kind: str) -> None:
    side = SideResult(meld_points=200, **{f"{kind}_canastas": 1})
    assert (f"results.0.{kind}_canastas", "no_such_canasta") in refused(variant, side, side)


def test_more_black_threes_than_the_cards_hold_are_refused() -> None:
    five = SideResult(hand_points=10, black_threes_in_hand=7)
    assert ("results.0.black_threes_in_hand", "black_threes_side") in refused(
        "bolivia", five, SideResult()
    )
    split = [SideResult(black_threes_taken=3, meld_points=50), SideResult(black_threes_taken=2)]
    assert ("results.1.black_threes_taken", "black_threes_total") in refused("cuban", *split)


def test_going_out_concealed_without_a_bonus_is_a_warning_only() -> None:
    side = SideResult(meld_points=200, natural_canastas=2, went_out=True, concealed=True)
    found = validate_deal([side, SideResult(hand_points=40)], rules_of("samba"))
    assert [(v.rule, v.severity) for v in found if v.field.endswith("concealed")] == [
        ("no_concealed_out", Severity.WARNING)
    ]


def test_the_names_of_the_canastas() -> None:
    assert rules_of("samba").canasta_name(CanastaKind.SEQUENCE).word == "samba"
    assert rules_of("bolivia").canasta_name(CanastaKind.SEQUENCE).word == "escalera"
    assert rules_of("bolivia").canasta_name(CanastaKind.WILD).word == "bolivia"
    assert rules_of("cuban").canasta_name(CanastaKind.WILD).word == "wild"


# --- house rules over the new numbers --------------------------------------------------


def test_house_rules_change_the_new_numbers() -> None:
    samba = apply_options(rules_of("samba"), {"sequence_canasta_bonus": 2000})
    assert score_side(SideResult(sequence_canastas=1), samba) == 2000
    bolivia = apply_options(rules_of("bolivia"), {"black_three_penalty": 50})
    assert score_side(SideResult(black_threes_in_hand=2), bolivia) == -100
    cuban = apply_options(
        rules_of("cuban"), {"black_three_taken_bonus": 10, "all_black_threes_taken_bonus": 200}
    )
    assert score_side(SideResult(black_threes_taken=3), cuban) == 30
    assert score_side(SideResult(black_threes_taken=4), cuban) == 200
    two = apply_options(rules_of("cuban"), {"canastas_to_go_out": 2})
    side = SideResult(meld_points=100, natural_canastas=1, went_out=True)
    assert {v.rule for v in errors_of(validate_deal([side, SideResult()], two))} >= {
        "out_needs_canastas"
    }


@pytest.mark.parametrize(
    ("variant", "option", "value"),
    [
        ("classic", "black_three_penalty", 100),
        ("samba", "black_three_taken_bonus", 5),
        ("uruguay", "sequence_canasta_bonus", 1000),
        ("bolivia", "canastas_to_go_out", 0),  # an escalera is needed: at least one
        ("railroad", "canastas_to_go_out", 3),  # one of each of four kinds
        ("cuban", "canastas_to_go_out", True),
    ],
)
def test_an_option_the_rule_set_cannot_use_is_refused(
    variant: str, option: str, value: object
) -> None:
    with pytest.raises(OptionError) as refusal:
        apply_options(rules_of(variant), {option: value})
    assert refusal.value.option == option


@pytest.mark.parametrize("variant", ["classic", "samba", "bolivia"])
def test_a_table_may_ask_up_to_ten_canastas_to_go_out(variant: str) -> None:
    """canastas_to_go_out runs up to 10 (more than a side ever melds); 11 is refused."""
    assert apply_options(rules_of(variant), {"canastas_to_go_out": 10}).canastas_to_go_out == 10
    with pytest.raises(OptionError) as refusal:
        apply_options(rules_of(variant), {"canastas_to_go_out": 11})
    assert "between" in refusal.value.message and "10" in refusal.value.message


@SETTINGS
@given(variant=st.sampled_from(FAMILY), data=st.data())
def test_options_round_trip(variant: str, data: st.DataObject) -> None:
    """Whatever a table changes, options_of gives back options that make the same rules."""
    published = rules_of(variant)
    changed = {
        name: data.draw(st.integers(0, 400).map(lambda k: 5 * k), label=name)
        for name, value in options_of(published).items()
        if isinstance(value, int) and not isinstance(value, bool) and name != "canastas_to_go_out"
    }
    changed["target"] = max(5, int(str(changed["target"])))
    rules = apply_options(published, changed)
    assert apply_options(published, options_of(rules)) == rules


# --- properties of the new shapes -----------------------------------------------------


@SETTINGS
@given(
    variant=st.sampled_from(FAMILY),
    canastas=st.integers(0, 3),
    threes=st.integers(1, 6),
    meld=st.integers(0, 100).map(lambda k: 5 * k),
)
def test_one_more_canasta_never_turns_red_threes_from_plus_to_minus(
    variant: str, canastas: int, threes: int, meld: int
) -> None:
    """Red threes count plus from some number of canastas on, never the other way."""
    rules = rules_of(variant)
    threes = min(threes, rules.max_red_threes)

    def red(count: int) -> int:
        side = SideResult(meld_points=meld, natural_canastas=count, red_threes=threes)
        return score_side(side, rules) - score_side(
            SideResult(meld_points=meld, natural_canastas=count), rules
        )

    assert red(canastas + 1) >= red(canastas)
    assert abs(red(canastas)) == abs(red(canastas + 1))


@SETTINGS
@given(variant=st.sampled_from(("bolivia", "cuban")), count=st.integers(0, 2))
def test_each_black_three_moves_the_score_by_the_same_step_until_all(
    variant: str, count: int
) -> None:
    """Bolivia: -100 for each one more in hand; Cuban: +5 for each one more taken (below
    all four, which count 100)."""
    rules = rules_of(variant)
    figure = "black_threes_in_hand" if variant == "bolivia" else "black_threes_taken"
    step = score_side(SideResult(**{figure: count + 1}), rules) - score_side(
        SideResult(**{figure: count}), rules
    )
    assert step == (-100 if variant == "bolivia" else 5)


@pytest.mark.parametrize(
    ("variant", "partnerships"),
    [
        ("classic", True),
        ("classic-2", False),
        ("classic-3", False),
        ("classic-6", True),
        ("classic-6x3", True),
        ("railroad", False),
        *((variant, True) for variant in FAMILY),
    ],
)
def test_who_plays_in_partnerships(variant: str, partnerships: bool) -> None:
    """Sections 2, 3, 5 and 10: partners sit together in classic, the six-player games and
    the family; everyone plays alone in the 2- and 3-player games and in Railroad."""
    assert rules_of(variant).partnerships is partnerships


@pytest.mark.parametrize(
    ("variant", "players", "naturals", "canastas"),
    [
        # Section 7: four of each rank a pack: 11 natural canastas with two or three packs
        # (8 or 12 of a rank make one canasta); 13 canastas in all in classic (the sources'
        # bound), else every card but the threes seven at a time: 3 packs and 6 jokers
        # (144 + 6) // 7 = 21; Railroad, 2 packs and 2 jokers a player: 98 // 7 = 14 each,
        # and 8 of a rank a player: 2 players 16 // 7 = 2 a rank, 6 players 48 // 7 = 6.
        ("classic", 4, 11, 13),
        ("classic-6", 6, 11, 21),
        ("samba", 4, 11, 21),
        ("railroad", 2, 22, 28),
        ("railroad", 6, 66, 84),
    ],
)
def test_the_canastas_the_cards_allow_in_all(
    variant: str, players: int, naturals: int, canastas: int
) -> None:
    rules = rules_of(variant)
    if rules.sides_range:
        rules = rules.with_sides(players)
    quiet = [SideResult(hand_points=50) for _ in range(rules.sides - 1)]

    def rules_broken(**figures: int) -> set[str]:
        side = SideResult(meld_points=100 * sum(figures.values()), **figures)
        return {v.rule for v in errors_of(validate_deal([side, *quiet], rules))}

    assert "natural_canastas_total" not in rules_broken(natural_canastas=naturals)
    assert "natural_canastas_total" in rules_broken(natural_canastas=naturals + 1)
    assert "canastas_total" not in rules_broken(mixed_canastas=canastas)
    assert "canastas_total" in rules_broken(mixed_canastas=canastas + 1)


@pytest.mark.parametrize(
    ("variant", "figures", "words"),
    [
        ("samba", {"sequence_canastas": 13}, "at most 12 samba canastas"),
        ("bolivia", {"sequence_canastas": 13}, "at most 12 escalera canastas"),
        ("bolivia", {"wild_canastas": 3}, "at most 2 bolivia canastas"),
        ("cuban", {"deuce_canastas": 1, "joker_canastas": 1}, "at most 1 wild canasta"),
    ],
)
def test_the_refusal_names_the_canastas_in_the_rule_sets_words(
    variant: str, figures: dict[str, int], words: str
) -> None:
    side = SideResult(meld_points=1500, **figures)
    found = errors_of(validate_deal([side, SideResult(hand_points=50)], rules_of(variant)))
    assert any(words in v.message for v in found), [v.message for v in found]


@pytest.mark.parametrize("start", ["1500", 1502, None, True])
def test_every_tier_after_the_first_needs_a_total_of_its_own(start: object) -> None:
    """Section 6: a table's minimum tiers each start from a total, a multiple of 5 (the
    second tier as much as any later one)."""
    tiers = [{"from": None, "minimum": 15}, {"from": start, "minimum": 50}]
    with pytest.raises(OptionError) as refusal:
        apply_options(rules_of("samba"), {"meld_minimums": tiers})
    assert refusal.value.option == "meld_minimums"
