"""Modern American Canasta, Hand and Foot and Burraco (RULES.md sections 13 to 15), engine
only.

The expected numbers are the sections' worked examples (the sum beside each is RULES.md's)
and sums worked out by hand from the sections; nothing is copied from a run of the engine.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    VARIANTS,
    CanastaKind,
    OptionError,
    SideResult,
    apply_options,
    errors_of,
    options_of,
    replay,
    score_side,
    validate_deal,
)
from scorekeeper.rules.scoring import score_breakdown
from scorekeeper.rules.stats import side_records

SETTINGS = settings(max_examples=80, database=None, deadline=None)
AMERICAN = VARIANTS["american"]
HAND_AND_FOOT = VARIANTS["hand-and-foot"]
BURRACO = VARIANTS["burraco"]

# --- the worked deals ----------------------------------------------------------------

WORKED = [
    # american A: 500+300+300+100+100+420 = 1720
    (
        "american",
        SideResult(
            natural_canastas=1,
            mixed_canastas=1,
            red_threes=2,
            black_threes=1,
            went_out=True,
            meld_points=420,
        ),
        1720,
    ),
    # american B: 300+250-60 = 490 (threes not counted with one canasta)
    ("american", SideResult(mixed_canastas=1, red_threes=1, meld_points=250, hand_points=60), 490),
    # american A: -180-100-300-45 = -625 (no canasta: melded cards and threes minus)
    ("american", SideResult(red_threes=1, black_threes=2, meld_points=180, hand_points=45), -625),
    # american B: 2500+500+500-2000-30 = 1470
    (
        "american",
        SideResult(
            aces_canastas=1,
            natural_canastas=1,
            unfinished_wild=True,
            meld_points=500,
            hand_points=30,
        ),
        1470,
    ),
    # american A: 300+210-85-1500 = -1075
    (
        "american",
        SideResult(mixed_canastas=1, aces_or_sevens_held=1, meld_points=210, hand_points=85),
        -1075,
    ),
    # american B: a straight, 3000 alone
    ("american", SideResult(special_hand="straight", went_out=True), 3000),
    # american A: 2500+3000+1000+100+450 = 7050
    (
        "american",
        SideResult(
            sevens_canastas=1, deuce_canastas=1, red_threes=4, went_out=True, meld_points=450
        ),
        7050,
    ),
    # hand-and-foot A: 1000+600+1500+200+100+1450 = 4850
    (
        "hand-and-foot",
        SideResult(
            natural_canastas=2,
            mixed_canastas=2,
            wild_canastas=1,
            red_threes=2,
            went_out=True,
            meld_points=1450,
        ),
        4850,
    ),
    # hand-and-foot B: 500+300+100-100+640-215 = 1225
    (
        "hand-and-foot",
        SideResult(
            natural_canastas=1,
            mixed_canastas=1,
            red_threes=1,
            red_threes_in_hand=1,
            meld_points=640,
            hand_points=215,
        ),
        1225,
    ),
    # burraco A: 200+100+100+385 = 785
    (
        "burraco",
        SideResult(natural_canastas=1, mixed_canastas=1, went_out=True, meld_points=385),
        785,
    ),
    # burraco B: 140-95-100 = -55
    ("burraco", SideResult(pot_missed=True, meld_points=140, hand_points=95), -55),
]


@pytest.mark.parametrize(("variant", "result", "score"), WORKED)
def test_worked_deals(variant: str, result: SideResult, score: int) -> None:
    rules = VARIANTS[variant]
    assert score_side(result, rules) == score
    # Each worked side is a legal entry on its own, beside a quiet other side.
    other = SideResult(meld_points=0, hand_points=50 * rules.players_per_side)
    deal = (result, other)
    assert errors_of(validate_deal(deal, rules)) == []


def test_parts_add_up_and_name_the_swing() -> None:
    """The parts a deal form shows: with no canasta the melded cards and threes are minus."""
    parts = score_breakdown(
        SideResult(red_threes=1, black_threes=2, meld_points=180, hand_points=45), AMERICAN
    ).parts(AMERICAN)
    assert parts["meld"] == -180
    assert parts["threes"] == -400
    assert parts["hand"] == -45
    assert sum(parts.values()) == -625
    assert "penalties" in parts and "special_hand" in parts
    assert "threes" not in score_breakdown(SideResult(), BURRACO).parts(BURRACO)


# --- the swing, threes per colour, penalties, special hands (properties) ------------

fives = st.integers(0, 200).map(lambda n: n * 5)


@SETTINGS
@given(
    canastas=st.integers(0, 4),
    red=st.integers(0, 4),
    black=st.integers(0, 4),
    meld=fives,
    hand=fives,
)
def test_the_swing(canastas: int, red: int, black: int, meld: int, hand: int) -> None:
    """RULES.md section 13's table: the sign of the melded cards and of the threes follows
    the side's completed canastas; the bonuses and the hand do not swing."""
    result = SideResult(
        mixed_canastas=canastas,
        red_threes=red,
        black_threes=black,
        meld_points=meld,
        hand_points=hand,
    )
    table = {0: 0, 1: 100, 2: 300, 3: 500, 4: 1000}
    threes = table[red] + table[black]
    meld_sign = -1 if canastas == 0 else 1
    threes_sign = {0: -1, 1: 0}.get(canastas, 1)
    expected = 300 * canastas + meld_sign * meld + threes_sign * threes - hand
    assert score_side(result, AMERICAN) == expected


