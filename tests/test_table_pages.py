"""The family's most played tables on the pages a player touches during a game (issue 42):
Modern American Canasta, Hand and Foot and Burraco made on the new-game page, the worked
deals of RULES.md sections 13 to 15 typed into the deal form and read back from the score
sheet, the refusals each table is known for (named by their field), the sheet's rounds, and
the chart's minimums by deal."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient

from .helpers.history import words
from .helpers.pages import page_game

#: Each rule set's numbers on the pages, not the store's: on SQLite alone.
pytestmark = pytest.mark.one_database

Json = dict[str, Any]


def deal_data(out: int | None, *sides: Json) -> dict[str, str]:
    """The deal form's post: who went out, each side's figures (a box ticked as "y")."""
    data = {"went_out": "" if out is None else str(out)}
    for index, figures in enumerate(sides):
        for name, value in figures.items():
            if value is True:
                data[f"sides-{index}-{name}"] = "y"
            elif value not in (False, None):
                data[f"sides-{index}-{name}"] = str(value)
    return data


def sheet_scores(html: str) -> list[list[int]]:
    """Each deal's row of the score sheet: every side's score for it, as shown."""
    rows = re.findall(r'<tr><th scope="row">.*?</tr>', html, re.S)
    return [
        [int(score.replace(",", "").replace("+", "")) for score in found]
        for row in rows
        if (found := re.findall(r'class="deal-score">([-+]?[\d,]+)<', row))
    ]


@dataclass(frozen=True)
class Worked:
    """Worked deals of RULES.md as deal-form entries: who went out, each side's figures,
    and each side's score as RULES.md gives it."""

    variant: str
    deals: tuple[tuple[int | None, Json, Json, tuple[int, int]], ...]
    players: int = 4


# RULES.md section 13's table, two of its rows to a deal (its last row's other side is
# worked here: one natural canasta 500 + 200 melded - 50 in hand = 650; one canasta, so
# its threes would not count).
AMERICAN = Worked(
    "american",
    (
        (
            0,
            {
                "natural_canastas": 1,
                "mixed_canastas": 1,
                "red_threes": 2,
                "black_threes": 1,
                "meld_points": 420,
                "hand_points": 0,
            },
            {"mixed_canastas": 1, "red_threes": 1, "meld_points": 250, "hand_points": 60},
            (1720, 490),
        ),
        (
            None,
            {"red_threes": 1, "black_threes": 2, "meld_points": 180, "hand_points": 45},
            {
                "aces_canastas": 1,
                "natural_canastas": 1,
                "unfinished_wild": True,
                "meld_points": 500,
                "hand_points": 30,
            },
            (-625, 1470),
        ),
        (
            1,
            {"mixed_canastas": 1, "aces_or_sevens_held": 1, "meld_points": 210, "hand_points": 85},
            {"special_hand": "straight"},
            (-1075, 3000),
        ),
        (
            0,
            {
                "sevens_canastas": 1,
                "deuce_canastas": 1,
                "red_threes": 4,
                "meld_points": 450,
                "hand_points": 0,
            },
            {"natural_canastas": 1, "meld_points": 200, "hand_points": 50},
            (7050, 650),
        ),
    ),
)
HAND_AND_FOOT = Worked(
    "hand-and-foot",
    (
        (
            0,
            {
                "natural_canastas": 2,
                "mixed_canastas": 2,
                "wild_canastas": 1,
                "red_threes": 2,
                "meld_points": 1450,
                "hand_points": 0,
            },
            {
                "natural_canastas": 1,
                "mixed_canastas": 1,
                "red_threes": 1,
                "red_threes_in_hand": 1,
                "meld_points": 640,
                "hand_points": 215,
            },
            (4850, 1225),
        ),
    ),
)
BURRACO = Worked(
    "burraco",
    (
        (
            0,
            {"natural_canastas": 1, "mixed_canastas": 1, "meld_points": 385, "hand_points": 0},
            {"pot_missed": True, "meld_points": 140, "hand_points": 95},
            (785, -55),
        ),
    ),
)
# Burraco for two: the same deal, each side a player.
BURRACO_2 = Worked("burraco-2", BURRACO.deals, players=2)
WORKED = [AMERICAN, HAND_AND_FOOT, BURRACO, BURRACO_2]


