"""The rule tools for the Canasta family (RULES.md section 10.5): Samba, Bolivia, Cuban
Canasta and Uruguay, through the engine, the JSON API and the tool pages.

Expected points are worked out by hand from RULES.md section 1; the comment next to each
shows the arithmetic.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    VARIANTS,
    CanastaKind,
    Card,
    Rank,
    RuleSet,
    Suit,
    card_points,
    check_going_out,
    check_initial_meld,
    check_meld,
    check_pickup,
    parse_card,
    parse_cards,
    starts_sequence,
)
from scorekeeper.rules.melds import RUN_RANKS

from .helpers.history import markup

Json = dict[str, Any]
CLASSIC, RAILROAD = VARIANTS["classic"], VARIANTS["railroad"]
SAMBA, BOLIVIA = VARIANTS["samba"], VARIANTS["bolivia"]
CUBAN, URUGUAY = VARIANTS["cuban"], VARIANTS["uruguay"]
FAMILY = ("samba", "bolivia", "cuban", "uruguay")
#: Moderate and reproducible, and no example database written into the project tree.
SETTINGS = settings(max_examples=150, database=None, deadline=None)


def meld(variant: str, text: str) -> tuple[bool, str, int, CanastaKind | None]:
    verdict = check_meld(parse_cards(text), VARIANTS[variant])
    return verdict.legal, verdict.rule, verdict.points, verdict.canasta


@pytest.fixture
def client(sqlite_client: FlaskClient) -> FlaskClient:
    """The rule tools read no stored game: their pages and API run once, on SQLite."""
    return sqlite_client


def api(client: FlaskClient, path: str, body: Json) -> Json:
    response = client.post(f"/api/check/{path}", json=body)
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert isinstance(answer, dict)
    return answer


# --------------------------------------------------------------------------- melds

#: (rule set, cards, legal, rule, points, canasta): RULES.md 10.1 to 10.5.
MELDS = [
    # Samba: sequences of one suit, 3 to 7, no wild cards; a seven is a samba.
    ("samba", "4H 5H 6H 7H 8H 9H 10H", True, "legal", 50, "sequence"),  # 4 x 5 + 3 x 10
    ("samba", "4H 5H 6H", True, "legal", 15, None),  # 3 x 5
    ("samba", "QS KS AS", True, "legal", 40, None),  # 10 + 10 + 20: the ace is high
    ("samba", "AS 4S 5S", False, "sequence_gap", 30, None),  # the ace is never low
    ("samba", "4H 5H 6H 2 8H", False, "sequence_wild", 45, None),  # 15 + 20 + 10
    ("samba", "4H 5H JK", False, "sequence_wild", 60, None),  # 10 + 50
    ("samba", "2H 4H 5H", False, "sequence_wild", 30, None),  # a two is never natural here
    ("samba", "3S 4S 5S", False, "sequence_three", 15, None),
    ("samba", "3H 4H 5H", False, "red_three", 10, None),  # the red three counts nothing
    ("samba", "4H 5S 6H", False, "sequence_suit", 15, None),
    ("samba", "4H 5H 5H", False, "sequence_gap", 15, None),
    ("samba", "4H 6H 7H", False, "sequence_gap", 15, None),
    ("samba", "4 5 6", False, "one_rank", 15, None),  # a sequence needs its suits
    ("samba", "5H 6H 7H 8H 9H 10H JH QH", False, "sequence_long", 65, None),  # 20 + 45
    # Samba groups: at most 2 wild cards, and wild cards never alone.
    ("samba", "9 9 2 2", True, "legal", 60, None),  # 20 + 40
    ("samba", "9 9 2 2 2", False, "three_wilds", 80, None),  # 20 + 60
    ("classic", "9 9 9 2 2 2", True, "legal", 90, None),  # 30 + 60
    ("samba", "9 9 9 2 2 2", False, "three_wilds", 90, None),
    ("samba", "2 2 JK", False, "two_naturals", 90, None),  # 40 + 50
    ("samba", "K K K K K 2 2", True, "legal", 90, "mixed"),  # 50 + 40
    # Bolivia: sequences (escaleras), and wild cards alone, 3 to 7 (a bolivia).
    ("bolivia", "8D 9D 10D JD QD KD AD", True, "legal", 80, "sequence"),  # 6 x 10 + 20
    ("bolivia", "2 2 JK", True, "legal", 90, None),
    ("bolivia", "2 2 2 2 2 2 2", True, "legal", 140, "wild"),  # 7 x 20
    ("bolivia", "JK JK JK JK 2 2 2", True, "legal", 260, "wild"),  # 200 + 60: no joker kind
    ("bolivia", "2 2 2 2 2 2 2 2", False, "meld_full", 160, None),  # a bolivia takes no more
    ("bolivia", "9 9 2 2 2", False, "three_wilds", 80, None),
    # Cuban: wild canastas by composition; no eighth card on any meld.
    ("cuban", "2 2 JK", True, "legal", 90, None),
    ("cuban", "2 2 2 2 2 2 2", True, "legal", 140, "deuce"),  # 7 x 20
    ("cuban", "JK JK JK JK 2 2 2", True, "legal", 260, "joker"),  # 4 x 50 + 3 x 20
    ("cuban", "JK 2 2 2 2 2 2", True, "legal", 170, "wild"),  # 50 + 6 x 20
    ("cuban", "JK JK JK 2 2 2 2", True, "legal", 230, "wild"),  # 150 + 80
    ("cuban", "9 9 9 9 9 9 9 9", False, "meld_full", 80, None),  # 8 x 10
    ("cuban", "9 9 9 9 9 9 9", True, "legal", 70, "natural"),
    ("cuban", "9 9 9 2 2 2", True, "legal", 90, None),  # three wild cards, as classic
    ("cuban", "4H 5H 6H", False, "one_rank", 15, None),  # no sequences
    # Uruguay: wild cards alone, 3 to 7; any seven are a wild canasta.
    ("uruguay", "2 2 JK", True, "legal", 90, None),
    ("uruguay", "JK JK JK JK 2 2 2", True, "legal", 260, "wild"),
    ("uruguay", "2 2 2 2 2 2 2 2", False, "meld_full", 160, None),
    ("uruguay", "9 9 9 9 9 9 9 9", True, "legal", 80, "natural"),  # no limit, as classic
    # Railroad keeps what it had: wild melds, wild canastas, no eighth card.
    ("railroad", "2 2 2 2 2 2 2", True, "legal", 140, "wild"),
    ("railroad", "JK JK JK JK 2 2 2", True, "legal", 260, "wild"),
    ("railroad", "2 2 2 2 JK JK JK JK", False, "meld_full", 280, None),
    # Classic: wild cards alone never meld.
    ("classic", "2 2 JK", False, "two_naturals", 90, None),
]


@pytest.mark.parametrize(("variant", "text", "legal", "rule", "points", "canasta"), MELDS)
def test_family_melds(
    variant: str, text: str, legal: bool, rule: str, points: int, canasta: str | None
) -> None:
    """RULES.md 10.5, "Is this meld legal?", through the engine."""
    expected = (legal, rule, points, CanastaKind(canasta) if canasta else None)
    assert meld(variant, text) == expected


@pytest.mark.parametrize(("variant", "text", "legal", "rule", "points", "canasta"), MELDS)
def test_family_melds_over_the_api(
    client: FlaskClient,
    variant: str,
    text: str,
    legal: bool,
    rule: str,
    points: int,
    canasta: str | None,
) -> None:
    """The same cases through POST /api/check/meld: the canasta is the kind's value."""
    body = api(client, "meld", {"variant": variant, "cards": text})
    assert (body["legal"], body["rule"], body["points"], body["canasta"]) == (
        legal,
        rule,
        points,
        canasta,
    )
    assert body["reason"].strip()