@SETTINGS
@given(red=st.integers(0, 4), black=st.integers(0, 4))
def test_threes_count_per_colour(red: int, black: int) -> None:
    """Each colour on its own: 2 red and 2 black are 300 + 300, not the 1000 of four."""
    both = score_side(SideResult(natural_canastas=2, red_threes=red, black_threes=black), AMERICAN)
    alone = score_side(SideResult(natural_canastas=2, red_threes=red), AMERICAN) + score_side(
        SideResult(natural_canastas=2, black_threes=black), AMERICAN
    )
    assert both == alone - 1000  # the two canastas counted once


@SETTINGS
@given(
    aces=st.booleans(),
    sevens=st.booleans(),
    wild=st.booleans(),
    held=st.integers(0, 4),
    canastas=st.integers(0, 3),
)
def test_penalties_whatever_the_canastas(
    aces: bool, sevens: bool, wild: bool, held: int, canastas: int
) -> None:
    base = SideResult(natural_canastas=canastas, meld_points=35 * canastas)
    with_penalties = SideResult(
        natural_canastas=canastas,
        meld_points=35 * canastas,
        unfinished_aces=aces,
        unfinished_sevens=sevens,
        unfinished_wild=wild,
        aces_or_sevens_held=held,
    )
    taken = 2500 * aces + 2500 * sevens + 2000 * wild + 1500 * held
    assert score_side(with_penalties, AMERICAN) == score_side(base, AMERICAN) - taken


@SETTINGS
@given(hand=st.sampled_from(sorted(AMERICAN.special_hands)), other=fives)
def test_a_special_hand_scores_its_value_alone(hand: str, other: int) -> None:
    result = SideResult(special_hand=hand, went_out=True)
    assert score_side(result, AMERICAN) == AMERICAN.special_hands[hand]
    # Any other figure beside it is refused, naming the figure.
    mixed = SideResult(special_hand=hand, went_out=True, meld_points=other + 5)
    errors = errors_of(validate_deal((mixed, SideResult(hand_points=10)), AMERICAN))
    assert [e.field for e in errors] == ["results.0.meld_points"]


def test_a_dream_hand_wins_the_game_at_once() -> None:
    behind = SideResult(natural_canastas=2, meld_points=500, went_out=True)
    dream = SideResult(special_hand="dream_plus_5", went_out=True)
    state = replay(AMERICAN, [(behind, SideResult(hand_points=20))] * 3)
    assert not state.finished
    end = replay(AMERICAN, [(behind, SideResult(hand_points=20))] * 3 + [(SideResult(), dream)])
    assert AMERICAN.target is not None
    assert end.finished and end.winner == 1 and end.totals[1] < AMERICAN.target
    # Another special hand only scores.
    straight = SideResult(special_hand="straight", went_out=True)
    assert not replay(AMERICAN, [(SideResult(hand_points=10), straight)]).finished


