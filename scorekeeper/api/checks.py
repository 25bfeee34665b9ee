"""Rules checks over JSON (API.md "Rules checks"): meld, initial meld, pickup, going out.

Every check takes ``variant`` (default classic) and optional ``options`` (house rules), or
``game`` (a game's id: its rule set and house rules); cards use the notation of API.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Response, jsonify

from ..i18n import render_text
from ..rules import (
    VARIANTS,
    CanastaKind,
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
    parse_card,
    parse_cards,
)
from ..store.games import load, sheet_of
from . import ApiError, bp, integer, json_body, reject_unknown

_CONTEXT = {"variant", "options", "game"}


def rules_and_sheet(body: Mapping[str, Any]) -> tuple[RuleSet, Any]:
    """The rule set a check is asked under, and the game's sheet when a game is named."""
    if body.get("game") is not None:
        game = load(str(body["game"]))
        if game is None:
            raise ApiError(404, "There is no such game.", {"game": "Unknown game."})
        sheet = sheet_of(game)
        return sheet.rules, sheet
    variant = body.get("variant", "classic")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ApiError(
            422, f"Unknown rule set; known: {', '.join(VARIANTS)}.", {"variant": "Unknown."}
        )
    options = body.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ApiError(422, "options must be an object.", {"options": "Must be an object."})
    try:
        return apply_options(VARIANTS[variant], options), None
    except OptionError as error:
        raise ApiError(
            422, render_text(error.text), {f"options.{error.option}": render_text(error.text)}
        ) from None


def _cards(value: Any, path: str) -> tuple[Card, ...]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        text: str | list[str] = value
    elif isinstance(value, str):
        text = value
    else:
        raise ApiError(422, f'{path} must be cards, such as "9 9 2".', {path: "Must be cards."})
    try:
        return parse_cards(text)
    except CardError as error:
        raise ApiError(422, render_text(error.text), {path: render_text(error.text)}) from None


def _card(value: Any, path: str) -> Card:
    if not isinstance(value, str):
        raise ApiError(422, f'{path} must be one card, such as "K".', {path: "One card."})
    try:
        return parse_card(value)
    except CardError as error:
        raise ApiError(422, render_text(error.text), {path: render_text(error.text)}) from None


def _flag(body: Mapping[str, Any], name: str) -> bool:
    value = body.get(name, False)
    if not isinstance(value, bool):
        raise ApiError(422, f"{name} must be true or false.", {name: "true or false."})
    return value


def _count(body: Mapping[str, Any], name: str, default: int = 0) -> int:
    value = integer(body.get(name, default), name)
    if not 0 <= value <= 1000:
        raise ApiError(422, f"{name} must be from 0 to 1000.", {name: "From 0 to 1000."})
    return value


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
def check_meld_view() -> Response:
    """Is this a legal meld; its points; is it a canasta, and of which kind."""
    body = json_body()
    reject_unknown(body, {*_CONTEXT, "cards", "going_out"})
    rules, _ = rules_and_sheet(body)
    cards = _cards(body.get("cards"), "cards")
    return jsonify(meld_json(check_meld(cards, rules, going_out=_flag(body, "going_out"))))


@bp.post("/check/initial-meld")
def check_initial_meld_view() -> Response:
    """Do these melds (and the pile's top card) reach the side's initial-meld minimum?"""
    body = json_body()
    reject_unknown(body, {*_CONTEXT, "score", "side", "melds", "pile_top"})
    rules, sheet = rules_and_sheet(body)
    if sheet is not None and "side" in body:
        side = integer(body["side"], "side")
        if not 0 <= side < len(sheet.state.totals):
            raise ApiError(422, "No such side in this game.", {"side": "No such side."})
        total = sheet.state.totals[side]
    else:
        total = integer(body.get("score", 0), "score")
    melds = body.get("melds")
    if not isinstance(melds, list) or len(melds) > 20:
        raise ApiError(422, "melds must be a list of melds.", {"melds": "A list of melds."})
    groups = [_cards(meld, f"melds.{index}") for index, meld in enumerate(melds)]
    top = None if body.get("pile_top") in (None, "") else _card(body["pile_top"], "pile_top")
    verdict = check_initial_meld(groups, rules, total=total, pile_top=top)
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
def check_pickup_view() -> Response:
    """May this side take the discard pile?

    ``top`` (card), ``frozen``, ``side_has_melded``, ``pile_size``; the hand either as
    ``hand`` (cards) or as counts ``natural_matches``, ``wild_cards``, ``cards_in_hand``;
    ``side_melds`` and ``full_melds`` (ranks, e.g. ``["K", "7"]``).
    """
    body = json_body()
    reject_unknown(
        body,
        {
            *_CONTEXT,
            "top",
            "frozen",
            "side_has_melded",
            "hand",
            "natural_matches",
            "wild_cards",
            "cards_in_hand",
            "side_melds",
            "full_melds",
            "pile_size",
        },
    )
    rules, _ = rules_and_sheet(body)
    top = _card(body.get("top"), "top")
    if "hand" in body:
        hand = _cards(body["hand"], "hand")
        natural_matches = sum(card.rank is top.rank and card.natural for card in hand)
        wild_cards = sum(card.wild for card in hand)
        cards_in_hand = len(hand)
    else:
        natural_matches = _count(body, "natural_matches")
        wild_cards = _count(body, "wild_cards")
        cards_in_hand = _count(body, "cards_in_hand", 2)
    answer = check_pickup(
        rules,
        top=top,
        frozen=_flag(body, "frozen"),
        side_has_melded=_flag(body, "side_has_melded"),
        natural_matches=natural_matches,
        wild_cards=wild_cards,
        side_melds=[c.rank for c in _cards(body.get("side_melds", []), "side_melds")],
        full_melds=[c.rank for c in _cards(body.get("full_melds", []), "full_melds")],
        cards_in_hand=cards_in_hand,
        pile_size=_count(body, "pile_size", 2),
    )
    return jsonify(
        {"allowed": answer.allowed, "rule": answer.rule, "reason": render_text(answer.reason)}
    )


@bp.post("/check/going-out")
def check_going_out_view() -> Response:
    """May the player go out, and would it be concealed?

    ``canastas`` by kind (``{"natural": 1, "mixed": 0}``), ``cards_left`` (cards in hand
    after melding, at most the discard), ``last_discard`` (card or null),
    ``melded_before`` (the player had melded in an earlier turn).
    """
    body = json_body()
    reject_unknown(body, {*_CONTEXT, "canastas", "cards_left", "last_discard", "melded_before"})
    rules, _ = rules_and_sheet(body)
    raw = body.get("canastas", {})
    if not isinstance(raw, dict):
        raise ApiError(422, "canastas must be an object by kind.", {"canastas": "An object."})
    canastas: dict[CanastaKind, int] = {}
    for name in raw:
        try:
            kind = CanastaKind(name)
        except ValueError:
            raise ApiError(
                422, f"No canasta kind {name!r}.", {f"canastas.{name}": "Unknown kind."}
            ) from None
        canastas[kind] = _count(raw, name)
    discard = body.get("last_discard")
    verdict = check_going_out(
        rules,
        canastas=canastas,
        cards_left=_count(body, "cards_left"),
        last_discard=None if discard in (None, "") else _card(discard, "last_discard"),
        melded_before=_flag(body, "melded_before"),
    )
    return jsonify(
        {
            "allowed": verdict.allowed,
            "concealed": verdict.concealed,
            "rule": verdict.rule,
            "reason": render_text(verdict.reason),
        }
    )
