"""The change log through the pages: every change listed with who made it, Undo for any
of them, the flash message's Undo, and a game deleted and restored (CSRF off, as in the
other page tests; the browser test runs with it on)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import db
from scorekeeper.store.models import Change

from .helpers.pages import CASE_A, CASE_B, deal_form, new_game, totals

PHONE = {"User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile"}


def undo_buttons(html: str) -> list[int]:
    """The changes an Undo (or Redo) button is offered for: in the log's list, newest
    first, or else in the page's flash message."""
    if '<ol class="changes">' in html:
        html = html.split('<ol class="changes">', 1)[1]
    return [int(n) for n in re.findall(r'/changes/(\d+)/undo"', html)]


def log_page(client: FlaskClient, game_id: str) -> str:
    response = client.get(f"/games/{game_id}/changes")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def two_deals(client: FlaskClient) -> str:
    game_id = new_game(client)
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    client.post(f"/games/{game_id}/deals/new", data=deal_form(we=CASE_B, they=CASE_B))
    return game_id


def test_the_log_says_what_changed_from_which_phone(client: FlaskClient) -> None:
    client.environ_base.update({"HTTP_USER_AGENT": PHONE["User-Agent"]})
    game_id = two_deals(client)
    client.post(f"/games/{game_id}/device", data={"device": "Ana's phone"})
    they = {**CASE_B, "hand_points": 20}
    client.post(f"/games/{game_id}/deals/2/edit", data=deal_form(we=CASE_B, they=they))
    html = log_page(client, game_id)
    # Newest first: the edit, with the figure that changed and the phone's own name.
    titles = re.findall(r'class="change-title"><span class="change-id">#\d+</span> ([^<]+)<', html)
    assert titles == ["Deal 2 edited", "Deal 2 recorded", "Deal 1 recorded", "Game created"]
    assert "They, Left in hand 85 → 20" in html
    assert "Ana&#39;s phone" in html
    # Before the phone named itself, its browser and system named it.
    assert "Chrome on Android" in html
    # Scores of a recorded deal: We 1,210 and They 265 (RULES.md cases A and B).
    assert "We +1,210 · They +265" in html
    assert len(undo_buttons(html)) == 3  # the game's creation is not undone


def test_undo_an_edit_from_the_log_then_redo_it(client: FlaskClient) -> None:
    game_id = two_deals(client)
    assert totals(client, game_id) == [1210 + 265, 265 + 265]
    they = {**CASE_B, "hand_points": 20}  # 65 more for They
    client.post(f"/games/{game_id}/deals/2/edit", data=deal_form(we=CASE_B, they=they))
    assert totals(client, game_id) == [1475, 595]
    edit = undo_buttons(log_page(client, game_id))[0]
    response = client.post(f"/games/{game_id}/changes/{edit}/undo", data={"next": "changes"})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/games/{game_id}/changes")
    html = log_page(client, game_id)
    assert "Undone: deal 2 edited." in html
    assert totals(client, game_id) == [1475, 530]
    # The undo is itself a change: Redo makes the edit again.
    assert 'class="change change-undone"' in html
    redo = undo_buttons(html)[0]
    client.post(f"/games/{game_id}/changes/{redo}/undo", data={"next": "changes"})
    html = log_page(client, game_id)
    assert "Redone: deal 2 edited." in html
    assert f"Redo of change {edit}: deal 2 edited" in html
    assert totals(client, game_id) == [1475, 595]


def test_the_flash_offers_undo_for_any_change(client: FlaskClient) -> None:
    game_id = two_deals(client)
    client.post(f"/games/{game_id}/deals/1/delete")
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Deal 1 deleted." in sheet
    (offered,) = undo_buttons(sheet)
    client.post(f"/games/{game_id}/changes/{offered}/undo")
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Undone: deal 1 deleted." in sheet
    assert len(undo_buttons(sheet)) == 1  # the undo, itself undoable
    assert totals(client, game_id) == [1210 + 265, 265 + 265]
    # Offered once: the next view of the sheet has no Undo in a message.
    assert undo_buttons(client.get(f"/games/{game_id}").get_data(as_text=True)) == []


def test_an_undo_in_the_way_is_refused_with_the_change_named(
    client: FlaskClient, app: Flask
) -> None:
    game_id = two_deals(client)
    client.post(f"/games/{game_id}/deals/2/edit", data=deal_form(we=CASE_B, they=CASE_A))
    client.post(f"/games/{game_id}/deals/2/delete")
    html = log_page(client, game_id)
    deletion, edit = undo_buttons(html)[:2]
    before = totals(client, game_id)
    response = client.post(f"/games/{game_id}/changes/{edit}/undo", data={"next": "changes"})
    assert response.status_code == 302
    html = log_page(client, game_id)
    assert f"change {deletion} (deal 2 deleted)" in html
    assert totals(client, game_id) == before
    with app.app_context():
        assert db.session.query(Change).filter_by(game_id=game_id, kind="undo").count() == 0


def test_a_double_tap_on_undo_undoes_once(client: FlaskClient) -> None:
    game_id = two_deals(client)
    recorded = undo_buttons(log_page(client, game_id))[0]
    data = {"nonce": "tap-1", "next": "changes"}
    client.post(f"/games/{game_id}/changes/{recorded}/undo", data=data)
    client.post(f"/games/{game_id}/changes/{recorded}/undo", data=data)
    assert totals(client, game_id) == [1210, 265]
    assert log_page(client, game_id).count("Undo of change") == 1


