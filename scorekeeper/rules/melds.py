"""Melds at the table: is a meld legal (a group of one rank, a sequence, wild cards alone),
and does an initial meld reach the side's minimum.

Each answer says yes or no and names the rule that decides it (RULES.md sections 2, 5 and
10.5), under the game's rule set and options. Nothing here tests a rule set's id: the answers
follow the rule set's data (``sequences``, ``wild_melds``, ``max_wilds``, ``max_meld``, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, Rank
from .kinds import CANASTA_SIZE, CanastaKind
from .ruleset import RuleSet
from .runs import RANK_KINDS, canasta_of, check_run
from .text import P, T, Text
from .verdicts import MeldVerdict, Refuse

#: The ranks a sequence runs through, low to high: 4 low, ace high (RULES.md section 10.1).
RUN_RANKS = (
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
)
_RUN_INDEX = {rank: index for index, rank in enumerate(RUN_RANKS)}


def is_run(cards: Sequence[Card]) -> bool:
    """Natural cards of one suit, each rank once, in a row from 4 up to the ace."""
    if not cards or any(c.suit is None or c.rank not in _RUN_INDEX for c in cards):
        return False
    if len({card.suit for card in cards}) != 1:
        return False
    places = sorted(_RUN_INDEX[card.rank] for card in cards)
    return places == list(range(places[0], places[0] + len(places)))


def wild_canasta_kind(cards: Sequence[Card], rules: RuleSet) -> CanastaKind | None:
    """The kind of a canasta of seven wild cards: Cuban scores seven twos (DEUCE) and four
    jokers with three twos (JOKER) apart; any other seven are WILD (RULES.md 5, 10)."""
    jokers = sum(card.rank is Rank.JOKER for card in cards)
    twos = len(cards) - jokers
    if twos == CANASTA_SIZE and CanastaKind.DEUCE in rules.canasta_bonuses:
        return CanastaKind.DEUCE
    if (jokers, twos) == (4, 3) and CanastaKind.JOKER in rules.canasta_bonuses:
        return CanastaKind.JOKER
    return CanastaKind.WILD if CanastaKind.WILD in rules.canasta_bonuses else None


def card_value(card: Card, rules: RuleSet) -> int:
    """One card's points under ``rules`` (Burraco's own values); a red three is a bonus
    card with no value where threes are laid down (RULES.md sections 1 and 15)."""
    return 0 if card.red_three and rules.threes_laid else rules.card_value(card.rank)


def points_of(cards: Sequence[Card], rules: RuleSet) -> int:
    """The card points of ``cards`` under ``rules``."""
    return sum(card_value(card, rules) for card in cards)


def is_natural(card: Card, rules: RuleSet) -> bool:
    """A natural card for melding: not wild, and not a three where threes are laid down
    (in Burraco threes are cards like any other)."""
    return card.natural or (card.rank is Rank.THREE and not rules.threes_laid)


def check_meld(
    cards: Sequence[Card], rules: RuleSet, *, going_out: bool = False, initial: bool = False
) -> MeldVerdict:
    """Check one meld under ``rules``; ``going_out`` allows black threes (RULES.md 2, 5,
    10.5), ``initial`` says the meld is part of the side's initial meld (Modern American's
    aces take wild cards only then): a group of one rank, wild cards alone where the rule
    set melds them, or a sequence of one suit where it has sequences."""
    naturals = [card for card in cards if is_natural(card, rules)]
    wilds = [card for card in cards if card.wild]
    threes = [card for card in cards if card.rank is Rank.THREE and rules.threes_laid]
    points = points_of(cards, rules)
    ranks = sorted({card.rank.value for card in naturals})

    def no(rule: str, reason: Text, rank: str | None = None) -> MeldVerdict:
        return MeldVerdict(False, reason, rule, rank, len(naturals), len(wilds), points)

    if any(card.red_three for card in threes):
        return no("red_three", T("Red threes are never melded: they are laid down as bonus cards."))
    if any(card.black_three for card in threes) and "black_threes" in rules.threes_laid:
        return no(
            "black_three_laid",
            T("Black threes are never melded here: like red threes, they are laid down at once."),
            "3",
        )
    if threes:
        if wilds:
            return no("threes_with_wilds", T("Black threes never meld with wild cards."), "3")
        if naturals and rules.sequences and len(ranks) > 1:
            return no("sequence_three", T("A sequence runs from 4 up to the ace: no threes."))
        if naturals:
            return no("one_rank", T("A meld is of one rank: black threes cannot join other cards."))
        if not going_out:
            return no(
                "threes_only_going_out",
                T("Black threes are melded only by a player who goes out in that turn."),
                "3",
            )
        most = rules.max_black_threes
        if len(threes) < 3 or (most is not None and len(threes) > most):
            return no(
                "black_three_count",
                T("A meld of black threes has 3 to %(most)s cards.", most=most)
                if most
                else T("A meld of black threes has 3 or more cards."),
                "3",
            )
        return MeldVerdict(
            True,
            P(
                "Legal when going out: %(num)s black three, %(points)s points, no canasta bonus.",
                "Legal when going out: %(num)s black threes, %(points)s points, no canasta bonus.",
                len(threes),
                points=points,
            ),
            "legal",
            "3",
            0,
            0,
            points,
        )
    if len(cards) < 3:
        return no(
            "too_few", T("A meld has at least 3 cards."), ranks[0] if len(ranks) == 1 else None
        )
    if len(ranks) > 1:
        if rules.sequence_ranks:
            return check_run(cards, rules, points, no)
        if rules.sequences:
            return _check_sequence(cards, rules, no)
        return no(
            "one_rank",
            T("A meld is of one rank; these cards are %(ranks)s.", ranks=", ".join(ranks)),
        )
    if rules.max_meld is not None and len(cards) > rules.max_meld:
        return _meld_full(rules.max_meld, no, ranks[0] if ranks else "wild")
    if not naturals:
        return _check_wild_meld(cards, rules, no)
    group = _check_group(cards, naturals, rules, no, initial=initial)
    if not group.legal and rules.sequence_ranks and any(c.rank is Rank.TWO for c in cards):
        # A two of the suit may stand as itself in a run (Burraco: 2H 3H JK).
        run = check_run(cards, rules, points, no)
        if run.legal:
            return run
    return group


def _meld_full(size: int, no: Refuse, rank: str | None) -> MeldVerdict:
    return no(
        "meld_full",
        T("A meld of %(size)s cards is a canasta and takes no more cards.", size=size),
        rank,
    )


def _check_sequence(cards: Sequence[Card], rules: RuleSet, no: Refuse) -> MeldVerdict:
    """Cards of several ranks: legal only as a sequence (RULES.md 10.1): 3 to 7 cards of
    one suit in a row, no wild card (a two is never natural in a sequence); seven are a
    canasta of kind SEQUENCE (Samba's samba, Bolivia's escalera)."""
    naturals = [card for card in cards if card.natural]
    if any(card.suit is None for card in naturals):
        ranks = sorted({card.rank.value for card in naturals})
        return no(
            "one_rank",
            T(
                "A meld is of one rank, or a sequence of one suit with the suit written on "
                "every card (4H 5H 6H); these cards are %(ranks)s.",
                ranks=", ".join(ranks),
            ),
        )
    if len(naturals) < len(cards):
        return no(
            "sequence_wild",
            T("A sequence has no wild cards: jokers and twos never stand in it."),
        )
    if len({card.suit for card in cards}) > 1:
        return no("sequence_suit", T("A sequence is of one suit."))
    if not is_run(cards):
        return no(
            "sequence_gap",
            T("A sequence is cards in a row, each rank once, from 4 up to the ace."),
        )
    if len(cards) > CANASTA_SIZE:
        return no(
            "sequence_long",
            T(
                "A sequence has at most %(size)s cards: at %(size)s it is a canasta and takes "
                "no more.",
                size=CANASTA_SIZE,
            ),
        )
    run = sorted(cards, key=lambda card: _RUN_INDEX[card.rank])
    points = points_of(cards, rules)
    canasta = CanastaKind.SEQUENCE if len(cards) == CANASTA_SIZE else None
    if canasta:
        reason = T(
            "Legal: a sequence from %(low)s to %(high)s, %(points)s points, a canasta (%(kind)s).",
            low=str(run[0]),
            high=str(run[-1]),
            points=points,
            kind=T(rules.canasta_name(canasta).word),
        )
    else:
        reason = T(
            "Legal: a sequence from %(low)s to %(high)s, %(points)s points.",
            low=str(run[0]),
            high=str(run[-1]),
            points=points,
        )
    return MeldVerdict(True, reason, "legal", None, len(cards), 0, points, canasta)


def _check_wild_meld(cards: Sequence[Card], rules: RuleSet, no: Refuse) -> MeldVerdict:
    """Wild cards alone (RULES.md 5, 10.2 to 10.4): 3 to 7 where the rule set melds them;
    seven are a canasta of the kind their twos and jokers make."""
    if not rules.wild_melds:
        return no("two_naturals", T("A meld needs at least 2 natural cards."))
    if len(cards) > CANASTA_SIZE:
        return _meld_full(CANASTA_SIZE, no, "wild")
    points = points_of(cards, rules)
    canasta = wild_canasta_kind(cards, rules) if len(cards) == CANASTA_SIZE else None
    if canasta is None:
        reason = P(
            "Legal: a meld of %(num)s wild card, %(points)s points.",
            "Legal: a meld of %(num)s wild cards, %(points)s points.",
            len(cards),
            points=points,
        )
    elif canasta in rules.canasta_names:
        reason = T(
            "Legal: a meld of %(num)s wild cards, %(points)s points, a canasta (%(kind)s).",
            num=len(cards),
            points=points,
            kind=T(rules.canasta_name(canasta).word),
        )
    else:
        reason = T(
            "Legal: a meld of %(num)s wild cards, %(points)s points, a %(kind)s canasta.",
            num=len(cards),
            points=points,
            kind=T(rules.canasta_name(canasta).word),
        )
    return MeldVerdict(True, reason, "legal", "wild", 0, len(cards), points, canasta)


def _check_group(
    cards: Sequence[Card], naturals: Sequence[Card], rules: RuleSet, no: Refuse, *, initial: bool
) -> MeldVerdict:
    """Cards of one rank with at most ``rules.max_wilds`` wild cards (RULES.md 2, 10.1),
    none in a meld of a natural-only rank (Modern American's sevens; its aces outside the
    initial meld, where they make a mixed canasta: section 13)."""
    wilds = len(cards) - len(naturals)
    rank = naturals[0].rank.value
    points = points_of(cards, rules)
    if len(naturals) < 2:
        return no("two_naturals", T("A meld needs at least 2 natural cards."), rank)
    if wilds > rules.max_wilds:
        return no(
            "three_wilds",
            P(
                "A meld has at most %(num)s wild card; this one has %(wilds)s.",
                "A meld has at most %(num)s wild cards; this one has %(wilds)s.",
                rules.max_wilds,
                wilds=wilds,
            ),
            rank,
        )
    if wilds > len(naturals) and not rules.wilds_may_outnumber_naturals:
        return no(
            "wilds_outnumber",
            T(
                "Wild cards may not outnumber natural cards "
                "(%(wilds)s wild, %(naturals)s natural).",
                wilds=wilds,
                naturals=len(naturals),
            ),
            rank,
        )
    if wilds and naturals[0].rank in rules.natural_only_ranks:
        if naturals[0].rank not in rules.initial_wild_ranks:
            return no(
                "natural_only",
                T("A meld of rank %(rank)s never takes a wild card.", rank=rank),
                rank,
            )
        if not initial:
            return no(
                "natural_only",
                T(
                    "A meld of rank %(rank)s takes wild cards only in the initial meld, and is "
                    "then a mixed canasta.",
                    rank=rank,
                ),
                rank,
            )
    canasta: CanastaKind | None = None
    if len(cards) >= CANASTA_SIZE:
        canasta = canasta_of(rules, wilds, len(naturals))
        kind = RANK_KINDS.get(naturals[0].rank)
        if canasta is CanastaKind.NATURAL and kind in rules.canasta_bonuses:
            canasta = kind
    if canasta is not None and canasta in rules.canasta_names:
        # A kind with a name of its own (a clean book, a dirty burraco) is named as such.
        reason = T(
            "Legal: rank %(rank)s, natural cards: %(naturals)s, wild cards: %(wilds)s; "
            "%(points)s points, a canasta (%(kind)s).",
            naturals=len(naturals),
            wilds=wilds,
            rank=rank,
            points=points,
            kind=T(rules.canasta_name(canasta).word),
        )
    elif canasta:
        reason = T(
            "Legal: rank %(rank)s, natural cards: %(naturals)s, wild cards: %(wilds)s; "
            "%(points)s points, a %(kind)s canasta.",
            naturals=len(naturals),
            wilds=wilds,
            rank=rank,
            points=points,
            kind=T(rules.canasta_name(canasta).word),
        )
    else:
        reason = T(
            "Legal: rank %(rank)s, natural cards: %(naturals)s, wild cards: %(wilds)s; "
            "%(points)s points.",
            naturals=len(naturals),
            wilds=wilds,
            rank=rank,
            points=points,
        )
    return MeldVerdict(True, reason, "legal", rank, len(naturals), wilds, points, canasta)


@dataclass(frozen=True)
class InitialMeldVerdict:
    """Whether melds put down together reach the side's initial-meld minimum."""

    required: int
    points: int
    meets: bool
    reason: Text
    melds: tuple[MeldVerdict, ...]


