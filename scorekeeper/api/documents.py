"""The JSON documents the API answers with (docs/API.md): a rule set, a game, a deal and
what a change left, and a change-log entry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import url_for

from ..i18n import render_text
from ..rules import RuleSet, SideResult, Violation, figures_of, options_of, score_breakdown
from ..rules.game import DealLine
from ..store import games
from ..store.changes import Recorded
from ..store.games import Sheet


def variant_json(rules: RuleSet) -> dict[str, Any]:
    return {
        "id": rules.id,
        "name": rules.name,
        "players": rules.players,
        "sides": rules.sides,
        "players_per_side": rules.players_per_side,
        # Railroad: any number of players in this range, each alone; Hand and Foot: 4 or
        # 6 players, in 2 or 3 partnerships.
        "players_range": (
            [side * rules.players_per_side for side in rules.sides_range]
            if rules.sides_range
            else None
        ),
        "cards_each": rules.cards_each,
        "draw": rules.draw,
        "kitty": rules.kitty,
        "packs": rules.packs,
        "jokers": rules.jokers,
        "target": rules.target,
        "meld_minimums": [
            {"from": tier.from_total, "minimum": tier.minimum} for tier in rules.meld_minimums
        ],
        # Hand and Foot: the minimum goes by the deal, and the game ends after its deals.
        "meld_minimums_by_deal": list(rules.meld_minimums_by_deal) or None,
        "deals": rules.deals,
        "canasta_bonuses": {kind.value: bonus for kind, bonus in rules.canasta_bonuses.items()},
        "red_three_bonus": rules.red_three_bonus,
        "red_three_totals": {str(n): total for n, total in rules.red_three_totals.items()},
        "red_threes_negative_without_meld": rules.red_threes_plus_with_canastas == 0,
        "red_threes_plus_with_canastas": rules.red_threes_plus_with_canastas,
        "black_three_penalty": rules.black_three_penalty,
        "black_three_taken_bonus": rules.black_three_taken_bonus,
        "black_threes_taken_totals": {
            str(n): total for n, total in rules.black_threes_taken_totals.items()
        },
        "canasta_names": {
            kind.value: rules.canasta_name(kind).word for kind in rules.canasta_kinds
        },
        "sequences": rules.sequences,
        "wild_melds": rules.wild_melds,
        "max_wilds": rules.max_wilds,
        "pile_always_frozen": rules.pile_always_frozen,
        "going_out_bonus": rules.going_out_bonus,
        "concealed_going_out_bonus": rules.concealed_going_out_bonus,
        "canastas_to_go_out": rules.canastas_to_go_out,
        "kinds_to_go_out": [k.value for k in rules.canasta_kinds if k in rules.contract],
        # Canastas of each kind going out needs (Hand and Foot: two clean, two dirty).
        "contract": {kind.value: count for kind, count in rules.contract.items()},
        # What forbids going out (an unfinished special meld, the pot not taken).
        "going_out_blocked_by": list(rules.going_out_blocked_by),
        # Card points by rank where the rule set has its own (Burraco).
        "card_values": {rank.value: points for rank, points in rules.card_values.items()},
        # The threes scored per colour when laid down, and the swing of Modern American.
        "threes_laid": list(rules.threes_laid),
        "swing": None
        if rules.swing is None
        else {"meld": list(rules.swing.meld), "threes": list(rules.swing.threes)},
        "penalties": dict(rules.penalties),
        "special_hands": dict(rules.special_hands),
        "dream_hands": sorted(rules.dream_hands),
        "initial_meld_clean_triple": rules.initial_meld_clean_triple,
        "pile_top_counts": rules.pile_top_counts,
        "max_meld": rules.max_meld,
        "max_red_threes": rules.max_red_threes,
        "options": options_of(rules),
    }


def results_json(
    rules: RuleSet, results: Sequence[SideResult], line: DealLine
) -> list[dict[str, Any]]:
    """A deal's results as played: each side's entries, score, total and minimum."""
    names = figures_of(rules)
    return [
        {
            "side": side,
            **{name: getattr(result, name) for name in names},
            "score": score,
            # The named parts that make the score, as the deal form shows them.
            "parts": score_breakdown(result, rules).parts(rules),
            "total": total,
            "meld_minimum": minimum,
        }
        for side, (result, score, total, minimum) in enumerate(
            zip(results, line.scores, line.totals, line.minimums, strict=True)
        )
    ]


def sides_json(
    sides: Sequence[tuple[str, Sequence[str], int]],
    totals: Sequence[int],
    minimums: Sequence[int],
) -> list[dict[str, Any]]:
    """Each side (name, players, start) with its total and next minimum."""
    return [
        {
            "name": name,
            "players": list(players),
            "start": start,
            "total": total,
            "meld_minimum": minimum,
        }
        for (name, players, start), total, minimum in zip(sides, totals, minimums, strict=True)
    ]


def deal_json(sheet: Sheet, number: int) -> dict[str, Any]:
    deal = sheet.game.deals[number - 1]
    line = sheet.state.lines[number - 1]
    out = {
        "number": number,
        "dealer": sheet.player_name(line.dealer),
        "version": deal.version,
        "results": results_json(sheet.rules, games.side_results(deal), line),
    }
    if sheet.game.confirm_hash is not None:
        # A table of an evening that confirms results: whether the other side did.
        out["confirmed"] = deal.confirmed_at is not None
    return out


def game_json(sheet: Sheet, *, deals: bool = True) -> dict[str, Any]:
    game, state = sheet.game, sheet.state
    out: dict[str, Any] = {
        "id": game.id,
        "url": url_for("web.sheet", game_id=game.id),
        "variant": game.variant,
        "options": options_of(sheet.rules),
        "status": "finished" if state.finished else "in_progress",
        "winner": state.winner,
        "sides": sides_json(
            [(side.name, [p.name for p in side.players], side.start) for side in game.sides],
            state.totals,
            state.minimums,
        ),
        "next_dealer": None if state.finished else sheet.next_dealer_name,
        "created_at": game.created_at.isoformat() + "Z",
    }
    if game.last_deal is not None:
        # A club round's game (API.md "Club evenings"): it ends after this deal.
        out["last_deal"] = game.last_deal
    if deals:
        out["deals"] = [deal_json(sheet, n) for n in range(1, len(game.deals) + 1)]
    return out


def warnings_json(warnings: Sequence[Violation]) -> list[dict[str, str]]:
    return [{"field": w.field, "rule": w.rule, "message": render_text(w.text)} for w in warnings]


def deal_answer(sheet: Sheet, number: int, warnings: Sequence[Violation]) -> dict[str, Any]:
    """The deal, the game's status, winner, sides and next dealer after it, what in the
    entry looks unlikely (saved anyway: the table has the last word), and the whole game
    (an edit can change every later deal)."""
    game = game_json(sheet)
    return {
        **deal_json(sheet, number),
        "status": game["status"],
        "winner": game["winner"],
        "sides": game["sides"],
        "next_dealer": game["next_dealer"],
        "warnings": warnings_json(warnings),
        "game": game,
    }


def recorded_answer(recorded: Recorded) -> dict[str, Any]:
    """The answer to a deal recorded at the end of a game: the deal, and the game's status,
    winner, sides and next dealer after it, from the figures the rules engine gave for it
    (without the game's other deals)."""
    game, line = recorded.head, recorded.line
    return {
        "number": recorded.number,
        "dealer": game.player_name(line.dealer),
        "version": recorded.version,
        "results": results_json(game.rules, recorded.results, line),
        "status": "finished" if recorded.finished else "in_progress",
        "winner": recorded.winner,
        "sides": sides_json(
            [(side.name, side.players, side.start) for side in game.sides],
            line.totals,
            recorded.minimums,
        ),
        "next_dealer": recorded.next_dealer,
        "warnings": warnings_json(recorded.warnings),
    }


def change_json(change: games.Change) -> dict[str, Any]:
    return {
        "id": change.id,
        "kind": change.kind,
        "deal": change.deal_number,
        "at": change.at.isoformat() + "Z",
        "undone": change.undone,
        "undoes": change.undoes,
        "device": change.device,
        "before": change.before,
        "after": change.after,
        "reconstructed": change.reconstructed,
    }
