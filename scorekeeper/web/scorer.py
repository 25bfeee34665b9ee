"""Who may change a game: the scorer cookie that holds its secret, the scorer link that
hands it to another phone, and which phone this is (its label, its last change).

A page or a save only a scorer may open carries ``@scorer_required`` (the API's views the
same check, ``refusals.scorer_only``); the store's command checks the secret it is given
(``scorer_secret()``) again, under the game's lock.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import (
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from itsdangerous import BadSignature, URLSafeSerializer
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse
from wtforms import StringField
from wtforms.validators import InputRequired, Length, Optional

from ..codes import svg
from ..devices import label_of
from ..refusals import scorer_only
from ..rules.limits import MAX_DEVICE, MAX_SECRET
from ..store import games
from ..store.games import Secured
from . import bp
from .answers import head_or_404
from .forms import PageForm
from .share import absolute


def secret_field(label: str, missing: str) -> StringField:
    """A secret from a link's fragment (app.js puts it in: ``data-join-token``) or pasted."""
    return StringField(
        label,
        validators=[InputRequired(missing), Length(max=MAX_SECRET)],
        render_kw={"autocomplete": "off", "spellcheck": "false", "data-join-token": "1"},
    )


class JoinForm(PageForm):
    """Keep score on this phone: the game's secret, from the scorer link or pasted."""

    token = secret_field(
        lazy_gettext("The game's secret"), lazy_gettext("Paste the secret from the scorer link.")
    )
    device = StringField(
        lazy_gettext("This phone's name in the change log"),
        validators=[Optional(), Length(max=MAX_DEVICE)],
        render_kw={"autocomplete": "off", "maxlength": MAX_DEVICE},
    )


#: The cookie that holds a game's edit secret, scoped to that game's pages.
SCORER_COOKIE = "scorer"
SCORER_COOKIE_AGE = 366 * 24 * 3600


@lru_cache(maxsize=16)
def _signer_for(key: str, cookie_name: str) -> URLSafeSerializer:
    """Made once per key and cookie: making one serializes a test value (4 µs on every
    sheet). Each cookie signs with a salt of its own (``scorer-cookie``, ...)."""
    return URLSafeSerializer(key, salt=f"{cookie_name}-cookie")


def read_secret(cookie_name: str) -> str | None:
    """The secret this browser holds in a signed secret cookie (a game's scorer cookie, an
    evening's director cookie), if any."""
    cookie = request.cookies.get(cookie_name)
    if not cookie:
        return None
    try:
        secret = _signer_for(current_app.config["SECRET_KEY"], cookie_name).loads(cookie)
    except BadSignature:
        return None
    return secret if isinstance(secret, str) else None


