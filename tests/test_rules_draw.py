"""The draw for seats (RULES.md section 9; the classic seed text, "Барање партнери").

"The player who draws the highest card may choose a seat and goes first. The person with
the second highest card becomes the partner of the player who drew the highest card. For
choosing partners the cards rank A (high), K, Q, J, 10 ... 2 / spades (high), hearts,
diamonds, clubs. A player who draws an equal card or a joker must draw again. Partners sit
opposite each other. The deal rotates clockwise and starts with the player to the right of
the player who drew the highest card."
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import VARIANTS, CardError, parse_card
from scorekeeper.rules.draw import (
    DRAW_RANKS,
    DRAW_SUITS,
    DrawError,
    Drawn,
    Redraw,
    SeatDraw,
    draw_card,
    draw_for_seats,
    draw_strength,
)

SETTINGS = settings(max_examples=200, database=None, deadline=None)
NAMES = ["Ana", "Boris", "Vera", "Goran", "Lidija", "Stefan"]


def drawn(variant: str, *cards: str, names: list[str] | None = None) -> SeatDraw:
    """The draw of ``cards`` by the first players of NAMES (or ``names``), in that order."""
    who = names or NAMES
    return draw_for_seats(
        VARIANTS[variant], [Drawn(who[i], draw_card(card)) for i, card in enumerate(cards)]
    )


def test_the_highest_chooses_a_seat_and_the_second_is_the_partner() -> None:
    # Ana QS, Boris 7H, Vera AC, Goran KD: Vera highest, then Goran, Ana, Boris.
    draw = drawn("classic", "QS", "7H", "AC", "KD")
    assert draw.order == ("Vera", "Goran", "Ana", "Boris")
    assert draw.sides == (("Vera", "Goran"), ("Ana", "Boris"))
    # Clockwise from the highest: highest, third, second, fourth; partners opposite.
    assert draw.seats == ("Vera", "Ana", "Goran", "Boris")
    # The deal starts with the player to the right of the highest: the last seat.
    assert draw.first_dealer == "Boris"
    assert draw.first_dealer_seat == 3


def test_ace_is_high_and_two_is_low() -> None:
    draw = drawn("classic", "2S", "AC", "KS", "3H")
    assert draw.order == ("Boris", "Vera", "Goran", "Ana")


def test_equal_ranks_are_decided_by_suit_spades_hearts_diamonds_clubs() -> None:
    draw = drawn("classic", "QC", "QH", "QD", "QS")
    assert draw.order == ("Goran", "Boris", "Vera", "Ana")
    assert draw.sides == (("Goran", "Boris"), ("Vera", "Ana"))


def test_ten_may_be_written_t_and_suits_as_symbols() -> None:
    assert drawn("classic", "T♠", "10H", "9♦", "J♣").order == ("Goran", "Ana", "Boris", "Vera")


def test_a_joker_draws_again() -> None:
    with pytest.raises(Redraw) as caught:
        drawn("classic", "QS", "JK", "AC", "KD")
    assert caught.value.players == ("Boris",)


def test_an_equal_card_draws_again_for_everyone_who_holds_it() -> None:
    # Two packs: Ana and Goran both drew the queen of spades; both draw again.
    with pytest.raises(Redraw) as caught:
        drawn("classic", "QS", "7H", "AC", "QS")
    assert caught.value.players == ("Ana", "Goran")


def test_jokers_and_equal_cards_together_name_every_one() -> None:
    with pytest.raises(Redraw) as caught:
        drawn("classic-6", "JK", "5D", "5D", "JK", "AS", "2C")
    assert caught.value.players == ("Ana", "Boris", "Vera", "Goran")
    assert "Ana, Boris, Vera, Goran" in caught.value.message


def test_equal_ranks_in_other_suits_do_not_draw_again() -> None:
    assert drawn("classic", "QS", "QH", "QD", "QC").order == ("Ana", "Boris", "Vera", "Goran")


def test_six_in_two_sides_the_three_highest_against_the_three_lowest() -> None:
    # Cards A..9 of spades: order = Ana, Boris, ... Stefan.
    draw = drawn("classic-6", "AS", "KS", "QS", "JS", "10S", "9S")
    assert draw.sides == (("Ana", "Boris", "Vera"), ("Goran", "Lidija", "Stefan"))
    assert draw.seats == ("Ana", "Goran", "Boris", "Lidija", "Vera", "Stefan")  # 1 4 2 5 3 6
    assert draw.first_dealer == "Stefan"


def test_six_in_three_sides_of_two_first_with_second_third_with_fourth() -> None:
    draw = drawn("classic-6x3", "AS", "KS", "QS", "JS", "10S", "9S")
    assert draw.sides == (("Ana", "Boris"), ("Vera", "Goran"), ("Lidija", "Stefan"))
    assert draw.seats == ("Ana", "Vera", "Lidija", "Boris", "Goran", "Stefan")  # 1 3 5 2 4 6
    assert draw.first_dealer == "Stefan"


@pytest.mark.parametrize(("variant", "count"), [("classic-2", 2), ("classic-3", 3)])
def test_players_alone_sit_in_card_order(variant: str, count: int) -> None:
    cards = ["3C", "KH", "7D"][:count]
    draw = drawn(variant, *cards)
    order = ("Boris", "Vera", "Ana") if count == 3 else ("Boris", "Ana")
    assert draw.order == draw.seats == order
    assert draw.sides == tuple((name,) for name in order)
    assert draw.first_dealer == order[-1]


def test_railroad_takes_any_table_it_allows() -> None:
    draw = drawn("railroad", "4S", "4H", "4D", "4C", "5C")
    assert draw.seats == ("Lidija", "Ana", "Boris", "Vera", "Goran")
    assert draw.rules.sides == 5
    with pytest.raises(DrawError) as caught:
        drawn("railroad", "4S")
    assert caught.value.field == "draws"


def test_wrong_number_of_players_is_refused() -> None:
    with pytest.raises(DrawError) as caught:
        drawn("classic", "AS", "KS", "QS")
    assert caught.value.field == "draws"
    assert "4 players" in caught.value.message


def test_a_name_twice_is_refused_naming_the_second() -> None:
    with pytest.raises(DrawError) as caught:
        drawn("classic", "AS", "KS", "QS", "JS", names=["Ana", "Boris", "ana", "Vera"])
    assert caught.value.field == "draws.2.player"


def test_a_card_without_its_suit_cannot_be_ranked() -> None:
    with pytest.raises(CardError):
        draw_card("Q")
    with pytest.raises(CardError):
        draw_card("ZZ")
    assert draw_card("jk") == parse_card("JK")


#: Every card a draw can rank: 13 ranks x 4 suits.
CARDS = [f"{rank.value}{suit.value}" for rank in DRAW_RANKS for suit in DRAW_SUITS]


def test_the_52_cards_rank_in_one_line_a_of_spades_to_2_of_clubs() -> None:
    ranked = sorted(CARDS, key=lambda card: draw_strength(draw_card(card)), reverse=True)
    assert ranked[:5] == ["AS", "AH", "AD", "AC", "KS"]
    assert ranked[-2:] == ["2D", "2C"]
    assert len({draw_strength(draw_card(card)) for card in CARDS}) == 52


TABLES = [
    ("classic", 4),
    ("classic-2", 2),
    ("classic-3", 3),
    ("classic-6", 6),
    ("classic-6x3", 6),
    *[("railroad", n) for n in range(2, 7)],
]


@st.composite
def table_draws(draw: st.DrawFn) -> tuple[str, list[Drawn]]:
    variant, count = draw(st.sampled_from(TABLES))
    cards = draw(st.lists(st.sampled_from(CARDS), min_size=count, max_size=count, unique=True))
    return variant, [Drawn(NAMES[i], draw_card(card)) for i, card in enumerate(cards)]


@SETTINGS
@given(table=table_draws(), data=st.data())
def test_draw_properties(table: tuple[str, list[Drawn]], data: st.DataObject) -> None:
    variant, draws = table
    result = draw_for_seats(VARIANTS[variant], draws)
    names = [d.player for d in draws]
    cards = {d.player: draw_strength(d.card) for d in draws}
    # Every player is seated once, and on exactly one side.
    assert sorted(result.seats) == sorted(names)
    assert sorted(name for side in result.sides for name in side) == sorted(names)
    # The highest card sits first and leads side 0; the first dealer sits to their right.
    highest = max(names, key=cards.__getitem__)
    assert result.seats[0] == result.sides[0][0] == highest
    assert result.first_dealer == result.seats[-1]
    # Sides are as the rule set says, best card first, the better side first.
    rules = result.rules
    assert len(result.sides) == rules.sides
    assert all(len(side) == rules.players_per_side for side in result.sides)
    strengths = [[cards[name] for name in side] for side in result.sides]
    assert all(side == sorted(side, reverse=True) for side in strengths)
    assert [side[0] for side in strengths] == sorted((s[0] for s in strengths), reverse=True)
    # Partners never sit side by side (around the table, the last seat next to the first).
    side_of = {name: index for index, side in enumerate(result.sides) for name in side}
    if rules.partnerships:
        seats = result.seats
        for index, name in enumerate(seats):
            assert side_of[name] != side_of[seats[(index + 1) % len(seats)]]
    # The order in which the cards are given changes nothing.
    shuffled = data.draw(st.permutations(draws))
    assert draw_for_seats(VARIANTS[variant], shuffled) == result


@SETTINGS
@given(table=table_draws(), data=st.data())
def test_a_repeated_card_or_a_joker_always_draws_again(
    table: tuple[str, list[Drawn]], data: st.DataObject
) -> None:
    variant, draws = table
    victim = data.draw(st.integers(0, len(draws) - 1))
    joker = data.draw(st.booleans())
    if joker:
        card = draw_card("JK")
        expected = {draws[victim].player}
    else:
        source = data.draw(st.integers(0, len(draws) - 1).filter(lambda i: i != victim))
        card = draws[source].card
        expected = {draws[victim].player, draws[source].player}
    draws[victim] = Drawn(draws[victim].player, card)
    with pytest.raises(Redraw) as caught:
        draw_for_seats(VARIANTS[variant], draws)
    assert set(caught.value.players) == expected
