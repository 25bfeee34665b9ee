"""The pages: home, new game, score sheet, deal entry."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, SecurityError, default_exceptions
from werkzeug.wrappers import Response as BaseResponse

from ..assets import Assets, serve_static
from ..caching import cached
from ..i18n import remember_zone, render_text
from ..refusals import status_of
from ..rules import RuleSet, score_table
from ..store.errors import Refused, Unavailable
from .answers import refusal_text, wants_json

bp = Blueprint("web", __name__)
# Each page keeps the time zone the phone sent (the dates it shows are in it).
bp.before_request(remember_zone)

#: Error pages in the player's language: a title and what to do.
ERROR_PAGES = {
    400: (lazy_gettext("Bad request"), lazy_gettext("The page could not read what was sent.")),
    403: (lazy_gettext("Not allowed"), lazy_gettext("This phone may not do that.")),
    404: (lazy_gettext("Not found"), lazy_gettext("There is no such page. Check the address.")),
    405: (
        lazy_gettext("Not allowed"),
        lazy_gettext("That page does not take this kind of request."),
    ),
    409: (lazy_gettext("Conflict"), lazy_gettext("The game changed meanwhile; reload it.")),
    410: (lazy_gettext("Deleted"), lazy_gettext("This game was deleted.")),
    413: (lazy_gettext("Too large"), lazy_gettext("What was sent is too large.")),
    429: (lazy_gettext("Too many requests"), lazy_gettext("Wait a little and try again.")),
    500: (lazy_gettext("Something went wrong"), lazy_gettext("Nothing was saved; try again.")),
    503: (
        lazy_gettext("Try again in a moment"),
        lazy_gettext(
            "The scores could not be reached just now; nothing was saved. Try again in a moment."
        ),
    ),
}

PLAIN = {"Content-Type": "text/plain; charset=utf-8"}

TOO_MANY = lazy_gettext(
    "Too many new games from this address in a short time; wait a little and try again."
)

from . import (  # noqa: E402,F401  (registers the views on bp)
    checks,
    confirm,
    deals,
    evenings,
    history,
    log,
    new_game,
    players,
    request_keys,
    rules,
    scorer,
    seasons,
    share,
    sheet,
)


def register_error_pages(app: Flask) -> None:
    """Errors in the page's own words; the API answers JSON (see ``api``)."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> ResponseReturnValue:
        if request.path.startswith("/api/"):
            from ..api import error_response

            return error_response(400, _("The request lacks a valid CSRF token."))
        message = _(
            "This page was open too long or in another browser. "
            "Go back, reload the page and try again: nothing was saved."
        )
        if wants_json():
            return {"error": message, "fields": {}}, 400
        return render_template("error.html", title=_("Page expired"), message=message), 400

    @app.errorhandler(Unavailable)
    def unavailable(error: Unavailable) -> ResponseReturnValue:
        """The database out of reach or locked past the wait (the store's ``Unavailable``),
        on a read or a change: 503 with ``Retry-After``, for a client (and the phone's
        queue of deals, offline.js) to send the same request again."""
        title, message = ERROR_PAGES[503]
        retry = {"Retry-After": str(error.retry_after)}
        if request.path.startswith("/api/"):
            from ..api import error_response

            response = error_response(503, str(message))
            response.headers.update(retry)
            return response
        if wants_json():
            return {"error": str(message), "fields": {}}, 503, retry
        return render_template("error.html", title=title, message=message), 503, retry

    @app.errorhandler(Refused)
    def refused(refusal: Refused) -> ResponseReturnValue:
        """A refusal no view answered itself (``refusals.scorer_only``'s): the error page
        with its status (the API's blueprint answers its own in JSON)."""
        error = default_exceptions[status_of(refusal)](render_text(refusal_text(refusal)))
        return http_error(error)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if isinstance(error, SecurityError):
            # A Host that TRUSTED_HOSTS does not name: no page of this app (nor a link in
            # it) is built for it.
            return _("This server does not answer to that address."), 400, PLAIN
        if request.path.startswith("/api/"):
            from ..api import error_response

            message = error.description or error.name
            if error.code == 413:
                message = _("The request body is too large.")
            if error.code == 429:
                message = str(TOO_MANY)
            response = error_response(error.code or 500, message)
            response.headers.update(_own_headers(error))
            return response
        title, default = ERROR_PAGES.get(error.code or 500, (error.name, error.description))
        # Werkzeug's own English sentence, unless the view said something of its own.
        own = error.description != type(error).description
        description = TOO_MANY if error.code == 429 else (error.description if own else default)
        if wants_json():
            return {"error": str(description), "fields": {}}, error.code or 500, _own_headers(error)
        page = render_template("error.html", title=title, message=description)
        return page, error.code or 500, _own_headers(error)


