"""The rules checks of the rules engine: card notation, melds and initial melds (RULES.md
sections 1, 2, 5 and 8; API.md "Rules checks"). Taking the pile, going out and the
properties of every check: tests/test_checks_play_rules.py.

Every expected number is worked out by hand from RULES.md; the comment next to it shows
the arithmetic.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
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
    check_initial_meld,
    check_meld,
    parse_card,
    parse_cards,
)
from scorekeeper.rules.cards import CARD_PATTERN, DRAWN_CARD_PATTERN
from scorekeeper.rules.draw import draw_card

from .helpers.card_checks import RAILROAD, SETTINGS, cards, is_sentence

# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "9 9 9 2 2 JK",
            [Card(Rank.NINE)] * 3 + [Card(Rank.TWO)] * 2 + [Card(Rank.JOKER)],
        ),
        (
            "10h,Td ,9S",
            [
                Card(Rank.TEN, Suit.HEARTS),
                Card(Rank.TEN, Suit.DIAMONDS),
                Card(Rank.NINE, Suit.SPADES),
            ],
        ),
        ("3H 3d", [Card(Rank.THREE, Suit.HEARTS), Card(Rank.THREE, Suit.DIAMONDS)]),
        ("3s,3C", [Card(Rank.THREE, Suit.SPADES), Card(Rank.THREE, Suit.CLUBS)]),
        (
            "A♠ K♥ Q♦ J♣",
            [
                Card(Rank.ACE, Suit.SPADES),
                Card(Rank.KING, Suit.HEARTS),
                Card(Rank.QUEEN, Suit.DIAMONDS),
                Card(Rank.JACK, Suit.CLUBS),
            ],
        ),
        ("3♥ 3♠", [Card(Rank.THREE, Suit.HEARTS), Card(Rank.THREE, Suit.SPADES)]),
        (
            "10♦ 3♣ 2♥",
            [
                Card(Rank.TEN, Suit.DIAMONDS),
                Card(Rank.THREE, Suit.CLUBS),
                Card(Rank.TWO, Suit.HEARTS),
            ],
        ),
        (
            "a k q j 10 9 8 7 6 5 4 2",
            [Card(r) for r in Rank if r not in (Rank.JOKER, Rank.THREE)][::-1],
        ),
        ("jk Jk JK", [Card(Rank.JOKER)] * 3),
        ("t T 10", [Card(Rank.TEN)] * 3),
        ("  K ,, K  ", [Card(Rank.KING)] * 2),
        ("", []),
        ("   ", []),
    ],
)
def test_parse_cards_reads_the_documented_notation(text: str, expected: list[Card]) -> None:
    """Rank, optional suit letter or symbol after it, JK, spaces or commas, any case."""
    assert list(parse_cards(text)) == expected


def test_parse_cards_reads_a_list_of_single_cards() -> None:
    """A list of tokens is read card by card."""
    assert parse_cards(["K", "2", "JK"]) == (Card(Rank.KING), Card(Rank.TWO), Card(Rank.JOKER))
    assert parse_cards([]) == ()


@pytest.mark.parametrize("token", ["Z", "11", "1", "3", "0", "KK", "JKH", "S", "♠", "3X"])
def test_parse_card_refuses_what_is_not_a_card(token: str) -> None:
    """No such rank, or a three without its suit: a CardError with a message."""
    with pytest.raises(CardError) as error:
        parse_card(token)
    assert error.value.message
    assert str(error.value) == error.value.message


def test_a_three_without_suit_says_it_needs_the_suit() -> None:
    """API.md: a three needs its suit; the message says so."""
    with pytest.raises(CardError) as error:
        parse_cards("K K 3")
    assert "suit" in error.value.message.lower()


#: Every character of the notation, in both cases: tokens made of these are cards or not
#: by the notation alone (``str.upper`` folds nothing else into them).
NOTATION = "".join(sorted(set("AKQJT10123456789SHDCJOKER♠♥♦♣♤♡♢♧" + "akqjtshdcoker")))


def _reads(read: object, token: str) -> bool:
    try:
        read(token)  # type: ignore[operator]
    except CardError:
        return False
    return True


@SETTINGS
@given(st.text(alphabet=NOTATION, max_size=6))
@example("joker")
@example("10h")
@example("3♥")
@example("3")
@example("JKS")
@example("")
def test_the_card_pattern_matches_what_parse_card_reads(token: str) -> None:
    """The API's document states the notation as a regular expression (CARD_PATTERN): a
    token matches it exactly when parse_card reads it, a three needing its suit."""
    assert bool(re.fullmatch(CARD_PATTERN, token)) == _reads(parse_card, token), token


@SETTINGS
@given(st.text(alphabet=NOTATION, max_size=6))
@example("jk")
@example("qs")
@example("Q")
@example("3c")
def test_the_drawn_card_pattern_matches_what_the_draw_reads(token: str) -> None:
    """A card drawn for seats needs its suit, a joker excepted (DRAWN_CARD_PATTERN)."""
    assert bool(re.fullmatch(DRAWN_CARD_PATTERN, token)) == _reads(draw_card, token), token


@pytest.mark.parametrize("text", ["9 9 Z", "10, 11", "1 2 3S", "K,3"])
def test_parse_cards_refuses_a_bad_card_among_good_ones(text: str) -> None:
    """One bad token spoils the whole hand."""
    with pytest.raises(CardError):
        parse_cards(text)


@pytest.mark.parametrize(
    ("token", "points"),
    [
        ("JK", 50),
        ("2", 20),
        ("2H", 20),
        ("A", 20),
        ("K", 10),
        ("Q", 10),
        ("J", 10),
        ("10", 10),
        ("T", 10),
        ("9", 10),
        ("8", 10),
        ("7", 5),
        ("6", 5),
        ("5", 5),
        ("4", 5),
        ("3S", 5),
        ("3C", 5),
        ("3H", 0),
        ("3D", 0),
    ],
)
def test_card_points(token: str, points: int) -> None:
    """RULES.md section 1: joker 50, two 20, ace 20, K-8 10, 7-4 5, black three 5, red 0."""
    assert parse_card(token).points == points


def test_card_points_add_up() -> None:
    """JK + 2 + A + K + 7 + 3S + 3H = 50 + 20 + 20 + 10 + 5 + 5 + 0 = 110."""
    assert card_points(cards("JK 2 A K 7 3S 3H")) == 110


def test_wild_and_natural_cards() -> None:
    """Jokers and twos are wild; threes are neither wild nor natural."""
    assert Card(Rank.JOKER).wild and Card(Rank.TWO).wild
    assert Card(Rank.KING).natural and not Card(Rank.KING).wild
    assert not parse_card("3S").natural and not parse_card("3S").wild
    assert parse_card("3H").red_three and not parse_card("3H").black_three
    assert parse_card("3C").black_three and not parse_card("3C").red_three


# --------------------------------------------------------------------------- melds


def test_section_8_five_five_two_is_legal() -> None:
    """5-5-2: two naturals and one wild; 5 + 5 + 20 = 30 points."""
    verdict = check_meld(cards("5 5 2"), CLASSIC)
    assert verdict.legal
    assert verdict.rule == "legal"
    assert (verdict.rank, verdict.naturals, verdict.wilds, verdict.points) == ("5", 2, 1, 30)
    assert verdict.canasta is None
    assert is_sentence(verdict.reason)


def test_section_8_five_two_two_is_illegal() -> None:
    """5-2-2: one natural card only; 5 + 20 + 20 = 45 points."""
    verdict = check_meld(cards("5 2 2"), CLASSIC)
    assert not verdict.legal
    assert verdict.rule == "two_naturals"
    assert (verdict.naturals, verdict.wilds, verdict.points) == (1, 2, 45)
    assert verdict.canasta is None
    assert is_sentence(verdict.reason)
    assert "natural" in str(verdict.reason)


def test_section_8_nines_with_three_wilds_is_legal() -> None:
    """9-9-9-2-2-JK: 3 naturals, 3 wilds; 3 x 10 + 2 x 20 + 50 = 120."""
    verdict = check_meld(cards("9 9 9 2 2 JK"), CLASSIC)
    assert verdict.legal
    assert (verdict.rank, verdict.naturals, verdict.wilds, verdict.points) == ("9", 3, 3, 120)
    assert verdict.canasta is None
    assert is_sentence(verdict.reason)


def test_section_8_four_wilds_is_illegal() -> None:
    """9-9-2-2-2-JK: four wild cards; 2 x 10 + 3 x 20 + 50 = 130."""
    verdict = check_meld(cards("9 9 2 2 2 JK"), CLASSIC)
    assert not verdict.legal
    assert verdict.rule == "three_wilds"
    assert (verdict.naturals, verdict.wilds, verdict.points) == (2, 4, 130)
    assert is_sentence(verdict.reason)


def test_section_8_wilds_outnumbering_naturals() -> None:
    """5-5-2-2-2: illegal by default, legal with the option; 2 x 5 + 3 x 20 = 70."""
    default = check_meld(cards("5 5 2 2 2"), CLASSIC)
    assert not default.legal
    assert default.rule == "wilds_outnumber"
    assert default.points == 70
    assert is_sentence(default.reason)
    lenient = apply_options(CLASSIC, {"wilds_may_outnumber_naturals": True})
    allowed = check_meld(cards("5 5 2 2 2"), lenient)
    assert allowed.legal
    assert (allowed.rank, allowed.naturals, allowed.wilds, allowed.points) == ("5", 2, 3, 70)


def test_section_8_red_threes_are_never_melded() -> None:
    """3H-3D-3H: red threes are bonus cards, never melded, not even going out."""
    for going_out in (False, True):
        verdict = check_meld(cards("3H 3D 3H"), CLASSIC, going_out=going_out)
        assert not verdict.legal
        assert verdict.rule == "red_three"
        assert verdict.points == 0  # red threes have no card value
        assert is_sentence(verdict.reason)


@pytest.mark.parametrize(
    ("rules", "text", "going_out", "rule", "points"),
    [
        (CLASSIC, "", False, "too_few", 0),
        (CLASSIC, "K", False, "too_few", 10),
        (CLASSIC, "K K", False, "too_few", 20),  # 10 + 10
        (CLASSIC, "K 2", False, "too_few", 30),  # 10 + 20
        (CLASSIC, "K K Q", False, "one_rank", 30),  # 3 x 10
        (CLASSIC, "A A K K 2", False, "one_rank", 80),  # 20 + 20 + 10 + 10 + 20
        (CLASSIC, "2 2 JK", False, "two_naturals", 90),  # classic has no wild melds: 20+20+50
        (CLASSIC, "K 2 2 2", False, "two_naturals", 70),  # 10 + 3 x 20
        (CLASSIC, "K K K 2 2 2 2", False, "three_wilds", 110),  # 30 + 80
        (CLASSIC, "K K 3H", False, "red_three", 20),  # the red three counts 0
        (CLASSIC, "3S 3C 3S", False, "threes_only_going_out", 15),  # 3 x 5
        (CLASSIC, "3S 3C 2", True, "threes_with_wilds", 30),  # 5 + 5 + 20
        (CLASSIC, "3S 3C JK", True, "threes_with_wilds", 60),  # 5 + 5 + 50
        (CLASSIC, "3S K K", True, "one_rank", 25),  # 5 + 10 + 10
        (CLASSIC, "3S 3C", True, "black_three_count", 10),  # 2 x 5
        (CLASSIC, "3S 3C 3S 3C 3S", True, "black_three_count", 25),  # classic: 3 or 4, 5 x 5
        (RAILROAD, "3S 3C", True, "black_three_count", 10),
        (RAILROAD, "3S 3C 3S", False, "threes_only_going_out", 15),
        (RAILROAD, "3S 3C 3S JK", True, "threes_with_wilds", 65),  # 15 + 50
        (RAILROAD, "K K K 2 2 2 2", False, "three_wilds", 110),  # 30 + 80, 7 cards
        (RAILROAD, "K 2 2", False, "two_naturals", 50),  # 10 + 40
        (RAILROAD, "K K Q Q", False, "one_rank", 40),
        (RAILROAD, "K K K K K K K K", False, "meld_full", 80),  # 8 x 10, over 7
        (RAILROAD, "K K K K K K 2 2", False, "meld_full", 100),  # 60 + 40
        (RAILROAD, "2 2 2 2 JK JK JK JK", False, "meld_full", 280),  # 80 + 200
    ],
)
def test_illegal_melds(rules: RuleSet, text: str, going_out: bool, rule: str, points: int) -> None:
    """Each refusal names its rule, counts its cards and explains itself in a sentence."""
    verdict = check_meld(cards(text), rules, going_out=going_out)
    assert not verdict.legal
    assert verdict.rule == rule
    assert verdict.points == points
    assert verdict.canasta is None
    assert is_sentence(verdict.reason)


@pytest.mark.parametrize(
    ("rules", "text", "going_out", "rank", "naturals", "wilds", "points", "canasta"),
    [
        (CLASSIC, "K K K", False, "K", 3, 0, 30, None),  # 3 x 10
        (CLASSIC, "A A JK", False, "A", 2, 1, 90, None),  # 20 + 20 + 50
        (CLASSIC, "4H 4S 4 2", False, "4", 3, 1, 35, None),  # 15 + 20
        (CLASSIC, "10 T 10h", False, "10", 3, 0, 30, None),
        (CLASSIC, "7 7 7 2 2 2", False, "7", 3, 3, 75, None),  # 15 + 60
        (CLASSIC, "3S 3C 3S", True, "3", 0, 0, 15, None),  # 3 x 5, going out
        (CLASSIC, "3S 3C 3S 3C", True, "3", 0, 0, 20, None),  # 4 x 5, going out
        (CLASSIC, "K K K K K K K", False, "K", 7, 0, 70, CanastaKind.NATURAL),  # 7 x 10
        (CLASSIC, "K K K K K K K K", False, "K", 8, 0, 80, CanastaKind.NATURAL),  # no limit
        (CLASSIC, "7 7 7 7 7 7 7", False, "7", 7, 0, 35, CanastaKind.NATURAL),  # 7 x 5
        (CLASSIC, "K K K K K 2 JK", False, "K", 5, 2, 120, CanastaKind.MIXED),  # 50 + 20 + 50
        (CLASSIC, "4 4 4 4 2 2 2", False, "4", 4, 3, 80, CanastaKind.MIXED),  # 20 + 60
        (RAILROAD, "K K K K K K K", False, "K", 7, 0, 70, CanastaKind.NATURAL),
        (RAILROAD, "7 7 7 7 7 7 7", False, "7", 7, 0, 35, CanastaKind.SEVENS),  # 7 x 5
        (RAILROAD, "K K K K K 2 JK", False, "K", 5, 2, 120, CanastaKind.MIXED),
        (RAILROAD, "Q Q Q Q 2 2 2", False, "Q", 4, 3, 100, CanastaKind.MIXED),  # 40 + 60
        (RAILROAD, "2 2 2 2 JK JK JK", False, "wild", 0, 7, 230, CanastaKind.WILD),  # 80 + 150
        (RAILROAD, "2 2 2 2 2 2 2", False, "wild", 0, 7, 140, CanastaKind.WILD),  # 7 x 20
        (RAILROAD, "2 2 JK", False, "wild", 0, 3, 90, None),  # a wild meld, not yet a canasta
        (RAILROAD, "2 2 2 JK JK JK", False, "wild", 0, 6, 210, None),  # 60 + 150
        (RAILROAD, "A A A A A A", False, "A", 6, 0, 120, None),  # 6 x 20
        (RAILROAD, "3S 3C 3S 3C 3S", True, "3", 0, 0, 25, None),  # any number going out
        (RAILROAD, "3S 3C 3S 3C 3S 3C 3S 3C 3S", True, "3", 0, 0, 45, None),  # > 7, no bonus
    ],
)
def test_legal_melds(
    rules: RuleSet,
    text: str,
    going_out: bool,
    rank: str,
    naturals: int,
    wilds: int,
    points: int,
    canasta: CanastaKind | None,
) -> None:
    """Legal melds: rank, counts, card points and canasta kind."""
    verdict = check_meld(cards(text), rules, going_out=going_out)
    assert verdict.legal, verdict.reason
    assert verdict.rule == "legal"
    assert verdict.rank == rank
    assert (verdict.naturals, verdict.wilds, verdict.points) == (naturals, wilds, points)
    assert verdict.canasta is canasta
    assert is_sentence(verdict.reason)


# --------------------------------------------------------------------------- initial meld


def test_section_8_initial_meld_at_1600() -> None:
    """K-K-K (30) and 5-5-2 (5 + 5 + 20 = 30) count 60, short of the 90 from 1500."""
    verdict = check_initial_meld([cards("K K K"), cards("5 5 2")], CLASSIC, total=1600)
    assert verdict.required == 90
    assert verdict.points == 60
    assert not verdict.meets
    assert is_sentence(verdict.reason)
    assert [m.legal for m in verdict.melds] == [True, True]


@pytest.mark.parametrize(
    ("rules", "total", "required"),
    [
        (CLASSIC, -1000, 15),
        (CLASSIC, -5, 15),
        (CLASSIC, 0, 50),
        (CLASSIC, 1495, 50),
        (CLASSIC, 1500, 90),
        (CLASSIC, 2995, 90),
        (CLASSIC, 3000, 120),
        (CLASSIC, 9000, 120),
        (VARIANTS["classic-2"], 1500, 90),
        (VARIANTS["classic-6"], 7495, 120),
        (VARIANTS["classic-6"], 7500, 150),
        (RAILROAD, -5, 15),
        (RAILROAD, 0, 50),
        (RAILROAD, 4995, 50),
        (RAILROAD, 5000, 90),
        (RAILROAD, 9995, 90),
        (RAILROAD, 10_000, 120),
        (RAILROAD, 14_995, 120),
        (RAILROAD, 15_000, 150),
        (RAILROAD, 40_000, 150),
    ],
)
def test_initial_meld_minimum_by_total(rules: RuleSet, total: int, required: int) -> None:
    """RULES.md sections 2, 3 and 5: the minimum from the side's total."""
    assert rules.meld_minimum(total, 1) == required
    verdict = check_initial_meld([cards("A A A")], rules, total=total)
    assert verdict.required == required
    # A A A counts 3 x 20 = 60.
    assert verdict.points == 60
    assert verdict.meets is (required <= 60)