def test_pagat_s_four_special_hands_and_garbage_at_2000() -> None:
    pagat = apply_options(
        AMERICAN,
        {"special_hands": {"pairs": 2500, "wild_pairs": 2000, "straight": 3000, "garbage": 2000}},
    )
    assert score_side(SideResult(special_hand="garbage", went_out=True), pagat) == 2000
    errors = errors_of(
        validate_deal(
            (SideResult(special_hand="quads", went_out=True), SideResult(hand_points=10)), pagat
        )
    )
    assert [e.rule for e in errors] == ["no_such_special_hand"]
    assert apply_options(AMERICAN, options_of(pagat)) == pagat
    with pytest.raises(OptionError) as refused:
        apply_options(AMERICAN, {"special_hands": {"royal": 100}})
    assert refused.value.option == "special_hands"


# --- going out -----------------------------------------------------------------------


def test_american_going_out_needs_two_canastas_and_no_unfinished_special_meld() -> None:
    one = SideResult(natural_canastas=1, meld_points=200, went_out=True)
    errors = errors_of(validate_deal((one, SideResult(hand_points=10)), AMERICAN))
    assert [e.rule for e in errors] == ["out_needs_canastas"]
    blocked = SideResult(natural_canastas=2, meld_points=300, went_out=True, unfinished_sevens=True)
    errors = errors_of(validate_deal((blocked, SideResult(hand_points=10)), AMERICAN))
    assert [(e.field, e.rule) for e in errors] == [("results.0.unfinished_sevens", "out_blocked")]


def test_hand_and_foot_going_out_needs_the_contract() -> None:
    short = SideResult(natural_canastas=3, mixed_canastas=1, meld_points=800, went_out=True)
    errors = errors_of(validate_deal((short, SideResult(hand_points=40)), HAND_AND_FOOT))
    assert [e.rule for e in errors] == ["out_needs_kinds"]
    assert "2 × dirty book" in errors[0].message
    kept = SideResult(natural_canastas=2, mixed_canastas=2, meld_points=800, went_out=True)
    assert errors_of(validate_deal((kept, SideResult(hand_points=40)), HAND_AND_FOOT)) == []
    # A house contract with a wild book.
    wild = apply_options(HAND_AND_FOOT, {"contract": {"natural": 2, "mixed": 2, "wild": 1}})
    assert errors_of(validate_deal((kept, SideResult(hand_points=40)), wild))


def test_burraco_closing_needs_the_pot_and_a_burraco() -> None:
    no_pot = SideResult(natural_canastas=1, meld_points=300, went_out=True, pot_missed=True)
    errors = errors_of(validate_deal((no_pot, SideResult(hand_points=40)), BURRACO))
    assert [(e.field, e.rule) for e in errors] == [("results.0.pot_missed", "out_blocked")]
    none = SideResult(meld_points=300, went_out=True)
    errors = errors_of(validate_deal((none, SideResult(hand_points=40)), BURRACO))
    assert [e.rule for e in errors] == ["out_needs_canastas"]


@pytest.mark.parametrize(
    ("variant", "figure"),
    [
        ("burraco", {"red_threes": 1}),
        ("burraco", {"concealed": True, "went_out": True, "natural_canastas": 1}),
        ("classic", {"pot_missed": True}),
        ("classic", {"black_threes": 1}),
        ("hand-and-foot", {"special_hand": "straight", "went_out": True}),
        ("american", {"red_threes_in_hand": 1}),
    ],
)
def test_a_figure_the_rule_set_does_not_know_is_refused(
    variant: str, figure: dict[str, object]
) -> None:
    rules = VARIANTS[variant]
    side = SideResult(meld_points=400, **figure)  # type: ignore[arg-type]
    errors = errors_of(validate_deal((side, SideResult(hand_points=50)), rules))
    assert errors and errors[0].field.startswith("results.0.")
    assert errors[0].field.split(".")[2] in figure


