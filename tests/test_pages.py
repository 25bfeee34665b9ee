"""The pages through the Flask client: create a game, record, edit, undo, win."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import db
from scorekeeper.store.models import Game

from .helpers.pages import CASE_A, CASE_B, NAMES, count_rows, deal_form, needs, new_game, totals

#: The pages over the store: the API's tests of the same commands run them on PostgreSQL.
pytestmark = pytest.mark.one_database


def test_home_lists_new_game_in_progress(client: FlaskClient) -> None:
    assert "No game in progress" in client.get("/").get_data(as_text=True)
    new_game(client)
    html = client.get("/").get_data(as_text=True)
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert "We 0 · They 0" in text
    assert "in progress, deal 1 next" in text
    assert "No game in progress" not in html


def test_new_game_sheet_shows_sides_minimums_and_dealer(client: FlaskClient) -> None:
    game_id = new_game(client, first_dealer=2)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert totals(client, game_id) == [0, 0]
    assert needs(client, game_id) == [50, 50]
    # Seat 3 (Boris) deals first.
    assert "<strong>Boris</strong> deals" in html


def test_new_game_refuses_missing_player_names_and_keeps_input(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post(
        "/games/new",
        data={"sides-0-name": "Reds", "sides-1-name": "", "players-0": "Ana", "target": "5000"},
    )
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Each player needs a name." in html
    assert "Each side needs a name." not in html  # an empty side name has a default
    assert 'value="Ana"' in html and 'value="Reds"' in html
    with app.app_context():
        assert db.session.query(Game).count() == 0


def side_names(client: FlaskClient, game_id: str) -> list[str]:
    return [side["name"] for side in client.get(f"/api/games/{game_id}").get_json()["sides"]]


@pytest.mark.parametrize(
    ("language", "variant", "players", "names"),
    [
        ("en", "classic", 4, ["We", "They"]),
        ("mk", "classic", 4, ["Ние", "Тие"]),
        ("en", "classic-6x3", 6, ["We", "They", "Others"]),
        ("sk", "classic-6x3", 6, ["My", "Oni", "Ostatní"]),
    ],
)
def test_side_names_left_empty_are_what_their_fields_show(
    client: FlaskClient, language: str, variant: str, players: int, names: list[str]
) -> None:
    """Issue 17: the greyed-out "We" and "They" are real defaults, in the page's language."""
    headers = {"Accept-Language": language}
    page = client.get(f"/games/new?variant={variant}", headers=headers).get_data(as_text=True)
    shown = re.findall(r'id="sides-\d+-name"[^>]*placeholder="([^"]*)"', page)
    assert shown == names
    # The seat labels name the side too, before anything is typed.
    assert re.findall(r'data-side-name="\d+"[^>]*>([^<]*)<', page) == (names * 2)[:players]
    data = {
        f"players-{i}": name
        for i, name in enumerate(["Ana", "Vera", "Boris", "Goran", "Lidija", "Stefan"][:players])
    }
    data.update({f"sides-{i}-name": " " if i else "" for i in range(len(names))})
    data.update({"first_dealer": "0", "target": "5000"})
    response = client.post(f"/games/new?variant={variant}", data=data, headers=headers)
    assert response.status_code == 302, response.get_data(as_text=True)
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    assert side_names(client, game_id) == names
    sheet = client.get(f"/games/{game_id}", headers=headers).get_data(as_text=True)
    for name in names:
        assert name in sheet


def test_a_named_side_keeps_its_name_beside_a_default(client: FlaskClient) -> None:
    game_id = new_game(client, **{"sides-0-name": "", "sides-1-name": "  Vera & Goran "})
    assert side_names(client, game_id) == ["We", "Vera & Goran"]


def test_new_game_refuses_target_not_multiple_of_5(client: FlaskClient) -> None:
    data = {
        "sides-0-name": "We",
        "sides-1-name": "They",
        "target": "5001",
        **{f"players-{i}": n for i, n in enumerate(NAMES)},
    }
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    assert "multiple of 5" in response.get_data(as_text=True)


