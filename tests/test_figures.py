"""Figures typed as the app writes them (issue 31): every number field a person types in
reads the page language's grouping (4,800 / 4.800 / 4 800) and a leading minus where a
figure may be negative, and says what is wrong in that language; nothing else changes."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store.models import Game

from .helpers.pages import NAMES, deal_form, new_game

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

NEW_GAME = {
    "sides-0-name": "We",
    "sides-1-name": "They",
    **{f"players-{i}": name for i, name in enumerate(NAMES)},
    "first_dealer": "0",
    "target": "5000",
}


def speak(client: FlaskClient, language: str) -> None:
    client.set_cookie("lang", language)


def starts(client: FlaskClient, game_id: str) -> list[int]:
    return [side["total"] for side in client.get(f"/api/games/{game_id}").get_json()["sides"]]


@pytest.mark.parametrize(
    ("language", "typed", "other", "carried"),
    [
        ("en", "4,800", "-1,250", [4800, -1250]),
        ("mk", "4.800", "-1.250", [4800, -1250]),
        # The grouping's no-break space, or the plain space a phone types.
        ("ru", "4\u00a0800", "-1 250", [4800, -1250]),
        ("sk", "4 800", "\u22121\u00a0250", [4800, -1250]),  # the minus sign the app prints
    ],
)
def test_a_total_from_paper_is_read_as_the_language_writes_it(
    client: FlaskClient, language: str, typed: str, other: str, carried: list[int]
) -> None:
    """ "Continue from paper" with 4,800 (English) or 4.800 (Macedonian) answered "Not a
    valid integer value." in English, whatever the page's language."""
    speak(client, language)
    game_id = new_game(client, **{"sides-0-start": typed, "sides-1-start": other})
    assert starts(client, game_id) == carried


def test_house_rules_are_read_as_the_language_writes_them(client: FlaskClient) -> None:
    speak(client, "mk")
    tiers = {"tiers-0-minimum": "15", "tiers-1-from_total": "0", "tiers-1-minimum": "50"}
    tiers |= {"tiers-2-from_total": "1.500", "tiers-2-minimum": "90"}
    tiers |= {"tiers-3-from_total": "2.500", "tiers-3-minimum": "120"}
    game_id = new_game(client, target="10.000", going_out_bonus="1.000", **tiers)
    options = client.get(f"/api/games/{game_id}").get_json()["options"]
    assert options["target"] == 10000 and options["going_out_bonus"] == 1000
    assert [tier["from"] for tier in options["meld_minimums"]] == [None, 0, 1500, 2500]


@pytest.mark.parametrize(
    ("language", "typed", "message"),
    [
        ("en", "lots", "Type a whole number, such as 1,500 or -150."),
        ("en", "4.8", "Type a whole number, such as 1,500 or -150."),  # English decimals
        ("en", "2,000,000", "From -1,000,000 to 1,000,000."),
        ("mk", "4,800", "Внеси цел број, на пр. 1.500 или -150."),  # Macedonian decimals  # noqa: RUF001
        ("mk", "2.000.000", "Од -1.000.000 до 1.000.000."),
        ("ru", "много", "Введите целое число, например 1\u00a0500 или -150."),
        ("sk", "4.800", "Napíšte celé číslo, napr. 1\u00a0500 alebo -150."),
    ],
)
def test_a_figure_that_cannot_be_read_is_refused_in_the_pages_language(
    client: FlaskClient, app: Flask, language: str, typed: str, message: str
) -> None:
    speak(client, language)
    response = client.post("/games/new", data={**NEW_GAME, "sides-0-start": typed})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    errors = re.findall(r'id="err-sides-0-start"[^>]*>(.*?)</div>', html, re.S)
    assert errors == [f'<p class="field-error">{message}</p>'], errors
    assert f'value="{typed}"' in html  # shown again as typed
    with app.app_context():
        assert Game.query.count() == 0


def test_a_house_rule_out_of_range_names_the_range(client: FlaskClient) -> None:
    speak(client, "ru")
    html = client.post("/games/new", data={**NEW_GAME, "target": "1"}).get_data(as_text=True)
    assert "От 5 до 1\u00a0000\u00a0000." in html
    assert "Number must be between" not in html and "Not a valid integer" not in html


def test_deal_figures_take_the_grouping_in_sums_too(client: FlaskClient) -> None:
    speak(client, "mk")
    game_id = new_game(client)
    we = {"meld_points": "1.000", "natural_canastas": 1, "mixed_canastas": 1, "hand_points": 20}
    they = {"meld_points": "50+40", "hand_points": "35"}
    response = client.post(f"/games/{game_id}/deals/new", data=deal_form(we=we, they=they))
    assert response.status_code == 302, response.get_data(as_text=True)
    deal = client.get(f"/api/games/{game_id}").get_json()["deals"][0]["results"]
    assert [side["meld_points"] for side in deal] == [1000, 90]
    assert [side["score"] for side in deal] == [1780, 55]


def test_no_number_field_carries_a_pattern_the_server_does_not_take(client: FlaskClient) -> None:
    """The browser refused "1,500" in the rule tool's total ("Please match the requested
    format.") before the server could read it: no field carries such a pattern."""
    game_id = new_game(client)
    pages = ["/games/new", "/games/new?variant=railroad", f"/games/{game_id}/deals/new"]
    pages += [f"/check/{tool}" for tool in ("initial-meld", "going-out", "pickup", "meld")]
    for page in pages:
        html = client.get(page).get_data(as_text=True)
        assert "pattern=" not in html, page


@pytest.mark.parametrize(
    ("language", "typed", "required"),
    [("en", "1,500", "90"), ("mk", "3.000", "120"), ("sk", "-1 500", "15")],
)
def test_the_initial_meld_tool_reads_the_total_as_the_language_writes_it(
    client: FlaskClient, language: str, typed: str, required: str
) -> None:
    speak(client, language)
    html = client.get("/check/initial-meld", query_string={"total": typed, "meld1": "K K K"})
    figures = re.search(r'class="answer-figures">([^<]*)<', html.get_data(as_text=True))
    assert figures and re.search(rf"(^|\s){required}(\s|$)", figures.group(1)), figures


def test_the_initial_meld_tool_says_why_it_cannot_read_a_total(client: FlaskClient) -> None:
    speak(client, "sk")
    html = client.get("/check/initial-meld?total=lots&meld1=K+K+K").get_data(as_text=True)
    assert "Napíšte celé číslo, napr. 1\u00a0500 alebo -150." in html
    assert 'class="answer-line' not in html  # no answer counted from a total it made up
