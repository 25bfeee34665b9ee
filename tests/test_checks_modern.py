"""The rule tools for Modern American Canasta, Hand and Foot and Burraco (RULES.md sections
13 to 15): through the engine, the JSON API and the tool pages.

Expected points are worked out by hand from the card values of section 1 (Burraco's from
section 15); the comment next to each shows the arithmetic.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.api.checks import BLOCKING
from scorekeeper.rules import (
    VARIANTS,
    CanastaKind,
    apply_options,
    check_going_out,
    check_initial_meld,
    check_meld,
    check_pickup,
    parse_card,
    parse_cards,
)
from scorekeeper.rules.ruleset import RuleSet

from .helpers.history import markup

Json = dict[str, Any]
AMERICAN, HAND_AND_FOOT = VARIANTS["american"], VARIANTS["hand-and-foot"]
BURRACO, BURRACO_2 = VARIANTS["burraco"], VARIANTS["burraco-2"]
NAT, MIX, WILD = CanastaKind.NATURAL, CanastaKind.MIXED, CanastaKind.WILD


@pytest.fixture
def client(sqlite_client: FlaskClient) -> FlaskClient:
    """The rule tools read no stored game: their pages and API run once, on SQLite."""
    return sqlite_client


def api(client: FlaskClient, path: str, body: Json) -> Json:
    response = client.post(f"/api/check/{path}", json=body)
    assert response.status_code == 200, response.get_json()
    answer: Json = response.get_json()
    return answer


def semi(rules: RuleSet) -> RuleSet:
    """Burraco with the semi-clean burraco of the regulations (a house rule)."""
    return apply_options(rules, {"semi_natural_canasta_bonus": 150})


# --------------------------------------------------------------------------- melds

#: (rule set, cards, legal, rule, points, canasta).
MELDS = [
    # American: seven cards, never more; mixed at most 2 wild (so at least 5 natural).
    ("american", "K K K K K K K", True, "legal", 70, "natural"),
    ("american", "K K K K K 2 2", True, "legal", 90, "mixed"),  # 50 + 40
    ("american", "K K K K 2 2 2", False, "three_wilds", 100, None),  # 40 + 60
    ("american", "K K K K K K K K", False, "meld_full", 80, None),
    # Sevens never take a wild card; seven of them are a sevens canasta.
    ("american", "7 7 7 7 7 7 7", True, "legal", 35, "sevens"),
    ("american", "7 7 7 2", False, "natural_only", 35, None),  # 15 + 20
    ("american", "7 7 7 JK", False, "natural_only", 65, None),
    # Aces: natural, seven are an aces canasta; wild cards only in the initial meld.
    ("american", "A A A A A A A", True, "legal", 140, "aces"),
    ("american", "A A A 2", False, "natural_only", 80, None),
    # Wild cards alone: seven twos, four jokers and three twos, or a wild canasta.
    ("american", "2 2 2 2 2 2 2", True, "legal", 140, "deuce"),
    ("american", "JK JK JK JK 2 2 2", True, "legal", 260, "joker"),  # 200 + 60
    ("american", "JK 2 2 2 2 2 2", True, "legal", 170, "wild"),  # 50 + 120
    ("american", "JK JK JK 2 2 2 2", True, "legal", 230, "wild"),  # 150 + 80
    ("american", "2 2 JK", True, "legal", 90, None),  # an unfinished wild meld
    # Threes of both colours are laid down, never melded, not even going out.
    ("american", "3S 3C 3S", False, "black_three_laid", 15, None),
    ("american", "3H 3D 3H", False, "red_three", 0, None),
    # Hand and Foot: books of seven; dirty with wild cards in the minority; wild books.
    ("hand-and-foot", "Q Q Q Q Q Q Q", True, "legal", 70, "natural"),
    ("hand-and-foot", "Q Q Q Q 2 2 JK", True, "legal", 130, "mixed"),  # 40 + 40 + 50
    ("hand-and-foot", "JK JK 2 2 2 2 2", True, "legal", 200, "wild"),  # 100 + 100
    ("hand-and-foot", "Q Q Q Q Q Q Q Q", False, "meld_full", 80, None),
    # Burraco: its own card values (joker 30, two 20, ace 15, K-8 10, 7-3 5).
    ("burraco", "A A A", True, "legal", 45, None),  # 3 x 15
    ("burraco", "K K JK", True, "legal", 50, None),  # 20 + 30
    ("burraco", "K K 2 JK", False, "three_wilds", 70, None),  # one wild card at most
    ("burraco", "3H 3D 3S", True, "legal", 15, None),  # threes are cards like any other
    ("burraco", "2 2 JK", False, "two_naturals", 70, None),  # no meld of wild cards
    # Burraco sequences: 3 or more of one suit in a row, the ace low or high.
    ("burraco", "4H 5H 6H", True, "legal", 15, None),
    ("burraco", "AS 2S 3S", True, "legal", 40, None),  # 15 + 20 + 5: the two as itself
    ("burraco", "QS KS AS", True, "legal", 35, None),  # 10 + 10 + 15
    ("burraco", "4H 6H JK", True, "legal", 40, None),  # the joker stands for the 5
    ("burraco", "4H 5H 2C", True, "legal", 30, None),  # a two of another suit: wild
    ("burraco", "4H 6H JK 2C", False, "sequence_wilds", 60, None),
    ("burraco", "4H 6H 8H JK", False, "sequence_gap", 50, None),
    ("burraco", "4H 5S 6H", False, "sequence_suit", 15, None),
    ("burraco", "4 5 6", False, "suit_missing", 15, None),
    # Seven or more are a burraco: clean without a wild card, dirty with one.
    ("burraco", "4H 5H 6H 7H 8H 9H 10H", True, "legal", 50, "natural"),  # 4 x 5 + 3 x 10
    ("burraco", "4H 5H 6H 7H 8H 9H JK", True, "legal", 70, "mixed"),  # 20 + 20 + 30
    ("burraco", "AH 2H 3H 4H 5H 6H 7H", True, "legal", 60, "natural"),  # 15 + 20 + 5 x 5
    ("burraco", "K K K K K K K K", True, "legal", 80, "natural"),  # no limit of seven
    ("burraco", "K K K K K K 2", True, "legal", 80, "mixed"),
    # Without the house rule a wild card at an end of eight is a dirty burraco.
    ("burraco", "4H 5H 6H 7H 8H 9H 10H JK", True, "legal", 80, "mixed"),
    ("burraco-2", "4H 5H 6H 7H 8H 9H 10H", True, "legal", 50, "natural"),
]


def meld(variant: str, text: str, **flags: bool) -> tuple[bool, str, int, CanastaKind | None]:
    verdict = check_meld(parse_cards(text), VARIANTS[variant], **flags)
    return verdict.legal, verdict.rule, verdict.points, verdict.canasta


@pytest.mark.parametrize(("variant", "text", "legal", "rule", "points", "canasta"), MELDS)
def test_melds(
    variant: str, text: str, legal: bool, rule: str, points: int, canasta: str | None
) -> None:
    """ "Is this meld legal?" through the engine, each rule set by its own rules."""
    expected = (legal, rule, points, CanastaKind(canasta) if canasta else None)
    assert meld(variant, text) == expected


@pytest.mark.parametrize(("variant", "text", "legal", "rule", "points", "canasta"), MELDS)
def test_melds_over_the_api(
    client: FlaskClient,
    variant: str,
    text: str,
    legal: bool,
    rule: str,
    points: int,
    canasta: str | None,
) -> None:
    body = api(client, "meld", {"variant": variant, "cards": text})
    assert (body["legal"], body["rule"], body["points"], body["canasta"]) == (
        legal,
        rule,
        points,
        canasta,
    )
    assert body["reason"].strip()


def test_american_aces_take_wild_cards_only_in_the_initial_meld() -> None:
    """RULES.md 13: aces are mixed only in the initial meld, and then count as a mixed
    canasta; sevens never take a wild card, not even then."""
    assert meld("american", "A A A 2", initial=True)[:2] == (True, "legal")
    assert meld("american", "A A A A A 2 2", initial=True) == (True, "legal", 140, MIX)
    sevens = check_meld(parse_cards("7 7 7 2"), AMERICAN, initial=True)
    assert sevens.rule == "natural_only" and "never takes a wild card" in str(sevens.reason)
    aces = check_meld(parse_cards("A A A 2"), AMERICAN)
    assert "only in the initial meld" in str(aces.reason)


def test_refusals_name_the_rule_broken() -> None:
    cases = {
        ("american", "K K K K 2 2 2"): "at most 2 wild cards",
        ("american", "3S 3C 3S"): "laid down at once",
        ("burraco", "4H 6H JK 2C"): "at most 1 wild card",
        ("burraco", "4H 5S 6H"): "one suit",
        ("burraco", "K K 2 JK"): "at most 1 wild card",
    }
    for (variant, text), words in cases.items():
        assert words in str(check_meld(parse_cards(text), VARIANTS[variant]).reason)


def test_a_burraco_is_named_as_such() -> None:
    clean = check_meld(parse_cards("4H 5H 6H 7H 8H 9H 10H"), BURRACO)
    assert "a canasta (clean burraco)" in str(clean.reason)
    dirty = check_meld(parse_cards("K K K K K K 2"), BURRACO)
    assert "a canasta (dirty burraco)" in str(dirty.reason)
    book = check_meld(parse_cards("JK JK 2 2 2 2 2"), HAND_AND_FOOT)
    assert "a canasta (wild book)" in str(book.reason)


def test_the_semi_clean_burraco_needs_the_house_rule() -> None:
    """RULES.md 15: a wild card at one end of eight or more is a semi-clean burraco where
    the house rule counts it; inside the run it stays dirty."""
    eight = parse_cards("4H 5H 6H 7H 8H 9H 10H JK")
    assert check_meld(eight, BURRACO).canasta is MIX
    assert check_meld(eight, semi(BURRACO)).canasta is CanastaKind.SEMI_NATURAL
    inside = parse_cards("4H 5H 6H 7H 9H 10H JH JK")  # the joker is the 8
    assert check_meld(inside, semi(BURRACO)).canasta is MIX
    group = parse_cards("K K K K K K K 2")
    assert check_meld(group, semi(BURRACO)).canasta is CanastaKind.SEMI_NATURAL
    assert check_meld(parse_cards("K K K K K K 2"), semi(BURRACO)).canasta is MIX


def test_a_burraco_run_prefers_the_two_as_itself() -> None:
    """A two of the run's suit in its place is natural: the run is clean."""
    verdict = check_meld(parse_cards("2H 3H 4H 5H 6H 7H 8H"), BURRACO)
    assert (verdict.wilds, verdict.canasta) == (0, NAT)
    # Two twos of the suit: one as itself, the other wild.
    two_twos = check_meld(parse_cards("2H 2H 3H 4H"), BURRACO)
    assert (two_twos.legal, two_twos.naturals, two_twos.wilds) == (True, 3, 1)
    # A two of the suit with one natural card: a run, not a group of one natural.
    assert check_meld(parse_cards("2H 3H JK"), BURRACO).legal
    # The ace runs low or high, and both ends of the longest run.
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    assert check_meld(parse_cards(full), BURRACO).canasta is NAT
    # Longer than the whole run, or a rank more often than it has places: refused.
    assert check_meld(parse_cards(f"{full} 2C"), BURRACO).rule == "sequence_gap"
    assert check_meld(parse_cards("AS AS AS KS"), BURRACO).rule == "sequence_gap"
    assert check_meld(parse_cards(" ".join(["AS"] * 40 + ["KS"])), BURRACO).legal is False


