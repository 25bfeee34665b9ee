"""Scoring one deal: what a side reports at the end of it (``SideResult``, the figures a
deal form asks) and what that scores. ``validation`` checks that an entry could have
happened at the table.

A side's deal score (RULES.md section 2) = canasta bonuses + red-three bonus + going-out
bonus + the card points it melded - the card points left in its hands; the swing (section
13) signs the melded cards and the threes by the side's canastas, penalties take off what
they say, and a special hand scores its value alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

from .kinds import CANASTA_KINDS, CANASTA_NAMES, CanastaKind
from .ruleset import RuleSet
from .text import N_


@dataclass(frozen=True)
class SideResult:
    """What one side reports at the end of a deal: the inputs the table writes down."""

    meld_points: int = 0
    natural_canastas: int = 0
    mixed_canastas: int = 0
    wild_canastas: int = 0
    sevens_canastas: int = 0
    #: Canastas melded whole from the hand (the concealed-canasta house rule).
    concealed_canastas: int = 0
    red_threes: int = 0
    went_out: bool = False
    concealed: bool = False
    hand_points: int = 0
    #: The Canasta family's figures (RULES.md section 10): sambas and escaleras, Cuban's
    #: seven twos and four jokers with three twos, and the black threes scored apart.
    sequence_canastas: int = 0
    deuce_canastas: int = 0
    joker_canastas: int = 0
    black_threes_in_hand: int = 0
    black_threes_taken: int = 0
    #: Modern American, Hand and Foot and Burraco (RULES.md sections 13 to 15): natural
    #: aces and semi-clean burracos; black threes laid down; the penalties' figures.
    aces_canastas: int = 0
    semi_natural_canastas: int = 0
    black_threes: int = 0
    red_threes_in_hand: int = 0
    aces_or_sevens_held: int = 0
    unfinished_aces: bool = False
    unfinished_sevens: bool = False
    unfinished_wild: bool = False
    pot_missed: bool = False
    #: The special hand the side went out with (``RuleSet.special_hands``), or None.
    special_hand: str | None = None

    def canastas(self, kind: CanastaKind) -> int:
        count: int = getattr(self, kind.field)
        return count

    @property
    def total_canastas(self) -> int:
        return sum(getattr(self, kind.field) for kind in CANASTA_KINDS)

    @property
    def black_threes_apart(self) -> int:
        """Black threes found in piles or left in hands, scored apart (Bolivia, Cuban)."""
        return self.black_threes_in_hand + self.black_threes_taken

    @property
    def melded(self) -> bool:
        """A side that melded anything has card points on the table."""
        return self.meld_points > 0


#: The integer figures of a ``SideResult``, in the order a form lists them.
INTEGER_FIELDS = tuple(f.name for f in fields(SideResult) if f.type == "int")
BOOLEAN_FIELDS = tuple(f.name for f in fields(SideResult) if f.type == "bool")
#: Every figure of a deal entry: the counts and points, the flags, the special hand.
ENTRY_FIELDS = (*INTEGER_FIELDS, *BOOLEAN_FIELDS, "special_hand")


@dataclass(frozen=True)
class ScoreBreakdown:
    """A side's deal score, part by part, so the table can check the sum."""

    canastas: int
    concealed_canastas: int
    red_threes: int
    going_out: int
    meld_points: int
    hand_points: int
    #: Black threes scored apart: taken from piles (plus) or left in hand (minus).
    black_threes: int = 0
    #: What the penalties take off (0 or less).
    penalties: int = 0
    #: A special hand's value, which the side scores alone.
    special_hand: int = 0

    @property
    def total(self) -> int:
        return (
            self.canastas
            + self.concealed_canastas
            + self.red_threes
            + self.going_out
            + self.meld_points
            - self.hand_points
            + self.black_threes
            + self.penalties
            + self.special_hand
        )

    def parts(self, rules: RuleSet) -> dict[str, int]:
        """The named parts of the score, only those ``rules`` knows (API.md, "Deals")."""
        parts = {"canastas": self.canastas}
        if rules.concealed_canasta_bonus:
            parts["concealed_canastas"] = self.concealed_canastas
        if rules.threes_laid:
            parts["threes"] = self.red_threes
        if rules.black_three_penalty is not None or rules.black_three_taken_bonus is not None:
            parts["black_threes"] = self.black_threes
        parts["meld"] = self.meld_points
        parts["going_out"] = self.going_out
        if rules.penalties:
            parts["penalties"] = self.penalties
        parts["hand"] = -self.hand_points
        if rules.special_hands:
            parts["special_hand"] = self.special_hand
        return parts


def score_breakdown(result: SideResult, rules: RuleSet) -> ScoreBreakdown:
    """Score one side's deal under ``rules`` (the entry is assumed checked)."""
    if result.special_hand is not None:
        return ScoreBreakdown(
            0, 0, 0, 0, 0, 0, special_hand=rules.special_hands[result.special_hand]
        )
    going_out = 0
    if result.went_out:
        going_out = rules.going_out_bonus
        if result.concealed and rules.concealed_going_out_bonus is not None:
            going_out += rules.concealed_going_out_bonus
    canastas = sum(bonus * result.canastas(kind) for kind, bonus in rules.canasta_bonuses.items())
    count = result.total_canastas
    sign = rules.threes_sign(melded=result.melded, canastas=count)
    threes = sum(rules.red_three_score(getattr(result, name)) for name in rules.threes_laid)
    penalties = sum(points * getattr(result, name) for name, points in rules.penalties.items())
    black_threes = rules.black_threes_taken_score(result.black_threes_taken)
    if rules.black_three_penalty is not None:
        black_threes -= rules.black_three_penalty * result.black_threes_in_hand
    return ScoreBreakdown(
        canastas=canastas,
        concealed_canastas=rules.concealed_canasta_bonus * result.concealed_canastas,
        red_threes=sign * threes,
        going_out=going_out,
        meld_points=rules.meld_sign(count) * result.meld_points,
        hand_points=result.hand_points,
        black_threes=black_threes,
        penalties=-penalties,
    )


