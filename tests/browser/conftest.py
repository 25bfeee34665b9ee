"""A real server on 127.0.0.1 and Debian's Chromium at a phone viewport (390 x 844).

The browser is Debian's package (/usr/bin/chromium, or CHROMIUM_PATH); Playwright never
downloads one. Screenshots go to test-results/ (not committed).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.store import db

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
RESULTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"
PHONE = {"width": 390, "height": 844}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "measure: reports figures (stdout, test-results/) and asserts only loose bounds"
    )


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("live")
    app = create_app(
        {
            "SECRET_KEY": "browser-tests",
            "RATELIMIT_ENABLED": False,  # the suite creates many games in a minute
            # Its own database: the other tests empty theirs after each test.
            "SQLALCHEMY_DATABASE_URI": os.environ.get("DATABASE_URL_TEST_BROWSER")
            or f"sqlite:///{folder / 'live.sqlite'}",
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


@pytest.fixture(params=["light", "dark"])
def phone(request: pytest.FixtureRequest, new_context: Callable[..., BrowserContext]) -> Page:
    """A page in a phone-sized, touch context, in the light or the dark colour scheme."""
    context = new_context(
        viewport=PHONE,
        color_scheme=request.param,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def shot(page: Page, name: str) -> None:
    """Save a screenshot for people to look at (test-results/<name>-<scheme>.png)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    scheme = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    page.screenshot(path=RESULTS / f"{name}-{'dark' if scheme else 'light'}.png", full_page=True)