def test_a_sequence_has_no_rank_and_counts_its_cards() -> None:
    verdict = check_meld(parse_cards("4H 5H 6H 7H 8H 9H 10H"), SAMBA)
    assert (verdict.rank, verdict.naturals, verdict.wilds) == (None, 7, 0)
    assert "samba" in str(verdict.reason) and "4H" in str(verdict.reason)
    assert "escalera" in str(check_meld(parse_cards("4H 5H 6H 7H 8H 9H 10H"), BOLIVIA).reason)
    # The answer names the run's ends, lowest and highest, in any order typed.
    shuffled = check_meld(parse_cards("9D 4D 10D 6D 5D 8D 7D"), SAMBA)
    assert "from 4D to 10D" in str(shuffled.reason)
    assert "from 6S to 8S" in str(check_meld(parse_cards("8S 6S 7S"), SAMBA).reason)


def test_too_few_cards_name_their_rank_when_they_have_one() -> None:
    """K K is short of a meld of kings; K Q is short of any meld, of no one rank."""
    kings = check_meld(parse_cards("K K"), CLASSIC)
    assert (kings.legal, kings.rule, kings.rank) == (False, "too_few", "K")
    assert check_meld(parse_cards("K Q"), CLASSIC).rank is None


def test_wild_canastas_say_the_rule_sets_word() -> None:
    assert "bolivia" in str(check_meld(parse_cards("2 2 2 2 2 2 2"), BOLIVIA).reason)
    assert "seven-twos" in str(check_meld(parse_cards("2 2 2 2 2 2 2"), CUBAN).reason)