def check_initial_meld(
    melds: Sequence[Sequence[Card]],
    rules: RuleSet,
    *,
    total: int,
    pile_top: Card | None = None,
    deal: int = 1,
) -> InitialMeldVerdict:
    """Melds put down in one turn add up; only card points count. When the side takes the
    pile, its top card joins the meld of its rank and counts (not in Modern American:
    ``pile_top_counts``); no other pile card does. A side that has not melded takes the
    pile only with a natural pair matching the top card (RULES.md sections 2 and 5); the
    meld holds a clean triple where the rule set asks one (section 13). ``deal`` is the
    deal's number, where the minimum goes by deal (section 14); a rule set with no
    minimum (Burraco, section 15) takes any legal meld, and the pile freely."""
    required = rules.meld_minimum(total, deal)
    groups = [list(meld) for meld in melds]

    def answer(
        points: int, meets: bool, reason: Text, verdicts: Sequence[MeldVerdict]
    ) -> InitialMeldVerdict:
        return InitialMeldVerdict(required, points, meets, reason, tuple(verdicts))

    if not groups:
        return answer(0, False, T("Put down at least one meld."), [])
    if rules.pile_taken_freely:
        pile_top = None  # the pile goes to the hand whole: its top card joins no meld
    if pile_top is not None:
        if not pile_top.natural:
            return answer(
                0, False, T("The pile cannot be taken when a wild card or a three is on top."), []
            )
        matching = [g for g in groups if sum(c.rank is pile_top.rank and c.natural for c in g) >= 2]
        if not matching:
            return answer(
                0,
                False,
                T(
                    "A side that has not melded takes the pile only with a natural pair of rank "
                    "%(rank)s from the hand, melded with the top card.",
                    rank=pile_top.rank.value,
                ),
                [],
            )
        matching[0].append(pile_top)
    verdicts = [check_meld(group, rules, initial=True) for group in groups]
    points = sum(verdict.points for verdict in verdicts)
    if pile_top is not None and not rules.pile_top_counts:
        points -= card_value(pile_top, rules)
    for number, verdict in enumerate(verdicts, start=1):
        if not verdict.legal:
            return answer(
                points,
                False,
                T("Meld %(number)s is not legal: %(reason)s", number=number, reason=verdict.reason),
                verdicts,
            )
    # One meld per rank (classic, Cuban too); Railroad starts a new one beside a closed
    # canasta. Sequences have no rank: several may go down at once.
    for rank in {v.rank for v in verdicts if v.rank is not None}:
        same = [v for v in verdicts if v.rank == rank]
        unfinished = [v for v in same if v.canasta is None]
        if len(same) > 1 and (not rules.new_meld_beside_canasta or len(unfinished) > 1):
            return answer(
                points,
                False,
                T(
                    "A side has one meld of each rank: put the cards of rank %(rank)s together in "
                    "one meld.",
                    rank=rank,
                ),
                verdicts,
            )
    if rules.initial_meld_clean_triple and not any(
        verdict.rank not in (None, "wild") and verdict.naturals >= 3 for verdict in verdicts
    ):
        return answer(
            points,
            False,
            T("The initial meld must hold a clean triple: three natural cards of one rank."),
            verdicts,
        )
    meets = points >= required
    return answer(points, meets, _minimum_reason(rules, points, required, pile_top), verdicts)


