"""A game's deals: the next one recorded, an earlier one edited or deleted.

Recording a deal plays it from the totals kept next to each side, without reading the
game's deals: its cost does not grow with the game. An edit or a deletion changes what
every later deal was played from, so it replays the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, insert

from ...rules import (
    RuleSet,
    ScoreBreakdown,
    SideResult,
    Violation,
    errors_of,
    score_breakdown,
    validate_deal,
    warnings_of,
)
from ...rules.game import DealLine, ending, next_line
from ...rules.scoring import ENTRY_FIELDS, score_deal
from ...rules.stats import ended, record_with
from ...rules.text import T
from ..db import db, transaction
from ..errors import Refused, Why
from ..games import DealTag, Head, Sheet, deal_at, head, load, sheet_of, side_results
from ..log import DELETED, EDITED, RECORDED, entries_json, results_of, snapshot
from ..models import Deal, DealResult, Game, utcnow
from .checks import (
    checked_replay,
    locked,
    locked_head,
    no_deal,
    replayed,
    require_listed,
    require_open,
    secured,
)
from .commit import LogEntry, commit, commit_replayed
from .request_keys import Earlier, earlier, keyed


@dataclass(frozen=True)
class Recorded:
    """A deal recorded at the end of a game, and the game after it."""

    #: The game as it stood before the deal (its names, rules and seats).
    head: Head
    number: int
    line: DealLine
    results: tuple[SideResult, ...]
    #: The side that won with this deal (or earlier, for a repeated request).
    winner: int | None
    warnings: tuple[Violation, ...]
    #: An earlier request with the same key recorded it; nothing new was recorded.
    repeated: bool = False
    #: The deal's version (1 unless it was edited since, for a repeated request).
    version: int = 1
    #: The change log's entry (None for a repeated request: it made none).
    change: int | None = None
    #: The game ended with this deal (or earlier): won, or drawn at a round's last deal.
    finished: bool = False

    @property
    def minimums(self) -> tuple[int, ...]:
        return tuple(
            self.head.rules.meld_minimum(total, self.number + 1) for total in self.line.totals
        )

    @property
    def next_dealer(self) -> str | None:
        if self.finished:
            return None
        return self.head.player_name(self.head.dealer(self.number + 1))


@dataclass(frozen=True)
class Edited:
    """The game after an edit, and what looks unlikely in the new entry."""

    sheet: Sheet
    number: int
    warnings: tuple[Violation, ...]
    #: The change log's entry (None for a resent request: it made none).
    change: int | None = None


@dataclass(frozen=True)
class Changed:
    """The game after a change, and the change log's entry for it (for a resent request,
    the entry it made the first time)."""

    sheet: Sheet
    change: int
    #: An earlier request with the same key made the change; nothing changed now.
    repeated: bool = False


DEAL = Deal.__table__
RESULT = DealResult.__table__
_NEW_DEAL = (
    insert(DEAL)
    .values(
        game_id=bindparam("game_id"),
        seq=bindparam("seq"),
        version=1,
        created_at=bindparam("now", type_=DEAL.c.created_at.type),
    )
    .returning(DEAL.c.id)
)
_NEW_RESULT = insert(RESULT)


def result_rows(deal_id: int, results: Sequence[SideResult]) -> list[dict[str, object]]:
    return [
        {"deal_id": deal_id, "side_position": position, **entries_json(result)}
        for position, result in enumerate(results)
    ]


def _entries(results: Sequence[SideResult]) -> list[dict[str, object]]:
    return [entries_json(result) for result in results]


@dataclass(frozen=True)
class Played:
    """A deal checked and scored as its command keeps it, before anything is kept: what
    the live line shows while the figures are typed (``preview_deal``), and what
    ``record_deal`` and ``edit_deal`` then write."""

    #: The game as read for it: its head for the next deal, the whole game for an edit.
    game: Head | Game
    rules: RuleSet
    number: int
    results: tuple[SideResult, ...]
    #: What the rules engine found in the entry, errors and warnings.
    violations: tuple[Violation, ...]
    #: The deal's row on the sheet; None when the entry breaks a rule (nothing is scored).
    line: DealLine | None = None
    #: The side that wins with this deal.
    winner: int | None = None
    #: The game ends with this deal: won, or drawn at a round's last deal.
    finished: bool = False
    #: An edit: the game replayed with the new entry.
    sheet: Sheet | None = None

    @property
    def breakdowns(self) -> tuple[ScoreBreakdown, ...]:
        """Each side's score in its parts, as the live line shows them."""
        return tuple(score_breakdown(result, self.rules) for result in self.results)

    @property
    def warnings(self) -> tuple[Violation, ...]:
        return tuple(warnings_of(self.violations))

    def scored(self) -> DealLine:
        """The deal's row; refused, every problem by its path, when the entry breaks a rule."""
        if self.line is None:
            raise Refused.breaking(self.violations)
        return self.line


