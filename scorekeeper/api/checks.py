"""Rules checks over JSON (API.md "Rules checks"): meld, initial meld, pickup, going out.

Every check takes ``variant`` (default classic) and optional ``options`` (house rules), or
``game`` (a game's id: its rule set and house rules); cards use the notation of API.md.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from ..i18n import render_text
from ..rules import (
    VARIANTS,
    Card,
    CardError,
    MeldVerdict,
    OptionError,
    RuleSet,
    apply_options,
    check_going_out,
    check_initial_meld,
    check_meld,
    check_pickup,
    figure_name,
    parse_card,
    parse_cards,
    starts_sequence,
)
from ..rules.text import T
from ..store.changes import NO_GAME
from ..store.games import load, sheet_of
from . import BODY, ApiError, answers, bp, schemas, spec

#: What a check may answer.
ANSWERS = answers(200, *BODY, 404)
#: The going-out check's flags of what forbids going out (``RuleSet.going_out_blocked_by``).
BLOCKING = ("unfinished_aces", "unfinished_sevens", "unfinished_wild", "pot_missed")


def rules_and_sheet(body: schemas.Context) -> tuple[RuleSet, Any]:
    """The rule set a check is asked under, and the game's sheet when a game is named."""
    if body.game is not None:
        game = load(body.game)
        if game is None:
            raise ApiError(404, render_text(NO_GAME), {"game": "Unknown game."})
        sheet = sheet_of(game)
        return sheet.rules, sheet
    try:
        return apply_options(VARIANTS[body.variant], body.options or {}), None
    except OptionError as error:
        raise ApiError(
            422, render_text(error.text), {f"options.{error.option}": render_text(error.text)}
        ) from None


def _cards(text: str | list[str], path: str) -> tuple[Card, ...]:
    try:
        return parse_cards(text)
    except CardError as error:
        raise ApiError(422, render_text(error.text), {path: render_text(error.text)}) from None


def _card(text: str, path: str) -> Card:
    try:
        return parse_card(text)
    except CardError as error:
        raise ApiError(422, render_text(error.text), {path: render_text(error.text)}) from None


def meld_json(verdict: MeldVerdict) -> dict[str, Any]:
    return {
        "legal": verdict.legal,
        "rank": verdict.rank,
        "naturals": verdict.naturals,
        "wilds": verdict.wilds,
        "points": verdict.points,
        "canasta": verdict.canasta.value if verdict.canasta else None,
        "rule": verdict.rule,
        "reason": render_text(verdict.reason),
    }


@bp.post("/check/meld")
@spec.validate(resp=ANSWERS)
def check_meld_view(json: schemas.Meld) -> Response:
    """Is this a legal meld; its points; is it a canasta, and of which kind."""
    rules, _ = rules_and_sheet(json)
    cards = _cards(json.cards, "cards")
    verdict = check_meld(cards, rules, going_out=json.going_out, initial=json.initial)
    return jsonify(meld_json(verdict))


@bp.post("/check/initial-meld")
@spec.validate(resp=ANSWERS)
def check_initial_meld_view(json: schemas.InitialMeld) -> Response:
    """Do these melds (and the pile's top card) reach the side's initial-meld minimum?"""
    rules, sheet = rules_and_sheet(json)
    if sheet is not None and json.side is not None:
        if not 0 <= json.side < len(sheet.state.totals):
            raise ApiError(422, "No such side in this game.", {"side": "No such side."})
        total = sheet.state.totals[json.side]
    else:
        total = json.score
    groups = [_cards(meld, f"melds.{index}") for index, meld in enumerate(json.melds)]
    top = None if not json.pile_top else _card(json.pile_top, "pile_top")
    deal = json.deal or (sheet.state.next_deal if sheet is not None else 1)
    verdict = check_initial_meld(groups, rules, total=total, pile_top=top, deal=deal)
    return jsonify(
        {
            "required": verdict.required,
            "points": verdict.points,
            "meets": verdict.meets,
            "reason": render_text(verdict.reason),
            "melds": [meld_json(meld) for meld in verdict.melds],
        }
    )


