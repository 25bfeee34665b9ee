"""Issue 31: a deal saved while the database is held by another writer past the busy
timeout gets a 503 with Retry-After; the phone keeps it waiting (the offline queue), sends
it again after the server's Retry-After with the same one-time key, and it is recorded
once, never shown as refused."""

from __future__ import annotations

import sqlite3
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Response, expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.store import db

from .conftest import shot, tap
from .helpers import deals_on_server, start_classic, type_a_plain_deal


@pytest.fixture
def held_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A server of this test's own whose SQLite writes wait 300 ms for the lock (not 10 s),
    and its database file, for the test to hold."""
    database = sys.modules["scorekeeper.store.db"]  # the module (``store.db`` is the handle)
    monkeypatch.setattr(database, "SQLITE_BUSY_TIMEOUT_MS", 300)
    path = tmp_path / "held.sqlite"
    app = create_app(
        {
            "SECRET_KEY": "busy-tests",
            "RATELIMIT_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", path
    server.shutdown()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_deal_saved_while_the_database_is_held_waits_and_goes_once(
    phone: Page, held_server: tuple[str, Path]
) -> None:
    page = phone
    server, path = held_server
    answers: list[int] = []

    def note(response: Response) -> None:
        if response.request.method == "POST" and response.url.endswith("/deals/new"):
            answers.append(response.status)

    page.on("response", note)
    start_classic(page, server)
    type_a_plain_deal(page)
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program writing, for as long as it likes
    try:
        tap(page.get_by_role("button", name="Save deal 1"))
        # Not refused: on the sheet, waiting, with its provisional score.
        pending = page.locator("tr.pending:not(.pending-note)")
        expect(pending).to_have_count(1)
        expect(pending.first).to_contain_text("+130")
        expect(page.locator("tr.pending.refused")).to_have_count(0)
        expect(page.locator(".total.provisional .total-points")).to_have_text(["130", "55"])
        for _ in range(100):  # the sheet's queue tries too, and gets its 503
            if answers.count(503) >= 2:
                break
            page.wait_for_timeout(100)
        assert answers.count(503) >= 2, answers
        expect(page.locator("tr.pending.refused")).to_have_count(0)
        shot(page, "busy-database-deal-waiting")
        assert deals_on_server(page, server) == []
        assert answers and set(answers) == {503}
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # The lock let go: after the server's Retry-After the deal goes, under its key, once.
    expect(page.locator("tr.pending")).to_have_count(0, timeout=20_000)
    expect(page.locator(".total-points")).to_have_text(["130", "55"])
    expect(page.locator(".total.provisional")).to_have_count(0)
    assert deals_on_server(page, server) == [[130, 55]]
    assert answers.count(201) == 1 and set(answers) == {503, 201}, answers
    shot(page, "busy-database-deal-recorded")
