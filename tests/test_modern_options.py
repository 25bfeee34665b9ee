"""The new tables' house rules at their bounds, and shared as a link (issue 42): the
number of deals, the target a game without deals keeps, special hands' values, minimums by
deal read with the number of deals as it stands, and card values that restate the book's."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from scorekeeper.rules import (
    VARIANTS,
    CanastaKind,
    OptionError,
    Rank,
    apply_options,
    encode_option,
    read_share_query,
)
from scorekeeper.rules.cards import POINTS
from scorekeeper.rules.limits import MAX_DEALS

CLASSIC = VARIANTS["classic"]
AMERICAN = VARIANTS["american"]
HAND_AND_FOOT = VARIANTS["hand-and-foot"]
BURRACO = VARIANTS["burraco"]


def test_option_bounds() -> None:
    with pytest.raises(OptionError):
        apply_options(AMERICAN, {"meld_minimums_by_deal": [125] * 101})
    assert apply_options(AMERICAN, {"meld_minimums_by_deal": [125] * 100}).deals == 100
    dropped = apply_options(HAND_AND_FOOT, {"contract": {"natural": 0, "mixed": 2}})
    assert dict(dropped.contract) == {CanastaKind.MIXED: 2}
    with pytest.raises(OptionError):
        apply_options(HAND_AND_FOOT, {"contract": {"natural": -1}})
    with pytest.raises(OptionError):
        apply_options(HAND_AND_FOOT, {"contract": {"natural": 11}})
    assert apply_options(HAND_AND_FOOT, {"contract": {"natural": 10}}).contract


@pytest.mark.parametrize(("deals", "allowed"), [(0, False), (1, True), (MAX_DEALS, True),
                                                (MAX_DEALS + 1, False)])  # fmt: skip
def test_a_game_of_one_deal_up_to_the_most(deals: int, allowed: bool) -> None:
    if allowed:
        assert apply_options(HAND_AND_FOOT, {"deals": deals}).deals == deals
    else:
        with pytest.raises(OptionError, match="from 1 to"):
            apply_options(HAND_AND_FOOT, {"deals": deals})


def test_the_least_target_is_five_points() -> None:
    assert apply_options(BURRACO, {"target": 5}).target == 5
    with pytest.raises(OptionError):
        apply_options(BURRACO, {"target": 0})


def test_a_table_may_count_a_special_hand_as_nothing() -> None:
    rules = apply_options(AMERICAN, {"special_hands": {"garbage": 0, "straight": 3000}})
    assert dict(rules.special_hands) == {"garbage": 0, "straight": 3000}
    with pytest.raises(OptionError):
        apply_options(AMERICAN, {"special_hands": {"garbage": -5}})


def test_a_shared_link_with_no_target_waits_for_its_number_of_deals() -> None:
    """ "No target" needs a number of deals: read first in the link, it is tried again once
    the deals are in."""
    shared = read_share_query({"target": encode_option(None), "deals": "6"}, CLASSIC)
    assert shared.refused == ()
    assert (shared.rules.target, shared.rules.deals) == (None, 6)


def test_a_shared_link_s_minimums_by_deal_keep_the_tables_own_number_of_deals() -> None:
    """A timed tournament's minimums on a classic table: the game still goes to its target,
    not to the end of the list; Hand and Foot keeps its four rounds."""
    minimums = encode_option([125, 155, 180])
    classic = read_share_query({"meld_minimums_by_deal": minimums}, CLASSIC).rules
    assert (classic.target, classic.deals) == (CLASSIC.target, None)
    assert classic.meld_minimum(4000, 2) == 155
    hand_and_foot = read_share_query({"meld_minimums_by_deal": minimums}, HAND_AND_FOOT).rules
    assert hand_and_foot.deals == 4


@pytest.mark.parametrize("variant", [name for name, v in VARIANTS.items() if not v.card_values])
def test_card_values_that_restate_the_books_count_the_same_pack(variant: str) -> None:
    """Card values given per rule set count every card as the book does, the red threes
    (bonus cards, not points) still left out."""
    rules = VARIANTS[variant]
    restated = replace(rules, card_values=MappingProxyType({Rank.JOKER: POINTS[Rank.JOKER]}))
    assert restated.max_card_points == rules.max_card_points


@pytest.mark.parametrize(
    ("contract", "canastas", "said"),
    [
        # A house contract of one clean and one dirty book asks both, not either.
        ({"natural": 1, "mixed": 1}, {}, "the contract: 1 × clean book, 1 × dirty book."),
        ({"natural": 1, "mixed": 1}, {"natural": 1}, "the contract: 1 × clean book, 1 × dirty"),
        ({"mixed": 1}, {}, "one dirty book."),
        (
            {"natural": 1, "mixed": 1, "wild": 1},
            {"natural": 1},
            "of each kind; missing: dirty book, wild book.",
        ),
    ],
)
def test_a_house_contract_says_what_going_out_needs(
    contract: dict[str, int], canastas: dict[str, int], said: str
) -> None:
    rules = apply_options(HAND_AND_FOOT, {"contract": contract})
    held = {CanastaKind(kind): count for kind, count in canastas.items()}
    why = rules.kinds_missing_to_go_out(held)
    assert why is not None
    assert why.render().startswith("Going out needs ")
    assert said in why.render()