def keep_secret(response: BaseResponse, cookie_name: str, secret: str, path: str) -> None:
    """Keep a secret in this browser for the pages under ``path``, signed. The answer
    carries it: no cache keeps it."""
    response.headers["Cache-Control"] = "private, no-store"
    response.set_cookie(
        cookie_name,
        _signer_for(current_app.config["SECRET_KEY"], cookie_name).dumps(secret),
        max_age=SCORER_COOKIE_AGE,
        path=path,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


def scorer_secret() -> str | None:
    """The game secret this browser holds (the signed scorer cookie), if any."""
    return read_secret(SCORER_COOKIE)


def can_score(game: Secured) -> bool:
    """Only a browser holding the game's secret (its creator, or a scorer link) may change it."""
    return games.secret_matches(game, scorer_secret())


#: A page of a game (``game_id``) for its scorer alone: a phone without the game's secret
#: gets the 403 page, an unknown game the 404 page (the API's views check their secret alike).
scorer_required = scorer_only(scorer_secret)


#: Games this phone keeps score of, newest last, in its (signed) session: the scorer cookie
#: is sent to its game's pages only, and the roster's pages need to know (renaming a player
#: takes the right to keep score of a game they sat in).
SCORING = "scoring"
#: Enough for a season of evenings; an older game comes back when its sheet is opened.
SCORING_KEPT = 40


def note_scoring(game_id: str) -> None:
    """Remember in the session that this phone keeps score of ``game_id``."""
    scoring = session.get(SCORING, [])
    if game_id not in scoring:
        session[SCORING] = [*scoring, game_id][-SCORING_KEPT:]


def scored_games() -> list[str]:
    """The games this phone keeps score of (as far as its session remembers)."""
    scoring = session.get(SCORING, [])
    return [game_id for game_id in scoring if isinstance(game_id, str)]


def set_scorer_cookie(response: BaseResponse, game_id: str, secret: str) -> None:
    """Make this phone the game's scorer: the secret in its cookie, for the game's pages."""
    note_scoring(game_id)
    keep_secret(response, SCORER_COOKIE, secret, url_for("web.sheet", game_id=game_id))


#: The label this phone picked for the change log ("Ana's phone"), in its session.
DEVICE = "device"


def device_label() -> str:
    """How the change log names this phone: its own label, else its browser and system."""
    label = session.get(DEVICE)
    if isinstance(label, str) and label:
        return label
    return label_of(request.headers.get("User-Agent", ""))


def name_this_phone(label: str | None) -> None:
    """Keep the label a phone gave itself on the new-game or join page (blank: unchanged)."""
    label = " ".join((label or "").split())
    if label and label.isprintable():
        session[DEVICE] = label


#: The change this phone made last, for the Undo next to its flash message.
LAST_CHANGE = "last_change"


def changed(message: str, game_id: str, change: int | None) -> None:
    """Flash what a change did, and offer to undo it on the next page."""
    flash(message, "saved")
    if change is not None:
        session[LAST_CHANGE] = {"game": game_id, "change": change}


def last_change(game_id: str | None = None) -> tuple[str, int] | None:
    """The game and change to offer Undo for on this page (of ``game_id``, or of any game
    on the home page), taken from the session: offered once."""
    last = session.pop(LAST_CHANGE, None)
    if not isinstance(last, dict) or game_id not in (None, last.get("game")):
        return None
    game, change = last.get("game"), last.get("change")
    return (game, change) if isinstance(game, str) and isinstance(change, int) else None


@bp.get("/games/<game_id>/scorer-code")
@scorer_required
def scorer_code(game_id: str) -> BaseResponse:
    """The scorer link and its QR code, for the scorer's phone alone, on a tap in the
    share panel (the sheet never holds the secret)."""
    head_or_404(game_id)
    link, code = secret_link("web.join", scorer_secret() or "", game_id=game_id)
    html = render_template(
        "games/scorer_code.html", game_id=game_id, scorer_link=link, code_svg=code
    )
    return no_store(html)


def secret_link(endpoint: str, secret: str, **where: Any) -> tuple[str, Markup]:
    """A link that hands a secret to another device, and its QR code: the secret rides in
    the fragment, which browsers never send, so no server logs it."""
    link = absolute(url_for(endpoint, **where)) + f"#{secret}"
    return link, Markup(svg(link))


def no_store(html: str, status: int = 200) -> BaseResponse:
    """A page that holds a secret (a scorer or director link, or one pasted and refused):
    no cache keeps it."""
    response = current_app.make_response((html, status))
    response.headers["Cache-Control"] = "private, no-store"
    return response


def take_secret(
    form: JoinForm,
    matches: Callable[[str], bool],
    keep: Callable[[BaseResponse, str], None],
    onward: str,
    wrong: str,
) -> BaseResponse | int:
    """A link's secret (its form's ``token``) handed to this browser: once it ``matches``,
    the phone's name kept and the redirect to ``onward`` that keeps the secret (``keep``);
    else the status of the page drawn again, 403 after a wrong secret (``wrong`` says so
    at its field)."""
    if form.validate_on_submit():
        secret = (form.token.data or "").strip()
        if matches(secret):
            name_this_phone(form.device.data)
            response = redirect(onward)
            keep(response, secret)
            return response
        form.token.errors = [*form.token.errors, wrong]
    return 403 if form.is_submitted() else 200


@bp.route("/games/<game_id>/join", methods=["GET", "POST"])
def join(game_id: str) -> BaseResponse:
    """The scorer link: hands the game's secret to another phone. The link carries it in
    its fragment (``#secret``), which app.js posts here; it can also be pasted."""
    game = head_or_404(game_id)
    form = JoinForm()
    taken = take_secret(
        form,
        lambda secret: games.secret_matches(game, secret),
        lambda response, secret: set_scorer_cookie(response, game_id, secret),
        url_for("web.sheet", game_id=game_id),
        _("This is not the secret of this game."),
    )
    if not isinstance(taken, int):
        return taken
    if not form.is_submitted():
        form.device.data = session.get(DEVICE) or ""
    hint = label_of(request.headers.get("User-Agent", ""))
    return no_store(
        render_template("games/join.html", game=game, form=form, device_hint=hint), taken
    )