def play_next(game: Head, results: Sequence[SideResult]) -> Played:
    """The next deal of a game in progress, checked and played from the totals kept next
    to its sides. Refused when the game is deleted or over."""
    require_listed(game.deleted)
    require_open(game.finished, game.last_deal)
    rules = game.rules
    number = game.next_deal
    entry = tuple(results)
    violations = tuple(validate_deal(entry, rules, minimums=game.minimums))
    if errors_of(violations):
        return Played(game, rules, number, entry, violations)
    line = next_line(rules, game.totals, entry, number, game.dealer(number))
    end = ending(rules, line.totals, number, game.last_deal, entry)
    winner = None if end is None else end.winner
    return Played(game, rules, number, entry, violations, line, winner, end is not None)


def play_edit(
    game: Game, number: int, results: Sequence[SideResult], expected: DealTag | None = None
) -> Played:
    """Deal ``number`` entered anew (``expected``: still as the client saw it) and the game
    replayed with it. Refused when the game is deleted, the deal gone or changed since, or
    the replay leaves deals after the game's end."""
    require_listed(game.deleted_at is not None)
    expected_deal(game, number, expected)
    was = sheet_of(game)
    entry = tuple(results)
    minimums = was.state.lines[number - 1].minimums
    violations = tuple(validate_deal(entry, was.rules, minimums=minimums))
    if errors_of(violations):
        return Played(game, was.rules, number, entry, violations)
    sheet = checked_replay(sheet_of(game, (number, entry)))
    state = sheet.state
    ends = state.finished_after == number
    line = state.lines[number - 1]
    winner = state.winner if ends else None
    return Played(game, was.rules, number, entry, violations, line, winner, ends, sheet)


def preview_deal(
    game_id: str,
    results: Sequence[SideResult],
    *,
    secret: str | None,
    number: int | None = None,
    expected: DealTag | None = None,
) -> Played:
    """The dry run of ``edit_deal`` (``number`` an earlier deal's) or else of
    ``record_deal``: the same checks, score and ending, with nothing locked or
    written. Refused as the command would be, except that a rule broken by the entry is
    answered, not refused (``Played.violations``)."""
    game = secured(head(game_id), secret)
    if number is None or not 1 <= number < game.next_deal:
        return play_next(game, results)
    return play_edit(secured(load(game_id), secret), number, results, expected)


def record_deal(
    game_id: str,
    results: Sequence[SideResult],
    *,
    secret: str | None,
    request_key: str | None = None,
    device: str = "",
) -> Recorded:
    """Record the next deal of a game, played from the running totals kept next to its
    sides (its deals are not read). A ``request_key`` this game has seen records nothing
    and answers with the deal it recorded then (a double tap, a retried request), even
    after that deal was deleted or its change undone; sent with other figures, it is
    refused (``Why.REUSED``). Refused when the game is over or the entry breaks a rule."""
    key = keyed(request_key, "record-deal", _entries(results))
    with transaction():
        game = locked_head(game_id, secret)
        before = earlier(game_id, key, RECORDED)
        if before is not None:
            return _recorded_before(game, before)
        played = play_next(game, results)
        line = played.scored()
        final = line.totals if played.finished else None
        records = [
            (side.id, ended(record_with(side.record, line, i, result), i, played.winner, final))
            for i, (side, result) in enumerate(zip(game.sides, results, strict=True))
        ]
        now = utcnow()
        seq = game.last_seq + 1
        deal_id = db.session.scalar(_NEW_DEAL, {"game_id": game_id, "seq": seq, "now": now})
        assert deal_id is not None
        db.session.execute(_NEW_RESULT, result_rows(deal_id, results))
        change = commit(
            game_id,
            [LogEntry(RECORDED, deal=(seq, played.number), after=snapshot(1, results))],
            records=records,
            finished=played.finished,
            # Deals are recorded only in a game in progress (``require_open``).
            was_finished=False,
            people=game.people,
            device=device,
            key=key,
            at=now,
        )
    return Recorded(
        game,
        played.number,
        line,
        played.results,
        played.winner,
        played.warnings,
        change=change,
        finished=played.finished,
    )


def _recorded_before(game: Head, before: Earlier) -> Recorded:
    """The answer to a request repeated with its key: the deal as it stands now, or, when
    it was deleted or its change undone since, as the change log recorded it, with the
    sides' totals as the game stands (without it)."""
    loaded = load(game.id)
    assert loaded is not None
    sheet = sheet_of(loaded)
    found = [n for n, deal in enumerate(loaded.deals, start=1) if deal.seq == before.deal_seq]
    if found:
        number = found[0]
        deal = loaded.deals[number - 1]
        line = sheet.state.lines[number - 1]
        results = side_results(deal)
        version = deal.version
        finished = sheet.state.finished_after is not None and sheet.state.finished_after <= number
        winner = sheet.state.winner if finished else None
    else:
        number = before.deal_number or 1
        results = logged_results(before.after)
        line = DealLine(
            number=number,
            dealer=game.dealer(number),
            minimums=sheet.state.minimums,
            scores=score_deal(results, sheet.rules),
            totals=sheet.state.totals,
        )
        version = int(before.after.get("version", 1)) if isinstance(before.after, dict) else 1
        winner = sheet.state.winner
        finished = sheet.state.finished
    violations = validate_deal(results, sheet.rules, minimums=line.minimums)
    return Recorded(
        game,
        number,
        line,
        tuple(results),
        winner,
        tuple(warnings_of(violations)),
        repeated=True,
        version=version,
        finished=finished,
    )


