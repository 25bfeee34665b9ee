"""The new-game page of the family's most played tables (issue 42): each rule set's house
rules and no others, filled in with its numbers; Hand and Foot seated four or six by the
draw; the new house rules from the page to the game, through a shared link and "New game,
same players" to another game with the same rules."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers.history import words
from .helpers.pages import PLAYERS as NAMES
from .helpers.pages import page_game, read_form

#: Each rule set's numbers on the pages, not the store's: on SQLite alone.
pytestmark = pytest.mark.one_database

Json = dict[str, Any]


def field_names(html: str) -> set[str]:
    return set(re.findall(r'<input[^>]*\bname="([^"]+)"', html))


@pytest.mark.parametrize(
    ("variant", "players", "present", "absent"),
    [
        (
            "american",
            4,
            {
                "special_hands",
                "garbage_hand",
                "dream_plus_5_hand",
                "unfinished_aces_penalty",
                "unfinished_sevens_penalty",
                "unfinished_wild_penalty",
                "aces_or_sevens_held_penalty",
                "aces_canasta_bonus",
                "concealed_going_out_bonus",
                "all_red_threes_bonus",
                "meld_minimums_by_deal",
                "deals",
            },
            {
                "natural_contract",
                "pot_missed_penalty",
                "red_three_bonus",
                "concealed_canasta_bonus",
            },
        ),
        (
            "hand-and-foot",
            6,
            {
                "natural_contract",
                "mixed_contract",
                "wild_contract",
                "red_threes_in_hand_penalty",
                "wild_canasta_bonus",
                "red_three_bonus",
                "meld_minimums_by_deal",
                "play_on",
            },
            {"special_hands", "tiers-0-minimum", "aces_canasta_bonus", "all_red_threes_bonus"},
        ),
        (
            "burraco",
            4,
            {"semi_natural_canastas_on", "semi_natural_canasta_bonus", "pot_missed_penalty"},
            {"red_three_bonus", "all_red_threes_bonus", "special_hands", "natural_contract"},
        ),
        (
            "classic",
            4,
            {"red_three_bonus", "meld_minimums_by_deal", "deals", "tiers-3-minimum"},
            {"special_hands", "natural_contract", "pot_missed_penalty", "semi_natural_canastas_on"},
        ),
    ],
)
def test_the_page_shows_each_rule_sets_house_rules_and_no_others(
    client: FlaskClient, variant: str, players: int, present: set[str], absent: set[str]
) -> None:
    html = client.get(f"/games/new?variant={variant}&players={players}").get_data(as_text=True)
    names = field_names(html)
    assert present <= names, present - names
    assert not absent & names, absent & names
    # Every number on the numeric keypad.
    for name in present - {"special_hands", "play_on", "semi_natural_canastas_on"}:
        field = re.search(rf'<input[^>]*\bname="{name}"[^>]*>', html)
        assert field and 'inputmode="numeric"' in field.group(0), name


def test_the_pages_fill_in_each_tables_numbers(client: FlaskClient) -> None:
    american = client.get("/games/new?variant=american").get_data(as_text=True)
    assert re.search(r'name="target"[^>]*value="8500"', american)
    assert re.search(r'name="unfinished_wild_penalty"[^>]*value="2000"', american)
    assert re.search(r'name="garbage_hand"[^>]*value="3000"', american)
    assert re.search(r'name="concealed_going_out_bonus"[^>]*value=""', american) or not re.search(
        r'name="concealed_going_out_bonus"[^>]*value="\d', american
    )
    hand = client.get("/games/new?variant=hand-and-foot").get_data(as_text=True)
    assert re.search(r'name="meld_minimums_by_deal"[^>]*value="50, 90, 120, 150"', hand)
    assert re.search(r'name="deals"[^>]*value="4"', hand)
    assert not re.search(r'name="target"[^>]*value="\d', hand)
    assert re.search(r'name="natural_contract"[^>]*value="2"', hand)
    assert re.search(r'name="wild_contract"[^>]*value="0"', hand)
    assert "Hand and Foot: no target; the game ends after its deals." in words(hand)
    burraco = words(client.get("/games/new?variant=burraco").get_data(as_text=True))
    assert "Also played: 1,005 2,005 3,000" in burraco


def test_hand_and_foot_seats_four_or_six_by_the_draw(client: FlaskClient) -> None:
    home = client.get("/games/new?variant=hand-and-foot").get_data(as_text=True)
    assert 'href="/games/new?variant=hand-and-foot&amp;players=4"' in home
    assert 'href="/games/new?variant=hand-and-foot&amp;players=6"' in home
    cards = ["AS", "KS", "QS", "JS", "10S", "9S"]
    data = {
        "draw": "1",
        **{f"players-{i}": name for i, name in enumerate(NAMES)},
        **{f"cards-{i}-rank": card[:-1] for i, card in enumerate(cards)},
        **{f"cards-{i}-suit": card[-1] for i, card in enumerate(cards)},
        **{f"cards-{i}-seat": str(i) for i in range(6)},
    }
    drawn = client.post("/games/new?variant=hand-and-foot&players=6", data=data)
    assert drawn.status_code == 200
    html = drawn.get_data(as_text=True)
    assert "Seated by the draw." in words(html)
    # Three partnerships of two: first with second, third with fourth, fifth with sixth.
    game_id = page_game(client, "hand-and-foot", 6)
    game = client.get(f"/api/games/{game_id}").get_json()
    assert [len(side["players"]) for side in game["sides"]] == [2, 2, 2]
    deal = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    assert deal.count('class="side-card') == 3


#: House rules typed on the new-game page, and the options the game then has.
HOUSE = [
    pytest.param(
        "american",
        4,
        {
            "special_hands": "house",
            "garbage_hand": "2000",
            "unfinished_wild_penalty": "2500",
            "concealed_going_out_bonus": "100",
        },
        {
            "special_hands": {"pairs": 2500, "wild_pairs": 2000, "straight": 3000, "garbage": 2000},
            "unfinished_wild_penalty": 2500,
            "concealed_going_out_bonus": 100,
        },
        id="american-pagat",
    ),
    pytest.param(
        "hand-and-foot",
        6,
        {"wild_contract": "1", "wild_canasta_bonus": "2000"},
        {"contract": {"natural": 2, "mixed": 2, "wild": 1}, "wild_canasta_bonus": 2000},
        id="hand-and-foot-wild-book",
    ),
    pytest.param(
        "hand-and-foot",
        4,
        {"target": "5000", "play_on": "y", "meld_minimums_by_deal": "50, 90, 120, 150, 180"},
        {"target": 5000, "meld_minimums_by_deal": [50, 90, 120, 150, 180], "deals": None},
        id="hand-and-foot-to-a-target",
    ),
    pytest.param(
        "burraco",
        4,
        {"semi_natural_canastas_on": "y", "target": "1005", "pot_missed_penalty": "200"},
        {"semi_natural_canasta_bonus": 150, "target": 1005, "pot_missed_penalty": 200},
        id="burraco-semi-clean",
    ),
    pytest.param(
        "burraco",
        4,
        {"target": "", "deals": "4"},
        {"target": None, "deals": 4},
        id="burraco-four-deals",
    ),
    pytest.param(
        "classic",
        4,
        {"meld_minimums_by_deal": "125, 155, 180"},
        {"meld_minimums_by_deal": [125, 155, 180], "deals": 3},
        id="classic-by-deal",
    ),
    pytest.param(
        "classic",
        4,
        {"meld_minimums_by_deal": "125, 155, 180", "play_on": "y"},
        {"meld_minimums_by_deal": [125, 155, 180], "deals": None, "target": 5000},
        id="classic-by-deal-to-the-target",
    ),
]


def options(client: FlaskClient, game_id: str) -> Json:
    game: Json = client.get(f"/api/games/{game_id}").get_json()
    return game["options"]


@pytest.mark.parametrize(("variant", "players", "typed", "expected"), HOUSE)
def test_house_rules_typed_start_the_game_and_share_as_they_are(
    client: FlaskClient, variant: str, players: int, typed: dict[str, str], expected: Json
) -> None:
    """Each new house rule from the new-game page to the game, then through "Share these
    rules" (the link's page fills every one in a field of its own) and "New game, same
    players" to another game with the same rules."""
    game_id = page_game(client, variant, players, **typed)
    first = options(client, game_id)
    for name, value in expected.items():
        assert first.get(name) == value, name
    html = client.get(f"/games/new?variant={variant}&players={players}").get_data(as_text=True)
    form = read_form(html)
    data = {**dict(form.data), **typed, "share": "1"}
    shared = client.post(
        form.action.replace("&amp;", "&"), data=data, headers={"HX-Request": "true"}
    ).get_data(as_text=True)
    link = re.search(r'<a href="(/games/new\?[^"]+)"', shared[shared.index('id="share-rules"') :])
    assert link, words(shared[shared.index('id="share-rules"') :])
    page = client.get(unescape(link.group(1))).get_data(as_text=True)
    assert re.search(r'name="shared" type="hidden" value=""', page), "a rule no field shows"
    again = read_form(page)
    copy = dict(again.data)
    copy.update({f"players-{seat}": NAMES[seat] for seat in range(players)})
    started = client.post(again.action.replace("&amp;", "&"), data=copy)
    assert started.status_code == 302, words(started.get_data(as_text=True))[:2000]
    assert options(client, started.headers["Location"].rsplit("/", 1)[1]) == first
    # "New game, same players" keeps them too.
    same = read_form(client.get(f"/games/new?from={game_id}").get_data(as_text=True))
    restarted = client.post(same.action.replace("&amp;", "&"), data=dict(same.data))
    assert restarted.status_code == 302, words(restarted.get_data(as_text=True))[:2000]
    assert options(client, restarted.headers["Location"].rsplit("/", 1)[1]) == first


def test_a_game_needs_a_target_or_deals(client: FlaskClient) -> None:
    html = client.get("/games/new?variant=burraco").get_data(as_text=True)
    form = read_form(html)
    data = {**dict(form.data), "target": "", **{f"players-{i}": NAMES[i] for i in range(4)}}
    refused = client.post(form.action.replace("&amp;", "&"), data=data)
    assert refused.status_code == 422
    slot = re.search(r'id="err-target"[^>]*>(.*?)</div>', refused.get_data(as_text=True), re.S)
    assert slot and "Give the target score, or a number of deals." in words(slot.group(1))
