"""The rule sets (variants) of RULES.md sections 2, 3, 5, 6 and 7, engine only.

Every expected number is worked out by hand from RULES.md and written down here (the
comment beside it shows the sum); nothing is copied from a run of the engine. The tables
``SPECS`` and ``expected_minimum`` restate RULES.md independently of ``variants.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    OptionError,
    RuleSet,
    Seat,
    Severity,
    SideResult,
    Violation,
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
    VARIANTS,
)

#: Moderate and reproducible, with no example database in the project tree.
SETTINGS = settings(max_examples=50, database=None, deadline=None)
GAME_SETTINGS = settings(max_examples=30, database=None, deadline=None)

ERROR = Severity.ERROR
WARNING = Severity.WARNING

RAILROAD_SIZES = (2, 3, 4, 5, 6)
#: Every rule set a table can sit down to: the classic ones, and Railroad for 2 to 6.
RULE_SETS: dict[str, RuleSet] = {
    "classic": CLASSIC,
    "classic-2": CLASSIC_2,
    "classic-3": CLASSIC_3,
    "classic-6": CLASSIC_6,
    "classic-6x3": CLASSIC_6X3,
    **{f"railroad-{n}": RAILROAD.with_sides(n) for n in RAILROAD_SIZES},
}
ALL_TABLES = tuple(RULE_SETS)

#: Section 2 and 5: the bonus of each kind of canasta.
CANASTA_BONUS = {"natural": 500, "mixed": 300, "wild": 1000, "sevens": 1500}
#: Section 7: the least card points a canasta holds (seven 4s; six 4s and a 2; seven 2s;
#: seven 7s).
CANASTA_LEAST = {"natural": 7 * 5, "mixed": 6 * 5 + 20, "wild": 7 * 20, "sevens": 7 * 5}
CLASSIC_KINDS = ("natural", "mixed")
RAILROAD_KINDS = ("natural", "mixed", "wild", "sevens")

#: Section 1: one 52-card pack: 4 aces x 20 + 4 twos x 20 + 24 K..8 x 10 + 16 7..4 x 5
#: + 2 black threes x 5 + 2 red threes x 0 = 80 + 80 + 240 + 80 + 10 = 490.
PACK = 490


@dataclass(frozen=True)
class Spec:
    """A rule set's numbers as RULES.md gives them, written out by hand."""

    sides: int
    players_per_side: int
    target: int
    kinds: tuple[str, ...]
    #: Canastas a side needs to go out (Railroad: one of each kind, so four).
    canastas_to_go_out: int
    every_kind_to_go_out: bool
    max_red_threes: int
    #: Red-three counts scored other than 100 each.
    red_three_totals: Mapping[int, int]
    red_threes_negative: bool
    #: What going out concealed scores in all; None: it scores as plain going out.
    concealed_out: int | None
    card_points: int


def _railroad(n: int) -> Spec:
    # Section 5: two packs and two jokers per player: 4 red threes per 2 packs, so 4n;
    # card points 2 x 490 + 2 x 50 = 1080 per player.
    return Spec(n, 1, 20_000, RAILROAD_KINDS, 4, True, 4 * n, {}, False, None, 1080 * n)


SPECS: dict[str, Spec] = {
    # Section 2: 4 players, 2 x 2; 2 packs + 4 jokers: 980 + 200 = 1180; 4 red threes.
    "classic": Spec(2, 2, 5000, CLASSIC_KINDS, 1, False, 4, {4: 800}, True, 200, 1180),
    # Section 3: 2 players; going out needs 2 canastas.
    "classic-2": Spec(2, 1, 5000, CLASSIC_KINDS, 2, False, 4, {4: 800}, True, 200, 1180),
    "classic-3": Spec(3, 1, 5000, CLASSIC_KINDS, 1, False, 4, {4: 800}, True, 200, 1180),
    # 3 packs + 6 jokers: 1470 + 300 = 1770; 6 red threes: five 1000, six 1200.
    "classic-6": Spec(
        2, 3, 10_000, CLASSIC_KINDS, 2, False, 6, {5: 1000, 6: 1200}, True, 200, 1770
    ),
    "classic-6x3": Spec(
        3, 2, 7500, CLASSIC_KINDS, 2, False, 6, {5: 1000, 6: 1200}, True, 200, 1770
    ),
    **{f"railroad-{n}": _railroad(n) for n in RAILROAD_SIZES},
}


def expected_minimum(table: str, total: int) -> int:
    """The initial-meld tables of sections 2, 3 and 5, written out."""
    if table.startswith("railroad"):
        tiers = [(0, 50), (5000, 90), (10_000, 120), (15_000, 150)]
    else:
        tiers = [(0, 50), (1500, 90), (3000, 120)]
        if table == "classic-6":
            tiers.append((7500, 150))
    minimum = 15  # below 0
    for start, value in tiers:
        if total >= start:
            minimum = value
    return minimum


def expected_red_threes(spec: Spec, count: int, *, melded: bool) -> int:
    """Sections 2, 3 and 5: 100 each, special totals, negative without a meld (classic)."""
    value = spec.red_three_totals.get(count, 100 * count)
    return -value if spec.red_threes_negative and not melded else value


def expected_score(spec: Spec, result: SideResult) -> int:
    """Section 2's sum, with section 3's and 5's numbers."""
    canastas = sum(CANASTA_BONUS[kind] * getattr(result, f"{kind}_canastas") for kind in spec.kinds)
    going_out = 0
    if result.went_out:
        going_out = 100
        if result.concealed and spec.concealed_out is not None:
            going_out = spec.concealed_out
    red = expected_red_threes(spec, result.red_threes, melded=result.meld_points > 0)
    return canastas + red + going_out + result.meld_points - result.hand_points


def fives(low: int, high: int) -> st.SearchStrategy[int]:
    """Multiples of 5 from ``low`` to ``high`` (both multiples of 5)."""
    return st.integers(low // 5, high // 5).map(lambda k: 5 * k)


def pairs(violations: Sequence[Violation], severity: Severity) -> set[tuple[str, str]]:
    """The (field, rule) pairs of the violations of one severity."""
    return {(v.field, v.rule) for v in violations if v.severity is severity}


def quiet(sides: int, hand: int = 50) -> list[SideResult]:
    """Sides that melded nothing, hold ``hand`` and have no red three."""
    return [SideResult(hand_points=hand) for _ in range(sides)]


#: Section 8, Railroad: one canasta of each kind, meld 600, one red three, out, hand 0:
#: 500 + 300 + 1000 + 1500 + 100 (red three) + 100 (out) + 600 = 4100.
RAILROAD_OUT = SideResult(
    meld_points=600,
    natural_canastas=1,
    mixed_canastas=1,
    wild_canastas=1,
    sevens_canastas=1,
    red_threes=1,
    went_out=True,
    hand_points=0,
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
