"""The browser tests' fixtures (live server, phone, Chromium) for bench/tti.py:
`.venv/bin/pytest bench/tti.py` (a measurement, not part of the test run)."""

from tests.browser.conftest import *  # noqa: F403
