"""The rule tools between hands: check a meld, count an initial meld, may we take the pile,
may I go out. Read-only, so plain GET forms: an answer has an address and needs no token."""

from __future__ import annotations

from typing import Any

from flask import render_template, request

from ..i18n import render_text
from ..rules import (
    VARIANTS,
    CanastaKind,
    CardError,
    RuleSet,
    apply_options,
    check_going_out,
    check_initial_meld,
    check_meld,
    check_pickup,
    parse_card,
    parse_cards,
    starts_sequence,
)
from ..rules.text import N_
from ..store.games import Sheet, load, sheet_of
from . import bp
from .rules import going_out as going_out_needs

#: The rank buttons of the card picker, and the notation each one types.
PICKER = (
    ("A", "A"),
    ("K", "K"),
    ("Q", "Q"),
    ("J", "J"),
    ("10", "10"),
    ("9", "9"),
    ("8", "8"),
    ("7", "7"),
    ("6", "6"),
    ("5", "5"),
    ("4", "4"),
    ("2", "2"),
    (N_("Joker"), "JK"),
    (N_("Red 3"), "3H"),
    (N_("Black 3"), "3S"),
)
MELD_FIELDS = 4


def _context() -> tuple[RuleSet, Sheet | None, dict[str, Any]]:
    """The rule set to answer under: the game's (``?game=``), or a chosen variant."""
    game = load(request.args.get("game", "")) if request.args.get("game") else None
    if game is not None:
        sheet = sheet_of(game)
        return sheet.rules, sheet, {"game": game.id}
    variant = request.args.get("variant", "classic")
    rules = VARIANTS.get(variant, VARIANTS["classic"])
    options = {
        "wilds_may_outnumber_naturals": request.args.get("wilds") == "y",
        "black_three_freezes": request.args.get("black3") == "y",
    }
    return apply_options(rules, options), None, {"variant": rules.id}


def _render(template: str, **context: Any) -> str:
    rules, sheet, carry = _context()
    return render_template(
        template,
        rules=rules,
        sheet=sheet,
        keep_awake=sheet is not None,
        carry=carry,
        picker=PICKER,
        variants=VARIANTS.values(),
        args=request.args,
        **context,
    )


@bp.get("/check")
def checks_index() -> str:
    """The four rule tools."""
    return _render("checks/index.html")


@bp.get("/check/meld")
def meld() -> str:
    """Is this meld legal, what is it worth, is it a canasta?"""
    rules, _, _ = _context()
    text = request.args.get("cards", "").strip()
    verdict, error = None, None
    if text:
        try:
            verdict = check_meld(parse_cards(text), rules, going_out=request.args.get("out") == "y")
        except CardError as card_error:
            error = render_text(card_error.text)
    return _render(
        "checks/meld.html", verdict=verdict, error=error, sequence_kind=CanastaKind.SEQUENCE
    )


@bp.get("/check/initial-meld")
def initial_meld() -> str:
    """Do these melds, and the pile's top card, reach the side's minimum?"""
    rules, sheet, _ = _context()
    side = request.args.get("side", type=int)
    side_name = None
    if sheet is not None and side is not None and 0 <= side < len(sheet.state.totals):
        total = sheet.state.totals[side]
        side_name = sheet.game.sides[side].name
    else:
        side = None
        total = request.args.get("total", default=0, type=int)
    texts = [request.args.get(f"meld{n}", "").strip() for n in range(1, MELD_FIELDS + 1)]
    top_text = request.args.get("top", "").strip()
    verdict, error = None, None
    if any(texts):
        try:
            melds = [parse_cards(text) for text in texts if text]
            top = parse_card(top_text) if top_text else None
            verdict = check_initial_meld(melds, rules, total=total, pile_top=top)
        except CardError as card_error:
            error = render_text(card_error.text)
    return _render(
        "checks/initial_meld.html",
        verdict=verdict,
        error=error,
        total=total,
        side=side,
        side_name=side_name,
        required=rules.meld_minimum(total),
        texts=texts,
        top_text=top_text,
    )


@bp.get("/check/pickup")
def pickup() -> str:
    """May this side take the discard pile?"""
    rules, _, _ = _context()
    top_text = request.args.get("top", "").strip()
    answer, error = None, None
    if top_text:
        try:
            top = parse_card(top_text)
            hand = parse_cards(request.args.get("hand", ""))
            melds = parse_cards(request.args.get("melds", ""))
            full = parse_cards(request.args.get("full", ""))
            answer = check_pickup(
                rules,
                top=top,
                frozen=request.args.get("frozen") == "y",
                side_has_melded=request.args.get("melded") == "y",
                natural_matches=sum(c.rank is top.rank and c.natural for c in hand),
                wild_cards=sum(c.wild for c in hand),
                side_melds=[c.rank for c in melds],
                full_melds=[c.rank for c in full],
                cards_in_hand=len(hand),
                pile_size=max(1, request.args.get("pile", default=2, type=int) or 1),
                sequence_in_hand=starts_sequence(top, hand),
            )
        except CardError as card_error:
            error = render_text(card_error.text)
    return _render("checks/pickup.html", pickup=answer, error=error)


@bp.get("/check/going-out")
def going_out() -> str:
    """May the player go out, and is it concealed?"""
    rules, _, _ = _context()
    verdict, error = None, None
    counts = {
        kind: max(0, request.args.get(kind.value, default=0, type=int) or 0)
        for kind in rules.canasta_kinds
    }
    if "left" in request.args:
        discard_text = request.args.get("discard", "").strip()
        try:
            verdict = check_going_out(
                rules,
                canastas=counts,
                cards_left=max(0, request.args.get("left", default=0, type=int) or 0),
                last_discard=parse_card(discard_text) if discard_text else None,
                melded_before=request.args.get("before") == "y",
            )
        except CardError as card_error:
            error = render_text(card_error.text)
    return _render(
        "checks/going_out.html",
        verdict=verdict,
        error=error,
        counts=counts,
        out_needs=going_out_needs,
    )
