"""The benchmark of issues 8 and 15: the app under gunicorn against a bare Flask view, with wrk.

It seeds a realistic database once (``seed.py``, through the store layer), then for each
database (SQLite, and PostgreSQL when ``DATABASE_URL_TEST`` names a server, as
``scripts/with-postgres`` exports it) serves the baseline, then the app, then the baseline
again, with the same gunicorn settings, loads every endpoint with wrk and prints requests per
second, p50 and p99 latency, the server's CPU time per request, the ratio to the baseline (the
mean of its two measurements: the shared machine's pace drifts) and the verdict against the
targets. Then a club evening: the most live tables whose scorers and followers the app
serves with p99 under 100 ms; then the import of a 1,000-deal game; then the page weight of
the score sheet with everything it loads. docs/PERFORMANCE.md explains the figures.

    bench/run                 # both databases, 10 s per endpoint (about 12 minutes)
    bench/run --quick         # a smaller database, 3 s per endpoint: a smoke test
    bench/run --db sqlite     # one database"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from functools import partial
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, urljoin, urlsplit

from scorekeeper import create_app

sys.path.insert(0, str(Path(__file__).resolve().parent))
from client import (  # bench/ is not a package
    POST_BODY,
    SECRET_KEY,
    Endpoint,
    Fetched,
    Server,
    as_a_browser,
    decoded,
    excerpt,
    fetch,
    log_tail,
    scorer_cookie,
    scorer_value,
    words,
)
from evening_rows import EVENING_TABLES, evening_rows
from seed import Seeded, copy_into, seed

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
#: Gunicorn settings shared by the baseline and the app: the issue's two workers, defaults
#: otherwise (sync workers, no keep-alive: what docs/DEPLOY.md runs). BENCH_GUNICORN tries
#: others, e.g. "-w 2 -k gthread --threads 4" (PERFORMANCE.md, issue 45 part 2).
GUNICORN = [*os.environ.get("BENCH_GUNICORN", "-w 2").split(), "--log-level", "warning"]
ACCEPT_ENCODING = "gzip, br"

#: The issues' targets. Each row's share of the bare view's CPU per request is its own
#: (see ``endpoints``; issue 32 judges CPU, which hardly depends on what else the machine
#: does); these hold for every row, on both databases.
P99_MS = 50.0
#: The 200-deal sheet with everything it loads, compressed (the bodies; headers are shown).
PAGE_WEIGHT_KB = 36.0
#: Saving a deal costs the same in a 20-deal game as in a 200-deal one: this close.
SAVE_SPREAD = 0.10
#: The rows of the deal page's save judged against each other, and the game sizes they
#: save into.
PAIRED_SAVES = "save a deal from the deal page"
DEAL_PAGE_SIZES = (20, 200)
#: A Modern American deal saved from the deal page (issue 45): into games of this size.
AMERICAN_DEALS = 20
AMERICAN_SAVE = f"save a Modern American deal from the deal page, {AMERICAN_DEALS}-deal game"
#: Saves per second the deal page's games are seeded for: more than the app reaches on this
#: machine, so that no game grows by more than a quarter of its deals during its row.
SAVE_RPS_CEILING = 2000
#: A club evening: the live tables the issue aims for, and the latency it allows.
CLUB_AIM = 3000
CLUB_P99_MS = 100.0
#: Per table every 3 minutes: 3 followers poll every 10 s (54), the scorer opens the deal
#: page, saves it and gets the sheet back (3).
CLUB_REQUESTS_PER_TABLE = 57 / 180
#: The search: from this many tables, doubling, then halving the gap to this resolution.
CLUB_START = 375
CLUB_LIMITS = (10, 48_000)
CLUB_RESOLUTION = 0.10
#: Requests/s per wrk thread (one connection each) in a club probe: its gaps then dwarf an
#: answer's latency.
CLUB_THREAD_RPS = 25
CLUB_THREADS = 128
#: The imported game, and how fast its import must be.
IMPORT_SECONDS = 1.0


# --- serving -------------------------------------------------------------------------------


@contextmanager
def gunicorn(app: str, env: Mapping[str, str], log: Path, ready: str = "/") -> Iterator[Server]:
    """Serve ``app`` (a gunicorn app spec) on a free loopback port.

    The port's socket hands a connection to a worker only once its request has come
    (TCP_DEFER_ACCEPT), as a phone sends it, or a proxy in front of gunicorn: wrk opens its
    next connection as soon as an answer has come and then waits out a club evening's pace,
    and a sync worker that accepted it would sit idle all that time while requests queue."""
    with socket.socket() as listener:
        listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_DEFER_ACCEPT, 30)
        listener.bind(("127.0.0.1", 0))
        listener.listen(2048)
        port = listener.getsockname()[1]
        bind = f"fd://{listener.fileno()}"
        command = [sys.executable, "-m", "gunicorn", *GUNICORN, "-b", bind, app]
        with log.open("ab") as out:
            server = subprocess.Popen(
                command,
                cwd=ROOT,
                env=dict(env),
                stdout=out,
                stderr=subprocess.STDOUT,
                pass_fds=(listener.fileno(),),
            )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise SystemExit(f"gunicorn {app} exited; see {log}:\n{log_tail(log)}")
            try:
                if fetch(base, ready).status < 500:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"gunicorn {app} did not answer within 60 s:\n{log_tail(log)}")
            time.sleep(0.2)
        yield Server(base, server.pid, log)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


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
    #: Requests sent with the warm-up's.
    sent: int = 0


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
        sent=first.sent + second.sent,
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
    #: Seconds per club-evening probe, after ``warmup`` (at least 2 s) at the same load.
    probe_seconds: int = 5
    #: Halvings of the gap between the club evening's last pass and first miss.
    probe_steps: int = 5
    #: Imports of the 1,000-deal game timed.
    imports: int = 5
    #: Only the endpoints whose name contains this, or one of its parts between "|"
    #: (None: all of them).
    only: str | None = None
    #: Where py-spy's samples of each row go (``--profile``); None: no profiler runs.
    profile: Path | None = None

    def wants(self, name: str) -> bool:
        return self.only is None or any(part in name for part in self.only.split("|"))


#: A new nonce prefix for every wrk run: a deal page nonce a game has seen saves nothing.
_runs = itertools.count(1)
_RUN_TAG = secrets.token_hex(3)


def wrk(
    settings: Settings,
    url: str,
    headers: Mapping[str, str] | None = None,
    script: Path | None = None,
    env: Mapping[str, str] | None = None,
    seconds: int | None = None,
    threads: int | None = None,
) -> Load:
    """One wrk run (``threads``: that many threads of one connection each)."""
    command = [
        "wrk",
        "--latency",
        f"-t{threads or settings.threads}",
        f"-c{threads or settings.connections}",
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
        env={**os.environ, "BENCH_NONCE": f"{_RUN_TAG}r{next(_runs)}", **(env or {})},
    )
    if done.returncode or done.stderr.strip():
        raise SystemExit(f"{' '.join(command)} {url} failed:\n{done.stderr}{done.stdout}")
    return parse_wrk(done.stdout)


def halves(settings: Settings) -> Settings:
    """The settings of each half of a row measured in two (``measure_pair``)."""
    return replace(settings, seconds=max(2, settings.seconds // 2))


def measure_pair(
    settings: Settings, server: Server, first: Endpoint, second: Endpoint
) -> tuple[Load, Load]:
    """Two rows judged against each other, each measured in two halves in the order
    first, second, second, first: the shared machine's drift falls on both alike."""
    half = halves(settings)
    early = measure(half, server, first)
    loads = [measure(half, server, second), measure(half, server, second)]
    return mean_load(early, measure(half, server, first)), mean_load(*loads)