# --------------------------------------------------------------------------- initial meld


def initial(
    variant: str, melds: list[str], total: int = 0, top: str | None = None, deal: int = 1
) -> tuple[int, int, bool, str]:
    verdict = check_initial_meld(
        [parse_cards(text) for text in melds],
        VARIANTS[variant],
        total=total,
        pile_top=parse_card(top) if top else None,
        deal=deal,
    )
    return verdict.required, verdict.points, verdict.meets, str(verdict.reason)


def test_american_minimum_by_total_and_clean_triple() -> None:
    """RULES.md 13: 125 below 3000, 155 to 4995, 180 from 5000 (and below 0: 125); the
    meld holds a clean triple."""
    assert initial("american", ["K K K", "A A A A"], total=-200)[:3] == (125, 110, False)
    assert initial("american", ["K K K", "A A A A", "Q Q Q"])[:3] == (125, 140, True)
    assert initial("american", ["K K K 2", "A A A A 2"], total=3000)[:3] == (155, 150, False)
    assert initial("american", ["A A A A A 2 2", "K K K"], total=5000)[:3] == (180, 170, False)
    # No clean triple: two naturals and a wild card each.
    _, points, meets, reason = initial("american", ["K K 2", "Q Q 2", "A A 2 2"])
    assert (points, meets) == (160, False) and "clean triple" in reason  # 40 + 40 + 80


