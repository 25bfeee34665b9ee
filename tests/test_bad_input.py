"""Whatever a client sends, the answer is a clear 4xx and a refusal changes nothing.

Cases found in review, then hypothesis-generated deal bodies and form posts.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers.api import auth, counts, get_game, new_game, result
from .helpers.pages import NAMES, deal_form
from .helpers.pages import new_game as new_game_form


def test_api_page_must_be_plain_digits(client: FlaskClient) -> None:
    for page in ["²", "99999999999999999999", "0", "-1", "1e3"]:
        response = client.get("/api/games", query_string={"page": page})
        assert response.status_code == 400, page
        assert "page" in response.get_json()["fields"]


def test_nul_in_a_name_is_refused(client: FlaskClient, app: Flask) -> None:
    body = {"variant": "classic", "sides": [{"name": "Us\u0000"}, {"name": "Them"}]}
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert "sides.0.name" in response.get_json()["fields"]
    assert counts(app) == (0, 0, 0)


def test_odd_game_ids_are_unknown(client: FlaskClient) -> None:
    for game_id in ["%00", "a%00b", "x" * 200, "..", "a b"]:
        assert client.get(f"/api/games/{game_id}").status_code == 404
        assert client.get(f"/games/{game_id}").status_code == 404


@pytest.mark.one_database  # refused by the body's schema before the store: on SQLite alone
def test_options_must_be_an_object(client: FlaskClient) -> None:
    for options in [False, 0, "", []]:
        body = {"variant": "classic", "sides": [{"name": "A"}, {"name": "B"}], "options": options}
        assert client.post("/api/games", json=body).status_code == 422, options


def test_a_finished_game_answers_409_before_reading_the_body(client: FlaskClient) -> None:
    game_id, token = new_game(client, starts=(4995, 0))
    big = result(310, natural=2, red_threes=4, went_out=True, concealed=True, hand=15)
    assert (
        client.post(
            f"/api/games/{game_id}/deals",
            json={"results": [big, result(hand=120)]},
            headers=auth(token),
        ).status_code
        == 201
    )
    response = client.post(
        f"/api/games/{game_id}/deals",
        data=b"not json",
        headers=auth(token),
        content_type="application/json",
    )
    assert response.status_code == 409


def test_unlikely_entries_come_back_as_warnings(client: FlaskClient) -> None:
    """Meld below the minimum and empty hands are recorded, and the answer says so."""
    game_id, token = new_game(client)
    response = client.post(
        f"/api/games/{game_id}/deals",
        json={"results": [result(20), result(40)]},
        headers=auth(token),
    )
    assert response.status_code == 201
    rules = {(w["field"], w["rule"]) for w in response.get_json()["warnings"]}
    assert ("results.0.meld_points", "below_minimum") in rules
    assert ("results.1.hand_points", "hand_not_empty") in rules


def test_forged_extra_form_entries_are_ignored(client: FlaskClient, app: Flask) -> None:
    data = {
        "sides-0-name": "We",
        "sides-1-name": "They",
        "sides-2-name": "Ghosts",
        **{f"players-{i}": n for i, n in enumerate([*NAMES, "Extra"])},
        "first_dealer": "0",
        "target": "5000",
    }
    assert client.post("/games/new", data=data).status_code == 302
    game_id = new_game_form(client)
    form = deal_form(
        we={"meld_points": 150, "hand_points": 20}, they={"meld_points": 90, "hand_points": 30}
    )
    form["sides-2-meld_points"] = "5"
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 302


@pytest.mark.one_database  # the form's validation, before the store: on SQLite alone
def test_a_number_too_long_to_read_is_refused(client: FlaskClient, app: Flask) -> None:
    game_id = new_game_form(client)
    before = counts(app)
    form = deal_form(we={"meld_points": "9" * 5000}, they={"meld_points": 90})
    for path in ("deals/new", "deals/preview"):
        response = client.post(f"/games/{game_id}/{path}", data=form)
        assert response.status_code in (200, 422)
        assert "type a number" in response.get_data(as_text=True)
    assert counts(app) == before


# Values a careless or hostile client may put anywhere in a deal.
ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
FIELDS = [
    "meld_points",
    "natural_canastas",
    "mixed_canastas",
    "red_threes",
    "went_out",
    "concealed",
    "hand_points",
    "wild_canastas",
    "concealed_canastas",
    "side",
    "bogus",
]
RESULT = st.dictionaries(st.sampled_from(FIELDS), ANY_VALUE, max_size=6)
BODY = st.one_of(
    st.fixed_dictionaries({"results": st.lists(RESULT, min_size=0, max_size=3)}),
    st.dictionaries(st.text(max_size=8), ANY_VALUE, max_size=3),
    ANY_VALUE,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=BODY)
def test_generated_deal_bodies_never_500_and_refusals_change_nothing(
    client: FlaskClient, body: Any
) -> None:
    game_id, token = new_game(client)
    before = get_game(client, game_id)
    response = client.post(f"/api/games/{game_id}/deals", json=body, headers=auth(token))
    assert response.status_code in (201, 400, 422), (body, response.get_json())
    answer = response.get_json()
    if response.status_code == 201:
        assert [r["score"] % 5 for r in answer["results"]] == [0, 0]
    else:
        assert set(answer) == {"error", "fields"} and answer["error"]
        assert get_game(client, game_id) == before


FORM_VALUE = st.one_of(st.text(max_size=12), st.integers(-(10**6), 10**6).map(str))
FORM_KEYS = st.sampled_from(
    [
        "went_out",
        "concealed",
        *(
            f"sides-{i}-{f}"
            for i in range(3)
            for f in (
                "meld_points",
                "hand_points",
                "natural_canastas",
                "mixed_canastas",
                "red_threes",
                "concealed_canastas",
            )
        ),
    ]
)


@pytest.mark.one_database  # the form's validation (figures within 10**6): on SQLite alone
@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(form=st.dictionaries(FORM_KEYS, FORM_VALUE, max_size=10))
def test_generated_deal_forms_never_500(client: FlaskClient, app: Flask, form: Any) -> None:
    game_id = new_game_form(client)
    before = counts(app)
    preview = client.post(f"/games/{game_id}/deals/preview", data=form)
    assert preview.status_code == 200
    response = client.post(f"/games/{game_id}/deals/new", data=form)
    assert response.status_code in (302, 422), form
    if response.status_code == 422:
        assert counts(app) == before
