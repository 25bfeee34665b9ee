"""Who directs an evening: the director cookie that holds the evening's secret, and the
director link that hands it to another device (as ``scorer.py`` does for a game).

The secret is checked by the store's commands (``store.evenings``); the pages only read
the cookie to decide which buttons to show and to derive each table's scorer link.
"""

from __future__ import annotations

from flask import abort, current_app, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ...codes import svg
from ...store import evenings
from ...store.games import Secured
from .. import bp
from ..scorer import keep_secret, name_this_phone, read_secret
from ..share import absolute
from .forms import DirectorJoinForm

#: The cookie that holds an evening's secret, scoped to that evening's pages.
DIRECTOR_COOKIE = "director"

NO_EVENING = lazy_gettext("There is no such evening. Check the address.")
NOT_DIRECTOR = lazy_gettext(
    "Only the evening's director can do this (the director's link holds the secret)."
)


def director_secret() -> str | None:
    """The evening secret this browser holds (the signed director cookie), if any."""
    return read_secret(DIRECTOR_COOKIE)


def is_director(evening: Secured) -> bool:
    return evenings.director_matches(evening, director_secret())


def director_or_403(evening_id: str) -> str:
    """The director's secret, or the 404 page (no such evening) or 403 page (not the
    director's browser)."""
    stamp = evenings.stamp_of(evening_id)
    if stamp is None:
        abort(404, str(NO_EVENING))
    secret = director_secret()
    if secret is None or not evenings.director_matches(stamp, secret):
        abort(403, str(NOT_DIRECTOR))
    return secret


def set_director_cookie(response: BaseResponse, evening_id: str, secret: str) -> None:
    """Make this browser the evening's director: the secret in its cookie, sent to the
    evening's pages only."""
    keep_secret(response, DIRECTOR_COOKIE, secret, url_for("web.evening", evening_id=evening_id))


def no_store(html: str, status: int = 200) -> BaseResponse:
    """A page that holds a secret (a scorer or director link): no cache keeps it."""
    response = current_app.make_response((html, status))
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/evenings/<evening_id>/director-link")
def director_link(evening_id: str) -> BaseResponse:
    """The director's link and its QR code, to move directing to another device: the
    secret rides in the fragment, which no browser sends to a server."""
    secret = director_or_403(evening_id)
    link = absolute(url_for("web.director_join", evening_id=evening_id)) + f"#{secret}"
    return no_store(
        render_template(
            "evenings/director_link.html",
            evening_id=evening_id,
            link=link,
            code_svg=Markup(svg(link)),
        )
    )


@bp.route("/evenings/<evening_id>/join", methods=["GET", "POST"])
def director_join(evening_id: str) -> BaseResponse:
    """The director's link: its fragment (``#secret``) is put in the form by app.js; the
    secret can also be pasted. The right one makes this browser the director's."""
    stamp = evenings.stamp_of(evening_id)
    if stamp is None:
        abort(404, str(NO_EVENING))
    form = DirectorJoinForm()
    if form.validate_on_submit():
        secret = (form.token.data or "").strip()
        if evenings.director_matches(stamp, secret):
            name_this_phone(form.device.data)
            response = redirect(url_for("web.evening", evening_id=evening_id))
            set_director_cookie(response, evening_id, secret)
            return response
        form.token.errors = [*form.token.errors, _("This is not the secret of this evening.")]
    status = 403 if form.is_submitted() else 200
    return no_store(render_template("evenings/join.html", evening_id=evening_id, form=form), status)
