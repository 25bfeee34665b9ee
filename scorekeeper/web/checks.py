"""The rule tools between hands: check a meld, count an initial meld, may we take the pile,
may I go out. Read-only, so plain GET forms: an answer has an address and needs no token."""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask_babel import gettext as _

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
    figure_name,
    parse_card,
    parse_cards,
    starts_sequence,
)
from ..rules.limits import MAX_CANASTAS, MAX_COUNT, MAX_DEALS, MAX_START
from ..rules.melds import has_minimum
from ..rules.text import N_
from ..store.games import Sheet, load, sheet_of
from . import bp
from .figures import read_arg
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


def _named(label: str, problem: str) -> str:
    """A rule tool's message of a figure it cannot use, naming the figure ("" for none)."""
    return _("%(figure)s: %(problem)s", figure=label, problem=problem) if problem else ""


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
    rules = _context()[0]
    text = request.args.get("cards", "").strip()
    verdict, error = None, None
    if text:
        try:
            verdict = check_meld(
                parse_cards(text),
                rules,
                going_out=request.args.get("out") == "y",
                initial=request.args.get("initial") == "y",
            )
        except CardError as card_error:
            error = render_text(card_error.text)
    return _render(
        "checks/meld.html",
        verdict=verdict,
        error=error,
        sequence_kind=CanastaKind.SEQUENCE,
        # Modern American's sevens and aces (RULES.md section 13), in the picker's order.
        natural_only=[
            token for label, token in PICKER if token in {r.value for r in rules.natural_only_ranks}
        ],
        initial_wild={rank.value for rank in rules.initial_wild_ranks},
        # Black threes meld when going out, unless they are laid down at once (American)
        # or are cards like any other (Burraco).
        black_threes_meld=rules.threes_laid and "black_threes" not in rules.threes_laid,
    )


@bp.get("/check/initial-meld")
def initial_meld() -> str:
    """Do these melds, and the pile's top card, reach the side's minimum?"""
    rules, sheet = _context()[:2]
    side = request.args.get("side", type=int)
    side_name, total_error = None, ""
    if sheet is not None and side is not None and 0 <= side < len(sheet.state.totals):
        total = sheet.state.totals[side]
        side_name = sheet.game.sides[side].name
    else:
        side = None
        total, total_error = read_arg(
            request.args.get("total"), default=0, minimum=-MAX_START, maximum=MAX_START
        )
    # Where the minimum goes by deal (Hand and Foot), the deal's number decides it.
    deal, deal_error = read_arg(
        request.args.get("deal"),
        default=sheet.state.next_deal if sheet is not None else 1,
        minimum=1,
        maximum=MAX_DEALS,
    )
    texts = [request.args.get(f"meld{n}", "").strip() for n in range(1, MELD_FIELDS + 1)]
    top_text = request.args.get("top", "").strip()
    verdict, error = None, None
    if any(texts) and not total_error and not deal_error:
        try:
            melds = [parse_cards(text) for text in texts if text]
            top = parse_card(top_text) if top_text else None
            verdict = check_initial_meld(melds, rules, total=total, pile_top=top, deal=deal)
        except CardError as card_error:
            error = render_text(card_error.text)
    return _render(
        "checks/initial_meld.html",
        verdict=verdict,
        error=error,
        total=total,
        total_text=request.args.get("total", "0"),
        total_error=total_error,
        side=side,
        side_name=side_name,
        deal=deal,
        deal_text=request.args.get("deal", str(deal)),
        deal_error=deal_error,
        has_minimum=has_minimum(rules),
        required=rules.meld_minimum(total, deal),
        texts=texts,
        top_text=top_text,
    )


@bp.get("/check/pickup")
def pickup() -> str:
    """May this side take the discard pile?"""
    rules = _context()[0]
    top_text = request.args.get("top", "").strip()
    pile, pile_error = read_arg(request.args.get("pile"), default=2, minimum=1, maximum=MAX_COUNT)
    answer, error = None, _named(_("Cards in the pile"), pile_error)
    if top_text and not error:
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
                pile_size=pile,
                sequence_in_hand=starts_sequence(top, hand),
            )
        except CardError as card_error:
            error = render_text(card_error.text)
    return _render("checks/pickup.html", pickup=answer, error=error)


@bp.get("/check/going-out")
def going_out() -> str:
    """May the player go out, and is it concealed?"""
    rules = _context()[0]
    verdict, error = None, ""
    counts = {}
    for kind in rules.canasta_kinds:
        counts[kind], problem = read_arg(
            request.args.get(kind.value), default=0, minimum=0, maximum=MAX_CANASTAS
        )
        error = error or _named(_(rules.canasta_name(kind).label), problem)
    left, problem = read_arg(request.args.get("left"), default=0, minimum=0, maximum=MAX_COUNT)
    error = error or _named(_("Cards left in the hand after melding"), problem)
    blocked = [f for f in rules.going_out_blocked_by if request.args.get(f) == "y"]
    if "left" in request.args and not error:
        discard_text = request.args.get("discard", "").strip()
        try:
            verdict = check_going_out(
                rules,
                canastas=counts,
                cards_left=left,
                last_discard=parse_card(discard_text) if discard_text else None,
                melded_before=request.args.get("before") == "y",
                blocked=blocked,
            )
        except CardError as card_error:
            error = render_text(card_error.text)
    return _render(
        "checks/going_out.html",
        verdict=verdict,
        error=error,
        counts=counts,
        out_needs=going_out_needs,
        blocking=[(figure, _(figure_name(rules, figure))) for figure in rules.going_out_blocked_by],
    )
