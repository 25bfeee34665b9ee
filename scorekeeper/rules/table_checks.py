"""Checks of the figures the rule sets of RULES.md sections 13 to 15 add (threes of both
colours, penalties, special hands, the pot), for ``validation.validate_deal``."""

from __future__ import annotations

from collections.abc import Sequence

from .kinds import CANASTA_SIZE
from .ruleset import RuleSet
from .scoring import ENTRY_FIELDS, SideResult, figure_name, figures_of
from .text import P, T
from .violations import Violation, path

#: Canastas of one rank and the unfinished meld of that rank: two packs hold eight of the
#: rank, a canasta takes seven, a meld three (RULES.md section 13).
_RANK_MELDS = (("aces_canastas", "unfinished_aces"), ("sevens_canastas", "unfinished_sevens"))
_LEAST_MELD = 3


def _set(result: SideResult, figure: str) -> bool:
    return bool(getattr(result, figure))


def figure_checks(side: int, result: SideResult, rules: RuleSet) -> list[Violation]:
    """One side's figures: known to the rule set, a special hand alone, going out not
    blocked (an unfinished special meld, the pot not taken), threes and holdings bounded."""
    found: list[Violation] = []
    asked = figures_of(rules)
    for figure in ENTRY_FIELDS:
        if figure in asked or not _set(result, figure):
            continue
        if figure.endswith("_canastas") or figure.startswith("black_threes_"):
            continue  # named by the canasta and black-three checks already
        found.append(
            Violation(
                path(side, figure),
                "no_such_figure",
                T(
                    "%(rules)s does not count this: %(figure)s.",
                    rules=T(rules.name),
                    figure=T(figure_name(rules, figure)),
                ),
            )
        )
    if found:
        return found
    hand = result.special_hand
    if hand is not None:
        if hand not in rules.special_hands:
            return [
                Violation(
                    path(side, "special_hand"),
                    "no_such_special_hand",
                    T("This game does not play that special hand."),
                )
            ]
        others = [
            figure
            for figure in ENTRY_FIELDS
            if figure not in ("special_hand", "went_out") and _set(result, figure)
        ]
        if others or not result.went_out:
            return [
                Violation(
                    path(side, others[0] if others else "went_out"),
                    "special_hand_alone",
                    T(
                        "A special hand goes out and scores its value alone: "
                        "the side's other figures stay empty."
                    ),
                )
            ]
        return []
    if result.went_out:
        for figure in rules.going_out_blocked_by:
            if _set(result, figure):
                found.append(
                    Violation(
                        path(side, figure),
                        "out_blocked",
                        T(
                            "A side cannot go out with this: %(figure)s.",
                            figure=T(figure_name(rules, figure)),
                        ),
                    )
                )
    if result.black_threes > rules.black_threes_in_packs:
        found.append(
            Violation(
                path(side, "black_threes"),
                "black_threes_side",
                P(
                    "There is only %(num)s black three in the cards.",
                    "There are only %(num)s black threes in the cards.",
                    rules.black_threes_in_packs,
                ),
            )
        )
    # Each player may be left holding three aces and three sevens.
    most_held = 2 * rules.players_per_side
    if result.aces_or_sevens_held > most_held:
        found.append(
            Violation(
                path(side, "aces_or_sevens_held"),
                "held_too_often",
                P(
                    "A side of %(num)s player can be left holding three aces and three "
                    "sevens: %(most)s at most.",
                    "A side of %(num)s players can be left holding three aces and three "
                    "sevens each: %(most)s at most.",
                    rules.players_per_side,
                    most=most_held,
                ),
            )
        )
    return found


def deal_checks(results: Sequence[SideResult], rules: RuleSet) -> list[Violation]:
    """All sides together: black threes laid down, and no meld of a rank beside a canasta
    of that rank where two packs hold eight of it."""
    found: list[Violation] = []
    black = sum(r.black_threes for r in results)
    if black > rules.black_threes_in_packs and all(
        r.black_threes <= rules.black_threes_in_packs for r in results
    ):
        last = max(side for side, r in enumerate(results) if r.black_threes)
        found.append(
            Violation(
                path(last, "black_threes"),
                "black_threes_total",
                P(
                    "There is only %(num)s black three in the cards; this deal lists %(listed)s.",
                    "There are only %(num)s black threes in the cards; this deal lists %(listed)s.",
                    rules.black_threes_in_packs,
                    listed=black,
                ),
            )
        )
    if 4 * rules.packs < CANASTA_SIZE + _LEAST_MELD:
        for canastas, unfinished in _RANK_MELDS:
            if any(_set(r, canastas) for r in results):
                for side, result in enumerate(results):
                    if _set(result, unfinished):
                        found.append(
                            Violation(
                                path(side, unfinished),
                                "rank_meld_beside_canasta",
                                T(
                                    "Two packs hold eight of a rank: beside a canasta of "
                                    "them, no other meld of that rank can be started."
                                ),
                            )
                        )
    return found
