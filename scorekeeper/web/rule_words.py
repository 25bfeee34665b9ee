"""The rules page's words for what the rule sets of RULES.md sections 13 to 15 brought: card
values by rule set, the swing, threes per colour, penalties, special hands, the minimum by
deal or none, the game's end by deals, the contract. Each is worded from the rule set's data
(``web/rules.py`` has the older sections; the template lays both out)."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext

from ..i18n import number
from ..rules import RuleSet, figure_name
from ..rules.cards import Rank
from ..rules.kinds import SPECIAL_HAND_NAMES
from ..rules.melds import has_minimum
from ..rules.text import N_

#: How each penalty is counted, beyond its figure's name (RULES.md sections 13 to 15).
PENALTY_HINTS = {
    "unfinished_aces": N_("a meld of natural aces left short of a canasta"),
    "unfinished_sevens": N_("a meld of sevens left short of a canasta"),
    "unfinished_wild": N_("a meld of wild cards left short of a canasta"),
    "aces_or_sevens_held": N_(
        "each player left holding three or more aces, or three or more sevens; per player "
        "and per rank, besides the cards' points in hand"
    ),
    "red_threes_in_hand": N_("each red three left in a hand or foot when the deal ends"),
    "pot_missed": N_("a side that never took its pot"),
}


def card_rows(rules: RuleSet) -> list[tuple[str, str, bool]]:
    """What each card is worth under ``rules`` (Burraco's own values, section 15): a name,
    its points (or what the card is when it has no points of its own), and whether that
    is a number."""
    value = rules.card_value
    ordinary_threes = not rules.threes_laid
    rows = [
        (_("Joker"), number(value(Rank.JOKER)), True),
        (_("Two (wild)"), number(value(Rank.TWO)), True),
        (_("Ace"), number(value(Rank.ACE)), True),
        ("K Q J 10 9 8", number(value(Rank.KING)), True),
        ("7 6 5 4 3" if ordinary_threes else "7 6 5 4", number(value(Rank.SEVEN)), True),
    ]
    if ordinary_threes:
        return rows
    if "black_threes" in rules.threes_laid:
        text = _(
            "bonus cards, laid down at once; a three left in hand: %(points)s",
            points=number(value(Rank.THREE)),
        )
        return [*rows, (_("Red and black threes"), text, False)]
    return [
        *rows,
        (_("Black three"), number(value(Rank.THREE)), True),
        (_("Red three"), _("a bonus card, laid down at once"), False),
    ]


def threes_rows(rules: RuleSet) -> list[tuple[str, int]] | None:
    """Threes scored per colour (Modern American: red and black apart, 100, 300, 500,
    1000), or None where only red threes score (``rules.red_three_rows``)."""
    if len(rules.threes_laid) < 2:
        return None
    return [
        (
            ngettext(
                "%(num)d three of one colour to one side",
                "%(num)d threes of one colour to one side",
                count,
            ),
            total,
        )
        for count, total in sorted(rules.red_three_totals.items())
    ]


def _sign(sign: int) -> str:
    return {1: _("plus"), 0: _("not counted"), -1: _("minus")}[sign]


@dataclass(frozen=True)
class SwingRow:
    part: str
    none: str
    one: str
    more: str


def swing_rows(rules: RuleSet) -> list[SwingRow]:
    """The swing (RULES.md section 13): how each part counts for a side with no canasta,
    one, or two or more."""
    swing = rules.swing
    if swing is None:
        return []

    def row(part: str, signs: tuple[int, ...]) -> SwingRow:
        return SwingRow(part, *(_sign(swing.sign(signs, count)) for count in (0, 1, 2)))

    return [
        row(_("Card points of melded cards"), swing.meld),
        row(_("Threes laid down (both colours)"), swing.threes),
        SwingRow(_("Canasta and going-out bonuses"), _("none"), _("plus"), _("plus")),
        SwingRow(_("Penalties and cards left in hand"), _("minus"), _("minus"), _("minus")),
    ]


def penalty_rows(rules: RuleSet) -> list[tuple[str, str, str]]:
    """Each penalty: the figure's name, how it counts, the points taken off."""
    return [
        (
            _(figure_name(rules, figure)),
            _(PENALTY_HINTS[figure]) if figure in PENALTY_HINTS else "",
            number(-points),
        )
        for figure, points in rules.penalties.items()
    ]


def special_hand_rows(rules: RuleSet) -> list[tuple[str, str, bool]]:
    """The special hands the table plays, their values, and whether each wins at once."""
    return [
        (_(SPECIAL_HAND_NAMES[hand]), number(points), hand in rules.dream_hands)
        for hand, points in rules.special_hands.items()
    ]


def minimums_by_deal(rules: RuleSet) -> list[tuple[str, int]]:
    """The minimum of each deal, where it goes by deal (Hand and Foot: 50, 90, 120, 150);
    the last holds for any later deal."""
    by_deal = rules.meld_minimums_by_deal
    rows = []
    for deal, minimum in enumerate(by_deal, start=1):
        if deal == len(by_deal) and (rules.deals is None or rules.deals > deal):
            label = _("Deal %(deal)s and later", deal=deal)
        else:
            label = _("Deal %(deal)s", deal=deal)
        rows.append((label, minimum))
    return rows


def initial_meld_facts(rules: RuleSet) -> list[str]:
    """What the initial meld asks beyond its minimum, and what counts toward it."""
    if not has_minimum(rules):
        return [_("There is no initial-meld minimum: any legal meld opens.")]
    facts = []
    if rules.pile_top_counts:
        facts.append(
            _(
                "Only card points count: melds laid down in one turn add up, and the top "
                "card of the pile counts when the side takes it; no bonus counts."
            )
        )
    else:
        facts.append(
            _(
                "Only card points count: melds laid down in one turn add up; the top card "
                "of the pile does not count toward the minimum, nor does any bonus."
            )
        )
    if rules.initial_meld_clean_triple:
        facts.append(
            _("The initial meld must hold a clean triple: three natural cards of one rank.")
        )
    return facts


def game_end(rules: RuleSet) -> list[str]:
    """How the game ends: at the target, after a set number of deals, or at once with a
    dream hand (RULES.md sections 13 and 14)."""
    facts = []
    target = number(rules.target) if rules.target is not None else None
    if target is not None and rules.deals is None:
        facts.append(
            _(
                "The game ends when a side reaches %(target)s: the highest total wins; a tie "
                "at the top plays another deal.",
                target=target,
            )
        )
    elif target is not None:
        facts.append(
            ngettext(
                "The game ends when a side reaches %(target)s, or after %(num)d deal: the "
                "highest total wins; a tie at the top after the last deal is a draw.",
                "The game ends when a side reaches %(target)s, or after %(num)d deals: the "
                "highest total wins; a tie at the top after the last deal is a draw.",
                rules.deals or 0,
                target=target,
            )
        )
    else:
        facts.append(
            ngettext(
                "The game is %(num)d deal, with no target: the higher total wins; an exact "
                "tie is a draw.",
                "The game is %(num)d deals, with no target: the higher total wins; an exact "
                "tie is a draw.",
                rules.deals or 0,
            )
        )
    if rules.dream_hands & set(rules.special_hands):  # not where the table plays none
        facts.append(_("A dream hand wins the game at once."))
    return facts


def table_facts(rules: RuleSet) -> list[str]:
    """What else the table should know: cards that change no score (Modern American's
    bonus cards)."""
    facts = []
    if rules.bonus_cards:
        first, *then = rules.bonus_cards
        facts.append(
            _(
                "Bonus cards (%(first)s to the first side to meld, %(second)s to the second) "
                "are dealt and played, and change no score.",
                first=first,
                second=then[0] if then else 0,
            )
        )
    return facts


def going_out_extra(rules: RuleSet) -> list[str]:
    """What forbids going out beyond the canastas (an unfinished special meld, the pot)."""
    if not rules.going_out_blocked_by:
        return []
    names = ", ".join(_(figure_name(rules, f)).lower() for f in rules.going_out_blocked_by)
    return [_("A side may not go out with any of these: %(what)s.", what=names)]