def test_initial_melds_add_up() -> None:
    """At total 0 (minimum 50): K K K alone is 30, with Q Q Q 30 + 30 = 60."""
    alone = check_initial_meld([cards("K K K")], CLASSIC, total=0)
    assert (alone.points, alone.meets) == (30, False)
    together = check_initial_meld([cards("K K K"), cards("Q Q Q")], CLASSIC, total=0)
    assert (together.required, together.points, together.meets) == (50, 60, True)
    assert is_sentence(together.reason)
    # At 1500 (minimum 90): K K K K K (50) + 5 5 5 5 5 5 (30) = 80, short;
    # A A 2 2 (80) + 4 4 4 (15) = 95, enough.
    short = check_initial_meld([cards("K K K K K"), cards("5 5 5 5 5 5")], CLASSIC, total=1500)
    assert (short.required, short.points, short.meets) == (90, 80, False)
    enough = check_initial_meld([cards("A A 2 2"), cards("4 4 4")], CLASSIC, total=1500)
    assert (enough.required, enough.points, enough.meets) == (90, 95, True)


def test_exactly_the_minimum_meets_it() -> None:
    """K K K (30) + 4 4 4 4 (20) = 50: exactly the 50 needed at 0."""
    verdict = check_initial_meld([cards("K K K"), cards("4 4 4 4")], CLASSIC, total=0)
    assert (verdict.required, verdict.points, verdict.meets) == (50, 50, True)  # 30 + 20


