"""The rules pages of Modern American Canasta, Hand and Foot and Burraco (RULES.md sections
13 to 15): each number of the rule set where a player reads it, and a game's own page with
its house rules."""

from __future__ import annotations

import html as entities
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers.history import words

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

Json = dict[str, Any]
PAIRS = [{"name": "A", "players": ["Ana", "Boris"]}, {"name": "B", "players": ["Vera", "Goran"]}]


def page(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return entities.unescape(words(response.get_data(as_text=True)))


def section(client: FlaskClient, path: str, heading: str) -> str:
    """The words of one section of a rules page (``h-minimums``, ``h-penalties``, ...)."""
    html = client.get(path).get_data(as_text=True)
    part = html.split(f'aria-labelledby="{heading}">', 1)[1].split("</section>", 1)[0]
    return entities.unescape(words(part))


def game(client: FlaskClient, variant: str, options: Json | None = None, sides: int = 2) -> str:
    body: Json = {"variant": variant, "sides": PAIRS[:sides]}
    if sides == 3:
        body["sides"] = [*PAIRS, {"name": "C", "players": ["Dana", "Ivo"]}]
    if options is not None:
        body["options"] = options
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    game_id: str = response.get_json()["id"]
    return game_id


def test_the_american_rules_page(client: FlaskClient) -> None:
    text = page(client, "/rules/american")
    for expected in [
        "8,500",
        "13 cards each",
        # The canastas (RULES.md 13), each with its value.
        "Aces canasta — seven natural aces 2,500",
        "Sevens canasta — seven 7s, no wild card 2,500",
        "Seven-twos canasta — 7 twos 3,000",
        "Four-jokers canasta — 4 jokers and 3 twos 2,500",
        "Wild canasta — any other 7 wild cards 2,000",
        "Mixed canasta — 7 cards of one rank, at least 5 natural, at most 2 wild 300",
        # Threes per colour.
        "1 three of one colour to one side 100",
        "2 threes of one colour to one side 300",
        "3 threes of one colour to one side 500",
        "4 threes of one colour to one side 1,000",
        "Red and black threes bonus cards, laid down at once",
        # The special hands with their values; a dream hand wins at once.
        "Straight 3,000",
        "Garbage 3,000",
        "Triples 3,500",
        "Dream hand plus 5 — wins the game at once 8,500",
        "A dream hand wins the game at once.",
        # The bonus cards change no score.
        "Bonus cards (4 to the first side to meld, 3 to the second)",
        "change no score",
        # Going out and the initial meld.
        "Going out needs at least 2 canastas",
        "unfinished aces meld, unfinished sevens meld, unfinished wild meld",
        "clean triple",
        "the top card of the pile does not count",
        "A meld of rank 7 never takes a wild card.",
        "A meld of rank A takes wild cards only in the initial meld",
        "always frozen",
    ]:
        assert expected in text, expected
    swing = section(client, "/rules/american", "h-bonuses")
    assert "Card points of melded cards minus plus plus" in swing
    assert "Threes laid down (both colours) minus not counted plus" in swing
    assert "Canasta and going-out bonuses none plus plus" in swing
    penalties = section(client, "/rules/american", "h-penalties")
    assert "Unfinished aces meld" in penalties and "-2,500" in penalties
    assert "Unfinished wild meld" in penalties and "-2,000" in penalties
    assert "Three aces or sevens held" in penalties and "-1,500" in penalties
    minimums = section(client, "/rules/american", "h-minimums")
    assert "below 3,000 125" in minimums
    assert "3,000 to 4,995 155" in minimums and "5,000 or more 180" in minimums


def test_the_hand_and_foot_rules_page(client: FlaskClient) -> None:
    text = page(client, "/rules/hand-and-foot")
    for expected in [
        "2 to 3 partnerships of 2",
        "The game is 4 deals, with no target",
        "an exact tie is a draw",
        "Clean book — 7 cards of one rank, no wild card 500",
        "Dirty book",
        "Wild book — 7 wild cards (twos and jokers) 1,500",
        "Going out needs the contract: 2 × clean book, 2 × dirty book.",
        "Red threes left in hand or foot",
        "5 packs of 52 and 10 jokers for 4 players",
    ]:
        assert expected in text, expected
    assert "to 5,000" not in text and "reaches" not in text
    minimums = section(client, "/rules/hand-and-foot", "h-minimums")
    assert "Deal 1 50 Deal 2 90 Deal 3 120 Deal 4 150" in minimums
    assert "Side's total" not in minimums
    six = page(client, "/rules/hand-and-foot?players=3")
    assert "7 packs of 52 and 14 jokers for 6 players" in six


@pytest.mark.parametrize("variant", ["burraco", "burraco-2"])
def test_the_burraco_rules_page(client: FlaskClient, variant: str) -> None:
    text = page(client, f"/rules/{variant}")
    cards = section(client, f"/rules/{variant}", "h-cards")
    assert cards == ("Card values Joker 30 Two (wild) 20 Ace 15 K Q J 10 9 8 10 7 6 5 4 3 5"), cards
    for expected in [
        "2,005",
        "Clean burraco — 7 or more cards of one rank or of one suit in a row, no wild card 200",
        "Dirty burraco",
        "Pot never taken — a side that never took its pot -100",
        "There is no initial-meld minimum: any legal meld opens.",
        "pot never taken",  # what forbids closing
        "the ace low (A 2 3) or high (Q K A)",
        "holds at most one wild card",
        "The discard pile is taken whole",
        "Semi-clean burracos: not counted",
    ]:
        assert expected in text, expected
    assert "Red three" not in text  # threes are cards like any other
    assert "Side's total" not in section(client, f"/rules/{variant}", "h-minimums")


def test_the_rules_index_lists_the_new_rule_sets(client: FlaskClient) -> None:
    """A rule set without a target says its deals (the index wrote every target)."""
    text = page(client, "/rules")
    assert "Hand and Foot 2 to 3 sides of 2 · 4 deals" in text
    assert "Modern American Canasta 2 sides of 2 · to 8,500" in text
    assert "Burraco, 2 players 2 players, each alone · to 2,005" in text


def test_a_games_rules_page_shows_its_house_rules(client: FlaskClient) -> None:
    pagat = {"pairs": 2500, "wild_pairs": 2000, "straight": 3000, "garbage": 2000}
    american = game(client, "american", {"special_hands": pagat, "unfinished_wild_penalty": 2500})
    text = page(client, f"/games/{american}/rules")
    assert "Unfinished wild meld (minus): 2,000 as published, 2,500 at this table" in text
    assert "Garbage 2,000 · Pairs 2,500 · Straight 3,000 · Wild pairs 2,000 at this table" in text
    special = section(client, f"/games/{american}/rules", "h-special")
    assert "Garbage 2,000" in special and "Triples" not in special
    assert "A dream hand wins the game at once." not in text  # not played at this table
    hand_and_foot = game(
        client,
        "hand-and-foot",
        {"contract": {"natural": 2, "mixed": 2, "wild": 1}, "meld_minimums_by_deal": [50, 90]},
        sides=3,
    )
    text = page(client, f"/games/{hand_and_foot}/rules")
    assert "1 × wild book" in text and "Initial-meld minimums by deal" in text
    assert "The game is 2 deals, with no target" in text
    assert "6 players in 3 partnerships of 2" in text
    minimums = section(client, f"/games/{hand_and_foot}/rules", "h-minimums")
    assert "Deal 1 50 Deal 2 90" in minimums
    # Minimums by deal in any rule set, with the target kept: both ends are said.
    classic = game(client, "classic", {"meld_minimums_by_deal": [50, 90, 120]})
    text = page(client, f"/games/{classic}/rules")
    assert "reaches 5,000, or after 3 deals" in text
    semi = game(client, "burraco", {"semi_natural_canasta_bonus": 150})
    text = page(client, f"/games/{semi}/rules")
    assert "Semi-clean burracos: counted (150 each)." in text
    assert re.search(r"Semi-clean burraco — a clean run of 7 or more .* 150", text)