def test_a_follower_reads_the_log_but_cannot_undo(client: FlaskClient, app: Flask) -> None:
    game_id = two_deals(client)
    follower = app.test_client()
    html = log_page(follower, game_id)
    assert "Deal 2 recorded" in html and undo_buttons(html) == []
    change = undo_buttons(log_page(client, game_id))[0]
    assert follower.post(f"/games/{game_id}/changes/{change}/undo").status_code == 403
    assert follower.post(f"/games/{game_id}/delete").status_code == 403
    assert totals(client, game_id) == [1475, 530]


def test_delete_and_restore_a_game(client: FlaskClient) -> None:
    game_id = two_deals(client)
    kept = new_game(client)
    ask = client.get(f"/games/{game_id}/delete")
    assert "Delete this game?" in ask.get_data(as_text=True)
    assert client.get("/").get_data(as_text=True).count(game_id) >= 1  # asking deletes nothing
    response = client.post(f"/games/{game_id}/delete")
    assert response.headers["Location"] == "/"
    home = client.get("/").get_data(as_text=True)
    assert "Game deleted." in home
    assert f'href="/games/{game_id}"' not in home and f'href="/games/{kept}"' in home
    assert undo_buttons(home)  # the flash's Undo restores it
    assert (
        f"/games/{game_id}"
        not in client.get("/history").get_data(as_text=True).split("Deleted games")[0]
    )
    assert client.get(f"/games/{game_id}").status_code == 410
    assert client.get(f"/games/{game_id}/deals/new").status_code == 410
    # The history lists it under "Deleted games", with Restore, for this phone.
    history = client.get("/history").get_data(as_text=True)
    assert "Deleted games" in history and f"/games/{game_id}/restore" in history
    client.post(f"/games/{game_id}/restore")
    assert totals(client, game_id) == [1475, 530]
    assert f'href="/games/{game_id}"' in client.get("/").get_data(as_text=True)
    assert "Deleted games" not in client.get("/history").get_data(as_text=True)


def ana_on_the_roster(client: FlaskClient) -> str:
    html = client.get("/players").get_data(as_text=True)
    found = re.search(r'game-sides">Ana</span>\s*<span class="game-date">([^<]+)<', html)
    assert found, html
    return found.group(1)


def test_a_deleted_game_leaves_the_statistics(client: FlaskClient) -> None:
    # A game played to the end (the roster counts those): We out twice, 2420 of 2000.
    game_id = new_game(client, target=2000)
    for _deal in range(2):
        client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    assert ana_on_the_roster(client) == "1 game · 1 won"
    client.post(f"/games/{game_id}/delete")
    assert ana_on_the_roster(client) == "0 games · 0 won"
    client.post(f"/games/{game_id}/restore")
    assert ana_on_the_roster(client) == "1 game · 1 won"


def test_a_rename_is_in_the_log_of_each_game_and_undone_from_it(client: FlaskClient) -> None:
    game_id = two_deals(client)
    other = new_game(client)
    players = client.get("/players").get_data(as_text=True)
    found = re.search(r'href="/players/(\d+)">\s*<span class="game-sides">Ana<', players)
    assert found
    response = client.post(f"/players/{found.group(1)}/rename", data={"name": "Anna"})
    assert response.status_code == 303
    for game in (game_id, other):
        html = log_page(client, game)
        assert "A player renamed" in html and "Ana → Anna" in html
    rename = undo_buttons(log_page(client, game_id))[0]
    client.post(f"/games/{game_id}/changes/{rename}/undo", data={"next": "changes"})
    html = log_page(client, game_id)
    assert "Undo of change" in html and "Anna → Ana" in html
    assert "Ana" in client.get(f"/games/{other}").get_data(as_text=True)
    assert "Anna" not in client.get(f"/games/{other}").get_data(as_text=True)
    # The other game's log says the name went back too.
    assert "Anna → Ana" in log_page(client, other)


def test_a_phone_that_joins_names_itself_for_the_log(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client)
    code = client.get(f"/games/{game_id}/scorer-code").get_data(as_text=True)
    token = re.search(r"/join#([\w-]+)", code)
    assert token
    other = app.test_client()
    join = other.get(f"/games/{game_id}/join").get_data(as_text=True)
    assert "This phone's name in the change log" in join
    other.post(f"/games/{game_id}/join", data={"token": token.group(1), "device": "Vera's"})
    other.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    html = log_page(other, game_id)
    assert re.search(r"Deal 1 recorded.*?Vera&#39;s ·", html, re.S)


def test_a_resent_edit_form_edits_once(client: FlaskClient) -> None:
    game_id = two_deals(client)
    form = client.get(f"/games/{game_id}/deals/2/edit").get_data(as_text=True)
    nonce = re.search(r'name="nonce" type="hidden" value="([^"]+)"', form)
    version = re.search(r'name="version" type="hidden" value="([^"]+)"', form)
    assert nonce and version
    data = deal_form(we=CASE_B, they={**CASE_B, "hand_points": 20})
    data.update(nonce=nonce.group(1), version=version.group(1))
    first = client.post(f"/games/{game_id}/deals/2/edit", data=data)
    again = client.post(f"/games/{game_id}/deals/2/edit", data=data)  # the answer was lost
    assert first.status_code == again.status_code == 302
    assert log_page(client, game_id).count("Deal 2 edited") == 1
    assert totals(client, game_id) == [1475, 595]


def test_the_phone_that_starts_a_game_may_name_itself(client: FlaskClient) -> None:
    """The game's first line names the phone as the new-game form named it (it said its
    browser and system, while the form below the log already showed the name)."""
    game_id = new_game(client, device="Ana's phone")
    created = '<p class="change-meta">Ana&#39;s phone · '
    assert created in log_page(client, game_id)
    # Remembered for the next game.
    assert created in log_page(client, new_game(client))