def measure(settings: Settings, server: Server, endpoint: Endpoint) -> Load:
    """Warm up, then load the endpoint for the configured time; with the server's CPU time
    per request, which another process's load on the machine hardly changes."""
    url = server.base + endpoint.path
    warm = wrk(settings, url, endpoint.headers, endpoint.script, endpoint.env, settings.warmup)
    before = server.cpu_seconds()
    with sampled(settings, server, endpoint.name):
        load = wrk(settings, url, endpoint.headers, endpoint.script, endpoint.env)
    load.cpu_ms = (server.cpu_seconds() - before) * 1000 / max(load.requests, 1)
    load.sent = warm.requests + load.requests
    return load


@contextmanager
def sampled(settings: Settings, server: Server, name: str) -> Iterator[None]:
    """With ``--profile``: py-spy samples gunicorn's workers while the block runs, into
    <profile>/<row>.txt (collapsed stacks; bench/profile_report.py reads them). The
    profiler costs the workers time of its own: a profiled run's figures are not compared."""
    if settings.profile is None:
        yield
        return
    settings.profile.mkdir(parents=True, exist_ok=True)
    out = settings.profile / (re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") + ".txt")
    spy_bin = str(Path(sys.executable).parent / "py-spy")
    command = [spy_bin, "record", "--pid", str(server.pid), "--subprocesses", "--rate", "250"]
    command += ["--format", "raw", "--full-filenames", "--output", str(out), "--nonblocking"]
    spy = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)  # py-spy attaches to every worker before the load starts
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)  # py-spy writes what it has on Ctrl+C
        spy.wait(timeout=60)


# --- the endpoints -------------------------------------------------------------------------


@dataclass(frozen=True)
class Visit:
    """What a phone holds after opening a deal page: a session cookie, and the CSRF token
    of that session, which every game's deal page accepts."""

    session: str
    csrf: str


def deal_page_visit(server: Server, game_id: str, token: str) -> Visit:
    """Open a game's deal page as its scorer's phone: the session and its CSRF token."""
    page = fetch(server.base, f"/games/{game_id}/deals/new", {"Cookie": scorer_cookie(token)})
    token_field = re.search(r'<input[^>]*name="csrf_token"[^>]*value="([^"]+)"', page.text)
    if page.status != 200 or "session" not in page.cookies or token_field is None:
        raise server.fail(
            f"GET /games/{game_id}/deals/new answered {page.status} with "
            f"cookies {sorted(page.cookies)} and {'a' if token_field else 'no'} CSRF token: "
            f"{excerpt(page)}"
        )
    return Visit(page.cookies["session"], token_field.group(1))


#: Where the wrk scripts put each request's nonce into the deal form (``BENCH_FORM``).
NONCE_SLOT = "NONCE_SLOT"


def deal_fields(went_out: str, *sides: Mapping[str, int | str]) -> dict[str, str]:
    """A deal's fields as its page posts them: who went out (a side's index, "" for
    nobody), then each side's figures."""
    fields = {"went_out": went_out}
    for index, figures in enumerate(sides):
        fields |= {f"sides-{index}-{name}": str(value) for name, value in figures.items()}
    return fields


#: The classic deal the deal page rows save (``NOBODY_OUT``): nobody went out, each side
#: melded 150 and holds 10 (valid at every minimum; it never ends a game).
QUIET_SIDE: dict[str, int | str] = {
    "natural_canastas": 0,
    "mixed_canastas": 0,
    "red_threes": 0,
    "meld_points": 150,
    "hand_points": 10,
}
NOBODY_OUT = deal_fields("", QUIET_SIDE, QUIET_SIDE)

