"""A real server on 127.0.0.1 and Debian's Chromium at a phone viewport (390 x 844).

The browser is Debian's package (/usr/bin/chromium, or CHROMIUM_PATH); Playwright never
downloads one. Screenshots go to test-results/ (not committed).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    BrowserContext,
    ConsoleMessage,
    Locator,
    Page,
    Request,
    Response,
    expect,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.store import db

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
RESULTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"
#: Screenshots are for people to look at; CI's clean clone has no one (.ci/run sets it off).
SCREENSHOTS = os.environ.get("SCREENSHOTS", "on") != "off"
PHONE = {"width": 390, "height": 844}
#: How long an ``expect`` waits for the page: a save's answer took over Playwright's 5 s
#: default on this shared machine under the load of other jobs (a flake, not a slow app:
#: the benchmarks measure speed). A passing check waits no longer for it.
expect.set_options(timeout=10_000)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The phone is light; a test marked ``light_and_dark`` (the colour scheme is what it
    checks: contrast, axe, screenshots, the header's fit) runs in both schemes."""
    if "phone" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        "light_and_dark"
    ):
        metafunc.parametrize("phone", ["light", "dark"], indirect=True)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("live")
    app = create_app(
        {
            "SECRET_KEY": "browser-tests",
            "RATELIMIT_ENABLED": False,  # the suite creates many games in a minute
            # SQLite only: what the pages do on PostgreSQL, tests/ checks without a browser.
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'live.sqlite'}",
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, with the flags this closed network needs (no background calls)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium package.")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


#: Run in every page before its own scripts: what the page was given and did (touches,
#: clicks, submits, htmx requests), kept for the report of a test that fails.
PAGE_EVENTS = """
(() => {
  const log = (window.__events = []);
  const name = (el) => !el || el.nodeType !== 1 ? String(el) : el.tagName.toLowerCase()
    + (el.id ? "#" + el.id : "") + (el.name ? "[name=" + el.name + "]" : "")
    + (el.tagName === "BUTTON" || el.tagName === "A"
       ? " '" + el.textContent.trim().slice(0, 40) + "'" : "");
  const note = (text) => { log.push(Math.round(performance.now()) + " ms " + text); };
  for (const type of ["touchstart", "touchend", "touchcancel", "contextmenu", "click", "change"]) {
    document.addEventListener(type, (event) => note(type + " " + name(event.target)), true);
  }
  document.addEventListener("submit", (event) => {
    note("submit " + name(event.target) + (event.defaultPrevented ? " (by htmx)" : ""));
  });
  for (const type of ["htmx:beforeRequest", "htmx:afterRequest", "htmx:sendError",
                      "htmx:sendAbort", "htmx:responseError", "htmx:afterSettle"]) {
    document.addEventListener(type, (event) => {
      const detail = event.detail || {};
      const config = detail.requestConfig || {};
      note(type + " " + name(detail.elt) + " " + (config.verb || "") + " " + (config.path || "")
        + (detail.xhr && type !== "htmx:beforeRequest" ? " -> " + detail.xhr.status : ""));
    });
  }
})();
"""

#: Whether a test's own steps failed (its fixtures then report what the page saw).
CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


#: How Chromium logs a request the network never carried or cut off (offline, dropped by a
#: test's route, the server out of reach, or the way to it shut while the request was on
#: it: a poll in flight when the door shuts). htmx's own error lines for such a request
#: are not expected: the page handles them (static/app.js, issue 40).
CONNECTION_LOST = re.compile(
    r"^Failed to load resource: net::ERR_"
    r"(INTERNET_DISCONNECTED|FAILED|CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE)$"
    # Chromium's own check for a newer service worker (sw.js), cut by the same outage: it
    # logs this itself, apart from the page's register() call, which app.js catches.
    r"|^An unknown error occurred when fetching the script\.$"
)
#: Requests that failed so (Playwright's ``request.failure``).
NO_ANSWER = tuple(
    f"net::ERR_{kind}"
    for kind in (
        "INTERNET_DISCONNECTED",
        "FAILED",
        "CONNECTION_REFUSED",
        "CONNECTION_RESET",
        "EMPTY_RESPONSE",
    )
)
#: How Chromium logs an answer with an error status (the page shows the refusal itself).
ERROR_STATUS = re.compile(r"^Failed to load resource: the server responded with a status of (\d+)")


class ConsoleWatch:
    """The errors a page logs to its console, and its uncaught exceptions.

    Two kinds are expected and left out, narrowly: a request the network never carried
    (the tests that cut the connection: Chromium's line and htmx's, only once a request
    failed for want of a connection), and Chromium's note of a 409 or 422 answer to a
    form the server refused (the page shows the refusal: that is the form working), or of
    a 503 to a deal sent (the database busy: the phone keeps the deal and sends it again)."""

    def __init__(self, page: Page) -> None:
        self._logged: list[str] = []
        self._refused: set[int] = set()
        self._offline = False
        page.on("console", self._console)
        page.on("pageerror", lambda error: self._logged.append(f"page error: {error}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._answered)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self._logged.append(message.text)

    def _failed(self, request: Request) -> None:
        if (request.failure or "") in NO_ANSWER:
            self._offline = True

    def _answered(self, response: Response) -> None:
        if response.request.method == "POST" and response.status in (409, 422, 503):
            self._refused.add(response.status)

    @property
    def errors(self) -> list[str]:
        found = []
        for text in self._logged:
            status = ERROR_STATUS.match(text)
            if status and int(status.group(1)) in self._refused:
                continue
            if self._offline and CONNECTION_LOST.match(text):
                continue
            found.append(text)
        return found


CONSOLE = pytest.StashKey[ConsoleWatch]()


@pytest.fixture
def phone(
    request: pytest.FixtureRequest, new_context: Callable[..., BrowserContext]
) -> Iterator[Page]:
    """A page in a phone-sized, touch context, in the light colour scheme (or the one of
    the test's parameter: ``light_and_dark``).

    When the test fails, its report shows the page's address, its requests and what the
    page saw happen (``PAGE_EVENTS``), and a screenshot is kept (``failed-<test>.png``).
    A test that passes while the page logged an error to its console (``ConsoleWatch``)
    fails at teardown, naming the errors."""
    context = new_context(
        viewport=PHONE,
        color_scheme=getattr(request, "param", "light"),
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    context.add_init_script(PAGE_EVENTS)
    page = context.new_page()
    page.set_default_timeout(10_000)
    requests: list[str] = []
    started = time.monotonic()

    def note(text: str) -> None:
        requests.append(f"{(time.monotonic() - started) * 1000:8.0f} ms {text}")

    page.on("request", lambda r: note(f"-> {r.method} {r.url}"))
    page.on("requestfinished", lambda r: note(f"<- {r.method} {r.url}"))
    page.on("requestfailed", lambda r: note(f"!! {r.method} {r.url} {r.failure}"))
    page.on("console", lambda m: note(f"console {m.type}: {m.text}"))
    watch = request.node.stash[CONSOLE] = ConsoleWatch(page)
    yield page
    if request.node.stash.get(CALL_FAILED, False):
        if not page.is_closed():
            report_page(page, requests, request.node.name)
    elif watch.errors:
        report_page(page, requests, request.node.name)
        pytest.fail("the page logged errors to its console:\n" + "\n".join(watch.errors))


@pytest.fixture
def console_watch(request: pytest.FixtureRequest, phone: Page) -> ConsoleWatch:
    """What the ``phone`` page logged to its console so far (``errors``)."""
    return request.node.stash[CONSOLE]


def report_page(page: Page, requests: list[str], test: str) -> None:
    """Print what a failed test's page saw, for the report (a flaky step shows its cause)."""
    print(f"\n--- the page at the failure: {page.url}")
    print("\n".join(["--- requests (test's clock):", *requests[-60:]]))
    try:
        events = page.evaluate("window.__events || []")
        print("\n".join(["--- what the page saw (its clock):", *events[-80:]]))
        RESULTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=RESULTS / f"failed-{test}.png", full_page=True, timeout=5_000)
    except PlaywrightError as error:  # a page that will not answer: what we have is printed
        print(f"--- the page did not answer: {error}")


#: Notes in the page (``window.__clicked``) when the next click arrives.
WATCH_FOR_A_CLICK = """token => {
  window.__clicked = token;
  const arrived = () => { window.__clicked = null; };
  document.addEventListener("click", arrived, { capture: true, once: true });
}"""
#: How long a tap may take to become a click before it counts as lost (generous: CI
#: machines are shared, and a click normally arrives within milliseconds).
TAP_ARRIVES_MS = 5_000

#: Taps that gave the page no click and were made again (``tap``), listed after the run.
LOST_TAPS: list[str] = []


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if LOST_TAPS:
        terminalreporter.section("taps the page never received (tapped again)")
        for lost in LOST_TAPS:
            terminalreporter.line(lost)


def settled(page: Page) -> None:
    """Wait until no htmx request is in flight and the last swap has settled. A field
    filled while its swap settles can lose the fill's select-all to htmx restoring the
    new page's attributes ("5001" typed after "5000": 50005001)."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def tap(target: Locator) -> None:
    """Tap like a thumb, making sure the page received the tap.

    Once in many CI runs a tap on "Save" sent nothing (no request; the form sat unchanged
    for five seconds) on a loaded machine; it never happened here in about a hundred runs.
    When no click reaches the page within a few seconds, this taps once more and says so
    at the end of the run (``LOST_TAPS``): a touch the page never received is the
    emulation's, not the app's. A click that arrives and then does nothing still fails
    the test, and the report shows what the page saw (``phone``).

    It waits for the page to settle first: a swap that lands between the touch and its
    click moves what was under the thumb (the deal form's preview grew a line, and "Save"
    got a click meant for it on the div below)."""
    page = target.page
    settled(page)
    token = secrets.token_hex(4)  # a new document (the tap navigated) does not have it
    page.evaluate(WATCH_FOR_A_CLICK, token)
    target.tap()
    try:
        page.wait_for_function(
            "token => window.__clicked !== token", arg=token, timeout=TAP_ARRIVES_MS
        )
    except PlaywrightTimeoutError:
        LOST_TAPS.append(f"{os.environ.get('PYTEST_CURRENT_TEST', '?')}: {target}")
        target.tap()
    except PlaywrightError:  # the page went on to another document: the tap arrived
        pass


def fits(page: Page, where: str = "") -> None:
    """The page does not scroll sideways at the phone's width. Not against ``innerWidth``:
    on a phone (``is_mobile``) the browser widens that to the page's width, zooming out,
    so ``scrollWidth <= innerWidth`` always holds."""
    wide, screen = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide <= screen, f"{where or page.url} scrolls sideways: {wide} > {screen} px"


def shot(page: Page, name: str) -> None:
    """Save a screenshot for people to look at (test-results/<name>-<scheme>.png)."""
    if not SCREENSHOTS:
        return
    RESULTS.mkdir(parents=True, exist_ok=True)
    scheme = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    page.screenshot(path=RESULTS / f"{name}-{'dark' if scheme else 'light'}.png", full_page=True)


#: How often a follower's sheet asks for news (templates/games/_live.html); a test that
#: installs the page's clock makes that poll due at once (``page.clock.fast_forward``).
POLL_MS = 10_000


def back_online(page: Page, *, clock: bool = False) -> None:
    """Back online, the scorer's own page comes back (share panel and all): at once, or at
    the follower's next poll (within 10 s) when the reload still found no connection; with
    ``clock`` (the test installed the page's clock) that poll is made due rather than
    waited for, until the page is back. A test that ends while that reload runs can leave
    the browser hanging as it closes."""
    scorers = page.locator(".secret-link")
    deadline = time.monotonic() + 20
    while clock and scorers.count() != 1 and time.monotonic() < deadline:
        page.clock.fast_forward(POLL_MS)
        with contextlib.suppress(AssertionError):
            expect(scorers).to_have_count(1, timeout=1_000)
    expect(scorers).to_have_count(1, timeout=20_000)
    expect(page.locator("[data-offline-copy]")).to_have_count(0)


#: What Debian's Chromium 150 says after a reload under emulated offline, and any phone on
#: a Wi-Fi whose server is out of reach: "online". The offline pages must not believe it.
SAYS_ONLINE = """Object.defineProperty(Navigator.prototype, "onLine", {
  configurable: true, get: () => true,
});"""


def browser_says_online(page: Page) -> None:
    """From the next page on, ``navigator.onLine`` is true whatever the connection."""
    page.context.add_init_script(SAYS_ONLINE)


class Door:
    """The way to the live server, which a test can shut: the laptop running the server
    asleep while the phone's Wi-Fi stays up. Shut, it refuses new connections and drops
    the open ones (Chromium: ``net::ERR_CONNECTION_REFUSED``); opened again, on the same
    port (the same origin: the service worker, its caches and IndexedDB stay)."""

    def __init__(self, target: str) -> None:
        self._target = ("127.0.0.1", int(target.rsplit(":", 1)[1]))
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.open(port=0)
        assert self._listener is not None
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"

    def open(self, port: int | None = None) -> None:
        if port is None:
            port = int(self.url.rsplit(":", 1)[1])
        self._listener = socket.create_server(("127.0.0.1", port))
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def shut(self) -> None:
        listener, self._listener = self._listener, None
        assert listener is not None
        listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        listener.close()
        with self._lock:
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            self._open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # shut
            server = socket.create_connection(self._target)
            with self._lock:
                self._open.update((client, server))
            threading.Thread(target=self._carry, args=(client, server), daemon=True).start()

    def _carry(self, client: socket.socket, server: socket.socket) -> None:
        """Both ways of one connection; its sockets close once both ways are done."""
        ways = [
            threading.Thread(target=self._pump, args=pair, daemon=True)
            for pair in ((client, server), (server, client))
        ]
        for way in ways:
            way.start()
        for way in ways:
            way.join()
        with self._lock:
            self._open.difference_update((client, server))
        client.close()
        server.close()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
            # Pass the half-close on: the other way may still be carrying an answer,
            # which closing both sockets here could cut off (a proxy's lingering close).
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


@pytest.fixture
def door(live_server: str) -> Iterator[Door]:
    """The live server behind a door the test can shut (``Door``)."""
    way = Door(live_server)
    yield way
    if way._listener is not None:
        way.shut()
