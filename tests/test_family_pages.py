"""The Canasta family on the pages (issue 30): Samba, Bolivia, Cuban and Uruguay games made
on the new-game page, their deals recorded through the deal form and the API (RULES.md
section 10.6), the form's steppers and black threes, the rules pages, the change log, the
statistics, export and import, backups."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.rules import VARIANTS, figures_of
from scorekeeper.rules.scoring import INTEGER_FIELDS

from .helpers.api import CASE_A, CASE_B, assert_error, get_game, post_deal, scores
from .helpers.api import minimums as api_minimums
from .helpers.api import totals as api_totals
from .helpers.history import person_id, words
from .helpers.pages import NAMES, totals

#: Each rule set's numbers on the pages, not the store's: on SQLite alone.
pytestmark = pytest.mark.one_database

Json = dict[str, Any]


@dataclass(frozen=True)
class Worked:
    """Worked examples of RULES.md section 10.6 as deals: each side's figures (by the API's
    names; side 0 goes out), the scores, and the minimums the sheet then shows."""

    variant: str
    deals: tuple[tuple[Json, Json], ...]
    scores: tuple[tuple[int, int], ...]
    minimums: tuple[int, int]
    #: The steppers of the deal form, by figure, with their labels.
    steppers: Json = field(default_factory=dict)
    concealed: bool = False

    @property
    def totals(self) -> list[int]:
        return [sum(deal[side] for deal in self.scores) for side in (0, 1)]


SAMBA = Worked(
    "samba",
    (
        (
            {"meld_points": 400, "sequence_canastas": 1, "natural_canastas": 1, "red_threes": 2},
            {"meld_points": 180, "mixed_canastas": 1, "red_threes": 1, "hand_points": 45},
        ),
    ),
    ((2800, 335),),
    (90, 50),
    {
        "natural_canastas": "Natural canastas",
        "mixed_canastas": "Mixed canastas",
        "sequence_canastas": "Sambas",
    },
)
BOLIVIA = Worked(
    "bolivia",
    (
        (
            {"meld_points": 500, "sequence_canastas": 1, "wild_canastas": 1, "red_threes": 1},
            {
                "meld_points": 200,
                "natural_canastas": 1,
                "black_threes_in_hand": 2,
                "hand_points": 60,
            },
        ),
    ),
    ((4800, 440),),
    (120, 50),
    {
        "natural_canastas": "Natural canastas",
        "mixed_canastas": "Mixed canastas",
        "sequence_canastas": "Escaleras",
        "wild_canastas": "Bolivias",
        "black_threes_in_hand": "Black threes in hand",
    },
)
# Cuban's A and B list 3 and 2 red threes: more than the 4 of two packs in one deal, so
# each is a deal of its own, beside a side worked out by hand: 60 melded - 25 in hand = 35;
# a mixed canasta 300 + going out 100 + 120 melded = 520.
CUBAN = Worked(
    "cuban",
    (
        (
            {
                "meld_points": 400,
                "natural_canastas": 1,
                "deuce_canastas": 1,
                "red_threes": 3,
                "black_threes_taken": 4,
            },
            {"meld_points": 60, "hand_points": 25},
        ),
        (
            {"meld_points": 120, "mixed_canastas": 1},
            {"meld_points": 90, "red_threes": 2, "hand_points": 35},
        ),
    ),
    ((5600, 35), (520, -245)),
    (150, 15),
    {
        "natural_canastas": "Natural canastas",
        "mixed_canastas": "Mixed canastas",
        "deuce_canastas": "Seven-twos canastas",
        "joker_canastas": "Four-jokers canastas",
        "wild_canastas": "Wild canastas",
        "black_threes_taken": "Black threes taken",
    },
)
# Uruguay's other side, by hand (RULES.md section 10.4: classic's red threes, plus for a
# side that melded): one red three 100 + 120 melded - 40 in hand = 180.
URUGUAY = Worked(
    "uruguay",
    (
        (
            {"meld_points": 300, "wild_canastas": 1, "natural_canastas": 1},
            {"meld_points": 120, "red_threes": 1, "hand_points": 40},
        ),
    ),
    ((3000, 180),),
    (120, 50),
    {
        "natural_canastas": "Natural canastas",
        "mixed_canastas": "Mixed canastas",
        "wild_canastas": "Wild canastas",
    },
    concealed=True,
)
FAMILY = [SAMBA, BOLIVIA, CUBAN, URUGUAY]
BY_ID = pytest.mark.parametrize("worked", FAMILY, ids=[w.variant for w in FAMILY])

#: Every stepper a deal form may have, besides red threes (always there).
STEPPERS = {
    *(name for name in INTEGER_FIELDS if name.endswith("_canastas")),
    "black_threes_in_hand",
    "black_threes_taken",
}


def new_family_game(client: FlaskClient, variant: str, **extra: Any) -> str:
    """A game of ``variant`` made through the new-game form (as tests/helpers/pages.py
    makes a classic one), with the rule set's own target; returns its id."""
    data = {
        "sides-0-name": "We",
        "sides-1-name": "They",
        **{f"players-{i}": name for i, name in enumerate(NAMES)},
        "first_dealer": "0",
        "target": str(VARIANTS[variant].target),
        **{key: str(value) for key, value in extra.items()},
    }
    response = client.post(f"/games/new?variant={variant}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.fullmatch(r"/games/([\w-]+)", response.headers["Location"])
    assert match
    return match.group(1)


def form_data(worked: Worked, deal: int = 0) -> dict[str, str]:
    data = {"went_out": "0"}
    if worked.concealed:
        data["concealed"] = "y"
    for index, figures in enumerate(worked.deals[deal]):
        for name, value in figures.items():
            data[f"sides-{index}-{name}"] = str(value)
    return data


def api_results(worked: Worked, deal: int = 0) -> list[Json]:
    first, second = worked.deals[deal]
    return [{**first, "went_out": True, "concealed": worked.concealed}, second]


def api_game(client: FlaskClient, variant: str) -> tuple[str, str]:
    body = {
        "variant": variant,
        "sides": [
            {"name": "Us", "players": ["Ana", "Boris"]},
            {"name": "Them", "players": ["Vera", "Goran"]},
        ],
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    game: Json = response.get_json()
    return game["id"], game["token"]


def badges(html: str) -> list[int]:
    """The minimums on the sides' totals (not the chart's bands)."""
    return [int(m) for m in re.findall(r'class="badge[^"]*"[^>]*>needs (\d+)<', html)]


@BY_ID
def test_new_game_page_offers_the_rule_set_with_its_seat_draw(
    client: FlaskClient, worked: Worked
) -> None:
    home = client.get("/games/new").get_data(as_text=True)
    assert f'href="/games/new?variant={worked.variant}"' in home
    page = client.get(f"/games/new?variant={worked.variant}").get_data(as_text=True)
    assert "Draw for seats" in page
    assert f'name="target" type="text" value="{VARIANTS[worked.variant].target}"' in page or (
        f'value="{VARIANTS[worked.variant].target}"' in page
    )
    # The draw seats the players and picks the first dealer, as in every partnership game.
    cards = ["AS", "KS", "QS", "JS"]
    data = {
        "draw": "1",
        **{f"players-{i}": name for i, name in enumerate(NAMES)},
        **{f"cards-{i}-rank": card[0] for i, card in enumerate(cards)},
        **{f"cards-{i}-suit": card[1] for i, card in enumerate(cards)},
        **{f"cards-{i}-seat": str(i) for i in range(4)},
        "target": str(VARIANTS[worked.variant].target),
    }
    drawn = client.post(f"/games/new?variant={worked.variant}", data=data)
    assert drawn.status_code == 200
    assert "Seated by the draw." in drawn.get_data(as_text=True)


@BY_ID
def test_worked_example_through_the_deal_form(client: FlaskClient, worked: Worked) -> None:
    """RULES.md section 10.6, typed into the deal form: the live line's scores, then the
    totals and the minimums the sheet shows."""
    game_id = new_family_game(client, worked.variant)
    for number, expected in enumerate(worked.scores):
        preview = client.post(f"/games/{game_id}/deals/preview", data=form_data(worked, number))
        line = words(preview.get_data(as_text=True))
        for score in expected:
            assert f"{score:+,}".replace("+-", "-") in line, line
        saved = client.post(f"/games/{game_id}/deals/new", data=form_data(worked, number))
        assert saved.status_code == 302, words(saved.get_data(as_text=True))
    assert totals(client, game_id) == worked.totals
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert badges(sheet) == list(worked.minimums)
    game = get_game(client, game_id)
    assert game["variant"] == worked.variant
    assert [scores(deal) for deal in game["deals"]] == [list(s) for s in worked.scores]
    assert api_minimums(game) == list(worked.minimums)


@BY_ID
def test_worked_example_through_the_api(client: FlaskClient, worked: Worked) -> None:
    game_id, token = api_game(client, worked.variant)
    for number, expected in enumerate(worked.scores):
        response = post_deal(client, game_id, token, *api_results(worked, number))
        assert response.status_code == 201, response.get_json()
        assert scores(response.get_json()) == list(expected)
    game = get_game(client, game_id)
    assert api_totals(game) == worked.totals
    assert api_minimums(game) == list(worked.minimums)
    # The sheet shows what the API recorded.
    assert totals(client, game_id) == worked.totals
    assert badges(client.get(f"/games/{game_id}").get_data(as_text=True)) == list(worked.minimums)


@BY_ID
def test_the_form_has_the_rule_sets_steppers_and_no_others(
    client: FlaskClient, worked: Worked
) -> None:
    game_id = new_family_game(client, worked.variant)
    page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    labels = dict(re.findall(r'<label for="sides-0-([a-z_]+)">([^<]*)</label>', page))
    shown = {name for name in labels if name in STEPPERS}
    assert shown == set(worked.steppers), labels
    for name, label in worked.steppers.items():
        assert labels[name] == label
        # A count on the numeric keypad, with - and + beside it, for each side.
        for side in (0, 1):
            assert re.search(rf'<input[^>]*id="sides-{side}-{name}"[^>]*inputmode="numeric"', page)
            assert f'data-for="sides-{side}-{name}"' in page
    assert set(worked.steppers) <= set(figures_of(VARIANTS[worked.variant]))


def test_black_three_figures_have_their_hints(client: FlaskClient) -> None:
    bolivia = client.get(f"/games/{new_family_game(client, 'bolivia')}/deals/new").get_data(
        as_text=True
    )
    assert "Black threes left in hand: -100 each, not in the hand points." in bolivia
    assert 'aria-describedby="err-sides-1-black_threes_in_hand hint-black_threes_in_hand"' in (
        bolivia
    )
    assert 'id="sides-0-black_threes_taken"' not in bolivia
    cuban = client.get(f"/games/{new_family_game(client, 'cuban')}/deals/new").get_data(
        as_text=True
    )
    assert "Black threes found in piles taken: 5 each, 100 for all 4." in cuban
    assert 'id="sides-0-black_threes_in_hand"' not in cuban
    for variant in ("samba", "uruguay", "classic"):
        page = client.get(f"/games/{new_family_game(client, variant)}/deals/new").get_data(
            as_text=True
        )
        assert 'id="sides-0-black_threes' not in page and 'id="hint-black_threes' not in page


def test_the_live_line_shows_the_black_three_part(client: FlaskClient) -> None:
    game_id = new_family_game(client, "bolivia")
    line = words(
        client.post(f"/games/{game_id}/deals/preview", data=form_data(BOLIVIA)).get_data(
            as_text=True
        )
    )
    assert "black threes -200" in line
    game_id = new_family_game(client, "cuban")
    line = words(
        client.post(f"/games/{game_id}/deals/preview", data=form_data(CUBAN)).get_data(as_text=True)
    )
    assert "black threes +100" in line and "canastas +4,500" in line


def test_black_threes_in_a_classic_game_are_refused_naming_the_field(
    client: FlaskClient,
) -> None:
    game_id, token = api_game(client, "classic")
    first, second = api_results(BOLIVIA)
    response = post_deal(client, game_id, token, {**first, "sequence_canastas": 0}, second)
    body = assert_error(response, 422, "results.1.black_threes_in_hand")
    assert "black threes" in body["fields"]["results.1.black_threes_in_hand"]
    assert get_game(client, game_id)["deals"] == []


def test_an_edit_of_a_family_figure_is_named_in_the_change_log(client: FlaskClient) -> None:
    game_id = new_family_game(client, "samba")
    client.post(f"/games/{game_id}/deals/new", data=form_data(SAMBA))
    edited = form_data(SAMBA)
    edited["sides-0-sequence_canastas"] = "2"
    edited["sides-0-meld_points"] = "450"
    assert client.post(f"/games/{game_id}/deals/1/edit", data=edited).status_code == 302
    log = words(client.get(f"/games/{game_id}/changes").get_data(as_text=True))
    assert "We, Sambas 1 → 2" in log
    game_id = new_family_game(client, "cuban")
    client.post(f"/games/{game_id}/deals/new", data=form_data(CUBAN))
    edited = form_data(CUBAN)
    edited["sides-0-black_threes_taken"] = "3"
    assert client.post(f"/games/{game_id}/deals/1/edit", data=edited).status_code == 302
    log = words(client.get(f"/games/{game_id}/changes").get_data(as_text=True))
    assert "We, Black threes taken 4 → 3" in log


def test_a_game_made_on_the_page_has_the_new_house_options(client: FlaskClient) -> None:
    page = client.get("/games/new?variant=cuban").get_data(as_text=True)
    for label in ("Seven twos", "Four jokers and three twos", "All 4 black threes taken"):
        assert label in page
    game_id = new_family_game(
        client,
        "cuban",
        deuce_canasta_bonus=3500,
        black_three_taken_bonus=10,
        all_black_threes_taken_bonus=200,
        canastas_to_go_out=2,
    )
    options = get_game(client, game_id)["options"]
    assert options["deuce_canasta_bonus"] == 3500
    assert options["black_three_taken_bonus"] == 10
    assert options["all_black_threes_taken_bonus"] == 200
    assert options["canastas_to_go_out"] == 2
    page = client.get("/games/new?variant=bolivia").get_data(as_text=True)
    assert ">Escalera<" in page and ">Bolivia<" in page
    game_id = new_family_game(client, "bolivia", black_three_penalty=50, wild_canasta_bonus=3000)
    options = get_game(client, game_id)["options"]
    assert options["black_three_penalty"] == 50 and options["wild_canasta_bonus"] == 3000
    samba = client.get("/games/new?variant=samba").get_data(as_text=True)
    assert ">Samba<" in samba and 'name="black_three_penalty"' not in samba
    # An option the rule set has no field for is not offered, nor taken.
    classic = new_family_game(client, "classic", black_three_penalty=50)
    assert "black_three_penalty" not in get_game(client, classic)["options"]


def test_canastas_to_go_out_out_of_range_is_refused_by_its_field(client: FlaskClient) -> None:
    data = {
        "sides-0-name": "We",
        "sides-1-name": "They",
        **{f"players-{i}": name for i, name in enumerate(NAMES)},
        "first_dealer": "0",
        "target": "15000",
        "canastas_to_go_out": "0",
    }
    response = client.post("/games/new?variant=bolivia", data=data)
    assert response.status_code == 422


RULES_PAGE = {
    "samba": ["Samba", "1,500", "one suit in a row", "10,000", "7,000 or more", "160", "2"],
    "bolivia": ["Escalera", "Bolivia", "2,500", "-100", "among them: escalera", "15,000"],
    "cuban": [
        "Seven-twos canasta",
        "4,000",
        "Four-jokers canasta",
        "3,000",
        "any other 7 wild cards",
        "3 red threes to one side",
        "always frozen",
        "+100",
        "5,000 or more",
    ],
    "uruguay": ["Wild canasta", "2,000", "always frozen", "melded alone"],
}


@pytest.mark.parametrize("variant", list(RULES_PAGE))
def test_the_rules_page_shows_the_canasta_names_and_numbers(
    client: FlaskClient, variant: str
) -> None:
    text = words(client.get(f"/rules/{variant}").get_data(as_text=True))
    for expected in RULES_PAGE[variant]:
        assert expected in text, (expected, text)
    game_id = new_family_game(client, variant)
    game_text = words(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    for expected in RULES_PAGE[variant]:
        assert expected in game_text
    assert "/rules/" + variant in client.get("/rules").get_data(as_text=True)


def test_red_threes_are_worded_by_the_canastas_they_need(client: FlaskClient) -> None:
    samba = words(client.get("/rules/samba").get_data(as_text=True))
    assert "Red threes count plus for a side that has melded at least 2 canastas" in samba
    classic = words(client.get("/rules/classic").get_data(as_text=True))
    assert "A side that melded nothing scores its red threes as a minus." in classic
    railroad = words(client.get("/rules/railroad").get_data(as_text=True))
    assert "Red threes never count as a minus" in railroad
    cuban = words(client.get("/rules/cuban").get_data(as_text=True))
    assert "Each red three" not in cuban  # the table says every count


def test_statistics_count_sambas(client: FlaskClient, app: Flask) -> None:
    game_id = new_family_game(client, "samba")
    client.post(f"/games/{game_id}/deals/new", data=form_data(SAMBA))
    second = form_data(SAMBA)
    second["sides-0-sequence_canastas"] = "2"
    second["sides-0-meld_points"] = "450"
    client.post(f"/games/{game_id}/deals/new", data=second)
    ana = words(client.get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True))
    # Ana sat for We: 3 sambas in 2 deals.
    # Sambas only: Bolivia's escalera is none of hers (issue 40).
    assert "Sequence canastas per deal (samba) 1.50" in ana
    assert "Natural canastas per deal 1.00" in ana
    vera = words(client.get(f"/players/{person_id(app, 'Vera')}").get_data(as_text=True))
    assert "Sequence canastas per deal" not in vera
    assert "Mixed canastas per deal 1.00" in vera


def test_wild_canastas_are_named_by_the_rule_sets_they_were_made_in(
    client: FlaskClient, app: Flask
) -> None:
    """A wild canasta of Uruguay (or Cuban Canasta) is a wild canasta, not a "bolivia":
    the row names what the rule sets of the player's own games call it (issue 40)."""
    game_id = new_family_game(client, "uruguay")
    client.post(f"/games/{game_id}/deals/new", data=form_data(URUGUAY))
    ana = words(client.get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True))
    # Ana sat for We: 1 wild canasta in 1 deal, called a wild canasta by the row itself.
    assert "Wild canastas per deal 1.00" in ana
    assert "bolivia" not in ana.casefold()
    game_id = new_family_game(client, "bolivia")
    client.post(f"/games/{game_id}/deals/new", data=form_data(BOLIVIA))
    ana = words(client.get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True))
    # Now one of each: Bolivia's own name beside Uruguay's, over 2 deals.
    assert "Wild canastas per deal (bolivia, wild) 1.00" in ana
    assert "Sequence canastas per deal (escalera) 0.50" in ana


