"""The rule sets (variants) of RULES.md sections 2, 3, 5 and 7, engine only: each rule set's
numbers, Railroad, and classic for other numbers of players (house rules, properties and
seating: tests/test_variants_house.py).

Every expected number is worked out by hand from RULES.md and written down here (the
comment beside it shows the sum); nothing is copied from a run of the engine. The tables
``SPECS`` and ``expected_minimum`` (tests/helpers/variants.py) restate RULES.md
independently of ``variants.py``.
"""

from dataclasses import replace

import pytest

from scorekeeper.rules import (
    OptionError,
    RuleSet,
    SideResult,
    errors_of,
    replay,
    score_deal,
    score_side,
    validate_deal,
)
from scorekeeper.rules.variants import (
    CLASSIC,
    CLASSIC_2,
    CLASSIC_3,
    CLASSIC_6,
    CLASSIC_6X3,
    RAILROAD,
    VARIANTS,
)

from .helpers.variants import (
    ALL_TABLES,
    CANASTA_LEAST,
    ERROR,
    RAILROAD_KINDS,
    RAILROAD_OUT,
    RAILROAD_SIZES,
    RULE_SETS,
    SPECS,
    WARNING,
    expected_minimum,
    pairs,
    quiet,
)

# --- each variant's numbers ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "variant_id", "target", "players", "sides"),
    [
        (CLASSIC, "classic", 5000, 4, 2),
        (CLASSIC_2, "classic-2", 5000, 2, 2),
        (CLASSIC_3, "classic-3", 5000, 3, 3),
        (CLASSIC_6, "classic-6", 10_000, 6, 2),
        (CLASSIC_6X3, "classic-6x3", 7500, 6, 3),
        (RAILROAD, "railroad", 20_000, 2, 2),  # the smallest Railroad table
    ],
)
def test_variant_numbers(
    rules: RuleSet, variant_id: str, target: int, players: int, sides: int
) -> None:
    """Sections 2, 3 and 5: target, players and sides of each rule set."""
    assert VARIANTS[variant_id] is rules
    assert rules.id == variant_id
    assert rules.target == target
    assert rules.players == players
    assert rules.sides == sides
    assert rules.players_per_side * rules.sides == players


def test_variant_ids() -> None:
    """API.md: the ids are fixed."""
    assert set(VARIANTS) == {
        "classic",
        "classic-2",
        "classic-3",
        "classic-6",
        "classic-6x3",
        "railroad",
        "samba",
        "bolivia",
        "cuban",
        "uruguay",
        "american",
        "hand-and-foot",
        "burraco",
        "burraco-2",
    }


@pytest.mark.parametrize("table", ALL_TABLES)
def test_spec_matches_rule_set(table: str) -> None:
    """The hand-written table above agrees with the rule set's own figures."""
    rules, spec = RULE_SETS[table], SPECS[table]
    assert rules.sides == spec.sides
    assert rules.players_per_side == spec.players_per_side
    assert rules.target == spec.target
    assert rules.max_red_threes == spec.max_red_threes
    assert rules.max_card_points == spec.card_points
    assert [kind.value for kind in rules.canasta_kinds] == list(spec.kinds)


@pytest.mark.parametrize(
    ("rules", "needed"),
    [(CLASSIC, 1), (CLASSIC_2, 2), (CLASSIC_3, 1), (CLASSIC_6, 2), (CLASSIC_6X3, 2)],
)
def test_canastas_to_go_out(rules: RuleSet, needed: int) -> None:
    """Sections 2 and 3: going out with one canasta too few is refused; with enough it is
    not."""
    assert rules.canastas_to_go_out == needed
    others = quiet(rules.sides - 1)
    # Natural canastas hold at least 35 each; 300 is plenty.
    short = SideResult(meld_points=300, natural_canastas=needed - 1, went_out=True, hand_points=5)
    enough = replace(short, natural_canastas=needed)
    assert ("results.0.went_out", "out_needs_canastas") in pairs(
        validate_deal([short, *others], rules), ERROR
    )
    assert errors_of(validate_deal([enough, *others], rules)) == []


