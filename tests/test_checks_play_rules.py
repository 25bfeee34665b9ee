"""The rules checks of the rules engine: taking the discard pile, going out, and the
properties every check keeps (RULES.md sections 1, 2, 5 and 8; API.md "Rules checks").

Every expected number is worked out by hand from RULES.md; the comment next to it shows
the arithmetic.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import (
    CLASSIC,
    VARIANTS,
    CanastaKind,
    Card,
    CardError,
    Rank,
    RuleSet,
    Suit,
    apply_options,
    card_points,
    check_going_out,
    check_initial_meld,
    check_meld,
    check_pickup,
    parse_card,
    parse_cards,
)

from .helpers.card_checks import NATURAL_RANKS, RAILROAD, SETTINGS, cards, is_sentence

# --------------------------------------------------------------------------- pickup


def pickup(
    rules: RuleSet = CLASSIC,
    *,
    top: str = "K",
    frozen: bool = False,
    melded: bool = True,
    naturals: int = 0,
    wilds: int = 0,
    side_melds: str = "",
    full_melds: str = "",
    hand: int = 5,
    pile: int = 5,
) -> tuple[bool, str, str]:
    """check_pickup with short names; returns (allowed, rule, reason)."""
    answer = check_pickup(
        rules,
        top=parse_card(top),
        frozen=frozen,
        side_has_melded=melded,
        natural_matches=naturals,
        wild_cards=wilds,
        side_melds=[c.rank for c in cards(side_melds)],
        full_melds=[c.rank for c in cards(full_melds)],
        cards_in_hand=hand,
        pile_size=pile,
    )
    return answer.allowed, answer.rule, str(answer.reason)


@pytest.mark.parametrize("top", ["2", "JK", "2H"])
def test_never_with_a_wild_card_on_top(top: str) -> None:
    """Even with a natural pair and an unfrozen pile."""
    allowed, rule, reason = pickup(top=top, naturals=2, wilds=1, side_melds="K")
    assert not allowed
    assert rule == "wild_on_top"
    assert is_sentence(reason)


@pytest.mark.parametrize("top", ["3H", "3D"])
def test_never_with_a_red_three_on_top(top: str) -> None:
    """A three on top: never taken."""
    allowed, rule, reason = pickup(top=top, naturals=2)
    assert not allowed
    assert rule == "three_on_top"
    assert is_sentence(reason)


@pytest.mark.parametrize("top", ["3S", "3C"])
def test_a_black_three_on_top_blocks(top: str) -> None:
    """A black three blocks the next player (P); with black_three_freezes it is still
    refused (a three on top is never taken)."""
    allowed, rule, _ = pickup(top=top, naturals=2)
    assert (allowed, rule) == (False, "black_three_on_top")
    freezes = apply_options(CLASSIC, {"black_three_freezes": True})
    allowed, rule, _ = pickup(freezes, top=top, naturals=2)
    assert not allowed
    assert rule in ("three_on_top", "black_three_on_top")


@pytest.mark.parametrize(
    ("frozen", "melded", "naturals", "wilds", "side_melds", "allowed", "rule"),
    [
        # Frozen pile: only a natural pair matching the top card.
        (True, True, 2, 0, "", True, "natural_pair"),
        (True, True, 3, 1, "K", True, "natural_pair"),
        (True, True, 1, 1, "", False, "needs_natural_pair"),
        (True, True, 1, 2, "K", False, "needs_natural_pair"),
        (True, True, 0, 0, "K", False, "needs_natural_pair"),  # no adding to a meld
        (True, True, 0, 3, "K", False, "needs_natural_pair"),
        # Not frozen, but the side has not melded: frozen for it.
        (False, False, 2, 0, "", True, "natural_pair"),
        (False, False, 1, 1, "", False, "needs_natural_pair"),
        (False, False, 0, 2, "", False, "needs_natural_pair"),
        # Unfrozen and melded: a pair, one natural and a wild, or onto the side's meld.
        (False, True, 2, 0, "", True, "natural_pair"),
        (False, True, 1, 1, "", True, "natural_and_wild"),
        (False, True, 0, 0, "K", True, "adds_to_meld"),
        (False, True, 0, 0, "Q A K", True, "adds_to_meld"),
        (False, True, 0, 2, "", False, "no_match"),  # two wilds and no natural
        (False, True, 1, 0, "", False, "no_match"),
        (False, True, 0, 0, "Q", False, "no_match"),  # the meld is of another rank
    ],
)
def test_pickup_frozen_and_unfrozen(
    frozen: bool,
    melded: bool,
    naturals: int,
    wilds: int,
    side_melds: str,
    allowed: bool,
    rule: str,
) -> None:
    """RULES.md section 2: what takes a frozen and an unfrozen pile (top card K)."""
    answer = pickup(
        frozen=frozen, melded=melded, naturals=naturals, wilds=wilds, side_melds=side_melds
    )
    assert answer[:2] == (allowed, rule)
    assert is_sentence(answer[2])


def test_one_card_in_hand_may_not_take_a_pile_of_one() -> None:
    """A player holding one card may not take a pile of one card (M, B, BR)."""
    assert pickup(side_melds="K", hand=1, pile=1)[:2] == (False, "one_card_pile")
    assert pickup(side_melds="K", hand=1, pile=2)[:2] == (True, "adds_to_meld")
    assert pickup(naturals=2, hand=2, pile=1)[:2] == (True, "natural_pair")


def test_railroad_closed_canasta_takes_no_more_cards() -> None:
    """A closed Railroad canasta of kings takes no top K; a natural pair (a new meld) or a
    natural and a wild card still do."""
    allowed, rule, reason = pickup(RAILROAD, side_melds="K", full_melds="K")
    assert (allowed, rule) == (False, "meld_full")
    assert is_sentence(reason)
    assert pickup(RAILROAD, side_melds="K", full_melds="K", naturals=2)[:2] == (
        True,
        "natural_pair",
    )
    assert pickup(RAILROAD, side_melds="K", full_melds="K", naturals=1, wilds=1)[:2] == (
        True,
        "natural_and_wild",
    )
    # An unfinished Railroad meld still takes the card.
    assert pickup(RAILROAD, side_melds="K")[:2] == (True, "adds_to_meld")


# --------------------------------------------------------------------------- going out


def going_out(
    rules: RuleSet = CLASSIC,
    *,
    canastas: dict[CanastaKind, int] | None = None,
    cards_left: int = 1,
    last_discard: str | None = "K",
    melded_before: bool = True,
) -> tuple[bool, bool, str, str]:
    """check_going_out with short names; returns (allowed, concealed, rule, reason)."""
    verdict = check_going_out(
        rules,
        canastas=canastas or {},
        cards_left=cards_left,
        last_discard=None if last_discard is None else parse_card(last_discard),
        melded_before=melded_before,
    )
    return verdict.allowed, verdict.concealed, verdict.rule, str(verdict.reason)


NAT = CanastaKind.NATURAL
MIX = CanastaKind.MIXED
WILD = CanastaKind.WILD
SEVENS = CanastaKind.SEVENS
ALL_FOUR = {NAT: 1, MIX: 1, WILD: 1, SEVENS: 1}


@pytest.mark.parametrize(
    ("variant", "canastas", "allowed"),
    [
        ("classic", {}, False),
        ("classic", {NAT: 0, MIX: 0}, False),
        ("classic", {NAT: 1}, True),
        ("classic", {MIX: 1}, True),
        ("classic-3", {MIX: 1}, True),
        ("classic-2", {NAT: 1}, False),
        ("classic-2", {MIX: 1}, False),
        ("classic-2", {NAT: 1, MIX: 1}, True),
        ("classic-2", {MIX: 2}, True),
        ("classic-6", {NAT: 1}, False),
        ("classic-6", {NAT: 2}, True),
        ("classic-6x3", {MIX: 1}, False),
        ("classic-6x3", {NAT: 1, MIX: 1}, True),
    ],
)
def test_classic_canastas_to_go_out(
    variant: str, canastas: dict[CanastaKind, int], allowed: bool
) -> None:
    """RULES.md sections 2 and 3: 1 canasta (classic, classic-3), 2 (classic-2, -6, -6x3)."""
    result = going_out(VARIANTS[variant], canastas=canastas)
    assert result[0] is allowed
    assert result[2] == ("may_go_out" if allowed else "out_needs_canastas")
    assert is_sentence(result[3])


@pytest.mark.parametrize("cards_left", [0, 1])
def test_classic_goes_out_with_at_most_one_card(cards_left: int) -> None:
    """Everything melded, with or without a last discard."""
    assert going_out(canastas={NAT: 1}, cards_left=cards_left)[:3] == (True, False, "may_go_out")


@pytest.mark.parametrize("cards_left", [2, 5])
def test_more_than_one_card_left_is_refused(cards_left: int) -> None:
    """Going out melds every card but at most the one discarded."""
    result = going_out(canastas={NAT: 1}, cards_left=cards_left)
    assert result[:3] == (False, False, "cards_left")
    assert going_out(RAILROAD, canastas=ALL_FOUR, cards_left=cards_left)[:3] == (
        False,
        False,
        "cards_left",
    )


def test_classic_concealed_when_the_player_had_not_melded() -> None:
    """Going out without an earlier meld is concealed (200 in all)."""
    allowed, concealed, rule, reason = going_out(canastas={NAT: 1}, melded_before=False)
    assert (allowed, concealed, rule) == (True, True, "may_go_out")
    assert is_sentence(reason)
    assert going_out(canastas={NAT: 1}, melded_before=True)[1] is False
    # Not allowed at all: not concealed either.
    assert going_out(canastas={}, melded_before=False)[:2] == (False, False)


def test_railroad_has_no_concealed_going_out() -> None:
    """RULES.md section 5: no concealed bonus, so never concealed."""
    allowed, concealed, rule, reason = going_out(RAILROAD, canastas=ALL_FOUR, melded_before=False)
    assert (allowed, concealed, rule) == (True, False, "may_go_out")
    assert is_sentence(reason)


@pytest.mark.parametrize(
    "canastas",
    [
        {},
        {NAT: 3, MIX: 2},
        {NAT: 1, MIX: 1, WILD: 1},
        {NAT: 1, MIX: 1, SEVENS: 1},
        {MIX: 1, WILD: 1, SEVENS: 1},
        {NAT: 1, WILD: 1, SEVENS: 1},
        {NAT: 0, MIX: 1, WILD: 1, SEVENS: 1},
    ],
)
def test_railroad_needs_one_canasta_of_each_kind(canastas: dict[CanastaKind, int]) -> None:
    """Section 5: natural, mixed, wild and sevens, one of each."""
    allowed, _, rule, reason = going_out(RAILROAD, canastas=canastas)
    assert (allowed, rule) == (False, "out_needs_kinds")
    assert is_sentence(reason)


def test_railroad_going_out_needs_a_discard_that_is_not_a_seven() -> None:
    """Section 5: the last card is discarded and may not be a seven."""
    assert going_out(RAILROAD, canastas=ALL_FOUR, last_discard="K")[:3] == (
        True,
        False,
        "may_go_out",
    )
    assert going_out(RAILROAD, canastas={NAT: 2, MIX: 1, WILD: 1, SEVENS: 2})[0]
    assert going_out(RAILROAD, canastas=ALL_FOUR, last_discard="7")[2] == "seven_discard"
    assert going_out(RAILROAD, canastas=ALL_FOUR, last_discard="7H")[0] is False
    assert going_out(RAILROAD, canastas=ALL_FOUR, cards_left=0, last_discard=None)[:3] == (
        False,
        False,
        "must_discard",
    )
    assert going_out(RAILROAD, canastas=ALL_FOUR, cards_left=1, last_discard=None)[2] == (
        "must_discard"
    )


def test_classic_may_discard_a_seven_last() -> None:
    """The seven rule is Railroad's only."""
    assert going_out(canastas={NAT: 1}, last_discard="7")[0]