def _own_headers(error: HTTPException) -> list[tuple[str, str]]:
    """The headers Werkzeug gives the error besides its own HTML body's: a 405's ``Allow``
    (RFC 9110 requires it), a 416's ``Content-Range``, a 401's ``WWW-Authenticate``."""
    body = {"content-type", "content-length"}
    return [(name, value) for name, value in error.get_headers() if name.lower() not in body]


def safe_next() -> str:
    """The ``next`` page of a switch: a path of this app, never another site
    (no scheme or host, no backslash, whitespace or control characters)."""
    target = request.args.get("next", "/")
    parts = urlsplit(target)
    unsafe = any(char.isspace() or ord(char) < 32 or char == "\\" for char in target)
    if (
        unsafe
        or parts.scheme
        or parts.netloc
        or not target.startswith("/")
        or target.startswith("//")
    ):
        return "/"
    return target


def _remember(cookie: str, value: str) -> BaseResponse:
    """A switch's choice, kept for a year; back to the page it was made on."""
    response = redirect(safe_next())
    response.set_cookie(
        cookie,
        value,
        max_age=366 * 24 * 3600,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,
    )
    return response


@bp.get("/language/<code>")
def language(code: str) -> BaseResponse:
    """Switch the language (the switch on every page); remembered for a year."""
    from ..i18n import COOKIE, LANGUAGES

    if code not in LANGUAGES:
        abort(404, _("The app does not speak that language."))
    return _remember(COOKIE, code)


#: The colour scheme: the system's (auto), or one the player chose with the switch.
THEMES = ("auto", "light", "dark")
THEME_COOKIE = "theme"


@bp.get("/theme/<mode>")
def theme(mode: str) -> BaseResponse:
    """Switch light / dark / the system's scheme; remembered for a year."""
    if mode not in THEMES:
        abort(404)
    return _remember(THEME_COOKIE, mode)


def _chosen_theme() -> str:
    chosen = request.cookies.get(THEME_COOKIE, "auto")
    return chosen if chosen in THEMES else "auto"


def page_bar() -> Markup:
    """The bar at the top of every page, rendered once per page, language and scheme."""
    here = request.full_path if request.query_string else request.path
    html = cached(("bar", here, _chosen_theme()), lambda: render_template("_bar.html", here=here))
    return Markup(html)


@bp.app_context_processor
def _theme() -> dict[str, object]:
    chosen = _chosen_theme()
    following = THEMES[(THEMES.index(chosen) + 1) % len(THEMES)]
    return {"theme": chosen, "next_theme": following, "page_bar": page_bar}


#: What the service worker keeps from the start: everything every page loads, the scripts
#: a deal form loads (it must open with no connection) and the sheet's (share.js).
PRECACHE = (
    "app.css",
    "app.js",
    "deal.js",
    "offline.js",
    "score.js",
    "steppers.js",
    "share.js",
    "vendor/htmx-2.0.11.min.js",
    "icon-192.png",
    "manifest.webmanifest",
)


@bp.get("/sw.js")
def service_worker() -> BaseResponse:
    """The service worker, from the root so that it may look after every page. It names
    the static files by their hashed addresses, so each deploy that changes one is a new
    service worker that fetches them anew."""
    assets: Assets = current_app.extensions["assets"]
    script = render_template(
        "sw.js",
        version=assets.version,
        precache=[assets.url(name) for name in PRECACHE],
        current={url_for("static", filename=name): assets.url(name) for name in assets.files},
    )
    response = current_app.response_class(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()  # the browser checks for a new one on every visit: mostly a 304
    response.make_conditional(request)
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/favicon.ico")
def favicon() -> BaseResponse:
    """The app's icon where a browser looks for one on a page that names none (a static
    file or a JSON answer opened on its own): not a 404 in the console."""
    return serve_static("icon.svg")


@bp.get("/offline")
def offline() -> str:
    """What the service worker shows for a page it never saw, with no connection."""
    return render_template("offline.html")


@bp.app_template_filter("variant_name")
def variant_name(variant_id: str) -> str:
    """A rule set's short name, in the reader's language (its id when unknown), its
    table ("2 × 3") kept on one line where a narrow column wraps the name."""
    from ..rules import VARIANTS

    variant = VARIANTS.get(variant_id)
    if variant is None:
        return variant_id
    return str(_(variant.short_name)).replace(" × ", "\u00a0×\u00a0")


@bp.app_template_filter("score_table")
def score_table_of(rule_set: RuleSet) -> dict[str, object]:
    """The numbers a page scores a deal with when it has no connection (static/offline.js)."""
    return score_table(rule_set)