@pytest.mark.parametrize(
    ("variant_id", "cards_each", "draw", "kitty", "packs", "jokers"),
    [
        # Section 2: 11 each, draw 1; two packs and four jokers.
        ("classic", 11, 1, 0, 2, 4),
        # Section 3: 2 players 15 each and draw 2; 3 players 13; 6 players 13 from 3 packs.
        ("classic-2", 15, 2, 0, 2, 4),
        ("classic-3", 13, 1, 0, 2, 4),
        ("classic-6", 13, 1, 0, 3, 6),
        ("classic-6x3", 13, 1, 0, 3, 6),
        # Section 5: 13 each plus an 11-card kitty, draw 2 (the smallest table: 2 players).
        ("railroad", 13, 2, 11, 4, 4),
    ],
)
def test_cards_dealt_and_drawn(
    variant_id: str, cards_each: int, draw: int, kitty: int, packs: int, jokers: int
) -> None:
    rules = VARIANTS[variant_id]
    assert (rules.cards_each, rules.draw, rules.kitty) == (cards_each, draw, kitty)
    assert (rules.packs, rules.jokers) == (packs, jokers)


def test_railroad_needs_one_of_each_kind() -> None:
    """Section 5: going out needs one canasta of each of the four kinds."""
    assert {kind.value for kind in RAILROAD.contract} == set(RAILROAD_KINDS)
    assert {kind.value for kind in RAILROAD.canasta_kinds} == set(RAILROAD_KINDS)


TOTALS = (-1000, -5, 0, 1495, 1500, 2995, 3000, 4995, 5000, 7495, 7500, 9995, 10_000)
TOTALS += (14_995, 15_000, 19_995)


@pytest.mark.parametrize(
    ("table", "total"),
    [(table, total) for table in ALL_TABLES for total in TOTALS],
)
def test_meld_minimum_tiers(table: str, total: int) -> None:
    """Sections 2, 3 and 5: the initial-meld minimum of each rule set.

    classic (and classic-6x3): <0 15, 0..1495 50, 1500..2995 90, 3000+ 120; classic-6
    alone adds 150 from 7500;
    Railroad: <0 15, 0..4995 50, 5000..9995 90, 10000..14995 120, 15000+ 150."""
    assert RULE_SETS[table].meld_minimum(total, 1) == expected_minimum(table, total)


@pytest.mark.parametrize(
    ("rules", "total", "minimum"),
    [
        (CLASSIC_6, 7495, 120),
        (CLASSIC_6, 7500, 150),
        (CLASSIC_6, 9995, 150),
        (RAILROAD, -5, 15),
        (RAILROAD, 0, 50),
        (RAILROAD, 4995, 50),
        (RAILROAD, 5000, 90),
        (RAILROAD, 9995, 90),
        (RAILROAD, 10_000, 120),
        (RAILROAD, 14_995, 120),
        (RAILROAD, 15_000, 150),
        (RAILROAD, 30_000, 150),
        (CLASSIC, 7500, 120),  # classic has no 150 tier
        # Section 3: six in three sides of two keep the classic tiers; 150 is classic-6's.
        (CLASSIC_6X3, 7495, 120),
        (CLASSIC_6X3, 7500, 120),
        (CLASSIC_6X3, 9995, 120),
        (CLASSIC_2, 9995, 120),
        (CLASSIC_3, 3000, 120),
    ],
)
def test_meld_minimum_spot_checks(rules: RuleSet, total: int, minimum: int) -> None:
    """Sections 3 and 5, written out value by value."""
    assert rules.meld_minimum(total, 1) == minimum


