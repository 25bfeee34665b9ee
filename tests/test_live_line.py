"""The live line under the deal form is the store's dry run of the save (``preview_deal``):
what it shows for an entry is what the save then records, for the next deal and for an
edited one, and it is refused as the save would be; nothing it does is written."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import VARIANTS, SideResult, figures_of
from scorekeeper.store import changes
from scorekeeper.store.errors import Refused, Why

from .helpers.api import auth, get_game, new_game, post_deal, put_deal
from .helpers.evenings import FIRST_WINS, director, new_evening
from .helpers.pages import deal_form
from .helpers.strategies import Deal, deals

#: What a classic deal asks of each side, as the API takes it.
FIGURES = figures_of(VARIANTS["classic"])

#: One deal: the first side out with a natural canasta, the second caught with 30 in hand.
OUT_AND_IN = (
    SideResult(meld_points=120, natural_canastas=1, went_out=True),
    SideResult(hand_points=30),
)


def as_json(side: SideResult) -> dict[str, object]:
    return {name: getattr(side, name) for name in FIGURES}


def shown(app: Flask, game_id: str, token: str, deal: Deal, number: int | None = None) -> object:
    with app.app_context():
        played = changes.preview_deal(game_id, deal, secret=token, number=number)
    assert played.line is not None
    return played.line.scores, played.line.totals, played.finished, played.winner


def kept(client: FlaskClient, game_id: str, number: int, starts: tuple[int, int]) -> object:
    """Deal ``number`` as the game keeps it: scores, totals after it, whether the game
    ended with it and who won."""
    game = get_game(client, game_id)
    totals = list(starts)
    for earlier in game["deals"][:number]:
        for side in earlier["results"]:
            totals[side["side"]] += side["score"]
    scores = tuple(side["score"] for side in game["deals"][number - 1]["results"])
    ended = game["status"] == "finished" and len(game["deals"]) == number
    return scores, tuple(totals), ended, game["winner"] if ended else None


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(played=st.lists(deals(), min_size=1, max_size=5), edit=st.data())
def test_the_live_line_shows_what_the_save_records(
    app: Flask, client: FlaskClient, played: list[Deal], edit: st.DataObject
) -> None:
    """Deal by deal, the dry run's scores, totals and ending are the recorded deal's; an
    edited deal's dry run is the game after the edit, whatever later deals it moves."""
    starts = (4000, 4000)
    game_id, token = new_game(client, starts=starts)
    for number, deal in enumerate(played, start=1):
        expected = shown(app, game_id, token, deal)
        answer = post_deal(client, game_id, token, *map(as_json, deal))
        assert answer.status_code == 201, answer.get_json()
        assert kept(client, game_id, number, starts) == expected
        if expected[2]:  # the game ended with this deal
            break
    recorded = len(get_game(client, game_id)["deals"])
    number = edit.draw(st.integers(1, recorded))
    deal = edit.draw(deals())
    with app.app_context():
        try:
            dry = changes.preview_deal(game_id, deal, secret=token, number=number)
        except Refused as refusal:
            # Deals would follow the game's end: the save refuses it too.
            assert refusal.why is Why.CONFLICT
            assert put_deal(client, game_id, token, number, *map(as_json, deal)).status_code == 409
            return
    assert dry.line is not None
    ended = dry.finished, dry.winner
    edited = put_deal(client, game_id, token, number, *map(as_json, deal))
    assert edited.status_code == 200, edited.get_json()
    assert kept(client, game_id, number, starts) == (dry.line.scores, dry.line.totals, *ended)


def test_the_dry_run_writes_nothing(app: Flask, client: FlaskClient) -> None:
    game_id, token = new_game(client)
    before = get_game(client, game_id)
    deal = (
        SideResult(meld_points=120, natural_canastas=1, went_out=True),
        SideResult(hand_points=30),
    )
    with app.app_context():
        changes.preview_deal(game_id, deal, secret=token)
    assert get_game(client, game_id) == before


def test_an_edit_at_a_club_table_shows_the_round_ending(client: FlaskClient) -> None:
    """A club table's round ends at its last deal: editing that deal, the live line says
    how the round's game would end (the page's own replay forgot the round's length)."""
    evening = director(client, new_evening(client))
    table = evening["rounds"][0]["tables"][0]
    for _ in range(2):
        answer = client.post(
            f"/api/games/{table['game']}/deals",
            json={"results": FIRST_WINS},
            headers=auth(table["token"]),
        )
        assert answer.status_code == 201, answer.get_json()
    assert (
        client.post(f"/games/{table['game']}/join", data={"token": table["token"]}).status_code
        == 302
    )
    # Deal 2 corrected: the second side went out with the natural canasta.
    data = deal_form(
        "1",
        we={"meld_points": 100, "hand_points": 50},
        they={"meld_points": 300, "natural_canastas": 1},
    )
    html = client.post(f"/games/{table['game']}/deals/preview?number=2", data=data).get_data(
        as_text=True
    )
    line = html.split('id="err-')[0]
    # 950 to 950 after the correction: the round's game is drawn.
    assert "The round would end in a draw." in line, line


def test_the_live_line_refuses_an_edit_of_a_deal_changed_meanwhile(client: FlaskClient) -> None:
    """The edit form shows deal 1 at version 1; another phone changed it since: the live
    line says so before the save is tried, as the save would."""
    game_id, token = new_game(client)
    first = [
        as_json(SideResult(meld_points=120, natural_canastas=1, went_out=True)),
        as_json(SideResult(hand_points=30)),
    ]
    assert post_deal(client, game_id, token, *first).status_code == 201
    assert put_deal(client, game_id, token, 1, *first).status_code == 200  # now version 2
    assert client.post(f"/games/{game_id}/join", data={"token": token}).status_code == 302
    data = deal_form("0", we={"meld_points": 120, "natural_canastas": 1}, they={"hand_points": 30})
    page = client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True)
    seq = re.search(r'name="seq"[^>]*value="(\d+)"', page) or re.search(
        r'value="(\d+)"[^>]*name="seq"', page
    )
    assert seq
    stale = {**data, "seq": seq.group(1), "version": "1"}
    html = client.post(f"/games/{game_id}/deals/preview?number=1", data=stale).get_data(
        as_text=True
    )
    assert "was changed on another phone meanwhile" in html
    fresh = {**data, "seq": seq.group(1), "version": "2"}
    html = client.post(f"/games/{game_id}/deals/preview?number=1", data=fresh).get_data(
        as_text=True
    )
    assert "was changed on another phone" not in html
    assert 'class="preview-line"' in html