# --------------------------------------------------------------------------- properties


@st.composite
def natural_melds(draw: st.DrawFn, *, most: int) -> tuple[Card, ...]:
    """A legal meld of one natural rank: n naturals and w wilds with n >= 2, w <= 3,
    w <= n and 3 <= n + w <= ``most`` (``most`` at least 3)."""
    rank = draw(st.sampled_from(NATURAL_RANKS))
    naturals = draw(st.integers(2, most))
    # At least 3 cards; wild cards at most 3 and never more than the naturals.
    wilds = draw(st.integers(max(0, 3 - naturals), min(3, naturals, most - naturals)))
    suits = st.one_of(st.none(), st.sampled_from(list(Suit)))
    group = [Card(rank, draw(suits)) for _ in range(naturals)]
    group += [Card(draw(st.sampled_from([Rank.TWO, Rank.JOKER]))) for _ in range(wilds)]
    return tuple(group)


@st.composite
def any_cards(draw: st.DrawFn, *, max_size: int = 12) -> tuple[Card, ...]:
    """Any cards as the parser makes them (threes always with a suit, jokers without)."""

    def one(rank: Rank) -> st.SearchStrategy[Card]:
        if rank is Rank.JOKER:
            return st.just(Card(rank))
        if rank is Rank.THREE:
            return st.sampled_from(list(Suit)).map(lambda suit: Card(rank, suit))
        return st.one_of(st.none(), st.sampled_from(list(Suit))).map(lambda suit: Card(rank, suit))

    return tuple(draw(st.lists(st.sampled_from(list(Rank)).flatmap(one), max_size=max_size)))


