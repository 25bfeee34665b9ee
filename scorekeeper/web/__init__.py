"""The pages: home, new game, score sheet, deal entry."""

from __future__ import annotations

from flask import Blueprint, Flask, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

bp = Blueprint("web", __name__)

TOO_MANY = lazy_gettext(
    "Too many new games from this address in a short time; wait a little and try again."
)

from . import checks, games, rules  # noqa: E402,F401  (registers the views on bp)


def register_error_pages(app: Flask) -> None:
    """Errors in the page's own words; the API answers JSON (see ``api``)."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> ResponseReturnValue:
        if request.path.startswith("/api/"):
            from ..api import error_response

            return error_response(400, _("The request lacks a valid CSRF token."))
        return render_template(
            "error.html",
            title=_("Page expired"),
            message=_(
                "This page was open too long or in another browser. "
                "Go back, reload the page and try again: nothing was saved."
            ),
        ), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if request.path.startswith("/api/"):
            from ..api import error_response

            message = error.description or error.name
            if error.code == 413:
                message = _("The request body is too large.")
            if error.code == 429:
                message = str(TOO_MANY)
            return error_response(error.code or 500, message)
        description = TOO_MANY if error.code == 429 else error.description
        return render_template(
            "error.html", title=_(error.name), message=description
        ), error.code or 500


@bp.get("/language/<code>")
def language(code: str) -> BaseResponse:
    """Switch the language (the switch on every page); remembered for a year."""
    from flask import abort, redirect

    from ..i18n import COOKIE, LANGUAGES

    if code not in LANGUAGES:
        abort(404, _("The app does not speak that language."))
    target = request.args.get("next", "/")
    if not target.startswith("/") or target.startswith("//"):
        target = "/"  # only back into this app
    response = redirect(target)
    response.set_cookie(COOKIE, code, max_age=366 * 24 * 3600, samesite="Lax", httponly=True)
    return response


#: The colour scheme: the system's (auto), or one the player chose with the switch.
THEMES = ("auto", "light", "dark")
THEME_COOKIE = "theme"


@bp.get("/theme/<mode>")
def theme(mode: str) -> BaseResponse:
    """Switch light / dark / the system's scheme; remembered for a year."""
    from flask import abort, redirect

    if mode not in THEMES:
        abort(404)
    target = request.args.get("next", "/")
    if not target.startswith("/") or target.startswith("//"):
        target = "/"
    response = redirect(target)
    response.set_cookie(THEME_COOKIE, mode, max_age=366 * 24 * 3600, samesite="Lax", httponly=True)
    return response


@bp.app_context_processor
def _theme() -> dict[str, object]:
    chosen = request.cookies.get(THEME_COOKIE, "auto")
    chosen = chosen if chosen in THEMES else "auto"
    following = THEMES[(THEMES.index(chosen) + 1) % len(THEMES)]
    return {"theme": chosen, "next_theme": following}


@bp.get("/sw.js")
def service_worker() -> BaseResponse:
    """The service worker, from the root so that it may look after every page."""
    from flask import current_app, send_from_directory

    response = send_from_directory(current_app.static_folder or "static", "sw.js", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline")
def offline() -> str:
    """What the service worker shows for a page it never saw, with no connection."""
    return render_template("offline.html")
