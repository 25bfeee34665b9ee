"""The change log's words and documents: the kinds of change, a deal as the log keeps it,
and the log written into exports and backups and read back, every value checked.

Making changes (and undoing them) is ``changes``'s work; this module only describes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.kinds import SPECIAL_HAND_NAMES
from ..rules.limits import MAX_DEALS, MAX_DEVICE, MAX_ID, most_of
from ..rules.scoring import BOOLEAN_FIELDS, ENTRY_FIELDS, INTEGER_FIELDS
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
#: The other side of a club table confirmed a deal as it stands (its phone's secret); it
#: holds nothing before or after, and is not undone (an edit of the deal clears it).
CONFIRMED = "deal-confirmed"
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
    CONFIRMED: N_("deal %(number)s confirmed by the other side"),
}
KINDS = tuple(WORDS)

#: The commands of a club evening's director, as the evening's log keeps them.
EVENING_CREATED = "evening-created"
ROUND_STARTED = "round-started"
ROUND_CLOSED = "round-closed"
SEATS_SWAPPED = "seats-swapped"
EVENING_WORDS = {
    EVENING_CREATED: N_("evening created"),
    ROUND_STARTED: N_("round %(number)s started"),
    ROUND_CLOSED: N_("round %(number)s closed"),
    SEATS_SWAPPED: N_("seats swapped in round %(number)s"),
}

#: A season's first command, as the season's log keeps it (its other commands are
#: ``changes.seasons``').
SEASON_CREATED = "season-created"

#: The changes of a deal: an undo puts the deal back as it was before the change.
DEAL_KINDS = (RECORDED, EDITED, DELETED)
#: A document's log that does not tell the story of its deals.
DISAGREE = T("The change log and the deals disagree about this deal.")


def entries_json(result: Any) -> dict[str, object]:
    """One side's entries for a deal as the exports write them (every figure, both flags)."""
    return {
        **{name: getattr(result, name) for name in ENTRY_FIELDS},
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


def describe_evening(kind: str, round_number: int | None) -> Text:
    """An evening's command in a few words: "round 2 started"."""
    return T(EVENING_WORDS.get(kind, EVENING_WORDS[EVENING_CREATED]), number=round_number)


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
        for name in BOOLEAN_FIELDS:
            flag = entries.get(name, False)
            if not isinstance(flag, bool):
                raise _refused(f"{where}.{name}", T("True or false."))
            figures[name] = flag
        hand = entries.get("special_hand")
        if hand is not None and hand not in SPECIAL_HAND_NAMES:
            raise _refused(f"{where}.special_hand", T("A special hand's name, or null."))
        figures["special_hand"] = hand
        checked.append(entries_json(DealResult(**figures)))
    return {"version": _count(value.get("version", 1), f"{path}.version"), "results": checked}


#: A change read from a document, and the place in its list of the change it undid.
Read = tuple[Change, int | None]


def read_log(
    items: object,
    sides: int,
    deals: Sequence[tuple[int, Sequence[Any]]],
    path: str = "changes",
    *,
    last_deal: int | None = None,
) -> list[Read]:
    """A game's log from a document, oldest first, every value checked and the whole log
    checked against the deals the document carries (each deal's place and its sides'
    results, of ``SideResult`` or ``DealResult``) and its ``last_deal``: see
    ``check_log``. Each undo comes with the place of the change it undid
    (``link_undoes`` sets its id once they have ids)."""
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
    carried = [(seq, [entries_json(result) for result in results]) for seq, results in deals]
    check_log(found, carried, last_deal, path)
    return found


#: What a change's ``before`` and ``after`` hold: nothing, a deal's entries, a player's
#: name (a rename) or the game's last deal (time called).
NOTHING, DEAL, NAME, LAST = N_("nothing"), N_("a deal's entries"), N_("a name"), N_("a last deal")
#: Each kind's (before, after); an undo's are those of the change it undid, reversed.
_SHAPES = {
    CREATED: (NOTHING, NOTHING),
    GAME_DELETED: (NOTHING, NOTHING),
    GAME_RESTORED: (NOTHING, NOTHING),
    RENAMED: (NAME, NAME),
    TIME_CALLED: (LAST, LAST),
    CONFIRMED: (NOTHING, NOTHING),
    RECORDED: (NOTHING, DEAL),
    EDITED: (DEAL, DEAL),
    DELETED: (DEAL, NOTHING),
}
_UNDONE = {(after, before) for before, after in _SHAPES.values()}


def _shape(state: object) -> str:
    if not isinstance(state, dict) or REPLACED_BY in state:
        return NOTHING  # a swap's marker on a deleted game holds no figures
    return LAST if "last_deal" in state else NAME if "name" in state else DEAL


def _disagrees(path: str, index: int, change: Change, state: str, detail: Text) -> Refused:
    """An entry of the log that is not what the game had: the sentence names the entry
    (its place and kind), its field says what does not match."""
    entry = f"{path}.{index}"
    return Refused(
        Why.INVALID,
        T(
            "The change log's entry %(entry)s (%(what)s) disagrees with the game: %(detail)s",
            entry=entry,
            what=describe(change),
            detail=detail,
        ),
        {f"{entry}.{state}": detail},
    )


def _difference(logged: Sequence[Any], actual: Sequence[Any]) -> tuple[str, object, object]:
    """The first figure two deals' entries differ in: its path, the log's and the deal's."""
    for side, (ours, theirs) in enumerate(zip(logged, actual, strict=True)):
        for name in ours:
            if ours[name] != theirs[name]:
                return f"results.{side}.{name}", ours[name], theirs[name]
    return "results", logged, actual  # not reached: the entries differ somewhere


def check_log(
    log: Sequence[Read],
    deals: Sequence[tuple[int, list[Any]]],
    last_deal: int | None = None,
    path: str = "changes",
) -> None:
    """A log a document carries is the story of the deals it carries, replayed from the
    oldest entry: one creation; each entry's ``before`` and ``after`` of its kind's shape,
    an undo's the reverse of its change's; each deal's change touching a deal that is there
    at that number, and figures as they stood (a deal recorded comes with ``after``, an edit
    replaces figures equal to its ``before``, a deletion takes a deal equal to its
    ``before``); time called moving the game's last deal from what it was. The replay ends
    with the deals carried (``deals``: each one's place and entries, as ``entries_json``
    writes them) and their ``last_deal``. Linear in the log's length and its deals'."""
    creations = [index for index, (change, _place) in enumerate(log) if change.kind == CREATED]
    if len(creations) != 1:
        where = f"{path}.{creations[1]}.kind" if creations else path
        raise _refused(where, T("A game's log holds its creation once."))
    # A deal the log never mentions was there before it began (a document written by hand).
    mentioned = {change.deal_seq for change, _place in log}
    figures: dict[int, list[Any]] = {seq: e for seq, e in deals if seq not in mentioned}
    last: dict[int, int] = {}  # each deal's latest change: the place that set its figures
    length: tuple[int, int | None] | None = None  # the last deal, and the entry that set it
    for index, (change, _place) in enumerate(log):
        _check_shape(log, index, path)
        if change.kind == TIME_CALLED or _shape(change.after) == LAST:
            assert isinstance(change.before, dict) and isinstance(change.after, dict)
            if length is not None and change.before["last_deal"] != length[1]:
                detail = T(
                    "The game's last deal was %(had)s then (as %(by)s left it), not %(logged)s.",
                    had=_deal_or_none(length[1]),
                    by=f"{path}.{length[0]}",
                    logged=_deal_or_none(change.before["last_deal"]),
                )
                raise _disagrees(path, index, change, "before", detail)
            length = (index, change.after["last_deal"])
        if change.kind == CONFIRMED:
            # The other side confirmed a deal as it stood: it was there, at that number.
            seq = change.deal_seq
            numbered = sorted(figures)
            if seq not in numbered or change.deal_number != numbered.index(seq) + 1:
                raise _refused(f"{path}.{index}.deal", DISAGREE)
            continue
        if change.kind not in DEAL_KINDS and change.deal_seq is None:
            continue  # not a deal's change (a rename, a game deleted; their undos)
        seq, had, has = change.deal_seq, results_of(change.before), results_of(change.after)
        live = figures.keys()
        if (
            seq is None
            or (had, has) == (None, None)
            or (seq in live) != (had is not None)
            or change.deal_number != sorted(live | {seq}).index(seq) + 1
        ):
            raise _refused(f"{path}.{index}.deal", DISAGREE)
        if had is not None and had != figures[seq]:
            name, logged, actual = _difference(had, figures[seq])
            detail = T(
                "Deal %(number)s had %(figure)s %(actual)s then (as %(by)s left it), "
                "not %(logged)s.",
                number=change.deal_number,
                figure=name,
                actual=actual,
                by=f"{path}.{last[seq]}",
                logged=logged,
            )
            raise _disagrees(path, index, change, "before", detail)
        if has is not None:
            figures[seq] = has
        else:
            del figures[seq]
        last[seq] = index
    # Where the log leaves a deal the document does not carry, or never records one it does.
    carried = dict(deals)
    gone = sorted(set(figures) - set(carried))
    if gone:
        raise _refused(f"{path}.{last[gone[0]]}.deal", DISAGREE)
    missing = [index for index, (seq, _entries) in enumerate(deals) if seq not in figures]
    if missing:
        raise _refused(f"deals.{missing[0]}", DISAGREE)
    for number, (seq, entries) in enumerate(deals, start=1):
        if figures[seq] != entries:
            name, logged, actual = _difference(figures[seq], entries)
            detail = T(
                "The log leaves deal %(number)s with %(figure)s %(logged)s, but the "
                "document's deal has %(actual)s.",
                number=number,
                figure=name,
                logged=logged,
                actual=actual,
            )
            index = last[seq]
            raise _disagrees(path, index, log[index][0], "after", detail)
    if length is not None and length[1] != last_deal:
        detail = T(
            "The log leaves the game's last deal at %(logged)s, but the document says %(actual)s.",
            logged=_deal_or_none(length[1]),
            actual=_deal_or_none(last_deal),
        )
        raise _disagrees(path, length[0], log[length[0]][0], "after", detail)


def _deal_or_none(last_deal: object) -> object:
    return T("none") if last_deal is None else last_deal


def _check_shape(log: Sequence[Read], index: int, path: str) -> None:
    """Entry ``index`` holds what its kind holds before and after it; an undo, the
    reverse of the change it undid (the same deal, ``before`` its ``after`` and ``after``
    its ``before``)."""
    change, place = log[index]
    shape = (_shape(change.before), _shape(change.after))
    if place is not None:
        undone = log[place][0]
        if change.deal_seq != undone.deal_seq:
            raise _refused(f"{path}.{index}.deal", DISAGREE)
        for state, own, theirs, other in (
            ("before", change.before, undone.after, "after"),
            ("after", change.after, undone.before, "before"),
        ):
            if own != theirs:
                detail = T(
                    "An undo puts back what its change took: %(own)s is %(theirs)s.",
                    own=f"{path}.{index}.{state}",
                    theirs=f"{path}.{place}.{other}",
                )
                raise _disagrees(path, index, change, state, detail)
        return
    wanted = _SHAPES.get(change.kind)
    if wanted is None:  # an undo whose change the document does not name
        if shape in _UNDONE:
            return
        detail = T("An undo holds what the change it undoes holds, the other way round.")
        raise _disagrees(path, index, change, "after", detail)
    for state, own, want in zip(("before", "after"), shape, wanted, strict=True):
        if own != want:
            detail = T(
                "A change of this kind holds %(wanted)s in %(field)s, not %(own)s.",
                wanted=T(want),
                field=f"{path}.{index}.{state}",
                own=T(own),
            )
            raise _disagrees(path, index, change, state, detail)


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
