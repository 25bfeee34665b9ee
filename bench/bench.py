"""The benchmark of issue 8: the app under gunicorn against a bare Flask view, with wrk.

It seeds a realistic database once (``seed.py``, through the store layer), then for each
database (SQLite, and PostgreSQL when ``DATABASE_URL_TEST`` names a server, as
``scripts/with-postgres`` exports it) serves the baseline, then the app, then the baseline
again, with the same gunicorn settings, loads every endpoint with wrk and prints requests per
second, p50 and p99 latency, the server's CPU time per request, the ratio to the baseline (the
mean of its two measurements: the shared machine's pace drifts) and the verdict against the
targets; then the page weight of the score sheet with everything it loads.
docs/PERFORMANCE.md explains the figures.

    bench/run                 # both databases, 10 s per endpoint (about 6 minutes)
    bench/run --quick         # a smaller database, 3 s per endpoint: a smoke test
    bench/run --db sqlite     # one database"""

from __future__ import annotations

import argparse
import gzip
import http.client
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from itsdangerous import URLSafeSerializer

from scorekeeper import create_app

sys.path.insert(0, str(Path(__file__).resolve().parent))
from seed import Seeded, copy_into, seed  # bench/ is not a package

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
#: Gunicorn settings shared by the baseline and the app: the issue's two workers, defaults
#: otherwise (sync workers, no keep-alive).
GUNICORN = ["-w", "2", "--log-level", "warning"]
#: The issue's targets.
#: Where the issue sets the ratios (p99 and errors count everywhere).
RATIO_DATABASES = ("sqlite",)
READ_RATIO = 0.40
WRITE_RATIO = 0.25
P99_MS = 50.0
PAGE_WEIGHT_KB = 40.0
SECRET_KEY = "benchmark-" + "0" * 32
ACCEPT_ENCODING = "gzip, br"


# --- serving -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class Server:
    base: str
    pid: int

    def cpu_seconds(self) -> float:
        """CPU time used so far by the gunicorn master and its workers."""
        tick = os.sysconf("SC_CLK_TCK")
        used = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # a process that ended meanwhile
            pid, parent = int(stat.parent.name), int(fields[1])
            if self.pid in (pid, parent):
                used += int(fields[11]) + int(fields[12])  # utime, stime
        return used / tick