@pytest.mark.parametrize("worked", WORKED, ids=[w.variant for w in WORKED])
def test_worked_deals_through_the_deal_form_score_as_the_rules_say(
    client: FlaskClient, worked: Worked
) -> None:
    """RULES.md sections 13 to 15, typed into the deal form: the live line shows each
    side's score and its parts, and the sheet each side's score for each deal."""
    game_id = page_game(client, worked.variant, worked.players)
    for out, first, second, expected in worked.deals:
        data = deal_data(out, first, second)
        preview = words(
            client.post(f"/games/{game_id}/deals/preview", data=data).get_data(as_text=True)
        )
        for score in expected:
            assert f"{score:+,}" in preview, preview
        saved = client.post(f"/games/{game_id}/deals/new", data=data)
        assert saved.status_code == 302, words(saved.get_data(as_text=True))[:3000]
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert sheet_scores(sheet) == [list(deal[3]) for deal in worked.deals]
    # The API says the same.
    game = client.get(f"/api/games/{game_id}").get_json()
    for deal, (_, _, _, expected) in zip(game["deals"], worked.deals, strict=True):
        assert [r["score"] for r in deal["results"]] == list(expected)


def test_the_parts_under_each_side_are_the_engines(client: FlaskClient) -> None:
    """RULES.md section 13's first deal: under each side, the parts that make its score."""
    game_id = page_game(client, "american")
    out, first, second, _ = AMERICAN.deals[0]
    html = client.post(
        f"/games/{game_id}/deals/preview", data=deal_data(out, first, second)
    ).get_data(as_text=True)
    parts = re.search(r'id="parts-0"[^>]*>(.*?)</p>', html, re.S)
    assert parts
    assert words(parts.group(1)) == ("canastas +800 · threes +400 · melded +420 · going out +100")
    second_side = re.search(r'id="parts-1"[^>]*>(.*?)</p>', html, re.S)
    assert second_side
    # One canasta: the threes are not counted (the swing), so they are not shown.
    assert words(second_side.group(1)) == "canastas +300 · melded +250 · in hand -60"


@pytest.mark.parametrize(
    ("variant", "out", "first", "field", "message"),
    [
        (
            "american",
            0,
            {"natural_canastas": 1, "meld_points": 200, "hand_points": 0},
            "went_out",
            "Going out needs 2 canastas on the side's table.",
        ),
        (
            "american",
            0,
            {
                "natural_canastas": 2,
                "unfinished_sevens": True,
                "meld_points": 300,
                "hand_points": 0,
            },
            "sides-0-unfinished_sevens",
            "A side cannot go out with this: Unfinished sevens meld.",
        ),
        (
            "hand-and-foot",
            0,
            {
                "natural_canastas": 2,
                "mixed_canastas": 1,
                "wild_canastas": 1,
                "meld_points": 800,
                "hand_points": 0,
            },
            "went_out",
            "Going out needs the contract: 2 × clean book, 2 × dirty book.",
        ),
        (
            "burraco",
            0,
            {"natural_canastas": 1, "pot_missed": True, "meld_points": 200, "hand_points": 0},
            "sides-0-pot_missed",
            "A side cannot go out with this: Pot never taken.",
        ),
    ],
    ids=[
        "american-one-canasta",
        "american-unfinished-sevens",
        "hand-and-foot-no-contract",
        "burraco-no-pot",
    ],
)
def test_each_tables_refusal_names_its_field(
    client: FlaskClient, variant: str, out: int, first: Json, field: str, message: str
) -> None:
    """Going out with one canasta (Modern American), without the contract (Hand and Foot),
    closing without the pot (Burraco): refused, the rule's words next to the field."""
    game_id = page_game(client, variant)
    data = deal_data(out, first, {"meld_points": 100, "hand_points": 40})
    refused = client.post(f"/games/{game_id}/deals/new", data=data)
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    slot = re.search(rf'id="err-{field}"[^>]*>(.*?)</div>', html, re.S)
    assert slot, field
    assert message in unescape(words(slot.group(1)))
    # The phone's queue of deals saved offline gets the same words by the field's name.
    answer = client.post(
        f"/games/{game_id}/deals/new", data=data, headers={"Accept": "application/json"}
    )
    assert answer.status_code == 422
    assert answer.get_json()["fields"] == {field: message}
    assert client.get(f"/api/games/{game_id}").get_json()["deals"] == []