def test_american_aces_may_be_mixed_in_the_initial_meld() -> None:
    assert initial("american", ["A A A 2", "K K K", "Q Q Q"])[:3] == (125, 140, True)  # 80 + 60


def test_american_pile_top_does_not_count() -> None:
    """RULES.md 13 (CLA): the top card of the pile does not count toward the minimum."""
    required, points, meets, reason = initial("american", ["K K", "A A A A A"], top="K")
    assert (required, points, meets) == (125, 120, False)  # 20 + 100; the third K not counted
    assert "does not count" in reason
    classic = check_initial_meld(
        [parse_cards("K K"), parse_cards("A A A")],
        VARIANTS["classic"],
        total=0,
        pile_top=parse_card("K"),
    )
    assert classic.points == 90  # the top card counts there


@pytest.mark.parametrize(("deal", "required"), [(1, 50), (2, 90), (3, 120), (4, 150), (5, 150)])
def test_hand_and_foot_minimum_goes_by_the_deal(deal: int, required: int) -> None:
    """RULES.md 14: 50, 90, 120, 150 by round, whatever the total."""
    assert initial("hand-and-foot", ["K K K", "Q Q Q", "A A A"], total=9000, deal=deal)[:3] == (
        required,
        120,
        required <= 120,
    )


@pytest.mark.parametrize("variant", ["burraco", "burraco-2"])
def test_burraco_has_no_minimum(variant: str) -> None:
    """RULES.md 15: no initial-meld minimum; the tool says so."""
    required, points, meets, reason = initial(variant, ["4H 5H 6H"], total=1500)
    assert (required, points, meets) == (0, 15, True)
    assert "No initial-meld minimum" in reason
    assert initial(variant, ["4H 5S 6H"])[2] is False  # a meld must still be legal
    # The pile goes to the hand whole: its top card needs no pair.
    assert initial(variant, ["K K JK"], top="9")[:3] == (0, 50, True)


