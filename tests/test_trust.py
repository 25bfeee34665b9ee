"""Trust: who may change a game, two phones at once, retries, headers, names as text."""

from __future__ import annotations

import re
import threading
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app

from .test_api import auth, get_game, new_game, result
from .test_pages import CASE_A, CASE_B, deal_form, totals
from .test_pages import new_game as new_game_form

PAGES = ["/", "/games/new", "/rules", "/rules/railroad", "/check", "/check/meld?cards=9+9+2"]


class InlineFinder(HTMLParser):
    """Collects what a strict Content-Security-Policy would block: inline script and style."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "script" and "src" not in names:
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style>")
        if "style" in names:
            self.found.append(f"style= on <{tag}>")
        self.found += [f"{name}= on <{tag}>" for name in names if name.startswith("on")]


def test_every_page_needs_no_inline_script_or_style(client: FlaskClient) -> None:
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


@pytest.mark.parametrize("path", [*PAGES, "/api/variants"])
def test_security_headers(client: FlaskClient, path: str) -> None:
    headers = client.get(path).headers
    csp = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"


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


def test_creating_games_is_rate_limited(tmp_path: Any) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'r.sqlite'}",
            "RATELIMIT_ENABLED": True,
            "GAME_CREATION_LIMIT": "3 per minute",
        }
    )
    client = app.test_client()
    body = {"variant": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    assert [client.post("/api/games", json=body).status_code for _ in range(3)] == [201] * 3
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert "Too many new games" in refused.get_json()["error"]
    # Reading is never limited.
    assert client.get("/api/games").status_code == 200


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
    # The scorer link carries the secret in the fragment, never in the path or query.
    assert f"/games/{game_id}/join#{token}" in sheet


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
    form_page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    nonce = re.search(r'name="nonce" type="hidden" value="([^"]+)"', form_page)
    assert nonce
    data = {**deal_form("0", we=CASE_A, they=CASE_B), "nonce": nonce.group(1)}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    resent = client.post(f"/games/{game_id}/deals/new", data=data)
    assert resent.status_code == 302
    assert "Deal 1 was already saved." in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert totals(client, game_id) == [1210, 265]


def test_editing_a_deal_changed_meanwhile_is_refused(client: FlaskClient, app: Flask) -> None:
    game_id = new_game_form(client)
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    page = client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert version and version.group(1) == "1"
    # Another phone changes deal 1 first (version 1 -> 2): We melded 250, not 220.
    newer = {**deal_form("0", we={**CASE_A, "meld_points": 250}, they=CASE_B), "version": "1"}
    assert client.post(f"/games/{game_id}/deals/1/edit", data=newer).status_code == 302
    stale = {**deal_form("0", we={**CASE_A, "meld_points": 230}, they=CASE_B), "version": "1"}
    refused = client.post(f"/games/{game_id}/deals/1/edit", data=stale)
    assert refused.status_code == 409
    html = refused.get_data(as_text=True)
    assert "changed on another phone meanwhile" in html
    assert 'value="250"' in html  # the newer version is shown
    assert totals(client, game_id) == [1240, 265]


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
    assert seq
    client.post(f"/games/{game_id}/deals/2/delete", data={"seq": seq.group(1)})
    client.post(f"/games/{game_id}/deals/2/delete", data={"seq": seq.group(1)})
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "That deal was already deleted; nothing else was." in html
    assert totals(client, game_id) == [2 * 265, 2 * 265]


def test_error_pages_speak_the_players_language(client: FlaskClient) -> None:
    english = client.get("/no/such/page").get_data(as_text=True)
    russian = client.get("/no/such/page", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Not found" in english
    assert "Not found" not in russian and "requested URL" not in russian


def test_the_offline_copy_of_a_sheet_is_the_followers(client: FlaskClient) -> None:
    """The scorer's sheet shows the scorer link and is never stored; the copy the service
    worker keeps (asked for with X-Offline-Copy) is the follower's view, in the phone's
    language, with nothing only the scorer sees (issue 16)."""
    game_id = new_game_form(client)
    own = client.get(f"/games/{game_id}")
    assert own.headers["Cache-Control"] == "private, no-store"
    assert f"/games/{game_id}/join#" in own.get_data(as_text=True)

    client.set_cookie("lang", "sk")
    copy = client.get(f"/games/{game_id}", headers={"X-Offline-Copy": "follower"})
    page = copy.get_data(as_text=True)
    assert copy.status_code == 200
    assert "no-store" not in copy.headers.get("Cache-Control", "")
    assert "X-Offline-Copy" in copy.headers["Vary"]
    assert "/join" not in page and "secret-link" not in page
    assert f"/games/{game_id}/deals/" not in page  # no "Record deal", no "Undo"
    assert 'lang="sk"' in page and "following-note" in page
    assert "data-offline-copy" in page  # back online, app.js loads the scorer's own page
    # The phone is still the scorer: its own sheet is as before.
    own_page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "secret-link" in own_page and "data-offline-copy" not in own_page


def test_the_join_page_is_never_stored(client: FlaskClient) -> None:
    """The page a secret is pasted into, or shown again when refused, is kept by no cache."""
    game_id, _ = new_game(client)
    shown = client.get(f"/games/{game_id}/join")
    refused = client.post(f"/games/{game_id}/join", data={"token": "not-the-secret"})
    assert refused.status_code == 403 and "not-the-secret" in refused.get_data(as_text=True)
    for response in (shown, refused):
        assert response.headers["Cache-Control"] == "private, no-store"