def logged_results(state: object) -> list[SideResult]:
    """The entries of a deal as the change log keeps it (``log.snapshot``)."""
    return [
        SideResult(**entries) for entries in results_of(state) or [] if isinstance(entries, dict)
    ]


def deal_of(game: Game, number: int) -> Deal:
    if not 1 <= number <= len(game.deals):
        raise Refused(Why.NOT_FOUND, no_deal(number))
    return game.deals[number - 1]


def _now_at(game: Game, seq: int | None, number: int | None) -> int:
    """Where the deal a repeated request changed is now; refused when it is gone."""
    for place, deal in enumerate(game.deals, start=1):
        if deal.seq == seq:
            return place
    raise Refused(
        Why.NOT_FOUND,
        T(
            "Deal %(number)s, which this request changed, was deleted since; nothing was changed.",
            number=number,
        ),
    )


def edit_deal(
    game_id: str,
    number: int,
    results: Sequence[SideResult],
    *,
    secret: str | None,
    expected: DealTag | None = None,
    device: str = "",
    request_key: str | None = None,
) -> Edited:
    """Replace the entries of deal ``number``; later totals follow. With ``expected``,
    the edit is refused when that deal is no longer at that number and version. A
    ``request_key`` this game has seen changes nothing again (a resent form) and answers
    with the deal as it stands (a 404 when it was deleted since); sent with another
    request, it is refused."""
    key = keyed(request_key, "edit-deal", number, expected, _entries(results))
    with transaction():
        game = locked(game_id, secret)
        before = earlier(game_id, key, EDITED)
        if before is not None:
            return Edited(sheet_of(game), _now_at(game, before.deal_seq, before.deal_number), ())
        played = play_edit(game, number, results, expected)
        played.scored()
        deal = game.deals[number - 1]
        was = snapshot(deal.version, deal.results)
        set_results(deal, results)
        deal.version += 1
        # The replay the edit was checked by: the game with the new entry, as now written.
        assert played.sheet is not None
        change = commit_replayed(
            played.sheet,
            LogEntry(
                EDITED,
                deal=(deal.seq, number),
                before=was,
                after=snapshot(deal.version, results),
            ),
            device=device,
            key=key,
        )
    return Edited(played.sheet, number, played.warnings, change)


def set_results(deal: Deal, results: Sequence[SideResult]) -> None:
    """A deal's entries anew (an edit, an undo): the other side's confirmation, of the
    entries as they were, goes."""
    deal.confirmed_at = None
    for stored, result in zip(deal.results, results, strict=True):
        for name in ENTRY_FIELDS:
            setattr(stored, name, getattr(result, name))


def delete_deal(
    game_id: str,
    number: int,
    *,
    secret: str | None,
    expected: DealTag | None = None,
    device: str = "",
    request_key: str | None = None,
) -> Changed:
    """Remove deal ``number``; the later deals move up one. With ``expected`` (the deal
    as the confirmation or the client saw it), a resent request cannot delete the deal
    that moved up, nor a deal changed since. A ``request_key`` this game has
    seen deletes nothing again and answers with the game as it stands."""
    key = keyed(request_key, "delete-deal", number, expected)
    with transaction():
        game = locked(game_id, secret)
        before = earlier(game_id, key, DELETED)
        if before is not None:
            return Changed(sheet_of(game), before.id, repeated=True)
        require_listed(game.deleted_at is not None)
        deal = expected_deal(game, number, expected)
        was = snapshot(deal.version, deal.results)
        game.deals.remove(deal)
        db.session.delete(deal)
        sheet = replayed(game)
        change = commit_replayed(
            sheet, LogEntry(DELETED, deal=(deal.seq, number), before=was), device=device, key=key
        )
        return Changed(sheet, change)


def expected_deal(game: Game, number: int, expected: DealTag | None) -> Deal:
    """Deal ``number``, refused (outdated) unless it is still the ``expected`` deal."""
    if expected is None:
        return deal_of(game, number)
    deal = deal_at(game, number)
    if deal is None or deal.seq != expected.seq:
        raise Refused(Why.OUTDATED, T("That deal was already deleted; nothing else was."))
    if deal.version != expected.version:
        raise outdated(deal, number)
    return deal


def outdated(deal: Deal, number: int) -> Refused:
    return Refused(
        Why.OUTDATED,
        T(
            "Deal %(number)s was changed on another phone meanwhile; here is the newer "
            "version. Check it, then save your change again.",
            number=number,
        ),
        {"version": T("Now version %(version)s.", version=deal.version)},
        current_version=deal.version,
    )
