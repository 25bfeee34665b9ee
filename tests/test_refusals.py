"""One refusal table (issue 41): a refusal of the store has one status and one wording on
the pages and in the API, and the scorer check answers alike in both (404, then 403)."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.refusals import REFUSALS
from scorekeeper.store.errors import Why

from .helpers.api import assert_error, auth, new_game, post_deal, result
from .helpers.pages import CASE_A, CASE_B, deal_form, form_nonce
from .helpers.pages import new_game as new_game_form

NOT_SCORER = "Only the phone that keeps this game&#39;s score can change it"
NO_GAME = "There is no such game."


def test_every_refusal_has_one_answer() -> None:
    assert set(REFUSALS) == set(Why)
    # API.md: a request key sent again with another request is a 422.
    assert REFUSALS[Why.REUSED].status == 422


def test_a_phone_without_the_secret_gets_the_same_answer_as_a_client_without_the_token(
    client: FlaskClient, app: Flask
) -> None:
    game_id = new_game_form(client)
    stranger = app.test_client()
    figures = deal_form("0", we=CASE_A, they=CASE_B)
    for data in (figures, {**figures, "sides-0-meld_points": "lots"}):  # read or not
        page = stranger.post(f"/games/{game_id}/deals/new", data=data)
        assert page.status_code == 403
        assert NOT_SCORER in page.get_data(as_text=True)
    api = post_deal(stranger, game_id, "wrong", result(120, went_out=True), result(50))
    assert assert_error(api, 403)["error"].startswith(NOT_SCORER.replace("&#39;", "'"))


def test_no_such_game_is_a_404_in_the_same_words(client: FlaskClient) -> None:
    page = client.post("/games/nosuchgame/deals/new", data=deal_form("0", we=CASE_A))
    assert page.status_code == 404 and NO_GAME in page.get_data(as_text=True)
    api = post_deal(client, "nosuchgame", "any", {"results": []})
    assert assert_error(api, 404)["error"] == NO_GAME
    # A malformed key is a 400 only after the game's 404 and the token's 403.
    game_id, token = new_game(client)
    bad_key = {**auth("wrong"), "Idempotency-Key": "\u00e9"}
    assert client.delete(f"/api/games/{game_id}", headers=bad_key).status_code == 403
    bad_key = {**auth(token), "Idempotency-Key": "\u00e9"}
    assert client.delete(f"/api/games/{game_id}", headers=bad_key).status_code == 400


def test_a_reused_key_is_a_422_on_the_page_and_in_the_api(client: FlaskClient) -> None:
    game_id = new_game_form(client)
    nonce = form_nonce(client, game_id)
    data = {**deal_form("0", we=CASE_A, they=CASE_B), "nonce": nonce}
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302
    other = {**deal_form("0", we=CASE_A, they={**CASE_B, "hand_points": 90}), "nonce": nonce}
    assert client.post(f"/games/{game_id}/deals/new", data=other).status_code == 422

    game_id, token = new_game(client)
    key = {**auth(token), "Idempotency-Key": "once"}
    out = result(220, natural=1, mixed=1, red_threes=1, went_out=True, hand=10)
    first = {"results": [out, result(150, red_threes=2, hand=85)]}
    again = {"results": [out, result(150, red_threes=2, hand=90)]}
    assert client.post(f"/api/games/{game_id}/deals", json=first, headers=key).status_code == 201
    assert_error(client.post(f"/api/games/{game_id}/deals", json=again, headers=key), 422)