# --------------------------------------------------------------------------- going out


def going_out(
    rules: RuleSet, canastas: dict[CanastaKind, int], *blocked: str
) -> tuple[bool, str, str]:
    verdict = check_going_out(
        rules,
        canastas=canastas,
        cards_left=1,
        last_discard=None,
        melded_before=True,
        blocked=blocked,
    )
    return verdict.allowed, verdict.rule, str(verdict.reason)


def test_american_going_out_needs_two_canastas_and_no_unfinished_special_meld() -> None:
    assert going_out(AMERICAN, {NAT: 1})[:2] == (False, "out_needs_canastas")
    assert going_out(AMERICAN, {NAT: 1, MIX: 1})[:2] == (True, "may_go_out")
    for figure, words in [
        ("unfinished_aces", "Unfinished aces meld"),
        ("unfinished_sevens", "Unfinished sevens meld"),
        ("unfinished_wild", "Unfinished wild meld"),
    ]:
        allowed, rule, reason = going_out(AMERICAN, {NAT: 2}, figure)
        assert (allowed, rule) == (False, "out_blocked") and words in reason
    assert "no concealed bonus" in str(
        check_going_out(
            AMERICAN, canastas={NAT: 2}, cards_left=1, last_discard=None, melded_before=False
        ).reason
    )


def test_hand_and_foot_going_out_needs_the_contract() -> None:
    """RULES.md 14: two clean and two dirty books; a house contract adds a wild book."""
    allowed, rule, reason = going_out(HAND_AND_FOOT, {NAT: 2, MIX: 1, WILD: 3})
    assert (allowed, rule) == (False, "out_needs_kinds")
    assert "2 × clean book" in reason and "2 × dirty book" in reason
    assert going_out(HAND_AND_FOOT, {NAT: 2, MIX: 2})[:2] == (True, "may_go_out")
    house = apply_options(HAND_AND_FOOT, {"contract": {"natural": 2, "mixed": 2, "wild": 1}})
    assert going_out(house, {NAT: 2, MIX: 2})[:2] == (False, "out_needs_kinds")
    assert going_out(house, {NAT: 2, MIX: 2, WILD: 1})[:2] == (True, "may_go_out")


