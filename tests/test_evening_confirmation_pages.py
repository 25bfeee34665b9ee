"""Results confirmed by the other side on the pages (issue 43 part 4): the new-evening
checkbox, the table card's second code, the other side's phone following the sheet with a
Confirm button per deal, and the director asked before a round starts with a result not
confirmed. The API and the store: tests/test_evening_confirmations.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.store import db
from scorekeeper.store.models import Person

from .helpers.api import auth, result
from .helpers.evenings import evening_form
from .helpers.qr import decode, svg_image

#: The pages over the store: the API's tests of the same commands run them on PostgreSQL.
pytestmark = pytest.mark.one_database

FIRST_WINS = [result(300, natural=1, went_out=True), result(100, hand=50)]


def new_evening(client: FlaskClient, **changes: str) -> str:
    """An evening made on the page that confirms results; this client is its director."""
    response = client.post("/evenings/new", data=evening_form(confirmations="y", **changes))
    assert response.status_code == 302, response.get_data(as_text=True)
    return str(response.headers["Location"])


def tables(client: FlaskClient, evening: str) -> list[dict[str, Any]]:
    """The current round's tables with their tokens, as the director's API read gives them."""
    html = client.get(f"{evening}/director-link").get_data(as_text=True)
    found = re.search(r'<a href="http://localhost/evenings/[^"#]+/join#([^"]+)"', html)
    assert found, html
    body = client.get(
        f"/api/evenings/{evening.rsplit('/', 1)[1]}", headers=auth(found.group(1))
    ).get_json()
    return list(body["rounds"][-1]["tables"])


def record(client: FlaskClient, table: dict[str, Any], count: int = 1) -> None:
    for _ in range(count):
        deal = {"results": FIRST_WINS}
        answer = client.post(
            f"/api/games/{table['game']}/deals", json=deal, headers=auth(table["token"])
        )
        assert answer.status_code == 201


def other_side(app: Flask, table: dict[str, Any]) -> FlaskClient:
    """The other side's phone, once it opened its confirm link (the card's second code)."""
    phone = app.test_client()
    joined = phone.post(f"/games/{table['game']}/confirm", data={"token": table["confirm_token"]})
    assert joined.status_code == 302
    assert joined.headers["Location"] == f"/games/{table['game']}"
    return phone


def confirm_buttons(html: str) -> list[str]:
    """The deals a sheet offers to confirm, by number."""
    return re.findall(r'/deals/(\d+)/confirm"', html)


def test_the_new_evening_page_asks_whether_results_are_confirmed(client: FlaskClient) -> None:
    html = client.get("/evenings/new").get_data(as_text=True)
    assert 'name="confirmations"' in html and "Results confirmed by the other side" in html
    evening = new_evening(client)
    body = client.get(f"/api/evenings/{evening.rsplit('/', 1)[1]}").get_json()
    assert body["confirmations"] is True
    plain = client.post("/evenings/new", data=evening_form()).headers["Location"]
    assert (
        client.get(f"/api/evenings/{plain.rsplit('/', 1)[1]}").get_json()["confirmations"] is False
    )


def test_each_card_carries_a_second_code_for_the_other_sides_phone(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    seated = tables(client, evening)
    html = client.get(f"{evening}/cards").get_data(as_text=True)
    codes = re.findall(
        r'<figure class="qr card-code confirm-code">.*?(<svg.*?</svg>)', html, flags=re.S
    )
    assert len(codes) == 2 and html.count("scan with the other side's phone") == 2
    for table, code in zip(seated, codes, strict=True):
        (link,) = decode(svg_image(code))
        assert link == f"http://localhost/games/{table['game']}/confirm#{table['confirm_token']}"
        # The link's page takes the secret from the fragment, and drops it from the address.
        path, secret = link.removeprefix("http://localhost").split("#")
        phone = app.test_client()
        page = phone.get(path)
        assert page.status_code == 200 and page.headers["Cache-Control"] == "private, no-store"
        assert "data-join-token" in page.get_data(as_text=True)
        assert phone.post(path, data={"token": table["token"]}).status_code == 403
        assert phone.post(path, data={"token": secret}).status_code == 302
    # An evening that does not ask for it prints one code a table.
    plain = client.post("/evenings/new", data=evening_form()).headers["Location"]
    assert "confirm-code" not in client.get(f"{plain}/cards").get_data(as_text=True)


def test_the_other_side_confirms_each_deal_from_the_sheet(client: FlaskClient, app: Flask) -> None:
    evening = new_evening(client)
    table = tables(client, evening)[0]
    sheet = f"/games/{table['game']}"
    record(client, table, 2)
    phone = other_side(app, table)
    page = phone.get(sheet)
    html = page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "private, no-store"
    assert confirm_buttons(html) == ["1", "2"] and "You confirm this table's results" in html
    # It follows the sheet (its poll) and records nothing.
    assert f'hx-get="{sheet}"' in html and f"{sheet}/deals/new" not in html
    poll = phone.get(sheet, headers={"HX-Request": "true"})
    assert confirm_buttons(poll.get_data(as_text=True)) == ["1", "2"]
    assert "private" in poll.headers["Cache-Control"]
    # The copy the service worker keeps offline is the follower's: no Confirm form.
    copy = phone.get(sheet, headers={"X-Offline-Copy": "follower"}).get_data(as_text=True)
    assert confirm_buttons(copy) == []
    seq, version = re.search(
        r'/deals/1/confirm">.*?name="seq" value="(\d+)".*?name="version" value="(\d+)"',
        html,
        flags=re.S,
    ).groups()  # type: ignore[union-attr]
    done = phone.post(f"{sheet}/deals/1/confirm", data={"seq": seq, "version": version})
    assert done.status_code == 302 and done.headers["Location"] == sheet
    after = phone.get(sheet).get_data(as_text=True)
    assert "Deal 1 confirmed." in after and confirm_buttons(after) == ["2"]
    # Everyone sees which deals are confirmed; only that phone is offered the button.
    follower = app.test_client().get(sheet).get_data(as_text=True)
    assert confirm_buttons(follower) == [] and follower.count('class="confirmed"') == 1
    # The scorer edits deal 1: its confirmation goes, and a button shown before is refused.
    client.put(
        f"/api/games/{table['game']}/deals/1",
        json={"results": [result(100, hand=50), result(300, natural=1, went_out=True)]},
        headers=auth(table["token"]),
    )
    stale = phone.post(f"{sheet}/deals/1/confirm", data={"seq": seq, "version": version})
    assert stale.status_code == 409 and "changed on another phone" in stale.get_data(as_text=True)
    assert confirm_buttons(phone.get(sheet).get_data(as_text=True)) == ["1", "2"]


def test_the_confirm_secret_opens_nothing_the_scorer_does(client: FlaskClient, app: Flask) -> None:
    evening = new_evening(client)
    table = tables(client, evening)[0]
    sheet = f"/games/{table['game']}"
    record(client, table)
    phone = other_side(app, table)
    before = client.get(f"/api/games/{table['game']}").get_json()
    assert phone.get(f"{sheet}/deals/new").status_code == 403
    assert phone.post(f"{sheet}/deals/new", data={}).status_code == 403
    assert phone.get(f"{sheet}/deals/1/edit").status_code == 403
    assert phone.post(f"{sheet}/deals/1/edit", data={}).status_code == 403
    assert phone.post(f"{sheet}/deals/1/delete").status_code == 403
    log = client.get(f"/api/games/{table['game']}/changes").get_json()["changes"]
    assert phone.post(f"{sheet}/changes/{log[0]['id']}/undo").status_code == 403
    assert phone.post(f"{sheet}/delete").status_code == 403
    # Nor may it rename a player of the table (a rename needs every one of their games).
    name = table["sides"][0]["players"][0]
    with app.app_context():
        person = db.session.scalars(select(Person.id).where(Person.name == name)).one()
    renamed = phone.post(f"/players/{person}/rename", data={"name": "Someone else"})
    assert renamed.status_code == 403
    assert client.get(f"/api/games/{table['game']}").get_json() == before
    # Its change log offers no Undo, and the scorer's offers none of a confirmation.
    phone.post(f"{sheet}/deals/1/confirm")
    scorer = app.test_client()
    scorer.post(f"{sheet}/join", data={"token": table["token"]})
    changes = scorer.get(f"{sheet}/changes").get_data(as_text=True)
    assert "Deal 1 confirmed by the other side" in changes
    assert changes.count(">Undo<") == 1  # the deal recorded, not its confirmation
    # A phone without the secret, or with the scorer's, confirms nothing.
    assert app.test_client().post(f"{sheet}/deals/1/confirm").status_code == 403


def test_the_director_sees_unconfirmed_tables_and_is_asked_before_the_next_round(
    client: FlaskClient, app: Flask
) -> None:
    evening = new_evening(client)
    first, second = tables(client, evening)
    for table in (first, second):
        record(client, table, 2)
    phone = other_side(app, first)
    for number in (1, 2):
        phone.post(f"/games/{first['game']}/deals/{number}/confirm")
    html = client.get(evening).get_data(as_text=True)
    assert html.count('class="table-unconfirmed"') == 1
    assert "2 deals not confirmed by the other side: 1, 2" in html
    # The button asks first: a GET of its own page, naming the table.
    assert re.search(rf'<form method="get" action="{evening}/rounds">', html)
    ask = client.get(f"{evening}/rounds")
    text = ask.get_data(as_text=True)
    assert ask.status_code == 200 and "Start round 2?" in text and "Start anyway" in text
    assert f"Table {second['table']}" in text and f"Table {first['table']}" not in text
    # Sent without the force (a page drawn before), it asks again, with the tables.
    held = client.post(f"{evening}/rounds")
    assert held.status_code == 409 and "Start anyway" in held.get_data(as_text=True)
    assert f"table {second['table']} (deals 1, 2)" in held.get_data(as_text=True)
    started = client.post(f"{evening}/rounds", data={"force": "1"})
    assert started.status_code == 302
    assert "Round 2 is seated." in client.get(evening).get_data(as_text=True)
    # A follower's page marks the tables too; only the director asks.
    assert app.test_client().get(f"{evening}/rounds").status_code == 403
