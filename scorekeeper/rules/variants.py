"""Rule sets as data: one frozen ``RuleSet`` per variant (house rules that override it:
``options``).

Every number comes from docs/RULES.md (sections 2 to 6, 10 and 13 to 15). A new variant is a
new ``RuleSet`` value in ``VARIANTS``, not a new branch in the scoring code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from .cards import Rank
from .kinds import CANASTA_SIZE, CanastaKind, CanastaName, MeldTier, Swing, frozen
from .ruleset import RuleSet
from .text import N_

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
    contract=frozen(
        {CanastaKind.NATURAL: 1, CanastaKind.MIXED: 1, CanastaKind.WILD: 1, CanastaKind.SEVENS: 1}
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
    contract=frozen({CanastaKind.SEQUENCE: 1}),
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

# RULES.md section 13: Modern American Canasta (the Canasta League of America's rules).
AMERICAN = RuleSet(
    id="american",
    name=N_("Modern American Canasta"),
    short_name=N_("Modern American"),
    sides=2,
    players_per_side=2,
    packs=2,
    jokers=4,
    target=8500,
    meld_minimums=(MeldTier(None, 125), MeldTier(3000, 155), MeldTier(5000, 180)),
    canasta_bonuses=frozen(
        {
            CanastaKind.NATURAL: 500,
            CanastaKind.MIXED: 300,
            CanastaKind.DEUCE: 3000,
            CanastaKind.JOKER: 2500,
            CanastaKind.WILD: 2000,
            CanastaKind.ACES: 2500,
            CanastaKind.SEVENS: 2500,
        }
    ),
    # A wild canasta of seven holds one to three jokers: one joker and six twos at least.
    canasta_min_points=frozen({CanastaKind.WILD: 170}),
    red_three_bonus=100,
    red_three_totals=frozen({1: 100, 2: 300, 3: 500, 4: 1000}),
    red_threes_plus_with_canastas=None,
    threes_laid=("red_threes", "black_threes"),
    swing=Swing(meld=(-1, 1), threes=(-1, 0, 1)),
    going_out_bonus=100,
    concealed_going_out_bonus=None,
    asks_concealed=False,
    canastas_to_go_out=2,
    penalties=frozen(
        {
            "unfinished_aces": 2500,
            "unfinished_sevens": 2500,
            "unfinished_wild": 2000,
            "aces_or_sevens_held": 1500,
        }
    ),
    going_out_blocked_by=("unfinished_aces", "unfinished_sevens", "unfinished_wild"),
    special_hands=frozen(
        {
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
    ),
    dream_hands=frozenset({"dream_plus_4", "dream_plus_5"}),
    # P recognises only these four (and values garbage at 2000): a house option.
    house_special_hands=frozenset({"pairs", "wild_pairs", "straight", "garbage"}),
    house_concealed_going_out=True,
    cards_each=13,
    draw=2,
    max_meld=CANASTA_SIZE,
    max_wilds=2,
    wild_melds=True,
    initial_meld_clean_triple=True,
    pile_top_counts=False,
    # Sevens never take a wild card; aces only in the initial meld (RULES.md section 13).
    natural_only_ranks=frozenset({Rank.SEVEN, Rank.ACE}),
    initial_wild_ranks=frozenset({Rank.ACE}),
    # Picking the pack needs a matching natural pair, whatever lies in the pile (CLA).
    pile_always_frozen=True,
    bonus_cards=(4, 3),
)

# RULES.md section 14: Hand and Foot, one 54-card deck more than players.
HAND_AND_FOOT = RuleSet(
    id="hand-and-foot",
    name=N_("Hand and Foot"),
    short_name=N_("Hand and Foot"),
    sides=2,
    players_per_side=2,
    packs=5,
    jokers=10,
    target=None,
    deals=4,
    meld_minimums=(MeldTier(None, 50),),
    meld_minimums_by_deal=(50, 90, 120, 150),
    canasta_bonuses=frozen(
        {CanastaKind.NATURAL: 500, CanastaKind.MIXED: 300, CanastaKind.WILD: 1500}
    ),
    canasta_names=MappingProxyType(
        {
            CanastaKind.NATURAL: CanastaName(N_("Clean books"), N_("clean book")),
            CanastaKind.MIXED: CanastaName(N_("Dirty books"), N_("dirty book")),
            CanastaKind.WILD: CanastaName(N_("Wild books"), N_("wild book")),
        }
    ),
    red_three_bonus=100,
    red_three_totals=frozen({}),
    red_threes_plus_with_canastas=None,
    penalties=frozen({"red_threes_in_hand": 100}),
    going_out_bonus=100,
    concealed_going_out_bonus=None,
    asks_concealed=False,
    canastas_to_go_out=4,
    contract=frozen({CanastaKind.NATURAL: 2, CanastaKind.MIXED: 2}),
    cards_each=11,
    draw=2,
    sides_range=(2, 3),
    packs_per_side=2,
    packs_extra=1,
    jokers_per_side=4,
    jokers_extra=2,
    max_meld=CANASTA_SIZE,
    max_black_threes=None,
    wild_melds=True,
)

# RULES.md section 15: Burraco, its own card values, a pot for each side, no minimum.
BURRACO = RuleSet(
    id="burraco",
    name=N_("Burraco, 4 players in 2 partnerships"),
    short_name=N_("Burraco, 4"),
    sides=2,
    players_per_side=2,
    packs=2,
    jokers=4,
    target=2005,
    house_targets=(1005, 3000),
    meld_minimums=(MeldTier(None, 0),),
    canasta_bonuses=frozen({CanastaKind.NATURAL: 200, CanastaKind.MIXED: 100}),
    house_canastas=frozen({CanastaKind.SEMI_NATURAL: 150}),
    canasta_names=MappingProxyType(
        {
            CanastaKind.NATURAL: CanastaName(N_("Clean burracos"), N_("clean burraco")),
            CanastaKind.MIXED: CanastaName(N_("Dirty burracos"), N_("dirty burraco")),
            CanastaKind.SEMI_NATURAL: CanastaName(
                N_("Semi-clean burracos"), N_("semi-clean burraco")
            ),
        }
    ),
    card_values=MappingProxyType({Rank.JOKER: 30, Rank.TWO: 20, Rank.ACE: 15, Rank.THREE: 5}),
    red_three_bonus=0,
    red_three_totals=frozen({}),
    red_threes_plus_with_canastas=None,
    threes_laid=(),
    penalties=frozen({"pot_missed": 100}),
    going_out_blocked_by=("pot_missed",),
    going_out_bonus=100,
    concealed_going_out_bonus=None,
    asks_concealed=False,
    canastas_to_go_out=1,
    cards_each=11,
    max_black_threes=None,
    sequences=True,
    max_wilds=1,
    # A run of one suit with the ace low or high, a two or three as itself in its place,
    # and one wild card at most (RULES.md section 15); the pile is taken whole, freely.
    sequence_ranks=(
        Rank.ACE,
        *(rank for rank in Rank if rank not in (Rank.JOKER, Rank.ACE)),
        Rank.ACE,
    ),
    sequence_wilds=1,
    pile_taken_freely=True,
)
BURRACO_2 = replace(
    BURRACO,
    id="burraco-2",
    name=N_("Burraco, 2 players"),
    short_name=N_("Burraco, 2"),
    players_per_side=1,
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
            AMERICAN,
            HAND_AND_FOOT,
            BURRACO,
            BURRACO_2,
        )
    }
)
