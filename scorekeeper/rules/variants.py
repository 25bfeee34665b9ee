"""Rule sets as data: one frozen object per variant, house rules as overrides of it.

Every number comes from ../shared/RULES.md (sections 2 to 6). A new variant is a new
``RuleSet`` value in ``VARIANTS``, not a new branch in the scoring code.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar


class CanastaKind(enum.Enum):
    """The kinds of canasta a rule set may score (Railroad knows all four)."""

    NATURAL = "natural"
    MIXED = "mixed"
    WILD = "wild"
    SEVENS = "sevens"

    @property
    def field(self) -> str:
        """The name of the deal-entry figure that counts canastas of this kind."""
        return f"{self.value}_canastas"


#: The least card points a canasta of each kind can hold (RULES.md section 7): seven
#: fours; six fours and a two; seven twos; seven sevens.
CANASTA_MIN_POINTS: Mapping[CanastaKind, int] = MappingProxyType(
    {
        CanastaKind.NATURAL: 35,
        CanastaKind.MIXED: 50,
        CanastaKind.WILD: 140,
        CanastaKind.SEVENS: 35,
    }
)


@dataclass(frozen=True)
class MeldTier:
    """One row of the initial-meld table: from this total upward, the first meld needs
    ``minimum`` card points. ``from_total`` is None for the bottom row (below the next)."""

    from_total: int | None
    minimum: int


K = TypeVar("K")


def _frozen(mapping: Mapping[K, int]) -> Mapping[K, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RuleSet:
    """Everything that distinguishes one way of playing Canasta from another.

    Scores, minimums, going-out requirements and the deal checks read these numbers;
    nothing in the engine tests a variant's id.
    """

    id: str
    name: str
    #: Sides at the table and players on each side (a player alone is a side of one).
    sides: int
    players_per_side: int
    #: 52-card packs in play (jokers come with them); bounds the red threes and canastas.
    packs: int
    target: int
    meld_minimums: tuple[MeldTier, ...]
    canasta_bonuses: Mapping[CanastaKind, int]
    red_three_bonus: int
    #: Totals that replace ``count * red_three_bonus`` for some counts (all four: 800).
    red_three_totals: Mapping[int, int]
    #: Whether a side that melded nothing scores its red threes negative.
    red_threes_count_against_unmelded: bool
    going_out_bonus: int
    #: Extra for going out concealed, on top of ``going_out_bonus``; None: not scored.
    concealed_going_out_bonus: int | None
    #: Canastas a side needs before it may go out, and kinds it needs one of each.
    canastas_to_go_out: int
    kinds_to_go_out: frozenset[CanastaKind] = frozenset()
    #: Plausibility bounds over all sides together (RULES.md section 7).
    max_natural_canastas: int = 11
    max_canastas: int = 13
    max_card_points: int = 1180
    #: House options (RULES.md sections 2 and 4).
    wilds_may_outnumber_naturals: bool = False
    black_three_freezes: bool = False
    #: Extra per canasta melded whole from the hand; 0 when the house rule is off.
    concealed_canasta_bonus: int = 0
    #: Card points a player who did not go out holds at least (one card of 5).
    least_card_points: int = field(default=5)

    @property
    def players(self) -> int:
        return self.sides * self.players_per_side

    @property
    def canasta_kinds(self) -> tuple[CanastaKind, ...]:
        """The kinds this rule set scores, in the order the score sheet lists them."""
        return tuple(kind for kind in CanastaKind if kind in self.canasta_bonuses)

    @property
    def max_red_threes(self) -> int:
        """Two red threes per pack: 4 with two packs, 6 with three."""
        return 2 * self.packs

    @property
    def concealed_going_out_total(self) -> int | None:
        """What going out concealed scores in all (200 in classic), or None."""
        if self.concealed_going_out_bonus is None:
            return None
        return self.going_out_bonus + self.concealed_going_out_bonus

    def meld_minimum(self, total: int) -> int:
        """The minimum a side's initial meld must count, from its total at the start of
        the deal: the highest tier whose ``from_total`` the total reaches."""
        minimum = self.meld_minimums[0].minimum
        for tier in self.meld_minimums:
            if tier.from_total is None or total >= tier.from_total:
                minimum = tier.minimum
        return minimum

    def red_three_score(self, count: int, *, melded: bool) -> int:
        """Red threes: ``red_three_bonus`` each, special totals for some counts, negative
        for a side that melded nothing when the rule set says so."""
        if count == 0:
            return 0
        score = self.red_three_totals.get(count, count * self.red_three_bonus)
        if not melded and self.red_threes_count_against_unmelded:
            return -score
        return score


_CLASSIC_TIERS = (
    MeldTier(None, 15),
    MeldTier(0, 50),
    MeldTier(1500, 90),
    MeldTier(3000, 120),
)

CLASSIC = RuleSet(
    id="classic",
    name="Classic Canasta, 4 players in 2 partnerships",
    sides=2,
    players_per_side=2,
    packs=2,
    target=5000,
    meld_minimums=_CLASSIC_TIERS,
    canasta_bonuses=_frozen({CanastaKind.NATURAL: 500, CanastaKind.MIXED: 300}),
    red_three_bonus=100,
    red_three_totals=_frozen({4: 800}),
    red_threes_count_against_unmelded=True,
    going_out_bonus=100,
    concealed_going_out_bonus=100,
    canastas_to_go_out=1,
)

#: Every rule set the app knows, by id, in the order the new-game page offers them.
VARIANTS: Mapping[str, RuleSet] = MappingProxyType({CLASSIC.id: CLASSIC})


class OptionError(ValueError):
    """A house-rule option that does not exist or has a value the rules cannot use."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option
        self.message = message