def test_burraco_closing_needs_a_burraco_and_the_pot() -> None:
    assert going_out(BURRACO, {})[:2] == (False, "out_needs_canastas")
    allowed, rule, reason = going_out(BURRACO, {NAT: 1}, "pot_missed")
    assert (allowed, rule) == (False, "out_blocked") and "Pot never taken" in reason
    assert going_out(BURRACO, {MIX: 1})[:2] == (True, "may_go_out")
    # A figure the rule set does not block on changes nothing (the API refuses it).
    assert going_out(VARIANTS["classic"], {NAT: 1}, "pot_missed")[0] is True


# --------------------------------------------------------------------------- the pile


def test_burraco_pile_is_taken_freely_american_needs_a_natural_pair() -> None:
    burraco = check_pickup(
        BURRACO,
        top=parse_card("2"),
        frozen=False,
        side_has_melded=False,
        natural_matches=0,
        wild_cards=0,
        cards_in_hand=5,
        pile_size=6,
    )
    assert (burraco.allowed, burraco.rule) == (True, "taken_freely")
    american = check_pickup(
        AMERICAN,
        top=parse_card("K"),
        frozen=False,
        side_has_melded=True,
        natural_matches=1,
        wild_cards=1,
        side_melds=[parse_card("K").rank],
        cards_in_hand=5,
        pile_size=6,
    )
    assert (american.allowed, american.rule) == (False, "needs_natural_pair")


# --------------------------------------------------------------------------- the API


def test_initial_meld_api_takes_the_deal(client: FlaskClient) -> None:
    melds = ["K K K", "Q Q Q", "A A A"]  # 30 + 30 + 60
    first = api(client, "initial-meld", {"variant": "hand-and-foot", "melds": melds})
    assert (first["required"], first["meets"]) == (50, True)
    fourth = api(client, "initial-meld", {"variant": "hand-and-foot", "melds": melds, "deal": 4})
    assert (fourth["required"], fourth["meets"]) == (150, False)
    burraco = api(client, "initial-meld", {"variant": "burraco", "melds": ["4H 5H 6H"]})
    assert (burraco["required"], burraco["meets"]) == (0, True)
    assert "No initial-meld minimum" in burraco["reason"]


def test_initial_meld_api_follows_the_games_next_deal(client: FlaskClient) -> None:
    sides = [{"players": ["Ana", "Boris"]}, {"players": ["Vera", "Goran"]}]
    created = client.post("/api/games", json={"variant": "hand-and-foot", "sides": sides})
    game = created.get_json()
    deal = {"results": [{"meld_points": 100}, {"meld_points": 50}]}
    headers = {"Authorization": f"Bearer {game['token']}"}
    assert (
        client.post(f"/api/games/{game['id']}/deals", json=deal, headers=headers).status_code == 201
    )
    body = api(client, "initial-meld", {"game": game["id"], "side": 0, "melds": ["K K K"]})
    assert body["required"] == 90


def test_the_going_out_check_asks_every_figure_that_blocks_going_out() -> None:
    """A rule set that learns a new blocking figure needs a flag for it in the API."""
    blocking = {figure for rules in VARIANTS.values() for figure in rules.going_out_blocked_by}
    assert blocking <= set(BLOCKING)


def test_going_out_api_names_what_blocks_it(client: FlaskClient) -> None:
    one = api(
        client, "going-out", {"variant": "american", "canastas": {"natural": 1}, "cards_left": 1}
    )
    assert (one["allowed"], one["rule"]) == (False, "out_needs_canastas")
    blocked = api(
        client,
        "going-out",
        {"variant": "american", "canastas": {"aces": 1, "natural": 1}, "unfinished_wild": True},
    )
    assert (blocked["allowed"], blocked["rule"]) == (False, "out_blocked")
    pot = api(
        client, "going-out", {"variant": "burraco", "canastas": {"natural": 1}, "pot_missed": True}
    )
    assert (pot["allowed"], pot["rule"]) == (False, "out_blocked")
    contract = api(client, "going-out", {"variant": "hand-and-foot", "canastas": {"natural": 4}})
    assert (contract["allowed"], contract["rule"]) == (False, "out_needs_kinds")