def test_an_illegal_meld_spoils_the_initial_meld() -> None:
    """A A A is worth 60, but the second meld 5-2-2 is illegal: meets is false, and the
    reason names meld 2."""
    verdict = check_initial_meld([cards("A A A"), cards("5 2 2")], CLASSIC, total=0)
    assert not verdict.meets
    assert "2" in str(verdict.reason) and "meld" in str(verdict.reason).lower()
    assert is_sentence(verdict.reason)
    assert [m.legal for m in verdict.melds] == [True, False]
    first = check_initial_meld([cards("K K Q"), cards("A A A A")], CLASSIC, total=-100)
    assert not first.meets
    assert "Meld 1" in str(first.reason)


def test_pile_top_joins_the_natural_pair_and_counts() -> None:
    """K K from the hand + the top K = 3 x 10 = 30: enough below 0 (15), not at 0 (50)."""
    low = check_initial_meld([cards("K K")], CLASSIC, total=-5, pile_top=parse_card("K"))
    assert (low.required, low.points, low.meets) == (15, 30, True)
    assert low.melds[0].naturals == 3
    assert is_sentence(low.reason)
    zero = check_initial_meld([cards("K K")], CLASSIC, total=0, pile_top=parse_card("K"))
    assert (zero.required, zero.points, zero.meets) == (50, 30, False)