# --- the cards -------------------------------------------------------------------------


def test_one_canasta_of_aces_and_sevens_and_wild_cards_in_a_deal() -> None:
    aces = SideResult(aces_canastas=1, meld_points=140)
    errors = errors_of(validate_deal((aces, aces), AMERICAN))
    assert [e.rule for e in errors] == ["aces_canastas_cards"]
    # Eight twos and four jokers: one wild canasta of any kind.
    wild = SideResult(wild_canastas=1, meld_points=170)
    deuces = SideResult(deuce_canastas=1, meld_points=140)
    assert [e.rule for e in errors_of(validate_deal((wild, deuces), AMERICAN))] == [
        "wild_canastas_cards"
    ]
    # No meld of aces beside a canasta of them.
    beside = SideResult(unfinished_aces=True, meld_points=60, hand_points=10)
    assert [e.rule for e in errors_of(validate_deal((aces, beside), AMERICAN))] == [
        "rank_meld_beside_canasta"
    ]


def test_threes_of_each_colour_are_four() -> None:
    three = SideResult(black_threes=3, natural_canastas=2, meld_points=100)
    errors = errors_of(validate_deal((three, SideResult(black_threes=2, hand_points=5)), AMERICAN))
    assert [(e.field, e.rule) for e in errors] == [("results.1.black_threes", "black_threes_total")]
    # One side may lay down all four: two canastas, 1000 for the threes, 100 melded.
    four = SideResult(black_threes=4, natural_canastas=2, meld_points=100)
    assert errors_of(validate_deal((four, SideResult(hand_points=5)), AMERICAN)) == []
    assert score_side(four, AMERICAN) == 500 + 500 + 1000 + 100
    red = SideResult(red_threes=6, red_threes_in_hand=5, meld_points=100)
    errors = errors_of(validate_deal((red, SideResult(hand_points=5)), HAND_AND_FOOT))
    assert [e.rule for e in errors] == ["red_threes_side"]  # five decks: ten red threes


def test_hand_and_foot_decks_follow_the_players() -> None:
    assert (HAND_AND_FOOT.packs, HAND_AND_FOOT.jokers) == (5, 10)
    six = HAND_AND_FOOT.with_sides(3)
    assert (six.players, six.packs, six.jokers) == (6, 7, 14)
    with pytest.raises(OptionError):
        HAND_AND_FOOT.with_sides(4)


def test_burraco_card_values() -> None:
    # Two packs: 8 x (15 + 20 + 5 x 5 + 10 x 6) = 960, four jokers at 30: 1080.
    assert BURRACO.max_card_points == 8 * (15 + 20 + 25 + 60) + 4 * 30
    assert VARIANTS["classic"].max_card_points == 1180


# --- minimums by deal and a set number of deals --------------------------------------


def test_hand_and_foot_four_rounds_with_their_minimums() -> None:
    side = SideResult(natural_canastas=2, mixed_canastas=2, meld_points=800, went_out=True)
    other = SideResult(meld_points=300, hand_points=100)
    deals = [(side, other)] * 4
    state = replay(HAND_AND_FOOT, deals[:3])
    assert [line.minimums for line in state.lines] == [(50, 50), (90, 90), (120, 120)]
    assert state.minimums == (150, 150) and not state.finished
    done = replay(HAND_AND_FOOT, deals)
    assert done.finished and done.finished_after == 4 and done.winner == 0
    level = replay(HAND_AND_FOOT, [(other, other)] * 4)
    assert level.finished and level.drawn


