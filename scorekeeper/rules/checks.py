"""Settling arguments at the table: is a meld legal, does an initial meld reach the
minimum, may a side take the discard pile, may a player go out.

Each answer says yes or no and names the rule that decides it (RULES.md sections 2 and 5),
under the game's rule set and options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import Card, Rank, card_points
from .text import P, T, Text
from .variants import CanastaKind, RuleSet


@dataclass(frozen=True)
class MeldVerdict:
    """Whether a group of cards is a legal meld, and what it is worth."""

    legal: bool
    reason: Text
    rule: str
    #: The meld's rank ("wild" for a Railroad meld of wild cards only), or None.
    rank: str | None
    naturals: int
    wilds: int
    points: int
    canasta: CanastaKind | None = None


def check_meld(cards: Sequence[Card], rules: RuleSet, *, going_out: bool = False) -> MeldVerdict:
    """Check one meld under ``rules``; ``going_out`` allows black threes (RULES.md 2, 5)."""
    naturals = [card for card in cards if card.natural]
    wilds = [card for card in cards if card.wild]
    threes = [card for card in cards if card.rank is Rank.THREE]
    points = card_points(cards)
    ranks = sorted({card.rank.value for card in naturals})

    def no(rule: str, reason: Text, rank: str | None = None) -> MeldVerdict:
        return MeldVerdict(False, reason, rule, rank, len(naturals), len(wilds), points)

    if any(card.red_three for card in cards):
        return no("red_three", T("Red threes are never melded: they are laid down as bonus cards."))
    if threes:
        if wilds:
            return no("threes_with_wilds", T("Black threes never meld with wild cards."), "3")
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
        return no(
            "one_rank",
            T("A meld is of one rank; these cards are %(ranks)s.", ranks=", ".join(ranks)),
        )
    if rules.max_meld is not None and len(cards) > rules.max_meld:
        return no(
            "meld_full",
            T(
                "A meld of %(size)s cards is a canasta and takes no more cards.",
                size=rules.max_meld,
            ),
            ranks[0] if ranks else "wild",
        )
    if not naturals:
        if CanastaKind.WILD not in rules.canasta_bonuses:
            return no("two_naturals", T("A meld needs at least 2 natural cards."))
        # Railroad: a meld of wild cards only, up to a wild canasta of 7.
        wild_canasta = CanastaKind.WILD if len(cards) == 7 else None
        return MeldVerdict(
            True,
            P(
                "Legal: a meld of %(num)s wild cards, %(points)s points, a wild canasta.",
                "Legal: a meld of %(num)s wild cards, %(points)s points, a wild canasta.",
                len(wilds),
                points=points,
            )
            if wild_canasta
            else P(
                "Legal: a meld of %(num)s wild card, %(points)s points.",
                "Legal: a meld of %(num)s wild cards, %(points)s points.",
                len(wilds),
                points=points,
            ),
            "legal",
            "wild",
            0,
            len(wilds),
            points,
            wild_canasta,
        )
    rank = ranks[0]
    if len(naturals) < 2:
        return no("two_naturals", T("A meld needs at least 2 natural cards."), rank)
    if len(wilds) > 3:
        return no(
            "three_wilds",
            T("A meld has at most 3 wild cards; this one has %(wilds)s.", wilds=len(wilds)),
            rank,
        )
    if len(wilds) > len(naturals) and not rules.wilds_may_outnumber_naturals:
        return no(
            "wilds_outnumber",
            T(
                "Wild cards may not outnumber natural cards "
                "(%(wilds)s wild, %(naturals)s natural).",
                wilds=len(wilds),
                naturals=len(naturals),
            ),
            rank,
        )
    canasta: CanastaKind | None = None
    if len(cards) >= 7:
        if wilds:
            canasta = CanastaKind.MIXED
        elif rank == Rank.SEVEN.value and CanastaKind.SEVENS in rules.canasta_bonuses:
            canasta = CanastaKind.SEVENS
        else:
            canasta = CanastaKind.NATURAL
    if canasta:
        reason = T(
            "Legal: %(naturals)s natural and %(wilds)s wild cards of rank %(rank)s, "
            "%(points)s points, a %(kind)s canasta.",
            naturals=len(naturals),
            wilds=len(wilds),
            rank=rank,
            points=points,
            kind=T(canasta.value),
        )
    else:
        reason = T(
            "Legal: %(naturals)s natural and %(wilds)s wild cards of rank %(rank)s, "
            "%(points)s points.",
            naturals=len(naturals),
            wilds=len(wilds),
            rank=rank,
            points=points,
        )
    return MeldVerdict(
        True,
        reason,
        "legal",
        rank,
        len(naturals),
        len(wilds),
        points,
        canasta,
    )


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
) -> InitialMeldVerdict:
    """Melds put down in one turn add up; only card points count. When the side takes the
    pile, its top card joins the meld of its rank and counts; no other pile card does.
    A side that has not melded takes the pile only with a natural pair matching the top
    card (RULES.md sections 2 and 5)."""
    required = rules.meld_minimum(total)
    groups = [list(meld) for meld in melds]

    def answer(
        points: int, meets: bool, reason: Text, verdicts: Sequence[MeldVerdict]
    ) -> InitialMeldVerdict:
        return InitialMeldVerdict(required, points, meets, reason, tuple(verdicts))

    if not groups:
        return answer(0, False, T("Put down at least one meld."), [])
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
    verdicts = [check_meld(group, rules) for group in groups]
    points = sum(verdict.points for verdict in verdicts)
    for number, verdict in enumerate(verdicts, start=1):
        if not verdict.legal:
            return answer(
                points,
                False,
                T("Meld %(number)s is not legal: %(reason)s", number=number, reason=verdict.reason),
                verdicts,
            )
    # One meld per rank (classic); Railroad starts a new one only beside a finished canasta.
    for rank in {v.rank for v in verdicts if v.rank is not None}:
        same = [v for v in verdicts if v.rank == rank]
        unfinished = [v for v in same if rules.max_meld is None or v.canasta is None]
        if len(same) > 1 and (rules.max_meld is None or len(unfinished) > 1):
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
    meets = points >= required
    if pile_top is not None:
        reason = (
            T(
                "%(points)s points, the top card of the pile included, reach the %(required)s "
                "this side needs.",
                points=points,
                required=required,
            )
            if meets
            else T(
                "%(points)s points, the top card of the pile included, are short of the "
                "%(required)s this side needs.",
                points=points,
                required=required,
            )
        )
    else:
        reason = (
            T(
                "%(points)s points reach the %(required)s this side needs.",
                points=points,
                required=required,
            )
            if meets
            else T(
                "%(points)s points are short of the %(required)s this side needs.",
                points=points,
                required=required,
            )
        )
    return answer(points, meets, reason, verdicts)


@dataclass(frozen=True)
class Answer:
    """A yes or no with the rule that decides it."""

    allowed: bool
    rule: str
    reason: Text


def check_pickup(
    rules: RuleSet,
    *,
    top: Card,
    frozen: bool,
    side_has_melded: bool,
    natural_matches: int,
    wild_cards: int,
    side_melds: Sequence[Rank] = (),
    full_melds: Sequence[Rank] = (),
    cards_in_hand: int,
    pile_size: int,
) -> Answer:
    """May this side take the discard pile? (RULES.md section 2, and section 5 for
    Railroad, where a finished canasta takes no more cards).

    ``natural_matches`` and ``wild_cards`` are the cards in hand that could go with the top
    card; ``side_melds`` the ranks the side has melded (``full_melds`` those that are
    closed canastas).
    """
    if rules.max_meld is None:
        full_melds = ()  # classic canastas never close: a card can always be added
    if top.wild:
        return Answer(False, "wild_on_top", T("The pile is never taken with a wild card on top."))
    if top.rank is Rank.THREE:
        if top.black_three and not rules.black_three_freezes:
            return Answer(
                False,
                "black_three_on_top",
                T("A black three on top blocks the pile for this turn."),
            )
        return Answer(False, "three_on_top", T("The pile is never taken with a three on top."))
    if cards_in_hand == 1 and pile_size == 1:
        return Answer(
            False,
            "one_card_pile",
            T("A player holding one card may not take a pile of one card."),
        )
    rank = top.rank.value
    if frozen or not side_has_melded:
        if natural_matches >= 2:
            return Answer(
                True,
                "natural_pair",
                T(
                    "Yes: the pile is frozen, and a natural pair of rank %(rank)s takes it.",
                    rank=rank,
                )
                if side_has_melded
                else T(
                    "Yes: the pile is frozen for a side that has not melded, and a natural "
                    "pair of rank %(rank)s takes it. The meld must also reach the side's "
                    "minimum.",
                    rank=rank,
                ),
            )
        return Answer(
            False,
            "needs_natural_pair",
            T(
                "The pile is frozen: it is taken only with a natural pair of rank %(rank)s from "
                "the hand.",
                rank=rank,
            )
            if frozen
            else T(
                "The pile is frozen for a side that has not melded: it is taken only with a "
                "natural pair of rank %(rank)s from the hand.",
                rank=rank,
            ),
        )
    if natural_matches >= 2:
        return Answer(
            True, "natural_pair", T("Yes: a natural pair of rank %(rank)s takes it.", rank=rank)
        )
    if top.rank in side_melds and top.rank not in full_melds:
        return Answer(
            True,
            "adds_to_meld",
            T("Yes: the card goes onto the side's meld of rank %(rank)s.", rank=rank),
        )
    if natural_matches >= 1 and wild_cards >= 1:
        return Answer(
            True,
            "natural_and_wild",
            T("Yes: one natural card of rank %(rank)s and a wild card take it.", rank=rank),
        )
    if top.rank in full_melds:
        return Answer(
            False,
            "meld_full",
            T(
                "The side's meld of rank %(rank)s is a closed canasta: the card needs a natural "
                "pair or a new meld.",
                rank=rank,
            ),
        )
    return Answer(
        False,
        "no_match",
        T(
            "Taking the pile needs a natural pair of rank %(rank)s, one natural card of that rank "
            "and a wild card, or a meld of that rank to add it to.",
            rank=rank,
        ),
    )


@dataclass(frozen=True)
class GoingOutVerdict:
    allowed: bool
    concealed: bool
    rule: str
    reason: Text


def check_going_out(
    rules: RuleSet,
    *,
    canastas: Mapping[CanastaKind, int],
    cards_left: int,
    last_discard: Card | None,
    melded_before: bool,
) -> GoingOutVerdict:
    """May the player go out? ``canastas`` are the side's canastas by kind once this turn's
    melds are down; ``cards_left`` the cards still in hand (at most the one to discard);
    ``melded_before`` whether the player had melded in an earlier turn (if not, going out
    is concealed)."""

    def no(rule: str, reason: Text) -> GoingOutVerdict:
        return GoingOutVerdict(False, False, rule, reason)

    missing = [
        k.value for k in rules.canasta_kinds if k in rules.kinds_to_go_out and not canastas.get(k)
    ]
    if missing:
        return no(
            "out_needs_kinds",
            T(
                "Going out needs one canasta of each kind; missing: %(missing)s.",
                missing=tuple(T(kind) for kind in missing),
            ),
        )
    total = sum(canastas.get(kind, 0) for kind in rules.canasta_kinds)
    if total < rules.canastas_to_go_out:
        return no(
            "out_needs_canastas",
            P(
                "Going out needs a canasta on the side's table.",
                "Going out needs %(num)s canastas on the side's table.",
                rules.canastas_to_go_out,
            ),
        )
    if cards_left > 1:
        return no(
            "cards_left",
            T("Going out means melding every card but at most one, which is discarded."),
        )
    if rules.kinds_to_go_out:
        # Railroad (S): the last card is discarded, and it may not be a seven.
        if cards_left == 0 or last_discard is None:
            return no("must_discard", T("The last card is discarded: keep one card to discard."))
        if last_discard.rank is Rank.SEVEN:
            return no("seven_discard", T("The last discard may not be a seven."))
    concealed = not melded_before and rules.concealed_going_out_bonus is not None
    if concealed:
        reason = T(
            "Yes, concealed: the whole hand goes down in one turn (%(bonus)s for going out).",
            bonus=rules.concealed_going_out_total,
        )
    elif not melded_before:
        reason = T(
            "Yes (%(bonus)s for going out; %(rules)s has no concealed bonus).",
            bonus=rules.going_out_bonus,
            rules=T(rules.name),
        )
    else:
        reason = T("Yes: %(bonus)s for going out.", bonus=rules.going_out_bonus)
    return GoingOutVerdict(True, concealed, "may_go_out", reason)
