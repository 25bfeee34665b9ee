"""Results confirmed by the other side at a club table (an evening that asks for it): the
table card's second code opens the confirm link, which hands that phone the table's
confirm secret; the phone then follows the sheet with a "Confirm" button per deal not
confirmed yet.

The secret travels as the scorer's does (``scorer.py``): in the link's fragment, put into
the join form by app.js and taken out of the address bar, then kept in a signed cookie of
its own sent to the game's pages only. The sheet shows the buttons to the browser holding
it (``scorer.can_confirm``); its offline copy (``X-Offline-Copy``) is the plain follower's view, and
the store checks the secret again under the game's lock.
"""

from __future__ import annotations

from flask import abort, flash, make_response, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from ..devices import label_of
from ..i18n import render_text
from ..store import changes, games
from ..store.errors import Refused
from ..store.games import DealTag, Version
from . import bp
from .answers import NO_GAME, REFUSALS, abort_if_lost, head_or_404, refusal_text
from .forms import ConfirmForm
from .request_keys import page_key
from .scorer import (
    CONFIRMER_COOKIE,
    DEVICE,
    JoinForm,
    confirmer_secret,
    device_label,
    keep_secret,
    no_store,
    take_secret,
)
from .sheet import sheet


def _version_or_404(game_id: str) -> Version:
    current = games.version_of(game_id)
    if current is None:
        abort(404, str(NO_GAME))
    return current


@bp.route("/games/<game_id>/confirm", methods=["GET", "POST"])
def confirm_join(game_id: str) -> BaseResponse:
    """The confirm link of a table card: hands the other side's secret to this phone. The
    link carries it in its fragment (``#secret``), which app.js puts in the form; it can
    also be pasted."""
    current = _version_or_404(game_id)
    head = head_or_404(game_id)
    form = JoinForm()
    sheet = url_for("web.sheet", game_id=game_id)
    taken = take_secret(
        form,
        lambda secret: games.confirmer_matches(current.confirm_hash, secret),
        lambda response, secret: keep_secret(response, CONFIRMER_COOKIE, secret, sheet),
        sheet,
        _("This is not the other side's secret of this table."),
    )
    if not isinstance(taken, int):
        return taken
    if not form.is_submitted():
        form.device.data = session.get(DEVICE) or ""
    hint = label_of(request.headers.get("User-Agent", ""))
    html = render_template("games/confirm_join.html", game=head, form=form, device_hint=hint)
    return no_store(html, taken)


def _tag(form: ConfirmForm) -> DealTag | None:
    """The deal as the Confirm button showed it (its place and version), if the form says."""
    seq, version = form.seq.data or "", form.version.data or ""
    if seq.isdigit() and version.isdigit():
        return DealTag(int(seq), int(version))
    return None


@bp.post("/games/<game_id>/deals/<int:number>/confirm")
def confirm_deal(game_id: str, number: int) -> BaseResponse:
    """The other side confirms a deal as its sheet showed it; back to the sheet, which says
    so. A refusal the sheet can show (the deal changed since) is said on top of it, with
    the refusal's status."""
    form = ConfirmForm()
    form.validate()
    try:
        confirmed = changes.confirm_deal(
            game_id,
            number,
            secret=confirmer_secret(),
            expected=_tag(form),
            device=device_label(),
            request_key=page_key(),
        )
    except Refused as refusal:
        abort_if_lost(refusal)
        flash(render_text(refusal_text(refusal)), "error")
        response = make_response(sheet(game_id))
        response.status_code = REFUSALS[refusal.why].status
        return response
    flash(_("Deal %(number)s confirmed.", number=confirmed.number), "saved")
    return redirect(url_for("web.sheet", game_id=game_id))
