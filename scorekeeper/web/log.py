"""A game's change log: every change, who made it and when, Undo for any of them; and
deleting and restoring a game."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask import abort, flash, make_response, redirect, render_template, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse
from wtforms import HiddenField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, Optional

from ..i18n import number, render_text, signed
from ..rules import CanastaKind, RuleSet, SideResult, figure_name, score_breakdown
from ..rules.limits import MAX_DEVICE, MAX_REQUEST_KEY
from ..store import changes, evenings, games, log
from ..store.errors import Refused, Why, check_name
from ..store.models import Change
from . import bp
from .answers import REFUSALS, abort_if_lost, refusal_text
from .forms import ConfirmForm, PageForm
from .request_keys import page_key
from .scorer import (
    DEVICE,
    can_score,
    changed,
    device_label,
    last_change,
    scored_games,
    scorer_required,
    scorer_secret,
)
from .sheet import sheet


class UndoForm(PageForm):
    """An Undo button: ``nonce`` makes a double tap undo once; ``next`` says which page
    the phone goes back to."""

    nonce = HiddenField(validators=[Optional(), Length(max=MAX_REQUEST_KEY)])
    next = HiddenField(validators=[Optional(), AnyOf(("sheet", "changes"))])


class DeviceForm(PageForm):
    """The label the change log shows for this phone."""

    device = StringField(
        _l("This phone's name in the change log"),
        validators=[InputRequired(_l("Give this phone a name.")), Length(max=MAX_DEVICE)],
        render_kw={"autocomplete": "off", "maxlength": MAX_DEVICE},
    )


#: The figures of a side's entry, in the order the log lists what an edit changed.
FIGURES = (
    "meld_points",
    *(kind.field for kind in CanastaKind),
    "concealed_canastas",
    "red_threes",
    "black_threes_in_hand",
    "black_threes_taken",
    "went_out",
    "concealed",
    "hand_points",
)
#: The flags' names in the log (the deal form's words); the figures are named by the
#: rules (``figure_name``: Samba's sequence canastas are "Sambas").
FLAGS = {"went_out": _l("went out"), "concealed": _l("Went out concealed")}


def _label(rules: RuleSet, figure: str) -> str:
    return str(FLAGS[figure]) if figure in FLAGS else _(figure_name(rules, figure))


@dataclass(frozen=True)
class LogLine:
    """One line of the log as the page shows it."""

    change: Change
    #: "Deal 3 edited"
    title: str
    #: "They, Left in hand 120 → 20", or each side's score for a deal recorded or deleted.
    details: tuple[str, ...]
    #: Undo (or Redo, for an undo) is offered.
    undoable: bool


def _figure(value: object) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return number(value) if isinstance(value, int) else str(value)


def _results(state: object) -> list[Mapping[str, object]]:
    return [r for r in log.results_of(state) or [] if isinstance(r, dict)]


def _differences(
    before: object, after: object, sides: Sequence[str], rules: RuleSet
) -> tuple[str, ...]:
    """What an edit changed: "Them, Left in hand 120 → 20", one line per figure; or what a
    rename did: "Ana → Anna". A figure an older entry lacks was 0."""
    if isinstance(before, dict) and isinstance(after, dict) and "name" in before:
        return (f"{before['name']} → {after.get('name')}",)
    lines = []
    for name, was, now in zip(sides, _results(before), _results(after), strict=False):
        for field in FIGURES:
            old, new = was.get(field, 0), now.get(field, 0)
            if old != new:
                lines.append(f"{name}, {_label(rules, field)} {_figure(old)} → {_figure(new)}")
    return tuple(lines)


def _scores(state: object, sides: Sequence[str], rules: RuleSet) -> tuple[str, ...]:
    """A deal's score per side: "Us +1,210", "Them +265"."""
    lines = []
    for name, entries in zip(sides, _results(state), strict=False):
        try:
            score = score_breakdown(SideResult(**entries), rules).total  # type: ignore[arg-type]
        except TypeError:
            continue  # not an entry this version reads
        lines.append(f"{name} {signed(score)}")
    return (" · ".join(lines),) if lines else ()


def _entry(
    change: Change,
    sides: Sequence[str],
    rules: RuleSet,
    scorer: bool,
    by_id: Mapping[int, Change],
    kept_closed: str | None = None,
) -> LogLine:
    title = render_text(log.describe(change))
    if change.kind == log.UNDO:
        reverted = by_id.get(change.undoes or 0)
        title = _("Undo of change %(id)s", id=change.undoes)
        if reverted is not None and reverted.kind == log.UNDO:
            # An undo undone makes the first change again: say which.
            original = by_id.get(reverted.undoes or 0)
            title = _("Redo of change %(id)s", id=reverted.undoes)
            reverted = original
        if reverted is not None:
            title = f"{title}: {render_text(log.describe(reverted))}"
        if change.before is not None and change.after is not None:
            details = _differences(change.before, change.after, sides, rules)
        else:  # a deal taken away, or brought back: its scores
            details = _scores(change.before or change.after, sides, rules)
    elif change.kind in (log.EDITED, log.RENAMED):
        details = _differences(change.before, change.after, sides, rules)
    elif change.kind == log.RECORDED:
        details = _scores(change.after, sides, rules)
    elif change.kind == log.DELETED:
        details = _scores(change.before, sides, rules)
    elif change.kind == log.TIME_CALLED and kept_closed and not change.undone:
        details = (kept_closed,)  # why it has no Undo
    else:
        details = ()
    undoable = (
        scorer
        and not change.undone
        and change.kind != log.CREATED
        and log.replacement(change) is None  # a swap's: the game stays deleted
        and not (change.kind == log.TIME_CALLED and kept_closed)
        # The other side's confirmation: an edit of the deal clears it, nothing undoes it.
        and change.kind != log.CONFIRMED
    )
    return LogLine(change, title[:1].upper() + title[1:], details, undoable)