def test_samba_refusal_names_its_two_wild_cards() -> None:
    assert "at most 2 wild cards" in str(check_meld(parse_cards("9 9 2 2 2"), SAMBA).reason)
    assert "at most 3 wild cards" in str(check_meld(parse_cards("9 9 9 2 2 2 JK"), CLASSIC).reason)


# --------------------------------------------------------------------------- initial meld


def test_initial_meld_counts_sequences_and_wild_melds() -> None:
    """A sequence and a group together; several sequences have no rank to clash."""
    samba = check_initial_meld([parse_cards("4H 5H 6H"), parse_cards("K K K")], SAMBA, total=0)
    assert (samba.points, samba.meets) == (45, False)  # 15 + 30, short of 50
    two = check_initial_meld([parse_cards("JH QH KH"), parse_cards("JS QS KS")], SAMBA, total=0)
    assert (two.points, two.meets) == (60, True)
    wild = check_initial_meld([parse_cards("2 2 JK")], BOLIVIA, total=1500)
    assert (wild.points, wild.meets) == (90, True)  # 40 + 50 = 90
    refused = check_initial_meld([parse_cards("2 2 JK")], SAMBA, total=0)
    assert refused.meets is False and "Meld 1" in str(refused.reason)


def test_cuban_has_one_meld_per_rank_even_beside_a_canasta() -> None:
    """Railroad's new meld beside a closed canasta is Railroad's: Cuban's seven-card limit
    does not bring it (RULES.md 5 and 10.3)."""
    melds = [parse_cards("K K K K K K K"), parse_cards("K K K")]
    assert check_initial_meld(melds, RAILROAD, total=5000).meets is True
    cuban = check_initial_meld(melds, CUBAN, total=0)
    assert cuban.meets is False and "one meld of each rank" in str(cuban.reason)


# --------------------------------------------------------------------------- pickup


def pickup(rules: RuleSet, **given: Any) -> tuple[bool, str]:
    answer = check_pickup(
        rules,
        top=parse_card(given.pop("top", "K")),
        frozen=given.pop("frozen", False),
        side_has_melded=given.pop("melded", True),
        natural_matches=given.pop("naturals", 0),
        wild_cards=given.pop("wilds", 0),
        side_melds=[c.rank for c in parse_cards(given.pop("melds", ""))],
        full_melds=[c.rank for c in parse_cards(given.pop("full", ""))],
        cards_in_hand=given.pop("hand", 5),
        pile_size=5,
        sequence_in_hand=given.pop("sequence", False),
    )
    assert not given
    return answer.allowed, answer.rule