@contextmanager
def gunicorn(app: str, env: Mapping[str, str], log: Path, ready: str = "/") -> Iterator[Server]:
    """Serve ``app`` (a gunicorn app spec) on a free loopback port."""
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", *GUNICORN, "-b", f"127.0.0.1:{port}", app]
    with log.open("ab") as out:
        server = subprocess.Popen(
            command, cwd=ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise SystemExit(f"gunicorn {app} exited; see {log}:\n{log.read_text()[-2000:]}")
            try:
                if fetch(base, ready).status < 500:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"gunicorn {app} did not answer within 60 s; see {log}")
            time.sleep(0.2)
        yield Server(base, server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@dataclass
class Fetched:
    status: int
    headers: dict[str, str]
    body: bytes
    #: Status line and headers as sent (approximately: the parsed headers re-serialised).
    header_bytes: int

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
        return Fetched(response.status, {k.lower(): v for k, v in pairs}, raw, header_bytes)
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


# --- loading with wrk ----------------------------------------------------------------------


@dataclass
class Load:
    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    #: Answers that were not 2xx or 3xx, and socket errors.
    errors: int
    #: CPU time the server's processes spent per request (PostgreSQL's own not counted).
    cpu_ms: float = 0.0


def mean_load(first: Load, second: Load) -> Load:
    """Two measurements of one endpoint taken minutes apart, as one: the machine is
    shared, and its pace drifts while the app's endpoints are measured between them."""
    return Load(
        rps=(first.rps + second.rps) / 2,
        p50_ms=(first.p50_ms + second.p50_ms) / 2,
        p99_ms=max(first.p99_ms, second.p99_ms),
        requests=first.requests + second.requests,
        errors=first.errors + second.errors,
        cpu_ms=(first.cpu_ms + second.cpu_ms) / 2,
    )


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS[unit]


def parse_wrk(output: str) -> Load:
    """requests/sec, the 50% and 99% latencies and the errors of ``wrk --latency``."""

    def find(pattern: str) -> re.Match[str]:
        match = re.search(pattern, output, re.MULTILINE)
        if match is None:
            raise ValueError(f"wrk printed no {pattern!r}:\n{output}")
        return match

    errors = 0
    if non_2xx := re.search(r"Non-2xx or 3xx responses: (\d+)", output):
        errors += int(non_2xx.group(1))
    if sockets := re.search(r"Socket errors: (.*)", output):
        errors += sum(int(n) for n in re.findall(r"\d+", sockets.group(1)))
    return Load(
        rps=float(find(r"^Requests/sec:\s+([\d.]+)").group(1)),
        p50_ms=_ms(find(r"^\s+50%\s+(\S+)").group(1)),
        p99_ms=_ms(find(r"^\s+99%\s+(\S+)").group(1)),
        requests=int(find(r"^\s+(\d+) requests in").group(1)),
        errors=errors,
    )


@dataclass
class Settings:
    seconds: int
    warmup: int
    connections: int
    threads: int
    #: Only the endpoints whose name contains this (None: all of them).
    only: str | None = None


def wrk(
    settings: Settings,
    url: str,
    headers: Mapping[str, str] | None = None,
    script: Path | None = None,
    env: Mapping[str, str] | None = None,
    seconds: int | None = None,
) -> Load:
    command = [
        "wrk",
        "--latency",
        f"-t{settings.threads}",
        f"-c{settings.connections}",
        f"-d{seconds or settings.seconds}s",
        "--timeout",
        "10s",
    ]
    # As a browser asks (the app then pays for compressing its answers, as it would).
    for name, value in {"Accept-Encoding": ACCEPT_ENCODING, **(headers or {})}.items():
        command += ["-H", f"{name}: {value}"]
    if script is not None:
        command += ["-s", str(script)]
    done = subprocess.run(
        [*command, url],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    return parse_wrk(done.stdout)


def measure(
    settings: Settings, server: Server, path: str, endpoint: Endpoint | None = None
) -> Load:
    """Warm up, then load ``path`` for the configured time; with the server's CPU time per
    request, which another process's load on the machine hardly changes."""
    url = server.base + path
    headers = endpoint.headers if endpoint else {}
    script = endpoint.script if endpoint else None
    env = endpoint.env if endpoint else {}
    wrk(settings, url, headers, script, env, seconds=settings.warmup)
    before = server.cpu_seconds()
    load = wrk(settings, url, headers, script, env)
    load.cpu_ms = (server.cpu_seconds() - before) * 1000 / max(load.requests, 1)
    return load


# --- the endpoints -------------------------------------------------------------------------


@dataclass
class Endpoint:
    name: str
    path: str
    #: "read" or "write": which target applies.
    kind: str = "read"
    headers: dict[str, str] = field(default_factory=dict)
    script: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    #: Pages being built elsewhere: "n/a" unless they answer 200.
    optional: bool = False


@dataclass
class Row:
    db: str
    endpoint: str
    load: Load | None
    baseline: Load
    kind: str = "read"
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """Requests per second as a share of the baseline's (the issue's measure)."""
        return None if self.load is None else self.load.rps / self.baseline.rps

    @property
    def cpu_ratio(self) -> float | None:
        """The baseline's CPU time per request as a share of this endpoint's: about the
        ratio a quiet machine would show."""
        if self.load is None or not self.load.cpu_ms:
            return None
        return self.baseline.cpu_ms / self.load.cpu_ms

    @property
    def verdict(self) -> str:
        if self.load is None or self.ratio is None:
            return "n/a"
        if self.kind == "baseline":
            return ""
        floor = WRITE_RATIO if self.kind == "write" else READ_RATIO
        missed = []
        below = self.ratio < floor
        if below and self.db in RATIO_DATABASES:
            missed.append(f"rps < {floor:.0%}")
        if self.load.p99_ms >= P99_MS:
            missed.append(f"p99 ≥ {P99_MS:.0f} ms")
        if self.load.errors:
            missed.append(f"{self.load.errors} errors")
        if missed:
            return "FAIL: " + ", ".join(missed)
        # The ratios are the targets on SQLite: PostgreSQL's server shares the
        # machine's cores with the app and wrk, and its CPU is not in the app's figures.
        return f"pass (rps < {floor:.0%}: a target on SQLite)" if below else "pass"


def scorer_cookie(game_id: str, token: str) -> str:
    """The cookie the phone that keeps the score holds (the sheet then shows the scorer's
    controls), signed as the app signs it."""
    value = URLSafeSerializer(SECRET_KEY, salt="scorer-cookie").dumps(token)
    return f"scorer={value}"


def as_a_browser(base: str, endpoint: Endpoint) -> Endpoint:
    """The endpoint as a phone that has been there before asks for it: with the cookies a
    first visit set (the session, which holds the page's CSRF token), as a browser keeps
    them. Without them every request would be a first visit that starts a new session."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        connection.request("GET", endpoint.path, headers=endpoint.headers)
        response = connection.getresponse()
        response.read()
        cookies = [
            value.split(";", 1)[0]
            for name, value in response.getheaders()
            if name.lower() == "set-cookie"
        ]
    finally:
        connection.close()
    if cookies:
        jar = "; ".join(filter(None, [endpoint.headers.get("Cookie", ""), *cookies]))
        endpoint.headers = {**endpoint.headers, "Cookie": jar}
    return endpoint


def endpoints(base: str, seeded: Seeded, games_file: Path) -> list[Endpoint]:
    typical, long = seeded.typical_id, seeded.long_id
    scorer = {
        typical: {"Cookie": scorer_cookie(typical, seeded.tokens["typical"])},
        long: {"Cookie": scorer_cookie(long, seeded.tokens["long"])},
    }
    # Only a follower's sheet polls (every 10 s); the scorer's phone never asks for it.
    htmx = {"HX-Request": "true", "HX-Target": "sheet-live", "HX-Trigger": "sheet-live"}
    etag = fetch(base, f"/games/{typical}", htmx).headers.get("etag", "")
    found = [
        as_a_browser(
            base,
            Endpoint(
                f"sheet page, {seeded.typical_deals} deals",
                f"/games/{typical}",
                headers=scorer[typical],
            ),
        ),
        as_a_browser(
            base,
            Endpoint(
                f"sheet page, {seeded.long_deals} deals", f"/games/{long}", headers=scorer[long]
            ),
        ),
        Endpoint(
            f"sheet partial (htmx), {seeded.typical_deals} deals", f"/games/{typical}", headers=htmx
        ),
        Endpoint(
            f"sheet partial (htmx), {seeded.long_deals} deals", f"/games/{long}", headers=htmx
        ),
        Endpoint(
            "sheet partial, unchanged (304)",
            f"/games/{typical}",
            headers={**htmx, "If-None-Match": etag},
        ),
        Endpoint(f"GET /api/games/<id>, {seeded.typical_deals} deals", f"/api/games/{typical}"),
        Endpoint(f"GET /api/games/<id>, {seeded.long_deals} deals", f"/api/games/{long}"),
        as_a_browser(base, Endpoint("history page", "/history", optional=True)),
    ]
    statistics = player_page(base, [f"/games/{typical}", "/history", "/players"])
    found.append(
        as_a_browser(base, Endpoint("statistics page", statistics or "/players/", optional=True))
    )
    found.append(
        Endpoint(
            "record a deal (POST)",
            "/api/games/{open}/deals",
            kind="write",
            script=BENCH / "post_deal.lua",
            env={"BENCH_GAMES": str(games_file)},
        )
    )
    return found


def player_page(base: str, pages: list[str]) -> str | None:
    """A player's statistics page, as the sheet or the history page links to it."""
    for page in pages:
        found = fetch(base, page)
        if found.status == 200:
            link = re.search(r'href="(/players/[^"/?#]+)"', found.text)
            if link:
                return link.group(1)
    return None


def check(base: str, endpoint: Endpoint, seeded: Seeded) -> str | None:
    """Why the endpoint cannot be measured (None: it can): one request as wrk will send it."""
    if endpoint.script is not None:
        game_id, token = seeded.open_games[0]
        answer = fetch(
            base,
            f"/api/games/{game_id}/deals",
            {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            "POST",
            POST_BODY,
        )
        expected = 201
    else:
        answer = fetch(
            base, endpoint.path, {"Accept-Encoding": ACCEPT_ENCODING, **endpoint.headers}
        )
        expected = 304 if "If-None-Match" in endpoint.headers else 200
    if answer.status == expected:
        return None
    if endpoint.optional:
        return f"answers {answer.status}"
    raise SystemExit(f"{endpoint.name}: {endpoint.path} answered {answer.status}, not {expected}")


POST_BODY = (
    b'{"results": [{"meld_points": 220, "natural_canastas": 1, "mixed_canastas": 1, '
    b'"red_threes": 1, "went_out": true, "hand_points": 10}, '
    b'{"meld_points": 150, "red_threes": 2, "hand_points": 85}]}'
)


# --- page weight ---------------------------------------------------------------------------


#: Links a browser follows while loading a page.
LOADED_RELS = frozenset(
    ("stylesheet", "icon", "shortcut", "manifest", "apple-touch-icon", "preload", "modulepreload")
)


class _Loads(HTMLParser):
    """What a browser fetches for a page: stylesheets, scripts, icons, the manifest, images."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        url = None
        if tag == "link" and LOADED_RELS & set(values.get("rel", "").lower().split()):
            url = values.get("href")
        elif tag in ("script", "img") and values.get("src"):
            url = values["src"]
        if url and not url.startswith("data:") and url not in self.urls:
            self.urls.append(url)


@dataclass
class Weight:
    page: str
    #: (path, status, content-encoding, body bytes, header bytes)
    parts: list[tuple[str, int, str, int, int]]

    @property
    def body_bytes(self) -> int:
        return sum(part[3] for part in self.parts)

    @property
    def wire_bytes(self) -> int:
        return sum(part[3] + part[4] for part in self.parts)


def page_weight(base: str, path: str, headers: Mapping[str, str]) -> Weight:
    """The page and what it loads, each asked for with Accept-Encoding: gzip, br."""
    ask = {**headers, "Accept-Encoding": ACCEPT_ENCODING}
    page = fetch(base, path, ask)
    parser = _Loads()
    parser.feed(page.text)
    urls = list(parser.urls)
    encoding = page.headers.get("content-encoding", "-")
    parts = [(path, page.status, encoding, len(page.body), page.header_bytes)]
    for url in urls:
        target = urljoin(path, url)
        if urlsplit(target).netloc:
            continue  # another origin: the app loads nothing from one
        got = fetch(base, target, {"Accept-Encoding": ACCEPT_ENCODING})
        encoding = got.headers.get("content-encoding", "-")
        parts.append((target, got.status, encoding, len(got.body), got.header_bytes))
        if target.split("?")[0].endswith(".css") and got.status == 200:
            for inner in re.findall(r"url\(\s*['\"]?([^'\")]+)", got.text):
                if not inner.startswith("data:") and inner not in urls:
                    urls.append(urljoin(target, inner))
    return Weight(path, parts)


# --- one database --------------------------------------------------------------------------


def seed_once(root: Path, games: int) -> tuple[Path, Seeded]:
    """Seed a SQLite database through the store layer; every database run starts from a
    copy of it, so SQLite and PostgreSQL serve the same games."""
    path = root / "seed.sqlite"
    os.environ["SCOREKEEPER_INSTANCE"] = str(root)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": SECRET_KEY})
    print(f"Seeding {games} finished games, a 200-deal game and open games …", flush=True)
    seeded = seed(app, games=games)
    print(
        f"Seeded {seeded.finished} finished games and {seeded.deals} deals in "
        f"{seeded.seconds:.0f} s (a typical game: {seeded.typical_deals} deals)",
        flush=True,
    )
    return path, seeded


def run_database(
    name: str,
    url: str | None,
    source: Path,
    seeded: Seeded,
    settings: Settings,
    weight: bool,
) -> tuple[list[Row], list[Weight]]:
    print(f"\n== {name} ({os.getloadavg()[0]:.1f} load average) ==", flush=True)
    work = Path(tempfile.mkdtemp(prefix=f"scorekeeper-bench-{name}-"))
    try:
        if url is None:
            with (
                closing(sqlite3.connect(source)) as seeded_db,
                closing(sqlite3.connect(work / "scorekeeper.sqlite")) as copy,
            ):
                seeded_db.backup(copy)
        else:
            os.environ["SCOREKEEPER_INSTANCE"] = str(work)
            app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET_KEY})
            seconds = copy_into(f"sqlite:///{source}", app)
            print(f"copied the seeded games into PostgreSQL in {seconds:.0f} s", flush=True)
        games_file = work / "open-games.txt"
        games_file.write_text("".join(f"{g} {t}\n" for g, t in seeded.open_games))

        env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "FLASK_"))}
        env |= {
            "SCOREKEEPER_INSTANCE": str(work),
            "RATELIMIT_ENABLED": "false",
            "SECRET_KEY": SECRET_KEY,
            "FLASK_AUTO_MIGRATE": "false",
        }
        if url:
            env["DATABASE_URL"] = url
        log = work / "gunicorn.log"

        def bare(when: str) -> Load:
            with gunicorn("baseline:app", {**env, "PYTHONPATH": str(BENCH)}, log) as server:
                load = measure(settings, server, "/")
            print(
                f"  {'baseline (bare Flask), ' + when:<34} {load.rps:8.0f} rps  p50 "
                f"{load.p50_ms:6.1f} ms  p99 {load.p99_ms:6.1f} ms  {load.cpu_ms:.2f} CPU "
                "ms/request",
                flush=True,
            )
            return load

        # Measured before and after the app's endpoints; each is judged against the mean
        # (lines printed meanwhile show the ratio to the first measurement).
        baseline = bare("before")
        rows = [Row(name, "baseline: bare Flask view, before", baseline, baseline, "baseline")]

        weights: list[Weight] = []
        with gunicorn("scorekeeper:create_app()", env, log, ready="/api/variants") as server:
            base = server.base
            for endpoint in endpoints(base, seeded, games_file):
                if settings.only and settings.only not in endpoint.name:
                    continue
                reason = check(base, endpoint, seeded)
                if reason is not None:
                    rows.append(Row(name, endpoint.name, None, baseline, note=reason))
                    print(f"  {endpoint.name:<34}      n/a ({reason})", flush=True)
                    continue
                path = endpoint.path.replace("{open}", seeded.open_games[0][0])
                load = measure(settings, server, path, endpoint)
                row = Row(name, endpoint.name, load, baseline, endpoint.kind)
                rows.append(row)
                print(
                    f"  {endpoint.name:<34} {load.rps:8.0f} rps  p50 {load.p50_ms:6.1f} ms  "
                    f"p99 {load.p99_ms:6.1f} ms  {load.cpu_ms:6.2f} CPU ms/request  "
                    f"{row.ratio:4.0%} (CPU {row.cpu_ratio or 0:4.0%})  {row.verdict}",
                    flush=True,
                )
            if weight:
                for game_id, key in ((seeded.typical_id, "typical"), (seeded.long_id, "long")):
                    cookie = {"Cookie": scorer_cookie(game_id, seeded.tokens[key])}
                    weights.append(page_weight(base, f"/games/{game_id}", cookie))
        after = bare("after")
        both = mean_load(baseline, after)
        rows.append(Row(name, "baseline: bare Flask view, after", after, after, "baseline"))
        rows = [row if row.kind == "baseline" else replace(row, baseline=both) for row in rows]
        judged = [row for row in rows if row.kind != "baseline" and row.load is not None]
        if judged:
            print(f"  against the baseline's mean ({both.rps:.0f} rps):", flush=True)
            for row in judged:
                print(f"    {row.endpoint:<32} {row.ratio:4.0%}  {row.verdict}", flush=True)
        return rows, weights
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- the report ----------------------------------------------------------------------------


def table(rows: list[Row]) -> str:
    lines = [
        "| database | endpoint | req/s | p50 ms | p99 ms | × baseline | target | verdict "
        "| CPU ms/req | CPU × baseline |",
        "|---|---|--:|--:|--:|--:|---|---|--:|--:|",
    ]
    for row in rows:
        floor = {"baseline": None, "read": READ_RATIO, "write": WRITE_RATIO}[row.kind]
        target = ""
        if floor is not None:
            ratio = f"≥ {floor:.0%}, " if row.db in RATIO_DATABASES else ""
            target = f"{ratio}p99 < {P99_MS:.0f} ms"
        if row.load is None:
            lines.append(
                f"| {row.db} | {row.endpoint} | n/a | | | | {target} | n/a ({row.note}) | | |"
            )
            continue
        load = row.load
        lines.append(
            f"| {row.db} | {row.endpoint} | {load.rps:,.0f} | {load.p50_ms:.1f} | "
            f"{load.p99_ms:.1f} | {row.ratio:.0%} | {target} | {row.verdict} | "
            f"{load.cpu_ms:.2f} | {row.cpu_ratio or 0:.0%} |"
        )
    return "\n".join(lines)


def weight_report(weight: Weight) -> str:
    lines = [
        f"Page weight of {weight.page} (Accept-Encoding: {ACCEPT_ENCODING}):",
        "| file | status | encoding | body bytes | header bytes |",
        "|---|--:|---|--:|--:|",
    ]
    for path, status, encoding, body, headers in weight.parts:
        lines.append(f"| {path} | {status} | {encoding} | {body:,} | {headers:,} |")
    total_kb = weight.wire_bytes / 1024
    verdict = "pass" if total_kb <= PAGE_WEIGHT_KB else "FAIL"
    lines.append(
        f"| **total** | | | {weight.body_bytes:,} | {weight.wire_bytes - weight.body_bytes:,} |"
    )
    lines.append(
        f"\nOn the wire: {total_kb:.1f} KB with headers ({weight.body_bytes / 1024:.1f} KB of "
        f"bodies); target ≤ {PAGE_WEIGHT_KB:.0f} KB: {verdict}"
    )
    return "\n".join(lines)


def machine() -> str:
    model = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    memory = "?"
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal"):
            memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    load = os.getloadavg()[0]
    return f"{os.cpu_count()} CPUs ({model}), {memory} RAM, load average {load:.1f} at start"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", choices=["sqlite", "postgres"])
    parser.add_argument("--quick", action="store_true", help="200 games, 3 s per endpoint")
    parser.add_argument("--seconds", type=int, help="wrk duration per endpoint (default 10)")
    parser.add_argument("--warmup", type=int, default=1, help="wrk warm-up per endpoint")
    parser.add_argument("--games", type=int, help="finished games to seed (default 1000)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--only", help="measure only the endpoints whose name contains this (e.g. 'deal')"
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed: scripts/install-system-deps installs it", file=sys.stderr)
        return 2
    postgres = os.environ.get("DATABASE_URL_TEST")
    databases = args.db or (["sqlite", "postgres"] if postgres else ["sqlite"])
    if "postgres" in databases and not postgres:
        print(
            "PostgreSQL needs DATABASE_URL_TEST: run under scripts/with-postgres", file=sys.stderr
        )
        return 2
    settings = Settings(
        seconds=args.seconds or (3 if args.quick else 10),
        warmup=args.warmup,
        connections=args.connections,
        threads=args.threads,
        only=args.only,
    )
    games = args.games or (200 if args.quick else 1000)
    print(f"Machine: {machine()}")
    print(
        f"gunicorn {' '.join(GUNICORN)}; wrk {settings.threads} threads, "
        f"{settings.connections} connections, {settings.seconds} s per endpoint "
        f"(after {settings.warmup} s of warm-up)"
    )
    started = time.monotonic()
    rows: list[Row] = []
    weights: list[Weight] = []
    root = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    try:
        source, seeded = seed_once(root, games)
        for index, name in enumerate(databases):
            url = postgres if name == "postgres" else None
            found, weighed = run_database(name, url, source, seeded, settings, index == 0)
            rows += found
            weights += weighed
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("\n" + table(rows))
    for weight in weights:
        print("\n" + weight_report(weight))
    print(
        f"\nThe benchmark took {(time.monotonic() - started) / 60:.1f} minutes; "
        f"load average at the end {os.getloadavg()[0]:.1f}."
    )
    failed = [row for row in rows if row.verdict.startswith("FAIL")]
    if weights and weights[0].wire_bytes / 1024 > PAGE_WEIGHT_KB:
        failed.append(Row("", "page weight", None, Load(1, 0, 0, 0, 0)))
    print(f"{len(failed)} target(s) missed." if failed else "Every target met.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