@pytest.mark.parametrize(
    ("table", "count", "value"),
    [
        # Section 2: 100 each, all four 800.
        ("classic", 1, 100),
        ("classic", 3, 300),
        ("classic", 4, 800),
        ("classic-2", 2, 200),
        ("classic-2", 4, 800),
        ("classic-3", 4, 800),
        # Section 3: 100 each, five 1000, six 1200 (four of six are 4 x 100).
        ("classic-6", 1, 100),
        ("classic-6", 4, 400),
        ("classic-6", 5, 1000),
        ("classic-6", 6, 1200),
        ("classic-6x3", 4, 400),
        ("classic-6x3", 5, 1000),
        ("classic-6x3", 6, 1200),
        # Section 5: 100 each, no bonus for all of them.
        ("railroad-2", 1, 100),
        ("railroad-2", 4, 400),
        ("railroad-2", 8, 800),
        ("railroad-3", 12, 1200),
        ("railroad-6", 24, 2400),
    ],
)
def test_red_threes(table: str, count: int, value: int) -> None:
    """Red threes of a side that melded: 100 meld - 10 hand + the red threes."""
    rules = RULE_SETS[table]
    side = SideResult(meld_points=100, red_threes=count, hand_points=10)
    assert score_side(side, rules) == 90 + value


@pytest.mark.parametrize(
    ("table", "count", "value"),
    [
        ("classic", 2, -200),  # section 2: -100 each
        ("classic", 4, -800),  # -800 for all four
        ("classic-2", 4, -800),
        ("classic-3", 1, -100),
        ("classic-6", 5, -1000),
        ("classic-6", 6, -1200),
        ("classic-6x3", 6, -1200),
        ("railroad-2", 3, 300),  # section 5: never negative
        ("railroad-2", 8, 800),
        ("railroad-4", 16, 1600),
    ],
)
def test_red_threes_without_meld(table: str, count: int, value: int) -> None:
    """A side that melded nothing (meld 0, hand 40): classic red threes count against it,
    Railroad's never do."""
    rules = RULE_SETS[table]
    side = SideResult(meld_points=0, red_threes=count, hand_points=40)
    assert score_side(side, rules) == value - 40


@pytest.mark.parametrize("table", ALL_TABLES)
def test_max_red_threes(table: str) -> None:
    """Section 7: 2 packs hold 4 red threes, 3 packs 6, Railroad 4 per player; that many
    on one side is possible, one more in all is refused."""
    rules, spec = RULE_SETS[table], SPECS[table]
    most = spec.max_red_threes
    others = quiet(rules.sides - 1)
    all_of_them = SideResult(meld_points=100, red_threes=most, hand_points=10)
    assert errors_of(validate_deal([all_of_them, *others], rules)) == []
    one_too_many = replace(all_of_them, red_threes=most + 1)
    assert ("results.0.red_threes", "red_threes_side") in pairs(
        validate_deal([one_too_many, *others], rules), ERROR
    )
    # Spread over two sides: the total is refused, named at the last side listing them.
    split = [
        replace(all_of_them, red_threes=most),
        SideResult(meld_points=100, red_threes=1, hand_points=10),
        *quiet(rules.sides - 2),
    ]
    assert ("results.1.red_threes", "red_threes_total") in pairs(validate_deal(split, rules), ERROR)


@pytest.mark.parametrize("table", ALL_TABLES)
def test_card_points_bound(table: str) -> None:
    """Section 7: melded plus hand points over all sides at most 1180 (2 packs), 1770
    (3 packs), 1080 per Railroad player: at the bound no warning, 5 over it a warning."""
    rules, spec = RULE_SETS[table], SPECS[table]
    others = quiet(rules.sides - 1, hand=5)
    first = SideResult(meld_points=spec.card_points - 5 * (rules.sides - 1), hand_points=0)
    at_bound = validate_deal([first, *others], rules)
    assert ("results", "card_points_total") not in pairs(at_bound, WARNING)
    over = validate_deal([replace(first, meld_points=first.meld_points + 5), *others], rules)
    assert ("results", "card_points_total") in pairs(over, WARNING)
    assert ("results", "card_points_total") not in pairs(over, ERROR)


# --- Railroad ------------------------------------------------------------------------


def test_railroad_worked_example() -> None:
    """Section 8: 500 + 300 + 1000 + 1500 + 100 + 100 + 600 = 4100."""
    assert score_side(RAILROAD_OUT, RAILROAD) == 4100
    # An opponent: meld 100, hand 60 -> 40.
    opponent = SideResult(meld_points=100, hand_points=60)
    violations = validate_deal([RAILROAD_OUT, opponent], RAILROAD)
    assert errors_of(violations) == []
    assert score_deal([RAILROAD_OUT, opponent], RAILROAD) == (4100, 40)