@SETTINGS
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    minimums=st.lists(st.integers(0, 60).map(lambda n: n * 5), min_size=1, max_size=6),
    total=st.integers(-2000, 20_000).map(lambda n: n * 5),
)
def test_minimum_by_deal_in_every_rule_set(variant: str, minimums: list[int], total: int) -> None:
    """The house rule of section 14 serves any rule set: deal n plays at the n-th minimum
    whatever the total, the last for later deals; the game ends after the last listed."""
    rules = apply_options(VARIANTS[variant], {"meld_minimums_by_deal": minimums})
    for deal in range(1, len(minimums) + 3):
        assert rules.meld_minimum(total, deal) == minimums[min(deal, len(minimums)) - 1]
    assert rules.deals == len(minimums)
    if VARIANTS[variant].target is not None:
        kept = {"meld_minimums_by_deal": minimums, "deals": None}
        assert apply_options(VARIANTS[variant], kept).deals is None


def test_timed_tournament_minimums() -> None:
    """NVSO: 125, then 155, then 180 for the third deal, and the game ends there."""
    timed = apply_options(AMERICAN, {"meld_minimums_by_deal": [125, 155, 180]})
    quiet = (SideResult(hand_points=10), SideResult(hand_points=20))
    state = replay(timed, [quiet] * 3)
    assert [line.minimums[0] for line in state.lines] == [125, 155, 180]
    assert state.finished and state.winner == 0


def test_a_game_needs_a_target_or_a_number_of_deals() -> None:
    with pytest.raises(OptionError) as refused:
        apply_options(HAND_AND_FOOT, {"deals": None})
    assert refused.value.option == "target"
    to_5000 = apply_options(HAND_AND_FOOT, {"deals": None, "target": 5000})
    assert to_5000.deals is None and to_5000.target == 5000


def test_american_minimum_by_total() -> None:
    assert [AMERICAN.meld_minimum(t, 1) for t in (-500, 0, 2995, 3000, 4995, 5000)] == [
        125,
        125,
        125,
        155,
        155,
        180,
    ]
    assert BURRACO.meld_minimum(1500, 3) == 0


# --- house rules ---------------------------------------------------------------------


def test_house_rules_of_the_new_tables_round_trip() -> None:
    house = {
        "unfinished_wild_penalty": 2500,
        "special_hands": {"garbage": 2000, "straight": 3000},
        "concealed_going_out_bonus": 100,
    }
    rules = apply_options(AMERICAN, house)
    assert rules.penalties["unfinished_wild"] == 2500 and rules.asks_concealed
    assert apply_options(AMERICAN, options_of(rules)) == rules
    semi = apply_options(BURRACO, {"semi_natural_canasta_bonus": 150, "target": 1005})
    assert score_side(SideResult(semi_natural_canastas=1, meld_points=60), semi) == 210
    assert apply_options(BURRACO, options_of(semi)) == semi
    with pytest.raises(OptionError):
        apply_options(VARIANTS["classic"], {"semi_natural_canasta_bonus": 150})


@SETTINGS
@given(
    missed=st.booleans(),
    penalty=st.integers(0, 100).map(lambda n: n * 5),
    meld=fives,
    hand=fives,
)
def test_the_pot(missed: bool, penalty: int, meld: int, hand: int) -> None:
    rules = apply_options(BURRACO, {"pot_missed_penalty": penalty})
    result = SideResult(pot_missed=missed, meld_points=meld, hand_points=hand)
    assert score_side(result, rules) == meld - hand - penalty * missed


# --- the tables as RULES.md gives them -----------------------------------------------

CLA_SPECIAL_HANDS = {
    "pairs": 2500,
    "wild_pairs": 2000,
    "miami_pairs": 2500,
    "zip_code": 2500,
    "straight": 3000,
    "garbage": 3000,
    "blast_off": 3000,
    "triples": 3500,
    "quads": 3500,
    "dream_plus_4": 8500,
    "dream_plus_5": 8500,
}


@pytest.mark.parametrize("hand", sorted(CLA_SPECIAL_HANDS))
def test_cla_special_hands(hand: str) -> None:
    result = SideResult(special_hand=hand, went_out=True)
    assert score_side(result, AMERICAN) == CLA_SPECIAL_HANDS[hand]
    wins = replay(AMERICAN, [(result, SideResult(hand_points=5))]).winner == 0
    assert wins == hand.startswith("dream")