def test_record_worked_cases_a_and_b(client: FlaskClient) -> None:
    """RULES.md section 8: A scores 1210, B 265."""
    game_id = new_game(client)
    response = client.post(
        f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B)
    )
    assert response.status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Deal 1 saved." in html and "Undo" in html
    assert totals(client, game_id) == [1210, 265]
    # The deal passes to the left: Vera deals deal 2.
    assert "Deal 2 · <strong>Vera</strong> deals" in html


def test_points_fields_accept_sums(client: FlaskClient) -> None:
    game_id = new_game(client)
    we = {**CASE_A, "meld_points": "120+35+65"}
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=we, they=CASE_B))
    assert totals(client, game_id) == [1210, 265]


def test_live_preview_shows_scores_and_new_totals(client: FlaskClient) -> None:
    game_id = new_game(client)
    response = client.post(
        f"/games/{game_id}/deals/preview",
        data=deal_form("0", we=CASE_A, they=CASE_B),
        headers={"HX-Request": "true"},
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "+1,210" in html and "+265" in html
    assert 'hx-swap-oob="true"' in html
    assert count_rows_client(client, game_id) == 0


def count_rows_client(client: FlaskClient, game_id: str) -> int:
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    return len(re.findall(r'aria-label="Edit deal \d+"', html))


REFUSALS = [
    # (description, form data, expected message fragment)
    (
        "five red threes",
        deal_form(we={**CASE_B, "red_threes": 3}, they={**CASE_B, "red_threes": 2}),
        "only 4 red threes",
    ),
    (
        "going out without a canasta",
        deal_form("0", we={"meld_points": 90, "hand_points": 5}, they=CASE_B),
        "Going out needs a canasta",
    ),
    (
        "concealed without going out",
        deal_form("", True, we=CASE_B, they=CASE_B),
        "Only the side that went out",
    ),
    (
        "not a multiple of 5",
        deal_form(we={**CASE_B, "meld_points": 33}, they=CASE_B),
        "multiple of 5",
    ),
    (
        "negative figure",
        deal_form(we={**CASE_B, "hand_points": -10}, they=CASE_B),
        "cannot be negative",
    ),
    (
        "canastas the points cannot hold",
        deal_form(
            we={**CASE_B, "meld_points": 40, "natural_canastas": 1, "mixed_canastas": 1},
            they=CASE_B,
        ),
        "cannot hold them",
    ),
    (
        "text where a number belongs",
        deal_form(we={**CASE_B, "meld_points": "lots"}, they=CASE_B),
        "type a number",
    ),
    ("text in a count", deal_form(we={**CASE_B, "red_threes": "two"}, they=CASE_B), "whole number"),
]


@pytest.mark.parametrize(("label", "data", "message"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refused_deal_saves_nothing_and_keeps_input(
    client: FlaskClient, app: Flask, label: str, data: dict[str, str], message: str
) -> None:
    game_id = new_game(client)
    before = count_rows(app)
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 422, label
    html = response.get_data(as_text=True)
    assert message in html
    # The form keeps what was typed.
    assert f'value="{data["sides-1-meld_points"]}"' in html
    assert count_rows(app) == before
    assert totals(client, game_id) == [0, 0]


@pytest.mark.parametrize(
    ("we", "they"), [(5, 0), (0, 5), (3, 2)], ids=["five-to-we", "five-to-they", "three-and-two"]
)
def test_too_many_red_threes_are_refused_once(client: FlaskClient, we: int, they: int) -> None:
    """Five red threes in a game of four: one message, next to the stepper at fault, when
    saving and in the live preview (a side that alone lists five was told it twice)."""
    game_id = new_game(client)
    data = deal_form(we={**CASE_B, "red_threes": we}, they={**CASE_B, "red_threes": they})
    saved = client.post(f"/games/{game_id}/deals/new", data=data)
    assert saved.status_code == 422
    preview = client.post(
        f"/games/{game_id}/deals/preview", data=data, headers={"HX-Request": "true"}
    )
    at_fault = 0 if they == 0 else 1
    for html in (saved.get_data(as_text=True), preview.get_data(as_text=True)):
        assert html.count("only 4 red threes in the cards") == 1
        field = re.search(rf'id="err-sides-{at_fault}-red_threes"[^>]*>(.*?)</div>', html)
        assert field and "only 4 red threes" in field.group(1)


def test_who_went_out_is_answered_above_the_save_button_while_typing(
    client: FlaskClient,
) -> None:
    """Who went out is picked first: while the canasta is still to be tapped, the live line
    says what going out needs and the slot above the steppers stays empty (a message there
    pushes every figure down under the thumb). A refused save puts it at the choice."""
    game_id = new_game(client)
    data = deal_form("0", we={"meld_points": 90, "hand_points": 5}, they=CASE_B)
    preview = client.post(
        f"/games/{game_id}/deals/preview", data=data, headers={"HX-Request": "true"}
    ).get_data(as_text=True)
    slot = re.search(r'<div class="field-msg" id="err-went_out"[^>]*>(.*?)</div>', preview)
    assert slot and slot.group(1) == ""
    line = preview.split('id="err-')[0]  # the live line, before the fields' slots
    assert "We: Going out needs a canasta" in line
    assert "Check the marked figures." not in line  # no figure is marked

    saved = client.post(f"/games/{game_id}/deals/new", data=data).get_data(as_text=True)
    slot = re.search(r'id="err-went_out"[^>]*>(.*?)</div>', saved)
    assert slot and "Going out needs a canasta" in slot.group(1)


def test_both_sides_going_out_is_impossible_to_enter(client: FlaskClient) -> None:
    """One choice for the deal: a forged value naming no side is refused."""
    game_id = new_game(client)
    response = client.post(
        f"/games/{game_id}/deals/new", data=deal_form("0,1", we=CASE_A, they=CASE_A)
    )
    assert response.status_code == 422
    assert totals(client, game_id) == [0, 0]


def test_below_minimum_is_a_warning_not_a_refusal(client: FlaskClient) -> None:
    game_id = new_game(client)
    data = deal_form(we={"meld_points": 40, "hand_points": 20}, they=CASE_B)
    preview = client.post(f"/games/{game_id}/deals/preview", data=data).get_data(as_text=True)
    assert "Check: The side&#39;s initial meld needed 50" in preview
    assert client.post(f"/games/{game_id}/deals/new", data=data).status_code == 302


def test_editing_deal_1_changes_later_minimums(client: FlaskClient) -> None:
    game_id = new_game(client)
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    client.post(f"/games/{game_id}/deals/new", data=deal_form(we=CASE_B, they=CASE_B))
    # 1210 + 265 = 1475: still 50.
    assert needs(client, game_id) == [50, 50]
    # Deal 1 with two natural canastas instead: 1210 + 500 + 265 = 1975 -> needs 90.
    edit = client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True)
    assert 'value="220"' in edit
    response = client.post(
        f"/games/{game_id}/deals/1/edit",
        data=deal_form("0", we={**CASE_A, "natural_canastas": 2, "meld_points": 255}, they=CASE_B),
    )
    assert response.status_code == 302
    assert totals(client, game_id) == [1210 + 500 + 35 + 265, 530]
    assert needs(client, game_id) == [90, 50]


def test_undo_last_deal_after_confirmation(client: FlaskClient) -> None:
    game_id = new_game(client)
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    confirm = client.get(f"/games/{game_id}/deals/1/delete")
    assert "Undo deal 1?" in confirm.get_data(as_text=True)
    assert totals(client, game_id) == [1210, 265]  # asking changes nothing
    client.post(f"/games/{game_id}/deals/1/delete")
    assert totals(client, game_id) == [0, 0]


def test_delete_middle_deal_renumbers(client: FlaskClient) -> None:
    game_id = new_game(client)
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    client.post(f"/games/{game_id}/deals/new", data=deal_form(we=CASE_B, they=CASE_B))
    client.post(f"/games/{game_id}/deals/1/delete")
    assert totals(client, game_id) == [265, 265]
    assert count_rows_client(client, game_id) == 1


def test_whole_game_to_a_win_then_new_game_same_players(client: FlaskClient) -> None:
    game_id = new_game(client)
    big = {"meld_points": 310, "natural_canastas": 2, "red_threes": 4, "hand_points": 15}
    # D: 2295 a deal (RULES.md 8), concealed. 3 deals: 6885 > 5000.
    for _ in range(3):
        response = client.post(
            f"/games/{game_id}/deals/new",
            data=deal_form("0", True, we=big, they={"meld_points": 0, "hand_points": 120}),
        )
        assert response.status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "We win with 6,885" in html
    assert "Record deal" not in html
    # A finished game takes no more deals.
    response = client.get(f"/games/{game_id}/deals/new")
    assert response.status_code == 302
    again = client.get(f"/games/new?from={game_id}").get_data(as_text=True)
    for name in ["We", "They", *NAMES]:
        assert f'value="{name}"' in again
    home = client.get("/").get_data(as_text=True)
    in_progress, finished = home.split('id="h-finished"')
    assert game_id not in in_progress and game_id in finished


def test_viewer_without_secret_cannot_change(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client)
    other = app.test_client()
    html = other.get(f"/games/{game_id}").get_data(as_text=True)
    assert "/deals/new" not in html and "Edit deal" not in html
    assert (
        other.post(
            f"/games/{game_id}/deals/new", data=deal_form(we=CASE_B, they=CASE_B)
        ).status_code
        == 403
    )
    assert totals(client, game_id) == [0, 0]


def test_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.get("/games/nope").status_code == 404


def csrf_client(tmp_path: Any) -> tuple[FlaskClient, str]:
    """A client of an app with CSRF protection on (as served), and a new-game form's token."""
    from scorekeeper import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'c.sqlite'}",
        }
    )
    client = app.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    return client, token.group(1)


