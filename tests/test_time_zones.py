"""Dates in the phone's own time zone: a game begun at 00:30 in Skopje (22:30 UTC the day
before) is listed, and found by the history's day filters, under Skopje's day; the zone
comes from the page's ``tz`` cookie and is kept in the session; stored times stay UTC."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from scorekeeper.store import db
from scorekeeper.store.counters import HISTORY
from scorekeeper.store.models import Change, Counter, Game

from .helpers.api import get_game
from .helpers.history import CASE_A, CASE_B, game, person_id, words

SKOPJE = ZoneInfo("Europe/Skopje")
#: 00:30 on 2 June in Skopje (UTC+2 in summer), still 1 June in UTC.
BEGUN = datetime(2026, 6, 1, 22, 30)


def begun_at(app: Flask, game_id: str, moment: datetime) -> None:
    """Move a game's start (stored in UTC, as the app stores it), as a change would: its
    version and the history's move on, so no kept rendering of it is reused."""
    with app.app_context():
        db.session.execute(
            update(Game)
            .where(Game.id == game_id)
            .values(created_at=moment, version=Game.version + 1)
        )
        db.session.execute(
            update(Counter).where(Counter.name == HISTORY).values(value=Counter.value + 1)
        )
        db.session.commit()


def phone(app: Flask, zone: str | None) -> FlaskClient:
    """A phone whose page has told the server its time zone (the cookie app.js sets)."""
    client = app.test_client()
    if zone is not None:
        client.set_cookie("tz", zone)
    return client


def listed_dates(html: str) -> list[str]:
    return re.findall(r'<span class="game-date"><time [^>]*>([^<]*)</time>', html)


@pytest.fixture
def midnight_game(app: Flask, client: FlaskClient) -> str:
    """One game with a deal (a player's page lists only games played), begun at
    2026-06-01 22:30 UTC."""
    sides = [("Us", ["Ana", "Boris"]), ("Them", ["Vera", "Goran"])]
    game_id = game(client, sides, [[CASE_A, CASE_B]])
    begun_at(app, game_id, BEGUN)
    return game_id


@pytest.mark.parametrize(
    ("zone", "shown"),
    [("Europe/Skopje", "2026-06-02"), ("UTC", "2026-06-01"), ("America/New_York", "2026-06-01")],
)
def test_the_history_lists_a_game_under_the_phones_own_day(
    app: Flask, midnight_game: str, zone: str, shown: str
) -> None:
    html = phone(app, zone).get("/history").get_data(as_text=True)
    assert listed_dates(html) == [shown]
    # The home page lists it the same way.
    assert listed_dates(phone(app, zone).get("/").get_data(as_text=True)) == [shown]


def test_phones_in_two_zones_each_see_their_own_day(app: Flask, midnight_game: str) -> None:
    """The history's rendering is kept (caching.kept): one zone's must not reach another."""
    skopje, utc = phone(app, "Europe/Skopje"), phone(app, "UTC")
    for _ in range(2):
        assert listed_dates(skopje.get("/history").get_data(as_text=True)) == ["2026-06-02"]
        assert listed_dates(utc.get("/history").get_data(as_text=True)) == ["2026-06-01"]


@pytest.mark.parametrize(
    ("zone", "query", "count"),
    [
        ("Europe/Skopje", "since=2026-06-02&until=2026-06-02", 1),
        ("Europe/Skopje", "since=2026-06-02", 1),
        ("Europe/Skopje", "until=2026-06-01", 0),
        ("Europe/Skopje", "since=2026-06-01&until=2026-06-01", 0),
        ("UTC", "since=2026-06-01&until=2026-06-01", 1),
        ("UTC", "until=2026-06-01", 1),
        ("UTC", "since=2026-06-02", 0),
        (None, "since=2026-06-01&until=2026-06-01", 1),  # zone not sent yet: UTC days
    ],
)
def test_the_day_filters_are_the_phones_days(
    app: Flask, midnight_game: str, zone: str | None, query: str, count: int
) -> None:
    text = words(phone(app, zone).get(f"/history?{query}").get_data(as_text=True))
    assert f"{count} game" in text


def test_the_zone_is_kept_in_the_session_and_an_unknown_one_ignored(
    app: Flask, midnight_game: str
) -> None:
    client = phone(app, "Europe/Skopje")
    assert listed_dates(client.get("/history").get_data(as_text=True)) == ["2026-06-02"]
    # A name no time-zone database knows changes nothing: the kept zone holds.
    client.set_cookie("tz", "Mars/Olympus_Mons")
    response = client.get("/history?since=2026-06-02")
    assert response.status_code == 200
    assert listed_dates(response.get_data(as_text=True)) == ["2026-06-02"]
    # The cookie gone (cleared, blocked), the session still knows.
    client.delete_cookie("tz")
    assert listed_dates(client.get("/history").get_data(as_text=True)) == ["2026-06-02"]
    # Moved to another zone: the page says so and the dates follow.
    client.set_cookie("tz", "America/New_York")
    assert listed_dates(client.get("/history").get_data(as_text=True)) == ["2026-06-01"]


ODD_ZONES = ["Mars/Olympus_Mons", "../../../etc/passwd", "", "Europe/" + "x" * 3000, "Europe/\\x00"]


@pytest.mark.parametrize("sent", ODD_ZONES)
def test_a_phone_that_never_sent_a_known_zone_sees_utc_and_is_told(
    app: Flask, midnight_game: str, sent: str
) -> None:
    response = phone(app, sent).get("/history?since=2026-06-01&until=2026-06-01")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert listed_dates(html) == ["2026-06-01 UTC"]
    assert "1 game" in words(html)