@pytest.mark.parametrize("missing", RAILROAD_KINDS)
@pytest.mark.parametrize("side", [0, 1])
def test_railroad_out_needs_every_kind(missing: str, side: int) -> None:
    """Section 5: going out without one canasta of each kind is refused, even with two of
    the others."""
    out = replace(RAILROAD_OUT, **{f"{missing}_canastas": 0})
    # Give a second canasta of another kind so the count (4) is not the reason.
    other = next(kind for kind in RAILROAD_KINDS if kind != missing)
    out = replace(out, **{f"{other}_canastas": 2}, meld_points=800)
    results = [SideResult(meld_points=100, hand_points=60)] * 2
    results[side] = out
    assert (f"results.{side}.went_out", "out_needs_kinds") in pairs(
        validate_deal(results, RAILROAD), ERROR
    )


def test_railroad_concealed_out_is_only_a_warning() -> None:
    """Section 5: no concealed bonus; a concealed going out scores as going out (4100)."""
    concealed = replace(RAILROAD_OUT, concealed=True)
    opponent = SideResult(meld_points=100, hand_points=60)
    violations = validate_deal([concealed, opponent], RAILROAD)
    assert errors_of(violations) == []
    assert ("results.0.concealed", "no_concealed_out") in pairs(violations, WARNING)
    assert score_side(concealed, RAILROAD) == 4100  # not 4200


@pytest.mark.parametrize(("wild", "least"), [(1, 140), (2, 280)])
def test_railroad_wild_canastas_need_points(wild: int, least: int) -> None:
    """Section 7: a wild canasta holds seven wild cards, at least 7 x 20 = 140."""
    opponent = SideResult(meld_points=100, hand_points=60)
    enough = SideResult(meld_points=least, wild_canastas=wild, hand_points=20)
    assert errors_of(validate_deal([enough, opponent], RAILROAD)) == []
    short = replace(enough, meld_points=least - 5)
    assert ("results.0.meld_points", "canastas_need_points") in pairs(
        validate_deal([short, opponent], RAILROAD), ERROR
    )
    # 1000 per wild canasta + meld - 20 hand.
    assert score_side(enough, RAILROAD) == 1000 * wild + least - 20


@pytest.mark.parametrize(
    ("players", "most_wild", "most_sevens"),
    [
        # n players: 2n packs: 8n twos + 2n jokers = 10n wild cards; 8n sevens.
        (2, 2, 2),  # 20 // 7 = 2; 16 // 7 = 2
        (3, 4, 3),  # 30 // 7 = 4; 24 // 7 = 3
        (4, 5, 4),  # 40 // 7 = 5; 32 // 7 = 4
        (5, 7, 5),  # 50 // 7 = 7; 40 // 7 = 5
        (6, 8, 6),  # 60 // 7 = 8; 48 // 7 = 6
    ],
)
def test_railroad_canastas_beyond_the_cards(players: int, most_wild: int, most_sevens: int) -> None:
    """Section 7: only so many wild cards and sevens exist."""
    rules = RAILROAD.with_sides(players)
    others = quiet(players - 1)
    wild = SideResult(meld_points=140 * most_wild, wild_canastas=most_wild, hand_points=20)
    assert errors_of(validate_deal([wild, *others], rules)) == []
    too_many = replace(wild, wild_canastas=most_wild + 1, meld_points=140 * (most_wild + 1))
    assert ("results.0.wild_canastas", "wild_canastas_cards") in pairs(
        validate_deal([too_many, *others], rules), ERROR
    )
    sevens = SideResult(meld_points=35 * most_sevens, sevens_canastas=most_sevens, hand_points=20)
    assert errors_of(validate_deal([sevens, *others], rules)) == []
    too_many = replace(sevens, sevens_canastas=most_sevens + 1, meld_points=35 * (most_sevens + 1))
    assert ("results.0.sevens_canastas", "sevens_canastas_cards") in pairs(
        validate_deal([too_many, *others], rules), ERROR
    )