#: Modern American's steppers on its deal page, each posted as the page shows it (0 when
#: untouched); its unticked boxes are not sent, its special hand is "None".
AMERICAN_STEPPERS: dict[str, int | str] = {
    **dict.fromkeys(
        (
            "natural_canastas",
            "mixed_canastas",
            "wild_canastas",
            "deuce_canastas",
            "joker_canastas",
            "aces_canastas",
            "sevens_canastas",
            "red_threes",
            "black_threes",
            "aces_or_sevens_held",
        ),
        0,
    ),
    "special_hand": "",
}
#: A Modern American deal (RULES.md section 13): the first side goes out with the two
#: canastas it needs (a natural and a mixed one), a red three and 300 melded; the other has
#: a mixed canasta, a red three, 200 melded and 40 in hand. Valid at every minimum (the
#: highest is 180): 1,300 and 460 to the totals of a game seeded not to end.
AMERICAN_DEAL = deal_fields(
    "0",
    {**AMERICAN_STEPPERS, "natural_canastas": 1, "mixed_canastas": 1, "red_threes": 1}
    | {"meld_points": 300, "hand_points": 0},
    {**AMERICAN_STEPPERS, "mixed_canastas": 1, "red_threes": 1}
    | {"meld_points": 200, "hand_points": 40},
)


def deal_form(visit: Visit, nonce: str, deal: Mapping[str, str] = NOBODY_OUT) -> bytes:
    """The deal page's form as a phone posts it, and the wrk scripts too (with the nonce
    at ``NONCE_SLOT``): ``deal``'s fields with the session's CSRF token and the hidden
    fields of a new deal."""
    fields = {"csrf_token": visit.csrf, "version": "", **deal, "nonce": nonce}
    return "&".join(f"{name}={quote(value, safe='')}" for name, value in fields.items()).encode()


def save_deal(
    base: str,
    visit: Visit,
    game_id: str,
    token: str,
    nonce: str,
    deal: Mapping[str, str] = NOBODY_OUT,
) -> Fetched:
    return fetch(
        base,
        f"/games/{game_id}/deals/new",
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"session={visit.session}; {scorer_cookie(token)}",
        },
        "POST",
        deal_form(visit, nonce, deal),
    )


