"""Who directs an evening: the director cookie that holds the evening's secret, and the
director link that hands it to another device (as ``scorer.py`` does for a game).

The secret is checked by the store's commands (``store.evenings``); the pages only read
the cookie to decide which buttons to show and to derive each table's scorer link.
"""

from __future__ import annotations

from flask import abort, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from werkzeug.wrappers import Response as BaseResponse

from ...i18n import render_text
from ...store import evenings
from ...store.changes.evenings import NOT_DIRECTOR
from ...store.games import Secured
from .. import bp
from ..scorer import keep_secret, no_store, read_secret, secret_link, take_secret
from .forms import DirectorJoinForm

#: The cookie that holds an evening's secret, scoped to that evening's pages.
DIRECTOR_COOKIE = "director"

NO_EVENING = lazy_gettext("There is no such evening. Check the address.")


def director_secret() -> str | None:
    """The evening secret this browser holds (the signed director cookie), if any."""
    return read_secret(DIRECTOR_COOKIE)


def is_director(evening: Secured) -> bool:
    return evenings.director_matches(evening, director_secret())


def director_or_403(evening_id: str) -> str:
    """The director's secret, or the 404 page (no such evening) or 403 page (not the
    director's browser)."""
    stamp = stamp_or_404(evening_id)
    secret = director_secret()
    if secret is None or not evenings.director_matches(stamp, secret):
        abort(403, render_text(NOT_DIRECTOR))
    return secret


def set_director_cookie(response: BaseResponse, evening_id: str, secret: str) -> None:
    """Make this browser the evening's director: the secret in its cookie, sent to the
    evening's pages only."""
    keep_secret(response, DIRECTOR_COOKIE, secret, url_for("web.evening", evening_id=evening_id))


@bp.get("/evenings/<evening_id>/director-link")
def director_link(evening_id: str) -> BaseResponse:
    """The director's link and its QR code, to move directing to another device: the
    secret rides in the fragment, which no browser sends to a server."""
    secret = director_or_403(evening_id)
    link, code = secret_link("web.director_join", secret, evening_id=evening_id)
    return no_store(
        render_template(
            "evenings/director_link.html", evening_id=evening_id, link=link, code_svg=code
        )
    )


def stamp_or_404(evening_id: str) -> evenings.Stamp:
    """The evening's stamp (its version and the director's secret's hash), or the 404 page."""
    stamp = evenings.stamp_of(evening_id)
    if stamp is None:
        abort(404, str(NO_EVENING))
    return stamp


@bp.route("/evenings/<evening_id>/join", methods=["GET", "POST"])
def director_join(evening_id: str) -> BaseResponse:
    """The director's link: its fragment (``#secret``) is put in the form by app.js; the
    secret can also be pasted. The right one makes this browser the director's."""
    stamp = stamp_or_404(evening_id)
    form = DirectorJoinForm()
    taken = take_secret(
        form,
        lambda secret: evenings.director_matches(stamp, secret),
        lambda response, secret: set_director_cookie(response, evening_id, secret),
        url_for("web.evening", evening_id=evening_id),
        _("This is not the secret of this evening."),
    )
    if not isinstance(taken, int):
        return taken
    return no_store(render_template("evenings/join.html", evening_id=evening_id, form=form), taken)