@pytest.mark.parametrize("rules", [CUBAN, URUGUAY], ids=["cuban", "uruguay"])
def test_cuban_and_uruguay_piles_are_always_frozen(rules: RuleSet) -> None:
    assert pickup(rules, naturals=1, wilds=1) == (False, "needs_natural_pair")
    assert pickup(rules, melds="K") == (False, "needs_natural_pair")
    assert pickup(rules, naturals=2) == (True, "natural_pair")
    assert pickup(CLASSIC, naturals=1, wilds=1) == (True, "natural_and_wild")
    assert pickup(CLASSIC, melds="K") == (True, "adds_to_meld")
    assert "always frozen" in str(
        check_pickup(
            rules,
            top=parse_card("K"),
            frozen=False,
            side_has_melded=True,
            natural_matches=0,
            wild_cards=0,
            cards_in_hand=5,
            pile_size=5,
        ).reason
    )


def test_cuban_closed_canasta_refuses_the_pile_railroad_starts_another() -> None:
    assert pickup(CUBAN, naturals=2, melds="K", full="K") == (False, "meld_full")
    assert pickup(RAILROAD, naturals=2, melds="K", full="K") == (True, "natural_pair")


@pytest.mark.parametrize("rules", [SAMBA, BOLIVIA], ids=["samba", "bolivia"])
def test_samba_and_bolivia_never_start_a_sequence_with_the_pile(rules: RuleSet) -> None:
    assert pickup(rules, top="5H", sequence=True) == (False, "sequence_from_pile")
    assert pickup(rules, top="5H", sequence=True, melded=False) == (False, "sequence_from_pile")
    assert pickup(rules, top="5H", sequence=True, naturals=2) == (True, "natural_pair")
    assert pickup(rules, top="2") == (False, "wild_on_top")
    assert pickup(rules, top="JK") == (False, "wild_on_top")
    # Rule sets without sequences answer as before.
    assert pickup(CLASSIC, top="5H", sequence=True) == (False, "no_match")


@pytest.mark.parametrize(
    ("top", "hand", "starts"),
    [
        ("5H", "4H 6H", True),
        ("5H", "6H 7H", True),
        ("5H", "3H 4H", False),  # a three is never in a sequence
        ("AH", "QH KH", True),
        ("4H", "AH KH", False),  # the ace is high only
        ("5H", "4S 6H", False),
        ("5H", "4H 7H", False),
        ("5", "4H 6H", False),  # a top card without its suit
        ("5H", "2 6H", False),
    ],
)
def test_starts_sequence(top: str, hand: str, starts: bool) -> None:
    assert starts_sequence(parse_card(top), parse_cards(hand)) is starts


# --------------------------------------------------------------------------- going out


def going_out(rules: RuleSet, canastas: dict[CanastaKind, int]) -> tuple[bool, str, str]:
    verdict = check_going_out(
        rules, canastas=canastas, cards_left=1, last_discard=None, melded_before=True
    )
    return verdict.allowed, verdict.rule, str(verdict.reason)


NAT, MIX, SEQ = CanastaKind.NATURAL, CanastaKind.MIXED, CanastaKind.SEQUENCE
WILD, DEUCE, JOKER = CanastaKind.WILD, CanastaKind.DEUCE, CanastaKind.JOKER


@pytest.mark.parametrize(
    ("variant", "canastas", "allowed", "rule"),
    [
        ("samba", {NAT: 1}, False, "out_needs_canastas"),
        ("samba", {NAT: 1, MIX: 1}, True, "may_go_out"),
        ("samba", {SEQ: 2}, True, "may_go_out"),  # sambas count
        ("bolivia", {NAT: 2}, False, "out_needs_kinds"),
        ("bolivia", {SEQ: 1}, False, "out_needs_canastas"),
        ("bolivia", {SEQ: 1, WILD: 1}, True, "may_go_out"),
        ("cuban", {}, False, "out_needs_canastas"),
        ("cuban", {DEUCE: 1}, True, "may_go_out"),
        ("cuban", {JOKER: 1}, True, "may_go_out"),
        ("uruguay", {WILD: 1}, True, "may_go_out"),
        ("uruguay", {MIX: 1}, True, "may_go_out"),
    ],
)
def test_family_going_out(
    variant: str, canastas: dict[CanastaKind, int], allowed: bool, rule: str
) -> None:
    """RULES.md 10.5, "May I go out?": no discard asked (that is Railroad's)."""
    assert going_out(VARIANTS[variant], canastas)[:2] == (allowed, rule)