@bp.get("/games/<game_id>/changes")
def change_log(game_id: str) -> str:
    """The game's changes, newest first; the scorer may undo any of them."""
    current = games.version_of(game_id)
    found = games.log_of(game_id)
    if current is None or found is None:
        abort(404, render_text(changes.NO_GAME))
    game = games.load(game_id)
    assert game is not None
    scorer = can_score(current)
    sides = [side.name for side in game.sides]
    rules = games.rules_for(game)
    by_id = {change.id: change for change in found}
    kept_closed = None
    if any(change.kind == log.TIME_CALLED for change in found):
        rounds = evenings.next_round_seated(game_id)
        if rounds is not None:  # time called stays called
            kept_closed = render_text(changes.round_seated(*rounds))
    entries = [_entry(change, sides, rules, scorer, by_id, kept_closed) for change in found]
    device = DeviceForm(data={"device": device_label()})
    return render_template(
        "games/changes.html",
        game=game,
        entries=entries,
        scorer=scorer,
        form=UndoForm(),
        nonce=secrets.token_urlsafe(12),
        device_form=device,
        deleted=current.deleted,
        undo=last_change(game_id) if scorer else None,
        game_id=game_id,
    )


def _back(game_id: str, page: str | None) -> BaseResponse:
    if page == "changes":
        return redirect(url_for("web.change_log", game_id=game_id))
    current = games.version_of(game_id)
    if current is not None and current.deleted:
        return redirect(url_for("web.index"))
    return redirect(url_for("web.sheet", game_id=game_id))


@bp.post("/games/<game_id>/changes/<int:change_id>/undo")
def undo(game_id: str, change_id: int) -> BaseResponse:
    """Undo one change (a double tap undoes it once); the flash offers to undo the undo."""
    form = UndoForm()
    form.validate()
    try:
        undone = changes.undo_change(
            game_id,
            change_id,
            secret=scorer_secret(),
            device=device_label(),
            request_key=page_key(form.nonce.data or ""),
            scoring=scored_games(),
        )
    except Refused as refusal:
        abort_if_lost(refusal)
        flash(render_text(refusal_text(refusal)), "error")
        return _back(game_id, "changes")
    reverted = undone.reverted
    if reverted.kind == log.UNDO and undone.original is not None:
        message = _("Redone: %(what)s.", what=render_text(log.describe(undone.original)))
    else:
        message = _("Undone: %(what)s.", what=render_text(log.describe(reverted)))
    changed(message, game_id, undone.change)
    return _back(game_id, form.next.data if not form.next.errors else None)


@bp.get("/games/<game_id>/delete")
@scorer_required
def delete_game(game_id: str) -> str | BaseResponse:
    """Delete the game, after a question; the next page offers to restore it."""
    game = games.load(game_id)
    if game is None or game.deleted_at is not None:
        return redirect(url_for("web.sheet", game_id=game_id))
    sheet = games.sheet_of(game)
    return render_template("games/delete.html", sheet=sheet, form=ConfirmForm(), game_id=game_id)


@bp.post("/games/<game_id>/delete")
def confirm_delete_game(game_id: str) -> BaseResponse:
    """The confirmed deletion (the store checks the secret). A refusal the game's page can
    show (a table of a club evening, deleted already) is said on top of it, with the
    refusal's status; nothing was changed."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        return redirect(url_for("web.delete_game", game_id=game_id))
    try:
        deleted = changes.delete_game(
            game_id, secret=scorer_secret(), device=device_label(), request_key=page_key()
        )
    except Refused as refusal:
        abort_if_lost(refusal)
        flash(render_text(refusal_text(refusal)), "error")
        response = make_response(sheet(game_id))
        response.status_code = REFUSALS[refusal.why].status
        return response
    changed(_("Game deleted."), game_id, deleted.change)
    return redirect(url_for("web.index"))


@bp.post("/games/<game_id>/restore")
def restore_game(game_id: str) -> BaseResponse:
    """Bring a deleted game back, as it was."""
    try:
        restored = changes.restore_game(
            game_id, secret=scorer_secret(), device=device_label(), request_key=page_key()
        )
    except Refused as refusal:
        if refusal.why is not Why.CONFLICT:
            abort_if_lost(refusal)
        return redirect(url_for("web.sheet", game_id=game_id))
    changed(_("Game restored."), game_id, restored.change)
    return redirect(url_for("web.sheet", game_id=game_id))


@bp.post("/games/<game_id>/device")
def name_device(game_id: str) -> BaseResponse:
    """Name this phone for the change log (kept in its session, for every game)."""
    form = DeviceForm()
    error = None
    if not form.validate():
        error = form.device.errors[0]
    else:
        try:
            session[DEVICE] = check_name(form.device.data or "", "device", side=False)
        except Refused as refusal:
            error = render_text(refusal.text)
    if error:
        flash(_("This phone's name: %(error)s", error=error), "error")
    return redirect(url_for("web.change_log", game_id=game_id))
