"""Request keys on every command that had none (issue 41): the API's import, the page's
deal delete, game delete and restore, a rename and each club evening command. A form sent
twice (a double tap, a retry) answers as the first time and changes nothing more."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.store import db
from scorekeeper.store.models import Change, Evening, EveningChange, Game, Person

from .helpers.api import get_game, new_game
from .helpers.evenings import evening_form, new_evening_page, page_tables
from .helpers.pages import CASE_A, CASE_B, deal_form
from .helpers.pages import new_game as new_game_form


def count(app: Flask, column: object) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count(column))) or 0)


def three_deals_on_the_page(client: FlaskClient) -> str:
    game_id = new_game_form(client)
    for _ in range(3):
        client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    return game_id


def test_a_retried_import_imports_nothing_and_names_the_game(
    client: FlaskClient, app: Flask
) -> None:
    game_id, _token = new_game(client)
    document = client.get(f"/api/games/{game_id}/export").get_json()
    first = client.post("/api/games/import", json=document, headers={"Idempotency-Key": "i1"})
    assert first.status_code == 201, first.get_json()
    again = client.post("/api/games/import", json=document, headers={"Idempotency-Key": "i1"})
    assert again.status_code == 409, again.get_json()
    assert first.get_json()["id"] in again.get_json()["error"]
    other = {**document, "first_dealer": 1}
    reused = client.post("/api/games/import", json=other, headers={"Idempotency-Key": "i1"})
    assert reused.status_code == 422, reused.get_json()
    assert count(app, Game.id) == 2


def test_a_deal_deletion_form_sent_twice_deletes_one_deal(client: FlaskClient) -> None:
    game_id = three_deals_on_the_page(client)
    page = client.get(f"/games/{game_id}/deals/1/delete").get_data(as_text=True)
    fields = dict(re.findall(r'name="(seq|version|nonce)"[^>]*value="([^"]+)"', page))
    fields |= {k: v for v, k in re.findall(r'value="([^"]+)"[^>]*name="(seq|version)"', page)}
    assert set(fields) == {"seq", "version", "nonce"}, page
    for _ in range(2):
        assert client.post(f"/games/{game_id}/deals/1/delete", data=fields).status_code == 302
    assert len(get_game(client, game_id)["deals"]) == 2


def test_a_game_deletion_sent_again_after_a_restore_leaves_it_restored(
    client: FlaskClient,
) -> None:
    game_id = three_deals_on_the_page(client)
    assert client.post(f"/games/{game_id}/delete", data={"nonce": "del-1"}).status_code == 302
    assert client.post(f"/games/{game_id}/restore", data={"nonce": "res-1"}).status_code == 302
    assert client.post(f"/games/{game_id}/delete", data={"nonce": "del-1"}).status_code == 302
    assert client.get(f"/api/games/{game_id}").status_code == 200
    # And the restore sent again after a second deletion restores nothing.
    assert client.post(f"/games/{game_id}/delete", data={"nonce": "del-2"}).status_code == 302
    client.post(f"/games/{game_id}/restore", data={"nonce": "res-1"})
    assert client.get(f"/api/games/{game_id}").status_code == 410


def test_a_rename_sent_again_renames_nothing_and_logs_once(client: FlaskClient, app: Flask) -> None:
    game_id = three_deals_on_the_page(client)
    with app.app_context():
        ana = db.session.scalar(select(Person.id).where(Person.name == "Ana"))
    url = f"/players/{ana}/rename"
    assert client.post(url, data={"name": "Anna", "nonce": "r1"}).status_code == 303
    assert client.post(url, data={"name": "Annie", "nonce": "r2"}).status_code == 303
    assert client.post(url, data={"name": "Anna", "nonce": "r1"}).status_code == 303
    with app.app_context():
        assert db.session.get(Person, ana).name == "Annie"
        renames = db.session.scalars(
            select(Change.request_key).where(
                Change.game_id == game_id, Change.kind == "player-renamed"
            )
        ).all()
    assert sorted(renames) == ["r1", "r2"]


def evening_log(app: Flask) -> list[tuple[str, int | None, str | None]]:
    with app.app_context():
        rows = db.session.execute(
            select(EveningChange.kind, EveningChange.round, EveningChange.request_key).order_by(
                EveningChange.id
            )
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


def test_each_evening_command_sent_twice_acts_once(client: FlaskClient, app: Flask) -> None:
    evening = new_evening_page(client)
    seated = page_tables(client, evening)
    first = seated[0]["sides"][0]["players"][0]
    second = seated[1]["sides"][0]["players"][0]
    swap = {"first": first, "second": second, "nonce": "swap-1"}
    for _ in range(2):  # sent again, it would swap them back
        assert client.post(f"{evening}/rounds/1/swap", data=swap).status_code == 302
    after = page_tables(client, evening)
    assert first in after[1]["sides"][0]["players"] and second in after[0]["sides"][0]["players"]
    for _ in range(2):
        answer = client.post(f"{evening}/rounds/1/close", data={"nonce": "close-1", "final": "1"})
        assert answer.status_code == 302
    for _ in range(2):  # sent again, it would seat round 3
        assert client.post(f"{evening}/rounds", data={"nonce": "start-2"}).status_code == 302
    assert "Round 2 of 3" in client.get(evening).get_data(as_text=True)
    assert evening_log(app)[1:] == [
        ("seats-swapped", 1, "swap-1"),
        ("round-closed", 1, "close-1"),
        ("round-started", 2, "start-2"),
    ]


def test_a_new_evening_form_sent_twice_makes_one_evening(client: FlaskClient, app: Flask) -> None:
    form = evening_form(nonce="evening-1")
    first = client.post("/evenings/new", data=form)
    assert first.status_code == 302, first.get_data(as_text=True)
    again = client.post("/evenings/new", data=form)
    assert again.status_code == 302
    assert again.headers["Location"].endswith(first.headers["Location"].rsplit("/", 1)[1])
    assert count(app, Evening.id) == 1
