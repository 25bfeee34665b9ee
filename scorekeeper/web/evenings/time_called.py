"""A club table's scorer once the director called time (RULES.md section 16): the table
was between deals, so its round ends after the deals recorded. Asks first."""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from ...i18n import render_text
from ...store import changes, evenings, games
from ...store.errors import Refused
from .. import bp
from ..answers import abort_if_lost, game_or_404, refusal_text
from ..forms import PageForm
from ..request_keys import page_key
from ..scorer import changed, device_label, scorer_required, scorer_secret


@bp.get("/games/<game_id>/time-called")
@scorer_required
def no_deal_in_progress(game_id: str) -> str:
    """Asks: no deal was in progress when time was called?"""
    sheet = games.sheet_of(game_or_404(game_id))
    return render_template(
        "evenings/time_called.html",
        sheet=sheet,
        called=not sheet.state.finished and evenings.time_called(game_id),
        form=PageForm(),
    )


@bp.post("/games/<game_id>/time-called")
def confirm_no_deal_in_progress(game_id: str) -> BaseResponse:
    """The confirmed answer: the table's round ends after the deals recorded."""
    if not PageForm().validate_on_submit():
        return redirect(url_for("web.no_deal_in_progress", game_id=game_id))
    try:
        ended = changes.no_deal_in_progress(
            game_id, secret=scorer_secret(), device=device_label(), request_key=page_key()
        )
    except Refused as refusal:
        abort_if_lost(refusal)
        flash(render_text(refusal_text(refusal)), "error")
        return redirect(url_for("web.sheet", game_id=game_id))
    changed(_("The round ended at this table."), game_id, ended.change)
    return redirect(url_for("web.sheet", game_id=game_id))
