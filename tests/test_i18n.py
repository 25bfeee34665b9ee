"""Four languages: every string of the app is in every catalogue, and pages speak the
player's language (Accept-Language, or the switch on every page), numbers included."""

from __future__ import annotations

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from .helpers.api import auth, new_game, result
from .helpers.i18n import CATALOGUES, PLACEHOLDER, ROOT, TRANSLATED, translated

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

#: The extraction keywords of ``make translations`` (T, P and N_ mark the rules engine).
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "_l": None,
    "T": None,
    "P": (1, 2),
    "N_": None,
}


def source_messages() -> set[str]:
    """Every message the code and templates ask to translate, as extracted now."""
    method_map = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
    found: set[str] = set()
    for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map, keywords=KEYWORDS):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


@pytest.fixture(scope="module")
def messages() -> set[str]:
    return source_messages()


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_is_translated(language: str, messages: set[str]) -> None:
    with (CATALOGUES / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalogue = read_po(po)
    done = {
        message.id[0] if isinstance(message.id, tuple) else message.id
        for message in catalogue
        if message.id
        and not message.fuzzy
        and (all(message.string) if isinstance(message.string, tuple) else message.string)
    }
    missing = sorted(messages - done)
    assert missing == [], f"{len(missing)} strings not translated in {language}: {missing[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_placeholders(language: str) -> None:
    for ids, strings in translated(language):
        message = ids[0]
        wanted = set(PLACEHOLDER.findall(ids[-1])) - {"num"}
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) - {"num"} == wanted, (message, string)
            assert '"' not in string or '"' in ids[0], (message, string)


def test_the_browser_language_is_spoken(client: FlaskClient) -> None:
    english = client.get("/games/new").get_data(as_text=True)
    russian = client.get("/games/new", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    html = russian.get_data(as_text=True)
    assert '<html lang="ru">' in html
    assert "New game" in english and "New game" not in html


def test_the_switch_is_remembered(client: FlaskClient) -> None:
    response = client.get("/language/sk?next=/rules")
    assert response.status_code == 302 and response.headers["Location"] == "/rules"
    page = client.get("/rules", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="sk">' in page
    assert client.get("/language/xx").status_code == 404
    # Only back into this app.
    assert client.get("/language/mk?next=//evil.example").headers["Location"] == "/"


def test_numbers_are_written_the_languages_way(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    case_a = result(220, natural=1, mixed=1, red_threes=1, went_out=True, hand=10)
    client.post(
        f"/api/games/{game_id}/deals",
        headers=auth(token),
        json={"results": [case_a, result(150, red_threes=2, hand=85)]},
    )
    sheet = {
        lang: client.get(f"/games/{game_id}", headers={"Accept-Language": lang}).get_data(
            as_text=True
        )
        for lang in ["en", "sk", "mk"]
    }
    assert ">1,210<" in sheet["en"]
    assert ">1\u00a0210<" in sheet["sk"]  # a space that does not break
    assert ">1.210<" in sheet["mk"]


@pytest.mark.parametrize(
    ("lang", "classic", "classic_6"),
    [
        ("en", "to 5,000", "to 10,000"),
        ("sk", "do 5\u00a0000", "do 10\u00a0000"),
        ("ru", "до 5\u00a0000", "до 10\u00a0000"),
        ("mk", "до 5.000", "до 10.000"),
    ],
)
def test_rules_index_writes_targets_as_every_page_does(
    client: FlaskClient, lang: str, classic: str, classic_6: str
) -> None:
    """The rules index wrote "to 5000" where the sheet and the rule pages write 5,000."""
    html = client.get("/rules", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    assert f"· {classic}<" in html and f"· {classic_6}<" in html


def test_refusals_of_the_rules_engine_are_translated(client: FlaskClient) -> None:
    game_id, token = new_game(client)
    five_red_threes = {
        "results": [result(150, red_threes=3, hand=85), result(90, red_threes=2, hand=20)]
    }
    answers = {
        lang: client.post(
            f"/api/games/{game_id}/deals",
            json=five_red_threes,
            headers={**auth(token), "Accept-Language": lang},
        ).get_json()["error"]
        for lang in ["en", "ru"]
    }
    assert "red threes" in answers["en"]
    assert answers["ru"] != answers["en"] and "4" in answers["ru"]
