"""The change log's words and documents: the kinds of change, a deal as the log keeps it,
and the log written into exports and backups and read back, every value checked.

Making changes (and undoing them) is ``changes``'s work; this module only describes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.limits import MAX_DEALS, MAX_DEVICE, MAX_ID, most_of
from ..rules.scoring import INTEGER_FIELDS
from ..rules.text import N_, T, Text
from .errors import Refused, Why, check_moment, check_name
from .models import Change, DealResult

CREATED = "game-created"
RECORDED = "deal-recorded"
EDITED = "deal-edited"
DELETED = "deal-deleted"
GAME_DELETED = "game-deleted"
GAME_RESTORED = "game-restored"
UNDO = "undo"
RENAMED = "player-renamed"
#: A club round's director called time: the game ends after the deals played (its
#: ``last_deal``, before and after, as ``{"last_deal": n}``).
TIME_CALLED = "time-called"
#: A club table's game replaced when the director swapped seats is deleted with
#: ``{"replaced_by": <the new game's id>}`` as its ``after``: it stays deleted.
REPLACED_BY = "replaced_by"
#: Each kind of change in a few words, for the log and for refusals.
WORDS = {
    CREATED: N_("game created"),
    RECORDED: N_("deal %(number)s recorded"),
    EDITED: N_("deal %(number)s edited"),
    DELETED: N_("deal %(number)s deleted"),
    GAME_DELETED: N_("game deleted"),
    GAME_RESTORED: N_("game restored"),
    UNDO: N_("an undo"),
    RENAMED: N_("a player renamed"),
    TIME_CALLED: N_("time called: the round ended"),
}
KINDS = tuple(WORDS)
#: The changes of a deal: an undo puts the deal back as it was before the change.
DEAL_KINDS = (RECORDED, EDITED, DELETED)
#: A document's log that does not tell the story of its deals.
DISAGREE = T("The change log and the deals disagree about this deal.")


def entries_json(result: Any) -> dict[str, object]:
    """One side's entries for a deal as the exports write them (every figure, both flags)."""
    return {
        **{name: getattr(result, name) for name in INTEGER_FIELDS},
        "went_out": result.went_out,
        "concealed": result.concealed,
    }


def replacement(change: Change) -> str | None:
    """The game that took this game's place, when ``change`` deleted it for a swap."""
    after = change.after
    if change.kind != GAME_DELETED or not isinstance(after, dict):
        return None
    found = after.get(REPLACED_BY)
    return found if isinstance(found, str) else None


def describe(change: Change) -> Text:
    """A change in a few words: "deal 3 edited"."""
    if replacement(change) is not None:
        return T("game replaced: the director swapped seats")
    return T(WORDS.get(change.kind, WORDS[CREATED]), number=change.deal_number)


def snapshot(version: int, results: Sequence[Any]) -> dict[str, object]:
    """A deal as the change log keeps it: its version and each side's entries (of
    ``SideResult`` or ``DealResult``)."""
    return {"version": version, "results": [entries_json(result) for result in results]}


def results_of(state: object) -> list[object] | None:
    """The entries a logged deal state holds, or None for no deal."""
    if not isinstance(state, dict):
        return None
    results = state.get("results")
    return list(results) if isinstance(results, list) else None


def log_json(change: Change) -> dict[str, object]:
    """A change as exports and backups write it."""
    return {
        "id": change.id,
        "kind": change.kind,
        "at": change.at.isoformat() + "Z",
        "device": change.device,
        "deal": change.deal_number,
        "deal_seq": change.deal_seq,
        "before": change.before,
        "after": change.after,
        "undoes": change.undoes,
        "undone": change.undone,
        "reconstructed": change.reconstructed,
    }


def _refused(path: str, message: Text) -> Refused:
    return Refused(Why.INVALID, message, {path: message})


def _count(value: object, path: str, *, low: int = 1) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_ID:
        raise _refused(path, T("A whole number from %(low)s.", low=low))
    return value