def new_game_data(csrf_token: str) -> dict[str, str]:
    return {
        "csrf_token": csrf_token,
        "sides-0-name": "We",
        "sides-1-name": "They",
        "target": "5000",
        **{f"players-{i}": n for i, n in enumerate(NAMES)},
    }


def test_csrf_is_required_on_forms(tmp_path: Any) -> None:
    client, token = csrf_client(tmp_path)
    response = client.post("/games/new", data={"sides-0-name": "We"})
    assert response.status_code == 400
    assert "nothing was saved" in response.get_data(as_text=True)
    assert client.post("/games/new", data=new_game_data(token)).status_code == 302


def test_csrf_token_survives_a_long_game_evening(tmp_path: Any, monkeypatch: Any) -> None:
    """A deal form opened at 8 pm still saves at 4 am (itsdangerous reads time.time())."""
    import time

    client, token = csrf_client(tmp_path)
    later = time.time() + 8 * 3600
    monkeypatch.setattr(time, "time", lambda: later)
    assert client.post("/games/new", data=new_game_data(token)).status_code == 302


def test_the_sheet_draws_the_running_totals(client: FlaskClient) -> None:
    game_id = new_game(client)
    assert "<svg" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    client.post(f"/games/{game_id}/deals/new", data=deal_form("0", we=CASE_A, they=CASE_B))
    client.post(f"/games/{game_id}/deals/new", data=deal_form(we=CASE_B, they=CASE_B))
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    # One line per side, from the start (0) through both deals: three points each.
    lines = re.findall(r'<polyline class="series series-\d side-\d" points="([^"]+)"', html)
    assert [len(points.split()) for points in lines] == [3, 3]
    # The text alternative says where the game stands: 1210 + 265 and 265 + 265.
    assert "After deal 2: We 1,475, They 530. The target is 5,000." in html


def test_a_browser_looking_for_a_favicon_finds_the_icon(client: FlaskClient) -> None:
    """Chromium asks for /favicon.ico on a page that names no icon (a static file opened
    on its own): the app's icon, not a 404 in the console; no cookie with it."""
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).lstrip().startswith("<svg")
    assert "Set-Cookie" not in response.headers