EXPECTED_POINTS = {
    Rank.JOKER: 50,
    Rank.TWO: 20,
    Rank.ACE: 20,
    Rank.KING: 10,
    Rank.QUEEN: 10,
    Rank.JACK: 10,
    Rank.TEN: 10,
    Rank.NINE: 10,
    Rank.EIGHT: 10,
    Rank.SEVEN: 5,
    Rank.SIX: 5,
    Rank.FIVE: 5,
    Rank.FOUR: 5,
}


#: Burraco's card values (RULES.md section 15): its threes are cards like any other.
BURRACO_POINTS = {
    **EXPECTED_POINTS,
    Rank.JOKER: 30,
    Rank.ACE: 15,
    Rank.THREE: 5,
}


def hand_value(group: tuple[Card, ...], variant: str = "classic") -> int:
    """RULES.md section 1, independently of cards.py: black three 5, red three 0; Burraco
    by its own values (section 15)."""
    if variant.startswith("burraco"):
        return sum(BURRACO_POINTS[card.rank] for card in group)
    total = 0
    for card in group:
        if card.rank is Rank.THREE:
            total += 0 if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else 5
        else:
            total += EXPECTED_POINTS[card.rank]
    return total


@SETTINGS
@given(meld=natural_melds(most=12), variant=st.sampled_from(["classic", "classic-2", "classic-6"]))
def test_classic_natural_meld_stays_legal_with_another_natural(
    meld: tuple[Card, ...], variant: str
) -> None:
    """Classic has no size limit: one more natural card of the rank keeps a meld legal."""
    rules = VARIANTS[variant]
    first = check_meld(meld, rules)
    assert first.legal, first.reason
    grown = check_meld((*meld, Card(meld[0].rank)), rules)
    assert grown.legal, grown.reason
    assert grown.points == first.points + EXPECTED_POINTS[meld[0].rank]
    assert grown.naturals == first.naturals + 1


