"""How the benchmark asks the app: one request (``fetch``), a row's request as wrk sends it
(``Endpoint``), as a phone that has been there before (``as_a_browser``), with the signed
cookies the app gives a scorer and a director. ``bench.py`` and the club evening's rows
(``evening_rows.py``) share them."""

from __future__ import annotations

import gzip
import html
import http.client
import os
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from itsdangerous import URLSafeSerializer

#: The key the app is served with, so that the benchmark signs its cookies as the app does.
SECRET_KEY = "benchmark-" + "0" * 32


@dataclass(frozen=True)
class Server:
    base: str
    pid: int
    log: Path

    def processes(self) -> dict[int, list[str]]:
        """The gunicorn master and its workers: each one's fields of ``/proc/<pid>/stat``
        after its name (the parent's pid first)."""
        found = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # a process that ended meanwhile
            pid = int(stat.parent.name)
            if self.pid in (pid, int(fields[1])):
                found[pid] = fields
        return found

    def cpu_seconds(self) -> float:
        """CPU time used so far by the gunicorn master and its workers."""
        used = sum(int(f[11]) + int(f[12]) for f in self.processes().values())  # utime, stime
        return used / os.sysconf("SC_CLK_TCK")

    def worker_memory_mb(self) -> list[float]:
        """Each gunicorn worker's resident memory, in MB: what its kept parts of pages cost
        (CACHE_THRESHOLD)."""
        page = os.sysconf("SC_PAGE_SIZE") / 2**20
        workers = [f for pid, f in self.processes().items() if pid != self.pid]
        return sorted(int(f[21]) * page for f in workers)  # rss, in pages

    def fail(self, message: str) -> SystemExit:
        """Stop the benchmark with ``message`` and the end of the server's log."""
        return SystemExit(f"{message}\n--- the end of {self.log} ---\n{log_tail(self.log)}")


def log_tail(log: Path, lines: int = 40) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@dataclass
class Fetched:
    status: int
    headers: dict[str, str]
    body: bytes
    #: Status line and headers as sent (approximately: the parsed headers re-serialised).
    header_bytes: int
    #: The cookies the answer set (name: value).
    cookies: dict[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return decoded(self).decode("utf-8", "replace")


def fetch(
    base: str,
    path: str,
    headers: Mapping[str, str] | None = None,
    method: str = "GET",
    body: bytes | None = None,
) -> Fetched:
    """One request; the body as it came over the wire (still compressed, if it was)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=dict(headers or {}))
        response = connection.getresponse()
        raw = response.read()
        pairs = response.getheaders()
        header_bytes = len(f"HTTP/1.1 {response.status} {response.reason}\r\n\r\n")
        header_bytes += sum(len(f"{name}: {value}\r\n") for name, value in pairs)
        cookies = dict(
            value.split(";", 1)[0].split("=", 1)
            for name, value in pairs
            if name.lower() == "set-cookie" and "=" in value
        )
        return Fetched(
            response.status, {k.lower(): v for k, v in pairs}, raw, header_bytes, cookies
        )
    finally:
        connection.close()


def decoded(fetched: Fetched) -> bytes:
    encoding = fetched.headers.get("content-encoding", "")
    if encoding == "gzip":
        return gzip.decompress(fetched.body)
    if encoding == "deflate":
        return zlib.decompress(fetched.body)
    if encoding == "br":
        import brotli  # type: ignore[import-not-found,import-untyped,unused-ignore]

        data: bytes = brotli.decompress(fetched.body)
        return data
    return fetched.body


def words(fetched: Fetched) -> str:
    """An answer's text as a reader sees it: without its markup, on one line."""
    try:
        text = fetched.text
    except (OSError, ValueError, zlib.error):
        return repr(fetched.body)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)).strip())


def excerpt(fetched: Fetched, length: int = 300) -> str:
    """The start of an answer's text, on one line, for an error message."""
    return words(fetched)[:length]


@dataclass
class Endpoint:
    name: str
    path: str
    #: The share of the bare view's requests/s the issue asks for (None: no target).
    floor: float | None
    headers: dict[str, str] = field(default_factory=dict)
    script: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    #: The status every request answers; ``sample`` makes one or a few as wrk sends them
    #: (without it: a GET of ``path`` with ``headers``).
    expect: int = 200
    sample: Callable[[str], list[Fetched]] | None = None
    #: What each answer must show (in its ``words``): a page that answers its status but
    #: not what it should (a follower's page instead of the director's) fails the row.
    shows: tuple[str, ...] = ()
    #: The games it saves into, and their size when seeded: how much each grew is reported.
    games: int = 0
    deals: int = 0


def cookie_value(cookie: str, secret: str) -> str:
    """The value of a cookie that holds a secret (``scorer``, ``director``), signed as the
    app signs it: each cookie with a salt of its own."""
    return URLSafeSerializer(SECRET_KEY, salt=f"{cookie}-cookie").dumps(secret)


def scorer_value(token: str) -> str:
    """The value of the cookie the phone that keeps the score holds (the sheet then shows
    the scorer's controls)."""
    return cookie_value("scorer", token)


def scorer_cookie(token: str) -> str:
    return f"scorer={scorer_value(token)}"


def director_cookie(secret: str) -> str:
    """The cookie of the director's browser (the evening's page then shows the buttons)."""
    return f"director={cookie_value('director', secret)}"


def as_a_browser(base: str, endpoint: Endpoint) -> Endpoint:
    """The endpoint as a phone that has been there before asks for it: with the cookies a
    first visit set (the session, which holds the page's CSRF token), as a browser keeps
    them. Without them every request would be a first visit that starts a new session."""
    cookies = fetch(base, endpoint.path, endpoint.headers).cookies
    if cookies:
        jar = [endpoint.headers.get("Cookie", ""), *(f"{k}={v}" for k, v in cookies.items())]
        endpoint.headers = {**endpoint.headers, "Cookie": "; ".join(filter(None, jar))}
    return endpoint


#: A deal as the API records it (``POST /api/games/<id>/deals``).
POST_BODY = (
    b'{"results": [{"meld_points": 220, "natural_canastas": 1, "mixed_canastas": 1, '
    b'"red_threes": 1, "went_out": true, "hand_points": 10}, '
    b'{"meld_points": 150, "red_threes": 2, "hand_points": 85}]}'
)