def test_pile_top_joins_the_meld_of_its_rank_among_several() -> None:
    """A A A (60) + K K and the top K (30) = 90 >= 90 at 1500."""
    verdict = check_initial_meld(
        [cards("A A A"), cards("K K")], CLASSIC, total=1500, pile_top=parse_card("KH")
    )
    assert (verdict.required, verdict.points, verdict.meets) == (90, 90, True)
    # K K 2 + top K: 10 + 10 + 20 + 10 = 50 >= 50 at 0.
    wild = check_initial_meld([cards("K K 2")], CLASSIC, total=0, pile_top=parse_card("K"))
    assert (wild.points, wild.meets) == (50, True)


@pytest.mark.parametrize(
    ("melds", "top"),
    [
        (["Q Q Q"], "K"),  # no king at all
        (["K 2", "A A A A"], "K"),  # one natural king and a wild: not a natural pair
        (["K Q Q", "A A A A"], "K"),  # the kings are not a pair in one meld
        (["A A A A"], "2"),  # a wild card on top
        (["A A A A"], "JK"),
        (["A A A A"], "3S"),  # a three on top
        (["A A A A"], "3H"),
    ],
)
def test_pile_top_that_cannot_open(melds: list[str], top: str) -> None:
    """A side that has not melded takes the pile only with a natural pair of the top's rank,
    never with a wild card or a three on top: meets is false, even though A A A A (80)
    would reach the 50 needed at 0 on its own."""
    verdict = check_initial_meld(
        [cards(m) for m in melds], CLASSIC, total=0, pile_top=parse_card(top)
    )
    assert not verdict.meets
    # Nothing is counted toward the 50: the answer says "0 of 50", not A A A A's 80.
    assert (verdict.points, verdict.required) == (0, 50)
    assert is_sentence(verdict.reason)


