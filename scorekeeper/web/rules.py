"""The rules pages: each variant's numbers, and the rules a game is played by."""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, render_template, request
from flask_babel import gettext as _
from flask_babel import ngettext

from ..i18n import number, signed
from ..rules import VARIANTS, CanastaKind, RuleSet
from ..rules.kinds import CANASTA_SIZE, WILD_KINDS
from ..rules.melds import has_minimum
from ..rules.text import N_
from ..store.games import rules_for, rules_of, sheet_of
from . import bp
from .answers import game_or_404
from .house import difference_lines, share_path
from .rule_words import (
    card_rows,
    game_end,
    going_out_extra,
    initial_meld_facts,
    minimums_by_deal,
    penalty_rows,
    special_hand_rows,
    swing_rows,
    table_facts,
    threes_rows,
)

#: What each kind of canasta is made of (RULES.md sections 2, 5 and 10). ``%(wilds)s`` is
#: the rule set's most wild cards in a meld of one rank.
CANASTA_MAKEUP = {
    CanastaKind.NATURAL: N_("7 or more cards of one rank, no wild card"),
    CanastaKind.MIXED: N_(
        "7 or more cards of one rank, at least 2 natural, at most %(wilds)s wild"
    ),
    CanastaKind.SEQUENCE: N_("7 cards of one suit in a row (from 4 up to A), no wild card"),
    CanastaKind.DEUCE: N_("7 twos"),
    CanastaKind.JOKER: N_("4 jokers and 3 twos"),
    CanastaKind.WILD: N_("7 wild cards (twos and jokers)"),
    CanastaKind.SEVENS: N_("seven 7s, no wild card"),
    CanastaKind.ACES: N_("seven natural aces"),
    CanastaKind.SEMI_NATURAL: N_("a clean run of 7 or more with a wild card at one end"),
}
#: Where a canasta is seven cards and takes no more (Modern American, Hand and Foot).
SEVEN_MAKEUP = {
    CanastaKind.NATURAL: N_("7 cards of one rank, no wild card"),
    CanastaKind.MIXED: N_(
        "7 cards of one rank, at least %(naturals)s natural, at most %(wilds)s wild"
    ),
}
#: Where runs make canastas of these kinds too (Burraco's burracos, RULES.md section 15).
RUN_MAKEUP = {
    CanastaKind.NATURAL: N_("7 or more cards of one rank or of one suit in a row, no wild card"),
    CanastaKind.MIXED: N_(
        "7 or more cards of one rank or of one suit in a row, with %(wilds)s wild card"
    ),
}
#: A wild canasta beside the kinds of wild cards scored apart (Cuban's).
OTHER_WILD_MAKEUP = N_("any other 7 wild cards")
#: One canasta of a kind the rule set gives no name of its own, as a table heading.
CANASTA_TITLES = {
    CanastaKind.NATURAL: N_("Natural canasta"),
    CanastaKind.MIXED: N_("Mixed canasta"),
    CanastaKind.SEQUENCE: N_("Sequence canasta"),
    CanastaKind.DEUCE: N_("Seven-twos canasta"),
    CanastaKind.JOKER: N_("Four-jokers canasta"),
    CanastaKind.WILD: N_("Wild canasta"),
    CanastaKind.SEVENS: N_("Sevens canasta"),
    CanastaKind.ACES: N_("Aces canasta"),
    CanastaKind.SEMI_NATURAL: N_("Semi-natural canasta"),
}


@dataclass(frozen=True)
class CanastaRow:
    """A kind of canasta on the rules page: its name, what it is made of, its bonus."""

    title: str
    makeup: str
    bonus: int


def canasta_rows(rules: RuleSet) -> list[CanastaRow]:
    """The rule set's kinds of canasta under its own names ("Samba"), in sheet order."""
    rows = []
    apart = any(kind in WILD_KINDS and kind is not CanastaKind.WILD for kind in rules.canasta_kinds)
    for kind in rules.canasta_kinds:
        if kind in rules.canasta_names:
            title = _(rules.canasta_names[kind].word).capitalize()
        else:
            title = _(CANASTA_TITLES[kind])
        makeup = OTHER_WILD_MAKEUP if kind is CanastaKind.WILD and apart else CANASTA_MAKEUP[kind]
        wilds = rules.max_wilds
        if rules.sequence_ranks and kind in RUN_MAKEUP:
            makeup, wilds = RUN_MAKEUP[kind], rules.sequence_wilds
        elif rules.max_meld == CANASTA_SIZE and kind in SEVEN_MAKEUP:
            makeup = SEVEN_MAKEUP[kind]
        text = _(makeup, wilds=wilds, naturals=CANASTA_SIZE - wilds)
        rows.append(CanastaRow(title, text, rules.canasta_bonuses[kind]))
    return rows


