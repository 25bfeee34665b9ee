"""Answers kept whole in front of the app (scorekeeper/answers.py): a repeated read of an
unchanged page is answered from the worker's memory, exactly as before, and never after
the page changed, whoever changed it."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.answers import KeptAnswers
from scorekeeper.store import db

from .conftest import app_for_tests
from .test_api import auth, new_game, totals
from .test_history import CASE_A, CASE_B, game, person_id, words
from .test_query_counts import counted

HTMX = {"HX-Request": "true", "HX-Target": "sheet-live"}


def kept(app: Flask) -> KeptAnswers:
    answers: KeptAnswers = app.extensions["kept_answers"]
    return answers


def same(first: TestResponse, second: TestResponse) -> None:
    assert second.status_code == first.status_code
    assert second.get_data() == first.get_data()
    assert sorted(second.headers.items()) == sorted(first.headers.items())


def pages(client: FlaskClient, app: Flask) -> list[tuple[str, dict[str, str]]]:
    game_id, _token = new_game(client)
    etag = client.get(f"/games/{game_id}", headers=HTMX).headers["ETag"]
    return [
        (f"/games/{game_id}", {}),
        (f"/games/{game_id}", HTMX),
        (f"/games/{game_id}", {**HTMX, "If-None-Match": etag}),
        (f"/api/games/{game_id}", {}),
        ("/history", {}),
        ("/history?q=ana", {"Accept-Language": "ru"}),
        ("/", {}),
        (f"/players/{person_id(app, 'Ana')}", {"Accept-Encoding": "gzip, br"}),
    ]


def test_a_repeated_read_gets_the_same_answer_without_the_app(
    app: Flask, client: FlaskClient
) -> None:
    for path, headers in pages(client, app):
        client.get(path, headers=headers)  # the first visit may start the session
        first = client.get(path, headers=headers)
        hits = kept(app).hits
        with counted(app) as statements:
            again = client.get(path, headers=headers)
        same(first, again)
        assert kept(app).hits == hits + 1, path
        # One read of one or two indexed rows: the page's probe; nothing else.
        assert len(statements) == 1, (path, statements)


def test_a_deal_recorded_by_another_worker_shows_at_the_next_look(
    app: Flask, client: FlaskClient, other_worker: Flask
) -> None:
    game_id, token = new_game(client)
    there = other_worker.test_client()
    for path in (f"/games/{game_id}", "/history", "/"):
        client.get(path)
        assert "1,210" not in words(client.get(path).get_data(as_text=True))
    client.get(f"/games/{game_id}", headers=HTMX)
    before = client.get(f"/games/{game_id}", headers=HTMX)
    assert totals(client.get(f"/api/games/{game_id}").get_json()) == [0, 0]

    posted = there.post(
        f"/api/games/{game_id}/deals", json={"results": [CASE_A, CASE_B]}, headers=auth(token)
    )
    assert posted.status_code == 201
    assert totals(client.get(f"/api/games/{game_id}").get_json()) == [1210, 265]
    for path in (f"/games/{game_id}", "/history", "/"):
        assert "1,210" in words(client.get(path).get_data(as_text=True)), path
    # A follower's poll with the old ETag gets the new sheet, not "unchanged".
    poll = client.get(
        f"/games/{game_id}", headers={**HTMX, "If-None-Match": before.headers["ETag"]}
    )
    assert poll.status_code == 200 and "1,210" in words(poll.get_data(as_text=True))


def test_a_rename_by_another_worker_shows_everywhere(
    app: Flask, client: FlaskClient, other_worker: Flask
) -> None:
    game(client, [("Us", ["Ana", "Boris"]), ("Them", ["Vera", "Goran"])], [[CASE_A, CASE_B]])
    assert client.post("/players", data={"name": "Zora"}).status_code in (200, 303)
    ana, zora = person_id(app, "Ana"), person_id(app, "Zora")
    for path in ("/history", f"/players/{ana}"):
        client.get(path)
        client.get(path)
    there = other_worker.test_client()
    assert there.post(f"/players/{ana}/rename", data={"name": "Anica"}).status_code == 303
    history = client.get("/history").get_data(as_text=True)
    assert "Anica" in history and "Ana<" not in history
    assert "Anica" in client.get(f"/players/{ana}").get_data(as_text=True)
    # Zora sat in no game: only the roster's own change tells the history's player filter.
    assert there.post(f"/players/{zora}/rename", data={"name": "Zorica"}).status_code == 303
    history = client.get("/history").get_data(as_text=True)
    assert "Zorica" in history and "Zora<" not in history


def test_answers_that_start_a_session_are_never_given_again(
    app: Flask, client: FlaskClient
) -> None:
    """Every page carries the visitor's CSRF token: two phones never see one token."""
    game_id, _token = new_game(client)
    phones = [app.test_client() for _ in range(2)]
    tokens = set()
    for phone in phones:
        html = phone.get(f"/games/{game_id}").get_data(as_text=True)
        found = re.search(r'"X-CSRFToken": "([^"]+)"', html)
        assert found is not None
        tokens.add(found.group(1))
    assert len(tokens) == 2
    # Without a cookie jar, each visit starts a session: none is kept, each gets its own.
    misses = kept(app).misses
    bare = [app.test_client(use_cookies=False).get(f"/games/{game_id}") for _ in range(2)]
    assert all("Set-Cookie" in answer.headers for answer in bare)
    assert bare[0].headers["Set-Cookie"] != bare[1].headers["Set-Cookie"]
    assert kept(app).misses == misses + 2


