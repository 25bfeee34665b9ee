"""What the deal form's save answers a phone's queue of deals saved offline (static/offline.js),
which asks for JSON: the deal's number once saved; once refused, the status, the sentence
and each field's words by the form's field name, never a page to read. And a refusal's
words on the page come from the refusal itself: errors and warnings, by their fields."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import Severity, Violation, validate_deal
from scorekeeper.rules.text import T
from scorekeeper.store.changes import deals as deal_commands
from scorekeeper.store.errors import Refused, Why
from scorekeeper.web.deals import views as deals

from .helpers.pages import CASE_A, CASE_B, deal_form, new_game, totals

JSON = {"Accept": "application/json"}
#: What only the store asks of the rules engine for a deal: its checks, scores and ending.
ENGINE_WORK = {
    "validate_deal",
    "errors_of",
    "next_line",
    "ending",
    "replay",
    "score_deal",
    "score_breakdown",
}
#: Five red threes at a table of four: the server refuses it.
TOO_MANY_THREES = deal_form("0", we=CASE_A, they={**CASE_B, "red_threes": 4})


def test_a_refused_deal_answers_its_words_by_field_in_json(client: FlaskClient) -> None:
    game_id = new_game(client)
    answer = client.post(f"/games/{game_id}/deals/new", data=TOO_MANY_THREES, headers=JSON)
    assert answer.status_code == 422
    assert answer.mimetype == "application/json"
    body = answer.get_json()
    assert "only 4 red threes" in body["error"]
    assert set(body["fields"]) == {"sides-1-red_threes"}
    assert "only 4 red threes" in body["fields"]["sides-1-red_threes"]
    assert totals(client, game_id) == [0, 0]


@pytest.mark.one_database  # translations: on SQLite alone
def test_a_refusal_in_json_speaks_the_pages_language(client: FlaskClient) -> None:
    game_id = new_game(client)
    client.set_cookie("lang", "sk")
    answer = client.post(f"/games/{game_id}/deals/new", data=TOO_MANY_THREES, headers=JSON)
    english = "only 4 red threes"
    assert answer.status_code == 422
    assert english not in answer.get_json()["error"]
    assert english not in answer.get_json()["fields"]["sides-1-red_threes"]


def test_a_saved_deal_answers_its_number_in_json_once(client: FlaskClient) -> None:
    game_id = new_game(client)
    data = {**deal_form("0", we=CASE_A, they=CASE_B), "nonce": "queued-deal-1"}
    first = client.post(f"/games/{game_id}/deals/new", data=data, headers=JSON)
    assert (first.status_code, first.get_json()) == (201, {"number": 1, "repeated": False})
    again = client.post(f"/games/{game_id}/deals/new", data=data, headers=JSON)
    assert (again.status_code, again.get_json()) == (200, {"number": 1, "repeated": True})
    assert totals(client, game_id) == [1210, 265]
    # Nothing was flashed for a page the queue never shows.
    assert "Deal 1 saved." not in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_deal_for_a_game_over_is_refused_in_json(client: FlaskClient) -> None:
    game_id = new_game(client, **{"sides-0-start": "4500"})
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    answer = client.post(
        f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B), headers=JSON
    )
    assert answer.status_code == 409
    assert "This game is over" in answer.get_json()["error"]
    assert answer.get_json()["fields"] == {}


def test_a_deal_from_a_phone_without_the_secret_is_refused_in_json(
    client: FlaskClient, app: Flask
) -> None:
    game_id = new_game(client)
    other = app.test_client()
    answer = other.post(
        f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B), headers=JSON
    )
    assert answer.status_code == 403
    assert "Only the phone that keeps this game's score" in answer.get_json()["error"]
    assert totals(client, game_id) == [0, 0]


@pytest.mark.one_database  # the form's validation, before the store: on SQLite alone
def test_an_unreadable_figure_is_refused_in_json(client: FlaskClient) -> None:
    game_id = new_game(client)
    data = deal_form("0", we={**CASE_A, "red_threes": "two"}, they=CASE_B)
    answer = client.post(f"/games/{game_id}/deals/new", data=data, headers=JSON)
    assert answer.status_code == 422
    assert list(answer.get_json()["fields"]) == ["sides-0-red_threes"]
    assert answer.get_json()["error"] == answer.get_json()["fields"]["sides-0-red_threes"]


def test_a_page_still_answers_a_refused_deal_with_its_form(client: FlaskClient) -> None:
    """A browser asks for a page: it gets the form again, the words by the figures."""
    game_id = new_game(client)
    answer = client.post(f"/games/{game_id}/deals/new", data=TOO_MANY_THREES)
    assert answer.status_code == 422 and answer.mimetype == "text/html"
    field = re.search(
        r'id="err-sides-1-red_threes"[^>]*>(.*?)</div>', answer.get_data(as_text=True)
    )
    assert field and "only 4 red threes" in field.group(1)


def test_refused_words_and_warnings_come_from_the_refusal(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page places the store's errors and warnings by their paths, and does not check
    the entry again to find them: the rules engine checks the refused save once, in the
    store, and both show next to their figures."""
    game_id = new_game(client)
    # We melded 40 (the initial meld needed 50: a warning) and list five red threes.
    data = deal_form(we={"meld_points": 40, "red_threes": 5, "hand_points": 20}, they=CASE_B)
    checks: list[object] = []

    def counted(*args: object, **kwargs: object) -> list[Violation]:
        checks.append(args)
        return validate_deal(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(deal_commands, "validate_deal", counted)
    answer = client.post(f"/games/{game_id}/deals/new", data=data)
    assert answer.status_code == 422
    assert len(checks) == 1
    html = answer.get_data(as_text=True)
    threes = re.search(r'id="err-sides-0-red_threes"[^>]*>(.*?)</div>', html)
    meld = re.search(r'id="err-sides-0-meld_points"[^>]*>(.*?)</div>', html)
    assert threes and "only 4 red threes" in threes.group(1)
    assert meld and "Check: The side&#39;s initial meld needed 50" in meld.group(1)


def test_the_deal_page_neither_checks_nor_scores_a_deal_itself() -> None:
    """The save and the live line come from the store's command and its dry run: the deal
    page imports none of the rules engine's checks or scores (a new rule is written once)."""
    source = ast.parse(Path(deals.__file__).read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(source)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rules")
        for alias in node.names
    }
    assert not imported & ENGINE_WORK, imported & ENGINE_WORK


def test_a_refusal_carries_an_entrys_errors_and_warnings_by_path() -> None:
    violations = [
        Violation("results.0.meld_points", "minimum", T("Low."), Severity.WARNING),
        Violation("results.1.red_threes", "threes", T("Too many.")),
        Violation("results.1.red_threes", "threes-again", T("Still too many.")),
    ]
    refusal = Refused.breaking(violations, prefix="deals.2.")
    assert refusal.why is Why.INVALID
    assert str(refusal.text) == "Too many."
    assert {path: str(text) for path, text in refusal.fields.items()} == {
        "deals.2.results.1.red_threes": "Too many."
    }
    assert {path: str(text) for path, text in refusal.warnings.items()} == {
        "deals.2.results.0.meld_points": "Low."
    }