def red_three_rows(rules: RuleSet) -> list[tuple[str, int]]:
    """What red threes score: each, and the counts with a total of their own (Cuban's
    whole table: 100, 300, 500, 1000, where "each" says nothing)."""
    if "red_threes" not in rules.threes_laid:
        return []  # Burraco: threes are cards like any other
    per_colour = threes_rows(rules)
    if per_colour is not None:
        return per_colour  # Modern American: each colour on its own
    rows = [
        (ngettext("%(num)d red three to one side", "%(num)d red threes to one side", count), total)
        for count, total in sorted(rules.red_three_totals.items())
    ]
    if set(rules.red_three_totals) >= set(range(1, rules.max_red_threes + 1)):
        return rows
    return [(_("Each red three"), rules.red_three_bonus), *rows]


def red_three_sign(rules: RuleSet) -> str:
    """When red threes count plus, and when minus (the swing's table says it for Modern
    American; Burraco has none)."""
    if rules.swing is not None or "red_threes" not in rules.threes_laid:
        return ""
    need = rules.red_threes_plus_with_canastas
    if "red_threes_in_hand" in rules.penalties:
        return _(
            "Red threes laid down count plus; those left in a hand or foot when the deal "
            "ends count minus."
        )
    if need is None:
        return _("Red threes never count as a minus; only those laid down score.")
    if need == 0:
        return _("A side that melded nothing scores its red threes as a minus.")
    return ngettext(
        "Red threes count plus for a side that has melded at least %(num)d canasta; "
        "for any other side they count minus.",
        "Red threes count plus for a side that has melded at least %(num)d canastas; "
        "for any other side they count minus.",
        need,
    )


def black_three_rows(rules: RuleSet) -> list[tuple[str, str, str]]:
    """Black threes scored apart (RULES.md section 10): a heading, a hint, the points."""
    rows = []
    if rules.black_three_penalty is not None:
        rows.append(
            (
                _("Each black three left in a hand when someone goes out"),
                _("in place of its card points; those melded in going out count as cards"),
                number(-rules.black_three_penalty),
            )
        )
    if rules.black_three_taken_bonus is not None:
        rows.append(
            (
                _("Each black three found in a pile taken"),
                _("set aside by the side that took the pile"),
                signed(rules.black_three_taken_bonus),
            )
        )
        for count, total in sorted(rules.black_threes_taken_totals.items()):
            rows.append(
                (
                    ngettext(
                        "%(num)d black three taken by one side",
                        "%(num)d black threes taken by one side",
                        count,
                    ),
                    "",
                    signed(total),
                )
            )
    return rows


def going_out(rules: RuleSet) -> str:
    """What going out needs: canastas, and kinds among them (Bolivia: an escalera;
    Railroad: one of each kind)."""
    words = [_(rules.canasta_name(kind).word) for kind in rules.canasta_kinds]
    needed = [
        _(rules.canasta_name(kind).word) for kind in rules.canasta_kinds if kind in rules.contract
    ]
    if any(count > 1 for count in rules.contract.values()):
        # Hand and Foot's contract: two clean and two dirty books.
        contract = ", ".join(
            _("%(count)s × %(kind)s", count=count, kind=_(rules.canasta_name(kind).word))
            for kind, count in rules.contract.items()
        )
        return _("Going out needs the contract: %(contract)s.", contract=contract)
    if needed and len(needed) == len(words):
        parts = [_("Going out needs one canasta of each kind: %(kinds)s.", kinds=", ".join(words))]
        if rules.going_out_discards:
            parts.append(_("The last card is discarded, and it may not be a seven."))
        return " ".join(parts)
    if needed:
        return ngettext(
            "Going out needs at least %(num)d canasta for the side, among them: %(kinds)s.",
            "Going out needs at least %(num)d canastas for the side, among them: %(kinds)s.",
            rules.canastas_to_go_out,
            kinds=", ".join(needed),
        )
    if rules.canastas_to_go_out == 1:
        return _("Going out needs at least one canasta for the side.")
    return ngettext(
        "Going out needs at least %(num)d canasta for the side.",
        "Going out needs at least %(num)d canastas for the side.",
        rules.canastas_to_go_out,
    )