@pytest.mark.parametrize(
    ("variant", "players", "sides", "cards", "draw", "target", "deals"),
    [
        ("american", 4, 2, 13, 2, 8500, None),
        ("hand-and-foot", 4, 2, 11, 2, None, 4),
        ("burraco", 4, 2, 11, 1, 2005, None),
        ("burraco-2", 2, 2, 11, 1, 2005, None),
    ],
)
def test_the_tables(
    variant: str,
    players: int,
    sides: int,
    cards: int,
    draw: int,
    target: int | None,
    deals: int | None,
) -> None:
    rules = VARIANTS[variant]
    assert (rules.players, rules.sides, rules.cards_each, rules.draw) == (
        players,
        sides,
        cards,
        draw,
    )
    assert (rules.target, rules.deals) == (target, deals)


def test_a_burraco_game_ends_at_2005() -> None:
    closing = SideResult(natural_canastas=2, meld_points=1000, went_out=True)  # 1500
    state = replay(BURRACO, [(closing, SideResult(hand_points=20))])
    assert not state.finished
    small = SideResult(natural_canastas=1, meld_points=305, went_out=True)  # 605: 2105
    assert replay(BURRACO, [(closing, SideResult(hand_points=20))] * 2).finished
    last = replay(
        BURRACO, [(closing, SideResult(hand_points=20)), (small, SideResult(hand_points=5))]
    )
    assert last.totals[0] == 1500 + 605 and last.winner == 0
    short = SideResult(natural_canastas=1, meld_points=200, went_out=True)  # 500: 2000
    assert not replay(
        BURRACO, [(closing, SideResult(hand_points=20)), (short, SideResult(hand_points=5))]
    ).finished


def test_the_semi_clean_burraco_is_offered_at_150_and_holds_55() -> None:
    assert BURRACO.house_canastas == {CanastaKind.SEMI_NATURAL: 150}
    semi = apply_options(BURRACO, {"semi_natural_canasta_bonus": 150})
    short = SideResult(semi_natural_canastas=1, meld_points=50, hand_points=10)
    errors = errors_of(validate_deal((short, SideResult(hand_points=10)), semi))
    assert [e.rule for e in errors] == ["canastas_need_points"]
    enough = SideResult(semi_natural_canastas=1, meld_points=55, hand_points=10)
    assert errors_of(validate_deal((enough, SideResult(hand_points=10)), semi)) == []


def test_american_mixed_canastas_hold_two_wild_cards_at_most() -> None:
    assert AMERICAN.max_wilds == 2 and BURRACO.max_wilds == 1


@pytest.mark.parametrize(("held", "refused"), [(4, False), (5, True)])
def test_three_aces_and_three_sevens_each(held: int, refused: bool) -> None:
    side = SideResult(
        natural_canastas=1, meld_points=100, aces_or_sevens_held=held, hand_points=200
    )
    errors = errors_of(validate_deal((side, SideResult(hand_points=10)), AMERICAN))
    assert [e.rule for e in errors] == (["held_too_often"] if refused else [])


def test_a_record_counts_special_hands_and_aces_canastas() -> None:
    aces = SideResult(aces_canastas=1, natural_canastas=1, meld_points=300, went_out=True)
    straight = SideResult(special_hand="straight", went_out=True)
    deals = [(aces, SideResult(hand_points=10)), (SideResult(hand_points=10), straight)]
    first, second = side_records(replay(AMERICAN, deals), deals)
    assert (first.aces_canastas, first.special_hands) == (1, 0)
    assert (second.aces_canastas, second.special_hands) == (0, 1)
    semi = apply_options(BURRACO, {"semi_natural_canasta_bonus": 150})
    burraco = [(SideResult(semi_natural_canastas=1, meld_points=80), SideResult(meld_points=40))]
    mine, theirs = side_records(replay(semi, burraco), burraco)
    assert (mine.semi_natural_canastas, theirs.semi_natural_canastas) == (1, 0)
