"""Settling arguments at the table: may a side take the discard pile, may a player go out
(whether a meld is legal and an initial meld reaches the minimum: ``melds``).

Each answer says yes or no and names the rule that decides it (RULES.md sections 2, 5 and
10.5), under the game's rule set and options. Nothing here tests a rule set's id: the answers
follow the rule set's data (``sequences``, ``wild_melds``, ``max_wilds``, ``max_meld``, ...).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from .cards import Card, Rank
from .kinds import CanastaKind
from .ruleset import RuleSet
from .scoring import figure_name
from .text import P, T, Text


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
    sequence_in_hand: bool = False,
) -> Answer:
    """May this side take the discard pile? (RULES.md section 2; section 5 for Railroad,
    where a finished canasta takes no more cards; section 10.5 for the family).

    ``natural_matches`` and ``wild_cards`` are the cards in hand that could go with the top
    card; ``side_melds`` the ranks the side has melded (``full_melds`` those that are
    closed canastas); ``sequence_in_hand`` whether the hand could start a sequence with the
    top card, which never takes the pile. The pile is taken only with cards of the top
    card's rank: sequences never take it, so a hand that only has a sequence is refused
    (with its own rule where the rule set has sequences).
    """
    if rules.pile_taken_freely:
        return Answer(
            True,
            "taken_freely",
            T(
                "In %(rules)s the whole pile may be taken at any turn, whatever lies on top: "
                "no pair or meld of its top card is needed.",
                rules=T(rules.name),
            ),
        )
    if rules.max_meld is None:
        full_melds = ()  # classic canastas never close: a card can always be added
    frozen = frozen or rules.pile_always_frozen
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
    if top.rank in full_melds and not rules.new_meld_beside_canasta:
        # Cuban: the canasta is closed, and a side has no second meld of a rank.
        return Answer(
            False,
            "meld_full",
            T(
                "The side's meld of rank %(rank)s is a closed canasta, and a side has one meld "
                "of each rank: the top card cannot be melded.",
                rank=rank,
            ),
        )
    sequence_only = rules.sequences and sequence_in_hand
    if frozen or not side_has_melded:
        if natural_matches >= 2:
            return Answer(True, "natural_pair", _frozen_pair_reason(rules, rank, side_has_melded))
        if sequence_only:
            return _no_sequence_from_pile(rank)
        return Answer(
            False,
            "needs_natural_pair",
            T(
                "In %(rules)s the pile is always frozen: it is taken only with a natural pair "
                "of rank %(rank)s from the hand.",
                rules=T(rules.name),
                rank=rank,
            )
            if rules.pile_always_frozen
            else T(
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
            True, "natural_pair", T("A natural pair of rank %(rank)s takes it.", rank=rank)
        )
    if top.rank in side_melds and top.rank not in full_melds:
        return Answer(
            True,
            "adds_to_meld",
            T("The card goes onto the side's meld of rank %(rank)s.", rank=rank),
        )
    if natural_matches >= 1 and wild_cards >= 1:
        return Answer(
            True,
            "natural_and_wild",
            T("One natural card of rank %(rank)s and a wild card take it.", rank=rank),
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
    if sequence_only:
        return _no_sequence_from_pile(rank)
    return Answer(
        False,
        "no_match",
        T(
            "Taking the pile needs a natural pair of rank %(rank)s, one natural card of that rank "
            "and a wild card, or a meld of that rank to add it to.",
            rank=rank,
        ),
    )


def _frozen_pair_reason(rules: RuleSet, rank: str, side_has_melded: bool) -> Text:
    if not side_has_melded:
        return T(
            "The pile is frozen for a side that has not melded, and a natural "
            "pair of rank %(rank)s takes it. The meld must also reach the side's "
            "minimum.",
            rank=rank,
        )
    if rules.pile_always_frozen:
        return T(
            "In %(rules)s the pile is always frozen, and a natural pair of rank %(rank)s takes it.",
            rules=T(rules.name),
            rank=rank,
        )
    return T(
        "The pile is frozen, and a natural pair of rank %(rank)s takes it.",
        rank=rank,
    )


def _no_sequence_from_pile(rank: str) -> Answer:
    return Answer(
        False,
        "sequence_from_pile",
        T(
            "The top card of the pile never starts a sequence: it is taken with cards of rank "
            "%(rank)s only.",
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
    blocked: Collection[str] = (),
) -> GoingOutVerdict:
    """May the player go out? ``canastas`` are the side's canastas by kind once this turn's
    melds are down; ``cards_left`` the cards still in hand (at most the one to discard);
    ``melded_before`` whether the player had melded in an earlier turn (if not, going out
    is concealed); ``blocked`` the figures of ``rules.going_out_blocked_by`` that hold for
    the side (an unfinished meld of aces, the pot not taken: RULES.md 13 and 15)."""

    def no(rule: str, reason: Text) -> GoingOutVerdict:
        return GoingOutVerdict(False, False, rule, reason)

    missing = rules.kinds_missing_to_go_out(canastas)
    if missing is not None:
        return no("out_needs_kinds", missing)
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
    for figure in rules.going_out_blocked_by:
        if figure in blocked:
            return no(
                "out_blocked",
                T(
                    "A side cannot go out with this: %(figure)s.",
                    figure=T(figure_name(rules, figure)),
                ),
            )
    if cards_left > 1:
        return no(
            "cards_left",
            T("Going out means melding every card but at most one, which is discarded."),
        )
    if rules.going_out_discards:
        # Railroad (S): the last card is discarded, and it may not be a seven.
        if cards_left == 0 or last_discard is None:
            return no("must_discard", T("The last card is discarded: keep one card to discard."))
        if last_discard.rank is Rank.SEVEN and CanastaKind.SEVENS in rules.canasta_bonuses:
            return no("seven_discard", T("The last discard may not be a seven."))
    concealed = not melded_before and rules.concealed_going_out_bonus is not None
    if concealed:
        reason = T(
            "The whole hand goes down in one turn (%(bonus)s for going out).",
            bonus=rules.concealed_going_out_total,
        )
    elif not melded_before:
        reason = T(
            "%(bonus)s for going out; %(rules)s has no concealed bonus.",
            bonus=rules.going_out_bonus,
            rules=T(rules.name),
        )
    else:
        reason = T("%(bonus)s for going out.", bonus=rules.going_out_bonus)
    return GoingOutVerdict(True, concealed, "may_go_out", reason)