def test_red_threes_and_bonuses_never_count() -> None:
    """Only card points count: a natural canasta of kings is 70 (no 500 bonus), short of
    90; a red three in a meld makes it illegal (and is worth 0 anyway)."""
    canasta = check_initial_meld([cards("K K K K K K K")], CLASSIC, total=1500)
    assert (canasta.required, canasta.points, canasta.meets) == (90, 70, False)
    assert canasta.melds[0].canasta is CanastaKind.NATURAL
    red = check_initial_meld([cards("K K K 3H 3D")], CLASSIC, total=-5)
    assert not red.meets  # 30 would reach 15, but red threes are never melded
    alone = check_initial_meld([cards("3H 3H 3D 3D")], CLASSIC, total=-5)
    assert not alone.meets
    assert alone.points == 0


def test_one_meld_per_rank_in_an_initial_meld() -> None:
    """RULES.md section 2: a side has one meld per rank. Four 5-5-2 melds are really one
    meld of eight fives and four twos, which has four wild cards (illegal); counted as four
    melds they would make 4 x 30 = 120, exactly the 120 needed at 3000. Either way (refused
    as four melds of fives, or judged as the one meld they form) the side does not open."""
    verdict = check_initial_meld([cards("5 5 2")] * 4, CLASSIC, total=3000)
    assert verdict.required == 120
    assert not verdict.meets, verdict.reason