def _state(value: object, sides: int, path: str) -> object:
    """A deal as the log kept it, every figure checked as a deal's; or a rename; or a game's
    last deal (time called); or the game that replaced it (a swap)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _refused(path, T("A deal's entries, or nothing."))
    if set(value) == {"last_deal"}:  # time called, or its undo: the game's last deal
        last = value["last_deal"]
        if last is not None and (
            isinstance(last, bool) or not isinstance(last, int) or not 0 <= last <= MAX_DEALS
        ):
            raise _refused(f"{path}.last_deal", T("From 0 to %(max)s, or nothing.", max=MAX_DEALS))
        return {"last_deal": last}
    if set(value) == {REPLACED_BY}:  # a club table's game replaced by a swap
        replaced_by = value[REPLACED_BY]
        if not (
            isinstance(replaced_by, str)
            and 0 < len(replaced_by) <= 32
            and replaced_by.isascii()
            and replaced_by.isprintable()
        ):
            raise _refused(f"{path}.{REPLACED_BY}", T("A game's id."))
        return {REPLACED_BY: replaced_by}
    if "name" in value:
        return {
            "person": _count(value.get("person"), f"{path}.person"),
            "name": check_name(str(value.get("name")), f"{path}.name", side=False),
        }
    results = value.get("results")
    if not isinstance(results, list) or len(results) != sides:
        raise _refused(f"{path}.results", T("One entry per side."))
    checked = []
    for index, entries in enumerate(results):
        where = f"{path}.results.{index}"
        if not isinstance(entries, dict):
            raise _refused(where, T("A side's entries."))
        figures: dict[str, object] = {}
        for name in INTEGER_FIELDS:
            figure = entries.get(name, 0)
            if isinstance(figure, bool) or not isinstance(figure, int):
                raise _refused(f"{where}.{name}", T("A whole number."))
            if not 0 <= figure <= most_of(name):
                raise _refused(f"{where}.{name}", T("From 0 to %(max)s.", max=most_of(name)))
            figures[name] = figure
        for name in ("went_out", "concealed"):
            flag = entries.get(name, False)
            if not isinstance(flag, bool):
                raise _refused(f"{where}.{name}", T("True or false."))
            figures[name] = flag
        checked.append(entries_json(DealResult(**figures)))
    return {"version": _count(value.get("version", 1), f"{path}.version"), "results": checked}


#: A change read from a document, and the place in its list of the change it undid.
Read = tuple[Change, int | None]


def read_log(items: object, sides: int, seqs: Sequence[int], path: str = "changes") -> list[Read]:
    """A game's log from a document, oldest first, every value checked and the whole log
    checked against the deals the document carries (their places, ``seqs``): see
    ``check_log``. Each undo comes with the place of the change it undid (``link_undoes``
    sets its id once they have ids)."""
    if not isinstance(items, list):
        raise _refused(path, T("A list of changes."))
    found: list[Read] = []
    places: dict[int, int] = {}
    for index, item in enumerate(items):
        where = f"{path}.{index}"
        if not isinstance(item, Mapping):
            raise _refused(where, T("A change."))
        kind = item.get("kind")
        if kind not in KINDS:
            raise _refused(f"{where}.kind", T("One of %(kinds)s.", kinds=", ".join(KINDS)))
        device = item.get("device") or ""
        if not isinstance(device, str):
            raise _refused(f"{where}.device", T("A phone's name."))
        undoes = _count(item.get("undoes"), f"{where}.undoes")
        if undoes is not None and undoes not in places:
            raise _refused(f"{where}.undoes", T("An earlier change of this game."))
        own = _count(item.get("id"), f"{where}.id")
        if own is not None:
            if own in places:
                raise _refused(f"{where}.id", T("Each change has an id of its own."))
            places[own] = index
        change = Change(
            kind=kind,
            at=check_moment(item.get("at"), f"{where}.at"),
            device=check_name(device, f"{where}.device", side=False)[:MAX_DEVICE]
            if device.strip()
            else "",
            deal_seq=_count(item.get("deal_seq"), f"{where}.deal_seq"),
            deal_number=_count(item.get("deal"), f"{where}.deal"),
            before=_state(item.get("before"), sides, f"{where}.before"),
            after=_state(item.get("after"), sides, f"{where}.after"),
            undone=item.get("undone") is True,
            reconstructed=item.get("reconstructed") is True,
        )
        found.append((change, None if undoes is None else places[undoes]))
    check_log([change for change, _place in found], seqs, path)
    return found


#: Whether a deal's change has a deal before it and after it (an undo: either way round).
_SHAPES = {RECORDED: (False, True), EDITED: (True, True), DELETED: (True, False)}


def check_log(log: Sequence[Change], seqs: Sequence[int], path: str = "changes") -> None:
    """A log a document carries is the story of the deals it carries: one creation, and
    each deal's changes, replayed in order, touch a deal that is there at that number (a
    deal is added only if absent, changed or removed only if present, ``before`` and
    ``after`` saying which), ending with the deals carried (``seqs``, their places)."""
    creations = [index for index, change in enumerate(log) if change.kind == CREATED]
    if len(creations) != 1:
        where = f"{path}.{creations[1]}.kind" if creations else path
        raise _refused(where, T("A game's log holds its creation once."))
    # A deal the log never mentions was there before it began (a document written by hand).
    mentioned = {change.deal_seq for change in log}
    live = {seq for seq in seqs if seq not in mentioned}
    last: dict[int, int] = {}
    for index, change in enumerate(log):
        if change.kind not in DEAL_KINDS and change.deal_seq is None:
            continue  # not a deal's change (a rename, a game deleted; their undos)
        seq, had, has = change.deal_seq, results_of(change.before), results_of(change.after)
        shape = (had is not None, has is not None)
        if (
            seq is None
            or shape != _SHAPES.get(change.kind, shape)
            or shape == (False, False)
            or (seq in live) != shape[0]
            or change.deal_number != sorted(live | {seq}).index(seq) + 1
        ):
            raise _refused(f"{path}.{index}.deal", DISAGREE)
        if shape[1]:
            live.add(seq)
        else:
            live.discard(seq)
        last[seq] = index
    # Where the log leaves a deal the document does not carry, or never records one it does.
    gone = sorted(live - set(seqs))
    if gone:
        raise _refused(f"{path}.{last[gone[0]]}.deal", DISAGREE)
    missing = [index for index, seq in enumerate(seqs) if seq not in live]
    if missing:
        raise _refused(f"deals.{missing[0]}", DISAGREE)


def link_undoes(read: Sequence[Read]) -> None:
    """Once ``read_log``'s changes have ids (flushed): each undo names its change's."""
    for change, place in read:
        if place is not None:
            change.undoes = read[place][0].id


def reconstructed_log(created: Any, deals: Sequence[Any]) -> list[Change]:
    """The log of a game that came without one (an older export): its creation and one
    "deal recorded" per deal, marked as reconstructed."""
    log = [Change(kind=CREATED, at=created, device="", reconstructed=True)]
    for number, deal in enumerate(deals, start=1):
        log.append(
            Change(
                kind=RECORDED,
                at=deal.created_at,
                device="",
                deal_seq=deal.seq,
                deal_number=number,
                after=snapshot(deal.version, deal.results),
                reconstructed=True,
            )
        )
    return log
