"""The API's bodies are checked by the same models that write /api/openapi.json (issue 28):
the document states the limits the server holds to, and a refused body names every field
that is in the way, each with its path."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.api.schemas import FEWEST_SIDES, MOST_SIDES, NAME_PATTERN
from scorekeeper.rules import VARIANTS
from scorekeeper.rules.cards import CARD_PATTERN, DRAWN_CARD_PATTERN
from scorekeeper.rules.limits import MAX_CANASTAS, MAX_FIGURE, MAX_PAGE
from scorekeeper.store.errors import MAX_NAME

from .helpers.api import CASE_A, CASE_B, assert_error, auth, get_game, new_game
from .helpers.evenings import evening_body

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone


def _document(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = response.get_json()
    return document


def _schema(document: dict[str, Any], ref: str) -> dict[str, Any]:
    found: dict[str, Any] = document["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    return found


def test_the_document_states_the_limits_a_deal_is_held_to(client: FlaskClient) -> None:
    document = _document(client)
    body = document["paths"]["/api/games/{game_id}/deals"]["post"]["requestBody"]
    deal = _schema(document, body["content"]["application/json"]["schema"]["$ref"])
    result = _schema(document, deal["properties"]["results"]["items"]["$ref"])
    assert result["additionalProperties"] is False
    assert result["properties"]["meld_points"]["maximum"] == MAX_FIGURE
    assert result["properties"]["red_threes"]["maximum"] == MAX_CANASTAS
    assert result["properties"]["went_out"]["type"] == "boolean"
    sides = _schema(document, "NewGame")["properties"]["sides"]
    side = _schema(document, sides["items"]["$ref"])
    assert side["properties"]["players"]["items"]["maxLength"] == MAX_NAME


#: pydantic's names for limits: a limit that reaches the document under one of them (a
#: ``Field`` around a validated alias) is a keyword JSON Schema ignores, so no client knows it.
PYDANTIC_WORDS = {"ge", "gt", "le", "lt", "min_length", "max_length", "multiple_of"}


def _keywords(node: object, at: str = "") -> list[str]:
    """Every keyword of every schema in ``node``, with where it is (properties' names left out)."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if not at.endswith(".properties"):
                found.append(f"{at}.{key}")
            found += _keywords(value, f"{at}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _keywords(value, f"{at}.{index}")
    return found


def test_the_document_states_its_limits_in_json_schema(client: FlaskClient) -> None:
    document = _document(client)
    misnamed = [at for at in _keywords(document) if at.rsplit(".", 1)[-1] in PYDANTIC_WORDS]
    assert misnamed == []
    result = _schema(document, "Result")
    assert result["properties"]["side"]["anyOf"][0] == {
        "type": "integer",
        "minimum": 0,
        "maximum": MOST_SIDES - 1,
    }


def test_the_document_states_the_shape_of_each_body(client: FlaskClient) -> None:
    """What every door enforces, whatever the rule set: names, cards, rule sets, sides."""
    document = _document(client)
    side = _schema(document, "Side")["properties"]
    name = side["players"]["items"]
    assert (name["minLength"], name["maxLength"], name["pattern"]) == (1, MAX_NAME, NAME_PATTERN)
    assert side["start"]["multipleOf"] == 5
    assert side["cards"]["items"]["pattern"] == f"^{DRAWN_CARD_PATTERN}$"
    new_game = _schema(document, "NewGame")["properties"]
    assert new_game["variant"]["enum"] == list(VARIANTS)
    assert (new_game["sides"]["minItems"], new_game["sides"]["maxItems"]) == (
        FEWEST_SIDES,
        MOST_SIDES,
    )
    pickup = _schema(document, "Pickup")
    assert pickup["properties"]["top"]["pattern"] == f"^{CARD_PATTERN}$"
    assert "top" in pickup["required"]
    evening = _schema(document, "NewEvening")
    assert "classic-2" not in evening["properties"]["variant"]["enum"]
    assert evening["properties"]["format"]["enum"] == ["pairs", "individual"]
    assert [branch["required"] for branch in evening["oneOf"]] == [["pairs"], ["players"]]
    page = document["paths"]["/api/games"]["get"]["parameters"][0]["schema"]
    assert (page["type"], page["minimum"], page["maximum"]) == ("integer", 1, MAX_PAGE)
    going_out = document["paths"]["/api/check/going-out"]["post"]["requestBody"]
    assert going_out["required"] is True


def test_every_refusal_in_the_document_has_the_error_shape(client: FlaskClient) -> None:
    document = _document(client)
    error = _schema(document, "Error")
    assert set(error["required"]) == {"error", "fields"}
    refusals = 0
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, answer in operation["responses"].items():
                if int(status) >= 400:
                    ref = answer["content"]["application/json"]["schema"]["$ref"]
                    assert _schema(document, ref)["required"][:2] == ["error", "fields"]
                    refusals += 1
    assert refusals > 50


def test_a_refused_deal_names_every_field_in_the_way(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    before = get_game(client, game_id)
    results = [
        {**CASE_A, "meld_points": "220", "jokers": 2},
        {**CASE_B, "went_out": 1, "hand_points": MAX_FIGURE + 5, "red_threes": -1},
    ]
    response = client.post(
        f"/api/games/{game_id}/deals", json={"results": results}, headers=auth(token)
    )
    body = assert_error(response, 422)
    assert body["fields"] == {
        "results.0.meld_points": "Must be a whole number.",
        "results.0.jokers": "Unknown field.",
        "results.1.went_out": "Must be true or false.",
        "results.1.hand_points": f"At most {MAX_FIGURE}.",
        "results.1.red_threes": "Cannot be negative.",
    }
    assert body["error"] == "results.0.meld_points must be a whole number."
    assert get_game(client, game_id) == before


def test_a_refused_new_game_names_every_field_in_the_way(client: FlaskClient) -> None:
    body = {
        "sides": [{"name": "Us" * MAX_NAME, "players": ["Ana", 7]}, {"start": "0"}],
        "first_dealer": None,
        "colour": "red",
    }
    answer = assert_error(client.post("/api/games", json=body), 422)
    assert set(answer["fields"]) == {
        "sides.0.name",
        "sides.0.players.1",
        "sides.1.start",
        "first_dealer",
        "colour",
    }
    assert answer["fields"]["sides.0.name"] == f"At most {MAX_NAME} characters."
    assert client.get("/api/games").get_json()["total"] == 0


def test_a_write_that_takes_no_body_ignores_the_json_type(client: FlaskClient) -> None:
    """Some clients send Content-Type: application/json on every request: an undo with no
    body is still an undo, not a malformed body."""
    game_id, token = new_game(client)
    deals = f"/api/games/{game_id}/deals"
    assert (
        client.post(deals, json={"results": [CASE_A, CASE_B]}, headers=auth(token)).status_code
        == 201
    )
    change = client.get(f"/api/games/{game_id}/changes").get_json()["changes"][0]["id"]
    response = client.post(
        f"/api/games/{game_id}/changes/{change}/undo",
        data=b"",
        headers={**auth(token), "Content-Type": "application/json"},
    )
    assert response.status_code == 200, response.get_json()
    assert get_game(client, game_id)["deals"] == []


def test_a_method_the_api_does_not_take_answers_405_with_allow(client: FlaskClient) -> None:
    """RFC 9110: a 405 lists the methods the resource takes (the error handler kept
    Werkzeug's answer but dropped its Allow)."""
    for method, path in (("PUT", "/api/variants"), ("TRACE", "/api/check/meld")):
        response = client.open(path, method=method)
        body = assert_error(response, 405)
        assert body["fields"] == {}
        allowed = {name.strip() for name in response.headers.get("Allow", "").split(",")}
        assert allowed >= ({"GET"} if path == "/api/variants" else {"POST"}), response.headers
    page = client.open("/", method="DELETE")
    assert page.status_code == 405 and "GET" in page.headers.get("Allow", "")


#: Every view that reads a body, with one it takes.
BODIES = [
    ("/api/check/meld", {"cards": "9 9 9"}),
    ("/api/check/initial-meld", {"melds": ["K K K"]}),
    ("/api/check/pickup", {"top": "K"}),
    ("/api/check/going-out", {}),
    ("/api/seat-draw", {"draws": [{"player": "Ana", "card": "QS"}]}),
    ("/api/games", {"sides": []}),
    ("/api/evenings", {"name": "Club"}),
    ("/api/games/import", {"format": "canasta-scorekeeper/1"}),
]


@pytest.mark.parametrize(("path", "body"), BODIES, ids=[path for path, _ in BODIES])
def test_a_view_that_reads_a_body_refuses_none_with_400(
    client: FlaskClient, path: str, body: dict[str, Any]
) -> None:
    """The document requires each of these bodies: sent without one, a view answers as for
    any body that is not a JSON object (the going-out check used to answer 200)."""
    answer = assert_error(client.post(path), 400)
    assert answer == {"error": "The request body must be a JSON object.", "fields": {}}
    # An empty object is a body: it gets as far as the schema.
    assert client.post(path, json=body).status_code != 400


@pytest.mark.parametrize(
    ("path", "body", "field", "message"),
    [
        ("/api/check/meld", {"cards": "9", "variant": "mexicana"}, "variant", "Unknown rule set."),
        ("/api/check/pickup", {"top": "3"}, "top", "A three needs its suit"),
        ("/api/check/pickup", {"top": " K"}, "top", 'Must be a card, such as "QS".'),
        ("/api/check/meld", {"cards": "9 9 Z"}, "cards", "'Z' is not a card"),
        ("/api/check/initial-meld", {"melds": ["K K K", ["5", ""]]}, "melds.1", "'' is not"),
        ("/api/check/going-out", {"canastas": {"golden": 1}}, "canastas.golden", "Must be 'n"),
        ("/api/check/going-out", {"last_discard": []}, "last_discard", "Must be a card"),
        ("/api/check/pickup", {"top": "K", "hand": [["K"]]}, "hand", 'Must be cards, such as "'),
        (
            "/api/seat-draw",
            {"draws": [{"player": "Ana", "card": "Q"}, {"player": "Boris", "card": "KS"}]},
            "draws.0.card",
            "For the draw a card needs its suit",
        ),
        ("/api/games", {"sides": [{"start": 12}, {}]}, "sides.0.start", "A multiple of 5."),
        ("/api/games", {"sides": [{}], "first_dealer": -1}, "sides", "At least 2."),
        ("/api/evenings", evening_body(format="teams"), "format", "Must be 'pairs' or 'ind"),
        ("/api/evenings", evening_body(variant="classic-2"), "variant", "A rule set of partners."),
    ],
)
def test_a_refusal_of_the_schema_names_the_field_in_words(
    client: FlaskClient, path: str, body: dict[str, Any], field: str, message: str
) -> None:
    """The schema's refusals read as the rest: card notation in the rules engine's words."""
    answer = assert_error(client.post(path, json=body), 422, field)
    assert answer["fields"][field].startswith(message), answer


def test_a_whole_number_may_be_written_with_a_zero_fraction(client: FlaskClient) -> None:
    """JSON Schema's integer is any number without a fraction: 2.0 is 2 (2.5 is not)."""
    body = {"variant": "classic", "score": 1500.0, "melds": ["K K K", "Q Q Q", "J J J"]}
    answer = client.post("/api/check/initial-meld", json=body)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["required"] == 90
    half = client.post("/api/check/initial-meld", json={**body, "score": 1500.5})
    assert assert_error(half, 422, "score")["fields"]["score"] == "Must be a whole number."
