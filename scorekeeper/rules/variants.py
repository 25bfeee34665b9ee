"""Rule sets as data: one frozen object per variant, house rules as overrides of it.

Every number comes from docs/RULES.md (sections 2 to 6). A new variant is a new
``RuleSet`` value in ``VARIANTS``, not a new branch in the scoring code.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import TypeVar

from .limits import MAX_BONUS, MAX_TARGET
from .text import N_, P, T, Text


class CanastaKind(enum.Enum):
    """The kinds of canasta a rule set may score (Railroad knows all four)."""

    NATURAL = "natural"
    MIXED = "mixed"
    WILD = "wild"
    SEVENS = "sevens"

    #: The name of the deal-entry figure that counts canastas of this kind.
    field: str

    def __init__(self, value: str) -> None:
        self.field = f"{value}_canastas"

    # Members are looked up in mappings at every deal scored: hashed as the singletons
    # they are (in C), not by name (Enum's own __hash__, in Python).
    __hash__ = object.__hash__


#: Every kind, in the order score sheets list them.
CANASTA_KINDS = tuple(CanastaKind)


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


#: Card points of one 52-card pack without jokers (RULES.md section 1): four aces and four
#: twos at 20, twenty-four K-8 at 10, sixteen 7-4 at 5, two black threes at 5.
PACK_CARD_POINTS = 4 * 20 + 4 * 20 + 24 * 10 + 16 * 5 + 2 * 5
JOKER_POINTS = 50
#: Natural ranks a canasta can be made of: A K Q J 10 9 8 7 6 5 4.
NATURAL_RANKS = 11
CANASTA_SIZE = 7


@dataclass(frozen=True)
class RuleSet:
    """Everything that distinguishes one way of playing Canasta from another.

    Scores, minimums, going-out requirements and the deal checks read these numbers;
    nothing in the engine tests a variant's id.
    """

    id: str
    name: str
    #: What the new-game page's rule-set buttons say.
    short_name: str
    #: Sides at the table and players on each side (a player alone is a side of one).
    sides: int
    players_per_side: int
    #: 52-card packs in play; bounds the red threes, canastas and card points.
    packs: int
    #: Jokers in play (classic: two per pack; Railroad: two per player).
    jokers: int
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
    #: Cards dealt to each player, cards drawn from the stock, and the kitty (Railroad).
    cards_each: int = 11
    draw: int = 1
    kitty: int = 0
    #: Players choose how many sit down (Railroad: 2 or more, each alone); None: fixed.
    sides_range: tuple[int, int] | None = None
    #: Packs per side when the sides are chosen (Railroad: two packs per player).
    packs_per_side: int = 0
    jokers_per_side: int = 0
    #: A meld of this many cards is a canasta and takes no more (Railroad); None: no limit.
    max_meld: int | None = None
    #: Black threes a going-out player may meld (classic: 3 or 4; Railroad: any number).
    max_black_threes: int | None = 4
    #: Upper bound on all canastas in one deal, when the sources give one (classic: 13).
    canastas_bound: int | None = None
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
    def partnerships(self) -> bool:
        return self.players_per_side > 1

    @cached_property
    def canasta_kinds(self) -> tuple[CanastaKind, ...]:
        """The kinds this rule set scores, in the order the score sheet lists them."""
        return tuple(kind for kind in CANASTA_KINDS if kind in self.canasta_bonuses)

    @property
    def max_red_threes(self) -> int:
        """Two red threes per pack: 4 with two packs, 6 with three."""
        return 2 * self.packs

    @property
    def max_card_points(self) -> int:
        """All the cards' points together: 1180 with two packs and four jokers."""
        return self.packs * PACK_CARD_POINTS + self.jokers * JOKER_POINTS

    @property
    def max_natural_canastas(self) -> int:
        """Four of each rank per pack: 11 natural canastas with two or three packs."""
        return NATURAL_RANKS * (4 * self.packs // CANASTA_SIZE)

    @property
    def max_canastas(self) -> int:
        """Every card but the threes, seven to a canasta (or the sources' bound)."""
        if self.canastas_bound is not None:
            return self.canastas_bound
        return (48 * self.packs + self.jokers) // CANASTA_SIZE

    def max_canastas_of(self, kind: CanastaKind) -> int:
        """Wild canastas need seven twos or jokers; sevens canastas seven sevens."""
        if kind is CanastaKind.WILD:
            return (4 * self.packs + self.jokers) // CANASTA_SIZE
        if kind is CanastaKind.SEVENS:
            return 4 * self.packs // CANASTA_SIZE
        return self.max_natural_canastas if kind is CanastaKind.NATURAL else self.max_canastas

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

    def with_sides(self, sides: int) -> RuleSet:
        """The rule set for a table of ``sides`` (Railroad: players); packs and jokers
        follow. Raises ``OptionError`` outside the rule set's range."""
        if self.sides_range is None:
            if sides != self.sides:
                raise OptionError(
                    "sides",
                    P(
                        "%(rules)s is played by %(num)s side.",
                        "%(rules)s is played by %(num)s sides.",
                        self.sides,
                        rules=T(self.name),
                    ),
                )
            return self
        low, high = self.sides_range
        if not low <= sides <= high:
            raise OptionError(
                "sides",
                T(
                    "%(rules)s is played by %(low)s to %(high)s players.",
                    rules=T(self.name),
                    low=low,
                    high=high,
                ),
            )
        return replace(
            self,
            sides=sides,
            packs=self.packs_per_side * sides,
            jokers=self.jokers_per_side * sides,
        )


_CLASSIC_TIERS = (
    MeldTier(None, 15),
    MeldTier(0, 50),
    MeldTier(1500, 90),
    MeldTier(3000, 120),
)

CLASSIC = RuleSet(
    id="classic",
    name=N_("Classic Canasta, 4 players in 2 partnerships"),
    short_name=N_("Classic, 4"),
    sides=2,
    players_per_side=2,
    packs=2,
    jokers=4,
    target=5000,
    meld_minimums=_CLASSIC_TIERS,
    canasta_bonuses=_frozen({CanastaKind.NATURAL: 500, CanastaKind.MIXED: 300}),
    red_three_bonus=100,
    red_three_totals=_frozen({4: 800}),
    red_threes_count_against_unmelded=True,
    going_out_bonus=100,
    concealed_going_out_bonus=100,
    canastas_to_go_out=1,
    canastas_bound=13,
)

# RULES.md section 3: classic for other numbers of players.
CLASSIC_2 = replace(
    CLASSIC,
    id="classic-2",
    name=N_("Classic Canasta, 2 players"),
    short_name=N_("Classic, 2"),
    sides=2,
    players_per_side=1,
    cards_each=15,
    draw=2,
    canastas_to_go_out=2,
)
CLASSIC_3 = replace(
    CLASSIC,
    id="classic-3",
    name=N_("Classic Canasta, 3 players each alone"),
    short_name=N_("Classic, 3"),
    sides=3,
    players_per_side=1,
    cards_each=13,
)
_SIX_PLAYER = {
    "packs": 3,
    "jokers": 6,
    "cards_each": 13,
    "canastas_to_go_out": 2,
    "red_three_totals": _frozen({5: 1000, 6: 1200}),
    "canastas_bound": None,
}
CLASSIC_6 = replace(
    CLASSIC,
    id="classic-6",
    name=N_("Classic Canasta, 6 players in 2 partnerships of 3"),
    short_name=N_("Classic, 6 (2 × 3)"),
    sides=2,
    players_per_side=3,
    target=10_000,
    # The 150 tier belongs to the 10 000-point game only (RULES.md section 3).
    meld_minimums=(*_CLASSIC_TIERS, MeldTier(7500, 150)),
    **_SIX_PLAYER,  # type: ignore[arg-type]
)
CLASSIC_6X3 = replace(
    CLASSIC,
    id="classic-6x3",
    name=N_("Classic Canasta, 6 players in 3 partnerships of 2"),
    short_name=N_("Classic, 6 (3 × 2)"),
    sides=3,
    players_per_side=2,
    target=7500,
    # Played to 7500 with the classic tiers (15/50/90/120): no 150 tier (RULES.md section 3).
    meld_minimums=_CLASSIC_TIERS,
    **_SIX_PLAYER,  # type: ignore[arg-type]
)

# RULES.md section 5 (S): Railroad Canasta, two packs and two jokers per player.
RAILROAD = RuleSet(
    id="railroad",
    name=N_("Railroad Canasta"),
    short_name=N_("Railroad"),
    # The smallest table; ``with_sides`` seats more (two packs and two jokers each).
    sides=2,
    players_per_side=1,
    packs=4,
    jokers=4,
    target=20_000,
    meld_minimums=(
        MeldTier(None, 15),
        MeldTier(0, 50),
        MeldTier(5000, 90),
        MeldTier(10_000, 120),
        MeldTier(15_000, 150),
    ),
    canasta_bonuses=_frozen(
        {
            CanastaKind.NATURAL: 500,
            CanastaKind.MIXED: 300,
            CanastaKind.WILD: 1000,
            CanastaKind.SEVENS: 1500,
        }
    ),
    red_three_bonus=100,
    red_three_totals=_frozen({}),
    red_threes_count_against_unmelded=False,
    going_out_bonus=100,
    concealed_going_out_bonus=None,
    canastas_to_go_out=4,
    kinds_to_go_out=frozenset(CanastaKind),
    cards_each=13,
    draw=2,
    kitty=11,
    sides_range=(2, 6),
    packs_per_side=2,
    jokers_per_side=2,
    max_meld=7,
    max_black_threes=None,
)

#: Every rule set the app knows, by id, in the order the new-game page offers them.
VARIANTS: Mapping[str, RuleSet] = MappingProxyType(
    {rules.id: rules for rules in (CLASSIC, CLASSIC_2, CLASSIC_3, CLASSIC_6, CLASSIC_6X3, RAILROAD)}
)


class OptionError(ValueError):
    """A house-rule option that does not exist or has a value the rules cannot use."""

    def __init__(self, option: str, text: Text) -> None:
        super().__init__(str(text))
        self.option = option
        self.text = text

    @property
    def message(self) -> str:
        return str(self.text)


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

OPTION_NAMES = (
    "target",
    *_CANASTA_OPTIONS,
    *_BONUS_OPTIONS,
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


def apply_options(rules: RuleSet, options: Mapping[str, object]) -> RuleSet:
    """Return ``rules`` with a table's house rules applied (RULES.md section 6).

    Raises ``OptionError`` naming the first option that is unknown or out of range.
    """
    changes: dict[str, object] = {}
    bonuses = dict(rules.canasta_bonuses)
    red_three_totals = dict(rules.red_three_totals)
    for name, value in options.items():
        if name == "target":
            changes["target"] = _points(name, value, low=5, high=MAX_TARGET, what=N_("target"))
        elif name in _CANASTA_OPTIONS:
            kind = _CANASTA_OPTIONS[name]
            if kind not in bonuses:
                raise OptionError(
                    name,
                    T(
                        "%(rules)s has no %(kind)s canastas.",
                        rules=T(rules.name),
                        kind=T(kind.value),
                    ),
                )
            bonuses[kind] = _points(name, value, low=0, high=MAX_BONUS, what=N_("bonus"))
        elif name == "all_red_threes_bonus":
            points = _points(name, value, low=0, high=MAX_BONUS, what=N_("bonus"))
            red_three_totals[rules.max_red_threes] = points
        elif name == "concealed_going_out_bonus" and value is None:
            changes[name] = None
        elif name in _BONUS_OPTIONS:
            changes[name] = _points(name, value, low=0, high=MAX_BONUS, what=N_("bonus"))
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
    changes["canasta_bonuses"] = _frozen(bonuses)
    changes["red_three_totals"] = _frozen(red_three_totals)
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
    options["meld_minimums"] = [
        {"from": tier.from_total, "minimum": tier.minimum} for tier in rules.meld_minimums
    ]
    options["wilds_may_outnumber_naturals"] = rules.wilds_may_outnumber_naturals
    options["black_three_freezes"] = rules.black_three_freezes
    options["concealed_canasta_bonus"] = rules.concealed_canasta_bonus > 0
    return options
