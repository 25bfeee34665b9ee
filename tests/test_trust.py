"""Trust: who may change a game, two phones at once, retries, headers, names as text."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper.store import db
from scorekeeper.store.models import Change

from .conftest import app_for_tests
from .helpers.api import auth, counts, get_game, new_game, result
from .helpers.history import markup
from .helpers.pages import (
    CASE_A,
    CASE_B,
    InlineFinder,
    count_rows,
    deal_form,
    form_nonce,
    style_source,
    totals,
)
from .helpers.pages import new_game as new_game_form

PAGES = ["/", "/games/new", "/rules", "/rules/railroad", "/check", "/check/meld?cards=9+9+2"]


@pytest.mark.one_database  # the pages' markup and CSP: on SQLite alone
def test_every_page_needs_no_inline_script_or_style_but_its_hashed_stylesheet(
    client: FlaskClient,
) -> None:
    game_id = new_game_form(client)
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    for path in [
        *PAGES,
        f"/games/{game_id}",
        f"/games/{game_id}/deals/new",
        f"/games/{game_id}/deals/1/edit",
        f"/games/{game_id}/rules",
    ]:
        response = client.get(path)
        assert response.status_code == 200, path
        finder = InlineFinder()
        finder.feed(response.get_data(as_text=True))
        assert finder.found == [], path
        # The one inline stylesheet, allowed by its hash (tests/test_inline_style.py).
        csp = response.headers["Content-Security-Policy"]
        for style in finder.styles:
            assert style_source(style) in csp, path


@pytest.mark.one_database  # headers: on SQLite alone
@pytest.mark.parametrize("path", [*PAGES, "/api/variants"])
def test_security_headers(client: FlaskClient, path: str) -> None:
    headers = client.get(path).headers
    csp = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.one_database  # the templates' escaping: on SQLite alone
def test_names_with_html_show_as_text(client: FlaskClient) -> None:
    evil = "<script>alert(1)</script>"
    body = {
        "variant": "classic",
        "sides": [
            {"name": evil, "players": ["<b>Ana</b>", "Boris"]},
            {"name": "They", "players": ["Vera", "Goran"]},
        ],
    }
    game = client.post("/api/games", json=body).get_json()
    for path in [f"/games/{game['id']}", f"/games/{game['id']}/rules", "/"]:
        html = client.get(path).get_data(as_text=True)
        assert evil not in html and "<b>Ana</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(f"/games/{game['id']}").get_data(
        as_text=True
    )


def limited_app(tmp_path: Any, **config: object) -> Flask:
    """An app that limits new games (3 a minute unless ``config`` says otherwise)."""
    settings: dict[str, object] = {"GAME_CREATION_LIMIT": "3 per minute", **config}
    url = f"sqlite:///{tmp_path / 'limited.sqlite'}"
    return app_for_tests(url, RATELIMIT_ENABLED=True, **settings)


def test_creating_games_is_rate_limited(tmp_path: Any) -> None:
    app = limited_app(tmp_path)
    client = app.test_client()
    body = {"variant": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    assert [client.post("/api/games", json=body).status_code for _ in range(3)] == [201] * 3
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert "Too many new games" in refused.get_json()["error"]
    # Reading is never limited.
    assert client.get("/api/games").status_code == 200


def test_one_budget_for_new_games_on_every_route(tmp_path: Any) -> None:
    """The new-game page, the API and import draw on one budget per client: a client cannot
    create the limit's worth of games through each door."""
    app = limited_app(tmp_path)
    client = app.test_client()
    body = {"variant": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201
    export = client.get(f"/api/games/{created.get_json()['id']}/export").get_json()
    assert client.post("/api/games/import", json=export).status_code == 201
    assert new_game_form(client)  # the page's third game (a 302 to its sheet)
    before = client.get("/api/games").get_json()
    # The budget is spent on every route at once.
    assert client.post("/api/games", json=body).status_code == 429
    assert client.post("/api/games/import", json=export).status_code == 429
    page = client.post(
        "/games/new",
        data={"sides-0-name": "We", "sides-1-name": "They", "target": "5000"},
    )
    assert page.status_code == 429
    assert "Too many new games" in page.get_data(as_text=True)
    assert client.get("/api/games").get_json() == before


def test_refused_attempts_spend_nothing_of_the_budget(tmp_path: Any) -> None:
    """Only games created count (issue 31): ten refused bodies, ten refused imports and ten
    seat draws of the new-game page (refused and seated alike) leave the budget whole; the
    games created spend it, and it still bites after them."""
    app = limited_app(tmp_path)
    client = app.test_client()
    unknown = {"variant": "no-such-rules", "sides": [{"name": "A"}, {"name": "B"}]}
    assert {client.post("/api/games", json=unknown).status_code for _ in range(10)} == {422}
    body = {"variant": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.get_json()

    export = client.get(f"/api/games/{created.get_json()['id']}/export").get_json()
    broken = {**export, "variant": "no-such-rules"}
    assert {client.post("/api/games/import", json=broken).status_code for _ in range(10)} == {422}
    assert client.post("/api/games/import", json=export).status_code == 201

    names = {f"players-{i}": name for i, name in enumerate(["Ana", "Boris", "Vera", "Goran"])}
    page = {"sides-0-name": "We", "sides-1-name": "They", "first_dealer": "0", "target": "5000"}
    page.update(names)
    jokers = {f"cards-{index}-rank": "JK" for index in range(4)}
    draws = [client.post("/games/new", data={**page, **jokers, "draw": "1"}) for _ in range(10)]
    assert {draw.status_code for draw in draws} == {422}  # four jokers: all draw again
    assert "draws again" in draws[-1].get_data(as_text=True)
    assert new_game_form(client)  # the third game created: a 302 to its sheet

    # Three created: the limit bites on every door.
    assert client.post("/api/games", json=body).status_code == 429
    assert client.post("/games/new", data=page).status_code == 429


@pytest.mark.one_database  # headers: on SQLite alone
def test_an_answer_that_carries_a_games_secret_is_never_stored(client: FlaskClient) -> None:
    """The token of a new or imported game, and the scorer cookie a new game or the scorer
    link sets, are for this client alone: no cache keeps those answers (issue 31)."""
    body = {"variant": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201 and created.get_json()["token"]
    export = client.get(f"/api/games/{created.get_json()['id']}/export").get_json()
    imported = client.post("/api/games/import", json=export)
    assert imported.status_code == 201 and imported.get_json()["token"]
    names = {f"players-{i}": name for i, name in enumerate(["Ana", "Boris", "Vera", "Goran"])}
    form = {"sides-0-name": "We", "sides-1-name": "They", "first_dealer": "0", "target": "5000"}
    form.update(names)
    page = client.post("/games/new", data=form)
    assert page.status_code == 302 and "scorer=" in page.headers["Set-Cookie"]
    joined = client.application.test_client().post(
        f"/games/{created.get_json()['id']}/join", data={"token": created.get_json()["token"]}
    )
    assert joined.status_code == 302 and "scorer=" in joined.headers["Set-Cookie"]
    for response in (created, imported, page, joined):
        assert response.headers["Cache-Control"] == "private, no-store"


@pytest.mark.one_database  # the cookie's signature: on SQLite alone
def test_scorer_cookie_is_signed_and_the_link_hands_the_secret_on(
    client: FlaskClient, app: Flask
) -> None:
    game_id, token = new_game(client)
    other = app.test_client()
    # The raw secret in the cookie (not signed by the app) changes nothing.
    other.set_cookie("scorer", token, path=f"/games/{game_id}")
    assert other.get(f"/games/{game_id}/deals/new").status_code == 403
    page = other.get(f"/games/{game_id}/join")
    assert page.status_code == 200 and "Keep score here" in page.get_data(as_text=True)
    assert other.post(f"/games/{game_id}/join", data={"token": "wrong"}).status_code == 403
    assert other.post(f"/games/{game_id}/join", data={"token": token}).status_code == 302
    assert other.get(f"/games/{game_id}/deals/new").status_code == 200
    sheet = other.get(f"/games/{game_id}").get_data(as_text=True)
    # The sheet never holds the secret: the share panel's tap asks for the scorer link.
    assert token not in sheet and f"/games/{game_id}/scorer-code" in sheet
    shown = other.get(f"/games/{game_id}/scorer-code")
    assert shown.headers["Cache-Control"] == "private, no-store"
    # The scorer link carries the secret in the fragment, never in the path or query.
    assert f"/games/{game_id}/join#{token}" in shown.get_data(as_text=True)


def test_followers_get_304_until_something_changes(client: FlaskClient, app: Flask) -> None:
    game_id, token = new_game(client)
    follower = app.test_client()
    first = follower.get(f"/games/{game_id}", headers={"HX-Request": "true"})
    assert first.status_code == 200 and first.headers["ETag"]
    assert 'id="sheet-live"' in first.get_data(as_text=True)
    again = follower.get(
        f"/games/{game_id}", headers={"HX-Request": "true", "If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304
    client.post(
        f"/api/games/{game_id}/deals",
        headers=auth(token),
        json={"results": [result(150, red_threes=2, hand=85), result(90, hand=20)]},
    )
    changed = follower.get(
        f"/games/{game_id}", headers={"HX-Request": "true", "If-None-Match": first.headers["ETag"]}
    )
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]
    assert "+265" in changed.get_data(as_text=True)


def test_a_retried_api_call_records_one_deal(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    body = {"results": [result(150, red_threes=2, hand=85), result(90, hand=20)]}
    headers = {**auth(token), "Idempotency-Key": "deal-1-from-phone-a"}
    first = client.post(f"/api/games/{game_id}/deals", json=body, headers=headers)
    second = client.post(f"/api/games/{game_id}/deals", json=body, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.get_json()["number"] == second.get_json()["number"] == 1
    assert len(get_game(client, game_id)["deals"]) == 1
    other = client.post(
        f"/api/games/{game_id}/deals",
        json=body,
        headers={**auth(token), "Idempotency-Key": "deal-2"},
    )
    assert other.get_json()["number"] == 2


def test_a_resent_deal_form_records_one_deal(client: FlaskClient) -> None:
    game_id = new_game_form(client)
    nonce = form_nonce(client, game_id)
    data = {**deal_form("0", we=CASE_A, they=CASE_B), "nonce": nonce}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    resent = client.post(f"/games/{game_id}/deals/new", data=data)
    assert resent.status_code == 302
    assert "Deal 1 was already saved." in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert totals(client, game_id) == [1210, 265]


def test_a_key_reused_with_another_body_is_refused(client: FlaskClient) -> None:
    """API.md: the same key with a different body is a 422, and nothing is recorded."""
    game_id, token = new_game(client)
    headers = {**auth(token), "Idempotency-Key": "phone-a-deal-1"}
    body = {"results": [result(150, red_threes=2, hand=85), result(90, hand=20)]}
    assert client.post(f"/api/games/{game_id}/deals", json=body, headers=headers).status_code == 201
    before = get_game(client, game_id)
    other = {"results": [result(150, red_threes=2, hand=85), result(95, hand=20)]}
    reused = client.post(f"/api/games/{game_id}/deals", json=other, headers=headers)
    assert reused.status_code == 422
    answer = reused.get_json()
    assert answer["error"] and set(answer) == {"error", "fields"}
    assert "deal 1" in answer["fields"]["Idempotency-Key"]
    assert get_game(client, game_id) == before


def test_a_key_reused_with_the_same_body_written_otherwise_answers_as_before(
    client: FlaskClient,
) -> None:
    """The body is compared as the deal it says, not byte for byte: spacing, key order and
    figures left out (0, false) do not make it another body."""
    game_id, token = new_game(client)
    headers = {**auth(token), "Idempotency-Key": "phone-a-deal-1"}
    body = {"results": [result(150, red_threes=2, hand=85), result(90, hand=20)]}
    first = client.post(f"/api/games/{game_id}/deals", json=body, headers=headers)
    respelled = (
        '{ "results": [ {"hand_points": 85, "red_threes": 2, "meld_points": 150},'
        '\n {"went_out": false, "hand_points": 20, "meld_points": 90} ] }'
    )
    again = client.post(
        f"/api/games/{game_id}/deals",
        data=respelled,
        content_type="application/json",
        headers=headers,
    )
    assert again.status_code == 201
    assert again.get_json() == first.get_json()
    assert len(get_game(client, game_id)["deals"]) == 1


def test_a_key_stored_before_bodies_were_compared_answers_as_before(
    client: FlaskClient, app: Flask
) -> None:
    """Deals recorded before the request's hash was kept have none: their key still
    answers with the deal it recorded, whatever the body."""
    game_id, token = new_game(client)
    headers = {**auth(token), "Idempotency-Key": "phone-a-deal-1"}
    body = {"results": [result(150, red_threes=2, hand=85), result(90, hand=20)]}
    first = client.post(f"/api/games/{game_id}/deals", json=body, headers=headers)
    with app.app_context():
        db.session.execute(update(Change).values(request_hash=None))
        db.session.commit()
    other = {"results": [result(150, red_threes=2, hand=85), result(95, hand=20)]}
    again = client.post(f"/api/games/{game_id}/deals", json=other, headers=headers)
    assert again.status_code == 201
    assert again.get_json()["results"] == first.get_json()["results"]
    assert len(get_game(client, game_id)["deals"]) == 1


def test_a_resent_deal_form_with_other_figures_is_refused(client: FlaskClient, app: Flask) -> None:
    """A form saved once and sent again with other figures (edited after a slow save,
    say) does not drop them silently: the form says so, and nothing is recorded."""
    game_id = new_game_form(client)
    nonce = form_nonce(client, game_id)
    data = {**deal_form("0", we=CASE_A, they=CASE_B), "nonce": nonce}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    changed = {**deal_form("0", we=CASE_A, they={**CASE_B, "hand_points": 90})}
    resent = client.post(f"/games/{game_id}/deals/new", data={**changed, "nonce": nonce})
    assert resent.status_code == 422  # as the API answers a reused key (API.md)
    html = resent.get_data(as_text=True)
    assert "This form was already saved as deal 1; these figures were not saved." in html
    assert 'value="90"' in html  # the figures are still on the form
    assert totals(client, game_id) == [1210, 265]
    assert count_rows(app) == (1, 2)


def test_a_resent_form_that_ended_the_game_says_what_became_of_its_figures(
    client: FlaskClient, app: Flask
) -> None:
    """The save that won the game took the form's nonce: sent again with other figures, the
    sheet says that form was saved already, not only that the game is over."""
    game_id = new_game_form(client, **{"sides-0-start": "4500"})
    nonce = form_nonce(client, game_id)
    data = {**deal_form("0", we=CASE_A, they=CASE_B), "nonce": nonce}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    changed = deal_form("0", we=CASE_A, they={**CASE_B, "hand_points": 90})
    resent = client.post(f"/games/{game_id}/deals/new", data={**changed, "nonce": nonce})
    assert resent.status_code == 302
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "This form was already saved as deal 1; these figures were not saved." in sheet
    assert count_rows(app) == (1, 2)


def test_editing_a_deal_changed_meanwhile_is_refused(client: FlaskClient, app: Flask) -> None:
    game_id = new_game_form(client)
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    page = client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    seq = re.search(r'name="seq" type="hidden" value="(\d+)"', page)
    assert version and version.group(1) == "1"
    assert seq and seq.group(1) == "1"
    shown = {"seq": "1", "version": "1"}
    # Another phone changes deal 1 first (version 1 -> 2): We melded 250, not 220.
    newer = {**deal_form("0", we={**CASE_A, "meld_points": 250}, they=CASE_B), **shown}
    assert client.post(f"/games/{game_id}/deals/1/edit", data=newer).status_code == 302
    stale = {**deal_form("0", we={**CASE_A, "meld_points": 230}, they=CASE_B), **shown}
    refused = client.post(f"/games/{game_id}/deals/1/edit", data=stale)
    assert refused.status_code == 409
    html = refused.get_data(as_text=True)
    assert "changed on another phone meanwhile" in html
    assert 'value="250"' in html  # the newer version is shown
    assert totals(client, game_id) == [1240, 265]


def test_an_edit_form_never_lands_on_the_deal_that_moved_into_its_number(
    client: FlaskClient,
) -> None:
    """Deal 1's edit form is open on one phone; another deletes deal 1, so deal 2 becomes
    deal 1. Saving the form must not overwrite the deal that moved up."""
    game_id = new_game_form(client)
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    client.post(f"/games/{game_id}/deals/new", data=deal_form("1", we=CASE_B, they=CASE_A))
    page = client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True)
    shown = {
        name: re.search(rf'name="{name}" type="hidden" value="(\d+)"', page).group(1)  # type: ignore[union-attr]
        for name in ("seq", "version")
    }
    before = totals(client, game_id)
    delete_page = client.get(f"/games/{game_id}/deals/1/delete").get_data(as_text=True)
    confirm = {
        name: re.search(rf'name="{name}" type="hidden" value="(\d+)"', delete_page).group(1)  # type: ignore[union-attr]
        for name in ("seq", "version")
    }
    assert client.post(f"/games/{game_id}/deals/1/delete", data=confirm).status_code == 302
    moved_up = totals(client, game_id)
    assert moved_up != before
    stale = {**deal_form("0", we={**CASE_A, "meld_points": 230}, they=CASE_B), **shown}
    refused = client.post(f"/games/{game_id}/deals/1/edit", data=stale)
    assert refused.status_code == 409
    assert totals(client, game_id) == moved_up
    # The same confirmation sent again deletes nothing more.
    client.post(f"/games/{game_id}/deals/1/delete", data=confirm)
    assert totals(client, game_id) == moved_up


def test_api_edit_with_an_old_version_is_refused(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    body = {"results": [result(150, red_threes=2, hand=85), result(90, hand=20)]}
    client.post(f"/api/games/{game_id}/deals", json=body, headers=auth(token))
    ok = client.put(
        f"/api/games/{game_id}/deals/1", json={**body, "version": 1}, headers=auth(token)
    )
    assert ok.status_code == 200 and ok.get_json()["version"] == 2
    stale = client.put(
        f"/api/games/{game_id}/deals/1", json={**body, "version": 1}, headers=auth(token)
    )
    assert stale.status_code == 409 and "version" in stale.get_json()["fields"]


def test_two_phones_saving_at_once_get_consecutive_numbers(app: Flask) -> None:
    """Threads save deals into one game at the same time: none lost, numbers 1..N."""
    setup = app.test_client()
    game_id, token = new_game(setup)
    threads, per_thread = 6, 4
    answers: list[int] = []
    failures: list[Any] = []
    lock = threading.Lock()

    def phone(index: int) -> None:
        client = app.test_client()
        for n in range(per_thread):
            body = {
                "results": [result(5 * (index * per_thread + n + 1), hand=5), result(10, hand=5)]
            }
            response = client.post(f"/api/games/{game_id}/deals", json=body, headers=auth(token))
            with lock:
                if response.status_code == 201:
                    answers.append(response.get_json()["number"])
                else:
                    failures.append(response.get_json())

    workers = [threading.Thread(target=phone, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert failures == []
    assert sorted(answers) == list(range(1, threads * per_thread + 1))
    deals = get_game(setup, game_id)["deals"]
    melds = sorted(deal["results"][0]["meld_points"] for deal in deals)
    assert melds == [5 * k for k in range(1, threads * per_thread + 1)]


def test_sqlite_runs_in_wal_mode(app: Flask) -> None:
    from scorekeeper.store import db

    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("a SQLite setting")
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000


@pytest.mark.one_database  # the API's document: on SQLite alone
def test_openapi_document_lists_the_api(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    for path in [
        "/api/variants",
        "/api/games",
        "/api/games/{game_id}/deals",
        "/api/check/meld",
        "/api/check/initial-meld",
    ]:
        assert path in spec["paths"]
    # Every operation that takes a body says what a body of another type gets.
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if "requestBody" in operation:
                assert "415" in operation["responses"], (method, path)


@pytest.mark.one_database  # redirects: on SQLite alone
@pytest.mark.parametrize(
    "target",
    [
        "//evil.example",
        "/\t/evil.example",
        "/\\evil.example",
        "https://evil.example",
        "/ /evil.example",
        "javascript:alert(1)",
    ],
)
def test_the_switches_only_go_back_into_the_app(client: FlaskClient, target: str) -> None:
    for switch in ("/language/mk", "/theme/dark"):
        response = client.get(switch, query_string={"next": target})
        assert response.headers["Location"] == "/", (switch, target)
    assert client.get("/theme/dark?next=/rules").headers["Location"] == "/rules"


def test_a_resent_delete_deletes_one_deal(client: FlaskClient) -> None:
    game_id = new_game_form(client)
    for _ in range(3):
        client.post(f"/games/{game_id}/deals/new", data=deal_form(we=CASE_B, they=CASE_B))
    page = client.get(f"/games/{game_id}/deals/2/delete").get_data(as_text=True)
    seq = re.search(r'name="seq" type="hidden" value="(\d+)"', page)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert seq and version
    shown = {"seq": seq.group(1), "version": version.group(1)}
    client.post(f"/games/{game_id}/deals/2/delete", data=shown)
    client.post(f"/games/{game_id}/deals/2/delete", data=shown)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "That deal was already deleted; nothing else was." in html
    assert totals(client, game_id) == [2 * 265, 2 * 265]


@pytest.mark.one_database  # translations: on SQLite alone
def test_error_pages_speak_the_players_language(client: FlaskClient) -> None:
    english = client.get("/no/such/page").get_data(as_text=True)
    russian = client.get("/no/such/page", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Not found" in english
    assert "Not found" not in russian and "requested URL" not in russian


def test_a_shared_limit_store_that_is_down_does_not_stop_new_games(tmp_path: Any) -> None:
    """Redis unreachable: games still start, and each process keeps the limit alone."""
    app = limited_app(
        tmp_path,
        RATELIMIT_STORAGE_URI="redis://127.0.0.1:9/0",  # the discard port: nobody there
        GAME_CREATION_LIMIT="2 per minute",
    )
    client = app.test_client()
    body = {"variant": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    assert [client.post("/api/games", json=body).status_code for _ in range(3)] == [201, 201, 429]


@pytest.mark.parametrize(
    "moment",
    [
        "9999-12-31T23:59:59-01:00",  # past the last year a date can hold, once in UTC
        "0001-01-01T00:00:00+14:00",  # before the first
        "9999-12-31T23:59:59Z",  # would head every newest-first list for ever
        "1989-12-31T23:59:59Z",
        "2999-01-01T00:00:00",
    ],
)
def test_an_import_dated_out_of_range_is_refused(
    client: FlaskClient, app: Flask, moment: str
) -> None:
    game_id, _ = new_game(client)
    document = client.get(f"/api/games/{game_id}/export").get_json()
    before = counts(app)
    response = client.post("/api/games/import", json={**document, "created_at": moment})
    assert response.status_code == 422, response.get_json()
    assert "created_at" in response.get_json()["fields"]
    assert "1990" in response.get_json()["error"]
    assert counts(app) == before


def test_an_import_keeps_a_date_in_range_and_a_day_ahead(client: FlaskClient) -> None:
    game_id, _ = new_game(client)
    document = client.get(f"/api/games/{game_id}/export").get_json()
    copy = client.post(
        "/api/games/import", json={**document, "created_at": "1990-01-01T01:30:00+01:00"}
    )
    assert copy.status_code == 201, copy.get_json()
    assert copy.get_json()["created_at"] == "1990-01-01T00:30:00Z"
    # A phone whose clock runs some hours ahead (or in a far time zone) is not refused.
    ahead = (datetime.now(UTC) + timedelta(hours=20)).isoformat()
    response = client.post("/api/games/import", json={**document, "created_at": ahead})
    assert response.status_code == 201


@pytest.mark.one_database  # headers and markup: on SQLite alone
def test_the_offline_copy_of_a_sheet_is_the_followers(client: FlaskClient) -> None:
    """The scorer's sheet offers the scorer link and is never stored; the copy the service
    worker keeps (asked for with X-Offline-Copy) is the follower's view, in the phone's
    language, with nothing only the scorer sees (issue 16)."""
    game_id = new_game_form(client)
    own = client.get(f"/games/{game_id}")
    assert own.headers["Cache-Control"] == "private, no-store"
    assert f"/games/{game_id}/scorer-code" in own.get_data(as_text=True)

    client.set_cookie("lang", "sk")
    copy = client.get(f"/games/{game_id}", headers={"X-Offline-Copy": "follower"})
    page = markup(copy.get_data(as_text=True))
    assert copy.status_code == 200
    assert "no-store" not in copy.headers.get("Cache-Control", "")
    assert "X-Offline-Copy" in copy.headers["Vary"]
    assert "/join" not in page and "secret-link" not in page and "scorer-code" not in page
    # No edit, undo or delete link; only the new-deal form, which a scorer's phone keeps
    # to record deals offline (issue 17): a link, no secret.
    assert re.findall(rf"/games/{game_id}/deals/[\w/]+", page) == [f"/games/{game_id}/deals/new"]
    assert "data-offline-record" in page
    assert 'lang="sk"' in page and "following-note" in page
    assert "data-offline-copy" in page  # back online, app.js loads the scorer's own page
    # The phone is still the scorer: its own sheet is as before.
    own_page = markup(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "secret-link" in own_page and "data-offline-copy" not in own_page
    # A follower's phone keeps a copy with no way to record.
    with client.application.test_client() as follower:
        copy = follower.get(f"/games/{game_id}", headers={"X-Offline-Copy": "follower"})
        assert "/deals/" not in markup(copy.get_data(as_text=True))


@pytest.mark.one_database  # headers: on SQLite alone
def test_the_join_page_is_never_stored(client: FlaskClient) -> None:
    """The page a secret is pasted into, or shown again when refused, is kept by no cache."""
    game_id, _ = new_game(client)
    shown = client.get(f"/games/{game_id}/join")
    refused = client.post(f"/games/{game_id}/join", data={"token": "not-the-secret"})
    assert refused.status_code == 403 and "not-the-secret" in refused.get_data(as_text=True)
    for response in (shown, refused):
        assert response.headers["Cache-Control"] == "private, no-store"
