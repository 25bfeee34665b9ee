"""Each refusal is worded once (issue 41): the store's sentence, which the pages and the API
render in the reader's language, and typed nowhere else in the package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.text import Text
from scorekeeper.store import changes
from scorekeeper.store.changes.evenings import NO_EVENING, NOT_DIRECTOR
from scorekeeper.store.changes.roster import NO_PERSON

from .helpers.api import assert_error, new_game

PACKAGE = Path(__file__).parents[1] / "scorekeeper"

#: The store's refusals of what is not there, or not the caller's to change.
WORDED = [changes.NO_GAME, NO_EVENING, NO_PERSON, NOT_DIRECTOR, changes.GAME_GONE]


def sentences(path: Path) -> list[str]:
    """Every string constant of a module, adjacent literals joined as Python joins them."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


@pytest.mark.parametrize("text", WORDED, ids=str)
def test_a_refusal_of_the_store_is_typed_once(text: Text) -> None:
    typed = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "migrations" not in path.parts and text.template in sentences(path)
    ]
    assert len(typed) == 1, typed


@pytest.mark.parametrize("language", ["en", "sk"])
def test_a_missing_deal_and_game_read_alike_in_the_api_and_on_the_pages(
    client: FlaskClient, language: str
) -> None:
    game_id, _token = new_game(client)
    speaks = {"Accept-Language": language}
    words = {"en": "This game has no deal 9.", "sk": "Táto hra nemá kolo 9."}[language]
    api = client.get(f"/api/games/{game_id}/deals/9", headers=speaks)
    assert assert_error(api, 404)["error"] == words
    gone = {"en": "There is no such game.", "sk": "Taká hra neexistuje."}[language]
    page = client.get("/games/nosuchgame/changes", headers=speaks)
    assert page.status_code == 404 and gone in page.get_data(as_text=True)
    checked = client.post("/api/check/meld", json={"game": "nosuchgame", "cards": "Q Q Q"})
    assert assert_error(checked, 404, "game")["error"] == "There is no such game."