@pytest.mark.parametrize(
    ("variant", "field"),
    [
        ("classic", "pot_missed"),
        ("burraco", "unfinished_aces"),
        ("hand-and-foot", "unfinished_wild"),
    ],
)
def test_going_out_api_refuses_a_flag_the_rule_set_does_not_know(
    client: FlaskClient, variant: str, field: str
) -> None:
    body = {"variant": variant, "canastas": {"natural": 2}, field: True}
    response = client.post("/api/check/going-out", json=body)
    assert response.status_code == 422
    assert field in response.get_json()["fields"]
    # False is accepted and ignored, as a deal's figure is.
    assert client.post("/api/check/going-out", json={**body, field: False}).status_code == 200


def test_meld_api_takes_the_initial_meld(client: FlaskClient) -> None:
    body = {"variant": "american", "cards": "A A A A A 2 2"}
    assert api(client, "meld", body)["rule"] == "natural_only"
    initial = api(client, "meld", {**body, "initial": True})
    assert (initial["legal"], initial["canasta"]) == (True, "mixed")


def test_pickup_api_for_burraco(client: FlaskClient) -> None:
    body = api(client, "pickup", {"variant": "burraco-2", "top": "JK"})
    assert (body["allowed"], body["rule"]) == (True, "taken_freely")


# --------------------------------------------------------------------------- the pages


def test_meld_page_answers_american_and_burraco(client: FlaskClient) -> None:
    sevens = markup(client.get("/check/meld?variant=american&cards=7+7+7+2").get_data(as_text=True))
    assert "answer-no" in sevens and "never takes a wild card" in sevens
    assert 'id="initial"' in sevens and 'id="out"' not in sevens  # threes are laid down
    aces = client.get("/check/meld?variant=american&cards=A+A+A+2&initial=y").get_data(as_text=True)
    assert "answer-yes" in markup(aces)
    run = client.get("/check/meld?variant=burraco&cards=AS+2S+3S+4S+5S+6S+JK").get_data(
        as_text=True
    )
    assert "answer-yes" in markup(run) and "dirty burraco" in run and "the ace low" in run


def test_initial_meld_page_asks_the_deal_or_says_there_is_no_minimum(
    client: FlaskClient,
) -> None:
    hand_and_foot = client.get(
        "/check/initial-meld?variant=hand-and-foot&deal=3&meld1=K+K+K"
    ).get_data(as_text=True)
    assert 'id="deal"' in hand_and_foot and 'id="total"' not in hand_and_foot
    assert "answer-no" in markup(hand_and_foot) and "This deal needs 120" in hand_and_foot
    burraco = client.get("/check/initial-meld?variant=burraco&meld1=4H+5H+6H").get_data(
        as_text=True
    )
    assert "No initial-meld minimum in this game" in burraco and "answer-yes" in markup(burraco)
    assert 'id="top"' not in burraco and 'id="total"' not in burraco
    bad = client.get("/check/initial-meld?variant=hand-and-foot&deal=zero&meld1=K+K+K")
    assert "field-error" in markup(bad.get_data(as_text=True))


def test_going_out_page_asks_what_blocks_it(client: FlaskClient) -> None:
    html = client.get(
        "/check/going-out?variant=american&natural=2&left=1&before=y&unfinished_aces=y"
    ).get_data(as_text=True)
    assert 'id="unfinished_sevens"' in html and "answer-no" in markup(html)
    burraco = client.get(
        "/check/going-out?variant=burraco&natural=1&left=1&before=y&pot_missed=y"
    ).get_data(as_text=True)
    assert "Pot never taken" in burraco and "answer-no" in markup(burraco)
    classic = client.get("/check/going-out?variant=classic").get_data(as_text=True)
    assert 'id="out-blocked"' not in classic


def test_pickup_page_for_burraco(client: FlaskClient) -> None:
    html = client.get("/check/pickup?variant=burraco&top=2").get_data(as_text=True)
    assert "answer-yes" in markup(html) and 'id="pile-free"' in html


@pytest.mark.parametrize("variant", ["american", "hand-and-foot", "burraco", "burraco-2"])
@pytest.mark.parametrize("tool", ["meld", "initial-meld", "pickup", "going-out"])
def test_every_tool_page_serves_the_new_rule_sets(
    client: FlaskClient, variant: str, tool: str
) -> None:
    response = client.get(f"/check/{tool}?variant={variant}")
    assert response.status_code == 200
    assert f'<option value="{variant}" selected>' in response.get_data(as_text=True)