def test_bolivia_refusal_names_the_escalera() -> None:
    reason = going_out(BOLIVIA, {NAT: 2})[2]
    assert "escalera" in reason and "sequence" not in reason


def test_railroad_still_discards_last() -> None:
    four = {NAT: 1, MIX: 1, WILD: 1, CanastaKind.SEVENS: 1}
    verdict = check_going_out(
        RAILROAD, canastas=four, cards_left=0, last_discard=None, melded_before=True
    )
    assert verdict.rule == "must_discard"


@pytest.mark.parametrize(
    ("variant", "canastas", "allowed", "rule"),
    [
        ("samba", {"sequence": 1, "natural": 1}, True, "may_go_out"),
        ("bolivia", {"natural": 2}, False, "out_needs_kinds"),
        ("bolivia", {"sequence": 1, "wild": 1}, True, "may_go_out"),
        ("cuban", {"deuce": 1}, True, "may_go_out"),
        ("cuban", {"joker": 1}, True, "may_go_out"),
        ("uruguay", {"wild": 1}, True, "may_go_out"),
        ("uruguay", {}, False, "out_needs_canastas"),
    ],
)
def test_family_going_out_over_the_api(
    client: FlaskClient, variant: str, canastas: Json, allowed: bool, rule: str
) -> None:
    body = api(client, "going-out", {"variant": variant, "canastas": canastas, "cards_left": 1})
    assert (body["allowed"], body["rule"]) == (allowed, rule)


def test_bolivia_api_refusal_names_the_escalera(client: FlaskClient) -> None:
    body = api(client, "going-out", {"variant": "bolivia", "canastas": {"natural": 2}})
    assert "escalera" in body["reason"]


@pytest.mark.parametrize(
    ("variant", "kind"), [("classic", "sequence"), ("samba", "wild"), ("uruguay", "deuce")]
)
def test_a_kind_the_rule_set_lacks_is_422_naming_it(
    client: FlaskClient, variant: str, kind: str
) -> None:
    response = client.post("/api/check/going-out", json={"variant": variant, "canastas": {kind: 1}})
    assert response.status_code == 422
    assert f"canastas.{kind}" in response.get_json()["fields"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"variant": "samba", "canastas": {"samba": 1}}, "canastas.samba"),
        ({"variant": "cuban", "cards": "2 2 ZZ"}, "cards"),
        ({"variant": "bolivia", "cards": 7}, "cards"),
        ({"variant": "mexicana", "cards": "2 2 2"}, "variant"),
    ],
)
def test_family_bad_input_names_the_field(client: FlaskClient, body: Json, field: str) -> None:
    path = "going-out" if "canastas" in body else "meld"
    response = client.post(f"/api/check/{path}", json=body)
    assert response.status_code in (400, 422)
    assert any(field in name for name in response.get_json()["fields"])


def test_family_pile_over_the_api(client: FlaskClient) -> None:
    cuban = api(
        client, "pickup", {"variant": "cuban", "top": "K", "hand": "K 2 5", "side_has_melded": True}
    )
    assert (cuban["allowed"], cuban["rule"]) == (False, "needs_natural_pair")
    pair = api(
        client, "pickup", {"variant": "uruguay", "top": "K", "hand": "K K", "side_has_melded": True}
    )
    assert pair["allowed"] is True
    samba = api(
        client,
        "pickup",
        {"variant": "samba", "top": "5H", "hand": "4H 6H 9", "side_has_melded": True},
    )
    assert (samba["allowed"], samba["rule"]) == (False, "sequence_from_pile")
    bolivia = api(client, "pickup", {"variant": "bolivia", "top": "JK", "hand": "K K"})
    assert (bolivia["allowed"], bolivia["rule"]) == (False, "wild_on_top")


def test_family_initial_meld_over_the_api(client: FlaskClient) -> None:
    body = api(
        client, "initial-meld", {"variant": "samba", "score": 0, "melds": ["JH QH KH", "A A 2"]}
    )
    assert (body["points"], body["meets"]) == (90, True)  # 30 + 40 + 20
    assert body["melds"][0]["rank"] is None and body["melds"][1]["rank"] == "A"


