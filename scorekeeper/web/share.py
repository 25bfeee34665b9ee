"""QR codes of this app's pages, to scan from another phone at the table."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, abort, current_app, request, url_for

from ..codes import svg
from . import bp

#: Long enough for any page's address with its filters, and for shared house rules (every
#: option of a six-player Railroad table changed to its largest value comes to about 420);
#: a code stays easy to scan.
LONGEST_PATH = 600
#: The code of an address changes only with the address (the host is part of it).
CODE_CACHE = "public, max-age=86400"


def public_host() -> str:
    """The host (and port) of the addresses the app hands out: the configured one where
    there is one (``SERVER_NAME``, else the first single host of ``TRUSTED_HOSTS``, whose
    other hosts Flask answers 400), else the request's ``Host`` (``make run-lan``: the
    address the phone reached this computer by). docs/DEPLOY.md says which to set."""
    config = current_app.config
    if config.get("SERVER_NAME"):
        return str(config["SERVER_NAME"])
    for host in config.get("TRUSTED_HOSTS") or ():
        if not host.startswith("."):  # ".example.org": a domain and its subdomains
            return str(host)
    return request.host


@bp.app_template_global()
def absolute(path: str) -> str:
    """The address a phone opens for ``path`` (as ``url_for`` gives it): the scheme the
    request came by, on the app's public host (``public_host``)."""
    return f"{request.scheme}://{public_host()}{path}"


@bp.app_template_global()
def code_of(path: str) -> str:
    """The image address of the QR code of ``path`` (a path of this app)."""
    return url_for("web.code", path=path)


@bp.app_template_global()
def this_page() -> str:
    """The path of the page being shown, with its query (its filters, its rule set)."""
    return request.full_path if request.query_string else request.path


@bp.app_template_global()
def codable(path: str) -> bool:
    """Whether ``path`` has a QR code here (a longer one is only linked)."""
    return _app_path(path)


def _app_path(path: str) -> bool:
    """A path (with its query) of this app: never another site, never a fragment (where a
    scorer link carries the game's secret: that code comes from its own page)."""
    parts = urlsplit(path)
    return (
        path.startswith("/")
        and not path.startswith("//")
        and not parts.scheme
        and not parts.netloc
        and "#" not in path
        and "\\" not in path
        and not any(char.isspace() or ord(char) < 32 for char in path)
        and len(path) <= LONGEST_PATH
    )


@bp.get("/code.svg")
def code() -> Response:
    """The QR code of one of this app's addresses (``?path=/games/…``), as SVG."""
    path = request.args.get("path", "")
    if not _app_path(path):
        abort(404)
    response = current_app.response_class(svg(absolute(path)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = CODE_CACHE
    return response