def endpoints(
    settings: Settings, server: Server, seeded: Seeded, work: Path, visit: Visit | None
) -> list[Endpoint]:
    """The rows, in the issue's order, then those measured for information (no target)."""
    base = server.base
    typical, long = seeded.typical_id, seeded.long_id
    scorer = {
        typical: {"Cookie": scorer_cookie(seeded.tokens["typical"])},
        long: {"Cookie": scorer_cookie(seeded.tokens["long"])},
    }
    # A follower's sheet polls every 10 s, with the session its first visit set.
    htmx = {"HX-Request": "true", "HX-Target": "sheet-live", "HX-Trigger": "sheet-live"}
    follower = as_a_browser(base, Endpoint("", f"/games/{typical}", None)).headers
    polling = {**follower, **htmx}
    etag = fetch(base, f"/games/{typical}", polling).headers.get("etag", "")
    typical_name, long_name = f"{seeded.typical_deals}-deal game", f"{seeded.long_deals}-deal game"

    def saving(
        games: list[tuple[str, str]],
        size: int,
        floor: float,
        deal: Mapping[str, str],
        name: str,
    ) -> Endpoint:
        first, token = games[0]
        listed = work / f"deal-page-{first}.txt"
        listed.write_text("".join(f"{g} {scorer_value(t)}\n" for g, t in games))
        assert visit is not None
        nonces = (f"{_RUN_TAG}check-{first}-{n}" for n in itertools.count())
        return Endpoint(
            name,
            f"/games/{first}/deals/new",
            floor,
            script=BENCH / "deal_page_save.lua",
            env={
                "BENCH_GAMES": str(listed),
                "BENCH_SESSION": visit.session,
                "BENCH_FORM": deal_form(visit, NONCE_SLOT, deal).decode(),
            },
            expect=302,
            # Several in a row: the first saved deal must not make the next one invalid.
            sample=lambda base: [
                save_deal(base, visit, first, token, next(nonces), deal) for _ in range(3)
            ],
            games=len(games),
            deals=size,
        )

    def posting(name: str) -> Endpoint:
        game_id, token = seeded.open_games[0]
        games_file = work / "open-games.txt"
        games_file.write_text("".join(f"{g} {t}\n" for g, t in seeded.open_games))
        return Endpoint(
            name,
            f"/api/games/{game_id}/deals",
            0.25,
            script=BENCH / "post_deal.lua",
            env={"BENCH_GAMES": str(games_file)},
            expect=201,
            sample=lambda base: [
                fetch(
                    base,
                    f"/api/games/{game_id}/deals",
                    {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                    "POST",
                    POST_BODY,
                )
            ],
        )

    def statistics_page(name: str) -> Endpoint:
        page = player_page(base, [f"/games/{typical}", "/history", "/players"])
        return as_a_browser(base, Endpoint(name, page or "/players/", 0.25))

    # Each row's name, and how to make it (only the rows --only names are made).
    rows: list[tuple[str, Callable[[str], Endpoint]]] = [
        *(
            (
                f"{PAIRED_SAVES}, {size}-deal game",
                partial(saving, seeded.deal_page_games.get(size, []), size, 0.15, NOBODY_OUT),
            )
            for size in DEAL_PAGE_SIZES
        ),
        (
            "follower's poll, unchanged (304)",
            lambda name: Endpoint(
                name, f"/games/{typical}", 0.50, {**polling, "If-None-Match": etag}, expect=304
            ),
        ),
        (
            f"score sheet, {typical_name}, returning phone",
            lambda name: as_a_browser(
                base, Endpoint(name, f"/games/{typical}", 0.25, scorer[typical])
            ),
        ),
        (
            f"GET /api/games/<id>, {typical_name}",
            lambda name: Endpoint(name, f"/api/games/{typical}", 0.25),
        ),
        ("API deal POST", posting),
        ("history page", lambda name: as_a_browser(base, Endpoint(name, "/history", 0.15))),
        ("statistics page", statistics_page),
        (
            AMERICAN_SAVE,
            partial(saving, seeded.american_games, AMERICAN_DEALS, 0.15, AMERICAN_DEAL),
        ),
        *evening_rows(server, _RUN_TAG),
        # For information: what a long game costs, and a poll answered in full.
        (
            f"score sheet, {long_name}, returning phone",
            lambda name: as_a_browser(base, Endpoint(name, f"/games/{long}", None, scorer[long])),
        ),
        (
            f"follower's poll, changed (200), {typical_name}",
            lambda name: Endpoint(name, f"/games/{typical}", None, polling),
        ),
        (
            f"follower's poll, changed (200), {long_name}",
            lambda name: Endpoint(name, f"/games/{long}", None, polling),
        ),
        (
            f"GET /api/games/<id>, {long_name}",
            lambda name: Endpoint(name, f"/api/games/{long}", None),
        ),
    ]
    return [make(name) for name, make in rows if settings.wants(name)]


def player_page(base: str, pages: list[str]) -> str | None:
    """A player's statistics page, as the sheet or the history page links to it."""
    for page in pages:
        found = fetch(base, page)
        if found.status == 200:
            link = re.search(r'href="(/players/[^"/?#]+)"', found.text)
            if link:
                return link.group(1)
    return None


def check(server: Server, endpoint: Endpoint) -> None:
    """Stop unless the request(s) wrk will send answer as they must."""
    headers = {"Accept-Encoding": ACCEPT_ENCODING, **endpoint.headers}
    if endpoint.sample is not None:
        answers = endpoint.sample(server.base)
    else:
        answers = [fetch(server.base, endpoint.path, headers)]
    for answer in answers:
        if answer.status != endpoint.expect:
            raise server.fail(
                f"{endpoint.name}: {endpoint.path} answered {answer.status}, not "
                f"{endpoint.expect}: {excerpt(answer)}"
            )
        if endpoint.expect == 302 and not answer.headers.get("location", "").endswith(
            endpoint.path.removesuffix("/deals/new")
        ):
            raise server.fail(
                f"{endpoint.name}: the save redirected to {answer.headers.get('location')!r}, "
                "not to the game's sheet"
            )
        shown = words(answer) if endpoint.shows else ""
        if missing := [text for text in endpoint.shows if text not in shown]:
            raise server.fail(
                f"{endpoint.name}: {endpoint.path} answered {answer.status} without "
                f"{', '.join(map(repr, missing))}: {excerpt(answer)}"
            )


# --- the club evening ----------------------------------------------------------------------


@dataclass
class Probe:
    """One load of the club evening: ``tables`` live tables at once."""

    tables: int
    #: The requests/s those tables make.
    asked: float
    #: Its latencies are counted from when each request was due (wrk's own, from when it
    #: was sent, hide the wait of requests a server that fell behind delayed).
    load: Load
    #: wrk's p99: from when each request was sent.
    sent_p99_ms: float

    @property
    def misses(self) -> list[str]:
        missed = []
        if self.load.p99_ms >= CLUB_P99_MS:
            missed.append(f"p99 ≥ {CLUB_P99_MS:.0f} ms")
        if self.load.errors:
            missed.append(f"{self.load.errors} errors")
        return missed


@dataclass
class ClubEvening:
    """Everything a club evening's probes need: the games (one per table while there are
    enough), their scorers' cookies, and each game's ETag as its followers hold it."""

    settings: Settings
    server: Server
    visit: Visit
    games: list[tuple[str, str]]
    etags: dict[str, str]
    work: Path

    def probe(self, tables: int) -> Probe:
        listed = self.work / "club-tables.txt"
        used = self.games[: min(tables, len(self.games))]
        listed.write_text(
            "".join(f"{g} {scorer_value(t)} {self.etags.get(g, '')}\n" for g, t in used)
        )
        asked = tables * CLUB_REQUESTS_PER_TABLE
        threads = max(1, min(tables, CLUB_THREADS, math.ceil(asked / CLUB_THREAD_RPS)))
        etags_out = self.work / "club-etags.txt"
        latency_out = self.work / "club-latency.txt"
        env = {
            "BENCH_TABLES": str(listed),
            "BENCH_TABLE_COUNT": str(tables),
            "BENCH_RATE": f"{asked:.3f}",
            "BENCH_THREADS": str(threads),
            "BENCH_SESSION": self.visit.session,
            "BENCH_FORM": deal_form(self.visit, NONCE_SLOT).decode(),
            "BENCH_ETAGS_OUT": str(etags_out),
            "BENCH_LATENCY_OUT": str(latency_out),
        }

        def run(seconds: int) -> Load:
            etags_out.unlink(missing_ok=True)
            latency_out.unlink(missing_ok=True)
            load = wrk(
                self.settings,
                self.server.base + "/",
                script=BENCH / "club_evening.lua",
                env={**env, "BENCH_SEED": str(next(_runs))},
                seconds=seconds,
                threads=threads,
            )
            # The followers of the next run hold the ETags these last saw.
            for line in etags_out.read_text().splitlines():
                game_id, _, etag = line.partition(" ")
                self.etags[game_id] = etag
            return load

        run(max(self.settings.warmup, 2))
        before = self.server.cpu_seconds()
        with sampled(self.settings, self.server, f"club evening {tables} tables"):
            load = run(self.settings.probe_seconds)
        load.cpu_ms = (self.server.cpu_seconds() - before) * 1000 / max(load.requests, 1)
        sent_p99 = load.p99_ms
        load.p50_ms, load.p99_ms = (float(n) for n in latency_out.read_text().split()[:2])
        probe = Probe(tables, asked, load, sent_p99)
        verdict = "pass" if not probe.misses else "miss: " + ", ".join(probe.misses)
        print(
            f"  club evening, {tables:>6,} tables ({len(used):,} games, {threads} wrk "
            f"threads): asked {asked:5.0f} req/s, served {load.rps:5.0f}; from when due: p50 "
            f"{load.p50_ms:5.1f} ms, p99 {load.p99_ms:6.1f} ms (from the send "
            f"{sent_p99:5.1f}); {load.cpu_ms:.2f} CPU ms/request; workers' memory "
            f"{' and '.join(f'{mb:.0f}' for mb in self.server.worker_memory_mb())} MB: {verdict}",
            flush=True,
        )
        return probe

    def search(self) -> Probe | None:
        """The most tables that pass: doubling (or halving) from CLUB_START until the
        verdict changes, then bisecting the gap down to CLUB_RESOLUTION."""
        low, high = CLUB_LIMITS
        first = self.probe(CLUB_START)
        best: Probe | None = first if not first.misses else None
        missed = None if best else CLUB_START
        tables = CLUB_START
        while best is not None and missed is None and tables * 2 <= high:
            tables *= 2
            probe = self.probe(tables)
            if probe.misses:
                missed = tables
            else:
                best = probe
        while best is None and tables // 2 >= low:
            tables //= 2
            probe = self.probe(tables)
            if probe.misses:
                missed = tables
            else:
                best = probe
        steps = 0
        while (
            best is not None
            and missed is not None
            and missed - best.tables > max(CLUB_RESOLUTION * best.tables, low)
            and steps < self.settings.probe_steps
        ):
            probe = self.probe((best.tables + missed) // 2)
            if probe.misses:
                missed = probe.tables
            else:
                best = probe
            steps += 1
        return best


def club_evening(
    settings: Settings, server: Server, seeded: Seeded, visit: Visit, work: Path
) -> ClubEvening:
    """Check one table's requests, and read each game's ETag as its followers hold it."""
    base = server.base
    games = seeded.deal_page_games[DEAL_PAGE_SIZES[0]]
    game_id, token = games[-1]
    sheet = f"/games/{game_id}"
    scorer = {"Cookie": f"session={visit.session}; {scorer_cookie(token)}"}
    polling = {"Cookie": f"session={visit.session}", "HX-Request": "true"}

    def poll(game_id: str, held: str = "") -> Fetched:
        """A follower's poll, with the ETag it holds (if any)."""
        return fetch(
            base, f"/games/{game_id}", {**polling, **({"If-None-Match": held} if held else {})}
        )

    before = poll(game_id).headers.get("etag", "")
    answers = [
        ("GET the deal page", 200, fetch(base, f"{sheet}/deals/new", scorer)),
        ("save it", 302, save_deal(base, visit, game_id, token, f"{_RUN_TAG}club")),
        ("GET the sheet", 200, fetch(base, sheet, scorer)),
        ("poll with the ETag before the save", 200, poll(game_id, before)),
    ]
    after = answers[-1][2].headers.get("etag", "")
    answers.append(("poll with the ETag after it", 304, poll(game_id, after)))
    for what, expected, answer in answers:
        if answer.status != expected:
            raise server.fail(
                f"club evening: {what} ({sheet}) answered {answer.status}, not {expected}: "
                f"{excerpt(answer)}"
            )
    with ThreadPoolExecutor(4) as pool:
        held = pool.map(lambda game: poll(game[0]).headers.get("etag", ""), games)
        etags = {g: etag for (g, _), etag in zip(games, held, strict=True)}
    return ClubEvening(settings, server, visit, games, etags, work)


def evening_of_tables(
    settings: Settings, server: Server, visit: Visit, work: Path, db: str
) -> tuple[Judged, Probe | None]:
    """Issue 33's evening: EVENING_TABLES tables of a club evening created through the API
    (a pair per side, 4 players a table), each with its scorer and three followers at the
    club evening's pace, and the director's page polled beside them; judged like a club
    evening probe (p99 from when due, no errors)."""
    what = f"club evening of {EVENING_TABLES} tables ({EVENING_TABLES * 4} players)"
    target = f"p99 < {CLUB_P99_MS:.0f} ms, no errors"
    pairs = [[f"{_RUN_TAG}p{n}a", f"{_RUN_TAG}p{n}b"] for n in range(EVENING_TABLES * 2)]
    body = {
        "name": f"{_RUN_TAG}evening",
        "variant": "classic",
        "format": "pairs",
        "pairs": pairs,
        "rounds": 3,
        # More deals than the probes save: no table's round ends during them.
        "deals_per_round": 100,
        "minutes_per_round": 50,
    }
    created = fetch(
        server.base,
        "/api/evenings",
        {"Content-Type": "application/json"},
        "POST",
        json.dumps(body).encode(),
    )
    if created.status != 201:
        return Judged(db, what, f"creating it answered {created.status}", target, False), None
    evening = json.loads(decoded(created))
    tables = evening["rounds"][0]["tables"]
    games = [(table["game"], table["token"]) for table in tables]
    director = fetch(server.base, evening["url"])
    if director.status != 200:
        return Judged(db, what, f"its page answered {director.status}", target, False), None
    etags = {g: fetch(server.base, f"/games/{g}").headers.get("etag", "") for g, _ in games}
    probe = ClubEvening(settings, server, visit, games, etags, work).probe(len(games))
    measured = (
        f"p50 {probe.load.p50_ms:.1f} ms, p99 {probe.load.p99_ms:.1f} ms, "
        f"{probe.load.errors} errors, {probe.load.cpu_ms:.2f} CPU ms/request"
    )
    return Judged(db, what, measured, target, not probe.misses), probe


# --- importing a long game -----------------------------------------------------------------


@dataclass
class Judged:
    """A target that is not a row of the table: its measure and verdict."""

    db: str
    what: str
    measured: str
    target: str
    passed: bool


def time_imports(settings: Settings, server: Server, seeded: Seeded, db: str) -> Judged:
    """POST /api/games/import of the long game's export, timed a few times: each run
    creates a new game."""
    what = f"import a {seeded.import_deals:,}-deal game"
    target = f"< {IMPORT_SECONDS:.0f} s (median)"
    exported = fetch(server.base, f"/api/games/{seeded.import_id}/export")
    if exported.status != 200:
        return Judged(db, what, f"export answered {exported.status}", target, False)
    document = decoded(exported)
    seconds: list[float] = []
    for _ in range(settings.imports):
        started = time.perf_counter()
        answer = fetch(
            server.base,
            "/api/games/import",
            {"Content-Type": "application/json", "Accept-Encoding": ACCEPT_ENCODING},
            "POST",
            document,
        )
        took = time.perf_counter() - started
        if answer.status != 201:
            measured = (
                f"POST /api/games/import of its {len(document) / 1024:,.0f} KB export answered "
                f"{answer.status}: {excerpt(answer, 120)}"
            )
            print(f"  {what}: {measured}", flush=True)
            return Judged(db, what, measured, target, False)
        seconds.append(took)
    median, worst = statistics.median(seconds), max(seconds)
    measured = (
        f"median {median:.2f} s, worst {worst:.2f} s over {len(seconds)} runs "
        f"({len(document) / 1024:,.0f} KB export)"
    )
    print(f"  {what}: {measured}", flush=True)
    return Judged(db, what, measured, target, median < IMPORT_SECONDS)


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


# --- verdicts ------------------------------------------------------------------------------


@dataclass
class Row:
    db: str
    endpoint: str
    load: Load | None
    baseline: Load
    floor: float | None = None
    #: "baseline", "endpoint" or "club" (the club evening: its load at ``tables``).
    kind: str = "endpoint"
    note: str = ""
    tables: int = 0

    @property
    def ratio(self) -> float | None:
        """Requests per second as a share of the baseline's (shown; the machine's load
        moves it more than the code does)."""
        return None if self.load is None else self.load.rps / self.baseline.rps

    @property
    def cpu_ratio(self) -> float | None:
        """The baseline's CPU time per request as a share of this endpoint's: the measure
        the targets are judged by (issue 32), about the ratio a quiet machine would show."""
        if self.load is None or not self.load.cpu_ms:
            return None
        return self.baseline.cpu_ms / self.load.cpu_ms

    @property
    def target(self) -> str:
        if self.kind == "baseline":
            return ""
        if self.kind == "club":
            return f"≥ {CLUB_AIM:,} tables, p99 < {CLUB_P99_MS:.0f} ms"
        if self.floor is None:
            return "no target"
        return f"CPU ≥ {self.floor:.0%}, p99 < {P99_MS:.0f} ms"

    @property
    def missed(self) -> bool:
        return self.kind != "baseline" and (
            self.verdict.startswith("FAIL") or (self.load is None and self.floor is not None)
        )

    @property
    def verdict(self) -> str:
        if self.kind == "baseline":
            return ""
        if self.kind == "club":
            if self.load is None:
                return f"FAIL: {self.note}"
            if self.tables < CLUB_AIM:
                return f"FAIL: {self.tables:,} tables < {CLUB_AIM:,}"
            return "pass"
        if self.load is None or self.cpu_ratio is None:
            return f"n/a ({self.note})" if self.note else "n/a"
        missed = []
        if self.floor is not None and self.cpu_ratio < self.floor:
            missed.append(f"CPU < {self.floor:.0%}")
        if self.load.p99_ms >= P99_MS:
            missed.append(f"p99 ≥ {P99_MS:.0f} ms")
        if self.load.errors:
            missed.append(f"{self.load.errors} errors")
        if self.floor is None:
            return "no target" + (f" ({', '.join(missed)})" if missed else "")
        return "FAIL: " + ", ".join(missed) if missed else "pass"


def save_spread(db: str, rows: list[Row]) -> Judged | None:
    """The deal page's save in a long game against a short one: within SAVE_SPREAD."""
    saves = [row for row in rows if row.endpoint.startswith(PAIRED_SAVES) and row.load]
    if len(saves) != 2:
        return None
    short, long = (row.load for row in saves)
    assert short is not None and long is not None
    spread = long.rps / short.rps
    return Judged(
        db,
        "save from the deal page: "
        + " ÷ ".join(row.endpoint.rsplit(", ", 1)[1] for row in reversed(saves)),
        f"{spread:.0%} of the requests/s ({long.rps:,.0f} and {short.rps:,.0f}; CPU "
        f"{long.cpu_ms:.2f} and {short.cpu_ms:.2f} ms/request)",
        f"within {SAVE_SPREAD:.0%}",
        min(spread, 1 / spread) >= 1 - SAVE_SPREAD,
    )


# --- one database --------------------------------------------------------------------------


def deal_page_games(settings: Settings) -> dict[int, int]:
    """How many games of each size the deal page saves into: enough, at SAVE_RPS_CEILING
    for the warm-up and the run, that each grows by at most a quarter of its deals."""
    if not any(settings.wants(row) for row in (PAIRED_SAVES, "club evening", "club evening of")):
        return {}
    saves = SAVE_RPS_CEILING * save_seconds(settings)
    return {size: max(128, math.ceil(saves / (size / 4))) for size in DEAL_PAGE_SIZES}


def american_games(settings: Settings) -> int:
    """How many Modern American games its deal page row saves into: enough, at
    SAVE_RPS_CEILING for its warm-up and run (one, not two halves), that each grows by at
    most a quarter of its deals."""
    if not settings.wants(AMERICAN_SAVE):
        return 0
    saves = SAVE_RPS_CEILING * (settings.warmup + settings.seconds)
    return max(128, math.ceil(saves / (AMERICAN_DEALS / 4)))


def save_seconds(settings: Settings) -> int:
    """How long each deal-page row saves, warm-ups included (two halves)."""
    return 2 * (settings.warmup + halves(settings).seconds)


def seed_once(root: Path, settings: Settings, games: int) -> tuple[Path, Seeded]:
    """Seed a SQLite database through the store layer; every database run starts from a
    copy of it, so SQLite and PostgreSQL serve the same games."""
    path = root / "seed.sqlite"
    os.environ["SCOREKEEPER_INSTANCE"] = str(root)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": SECRET_KEY})
    sizes = deal_page_games(settings)
    if sizes:
        print(
            "The deal page saves into "
            + " and ".join(f"{count:,} games of {size} deals" for size, count in sizes.items())
            + f": at up to {SAVE_RPS_CEILING:,} saves/s for {save_seconds(settings)}"
            " s (warm-up included), each grows by at most a quarter of its deals",
            flush=True,
        )
    if american := american_games(settings):
        print(
            f"The Modern American deal page row saves into {american:,} games of "
            f"{AMERICAN_DEALS} deals",
            flush=True,
        )
    print(f"Seeding {games} finished games, a 200-deal game and open games …", flush=True)
    seeded = seed(
        app,
        games=games,
        deal_page_games=sizes,
        american_games=american_games(settings),
        american_deals=AMERICAN_DEALS,
        import_deals=1000 if settings.wants("import a 1,000-deal game") else 0,
    )
    print(
        f"Seeded {seeded.finished} finished games and {seeded.deals:,} deals in "
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
) -> tuple[list[Row], list[Judged], list[Weight]]:
    print(f"\n== {name} ({os.getloadavg()[0]:.1f} load average) ==", flush=True)
    if settings.profile is not None:
        settings = replace(settings, profile=settings.profile / name)
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
                load = measure(settings, server, Endpoint("baseline", "/", None))
            print(
                f"  {'baseline (bare Flask), ' + when:<48} {load.rps:6.0f} rps  p50 "
                f"{load.p50_ms:5.1f} ms  p99 {load.p99_ms:6.1f} ms  {load.cpu_ms:5.2f} CPU "
                "ms/request",
                flush=True,
            )
            return load

        # Measured before and after the app's endpoints; each is judged against the mean
        # (lines printed meanwhile show the ratio to the first measurement).
        baseline = bare("before")
        rows = [Row(name, "baseline: bare Flask view, before", baseline, baseline, kind="baseline")]
        judged: list[Judged] = []
        weights: list[Weight] = []
        with gunicorn("scorekeeper:create_app()", env, log, ready="/api/variants") as server:
            # Any game's deal page: its session's CSRF token is good for every game's.
            opened = [*seeded.deal_page_games.get(DEAL_PAGE_SIZES[0], []), *seeded.american_games]
            visit = deal_page_visit(server, *opened[0]) if opened else None
            found = endpoints(settings, server, seeded, work, visit)
            for endpoint in found:
                check(server, endpoint)
            loads: dict[str, Load] = {}
            saves = [endpoint for endpoint in found if endpoint.name.startswith(PAIRED_SAVES)]
            if len(saves) == 2:
                short, long = measure_pair(settings, server, *saves)
                loads = {saves[0].name: short, saves[1].name: long}
            for endpoint in found:
                load = loads.get(endpoint.name) or measure(settings, server, endpoint)
                row = Row(name, endpoint.name, load, baseline, endpoint.floor)
                rows.append(row)
                print(
                    f"  {endpoint.name:<48} {load.rps:6.0f} rps  p50 {load.p50_ms:5.1f} ms  "
                    f"p99 {load.p99_ms:6.1f} ms  {load.cpu_ms:5.2f} CPU ms/request  "
                    f"{row.ratio or 0:4.0%} (CPU {row.cpu_ratio or 0:4.0%})  {row.verdict}",
                    flush=True,
                )
                if endpoint.games:
                    grown = load.sent / endpoint.games
                    print(
                        f"    each of its {endpoint.games:,} games grew by {grown:.1f} deals "
                        f"on average ({grown / endpoint.deals:.0%} of {endpoint.deals})"
                        + (
                            ""
                            if grown <= endpoint.deals / 4
                            else ": more than a quarter, raise SAVE_RPS_CEILING"
                        ),
                        flush=True,
                    )
            if settings.wants("club evening") and visit is not None:
                evening = club_evening(settings, server, seeded, visit, work)
                best = evening.search()
                rows.append(
                    Row(
                        name,
                        "club evening"
                        + (
                            f": {best.tables:,} tables ({best.load.rps:,.0f} req/s)" if best else ""
                        ),
                        best.load if best else None,
                        baseline,
                        kind="club",
                        note=f"{CLUB_LIMITS[0]} tables miss" if best is None else "",
                        tables=best.tables if best else 0,
                    )
                )
            if settings.wants("club evening of") and visit is not None:
                judged.append(evening_of_tables(settings, server, visit, work, name)[0])
            if settings.wants("import a 1,000-deal game") and seeded.import_id:
                judged.append(time_imports(settings, server, seeded, name))
            if weight:
                for game_id, key in ((seeded.typical_id, "typical"), (seeded.long_id, "long")):
                    cookie = {"Cookie": scorer_cookie(seeded.tokens[key])}
                    weights.append(page_weight(server.base, f"/games/{game_id}", cookie))
        after = bare("after")
        both = mean_load(baseline, after)
        rows.append(Row(name, "baseline: bare Flask view, after", after, after, kind="baseline"))
        rows = [row if row.kind == "baseline" else replace(row, baseline=both) for row in rows]
        if spread := save_spread(name, rows):
            judged.insert(0, spread)
        print(f"  against the baseline's mean ({both.rps:.0f} rps):", flush=True)
        for row in rows:
            if row.kind == "endpoint" and row.load is not None:
                print(
                    f"    {row.endpoint:<46} {row.ratio:4.0%} (CPU {row.cpu_ratio or 0:4.0%})  "
                    f"{row.verdict}",
                    flush=True,
                )
            elif row.kind == "club":
                print(f"    {row.endpoint:<46}       {row.verdict}", flush=True)
        for other in judged:
            print(
                f"    {other.what}: {other.measured}: {'pass' if other.passed else 'FAIL'}",
                flush=True,
            )
        missed = any(row.missed for row in rows) or not all(other.passed for other in judged)
        if missed and (tail := log_tail(log, 15)):
            print(f"  the end of the server's log ({log}):\n{tail}", flush=True)
        return rows, judged, weights
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
        if row.load is None:
            lines.append(
                f"| {row.db} | {row.endpoint} | n/a | | | | {row.target} | {row.verdict} | | |"
            )
            continue
        load = row.load
        ratio = f"{row.ratio:.0%}" if row.kind != "club" else ""
        cpu_ratio = f"{row.cpu_ratio or 0:.0%}" if row.kind != "club" else ""
        lines.append(
            f"| {row.db} | {row.endpoint} | {load.rps:,.0f} | {load.p50_ms:.1f} | "
            f"{load.p99_ms:.1f} | {ratio} | {row.target} | {row.verdict} | "
            f"{load.cpu_ms:.2f} | {cpu_ratio} |"
        )
    return "\n".join(lines)


def judged_table(judged: list[Judged]) -> str:
    lines = ["| database | target | measured | verdict |", "|---|---|---|---|"]
    for other in judged:
        verdict = "pass" if other.passed else "FAIL"
        lines.append(
            f"| {other.db} | {other.what}: {other.target} | {other.measured} | {verdict} |"
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
    verdict = "pass" if weight.body_bytes / 1024 <= PAGE_WEIGHT_KB else "FAIL"
    lines.append(
        f"| **total** | | | {weight.body_bytes:,} | {weight.wire_bytes - weight.body_bytes:,} |"
    )
    lines.append(
        f"\nOn the wire: {total_kb:.1f} KB with headers ({weight.body_bytes / 1024:.1f} KB of "
        f"bodies); target ≤ {PAGE_WEIGHT_KB:.0f} KB of bodies: {verdict}"
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
    parser.add_argument(
        "--quick", action="store_true", help="200 games, 3 s per endpoint and club probe"
    )
    parser.add_argument("--seconds", type=int, help="wrk duration per endpoint (default 10)")
    parser.add_argument("--warmup", type=int, default=1, help="wrk warm-up per endpoint")
    parser.add_argument("--games", type=int, help="finished games to seed (default 1000)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--profile",
        type=Path,
        help="sample every row with py-spy into this folder (bench/profile_report.py reads it)",
    )
    parser.add_argument(
        "--only",
        help="measure only what this names (part of a row's name, e.g. 'deal', 'club evening', "
        "'import'; several between '|': 'history page|statistics page')",
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed: scripts/install-system-deps installs it", file=sys.stderr)
        return 2
    if args.profile and not (Path(sys.executable).parent / "py-spy").exists():
        print("--profile needs py-spy: .venv/bin/pip install -e '.[profile]'", file=sys.stderr)
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
        probe_seconds=3 if args.quick else 5,
        probe_steps=2 if args.quick else 5,
        imports=3 if args.quick else 5,
        only=args.only,
        profile=args.profile,
    )
    games = args.games or (200 if args.quick else 1000)
    print(f"Machine: {machine()}")
    print(
        f"gunicorn {' '.join(GUNICORN)}; wrk {settings.threads} threads, "
        f"{settings.connections} connections, {settings.seconds} s per endpoint "
        f"(after {settings.warmup} s of warm-up); club evening probes of "
        f"{settings.probe_seconds} s (after {max(settings.warmup, 2)} s)"
    )
    started = time.monotonic()
    rows: list[Row] = []
    judged: list[Judged] = []
    weights: list[Weight] = []
    root = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    try:
        source, seeded = seed_once(root, settings, games)
        for index, name in enumerate(databases):
            url = postgres if name == "postgres" else None
            found, others, weighed = run_database(name, url, source, seeded, settings, index == 0)
            rows += found
            judged += others
            weights += weighed
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("\n" + table(rows))
    if any(row.db == "postgres" for row in rows):
        print(
            "\nPostgreSQL's server shares the 2 cores with the app and wrk, and its CPU time is "
            "not in the CPU columns; its rows are judged all the same (a verdict says so where "
            "the app's own CPU would meet the ratio)."
        )
    if judged:
        print("\n" + judged_table(judged))
    for weight in weights:
        print("\n" + weight_report(weight))
    print(
        f"\nThe benchmark took {(time.monotonic() - started) / 60:.1f} minutes; "
        f"load average at the end {os.getloadavg()[0]:.1f}."
    )
    failed = [row.endpoint for row in rows if row.missed]
    failed += [other.what for other in judged if not other.passed]
    # Judged on the longest sheet weighed (the 200-deal game's): the heaviest a phone loads.
    if weights and weights[-1].body_bytes / 1024 > PAGE_WEIGHT_KB:
        failed.append("page weight")
    print(f"{len(failed)} target(s) missed." if failed else "Every target met.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
