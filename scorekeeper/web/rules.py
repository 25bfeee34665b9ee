"""The rules pages: each variant's numbers, and the rules a game is played by."""

from __future__ import annotations

from flask import abort, render_template, request

from ..rules import VARIANTS, CanastaKind
from ..rules.text import N_
from ..rules.variants import JOKER_POINTS
from ..store.games import rules_for, rules_of, sheet_of
from . import bp
from .answers import game_or_404
from .house import difference_lines, share_path

#: Card values (RULES.md section 1), as the rules page lists them.
CARD_VALUES = (
    (N_("Joker"), JOKER_POINTS),
    (N_("Two (wild)"), 20),
    (N_("Ace"), 20),
    ("K Q J 10 9 8", 10),
    ("7 6 5 4", 5),
    (N_("Black three"), 5),
)

#: What each kind of canasta is made of.
CANASTA_MAKEUP = {
    CanastaKind.NATURAL: N_("7 or more cards of one rank, no wild card"),
    CanastaKind.MIXED: N_("7 or more cards of one rank, at least 2 natural, at most 3 wild"),
    CanastaKind.WILD: N_("7 wild cards (twos and jokers)"),
    CanastaKind.SEVENS: N_("seven 7s, no wild card"),
}


@bp.get("/rules")
def rules_index() -> str:
    """Every rule set the app knows."""
    return render_template("rules/index.html", variants=VARIANTS.values())


@bp.get("/rules/<variant>")
def rules(variant: str) -> str:
    """One rule set's card values, bonuses, minimums and going-out requirement."""
    if variant not in VARIANTS:
        abort(404, "There is no such rule set.")
    base = VARIANTS[variant]
    players = request.args.get("players", type=int)
    ruleset = base
    if base.sides_range and players and base.sides_range[0] <= players <= base.sides_range[1]:
        ruleset = base.with_sides(players)
    return render_template(
        "rules/show.html", rules=ruleset, game=None, cards=CARD_VALUES, makeup=CANASTA_MAKEUP
    )


@bp.get("/games/<game_id>/rules")
def game_rules(game_id: str) -> str:
    """The rules this game is played by: its variant with the table's house rules, where
    they differ from the book, and the link that starts a game with the same rules."""
    game = game_or_404(game_id)
    rules = rules_for(game)
    published = rules_of(game.variant, len(game.sides), None)
    return render_template(
        "rules/show.html",
        rules=rules,
        published=published,
        house=difference_lines(rules, published),
        share_rules=share_path(rules, published),
        game=game,
        sheet=sheet_of(game),
        keep_awake=True,
        cards=CARD_VALUES,
        makeup=CANASTA_MAKEUP,
    )
