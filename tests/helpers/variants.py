"""The rule sets of RULES.md sections 2, 3, 5, 6 and 7 written out by hand for the tests
of tests/test_variants_rules.py and tests/test_variants_house.py: ``SPECS`` and
``expected_minimum`` restate RULES.md independently of ``variants.py``."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    RuleSet,
    Severity,
    SideResult,
    Violation,
)
from scorekeeper.rules.variants import (
    CLASSIC,
    CLASSIC_2,
    CLASSIC_3,
    CLASSIC_6,
    CLASSIC_6X3,
    RAILROAD,
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


def railroad_spec(n: int) -> Spec:
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
    **{f"railroad-{n}": railroad_spec(n) for n in RAILROAD_SIZES},
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