# --------------------------------------------------------------------------- properties

SUITS = list(Suit)


@st.composite
def runs(draw: st.DrawFn) -> tuple[Card, ...]:
    """A run of 3 to 7 cards of one suit in a row, in any order."""
    size = draw(st.integers(3, 7))
    low = draw(st.integers(0, len(RUN_RANKS) - size))
    suit = draw(st.sampled_from(SUITS))
    run = [Card(rank, suit) for rank in RUN_RANKS[low : low + size]]
    return tuple(draw(st.permutations(run)))


@SETTINGS
@given(runs())
def test_any_run_is_legal_in_samba_and_scores_its_cards(run: tuple[Card, ...]) -> None:
    verdict = check_meld(run, SAMBA)
    assert verdict.legal, verdict.reason
    assert verdict.points == card_points(run)
    assert verdict.canasta == (CanastaKind.SEQUENCE if len(run) == 7 else None)
    assert check_meld(run, BOLIVIA).legal
    for rules in (CLASSIC, CUBAN, URUGUAY, RAILROAD):
        assert not check_meld(run, rules).legal


@SETTINGS
@given(runs(), st.sampled_from(["2", "JK", "2H", "2S"]), st.data())
def test_any_run_with_a_wild_card_is_refused(
    run: tuple[Card, ...], wild: str, data: st.DataObject
) -> None:
    cards = list(run)
    if len(cards) == 7:
        cards.pop()
    cards.insert(data.draw(st.integers(0, len(cards))), parse_card(wild))
    for rules in (SAMBA, BOLIVIA):
        verdict = check_meld(cards, rules)
        assert not verdict.legal
        assert verdict.rule == "sequence_wild"


wild_cards = st.lists(st.sampled_from([Card(Rank.TWO), Card(Rank.JOKER)]), min_size=3, max_size=7)


@SETTINGS
@given(wild_cards)
def test_wild_melds_legal_in_bolivia_refused_in_samba(cards: list[Card]) -> None:
    bolivia = check_meld(cards, BOLIVIA)
    assert bolivia.legal and bolivia.rank == "wild"
    assert bolivia.points == card_points(cards)
    assert bolivia.canasta == (CanastaKind.WILD if len(cards) == 7 else None)
    assert check_meld(cards, CUBAN).legal and check_meld(cards, URUGUAY).legal
    assert not check_meld(cards, SAMBA).legal
    if len(cards) == 7:
        assert check_meld([*cards, Card(Rank.TWO)], BOLIVIA).rule == "meld_full"


@SETTINGS
@given(wild_cards.filter(lambda cards: len(cards) == 7))
def test_cuban_wild_canasta_kind_follows_its_cards(cards: list[Card]) -> None:
    jokers = sum(card.rank is Rank.JOKER for card in cards)
    expected = {0: CanastaKind.DEUCE, 4: CanastaKind.JOKER}.get(jokers, CanastaKind.WILD)
    assert check_meld(cards, CUBAN).canasta is expected


# --------------------------------------------------------------------------- pages


def labels(html: str) -> list[str]:
    """The steppers' labels of the going-out tool."""
    return re.findall(
        r'<label for="(?:natural|mixed|sequence|deuce|joker|wild|sevens)">([^<]+)</label>', html
    )


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("classic", ["Natural canastas", "Mixed canastas"]),
        ("samba", ["Natural canastas", "Mixed canastas", "Sambas"]),
        ("bolivia", ["Natural canastas", "Mixed canastas", "Escaleras", "Bolivias"]),
        (
            "cuban",
            [
                "Natural canastas",
                "Mixed canastas",
                "Seven-twos canastas",
                "Four-jokers canastas",
                "Wild canastas",
            ],
        ),
        ("uruguay", ["Natural canastas", "Mixed canastas", "Wild canastas"]),
        ("railroad", ["Natural canastas", "Mixed canastas", "Wild canastas", "Sevens canastas"]),
    ],
)
def test_going_out_tool_has_a_stepper_per_kind(
    client: FlaskClient, variant: str, expected: list[str]
) -> None:
    response = client.get(f"/check/going-out?variant={variant}")
    assert response.status_code == 200
    assert labels(response.get_data(as_text=True)) == expected


