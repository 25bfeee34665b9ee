"""A deal's ETag names the deal (its place, kept when later deals are renumbered) and its
version, so a write sent with If-Match lands on that deal or on none (API.md "Deals")."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers.api import (
    CASE_A,
    CASE_B,
    CASE_C,
    CASE_E,
    assert_error,
    auth,
    get_game,
    three_deals,
    totals,
)

Json = dict[str, Any]


def etag(client: FlaskClient, game_id: str, number: int) -> str:
    response = client.get(f"/api/games/{game_id}/deals/{number}")
    assert response.status_code == 200
    tag = response.headers["ETag"]
    assert isinstance(tag, str)
    return tag


def test_every_deal_has_its_own_etag_and_keeps_it_when_renumbered(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    tags = [etag(client, game_id, number) for number in (1, 2, 3)]
    assert len(set(tags)) == 3  # unedited, all at version 1: still three deals
    assert client.delete(f"/api/games/{game_id}/deals/1", headers=auth(token)).status_code == 200
    assert [etag(client, game_id, number) for number in (1, 2)] == tags[1:]


def test_a_delete_sent_twice_deletes_one_deal(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    third = get_game(client, game_id)["deals"][2]
    headers = {**auth(token), "If-Match": etag(client, game_id, 2)}
    first = client.delete(f"/api/games/{game_id}/deals/2", headers=headers)
    assert first.status_code == 200
    again = client.delete(f"/api/games/{game_id}/deals/2", headers=headers)
    body = assert_error(again, 409)
    # Deal 3 survives, now deal 2, and the answer shows it.
    deals = get_game(client, game_id)["deals"]
    assert len(deals) == 2
    assert deals[1]["results"] == body["deal"]["results"] != []
    assert [r["meld_points"] for r in deals[1]["results"]] == [
        r["meld_points"] for r in third["results"]
    ]


def test_an_edit_of_a_deal_deleted_since_changes_no_other(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    tag = etag(client, game_id, 2)
    assert client.delete(f"/api/games/{game_id}/deals/2", headers=auth(token)).status_code == 200
    before = get_game(client, game_id)
    stale = client.put(
        f"/api/games/{game_id}/deals/2",
        json={"results": [CASE_E, CASE_C]},
        headers={**auth(token), "If-Match": tag},
    )
    body = assert_error(stale, 409)
    assert body["deal"] == before["deals"][1]  # the deal that moved into number 2
    assert get_game(client, game_id) == before


def test_a_change_meant_for_a_deal_past_the_end_is_refused(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    headers = {**auth(token), "If-Match": etag(client, game_id, 3)}
    assert client.delete(f"/api/games/{game_id}/deals/3", headers=headers).status_code == 200
    body = assert_error(client.delete(f"/api/games/{game_id}/deals/3", headers=headers), 409)
    assert "deal" not in body
    assert len(get_game(client, game_id)["deals"]) == 2


@pytest.mark.parametrize("header", ['""', 'W/"2.1"', "2.1", '"2"', '"x.1"', '"2.1", "3.1"', ""])
def test_a_malformed_if_match_is_a_400_and_changes_nothing(
    client: FlaskClient, header: str
) -> None:
    game_id, token = three_deals(client)
    before = get_game(client, game_id)
    headers = {**auth(token), "If-Match": header}
    assert_error(client.delete(f"/api/games/{game_id}/deals/2", headers=headers), 400, "If-Match")
    put = client.put(
        f"/api/games/{game_id}/deals/2", json={"results": [CASE_B, CASE_A]}, headers=headers
    )
    assert_error(put, 400, "If-Match")
    assert get_game(client, game_id) == before


def test_a_star_or_no_if_match_applies(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    star = client.put(
        f"/api/games/{game_id}/deals/1",
        json={"results": [CASE_B, CASE_A]},
        headers={**auth(token), "If-Match": "*"},
    )
    assert star.status_code == 200, star.get_json()
    plain = client.delete(f"/api/games/{game_id}/deals/1", headers=auth(token))
    assert plain.status_code == 200
    assert totals(plain.get_json()) == [355 + 265, -320 + 1210]


def test_the_etag_read_lets_exactly_that_version_through(client: FlaskClient) -> None:
    game_id, token = three_deals(client)
    tag = etag(client, game_id, 2)
    url = f"/api/games/{game_id}/deals/2"
    edit = {"results": [CASE_B, CASE_A]}
    ok = client.put(url, json=edit, headers={**auth(token), "If-Match": tag})
    assert ok.status_code == 200
    assert_error(client.put(url, json=edit, headers={**auth(token), "If-Match": tag}), 409)
    fresh = etag(client, game_id, 2)
    assert fresh != tag and fresh.split(".")[0] == tag.split(".")[0]  # same deal, newer
