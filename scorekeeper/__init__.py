"""Canasta Scorekeeper: the Flask application factory."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app
from werkzeug.exceptions import NotFound
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from . import assets, i18n, sessions
from .caching import cache
from .extensions import compress, csrf, htmx, limiter, migrate
from .rules.limits import MAX_ID
from .store import db
from .store.db import engine_options

PACKAGE = Path(__file__).resolve().parent
MIGRATIONS = PACKAGE / "migrations"


def shipped(name: str) -> Path:
    """``templates`` or ``static``: inside the package when installed from a wheel (which
    puts them there), at the top of the repository in a checkout (where they live)."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else PACKAGE.parent / name


#: Everything the pages need comes from this origin: no inline script, and no inline
#: style but the one stylesheet a whole page carries (``assets.INLINE_STYLESHEET``), by
#: the hash of its text.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' {style}; img-src 'self' data:; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def content_security_policy(style_hash: str) -> str:
    """The CSP with the inline stylesheet's hash (``Assets.style_hash``, kept per file)."""
    return CONTENT_SECURITY_POLICY.format(style=style_hash)


#: Sent with every answer unless the view set its own (with the CSP).
SECURITY_HEADERS = {
    # Scorer links carry a secret: never send an address to another site.
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


def security_headers(response: Response) -> Response:
    """The CSP and ``SECURITY_HEADERS`` on every answer (after_request), unless the view
    set its own. Plain Flask rather than Flask-Talisman: docs/LIBRARIES.md says why.

    A page differs by whether htmx boosted its request (a whole page carries the inline
    stylesheet), so a cache keeps the two apart."""
    found: assets.Assets = current_app.extensions["assets"]
    response.headers.setdefault(
        "Content-Security-Policy", content_security_policy(found.style_hash())
    )
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if response.mimetype == "text/html":
        response.vary.add("HX-Boosted")
    return response


class IdConverter(IntegerConverter):
    """``<int:...>`` in every route (ids, deal numbers): a whole number the tables can
    hold. A larger one names nothing: 404 before a query that SQLite or PostgreSQL would
    refuse with a 500. (NotFound, not ValidationError: that would answer 405 where the
    path has a route for another method.)"""

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise NotFound()
        return number


def database_url(url: str) -> str:
    """Accept the common spellings of a PostgreSQL URL and use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _secret_key(instance: Path) -> str:
    """A key kept in the instance folder, made on first start, so sessions (and their
    CSRF tokens) survive a restart without any set-up. Made whole and then linked into
    place: workers starting together all read the one that got there first."""
    path = instance / "secret_key"
    if not path.exists():
        draft = instance / f".secret_key.{os.getpid()}"
        draft.write_text(secrets.token_hex(32))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the app: defaults, then instance/config.py, then FLASK_* variables."""
    app = Flask(
        __name__,
        # Unset: Flask's default, instance/ in a checkout, <venv>/var/scorekeeper-instance
        # when installed.
        instance_path=os.environ.get("SCOREKEEPER_INSTANCE"),
        template_folder=str(shipped("templates")),
        static_folder=str(shipped("static")),
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)

    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{instance / 'scorekeeper.sqlite'}",
        # A CSRF token lives as long as the session: a long game evening, and more.
        WTF_CSRF_TIME_LIMIT=None,
        # Sessions are permanent (sessions.SessionInterface) and last 31 days from their last
        # change: Flask sends the cookie when the session changes, not with every answer (a
        # follower's poll every 10 seconds would carry it each time). docs/LIBRARIES.md.
        PERMANENT_SESSION_LIFETIME=timedelta(days=31),
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # Bring the database schema up to date on start (creates SQLite on first start).
        AUTO_MIGRATE=True,
        MAX_CONTENT_LENGTH=64 * 1024,
        # An export of a whole game (a long one is a few hundred kilobytes) taken back.
        IMPORT_MAX_CONTENT_LENGTH=4 * 1024 * 1024,
        # The most JSON `flask restore` reads (decompressed): some thousands of long games.
        RESTORE_MAX_BYTES=256 * 1024 * 1024,
        # Games a client may create: enough for a club evening, too few to fill a disk.
        GAME_CREATION_LIMIT="30 per hour;10 per minute",
        RATELIMIT_STORAGE_URI="memory://",
        # A shared store that is down must not stop a game starting: each process counts
        # on its own until the store answers again.
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        RATELIMIT_HEADERS_ENABLED=True,
        # API.md: RATELIMIT_ENABLED=false in the environment lifts the limit.
        RATELIMIT_ENABLED=os.environ.get("RATELIMIT_ENABLED", "true").lower()
        not in ("false", "0", "no", "off"),
        # Pages, JSON and the service worker compressed per response (Brotli preferred);
        # static files are compressed once at start (see assets.py). Quality 4, not 5: a
        # third less CPU for 5 to 10% more bytes (docs/PERFORMANCE.md, issue 32).
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_BR_LEVEL=4,
        # An answer that fits one packet gains nothing from compression but its cost.
        COMPRESS_MIN_SIZE=1400,
        # Rendered parts of pages, keyed by the versions of what they show (caching.py):
        # each worker's memory by default; CACHE_TYPE=RedisCache (and CACHE_REDIS_URL)
        # shares them between workers.
        CACHE_TYPE="SimpleCache",
        CACHE_DEFAULT_TIMEOUT=3600,
        # A club evening of 3,000 live tables: each game keeps about ten entries (its
        # parts of pages, tens of kilobytes, and the facts its requests are checked
        # against). Past the threshold SimpleCache sorts every entry on each new one
        # (docs/PERFORMANCE.md, "The cache's size").
        CACHE_THRESHOLD=30_000,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env()
    else:
        app.config.from_mapping(test_config)
    if os.environ.get("DATABASE_URL") and (
        test_config is None or "SQLALCHEMY_DATABASE_URI" not in test_config
    ):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    url = app.config["SQLALCHEMY_DATABASE_URI"] = database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", engine_options(url))
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or _secret_key(instance)

    if app.config.get("PROXY_FIX"):
        # Behind N reverse proxies: trust their X-Forwarded-For/-Proto (secure cookies, and
        # the rate limit per real client).
        hops = int(app.config["PROXY_FIX"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]

    db.init_app(app)
    compress.init_app(app)
    cache.init_app(app)
    assets.init_app(app)
    sessions.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    csrf.init_app(app)
    htmx.init_app(app)
    i18n.init_app(app)
    limiter.init_app(app)
    app.after_request(security_headers)

    from . import api, cli, web

    app.url_map.converters["int"] = IdConverter  # before the routes that use it

    cli.init_app(app)

    app.register_blueprint(web.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # the API takes the secret in a header, not a cookie
    web.register_error_pages(app)

    if app.config["AUTO_MIGRATE"]:
        upgrade_database(app)
    return app


def upgrade_database(app: Flask) -> None:
    """Apply the committed migrations (Alembic) up to the newest one. Safe to run from
    several processes at once: the migrations take a lock (migrations/env.py)."""
    from flask_migrate import upgrade

    with app.app_context():
        upgrade(directory=str(MIGRATIONS))
