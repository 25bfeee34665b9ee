"""Rule sets as data: one frozen object per variant (house rules that override it: ``options``).

Every number comes from docs/RULES.md (sections 2 to 6 and 10). A new variant is a new
``RuleSet`` value in ``VARIANTS``, not a new branch in the scoring code.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import TypeVar

from .text import N_, P, T, Text


class CanastaKind(enum.Enum):
    """The kinds of canasta a rule set may score, in the order score sheets list them.

    Seven wild cards make a WILD canasta; Cuban scores two compositions of them apart:
    seven twos (DEUCE) and four jokers with three twos (JOKER). A SEQUENCE is seven cards
    of one suit in a row (Samba's samba, Bolivia's escalera).
    """

    NATURAL = "natural"
    MIXED = "mixed"
    SEQUENCE = "sequence"
    DEUCE = "deuce"
    JOKER = "joker"
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
#: Kinds made of wild cards alone: they share the twos and jokers of the packs.
WILD_KINDS = frozenset({CanastaKind.DEUCE, CanastaKind.JOKER, CanastaKind.WILD})


#: The least card points a canasta of each kind can hold (RULES.md sections 7 and 10):
#: seven fours; six fours and a two; 4 to 10 of a suit; seven twos; four jokers and three
#: twos; seven twos; seven sevens.
CANASTA_MIN_POINTS: Mapping[CanastaKind, int] = MappingProxyType(
    {
        CanastaKind.NATURAL: 35,
        CanastaKind.MIXED: 50,
        CanastaKind.SEQUENCE: 50,
        CanastaKind.DEUCE: 140,
        CanastaKind.JOKER: 260,
        CanastaKind.WILD: 140,
        CanastaKind.SEVENS: 35,
    }
)


@dataclass(frozen=True)
class CanastaName:
    """How a kind of canasta is called: ``label`` heads its figure on the deal form and the
    score sheet ("Sambas"), ``word`` names one in a sentence ("samba")."""

    label: str
    word: str


#: The kinds' names where a rule set gives them no name of its own.
CANASTA_NAMES: Mapping[CanastaKind, CanastaName] = MappingProxyType(
    {
        CanastaKind.NATURAL: CanastaName(N_("Natural canastas"), N_("natural")),
        CanastaKind.MIXED: CanastaName(N_("Mixed canastas"), N_("mixed")),
        CanastaKind.SEQUENCE: CanastaName(N_("Sequence canastas"), N_("sequence")),
        CanastaKind.DEUCE: CanastaName(N_("Seven-twos canastas"), N_("seven-twos")),
        CanastaKind.JOKER: CanastaName(N_("Four-jokers canastas"), N_("four-jokers")),
        CanastaKind.WILD: CanastaName(N_("Wild canastas"), N_("wild")),
        CanastaKind.SEVENS: CanastaName(N_("Sevens canastas"), N_("sevens")),
    }
)


@dataclass(frozen=True)
class MeldTier:
    """One row of the initial-meld table: from this total upward, the first meld needs
    ``minimum`` card points. ``from_total`` is None for the bottom row (below the next)."""

    from_total: int | None
    minimum: int


K = TypeVar("K")


def frozen(mapping: Mapping[K, int]) -> Mapping[K, int]:
    """A read-only copy of a table of numbers (a rule set never changes once made)."""
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
    #: Red threes count plus for a side with at least this many canastas, minus for any
    #: other side; 0 asks only that the side melded something (classic); None: never minus.
    red_threes_plus_with_canastas: int | None
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
    #: The kinds' own names in this rule set (Samba's sequence is a "samba").
    canasta_names: Mapping[CanastaKind, CanastaName] = field(default_factory=dict)
    #: Black threes left in a side's hands cost this each, in place of their card points
    #: (Bolivia: 100); None: they are card points like any other (no figure of their own).
    black_three_penalty: int | None = None
    #: Black threes found in piles a side took score this each (Cuban: 5), with totals for
    #: some counts (all four: 100); None: no figure of their own.
    black_three_taken_bonus: int | None = None
    black_threes_taken_totals: Mapping[int, int] = field(default_factory=dict)
    #: Which melds are legal (RULES.md sections 2, 5 and 10.5): sequences of one suit,
    #: wild cards alone, and the most wild cards in a group that has natural cards.
    sequences: bool = False
    wild_melds: bool = False
    max_wilds: int = 3
    #: The discard pile is frozen for everyone all the time (Cuban, Uruguay).
    pile_always_frozen: bool = False
    #: A new meld of a rank may start once the old one is a closed canasta (Railroad);
    #: otherwise a side has one meld of each rank (RULES.md sections 2 and 5).
    new_meld_beside_canasta: bool = False
    #: Going out ends with a discard, never a seven where sevens canastas score (Railroad).
    going_out_discards: bool = False

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

    def canasta_name(self, kind: CanastaKind) -> CanastaName:
        return self.canasta_names.get(kind, CANASTA_NAMES[kind])

    @property
    def black_threes_in_packs(self) -> int:
        """Two black threes per pack: 4 with two packs, 6 with three."""
        return 2 * self.packs

    def black_threes_taken_score(self, count: int) -> int:
        if self.black_three_taken_bonus is None or count == 0:
            return 0
        return self.black_threes_taken_totals.get(count, count * self.black_three_taken_bonus)

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

    @property
    def max_wild_canastas(self) -> int:
        """Canastas of wild cards alone, of every kind together: the twos and jokers, seven
        at a time (one with two packs and four jokers, two with three packs and six)."""
        return (4 * self.packs + self.jokers) // CANASTA_SIZE

    def max_canastas_of(self, kind: CanastaKind) -> int:
        """What the cards allow of one kind over all sides: seven twos or jokers to a wild
        canasta, seven sevens, seven of one suit in a row, four jokers with three twos."""
        most = {
            CanastaKind.NATURAL: self.max_natural_canastas,
            CanastaKind.MIXED: self.max_canastas,
            # Every run of seven from 4 to A holds its suit's 8, 9 and 10: one run a pack.
            CanastaKind.SEQUENCE: 4 * self.packs,
            CanastaKind.DEUCE: 4 * self.packs // CANASTA_SIZE,
            CanastaKind.JOKER: min(self.jokers // 4, 4 * self.packs // 3),
            CanastaKind.WILD: self.max_wild_canastas,
            CanastaKind.SEVENS: 4 * self.packs // CANASTA_SIZE,
        }
        return most[kind]

    @property
    def concealed_going_out_total(self) -> int | None:
        """What going out concealed scores in all (200 in classic), or None."""
        if self.concealed_going_out_bonus is None:
            return None
        return self.going_out_bonus + self.concealed_going_out_bonus

    def kinds_missing_to_go_out(self, canastas: Mapping[CanastaKind, int]) -> Text | None:
        """Why a side with these ``canastas`` (by kind) may not go out for want of a kind,
        or None: Railroad asks one canasta of each kind (RULES.md section 5), Bolivia an
        escalera among them (section 10.2). One kind asked is named as one ("an escalera"),
        not as a list of one."""
        missing = tuple(
            T(self.canasta_name(kind).word)
            for kind in self.canasta_kinds
            if kind in self.kinds_to_go_out and not canastas.get(kind)
        )
        if not missing:
            return None
        if len(self.kinds_to_go_out) == len(self.canasta_kinds):
            return T(
                "Going out needs one canasta of each kind; missing: %(missing)s.", missing=missing
            )
        return P(
            "Going out needs one %(missing)s.",
            "Going out needs at least one of these: %(missing)s.",
            len(missing),
            missing=missing,
        )

    def meld_minimum(self, total: int) -> int:
        """The minimum a side's initial meld must count, from its total at the start of
        the deal: the highest tier whose ``from_total`` the total reaches."""
        minimum = self.meld_minimums[0].minimum
        for tier in self.meld_minimums:
            if tier.from_total is None or total >= tier.from_total:
                minimum = tier.minimum
        return minimum

    def red_threes_plus(self, *, melded: bool, canastas: int) -> bool:
        """Whether a side's red threes count plus: it melded (classic), or it has the
        canastas the rule set asks (Samba: two), or the rule set never counts them minus."""
        need = self.red_threes_plus_with_canastas
        if need is None:
            return True
        return canastas >= need if need else melded

    def red_three_score(self, count: int, *, plus: bool) -> int:
        """Red threes: ``red_three_bonus`` each, special totals for some counts, negative
        when they do not count plus."""
        if count == 0:
            return 0
        score = self.red_three_totals.get(count, count * self.red_three_bonus)
        return score if plus else -score

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
    canasta_bonuses=frozen({CanastaKind.NATURAL: 500, CanastaKind.MIXED: 300}),
    red_three_bonus=100,
    red_three_totals=frozen({4: 800}),
    red_threes_plus_with_canastas=0,
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
    "red_three_totals": frozen({5: 1000, 6: 1200}),
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
    canasta_bonuses=frozen(
        {
            CanastaKind.NATURAL: 500,
            CanastaKind.MIXED: 300,
            CanastaKind.WILD: 1000,
            CanastaKind.SEVENS: 1500,
        }
    ),
    red_three_bonus=100,
    red_three_totals=frozen({}),
    red_threes_plus_with_canastas=None,
    going_out_bonus=100,
    concealed_going_out_bonus=None,
    canastas_to_go_out=4,
    kinds_to_go_out=frozenset(
        {CanastaKind.NATURAL, CanastaKind.MIXED, CanastaKind.WILD, CanastaKind.SEVENS}
    ),
    cards_each=13,
    draw=2,
    kitty=11,
    sides_range=(2, 6),
    packs_per_side=2,
    jokers_per_side=2,
    max_meld=7,
    max_black_threes=None,
    wild_melds=True,
    new_meld_beside_canasta=True,
    going_out_discards=True,
)

# RULES.md section 10: the Canasta family, each for 4 players in 2 partnerships.
SAMBA = replace(
    CLASSIC,
    id="samba",
    name=N_("Samba"),
    short_name=N_("Samba"),
    packs=3,
    jokers=6,
    cards_each=15,
    draw=2,
    target=10_000,
    meld_minimums=(*_CLASSIC_TIERS[:3], MeldTier(3000, 120), MeldTier(7000, 160)),
    canasta_bonuses=frozen(
        {CanastaKind.NATURAL: 500, CanastaKind.MIXED: 300, CanastaKind.SEQUENCE: 1500}
    ),
    canasta_names=MappingProxyType({CanastaKind.SEQUENCE: CanastaName(N_("Sambas"), N_("samba"))}),
    red_three_totals=frozen({6: 1000}),
    red_threes_plus_with_canastas=2,
    going_out_bonus=200,
    concealed_going_out_bonus=None,
    canastas_to_go_out=2,
    canastas_bound=None,
    sequences=True,
    max_wilds=2,
)
BOLIVIA = replace(
    SAMBA,
    id="bolivia",
    name=N_("Bolivia"),
    short_name=N_("Bolivia"),
    target=15_000,
    meld_minimums=(*_CLASSIC_TIERS[:3], MeldTier(3000, 120), MeldTier(7000, 150)),
    canasta_bonuses=frozen(
        {
            CanastaKind.NATURAL: 500,
            CanastaKind.MIXED: 300,
            CanastaKind.SEQUENCE: 1500,
            CanastaKind.WILD: 2500,
        }
    ),
    canasta_names=MappingProxyType(
        {
            CanastaKind.SEQUENCE: CanastaName(N_("Escaleras"), N_("escalera")),
            CanastaKind.WILD: CanastaName(N_("Bolivias"), N_("bolivia")),
        }
    ),
    kinds_to_go_out=frozenset({CanastaKind.SEQUENCE}),
    black_three_penalty=100,
    wild_melds=True,
)
CUBAN = replace(
    CLASSIC,
    id="cuban",
    name=N_("Cuban Canasta"),
    short_name=N_("Cuban"),
    cards_each=13,
    target=7500,
    meld_minimums=(*_CLASSIC_TIERS[:3], MeldTier(3000, 120), MeldTier(5000, 150)),
    canasta_bonuses=frozen(
        {
            CanastaKind.NATURAL: 500,
            CanastaKind.MIXED: 300,
            CanastaKind.DEUCE: 4000,
            CanastaKind.JOKER: 3000,
            CanastaKind.WILD: 2000,
        }
    ),
    red_three_totals=frozen({1: 100, 2: 300, 3: 500, 4: 1000}),
    red_threes_plus_with_canastas=1,
    concealed_going_out_bonus=None,
    black_three_taken_bonus=5,
    black_threes_taken_totals=frozen({4: 100}),
    wild_melds=True,
    max_meld=CANASTA_SIZE,
    pile_always_frozen=True,
)
URUGUAY = replace(
    CLASSIC,
    id="uruguay",
    name=N_("Uruguay"),
    short_name=N_("Uruguay"),
    canasta_bonuses=frozen(
        {CanastaKind.NATURAL: 500, CanastaKind.MIXED: 300, CanastaKind.WILD: 2000}
    ),
    wild_melds=True,
    pile_always_frozen=True,
)

#: Every rule set the app knows, by id, in the order the new-game page offers them.
VARIANTS: Mapping[str, RuleSet] = MappingProxyType(
    {
        rules.id: rules
        for rules in (
            CLASSIC,
            CLASSIC_2,
            CLASSIC_3,
            CLASSIC_6,
            CLASSIC_6X3,
            RAILROAD,
            SAMBA,
            BOLIVIA,
            CUBAN,
            URUGUAY,
        )
    }
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