#: Boolean house options and how each one changes the rule set.
_BOOLEAN_OPTIONS = (
    "wilds_may_outnumber_naturals",
    "black_three_freezes",
    "concealed_canasta_bonus",
)
#: The concealed-canasta house rule's bonus per canasta (RULES.md section 4).
CONCEALED_CANASTA_BONUS = 100
#: Highest target a table may set; beyond it a game could not end in one evening, or a year.
MAX_TARGET = 1_000_000

OPTION_NAMES = ("target", *_BOOLEAN_OPTIONS)


def apply_options(rules: RuleSet, options: Mapping[str, object]) -> RuleSet:
    """Return ``rules`` with a table's house rules applied.

    Raises ``OptionError`` naming the first option that is unknown or out of range.
    """
    changes: dict[str, object] = {}
    for name, value in options.items():
        if name == "target":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(name, "The target must be a whole number of points.")
            if value <= 0 or value > MAX_TARGET:
                raise OptionError(name, f"The target must be between 5 and {MAX_TARGET}.")
            if value % 5:
                raise OptionError(name, "The target must be a multiple of 5, like every score.")
            changes["target"] = value
        elif name in _BOOLEAN_OPTIONS:
            if not isinstance(value, bool):
                raise OptionError(name, f"The option {name} is either true or false.")
            if name == "concealed_canasta_bonus":
                changes[name] = CONCEALED_CANASTA_BONUS if value else 0
            else:
                changes[name] = value
        else:
            raise OptionError(name, f"There is no house option called {name!r}.")
    return replace(rules, **changes)  # type: ignore[arg-type]


def options_of(rules: RuleSet) -> dict[str, object]:
    """The house options in force, as a table would name them (the inverse of
    ``apply_options``)."""
    return {
        "target": rules.target,
        "wilds_may_outnumber_naturals": rules.wilds_may_outnumber_naturals,
        "black_three_freezes": rules.black_three_freezes,
        "concealed_canasta_bonus": rules.concealed_canasta_bonus > 0,
    }
