"""Time called on the pages (issue 43 part 3): the director's question and its two answers,
the director's page, a table's sheet (scorer and follower, and a follower's poll), the deal
form of the last deal, and a scorer's "No deal in progress"."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import Json, auth
from .helpers.evenings import FIRST_WINS, deal, new_evening

#: The pages over the store: tests/test_time_called.py runs its commands on PostgreSQL.
pytestmark = pytest.mark.one_database


def directing(client: FlaskClient, evening: Json) -> str:
    """This client directs ``evening`` (its link's secret); the evening's address."""
    address = f"/evenings/{evening['id']}"
    assert client.post(f"{address}/join", data={"token": evening["token"]}).status_code == 302
    return address


def scoring(app: Flask, table: Json) -> FlaskClient:
    """A phone that keeps score at ``table``."""
    phone = app.test_client()
    assert phone.post(f"/games/{table['game']}/join", data={"token": table["token"]}).status_code
    return phone


def text(client: FlaskClient, path: str, **headers: Any) -> str:
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, answer.status_code
    return answer.get_data(as_text=True)


def test_the_director_calls_time_and_every_page_says_so(client: FlaskClient, app: Flask) -> None:
    evening = new_evening(client, deals_per_round=3)
    first, _second = evening["rounds"][0]["tables"]
    deal(client, first, FIRST_WINS)
    page = directing(client, evening)
    question = text(client, f"{page}/rounds/1/close")
    assert "Call time on round 1?" in question and "each player has one last turn" in question
    assert "Stop every table now" in question
    sheet = f"/games/{first['game']}"
    follower = app.test_client()
    assert "Time is called" not in text(follower, sheet)
    poll = follower.get(sheet, headers={"HX-Request": "true"})
    assert client.post(f"{page}/rounds/1/close", data={"call": "1"}).status_code == 302
    html = text(client, page)
    assert "Time is called: the last deals are being played." in html
    assert "time called: deal 2 is the last" in html and "time called: deal 1 is the last" in html
    assert "Stop round 1 now" in html and "Seat and start round 2" not in html
    # A follower's poll gets the news; the scorer is offered "No deal in progress?".
    again = follower.get(
        sheet, headers={"HX-Request": "true", "If-None-Match": poll.headers["ETag"]}
    )
    assert again.status_code == 200
    assert "deal 2 is this table's last" in again.get_data(as_text=True)
    assert "No deal in progress?" not in again.get_data(as_text=True)
    phone = scoring(app, first)
    assert "No deal in progress?" in text(phone, sheet)
    form = text(phone, f"{sheet}/deals/new")
    assert "Time is called:" in form and "this is the table's last deal" in form
    # The question again offers only to stop every table.
    question = text(client, f"{page}/rounds/1/close")
    assert "these tables are still playing their last deal" in question
    assert ">Call time</button>" not in question and "Stop every table now" in question
    assert client.post(f"{page}/rounds/1/close", data={"final": "1"}).status_code == 302
    html = text(client, page)
    assert "Every table has finished." in html and "time called after 1 of 3 deals" in html
    assert "Time is called" not in text(follower, sheet)


def test_a_table_between_deals_ends_its_round_from_its_sheet(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client, deals_per_round=3)
    table = evening["rounds"][0]["tables"][0]
    deal(client, table, FIRST_WINS)
    phone = scoring(app, table)
    sheet = f"/games/{table['game']}"
    early = text(phone, f"{sheet}/time-called")
    assert "has not been called" in early and "End the round here" not in early
    assert "Time is called:" not in text(phone, f"{sheet}/deals/new")
    # Once called, the question names the deals played and the totals.
    client.post(f"/api/evenings/{evening['id']}/rounds/1/close", headers=auth(evening["token"]))
    asked = text(phone, f"{sheet}/time-called")
    assert "after its 1 deal" in asked and "End the round here" in asked
    answered = phone.post(f"{sheet}/time-called")
    assert answered.status_code == 302 and answered.headers["Location"] == sheet
    html = text(phone, sheet)
    assert "The round ended at this table." in html and "The round ended after 1 deal." in html
    assert "Record deal 2" not in html
    # A second tap (the page kept open) changes nothing and says why.
    phone.post(f"{sheet}/time-called")
    assert "there is no deal left to play" in text(phone, sheet)


def test_only_the_scorer_answers_for_the_table(client: FlaskClient, app: Flask) -> None:
    evening = new_evening(client, deals_per_round=3)
    table = evening["rounds"][0]["tables"][0]
    client.post(f"/api/evenings/{evening['id']}/rounds/1/close", headers=auth(evening["token"]))
    stranger = app.test_client()
    assert stranger.get(f"/games/{table['game']}/time-called").status_code == 403
    assert stranger.post(f"/games/{table['game']}/time-called").status_code == 403
    read = client.get(f"/api/evenings/{evening['id']}").get_json()
    assert read["rounds"][0]["tables"][0]["status"] == "time_called"
