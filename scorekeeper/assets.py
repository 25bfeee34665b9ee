"""Static files under names that carry a hash of their content, compressed once at start.

``static_url('app.css')`` in a template gives ``/static/app.<hash>.css``. That name is
served with a year-long, immutable cache lifetime: a new deploy changes the content, so the
name, and phones fetch the new file once. The plain name (``/static/app.css``) still works
with a short lifetime; an outdated hash of a known file gets the current file, revalidated
every time, so a page from before a deploy still finds its CSS and script.

Each file is read, hashed and compressed (Brotli and gzip, at their best settings) when the
app starts, so serving it costs no disk access and no compression per request. The app's own
stylesheets and scripts are served minified by kept minifiers (rcssmin, rjsmin: ``minified``):
the comments are for whoever reads the source, and were a fifth of what a phone fetched.
Why this is not flask-static-digest or WhiteNoise: docs/LIBRARIES.md.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, current_app, request, send_from_directory, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

#: Hex digits of the content's SHA-256 in a file name: plenty to tell versions apart.
HASH_LENGTH = 10
#: A hashed name never changes its content: keep it a year, never revalidate.
IMMUTABLE = "public, max-age=31536000, immutable"
#: A plain name may change with the next deploy: keep it briefly.
SHORT_MAX_AGE = 600
#: Smaller than this, compression saves less than it costs (as Flask-Compress's default).
MIN_COMPRESS_SIZE = 500
COMPRESSIBLE = {
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
    "text/css",
    "text/javascript",
    "text/plain",
}

#: The stylesheet a whole page carries inline (issue 45): its first paint waits for no
#: request. The same file is still served, for the copies of boosted pages (whose head htmx
#: leaves alone) that the service worker keeps.
INLINE_STYLESHEET = "app.css"

HASHED_NAME = re.compile(
    rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{HASH_LENGTH}}})(?P<suffix>\.[^./]+)?$"
)


@dataclass(frozen=True)
class Asset:
    """One static file: its bytes, their hash, and their compressed forms."""

    name: str  # relative to the static folder, with "/"
    digest: str
    mimetype: str
    body: bytes
    encoded: dict[str, bytes] = field(default_factory=dict)

    @property
    def hashed_name(self) -> str:
        """``vendor/htmx-2.0.11.min.js`` -> ``vendor/htmx-2.0.11.min.<digest>.js``."""
        folder, _, base = self.name.rpartition("/")
        stem, dot, suffix = base.rpartition(".")
        hashed = f"{stem}.{self.digest}.{suffix}" if dot and stem else f"{base}.{self.digest}"
        return f"{folder}/{hashed}" if folder else hashed


#: The app's own CSS and JavaScript are served minified; a vendored file (``.min.``) is
#: served as shipped.
MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def minified(name: str, body: bytes) -> bytes:
    """A stylesheet or script of the app's own without its comments and spaces (rcssmin,
    rjsmin); any other file as it is."""
    minify = MINIFIERS.get(Path(name).suffix)
    if minify is None or ".min." in name:
        return body
    return bytes(minify(body))


@functools.lru_cache(maxsize=256)
def compressed(body: bytes) -> tuple[tuple[str, bytes], ...]:
    """Brotli first (preferred when a browser takes both), then gzip; only the forms that
    are smaller. Remembered by content: every app in the process (each test makes one,
    gunicorn's workers one each) compresses a file once."""
    candidates = (
        ("br", brotli.compress(body, mode=brotli.MODE_TEXT, quality=11)),
        ("gzip", gzip.compress(body, compresslevel=9, mtime=0)),
    )
    return tuple((coding, data) for coding, data in candidates if len(data) < len(body))


@functools.lru_cache(maxsize=16)
def csp_hash(body: bytes) -> str:
    """``'sha256-<base64>'``: a CSP source for an inline element of exactly this text."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"


def read_asset(path: Path, name: str) -> Asset:
    """Hash a file as served (``minified``) and compress it when that is worth it."""
    body = minified(name, path.read_bytes())
    mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    encoded: dict[str, bytes] = {}
    if mimetype in COMPRESSIBLE and len(body) >= MIN_COMPRESS_SIZE:
        encoded = dict(compressed(body))
    digest = hashlib.sha256(body).hexdigest()[:HASH_LENGTH]
    return Asset(name=name, digest=digest, mimetype=mimetype, body=body, encoded=encoded)


class Assets:
    """Every file in the static folder, by its plain name."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: dict[str, Asset] = {}
        self._stamps: dict[str, tuple[float, int]] = {}
        self._urls: dict[tuple[str, str], str] = {}
        self.refresh()

    def refresh(self) -> None:
        """Read the files that are new or changed since the last look (once at start; on
        every request in debug mode, so an edited stylesheet shows up at once)."""
        seen: dict[str, tuple[float, int]] = {}
        for path in sorted(self.folder.rglob("*")):
            name = path.relative_to(self.folder).as_posix()
            if not path.is_file() or any(part.startswith(".") for part in name.split("/")):
                continue
            stat = path.stat()
            seen[name] = (stat.st_mtime, stat.st_size)
            if self._stamps.get(name) != seen[name]:
                self.files[name] = read_asset(path, name)
        for gone in self.files.keys() - seen.keys():
            del self.files[gone]
        self._stamps = seen

    @property
    def version(self) -> str:
        """A hash of every file's hash: changes whenever any static file does."""
        listing = "\n".join(f"{name} {asset.digest}" for name, asset in sorted(self.files.items()))
        return hashlib.sha256(listing.encode()).hexdigest()[:HASH_LENGTH]

    def url(self, name: str) -> str:
        """The address of a static file under its hashed name (the plain one if unknown);
        built once per name and root path (every page names six)."""
        asset = self.files.get(name)
        filename = asset.hashed_name if asset else name
        key = (filename, request.script_root)
        found = self._urls.get(key)
        if found is None:
            found = self._urls[key] = url_for("static", filename=filename)
        return found

    def inline(self, name: str = INLINE_STYLESHEET) -> Markup:
        """A stylesheet's text as served, to go inside a ``<style>`` element."""
        return Markup(self.files[name].body.decode())

    def style_hash(self, name: str = INLINE_STYLESHEET) -> str:
        """The CSP source that allows ``inline(name)`` and no other inline style."""
        return csp_hash(self.files[name].body)

    def find(self, requested: str) -> tuple[Asset, bool] | None:
        """The file a static address asks for, and whether it asks for this very content."""
        if requested in self.files:
            return self.files[requested], False
        match = HASHED_NAME.match(requested)
        if match is None:
            return None
        asset = self.files.get(match["stem"] + (match["suffix"] or ""))
        if asset is None:
            return None
        return asset, match["digest"] == asset.digest


def serve_static(filename: str) -> BaseResponse:
    """Flask's static view, from memory: a hashed name for a year, a plain one briefly."""
    assets: Assets = current_app.extensions["assets"]
    found = assets.find(filename)
    if found is None:
        # Not read at start (added since?): from the disk, briefly cached; or a 404.
        return send_from_directory(assets.folder, filename, max_age=SHORT_MAX_AGE)
    asset, current = found
    coding = request.accept_encodings.best_match(list(asset.encoded)) if asset.encoded else None
    body = asset.encoded[coding] if coding else asset.body
    response = Response(body, mimetype=asset.mimetype)
    if coding:
        response.headers["Content-Encoding"] = coding
    if asset.encoded:
        response.vary.add("Accept-Encoding")
    response.set_etag(asset.digest + (f"-{coding}" if coding else ""))
    if current:
        response.headers["Cache-Control"] = IMMUTABLE
    elif filename == asset.name:
        response.cache_control.public = True
        response.cache_control.max_age = SHORT_MAX_AGE
    else:
        # An outdated hash (a page from before a deploy): today's file, but never kept
        # under a name that promises other content.
        response.cache_control.no_cache = True
    return response.make_conditional(request)


def init_app(app: Flask) -> Assets:
    """Read the static folder, serve it from memory and give templates ``static_url``."""
    assets = Assets(Path(app.static_folder or "static"))
    app.extensions["assets"] = assets
    app.view_functions["static"] = serve_static
    app.jinja_env.globals["static_url"] = assets.url
    app.jinja_env.globals["inline_style"] = assets.inline
    if app.debug:
        app.before_request(assets.refresh)
    return assets