@BY_ID
def test_export_then_import_gives_the_same_scores(client: FlaskClient, worked: Worked) -> None:
    game_id = new_family_game(client, worked.variant)
    for number in range(len(worked.deals)):
        client.post(f"/games/{game_id}/deals/new", data=form_data(worked, number))
    document = client.get(f"/api/games/{game_id}/export").get_json()
    figures = document["deals"][0]["results"][0]
    for name, value in worked.deals[0][0].items():
        assert figures[name] == value
    imported = client.post("/api/games/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = get_game(client, imported.get_json()["id"])
    original = get_game(client, game_id)
    assert copy["deals"] == original["deals"]
    assert api_totals(copy) == worked.totals


#: The figures issue 30 added: an older export or backup has none of them.
NEW_FIGURES = (
    "sequence_canastas",
    "deuce_canastas",
    "joker_canastas",
    "black_threes_in_hand",
    "black_threes_taken",
)


def without_new_figures(value: Any) -> Any:
    """A document as it was written before issue 30: no family figure anywhere in it (its
    deals, its change log)."""
    if isinstance(value, dict):
        return {k: without_new_figures(v) for k, v in value.items() if k not in NEW_FIGURES}
    if isinstance(value, list):
        return [without_new_figures(v) for v in value]
    return value


def test_an_export_without_the_new_figures_still_imports(client: FlaskClient) -> None:
    """An export written before issue 30 (a classic game, no family figures) imports."""
    game_id, token = api_game(client, "classic")
    case_a = {"meld_points": 220, "natural_canastas": 1, "mixed_canastas": 1, "red_threes": 1}
    case_b = {"meld_points": 150, "red_threes": 2, "hand_points": 85}
    out = {**case_a, "hand_points": 10, "went_out": True}
    assert post_deal(client, game_id, token, out, case_b).status_code == 201
    document = without_new_figures(client.get(f"/api/games/{game_id}/export").get_json())
    assert not any(name in json.dumps(document) for name in NEW_FIGURES)
    imported = client.post("/api/games/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    assert api_totals(get_game(client, imported.get_json()["id"])) == [1210, 265]


def test_a_backup_carries_the_family_figures(
    client: FlaskClient, runner: FlaskCliRunner, other: Flask, tmp_path: Path
) -> None:
    games = {}
    for worked in FAMILY:
        game_id, token = api_game(client, worked.variant)
        assert post_deal(client, game_id, token, *api_results(worked)).status_code == 201
        games[game_id] = get_game(client, game_id)
    path = tmp_path / "family.json"
    done = runner.invoke(args=["backup", str(path)])
    assert done.exit_code == 0, done.output
    backup = json.loads(path.read_text())
    cuban = next(g for g in backup["games"] if g["variant"] == "cuban")
    assert cuban["deals"][0]["results"][0]["black_threes_taken"] == 4
    assert cuban["deals"][0]["results"][0]["deuce_canastas"] == 1
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    there = other.test_client()
    for game_id, game in games.items():
        assert get_game(there, game_id) == game


def test_a_backup_without_the_family_figures_still_restores(
    client: FlaskClient, runner: FlaskCliRunner, other: Flask, tmp_path: Path
) -> None:
    game_id, token = api_game(client, "classic")
    response = post_deal(client, game_id, token, CASE_A, CASE_B)
    assert response.status_code == 201
    path = tmp_path / "old.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    path.write_text(json.dumps(without_new_figures(json.loads(path.read_text()))))
    assert not any(name in path.read_text() for name in NEW_FIGURES)
    done = other.test_cli_runner().invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    assert api_totals(get_game(other.test_client(), game_id)) == [1210, 265]
    # Its change log reads as before (the figures it lacks were 0).
    log = other.test_client().get(f"/games/{game_id}/changes").get_data(as_text=True)
    assert "Deal 1 recorded" in words(log)


def test_the_chart_draws_the_family_tiers(client: FlaskClient) -> None:
    """The chart's bands follow the rule set's tiers: Samba's 160 from 7000."""
    game_id, token = api_game(client, "samba")
    big = {"meld_points": 4000, "natural_canastas": 4, "mixed_canastas": 3, "went_out": True}
    for _ in range(2):
        response = post_deal(client, game_id, token, big, {"meld_points": 0, "hand_points": 5})
        assert response.status_code == 201, response.get_json()
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    chart = sheet[sheet.index('<figure class="chart">') :]
    assert "needs 160" in chart
    game_id, token = api_game(client, "cuban")
    for _ in range(2):
        response = post_deal(client, game_id, token, big, {"meld_points": 0, "hand_points": 5})
        assert response.status_code == 201, response.get_json()
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "needs 150" in sheet[sheet.index('<figure class="chart">') :]


def test_going_out_without_an_escalera_is_refused_naming_it_as_one(client: FlaskClient) -> None:
    """The deal form's message for Bolivia's one kind reads as a sentence about one
    (issue 40: "at least one of these: escalera")."""
    game_id = new_family_game(client, "bolivia")
    data = form_data(BOLIVIA)
    data["sides-0-sequence_canastas"] = "0"
    data["sides-0-natural_canastas"] = "2"
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 422
    text = words(response.get_data(as_text=True))
    assert "Going out needs one escalera." in text
    assert "at least one of these" not in text