@pytest.mark.parametrize("kind", ["wild", "sevens"])
def test_railroad_canastas_beyond_the_cards_over_all_sides(kind: str) -> None:
    """Section 7: the cards are shared, so two players together cannot have more wild
    (20 wild cards: 2) or sevens (16 sevens: 2) canastas than one could: 2 + 1 is refused."""
    field = f"{kind}_canastas"
    least = CANASTA_LEAST[kind]
    first = SideResult(meld_points=2 * least, hand_points=20, **{field: 2})
    second = SideResult(meld_points=least, hand_points=20, **{field: 1})
    errors = errors_of(validate_deal([first, second], RAILROAD))
    assert any(v.field.endswith(field) for v in errors), errors


def test_classic_has_no_wild_or_sevens_canastas() -> None:
    """Sections 2 and 5: only Railroad scores wild and sevens canastas."""
    for field in ("wild_canastas", "sevens_canastas"):
        side = SideResult(meld_points=300, hand_points=20, **{field: 1})
        assert (f"results.0.{field}", "no_such_canasta") in pairs(
            validate_deal([side, SideResult(hand_points=50)], CLASSIC), ERROR
        )


@pytest.mark.parametrize("players", RAILROAD_SIZES)
def test_railroad_with_sides(players: int) -> None:
    """Section 5: each player alone, two packs and two jokers per player."""
    rules = RAILROAD.with_sides(players)
    assert rules.sides == players
    assert rules.players == players
    assert rules.players_per_side == 1
    assert rules.packs == 2 * players
    assert rules.jokers == 2 * players
    assert rules.max_red_threes == 4 * players
    assert rules.max_card_points == 1080 * players  # (2 x 490 + 2 x 50) per player
    assert rules.target == 20_000
    assert errors_of(validate_deal(quiet(players), rules)) == []


@pytest.mark.parametrize("players", [0, 1, 7, 8])
def test_railroad_with_sides_refused(players: int) -> None:
    """2 to 6 players; other counts are refused naming the option ``sides``."""
    with pytest.raises(OptionError) as caught:
        RAILROAD.with_sides(players)
    assert caught.value.option == "sides"


@pytest.mark.parametrize("rules", [CLASSIC, CLASSIC_2, CLASSIC_3, CLASSIC_6, CLASSIC_6X3])
def test_classic_with_sides(rules: RuleSet) -> None:
    """The classic rule sets have a fixed number of sides: the same count is accepted,
    any other refused."""
    assert rules.with_sides(rules.sides) == rules
    for sides in (1, 2, 3, 4, 6):
        if sides == rules.sides:
            continue
        with pytest.raises(OptionError) as caught:
            rules.with_sides(sides)
        assert caught.value.option == "sides"


# --- classic for other numbers of players ------------------------------------------


def test_classic_2_going_out() -> None:
    """Section 3: classic-2 needs two canastas to go out."""
    opponent = SideResult(meld_points=100, hand_points=60)
    one = SideResult(meld_points=220, natural_canastas=1, went_out=True, hand_points=0)
    assert ("results.0.went_out", "out_needs_canastas") in pairs(
        validate_deal([one, opponent], CLASSIC_2), ERROR
    )
    two = replace(one, mixed_canastas=1)
    assert errors_of(validate_deal([two, opponent], CLASSIC_2)) == []
    # 500 + 300 + 100 out + 220 meld - 0 = 1120
    assert score_side(two, CLASSIC_2) == 1120
    # Classic (4 players) takes the same one-canasta going out: 500 + 100 + 220 - 5 = 815.
    one_classic = replace(one, hand_points=5)
    assert errors_of(validate_deal([one_classic, opponent], CLASSIC)) == []
    assert score_side(one_classic, CLASSIC) == 815


