"""POST /api/seat-draw (API.md "Seat draw"): every case the section names."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

Json = dict[str, Any]
NAMES = ["Ana", "Boris", "Vera", "Goran", "Lidija", "Stefan"]


def draw(
    client: FlaskClient, variant: str | None, *cards: str, names: list[str] | None = None
) -> TestResponse:
    body: Json = {
        "draws": [{"player": (names or NAMES)[i], "card": c} for i, c in enumerate(cards)]
    }
    if variant is not None:
        body["variant"] = variant
    return client.post("/api/seat-draw", json=body)


def refused(response: TestResponse, status: int) -> Json:
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert isinstance(body["error"], str) and body["error"].strip()
    assert isinstance(body["fields"], dict)
    return body


def test_classic_sides_seats_and_first_dealer(client: FlaskClient) -> None:
    # Vera AC, Goran KD, Ana QS, Boris 7H: Vera and Goran against Ana and Boris.
    response = draw(client, "classic", "QS", "7H", "AC", "KD")
    assert response.status_code == 200
    assert response.get_json() == {
        "sides": [{"players": ["Vera", "Goran"]}, {"players": ["Ana", "Boris"]}],
        "seats": ["Vera", "Ana", "Goran", "Boris"],  # highest, third, second, fourth
        "first_dealer": "Boris",  # to the right of the highest: the last seat
    }


def test_variant_defaults_to_classic_and_ties_of_rank_go_by_suit(client: FlaskClient) -> None:
    body = draw(client, None, "QC", "QH", "QD", "QS").get_json()
    assert body["sides"] == [{"players": ["Goran", "Boris"]}, {"players": ["Vera", "Ana"]}]


def test_classic_6_the_three_highest_against_the_three_lowest(client: FlaskClient) -> None:
    body = draw(client, "classic-6", "9S", "10S", "JS", "QS", "KS", "AS").get_json()
    assert body["sides"] == [
        {"players": ["Stefan", "Lidija", "Goran"]},
        {"players": ["Vera", "Boris", "Ana"]},
    ]
    # 1st, 4th, 2nd, 5th, 3rd, 6th.
    assert body["seats"] == ["Stefan", "Vera", "Lidija", "Boris", "Goran", "Ana"]
    assert body["first_dealer"] == "Ana"


def test_classic_6x3_three_sides_of_two(client: FlaskClient) -> None:
    body = draw(client, "classic-6x3", "AS", "KS", "QS", "JS", "10S", "9S").get_json()
    assert [side["players"] for side in body["sides"]] == [
        ["Ana", "Boris"],
        ["Vera", "Goran"],
        ["Lidija", "Stefan"],
    ]
    # 1st, 3rd, 5th, 2nd, 4th, 6th.
    assert body["seats"] == ["Ana", "Vera", "Lidija", "Boris", "Goran", "Stefan"]
    assert body["first_dealer"] == "Stefan"


@pytest.mark.parametrize(
    ("variant", "cards", "order"),
    [
        ("classic-2", ["2C", "AC"], ["Boris", "Ana"]),
        ("classic-3", ["5H", "5S", "5D"], ["Boris", "Ana", "Vera"]),
        ("railroad", ["3C", "KH", "7D", "AS"], ["Goran", "Boris", "Vera", "Ana"]),
    ],
)
def test_players_alone_one_side_each_highest_first(
    client: FlaskClient, variant: str, cards: list[str], order: list[str]
) -> None:
    body = draw(client, variant, *cards).get_json()
    assert body["sides"] == [{"players": [name]} for name in order]
    assert body["seats"] == order
    assert body["first_dealer"] == order[-1]


def test_a_joker_draws_again(client: FlaskClient) -> None:
    body = refused(draw(client, "classic", "QS", "JK", "AC", "KD"), 422)
    assert body["redraw"] == ["Boris"]
    assert set(body["fields"]) == {"draws.1.card"}


def test_every_holder_of_an_equal_card_draws_again(client: FlaskClient) -> None:
    body = refused(draw(client, "classic", "QS", "7H", "qs", "JK"), 422)
    assert body["redraw"] == ["Ana", "Vera", "Goran"]
    assert set(body["fields"]) == {"draws.0.card", "draws.2.card", "draws.3.card"}
    assert "Ana" in body["error"]


@pytest.mark.parametrize("card", ["ZZ", "Q", "", "11H", "QSS"])
def test_an_unreadable_card_is_named(client: FlaskClient, card: str) -> None:
    body = refused(draw(client, "classic", "QS", card, "AC", "KD"), 422)
    assert list(body["fields"]) == ["draws.1.card"]
    assert "redraw" not in body


def test_a_card_that_is_not_a_string_is_named(client: FlaskClient) -> None:
    response = client.post(
        "/api/seat-draw",
        json={"draws": [{"player": "Ana", "card": 12}, {"player": "Boris", "card": "AS"}]},
    )
    assert list(refused(response, 422)["fields"]) == ["draws.0.card"]


def test_unknown_variant(client: FlaskClient) -> None:
    assert list(refused(draw(client, "pinochle", "AS", "KS", "QS", "JS"), 422)["fields"]) == [
        "variant"
    ]


@pytest.mark.parametrize(
    ("variant", "count"),
    [
        ("classic", 3),
        ("classic", 5),
        ("classic-6", 4),
        ("classic-2", 3),
        ("railroad", 1),
        ("railroad", 7),
    ],
)
def test_wrong_number_of_players_for_the_variant(
    client: FlaskClient, variant: str, count: int
) -> None:
    cards = ["AS", "KS", "QS", "JS", "10S", "9S", "8S"][:count]
    body = refused(draw(client, variant, *cards, names=[*NAMES, "Mila"]), 422)
    assert list(body["fields"]) == ["draws"]


def test_a_player_named_twice(client: FlaskClient) -> None:
    body = refused(
        draw(client, "classic", "AS", "KS", "QS", "JS", names=["Ana", "Boris", "Ana", "Vera"]), 422
    )
    assert list(body["fields"]) == ["draws.2.player"]


def test_a_player_without_a_name(client: FlaskClient) -> None:
    body = refused(
        draw(client, "classic", "AS", "KS", "QS", "JS", names=["Ana", " ", "Vera", "Goran"]), 422
    )
    assert list(body["fields"]) == ["draws.1.player"]


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"draws": "Ana QS"}, ["draws"]),
        ({"draws": []}, ["draws"]),
        ({"draws": ["QS"]}, ["draws.0"]),
        ({"draws": [{"player": "Ana", "card": "QS", "seat": 1}]}, ["draws.0.seat"]),
        # Every field in the way is named at once: the empty list and the unknown field.
        ({"variant": "classic", "draws": [], "extra": 1}, ["draws", "extra"]),
    ],
)
def test_shapes_that_are_not_a_draw(client: FlaskClient, body: Json, fields: list[str]) -> None:
    response = client.post("/api/seat-draw", json=body)
    assert list(refused(response, 422)["fields"]) == fields


def test_malformed_json_is_400(client: FlaskClient) -> None:
    response = client.post("/api/seat-draw", data='{"draws": [', content_type="application/json")
    refused(response, 400)


def test_not_json_is_415(client: FlaskClient) -> None:
    response = client.post("/api/seat-draw", data="variant=classic", content_type="text/plain")
    refused(response, 415)


def test_answers_in_the_requested_language(client: FlaskClient) -> None:
    response = client.post(
        "/api/seat-draw",
        json={
            "draws": [
                {"player": n, "card": c}
                for n, c in zip(NAMES[:4], ["JK", "AS", "KS", "QS"], strict=True)
            ]
        },
        headers={"Accept-Language": "mk"},
    )
    body = refused(response, 422)
    assert body["redraw"] == ["Ana"]
    assert "Ana" in body["error"] and "Draw again" not in body["error"]


def test_the_draw_is_in_the_openapi_document(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    assert "post" in spec["paths"]["/api/seat-draw"]
