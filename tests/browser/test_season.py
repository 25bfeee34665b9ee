"""A club's season at 390 px (issue 44): a new season's page with its points table (numeric
keypads, the default filled in), and the page of a season of three evenings: its ladder,
the chart of places and its evenings fit the phone, and axe finds nothing, light and dark."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from ..helpers.api import result
from ..helpers.evenings import evening_body
from .conftest import fits, shot, tap
from .helpers import violations

FIRST_WINS = [result(300, natural=1, went_out=True), result(100, hand=50)]
SECOND_WINS = [result(100, hand=50), result(300, natural=1, went_out=True)]


def _played_evening(
    page: Page, live_server: str, season: dict[str, Any], name: str, results: list[Any]
) -> None:
    """A one-round evening of the season, every table's deals played (the API)."""
    body = evening_body(name=name, rounds=1, season=season["id"], season_token=season["token"])
    made = page.request.post(live_server + "/api/evenings", data=body)
    assert made.ok, made.text()
    evening = made.json()
    for table in evening["rounds"][0]["tables"]:
        for _ in range(evening["deals_per_round"]):
            posted = page.request.post(
                f"{live_server}/api/games/{table['game']}/deals",
                data={"results": results},
                headers={"Authorization": f"Bearer {table['token']}"},
            )
            assert posted.ok, posted.text()


def test_a_season_page_fits_the_phone_light_and_dark(phone: Page, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/seasons/new")
    first = page.get_by_label("Place 1", exact=True)
    expect(first).to_have_value("12")
    expect(first).to_have_attribute("inputmode", "numeric")
    expect(page.get_by_label("Place 10", exact=True)).to_have_value("1")
    assert violations(page) == []
    fits(page, "new season")
    page.get_by_label("Name of the season").fill("Spring 2027")
    tap(page.get_by_role("button", name="Start the season"))
    expect(page.get_by_role("heading", name="Spring 2027")).to_be_visible()
    # This phone directs it: the points table to edit, and a new evening in it.
    expect(page.get_by_role("button", name="Save the points table")).to_be_visible()
    expect(page.get_by_text("This is the default table.")).to_be_visible()

    made = page.request.post(live_server + "/api/seasons", data={"name": "Winter 2027"})
    assert made.ok, made.text()
    season = made.json()
    for name, results in (
        ("First Tuesday", FIRST_WINS),
        ("Second Tuesday", SECOND_WINS),
        ("Third Tuesday", FIRST_WINS),
    ):
        _played_evening(page, live_server, season, name, results)
    page.goto(live_server + season["url"])
    expect(page.get_by_role("heading", name="Winter 2027")).to_be_visible()
    ladder = page.locator(".season-ladder tbody tr")
    expect(ladder).to_have_count(5)
    expect(page.locator(".places-chart svg polyline")).to_have_count(5)
    expect(page.get_by_role("link", name="Third Tuesday")).to_be_visible()
    expect(page.get_by_text("The season ladder measures who placed well")).to_be_visible()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert violations(page) == [], scheme
        fits(page, f"season page, {scheme}")
        shot(page, "season")
    page.emulate_media(color_scheme="light")
