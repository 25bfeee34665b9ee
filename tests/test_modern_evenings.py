"""Club evenings of the new partnership rule sets (RULES.md sections 13 to 15): Burraco for
4 players, Hand and Foot in 2 partnerships, Modern American; each table's deals scored by
its rule set, the standings from the tables' totals."""

from __future__ import annotations

from flask.testing import FlaskClient

from .helpers.api import get_game
from .helpers.evenings import deal, director, evening_form, new_evening

#: RULES.md section 15's worked deal: 785 and -55.
BURRACO_DEAL = [
    {"natural_canastas": 1, "mixed_canastas": 1, "went_out": True, "meld_points": 385},
    {"pot_missed": True, "meld_points": 140, "hand_points": 95},
]


def test_a_burraco_evening_records_a_tables_deal(client: FlaskClient) -> None:
    evening = director(client, new_evening(client, variant="burraco"))
    assert evening["variant"] == "burraco"
    table = evening["rounds"][0]["tables"][0]
    response = deal(client, table, BURRACO_DEAL)
    assert response.status_code == 201, response.get_json()
    assert [result["score"] for result in response.get_json()["results"]] == [785, -55]
    game = get_game(client, table["game"])
    assert game["variant"] == "burraco" and [s["total"] for s in game["sides"]] == [785, -55]
    # A Burraco figure under another rule set's name is refused at the table as anywhere.
    refused = deal(client, table, [{"concealed": True, "meld_points": 100}, {}])
    assert refused.status_code == 422
    assert "results.0.concealed" in refused.get_json()["fields"]
    second = deal(client, table, BURRACO_DEAL[::-1])
    assert second.status_code == 201
    # Two deals a round: the table is done, 730 to 730 (785 - 55 each way): a draw.
    after = director(client, evening)
    done = after["rounds"][0]["tables"][0]
    assert done["status"] == "finished"
    standings = {tuple(s["players"]): s for s in after["standings"]}
    for side in game["sides"]:
        standing = standings[tuple(side["players"])]
        assert (standing["drawn"], standing["difference"]) == (1, 0)


def test_a_hand_and_foot_evening_seats_two_partnerships_a_table(client: FlaskClient) -> None:
    evening = director(client, new_evening(client, variant="hand-and-foot", deals_per_round=6))
    table = evening["rounds"][0]["tables"][0]
    assert len(table["sides"]) == 2
    for number in range(1, 5):
        response = deal(client, table, [{"meld_points": 200, "hand_points": 50}, {}])
        assert response.status_code == 201, response.get_json()
        # The minimum goes by the deal at a club table too: 50, 90, 120, 150.
        minimum = response.get_json()["results"][0]["meld_minimum"]
        assert minimum == [50, 90, 120, 150][number - 1]
    # Hand and Foot is four deals, even where the round allows six.
    game = get_game(client, table["game"])
    assert (game["status"], game["winner"]) == ("finished", 0)
    assert deal(client, table, [{"meld_points": 100}, {}]).status_code == 409


def test_the_new_evening_page_makes_an_american_evening(client: FlaskClient) -> None:
    response = client.post("/evenings/new", data=evening_form(variant="american"))
    assert response.status_code == 302, response.get_data(as_text=True)
    evening_id = response.headers["Location"].rsplit("/", 1)[1]
    body = client.get(f"/api/evenings/{evening_id}").get_json()
    assert body["variant"] == "american"