def meld_facts(rules: RuleSet) -> list[str]:
    """Which melds are legal (RULES.md sections 2, 5 and 10.5), and the pile."""
    facts = [
        _(
            "A meld of one rank needs at least 2 natural cards and holds at most %(wilds)s "
            "wild cards.",
            wilds=rules.max_wilds,
        )
        if rules.max_wilds != 1
        else _("A meld of one rank needs at least 2 natural cards and holds at most one wild card.")
    ]
    if rules.sequence_ranks:
        # Burraco's runs: the ace low or high, a wild card in them too (RULES.md 15).
        facts.append(
            ngettext(
                "Melds in sequence too: 3 or more cards of one suit in a row, the ace low "
                "(A 2 3) or high (Q K A), a two of the suit as itself, at most %(num)d wild "
                "card; seven or more make a canasta.",
                "Melds in sequence too: 3 or more cards of one suit in a row, the ace low "
                "(A 2 3) or high (Q K A), a two of the suit as itself, at most %(num)d wild "
                "cards; seven or more make a canasta.",
                rules.sequence_wilds,
            )
        )
    elif rules.sequences:
        word = _(rules.canasta_name(CanastaKind.SEQUENCE).word)
        facts.append(
            _(
                "Melds in sequence too: 3 to 7 cards of one suit in a row (A high, 4 low), "
                "no wild card and no three; seven in a row make a canasta, the %(word)s.",
                word=word,
            )
        )
    else:
        facts.append(_("No melds in sequence."))
    for rank in sorted(rules.natural_only_ranks, key=lambda rank: rank.value):
        if rank in rules.initial_wild_ranks:
            facts.append(
                _(
                    "A meld of rank %(rank)s takes wild cards only in the initial meld, and is "
                    "then a mixed canasta.",
                    rank=rank.value,
                )
            )
        else:
            facts.append(_("A meld of rank %(rank)s never takes a wild card.", rank=rank.value))
    if not rules.threes_laid:
        facts.append(_("Threes are cards like any other: they meld, in groups and in sequence."))
    elif "black_threes" in rules.threes_laid:
        facts.append(_("Threes of both colours are laid down at once, never melded."))
    if rules.wild_melds:
        facts.append(_("Wild cards may be melded alone: 3 or more twos and jokers, in any mix."))
    elif CanastaKind.WILD not in rules.canasta_bonuses:
        facts.append(_("Wild cards are never melded alone."))
    if rules.max_meld:
        facts.append(
            ngettext(
                "A meld of %(num)d card is a canasta and takes no more cards.",
                "A meld of %(num)d cards is a canasta and takes no more cards.",
                rules.max_meld,
            )
        )
    if rules.pile_taken_freely:
        facts.append(
            _(
                "The discard pile is taken whole at any turn, whatever lies on top: no pair "
                "or meld of its top card is needed."
            )
        )
    if rules.pile_always_frozen:
        facts.append(
            _(
                "The discard pile is always frozen: it is taken only with a natural pair "
                "of its top card."
            )
        )
    return facts


def _context(rules: RuleSet) -> dict[str, object]:
    """What the rules page says of a rule set, worded here (the template lays it out)."""
    return {
        "rules": rules,
        "cards": card_rows(rules),
        "game_end": game_end(rules),
        "table_facts": table_facts(rules),
        "swing": swing_rows(rules),
        "penalties": penalty_rows(rules),
        "special_hands": special_hand_rows(rules),
        "has_minimum": has_minimum(rules),
        "minimums_by_deal": minimums_by_deal(rules),
        "initial_meld": initial_meld_facts(rules),
        "going_out_extra": going_out_extra(rules),
        "canastas": canasta_rows(rules),
        "red_threes": red_three_rows(rules),
        "red_three_sign": red_three_sign(rules),
        "black_threes": black_three_rows(rules),
        "going_out": going_out(rules),
        "melds": meld_facts(rules),
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
    return render_template("rules/show.html", game=None, **_context(ruleset))


@bp.get("/games/<game_id>/rules")
def game_rules(game_id: str) -> str:
    """The rules this game is played by: its variant with the table's house rules, where
    they differ from the book, and the link that starts a game with the same rules."""
    game = game_or_404(game_id)
    rules = rules_for(game)
    published = rules_of(game.variant, len(game.sides), None)
    return render_template(
        "rules/show.html",
        published=published,
        house=difference_lines(rules, published),
        share_rules=share_path(rules, published),
        game=game,
        sheet=sheet_of(game),
        keep_awake=True,
        **_context(rules),
    )