@pytest.mark.parametrize("zone", ["Europe/Skopje", "Etc/GMT+12", "Pacific/Kiritimati"])
@pytest.mark.parametrize(
    "query", ["since=0001-01-01&until=9999-12-31", "since=9999-12-31", "until=0001-01-01"]
)
def test_days_at_the_ends_of_the_calendar_answer_in_any_zone(
    app: Flask, midnight_game: str, zone: str, query: str
) -> None:
    """A day whose midnight lies outside what a date can hold there is no bound at all."""
    response = phone(app, zone).get(f"/history?{query}")
    assert response.status_code == 200
    expected = "1 game" if query.startswith("since=0001") else "0 games"
    assert expected in words(response.get_data(as_text=True))


def test_the_change_log_and_the_deleted_games_show_the_phones_time(
    app: Flask, client: FlaskClient
) -> None:
    imported = game(client, [("Us", ["Ana", "Boris"]), ("Them", ["Vera", "Goran"])], [])
    begun_at(app, imported, BEGUN)
    with app.app_context():
        db.session.execute(update(Change).where(Change.game_id == imported).values(at=BEGUN))
        db.session.commit()
    # Stored and served by the API in UTC, whatever the phone's zone.
    assert get_game(phone(app, "Europe/Skopje"), imported)["created_at"].startswith(
        "2026-06-01T22:30"
    )

    # Babel writes a narrow no-break space before AM/PM, as the CLDR does.
    for zone, shown in [
        ("Europe/Skopje", "Jun 2, 2026, 12:30\u202fAM"),
        ("UTC", "Jun 1, 2026, 10:30\u202fPM"),
    ]:
        html = phone(app, zone).get(f"/games/{imported}/changes").get_data(as_text=True)
        assert f'datetime="2026-06-01T22:30:00Z">{shown}</time>' in html
    html = phone(app, None).get(f"/games/{imported}/changes").get_data(as_text=True)
    assert ">Jun 1, 2026, 10:30\u202fPM UTC</time>" in html

    # In Macedonian, as the language writes a date and a time.
    skopje = phone(app, "Europe/Skopje")
    skopje.set_cookie("lang", "mk")
    html = skopje.get(f"/games/{imported}/changes").get_data(as_text=True)
    assert ">2 јун. 2026\u202fг., 00:30</time>" in html  # noqa: RUF001

    # Deleted (at 23:59 UTC on 1 June): the phone that kept score of it lists it so.
    skopje.set_cookie("session", client.get_cookie("session").value)  # the scorer's phone
    with app.app_context():
        gone = datetime(2026, 6, 1, 23, 59)
        db.session.execute(update(Game).where(Game.id == imported).values(deleted_at=gone))
        db.session.commit()
    html = skopje.get("/history").get_data(as_text=True)
    assert 'datetime="2026-06-01T23:59:00Z">2 јун. 2026\u202fг., 01:59</time>' in html  # noqa: RUF001


def test_a_change_made_today_shows_its_time_alone(app: Flask, client: FlaskClient) -> None:
    game_id = game(client, [("Us", ["Ana", "Boris"]), ("Them", ["Vera", "Goran"])], [])
    client.set_cookie("tz", "Europe/Skopje")
    html = client.get(f"/games/{game_id}/changes").get_data(as_text=True)
    times = re.findall(r'<time datetime="([^"]*)Z">([^<]*)</time>', html)
    assert times
    for stamp, shown in times:
        local = datetime.fromisoformat(stamp).replace(tzinfo=UTC).astimezone(SKOPJE)
        if local.date() == datetime.now(SKOPJE).date():  # not when the test spans midnight
            assert shown == f"{local:%-I:%M}\u202f{local:%p}"


def test_a_players_last_games_and_the_download_carry_the_phones_date(
    app: Flask, midnight_game: str
) -> None:
    client = phone(app, "Europe/Skopje")
    html = client.get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True)
    assert 'title="Still going, 2026-06-02"' in html
    sheet = client.get(f"/games/{midnight_game}/sheet.csv")
    assert (
        f'filename="canasta-2026-06-02-{midnight_game}.csv"' in sheet.headers["Content-Disposition"]
    )
    html = phone(app, "UTC").get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True)
    assert 'title="Still going, 2026-06-01"' in html


ZONES = ["UTC", "Europe/Skopje", "America/Santiago", "Asia/Kathmandu", "Pacific/Kiritimati",
         "Etc/GMT+12", "America/St_Johns", "Australia/Lord_Howe"]  # fmt: skip


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    zone=st.sampled_from(ZONES),
    moment=st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2026, 11, 30)),
)
def test_a_game_is_found_on_exactly_the_day_it_is_listed_under(
    app: Flask, midnight_game: str, zone: str, moment: datetime
) -> None:
    """Whatever the zone (half hours, +14, DST at midnight), the day a game is listed
    under is the day the filters find it on, and no neighbouring day does; the day is
    the one Python's own zoneinfo gives."""
    begun_at(app, midnight_game, moment.replace(microsecond=0))
    day = moment.replace(tzinfo=UTC).astimezone(ZoneInfo(zone)).date()
    client = phone(app, zone)

    def found(since: date, until: date) -> bool:
        html = client.get(f"/history?since={since}&until={until}").get_data(as_text=True)
        return "1 game" in words(html)

    assert listed_dates(client.get("/history").get_data(as_text=True)) == [day.isoformat()]
    assert found(day, day)
    assert not found(day - timedelta(days=1), day - timedelta(days=1))
    assert not found(day + timedelta(days=1), day + timedelta(days=1))
