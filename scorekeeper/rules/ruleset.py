"""A rule set: everything that distinguishes one way of playing Canasta from another, as
one frozen value (the values themselves: ``variants``; a table's house rules: ``options``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from .cards import POINTS, Rank
from .kinds import (
    CANASTA_KINDS,
    CANASTA_MIN_POINTS,
    CANASTA_NAMES,
    CANASTA_SIZE,
    JOKER_POINTS,
    NATURAL_RANKS,
    PACK_CARD_POINTS,
    CanastaKind,
    CanastaName,
    MeldTier,
    Swing,
)
from .text import P, T, Text


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
    #: The total that ends the game; None: it ends after ``deals`` deals only.
    target: int | None
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
    #: Canastas of a kind a side must hold before going out (Railroad: one of each kind;
    #: Bolivia: an escalera; Hand and Foot's contract: two clean and two dirty books).
    contract: Mapping[CanastaKind, int] = field(default_factory=dict)
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
    #: Card points by rank where the rule set has its own (Burraco: RULES.md section 15);
    #: missing ranks count as RULES.md section 1 says.
    card_values: Mapping[Rank, int] = field(default_factory=dict)
    #: The least card points of a canasta where the rule set's differ from
    #: ``CANASTA_MIN_POINTS`` (American's wild canasta holds a joker: 170).
    canasta_min_points: Mapping[CanastaKind, int] = field(default_factory=dict)
    #: Canasta kinds a house option may add, with the bonus it suggests (Burraco's
    #: semi-clean burraco, 150).
    house_canastas: Mapping[CanastaKind, int] = field(default_factory=dict)
    #: How the melded cards and the threes count by the side's canastas (Modern American);
    #: None: melded cards plus, threes as ``red_threes_plus_with_canastas`` says.
    swing: Swing | None = None
    #: The figures of threes laid down, each colour scored on its own by
    #: ``red_three_bonus`` and ``red_three_totals`` (American: both colours; Burraco: none).
    threes_laid: tuple[str, ...] = ("red_threes",)
    #: Points taken off for each unit of a figure, whatever the canastas: an unfinished
    #: special meld, three aces held, a red three left in a foot, a pot never taken.
    penalties: Mapping[str, int] = field(default_factory=dict)
    #: Figures that forbid going out when set (an unfinished special meld, the pot missed).
    going_out_blocked_by: tuple[str, ...] = ()
    #: Special hands and their values: a side that goes out with one scores it alone; a
    #: dream hand also wins the game at once.
    special_hands: Mapping[str, int] = field(default_factory=dict)
    dream_hands: frozenset[str] = frozenset()
    #: Initial-meld minimums for deal 1, 2, 3 ... in place of the tiers by total (the last
    #: holds for later deals); empty: the tiers.
    meld_minimums_by_deal: tuple[int, ...] = ()
    #: The game ends after this many deals whatever the totals; None: at the target.
    deals: int | None = None
    #: Whether a deal entry says a side went out concealed (never in Hand and Foot).
    asks_concealed: bool = True
    #: The initial meld must hold three natural cards of one rank, and the pile's top card
    #: does not count toward its minimum (Modern American).
    initial_meld_clean_triple: bool = False
    pile_top_counts: bool = True
    #: The ranks a sequence runs through, low to high (Burraco: the ace low or high, and a
    #: two or three as itself in its place), with the wild cards one may hold; a sequence
    #: grows to the whole run unless seven make a canasta of their own (Samba's).
    #: Empty: 4 up to the ace, no wild card (RULES.md sections 10.1 and 15).
    sequence_ranks: tuple[Rank, ...] = ()
    sequence_wilds: int = 0
    #: Ranks whose melds never take a wild card (Modern American's sevens and aces), and
    #: of those the ranks that may be mixed in the initial meld (aces: a mixed canasta).
    natural_only_ranks: frozenset[Rank] = frozenset()
    initial_wild_ranks: frozenset[Rank] = frozenset()
    #: The discard pile is taken whole, with no pair or meld of its top card (Burraco).
    pile_taken_freely: bool = False
    #: Cards dealt as a bonus to the first side to meld, then the second (Modern American:
    #: 4, then 3). They change no score: the rules page says so, nothing else reads them.
    bonus_cards: tuple[int, ...] = ()
    #: Packs and jokers beyond ``packs_per_side`` (Hand and Foot: a deck more than players).
    packs_extra: int = 0
    jokers_extra: int = 0
    #: What the new-game page offers beside the book's numbers: other targets tables play
    #: (Burraco: 1005, 3000), a smaller set of the ``special_hands`` some tables recognise
    #: (Pagat's four), and a bonus for going out concealed that the book leaves to the house
    #: (Modern American). None of them changes a score until a table picks it.
    house_targets: tuple[int, ...] = ()
    house_special_hands: frozenset[str] = frozenset()
    house_concealed_going_out: bool = False

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
        if not self.card_values:
            return self.packs * PACK_CARD_POINTS + self.jokers * JOKER_POINTS
        ranks = sum(4 * self.card_value(rank) for rank in Rank if rank is not Rank.JOKER)
        # Every three counts where threes are ordinary cards; else the two black ones.
        if Rank.THREE not in self.card_values:
            ranks -= 2 * POINTS[Rank.THREE]
        return self.packs * ranks + self.jokers * self.card_value(Rank.JOKER)

    def card_value(self, rank: Rank) -> int:
        return self.card_values.get(rank, POINTS[rank])

    def canasta_least_points(self, kind: CanastaKind) -> int:
        return self.canasta_min_points.get(kind, CANASTA_MIN_POINTS[kind])

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
            CanastaKind.ACES: 4 * self.packs // CANASTA_SIZE,
            CanastaKind.SEVENS: 4 * self.packs // CANASTA_SIZE,
            CanastaKind.SEMI_NATURAL: self.max_canastas,
        }
        return most[kind]

    @property
    def concealed_going_out_total(self) -> int | None:
        """What going out concealed scores in all (200 in classic), or None."""
        if self.concealed_going_out_bonus is None:
            return None
        return self.going_out_bonus + self.concealed_going_out_bonus

    def kinds_missing_to_go_out(self, canastas: Mapping[CanastaKind, int]) -> Text | None:
        """Why a side with these ``canastas`` (by kind) may not go out for want of the
        ``contract``, or None: Railroad asks one canasta of each kind (RULES.md section 5),
        Bolivia an escalera among them (section 10.2), Hand and Foot two clean and two dirty
        books (section 14). One kind asked is named as one ("an escalera"); a contract of
        several kinds is said whole, each kind with its count."""
        short = [
            (kind, need)
            for kind, need in self.contract.items()
            if kind in self.canasta_bonuses and canastas.get(kind, 0) < need
        ]
        if not short:
            return None
        missing = tuple(T(self.canasta_name(kind).word) for kind, _ in short)
        ones = all(need == 1 for need in self.contract.values())
        if ones and len(self.contract) == len(self.canasta_kinds):
            return T(
                "Going out needs one canasta of each kind; missing: %(missing)s.", missing=missing
            )
        if ones and len(self.contract) == 1:
            return T("Going out needs one %(missing)s.", missing=missing)
        contract = tuple(
            T("%(count)s × %(kind)s", count=need, kind=T(self.canasta_name(kind).word))
            for kind, need in self.contract.items()
        )
        return T("Going out needs the contract: %(contract)s.", contract=contract)

    def meld_minimum(self, total: int, deal: int) -> int:
        """The minimum a side's initial meld must count in deal number ``deal``, from its
        total at the start of it: the highest tier whose ``from_total`` the total reaches,
        or the deal's own minimum where the minimum goes by deal (RULES.md section 14)."""
        by_deal = self.meld_minimums_by_deal
        if by_deal:
            return by_deal[min(deal, len(by_deal)) - 1]
        minimum = self.meld_minimums[0].minimum
        for tier in self.meld_minimums:
            if tier.from_total is None or total >= tier.from_total:
                minimum = tier.minimum
        return minimum

    def threes_sign(self, *, melded: bool, canastas: int) -> int:
        """How a side's threes count: plus (1), not at all (0) or minus (-1). The swing
        decides by canastas (American); otherwise plus once the side melded (classic), or
        has the canastas the rule set asks (Samba: two), or always."""
        if self.swing is not None:
            return Swing.sign(self.swing.threes, canastas)
        need = self.red_threes_plus_with_canastas
        if need is None:
            return 1
        return 1 if (canastas >= need if need else melded) else -1

    def meld_sign(self, canastas: int) -> int:
        """How a side's melded cards count: minus without a canasta under the swing."""
        return 1 if self.swing is None else Swing.sign(self.swing.meld, canastas)

    def red_three_score(self, count: int) -> int:
        """Threes of one colour laid down: ``red_three_bonus`` each, special totals for some
        counts (all four: 800), before the sign ``threes_sign`` gives them."""
        if count == 0:
            return 0
        return self.red_three_totals.get(count, count * self.red_three_bonus)

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
                    low=low * self.players_per_side,
                    high=high * self.players_per_side,
                ),
            )
        return replace(
            self,
            sides=sides,
            packs=self.packs_per_side * sides + self.packs_extra,
            jokers=self.jokers_per_side * sides + self.jokers_extra,
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
