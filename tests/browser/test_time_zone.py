"""Dates in the phone's own time zone, on a phone in Skopje: a game begun at 00:30 there
(22:30 UTC the day before) is listed under Skopje's day and found by its day filters.
The page tells the server its zone (static/app.js, a cookie); the very first page, sent
before the server knew, says its dates are UTC."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import fits, shot, tap
from .helpers import CASE_A, CASE_B, api_game


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """Every phone of this file is in Skopje (the shared ``phone`` fixture, console watch
    and all, opens its context with these)."""
    return {**browser_context_args, "timezone_id": "Europe/Skopje"}


def test_the_history_shows_and_filters_by_the_phones_own_day(phone: Page, live_server: str) -> None:
    page = phone
    run = secrets.token_hex(3)  # the live server outlives one test: this run's games only
    names = [f"{name} {run}" for name in ("Ilina", "Jovan", "Kalina", "Luka")]
    played, _secret = api_game(page, live_server, names, [CASE_A, CASE_B])
    document = page.request.get(f"{live_server}/api/games/{played}/export").json()
    # The same game begun at 00:30 on 2 June in Skopje: 22:30 UTC on 1 June.
    copy = page.request.post(
        live_server + "/api/games/import", data={**document, "created_at": "2026-06-01T22:30:00Z"}
    )
    assert copy.ok, copy.text()
    ours = page.locator(".games li", has_text=names[0])
    june = ours.filter(has_text="2026-06")

    # The first page ever: the server does not know the zone yet, and says the date is UTC.
    page.goto(f"{live_server}/history?q={run}")
    expect(june.locator(".game-date time")).to_have_text("2026-06-01 UTC")
    shot(page, "history-skopje-first-page")
    assert {"name": "tz", "value": "Europe/Skopje"}.items() <= next(
        cookie for cookie in page.context.cookies() if cookie["name"] == "tz"
    ).items()

    # From the next page on, the phone's own day.
    page.goto(f"{live_server}/history?q={run}")
    expect(june.locator(".game-date time")).to_have_text("2026-06-02")
    expect(ours).to_have_count(2)  # and the copy begun today

    # The filters take Skopje's days: 2 June has it, 1 June has not.
    page.get_by_label("From").fill("2026-06-02")
    page.get_by_label("Until").fill("2026-06-02")
    tap(page.get_by_role("button", name="Show"))
    expect(page.locator("main")).to_contain_text("1 game")
    expect(ours).to_have_count(1)
    expect(ours.locator(".game-date time")).to_have_text("2026-06-02")
    fits(page)
    shot(page, "history-skopje")

    page.get_by_label("From").fill("2026-06-01")
    page.get_by_label("Until").fill("2026-06-01")
    tap(page.get_by_role("button", name="Show"))
    expect(page.locator("main")).to_contain_text("0 games")
    expect(ours).to_have_count(0)

    # The change log's times: the server writes them in the zone the browser keeps.
    page.goto(f"{live_server}/games/{copy.json()['id']}/changes")
    written = page.locator(".change-meta time").first
    hour, minute = page.evaluate(
        "s => { const d = new Date(s); return [d.getHours(), d.getMinutes()]; }",
        written.get_attribute("datetime"),
    )
    expect(written).to_have_text(re.compile(rf"(^|, ){hour % 12 or 12}:{minute:02d}\s[AP]M$"))
    shot(page, "changes-skopje")
