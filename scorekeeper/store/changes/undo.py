"""The change log's own changes: undoing any change (an undo too), deleting a game and
restoring it. Each replays the game."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import select

from ...rules import errors_of, validate_deal
from ...rules.text import T
from ..db import db, transaction
from ..errors import Refused, Why
from ..games import Sheet, sheet_of, side_results
from ..log import (
    CONFIRMED,
    DEAL_KINDS,
    GAME_DELETED,
    GAME_RESTORED,
    RENAMED,
    TIME_CALLED,
    UNDO,
    describe,
    entries_json,
    replacement,
    results_of,
)
from ..models import Change, Deal, DealResult, EveningTable, Game, Person, utcnow
from .checks import GAME_GONE, locked, replayed
from .commit import LogEntry, commit_replayed
from .deals import Changed, logged_results, set_results
from .request_keys import earlier, keyed
from .roster import rename_back


@dataclass(frozen=True)
class Undone:
    """The game after an undo, and the undo's own change (itself undoable)."""

    sheet: Sheet
    change: int
    #: The change it reverted.
    reverted: Change
    #: When that was itself an undo: the change it had undone (done again now).
    original: Change | None = None


def undo_change(
    game_id: str,
    change_id: int,
    *,
    secret: str | None,
    device: str = "",
    request_key: str | None = None,
    scoring: Collection[str] = (),
) -> Undone:
    """Revert change ``change_id`` of the game and log the undo. A deal's change puts the
    deal back as it was before it (a recorded deal goes, a deleted one comes back at its
    number, an edit's old figures return); undoing an undo makes the change again; a
    deleted game comes back, a restored one goes. Refused when the change was undone
    already, or a later change built on it (the refusal names that change). A
    ``request_key`` this game has seen undoes nothing again and answers with that undo
    and the game as it stands. A rename undone renames the player in every game they sat
    in: refused unless the caller keeps score of each (this game, and ``scoring``: the
    other games whose secret it holds)."""
    key = keyed(request_key, "undo", change_id)
    with transaction():
        game = locked(game_id, secret)
        before = earlier(game_id, key, UNDO)
        if before is not None:
            reverted = db.session.get(Change, before.undoes)
            assert reverted is not None
            original = db.session.get(Change, reverted.undoes) if reverted.undoes else None
            return Undone(sheet_of(game), before.id, reverted, original)
        change = db.session.get(Change, change_id)
        if change is None or change.game_id != game_id:
            raise Refused(Why.NOT_FOUND, T("This game has no change %(id)s.", id=change_id))
        if change.undone:
            raise Refused(Why.CONFLICT, T("That change was undone already; nothing else was."))
        target = _effect_of(change)
        if target == CONFIRMED:
            raise Refused(
                Why.CONFLICT,
                T(
                    "The other side's confirmation of a deal cannot be undone; an edit of "
                    "the deal clears it."
                ),
            )
        if target in DEAL_KINDS:
            if game.deleted_at is not None:
                raise Refused(Why.GONE, GAME_GONE)
            number = _put_back(game, change)
        elif target in (GAME_DELETED, GAME_RESTORED):
            # Undoing a deletion restores the game, undoing a restore deletes it again.
            deleting = (target == GAME_RESTORED) != (change.kind == UNDO)
            if (game.deleted_at is not None) == deleting:
                raise _in_the_way(game_id, change)
            if not deleting:
                _require_not_replaced(game)
            game.deleted_at = utcnow() if deleting else None
            number = None
        elif target == RENAMED:
            _name_back(game, change, device, scoring={game_id, *scoring})
            number = None
        elif target == TIME_CALLED:
            # The round's length as it was before: the table plays on (or stops again).
            _last_deal_back(game, change)
            number = None
        else:
            raise Refused(Why.CONFLICT, T("A new game cannot be undone; delete the game instead."))
        sheet = replayed(game)
        if target in DEAL_KINDS:
            _check_put_back(sheet, change.deal_seq)
        change.undone = True
        redone = None
        if change.kind == UNDO and change.undoes is not None:
            # Undoing an undo makes the change again: it is no longer undone.
            redone = db.session.get(Change, change.undoes)
            if redone is not None:
                redone.undone = False
        undo_id = commit_replayed(
            sheet,
            LogEntry(
                UNDO,
                deal=(change.deal_seq, number) if change.deal_seq is not None and number else None,
                before=change.after,
                after=change.before,
                undoes=change.id,
            ),
            device=device,
            key=key,
        )
        return Undone(sheet, undo_id, change, redone)


def _effect_of(change: Change) -> str:
    """The kind of change an entry made: an undo's is that of the change it reverted
    (it made it backwards)."""
    seen = 0
    while change.kind == UNDO and change.undoes is not None and seen < 1000:
        found = db.session.get(Change, change.undoes)
        if found is None:
            break
        change = found
        seen += 1
    return change.kind