def test_a_special_hand_beside_other_figures_is_refused(client: FlaskClient) -> None:
    game_id = page_game(client, "american")
    data = deal_data(
        1, {"meld_points": 200, "hand_points": 30}, {"special_hand": "pairs", "meld_points": 50}
    )
    refused = client.post(
        f"/games/{game_id}/deals/new", data=data, headers={"Accept": "application/json"}
    )
    assert refused.status_code == 422
    assert set(refused.get_json()["fields"]) == {"sides-1-meld_points"}


# The score sheet and the chart --------------------------------------------------------------

#: A round of Hand and Foot where nobody went out (the stock ran out): each side scores
#: its melded cards less its hands.
QUIET = {"natural_canastas": 1, "meld_points": 300, "hand_points": 100}  # 500+300-100 = 700


def badges(html: str) -> list[int]:
    return [int(m) for m in re.findall(r'class="badge"[^>]*>needs (\d+)<', html)]


def test_hand_and_foot_goes_by_rounds_to_a_winner(client: FlaskClient) -> None:
    """RULES.md section 14: the minimum goes by the round (50, 90, 120, 150) whatever the
    totals, the sheet says which of the 4 rounds comes next, and after the 4th the higher
    total wins; there is no target."""
    game_id = page_game(client, "hand-and-foot")
    sheet = words(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Deal 1 of 4" in sheet
    assert badges(client.get(f"/games/{game_id}").get_data(as_text=True)) == [50, 50]
    worked = HAND_AND_FOOT.deals[0]
    for number in range(1, 5):
        out, first, second, _ = worked if number != 2 else (None, QUIET, QUIET, ())
        saved = client.post(f"/games/{game_id}/deals/new", data=deal_data(out, first, second))
        assert saved.status_code == 302, words(saved.get_data(as_text=True))[:2000]
        html = client.get(f"/games/{game_id}").get_data(as_text=True)
        if number < 4:
            # The next round's minimum, the same for both sides though one is far ahead.
            assert badges(html) == [[90, 120, 150][number - 1]] * 2
            assert f"Deal {number + 1} of 4" in words(html)
    text = words(html)
    assert "We win with 15,250" in text  # 4850 × 3 + 700
    assert "The game ended after its 4 deals." in text
    assert "target" not in text.lower().replace("hx-target", "")
    game = client.get(f"/api/games/{game_id}").get_json()
    assert game["status"] == "finished" and game["winner"] == 0


def test_a_tie_after_the_last_round_is_a_draw(client: FlaskClient) -> None:
    game_id = page_game(client, "hand-and-foot", deals="1", meld_minimums_by_deal="50")
    saved = client.post(f"/games/{game_id}/deals/new", data=deal_data(None, QUIET, QUIET))
    assert saved.status_code == 302
    text = words(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "A draw at 700" in text
    assert client.get(f"/api/games/{game_id}").get_json()["winner"] is None


def chart_svg(html: str) -> str:
    return html[html.index("<svg") : html.index("</svg>")]


def test_the_chart_bands_go_by_deal_with_no_target_line(client: FlaskClient) -> None:
    """Hand and Foot's chart: a band down the chart for each round's minimum, the rounds to
    come included, and no target line (the game has none)."""
    game_id = page_game(client, "hand-and-foot")
    client.post(f"/games/{game_id}/deals/new", data=deal_data(None, QUIET, QUIET))
    svg = chart_svg(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert 'class="target"' not in svg
    assert "The target is" not in svg
    bands = re.findall(r'<rect class="band band-\d" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg)
    assert len(bands) == 4
    # Side by side, left to right, each a quarter of the plot.
    lefts = [float(x) for x, _ in bands]
    assert lefts == sorted(lefts)
    assert len({width for _, width in bands}) == 1
    labels = re.findall(r'<text class="band-label"[^>]*>([^<]+)</text>', svg)
    assert labels == ["needs 50", "needs 90", "needs 120", "needs 150"]


def test_a_classic_game_with_minimums_by_deal_ends_after_its_last(client: FlaskClient) -> None:
    """The house rule "minimum by deal" on a classic game: the listed deal's minimum, the
    deals left on the sheet, the end after the last listed deal; with "play on", the target."""
    game_id = page_game(client, "classic", meld_minimums_by_deal="125, 155, 180")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert badges(html) == [125, 125]
    assert "Deal 1 of 3" in words(html)
    small = {"mixed_canastas": 1, "meld_points": 150, "hand_points": 0}
    stuck = {"meld_points": 130, "hand_points": 45}
    for _ in range(3):
        client.post(f"/games/{game_id}/deals/new", data=deal_data(0, small, stuck))
    text = words(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "We win with 1,650" in text and "The game ended after its 3 deals." in text
    on = page_game(
        client, "classic", meld_minimums_by_deal="125, 155, 180", play_on="y", target="5000"
    )
    for _ in range(4):
        client.post(f"/games/{on}/deals/new", data=deal_data(0, small, stuck))
    html = client.get(f"/games/{on}").get_data(as_text=True)
    assert badges(html) == [180, 180]
    assert "Deal 5 · " in words(html)


def test_the_concealed_bonus_asks_concealed_on_the_deal_form(client: FlaskClient) -> None:
    """Modern American asks no "concealed" (no bonus for it) unless the house rule is on."""
    plain = page_game(client, "american")
    assert 'name="concealed"' not in client.get(f"/games/{plain}/deals/new").get_data(as_text=True)
    house = page_game(client, "american", concealed_going_out_bonus="100")
    form = client.get(f"/games/{house}/deals/new").get_data(as_text=True)
    assert 'name="concealed"' in form
    for variant in ("hand-and-foot", "burraco"):
        game_id = page_game(client, variant)
        page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
        assert 'name="concealed"' not in page


def test_the_deal_form_has_each_tables_figures(client: FlaskClient) -> None:
    """Each kind under the rule set's own name, threes by colour, the penalties as boxes
    and a stepper, the special hands, the pot; the card counter at Burraco's values."""
    labels = {}
    pages = {}
    for variant in ("american", "hand-and-foot", "burraco"):
        game_id = page_game(client, variant)
        pages[variant] = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
        labels[variant] = dict(
            re.findall(r'<label for="sides-0-([a-z_]+)">([^<]*)', pages[variant])
        )
    assert labels["american"]["aces_canastas"] == "Aces canastas"
    assert labels["american"]["black_threes"] == "Black threes"
    assert labels["american"]["red_threes"] == "Red threes"
    assert labels["american"]["unfinished_wild"].strip() == "Unfinished wild meld"
    assert re.search(
        r'<input[^>]*id="sides-1-unfinished_sevens"[^>]*type="checkbox"', pages["american"]
    )
    assert 'data-for="sides-1-aces_or_sevens_held"' in pages["american"]
    assert re.search(r'<select[^>]*id="sides-1-special_hand"', pages["american"])
    assert "Straight (3,000)" in pages["american"]
    assert labels["hand-and-foot"]["natural_canastas"] == "Clean books"
    assert labels["hand-and-foot"]["mixed_canastas"] == "Dirty books"
    assert labels["hand-and-foot"]["red_threes"] == "Red threes laid down"
    assert labels["hand-and-foot"]["red_threes_in_hand"] == "Red threes left in hand or foot"
    assert "black_threes" not in labels["hand-and-foot"]
    assert labels["burraco"]["natural_canastas"] == "Clean burracos"
    assert labels["burraco"]["pot_missed"].strip() == "Pot never taken"
    assert "red_threes" not in labels["burraco"]
    assert "special_hand" not in labels["burraco"]
    # Burraco's card values on the counter: joker 30, ace 15, 7 to 3 at 5.
    assert 'data-count-points="30"' in pages["burraco"]
    assert 'data-count-points="15"' in pages["burraco"]
    assert 'data-count-points="50"' not in pages["burraco"]
    assert 'data-count-points="50"' in pages["american"]


def test_no_badge_where_the_first_meld_needs_nothing(client: FlaskClient) -> None:
    """Burraco has no initial-meld minimum: the sheet shows no "needs 0"."""
    game_id = page_game(client, "burraco")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert badges(html) == []
    assert "needs 0" not in html