def test_a_flashed_message_is_shown_once(app: Flask, client: FlaskClient) -> None:
    game(client, [("Us", ["Ana", "Boris"]), ("Them", ["Vera", "Goran"])], [])
    ana = person_id(app, "Ana")
    client.get(f"/players/{ana}")
    client.get(f"/players/{ana}")
    assert client.post(f"/players/{ana}/rename", data={"name": "Anka"}).status_code == 303
    assert "Renamed" in client.get(f"/players/{ana}").get_data(as_text=True)
    assert "Renamed" not in client.get(f"/players/{ana}").get_data(as_text=True)
    assert "Renamed" not in client.get(f"/players/{ana}").get_data(as_text=True)


def test_each_language_and_encoding_has_its_own_answer(app: Flask, client: FlaskClient) -> None:
    client.get("/history")
    english = client.get("/history").get_data(as_text=True)
    russian = client.get("/history", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    again = client.get("/history").get_data(as_text=True)
    assert "All games" in english and "Все игры" in russian and again == english  # noqa: RUF001
    plain = client.get("/history")
    brotli = client.get("/history", headers={"Accept-Encoding": "br"})
    assert "Content-Encoding" not in plain.headers
    assert brotli.headers["Content-Encoding"] == "br"


def test_only_reads_of_existing_pages_are_kept(app: Flask, client: FlaskClient) -> None:
    for _ in range(2):
        assert client.get("/games/nosuchgame").status_code == 404
        assert client.get("/api/games/nosuchgame").status_code == 404
        assert client.get("/players/999999").status_code == 404
    answers = kept(app)
    assert answers.hits == 0 and not answers._kept
    # Pages without a probe go to the app every time.
    hits = answers.hits
    client.get("/rules")
    client.get("/rules")
    assert answers.hits == hits


def test_what_is_kept_is_bounded(app: Flask, client: FlaskClient) -> None:
    answers = kept(app)
    answers.size = 3
    for number in range(6):
        client.get(f"/history?page={number + 1}")
    assert len(answers._kept) <= 3
    assert answers._bytes == sum(len(answer.body) for answer in answers._kept.values())


def test_the_app_can_do_without(app: Flask) -> None:
    plain = app_for_tests(app.config["SQLALCHEMY_DATABASE_URI"], KEPT_ANSWERS=False)
    assert "kept_answers" not in plain.extensions
    assert plain.test_client().get("/history").status_code == 200
    with plain.app_context():
        db.engine.dispose()


def test_a_players_page_follows_every_change_of_their_games(
    app: Flask, client: FlaskClient, other_worker: Flask
) -> None:
    """A player's page is kept while their ``changed_at`` stands; every way a game of
    theirs can change, through another worker, moves it."""
    game_id, token = new_game(client)
    ana = person_id(app, "Ana")
    there = other_worker.test_client()

    def page() -> str:
        return words(client.get(f"/players/{ana}").get_data(as_text=True))

    page()
    assert "1 game" in page()
    steps = [
        lambda: there.post(
            f"/api/games/{game_id}/deals", json={"results": [CASE_A, CASE_B]}, headers=auth(token)
        ),
        lambda: there.put(
            f"/api/games/{game_id}/deals/1", json={"results": [CASE_B, CASE_A]}, headers=auth(token)
        ),
        lambda: there.delete(f"/api/games/{game_id}/deals/1", headers=auth(token)),
        lambda: new_game(there),
    ]
    seen = [page()]
    for step in steps:
        assert step() is not None
        now = page()
        assert now != seen[-1], step
        seen.append(now)
    assert "2 games" in seen[-1]