def has_minimum(rules: RuleSet) -> bool:
    """Whether an initial meld has a minimum to reach (Burraco's has none: section 15)."""
    return bool(rules.meld_minimums_by_deal) or any(t.minimum for t in rules.meld_minimums)


def _minimum_reason(rules: RuleSet, points: int, required: int, pile_top: Card | None) -> Text:
    """How the points stand against the minimum, and whether the pile's top card counted."""
    if not has_minimum(rules):
        return T(
            "No initial-meld minimum in this game: any legal meld opens (%(points)s points).",
            points=points,
        )
    meets = points >= required
    if pile_top is not None and not rules.pile_top_counts:
        if meets:
            return T(
                "%(points)s points, without the top card of the pile (it does not count), "
                "reach the %(required)s this side needs.",
                points=points,
                required=required,
            )
        return T(
            "%(points)s points, without the top card of the pile (it does not count), are "
            "short of the %(required)s this side needs.",
            points=points,
            required=required,
        )
    if pile_top is not None:
        if meets:
            return T(
                "%(points)s points, the top card of the pile included, reach the %(required)s "
                "this side needs.",
                points=points,
                required=required,
            )
        return T(
            "%(points)s points, the top card of the pile included, are short of the "
            "%(required)s this side needs.",
            points=points,
            required=required,
        )
    if meets:
        return T(
            "%(points)s points reach the %(required)s this side needs.",
            points=points,
            required=required,
        )
    return T(
        "%(points)s points are short of the %(required)s this side needs.",
        points=points,
        required=required,
    )


def starts_sequence(top: Card, hand: Sequence[Card]) -> bool:
    """Whether two cards of the hand would make a sequence of three with ``top`` (the way
    Samba and Bolivia never take the pile: RULES.md 10.5)."""
    if top.suit is None or top.rank not in _RUN_INDEX:
        return False
    suited = {card.rank for card in hand if card.suit is top.suit and card.natural}
    place = _RUN_INDEX[top.rank]
    windows = (RUN_RANKS[low : low + 3] for low in range(max(place - 2, 0), place + 1))
    return any(
        len(window) == 3 and all(r is top.rank or r in suited for r in window) for window in windows
    )