@bp.post("/check/pickup")
@spec.validate(resp=ANSWERS)
def check_pickup_view(json: schemas.Pickup) -> Response:
    """May this side take the discard pile?

    ``top`` (card), ``frozen``, ``side_has_melded``, ``pile_size``; the hand either as
    ``hand`` (cards) or as counts ``natural_matches``, ``wild_cards``, ``cards_in_hand``;
    ``side_melds`` and ``full_melds`` (ranks, e.g. ``["K", "7"]``). Given as cards, the
    hand also says whether it could start a sequence with the top card, which never takes
    the pile (Samba, Bolivia).
    """
    rules, _ = rules_and_sheet(json)
    top = _card(json.top, "top")
    if json.hand is not None:
        hand = _cards(json.hand, "hand")
        natural_matches = sum(card.rank is top.rank and card.natural for card in hand)
        wild_cards = sum(card.wild for card in hand)
        cards_in_hand = len(hand)
        sequence_in_hand = starts_sequence(top, hand)
    else:
        natural_matches = json.natural_matches
        wild_cards = json.wild_cards
        cards_in_hand = json.cards_in_hand
        sequence_in_hand = False
    answer = check_pickup(
        rules,
        top=top,
        frozen=json.frozen,
        side_has_melded=json.side_has_melded,
        natural_matches=natural_matches,
        wild_cards=wild_cards,
        side_melds=[c.rank for c in _cards(json.side_melds, "side_melds")],
        full_melds=[c.rank for c in _cards(json.full_melds, "full_melds")],
        cards_in_hand=cards_in_hand,
        pile_size=json.pile_size,
        sequence_in_hand=sequence_in_hand,
    )
    return jsonify(
        {"allowed": answer.allowed, "rule": answer.rule, "reason": render_text(answer.reason)}
    )


@bp.post("/check/going-out")
@spec.validate(resp=ANSWERS)
def check_going_out_view(json: schemas.GoingOut) -> Response:
    """May the player go out, and would it be concealed?

    ``canastas`` by kind (``{"natural": 1, "mixed": 0}``; the family's ``"sequence"``,
    ``"deuce"``, ``"joker"``, ``"wild"`` where the rule set scores them), ``cards_left``
    (cards in hand after melding, at most the discard), ``last_discard`` (card or null),
    ``melded_before`` (the player had melded in an earlier turn); where the rule set
    forbids going out with them, ``unfinished_aces``, ``unfinished_sevens``,
    ``unfinished_wild`` (Modern American) and ``pot_missed`` (Burraco).
    """
    rules, _ = rules_and_sheet(json)
    for kind, count in json.canastas.items():
        if count and kind not in rules.canasta_bonuses:
            # A kind the rule set never scores cannot be on the side's table.
            text = render_text(
                T(
                    "%(rules)s has no %(kind)s canastas.",
                    rules=T(rules.name),
                    kind=T(rules.canasta_name(kind).word),
                )
            )
            raise ApiError(422, text, {f"canastas.{kind.value}": text})
    blocked = [figure for figure in BLOCKING if getattr(json, figure)]
    for figure in blocked:
        if figure not in rules.going_out_blocked_by:
            text = render_text(
                T(
                    "%(rules)s does not count this: %(figure)s.",
                    rules=T(rules.name),
                    figure=T(figure_name(rules, figure)),
                )
            )
            raise ApiError(422, text, {figure: text})
    discard = json.last_discard
    verdict = check_going_out(
        rules,
        canastas=json.canastas,
        cards_left=json.cards_left,
        last_discard=None if not discard else _card(discard, "last_discard"),
        melded_before=json.melded_before,
        blocked=blocked,
    )
    return jsonify(
        {
            "allowed": verdict.allowed,
            "concealed": verdict.concealed,
            "rule": verdict.rule,
            "reason": render_text(verdict.reason),
        }
    )