def _put_back(game: Game, change: Change) -> int:
    """Set the change's deal to what it was before the change (``change.before``), if
    it is still as the change left it (``change.after``); the deal's number after."""
    seq = change.deal_seq
    current = next((deal for deal in game.deals if deal.seq == seq), None)
    now = None if current is None else [entries_json(r) for r in current.results]
    if now != results_of(change.after):
        raise _in_the_way(game.id, change)
    wanted = results_of(change.before)
    if current is not None and wanted is None:
        number = game.deals.index(current) + 1
        game.deals.remove(current)
        db.session.delete(current)
        return number
    results = logged_results(change.before)
    if current is not None:
        set_results(current, results)
        current.version += 1
    else:
        version = change.before.get("version", 0) if isinstance(change.before, dict) else 0
        current = Deal(seq=seq, version=int(version) + 1, created_at=utcnow())
        current.results = [
            DealResult(side_position=position, **entries_json(result))
            for position, result in enumerate(results)
        ]
        game.deals.append(current)
        game.deals.sort(key=lambda deal: deal.seq)
    return game.deals.index(current) + 1


def _check_put_back(sheet: Sheet, seq: int | None) -> None:
    """The figures an undo put back pass the same checks as a deal entered (the log of an
    imported game, or of an older version, might hold others)."""
    for number, deal in enumerate(sheet.game.deals, start=1):
        if deal.seq == seq:
            minimums = sheet.state.lines[number - 1].minimums
            violations = validate_deal(side_results(deal), sheet.rules, minimums=minimums)
            if errors_of(violations):
                raise Refused.breaking(violations)


def _name_back(game: Game, change: Change, device: str, *, scoring: Collection[str]) -> None:
    """Undo a rename: the player gets the name from before it, if they still have the name
    it gave (everywhere: the roster, every seat, every game's log)."""
    before, after = change.before, change.after
    person = None
    if isinstance(before, dict) and isinstance(after, dict):
        person = db.session.get(Person, before.get("person"))
    if person is None or person.name != after.get("name"):
        raise _in_the_way(game.id, change)
    rename_back(person, str(before.get("name")), scoring=scoring, device=device, logged_in=game.id)


def _last_deal_back(game: Game, change: Change) -> None:
    """Undo time called (or redo it): the game's last deal from before the change."""
    before, after = change.before, change.after
    if not (isinstance(before, dict) and isinstance(after, dict)):
        raise _in_the_way(game.id, change)
    if game.last_deal != after.get("last_deal"):
        raise _in_the_way(game.id, change)
    game.last_deal = before.get("last_deal")


def _in_the_way(game_id: str, change: Change) -> Refused:
    """The refusal of an undo that a later change builds on, naming that change."""
    later = db.session.scalars(
        select(Change)
        .where(Change.game_id == game_id, Change.id > change.id)
        .where(
            Change.deal_seq == change.deal_seq
            if change.deal_seq is not None
            else Change.kind.in_((GAME_DELETED, GAME_RESTORED, UNDO))
        )
        .order_by(Change.id.desc())
        .limit(1)
    ).first()
    if later is None:
        return Refused(Why.CONFLICT, T("That change cannot be undone any more."))
    return Refused(
        Why.CONFLICT,
        T(
            "A later change builds on it: change %(id)s (%(what)s). Undo that one first.",
            id=later.id,
            what=describe(later),
        ),
        {"change": T("Change %(id)s is in the way.", id=later.id)},
        change=later.id,
    )


def delete_game(
    game_id: str, *, secret: str | None, device: str = "", request_key: str | None = None
) -> Changed:
    """Delete a game: it leaves every list and statistic; its log can restore it."""
    return _delete_or_restore(game_id, secret, device, request_key, deleting=True)


def restore_game(
    game_id: str, *, secret: str | None, device: str = "", request_key: str | None = None
) -> Changed:
    """Bring a deleted game back into every list, as it was."""
    return _delete_or_restore(game_id, secret, device, request_key, deleting=False)


def _at_an_evening(game_id: str) -> bool:
    """Whether the game is a table of a club evening (RULES.md section 11)."""
    found = select(EveningTable.id).where(EveningTable.game_id == game_id).limit(1)
    return db.session.scalar(found) is not None


def _require_not_replaced(game: Game) -> None:
    """A club table's game that a swap replaced stays deleted: another game holds its
    seats in the evening."""
    if any(replacement(change) is not None for change in game.changes):
        raise Refused(
            Why.CONFLICT,
            T(
                "This game was a table of a club evening until the director swapped seats: "
                "a new game took its place, so it stays deleted. Open the evening for the "
                "table's new game."
            ),
        )


def _delete_or_restore(
    game_id: str, secret: str | None, device: str, request_key: str | None, *, deleting: bool
) -> Changed:
    """A ``request_key`` this game has seen changes nothing again and answers with the
    game as it stands."""
    kind = GAME_DELETED if deleting else GAME_RESTORED
    key = keyed(request_key, kind)
    with transaction():
        game = locked(game_id, secret)
        before = earlier(game_id, key, kind)
        if before is not None:
            return Changed(sheet_of(game), before.id, repeated=True)
        if deleting and _at_an_evening(game_id):
            raise Refused(
                Why.CONFLICT,
                T(
                    "This game is a table of a club evening and counts in its standings: "
                    "correct its deals instead of deleting it."
                ),
            )
        if not deleting:
            _require_not_replaced(game)
        if (game.deleted_at is not None) == deleting:
            raise Refused(
                Why.CONFLICT,
                T("This game was deleted already.")
                if deleting
                else T("This game is not deleted; nothing was changed."),
            )
        game.deleted_at = utcnow() if deleting else None
        sheet = replayed(game)
        return Changed(sheet, commit_replayed(sheet, LogEntry(kind), device=device, key=key))