@pytest.mark.parametrize(("count", "value"), [(5, 1000), (6, 1200)])
def test_classic_6_five_and_six_red_threes(count: int, value: int) -> None:
    """Section 3: five red threes to one side 1000, six 1200; both happen with 3 packs."""
    side = SideResult(meld_points=200, mixed_canastas=1, red_threes=count, hand_points=30)
    others = [SideResult(meld_points=100, hand_points=60)]
    assert errors_of(validate_deal([side, *others], CLASSIC_6)) == []
    # 300 mixed + red threes + 200 meld - 30 hand
    assert score_side(side, CLASSIC_6) == 300 + value + 200 - 30


def test_classic_6_seven_red_threes_refused() -> None:
    """Section 3: 3 packs hold 6 red threes; 7 to one side or in all is refused."""
    opponent = SideResult(meld_points=100, hand_points=60)
    seven = SideResult(meld_points=200, red_threes=7, hand_points=30)
    assert ("results.0.red_threes", "red_threes_side") in pairs(
        validate_deal([seven, opponent], CLASSIC_6), ERROR
    )
    split = [replace(seven, red_threes=4), replace(opponent, red_threes=3)]
    assert ("results.1.red_threes", "red_threes_total") in pairs(
        validate_deal(split, CLASSIC_6), ERROR
    )


def test_classic_3_three_results_per_deal() -> None:
    """Section 3: three players each alone, so three results per deal."""
    two = [SideResult(meld_points=100, hand_points=20)] * 2
    assert ("results", "sides") in pairs(validate_deal(two, CLASSIC_3), ERROR)
    three = [*two, SideResult(meld_points=100, hand_points=20)]
    assert errors_of(validate_deal(three, CLASSIC_3)) == []
    four = [*three, SideResult(meld_points=100, hand_points=20)]
    assert ("results", "sides") in pairs(validate_deal(four, CLASSIC_3), ERROR)


def test_classic_3_red_threes_at_most_four_in_all() -> None:
    """Sections 3 and 7: two packs, so 4 red threes over the three players."""

    def side(red: int) -> SideResult:
        return SideResult(meld_points=100, red_threes=red, hand_points=20)

    assert errors_of(validate_deal([side(2), side(1), side(1)], CLASSIC_3)) == []
    assert ("results.2.red_threes", "red_threes_total") in pairs(
        validate_deal([side(2), side(2), side(1)], CLASSIC_3), ERROR
    )


def test_classic_3_each_player_has_own_minimum_and_red_threes() -> None:
    """Section 3: each player's minimum follows their own total; four red threes to one
    player score 800."""
    deal = [
        SideResult(meld_points=100, red_threes=4, hand_points=20),  # 800 + 100 - 20 = 880
        SideResult(meld_points=60, hand_points=20),  # 60 - 20 = 40
        SideResult(meld_points=0, hand_points=35),  # -35
    ]
    state = replay(CLASSIC_3, [deal], starts=(-100, 1500, 3000))
    assert state.lines[0].minimums == (15, 90, 120)  # <0; 1500..2995; 3000+
    assert state.totals == (780, 1540, 2965)  # -100 + 880; 1500 + 40; 3000 - 35
    assert state.minimums == (50, 90, 90)  # 780 in 0..1495; 1540, 2965 in 1500..2995


def test_classic_6_minimum_150_in_replay() -> None:
    """Section 3: classic-6 sides need 150 from 7500."""
    deal = [SideResult(meld_points=200, hand_points=30), SideResult(meld_points=50, hand_points=60)]
    state = replay(CLASSIC_6, [deal], starts=(7330, 7505))
    assert state.lines[0].minimums == (120, 150)
    assert state.totals == (7500, 7495)  # 7330 + 170; 7505 - 10
    assert state.minimums == (150, 120)
    assert state.winner is None  # 10 000 not reached


def test_railroad_minimums_in_replay() -> None:
    """Section 5: five players, one in each tier."""
    rules = RAILROAD.with_sides(5)
    starts = (-5, 4995, 9995, 14_995, 15_000)
    state = replay(rules, [quiet(5, hand=0)], starts=starts)
    assert state.lines[0].minimums == (15, 50, 90, 120, 150)