@SETTINGS
@given(meld=natural_melds(most=6))
def test_railroad_natural_meld_stays_legal_up_to_seven(meld: tuple[Card, ...]) -> None:
    """Railroad: legal up to 7 cards; the 8th card is refused (meld_full)."""
    assert check_meld(meld, RAILROAD).legal
    grown = (*meld, Card(meld[0].rank))
    while len(grown) <= 7:
        verdict = check_meld(grown, RAILROAD)
        assert verdict.legal, verdict.reason
        assert (verdict.canasta is not None) is (len(grown) == 7)
        grown = (*grown, Card(meld[0].rank))
    assert check_meld(grown, RAILROAD).rule == "meld_full"


@SETTINGS
@given(group=any_cards(), going_out=st.booleans(), variant=st.sampled_from(sorted(VARIANTS)))
def test_points_are_the_sum_of_card_values(
    group: tuple[Card, ...], going_out: bool, variant: str
) -> None:
    """Legal or not, a meld's points are its cards' values under the rule set (RULES.md
    sections 1 and 15)."""
    verdict = check_meld(group, VARIANTS[variant], going_out=going_out)
    assert verdict.points == hand_value(group, variant)
    if not variant.startswith("burraco"):
        assert verdict.points == card_points(group)
    assert verdict.points % 5 == 0


