"""Where the cards of a long sequence go (Burraco's, RULES.md section 15): cards of one
suit in a row along the rule set's ``sequence_ranks`` (the ace low or high), a two of the
suit as itself in its place, and at most ``sequence_wilds`` wild cards filling a gap or
extending an end. ``melds`` words the answer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from .cards import Card, Rank
from .kinds import CANASTA_SIZE, CanastaKind
from .ruleset import RuleSet
from .text import P, T, Text
from .verdicts import MeldVerdict, Refuse


@dataclass(frozen=True)
class Run:
    """A sequence placed: its natural cards and wild cards, where the naturals start and
    end (cards), and whether a wild card fills a gap between them (not only an end)."""

    naturals: int
    wilds: int
    low: Card
    high: Card
    gap: bool


def place_run(cards: Sequence[Card], ranks: Sequence[Rank], most_wilds: int) -> Run | str:
    """The cleanest way to lay ``cards`` out as a run along ``ranks`` with at most
    ``most_wilds`` wild cards (a two in its place is natural, so the fewest wild cards
    wins, then a wild card at an end rather than in a gap), or why none exists: the rule
    code ``suit_missing``, ``sequence_suit``, ``sequence_wilds`` or ``sequence_gap``."""
    fixed = [card for card in cards if not card.wild]
    if not fixed or any(card.suit is None for card in fixed):
        return "suit_missing"
    suits = {card.suit for card in fixed}
    if len(suits) > 1 or any(card.rank not in ranks for card in fixed):
        return "sequence_suit"
    if len(cards) > len(ranks):
        return "sequence_gap"  # longer than the whole run (and no search through it)
    suit = fixed[0].suit
    # At most one two stands as itself: a run has one place for it.
    own_twos = [Card(Rank.TWO, suit)] if Rank.TWO in ranks and Card(Rank.TWO, suit) in cards else []
    best: Run | None = None
    least_wilds = len(cards) - len(fixed) - len(own_twos)
    if least_wilds > most_wilds:
        return "sequence_wilds"
    for naturals in (fixed + own_twos, fixed) if own_twos else (fixed,):
        wilds = len(cards) - len(naturals)
        if wilds > most_wilds:
            continue
        places = [[i for i, rank in enumerate(ranks) if rank is card.rank] for card in naturals]
        for chosen in product(*places):
            if len(set(chosen)) < len(chosen):
                continue
            low, high = min(chosen), max(chosen)
            gaps = high - low + 1 - len(chosen)
            if gaps > wilds or high - low + 1 + wilds - gaps > len(ranks):
                continue
            run = Run(
                len(naturals),
                wilds,
                Card(ranks[low], suit),
                Card(ranks[high], suit),
                gaps > 0,
            )
            if best is None or (run.wilds, run.gap) < (best.wilds, best.gap):
                best = run
    return best if best is not None else "sequence_gap"


#: Natural canastas of these ranks score as their own kind where the rule set has it.
RANK_KINDS = {Rank.SEVEN: CanastaKind.SEVENS, Rank.ACE: CanastaKind.ACES}


def canasta_of(rules: RuleSet, wilds: int, naturals: int) -> CanastaKind:
    """A canasta's kind by its wild cards: natural, mixed, or (Burraco's house rule) a
    semi-natural one whose one wild card sits beside seven natural cards."""
    if not wilds:
        return CanastaKind.NATURAL
    semi = CanastaKind.SEMI_NATURAL in rules.canasta_bonuses
    if semi and wilds == 1 and naturals >= CANASTA_SIZE:
        return CanastaKind.SEMI_NATURAL
    return CanastaKind.MIXED


def _card_name(card: Card) -> str:
    return card.rank.value + (card.suit.value if card.suit else "")


def check_run(cards: Sequence[Card], rules: RuleSet, points: int, no: Refuse) -> MeldVerdict:
    """A sequence along ``rules.sequence_ranks`` (Burraco, RULES.md section 15): 3 or more
    cards of one suit in a row, the ace low or high, at most ``sequence_wilds`` wild
    cards; seven or more are a canasta (a burraco), clean without a wild card."""
    placed = place_run(cards, rules.sequence_ranks, rules.sequence_wilds)
    if not isinstance(placed, Run):
        return no(placed, _run_refusal(placed, rules))
    canasta = None
    if len(cards) >= CANASTA_SIZE:
        canasta = canasta_of(rules, placed.wilds, placed.naturals)
        if canasta is CanastaKind.SEMI_NATURAL and placed.gap:
            canasta = CanastaKind.MIXED  # the wild card stands inside, not at an end
    low, high = _card_name(placed.low), _card_name(placed.high)
    if canasta and placed.wilds:
        reason = P(
            "Legal: a sequence from %(low)s to %(high)s with %(num)s wild card, %(points)s "
            "points, a canasta (%(kind)s).",
            "Legal: a sequence from %(low)s to %(high)s with %(num)s wild cards, %(points)s "
            "points, a canasta (%(kind)s).",
            placed.wilds,
            low=low,
            high=high,
            points=points,
            kind=T(rules.canasta_name(canasta).word),
        )
    elif canasta:
        reason = T(
            "Legal: a sequence from %(low)s to %(high)s, %(points)s points, a canasta (%(kind)s).",
            low=low,
            high=high,
            points=points,
            kind=T(rules.canasta_name(canasta).word),
        )
    elif placed.wilds:
        reason = P(
            "Legal: a sequence from %(low)s to %(high)s with %(num)s wild card, %(points)s points.",
            "Legal: a sequence from %(low)s to %(high)s with %(num)s wild cards, %(points)s "
            "points.",
            placed.wilds,
            low=low,
            high=high,
            points=points,
        )
    else:
        reason = T(
            "Legal: a sequence from %(low)s to %(high)s, %(points)s points.",
            low=low,
            high=high,
            points=points,
        )
    return MeldVerdict(True, reason, "legal", None, placed.naturals, placed.wilds, points, canasta)


def _run_refusal(code: str, rules: RuleSet) -> Text:
    """Why cards make no sequence, by ``place_run``'s rule code."""
    if code == "suit_missing":
        return T(
            "A meld is of one rank, or a sequence of one suit with the suit written on every "
            "natural card (4H 5H 6H)."
        )
    if code == "sequence_suit":
        return T("A sequence is of one suit.")
    if code == "sequence_wilds":
        return P(
            "A meld holds at most %(num)s wild card.",
            "A meld holds at most %(num)s wild cards.",
            rules.sequence_wilds,
        )
    return T(
        "A sequence is cards of one suit in a row, each place once, the ace low (A 2 3) or "
        "high (Q K A); a wild card may stand for a missing card."
    )