def test_railroad_one_unfinished_meld_per_rank() -> None:
    """RULES.md section 5: never two unfinished melds of one rank. K K 2 2 twice (2 x 60 =
    120 >= 50) would be one meld of 8 cards with four wilds: refused either way. A new meld
    of kings beside a canasta of kings is fine: 70 + 30 = 100 >= 90 at 5000."""
    twice = check_initial_meld([cards("K K 2 2"), cards("K K 2 2")], RAILROAD, total=0)
    assert not twice.meets, twice.reason
    beside = check_initial_meld([cards("K K K K K K K"), cards("K K K")], RAILROAD, total=5000)
    assert (beside.required, beside.points, beside.meets) == (90, 100, True)


def test_no_melds_do_not_meet() -> None:
    """Nothing put down reaches no minimum."""
    verdict = check_initial_meld([], CLASSIC, total=-5)
    assert (verdict.required, verdict.points, verdict.meets) == (15, 0, False)
    assert is_sentence(verdict.reason)


def test_initial_meld_honours_house_tiers() -> None:
    """A table's own tiers: 0 from below, 75 from 0; K K K + A A A = 90 >= 75."""
    rules = apply_options(
        CLASSIC, {"meld_minimums": [{"from": None, "minimum": 0}, {"from": 0, "minimum": 75}]}
    )
    assert check_initial_meld([cards("K K K")], rules, total=-50).meets  # 30 >= 0
    verdict = check_initial_meld([cards("K K K"), cards("A A A")], rules, total=100)
    assert (verdict.required, verdict.points, verdict.meets) == (75, 90, True)


def test_railroad_initial_meld() -> None:
    """Railroad at 5000 needs 90: wild meld 2 2 JK (90) meets it; Q Q Q (30) at 15 000
    falls short of 150."""
    wild = check_initial_meld([cards("2 2 JK")], RAILROAD, total=5000)
    assert (wild.required, wild.points, wild.meets) == (90, 90, True)  # 20 + 20 + 50
    short = check_initial_meld([cards("Q Q Q")], RAILROAD, total=15_000)
    assert (short.required, short.points, short.meets) == (150, 30, False)