def score_table(rules: RuleSet) -> dict[str, object]:
    """The numbers ``score_breakdown`` and ``RuleSet.meld_minimum`` read, as data for a
    page that must score a deal with no connection (``static/score.js`` applies them).
    Its figures are provisional: the server's are the ones recorded."""

    def totals(mapping: Mapping[int, int]) -> dict[str, int]:
        return {str(count): total for count, total in mapping.items()}

    return {
        "canastas": {kind.field: bonus for kind, bonus in rules.canasta_bonuses.items()},
        "concealed_canastas": rules.concealed_canasta_bonus,
        "red_three": rules.red_three_bonus,
        "red_three_totals": totals(rules.red_three_totals),
        "red_threes_plus_with_canastas": rules.red_threes_plus_with_canastas,
        "going_out": rules.going_out_bonus,
        "concealed_going_out": rules.concealed_going_out_bonus or 0,
        "black_three_penalty": rules.black_three_penalty,
        "black_three_taken": rules.black_three_taken_bonus,
        "black_threes_taken_totals": totals(rules.black_threes_taken_totals),
        "minimums": [[tier.from_total, tier.minimum] for tier in rules.meld_minimums],
        "minimums_by_deal": list(rules.meld_minimums_by_deal),
        "target": rules.target,
        "swing": None
        if rules.swing is None
        else {"meld": list(rules.swing.meld), "threes": list(rules.swing.threes)},
        "threes_laid": list(rules.threes_laid),
        "penalties": dict(rules.penalties),
        "special_hands": dict(rules.special_hands),
    }


def score_side(result: SideResult, rules: RuleSet) -> int:
    """The side's score for the deal."""
    return score_breakdown(result, rules).total


def score_deal(results: Sequence[SideResult], rules: RuleSet) -> tuple[int, ...]:
    """Every side's score for the deal, in side order."""
    return tuple(score_side(result, rules) for result in results)


#: The figures of a deal entry, as messages name them (canastas: ``figure_name``).
FIGURE_NAMES = {
    "meld_points": N_("Melded points"),
    **{kind.field: name.label for kind, name in CANASTA_NAMES.items()},
    "concealed_canastas": N_("Concealed canastas"),
    "red_threes": N_("Red threes"),
    "hand_points": N_("Left in hand"),
    "black_threes_in_hand": N_("Black threes in hand"),
    "black_threes_taken": N_("Black threes taken"),
    "black_threes": N_("Black threes"),
    "red_threes_in_hand": N_("Red threes left in hand or foot"),
    "aces_or_sevens_held": N_("Three aces or sevens held"),
    "unfinished_aces": N_("Unfinished aces meld"),
    "unfinished_sevens": N_("Unfinished sevens meld"),
    "unfinished_wild": N_("Unfinished wild meld"),
    "pot_missed": N_("Pot never taken"),
    "special_hand": N_("Special hand"),
    "went_out": N_("Went out"),
    "concealed": N_("Concealed"),
}
_KINDS_BY_FIELD = {kind.field: kind for kind in CANASTA_KINDS}


def figure_name(rules: RuleSet, figure: str) -> str:
    """The figure's name in ``rules``, as the deal form labels it (Samba's sequence
    canastas are "Sambas"; a Railroad hand counts the kitty not taken)."""
    kind = _KINDS_BY_FIELD.get(figure)
    if kind:
        return rules.canasta_name(kind).label
    if figure == "hand_points" and rules.kitty:
        return N_("Left in hand and kitty")
    return FIGURE_NAMES[figure]


def figures_of(rules: RuleSet) -> tuple[str, ...]:
    """The figures a deal of ``rules`` asks for, in the order a form lists them; any other
    figure of ``SideResult`` stays 0 (false, None)."""
    asked = {kind.field for kind in rules.canasta_kinds}
    asked.update(rules.threes_laid, rules.penalties)
    if rules.concealed_canasta_bonus:
        asked.add("concealed_canastas")
    if rules.black_three_penalty is not None:
        asked.add("black_threes_in_hand")
    if rules.black_three_taken_bonus is not None:
        asked.add("black_threes_taken")
    if rules.asks_concealed:
        asked.add("concealed")
    if rules.special_hands:
        asked.add("special_hand")
    return tuple(name for name in ENTRY_FIELDS if name in asked or name not in _OPTIONAL)


#: Figures only some rule sets ask; the others (melded points, going out, hand) every one.
_OPTIONAL = frozenset(
    {
        *_KINDS_BY_FIELD,
        "concealed_canastas",
        "black_threes_in_hand",
        "black_threes_taken",
        "red_threes",
        "black_threes",
        "red_threes_in_hand",
        "aces_or_sevens_held",
        "unfinished_aces",
        "unfinished_sevens",
        "unfinished_wild",
        "pot_missed",
        "concealed",
        "special_hand",
    }
)