@SETTINGS
@given(
    group=any_cards(max_size=9),
    going_out=st.booleans(),
    variant=st.sampled_from(["classic", "railroad"]),
    data=st.data(),
)
def test_legality_does_not_depend_on_order(
    group: tuple[Card, ...], going_out: bool, variant: str, data: st.DataObject
) -> None:
    """Shuffling the cards changes neither the verdict nor the figures."""
    rules = VARIANTS[variant]
    shuffled = tuple(data.draw(st.permutations(group)))
    first = check_meld(group, rules, going_out=going_out)
    second = check_meld(shuffled, rules, going_out=going_out)
    assert (first.legal, first.rule, first.rank, first.canasta) == (
        second.legal,
        second.rule,
        second.rank,
        second.canasta,
    )
    assert (first.naturals, first.wilds, first.points) == (
        second.naturals,
        second.wilds,
        second.points,
    )


@SETTINGS
@given(meld=natural_melds(most=7), data=st.data())
def test_legal_natural_melds_stay_legal_shuffled(
    meld: tuple[Card, ...], data: st.DataObject
) -> None:
    """Legal melds (the interesting case for order) stay legal in any order."""
    shuffled = tuple(data.draw(st.permutations(meld)))
    for rules in (CLASSIC, RAILROAD):
        assert check_meld(meld, rules).legal
        assert check_meld(shuffled, rules).legal


@SETTINGS
@given(group=any_cards(max_size=20), separator=st.sampled_from([" ", ",", ", ", "  ,"]))
def test_notation_round_trips(group: tuple[Card, ...], separator: str) -> None:
    """parse_cards of the cards written back out gives the same cards; a wild card's suit
    is not written (it means nothing), so it comes back without one."""
    text = separator.join(str(card) for card in group)
    expected = tuple(Card(c.rank) if c.wild else c for c in group)
    assert parse_cards(text) == expected
    assert parse_cards(text.lower()) == expected


@SETTINGS
@given(group=any_cards(max_size=20))
def test_notation_round_trips_without_suits(group: tuple[Card, ...]) -> None:
    """Wild cards generated without a suit round-trip exactly."""
    plain = tuple(Card(c.rank) if c.wild else c for c in group)
    assert parse_cards(" ".join(str(card) for card in plain)) == plain


def test_classic_canastas_never_close_for_the_pile() -> None:
    """RULES.md 2: the top card may go onto the side's meld, canasta or not (classic)."""
    answer = check_pickup(
        CLASSIC,
        top=parse_card("K"),
        frozen=False,
        side_has_melded=True,
        natural_matches=0,
        wild_cards=0,
        side_melds=[Rank.KING],
        full_melds=[Rank.KING],
        cards_in_hand=5,
        pile_size=5,
    )
    assert answer.allowed and answer.rule == "adds_to_meld"


def test_railroad_one_unfinished_wild_meld() -> None:
    """RULES.md 5: never two unfinished melds of one rank; wild melds included."""
    verdict = check_initial_meld([cards("2 2 2"), cards("JK JK JK")], RAILROAD, total=0)
    assert not verdict.meets


def test_at_most_60_cards_are_read_at_a_time() -> None:
    """Sixty cards (more than any hand or meld) are read; a sixty-first is refused."""
    assert len(parse_cards(" ".join(["K"] * 60))) == 60
    with pytest.raises(CardError) as error:
        parse_cards(" ".join(["K"] * 61))
    assert "60" in str(error.value)
