"""Trust in renaming a player: only the scorer of every game the player sat in renames
them, and only that scorer undoes a rename (tests/test_trust.py holds the rest of trust)."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.store import db
from scorekeeper.store.models import Person

from .helpers.api import auth, get_game, new_game


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert found is not None, page
    return found.group(1)


def test_only_the_scorer_of_their_games_renames_a_player(app: Flask, client: FlaskClient) -> None:
    """A stranger's phone (its own session and CSRF token, no game's secret) and the scorer
    of another game cannot rename Ana; the scorer of the game she sat in can."""
    game_id, token = new_game(client)  # Ana, Boris, Vera, Goran (through the API)
    others = {
        "variant": "classic",
        "sides": [
            {"name": "A", "players": ["Ira", "Oleg"]},
            {"name": "B", "players": ["Zoe", "Yuri"]},
        ],
    }
    created = client.post("/api/games", json=others).get_json()
    other_game, other_token = created["id"], created["token"]
    with app.app_context():
        ana = db.session.scalar(select(Person.id).where(Person.name == "Ana"))
    app.config["WTF_CSRF_ENABLED"] = True
    stranger = app.test_client()
    profile = stranger.get("/players").get_data(as_text=True)  # a page with a CSRF token
    attempt = {"csrf_token": csrf_of(profile), "name": "Mallory"}
    refused = stranger.post(f"/players/{ana}/rename", data=attempt)
    assert refused.status_code == 403
    assert get_game(client, game_id)["sides"][0]["players"][0] == "Ana"
    page = stranger.get(f"/players/{ana}").get_data(as_text=True)
    assert "Only a phone that keeps score of every game of theirs can rename them." in page
    assert "Only a phone that keeps score of every game Ana played in" in refused.get_data(
        as_text=True
    )

    other = app.test_client()
    joined = other.post(
        f"/games/{other_game}/join",
        data={
            "csrf_token": csrf_of(other.get(f"/games/{other_game}/join").text),
            "token": other_token,
        },
    )
    assert joined.status_code == 302
    assert other.post(f"/players/{ana}/rename", data=attempt).status_code == 400  # its token
    attempt["csrf_token"] = csrf_of(other.get("/players").text)
    assert other.post(f"/players/{ana}/rename", data=attempt).status_code == 403
    assert get_game(client, game_id)["sides"][0]["players"][0] == "Ana"

    scorer = app.test_client()
    join = {"csrf_token": csrf_of(scorer.get(f"/games/{game_id}/join").text), "token": token}
    assert scorer.post(f"/games/{game_id}/join", data=join).status_code == 302
    page = scorer.get(f"/players/{ana}").get_data(as_text=True)
    assert "Save the name" in page
    renamed = scorer.post(
        f"/players/{ana}/rename", data={"csrf_token": csrf_of(page), "name": "Anka"}
    )
    assert renamed.status_code == 303
    assert get_game(client, game_id)["sides"][0]["players"][0] == "Anka"


def scorer_client(app: Flask, game_id: str, token: str) -> FlaskClient:
    """A phone given the game's scorer link (its secret through the join page)."""
    phone = app.test_client()
    join = {"csrf_token": csrf_of(phone.get(f"/games/{game_id}/join").text), "token": token}
    assert phone.post(f"/games/{game_id}/join", data=join).status_code == 302
    return phone


def rename_on_page(phone: FlaskClient, person: int, name: str) -> Any:
    page = phone.get("/players").text  # a page with a CSRF token, whoever may rename
    return phone.post(f"/players/{person}/rename", data={"csrf_token": csrf_of(page), "name": name})


def test_a_game_made_with_a_players_name_gives_no_right_to_rename_them(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 31's attack: a game created through the API with the victim's player in
    another case ("zora" for Zora), joined with its own token, made its phone a scorer of a
    game Zora sat in, and so allowed to rename her on every sheet. A phone may change only
    what the sheets it scores show: it is refused, naming why, and nothing changes; her
    own scorer, who keeps one of her games but not the attacker's, is refused too."""
    app.config["WTF_CSRF_ENABLED"] = True
    victim = {
        "variant": "classic",
        "sides": [
            {"name": "We", "players": ["Zora", "Boris"]},
            {"name": "They", "players": ["Vera", "Goran"]},
        ],
    }
    game = client.post("/api/games", json=victim).get_json()
    attack = {
        "variant": "classic",
        "sides": [
            {"name": "X", "players": ["zora", "Mallory"]},
            {"name": "Y", "players": ["Eve", "Trudy"]},
        ],
    }
    made = client.post("/api/games", json=attack)
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["sides"][0]["players"][0] == "Zora"  # the same person
    with app.app_context():
        zora = db.session.scalar(select(Person.id).where(Person.name == "Zora"))
    assert zora is not None
    attacker = scorer_client(app, made.get_json()["id"], made.get_json()["token"])
    page = attacker.get(f"/players/{zora}").text
    assert "Save the name" not in page and "every game of theirs" in page
    refused = rename_on_page(attacker, zora, "Hacked")
    assert refused.status_code == 403
    assert "Only a phone that keeps score of every game Zora played in" in refused.text
    assert "nothing was changed" in refused.text
    owner = scorer_client(app, game["id"], game["token"])
    assert rename_on_page(owner, zora, "Zorka").status_code == 403
    for game_id in (game["id"], made.get_json()["id"]):
        assert get_game(client, game_id)["sides"][0]["players"][0] == "Zora"
        log = client.get(f"/api/games/{game_id}/changes").get_json()["changes"]
        assert [change["kind"] for change in log] == ["game-created"]


def test_a_rename_is_undone_only_by_the_scorer_of_every_game_of_theirs(
    app: Flask, client: FlaskClient
) -> None:
    """Zora's scorer renames her (it keeps her one game); once she sits in a game another
    phone keeps, undoing that rename (through the API or the change log's page) would
    change that phone's sheet: refused, and nothing changes."""
    body = {
        "variant": "classic",
        "sides": [
            {"name": "We", "players": ["Zora", "Boris"]},
            {"name": "They", "players": ["Vera", "Goran"]},
        ],
    }
    game = client.post("/api/games", json=body).get_json()
    with app.app_context():
        zora = db.session.scalar(select(Person.id).where(Person.name == "Zora"))
    assert zora is not None
    owner = scorer_client(app, game["id"], game["token"])
    assert rename_on_page(owner, zora, "Zorka").status_code == 303
    rename = client.get(f"/api/games/{game['id']}/changes").get_json()["changes"][0]
    assert rename["kind"] == "player-renamed"
    body["sides"][0]["players"][0] = "zorka"
    elsewhere = client.post("/api/games", json=body).get_json()
    undo = f"/api/games/{game['id']}/changes/{rename['id']}/undo"
    refused = client.post(undo, headers=auth(game["token"]))
    assert refused.status_code == 403, refused.get_json()
    assert "every game Zorka played in" in refused.get_json()["error"]
    page = owner.post(f"/games/{game['id']}/changes/{rename['id']}/undo", data={})
    assert page.status_code == 403 and "every game Zorka played in" in page.text
    for game_id in (game["id"], elsewhere["id"]):
        assert get_game(client, game_id)["sides"][0]["players"][0] == "Zorka"