def test_rule_set_select_swaps_the_whole_form(client: FlaskClient) -> None:
    """The select asks for the form, not just the answer: the steppers follow it."""
    html = client.get("/check/going-out").get_data(as_text=True)
    select = re.search(r'<select id="variant"[^>]*>', html)
    assert select is not None
    assert 'hx-select="form.check-form"' in select.group(0)
    assert 'hx-target="closest form"' in select.group(0)
    assert 'hx-trigger="change consume"' in select.group(0)
    # What htmx gets back for Railroad carries its four steppers in the form it selects.
    page = client.get("/check/going-out?variant=railroad", headers={"HX-Request": "true"})
    form = re.search(r'<form [^>]*class="check-form".*?</form>', page.get_data(as_text=True), re.S)
    assert form is not None and len(labels(form.group(0))) == 4


def test_going_out_tool_answers_bolivia(client: FlaskClient) -> None:
    html = markup(
        client.get("/check/going-out?variant=bolivia&natural=2&left=1&before=y").get_data(
            as_text=True
        )
    )
    assert "escalera" in html and "answer-no" in html
    yes = client.get("/check/going-out?variant=bolivia&sequence=1&wild=1&left=1&before=y")
    assert "answer-yes" in markup(yes.get_data(as_text=True))


def test_meld_tool_explains_sequences_and_wild_melds(client: FlaskClient) -> None:
    samba = client.get("/check/meld?variant=samba").get_data(as_text=True)
    assert "A sequence: 3 to 7 cards" in samba and "Wild cards on their own" not in samba
    bolivia = client.get("/check/meld?variant=bolivia").get_data(as_text=True)
    assert (
        "A sequence" in bolivia and "escalera" in bolivia and "Wild cards on their own" in bolivia
    )
    classic = client.get("/check/meld?variant=classic").get_data(as_text=True)
    assert "A sequence:" not in classic and "Wild cards on their own" not in classic


def test_meld_tool_names_the_samba(client: FlaskClient) -> None:
    html = markup(
        client.get("/check/meld?variant=samba&cards=4H+5H+6H+7H+8H+9H+10H").get_data(as_text=True)
    )
    assert "answer-yes" in html and "a canasta (samba)" in html
    cuban = client.get("/check/meld?variant=cuban&cards=2+2+2+2+2+2+2").get_data(as_text=True)
    assert "seven-twos" in cuban


def test_pickup_tool_for_cuban_and_samba(client: FlaskClient) -> None:
    cuban = markup(
        client.get("/check/pickup?variant=cuban&top=K&hand=K+2&melded=y").get_data(as_text=True)
    )
    assert "always frozen" in cuban and "answer-no" in cuban and 'id="frozen"' not in cuban
    samba = markup(
        client.get("/check/pickup?variant=samba&top=5H&hand=4H+6H&melded=y").get_data(as_text=True)
    )
    assert "never starts a sequence" in samba and "answer-no" in samba


@pytest.mark.parametrize("variant", FAMILY)
@pytest.mark.parametrize("tool", ["meld", "initial-meld", "pickup", "going-out"])
def test_every_tool_page_serves_the_family(client: FlaskClient, variant: str, tool: str) -> None:
    response = client.get(f"/check/{tool}?variant={variant}")
    assert response.status_code == 200
    assert f'<option value="{variant}" selected>' in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "Going out needs one escalera."),
        ("mk", "За излегување треба ескалера."),  # noqa: RUF001
        ("ru", "Для выхода нужна эскалера."),
        ("sk", "Ísť von sa dá, len keď je medzi kanastami eskalera."),
    ],
)
def test_going_out_tool_names_the_one_kind_it_needs_as_one(
    client: FlaskClient, lang: str, sentence: str
) -> None:
    """Bolivia needs one kind among the canastas, the escalera: said as a sentence about
    one, not "at least one of these: escalera" (issue 40)."""
    html = client.get(
        "/check/going-out?variant=bolivia&natural=2&left=1&before=y",
        headers={"Accept-Language": lang},
    ).get_data(as_text=True)
    assert sentence in html
