"""Movements of a club evening through the API and the pages (issue 43, part 2): a Mitchell
keeps half the pairs at their tables and moves the others one table up; a round robin meets
every pair with every other once, over as many rounds as that takes; the table cards say
where each pair goes next; a movement the evening cannot play is refused naming the field."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import Json, assert_error, auth, counts
from .helpers.evenings import (
    FIRST_WINS,
    deal,
    director,
    evening_body,
    evening_form,
    page_tables,
)

EIGHT = [
    ["Ana", "Boris"],
    ["Vera", "Goran"],
    ["Dana", "Ivo"],
    ["Mila", "Petar"],
    ["Sara", "Toni"],
    ["Lena", "Marko"],
    ["Nada", "Oleg"],
    ["Rosa", "Stefan"],
]


def made(client: FlaskClient, **changes: Any) -> Json:
    response = client.post("/api/evenings", json=evening_body(**changes))
    assert response.status_code == 201, response.get_json()
    body: Json = response.get_json()
    return body


def next_round(client: FlaskClient, evening: Json) -> Json:
    """Every table of the current round plays its deals; the next round is seated."""
    current = director(client, evening)
    for table in current["rounds"][-1]["tables"]:
        for _ in range(current["deals_per_round"]):
            assert deal(client, table, FIRST_WINS).status_code == 201
    started = client.post(f"/api/evenings/{evening['id']}/rounds", headers=auth(evening["token"]))
    assert started.status_code == 201, started.get_json()
    return director(client, evening)


def seats(round_: Json) -> list[list[tuple[str, ...]]]:
    """Each table's pairs, in seat order."""
    return [[tuple(side["players"]) for side in table["sides"]] for table in round_["tables"]]


def test_a_mitchell_keeps_half_the_pairs_and_moves_the_others_one_table_up(
    client: FlaskClient,
) -> None:
    evening = made(client, pairs=EIGHT, movement="mitchell")
    assert evening["movement"] == "mitchell"
    first = seats(evening["rounds"][0])
    assert len(first) == 4 and evening["rounds"][0]["byes"] == []
    second = seats(next_round(client, evening)["rounds"][1])
    third = seats(next_round(client, evening)["rounds"][2])
    for table in range(4):
        # The pair first at each table stays there, in the same seat, every round.
        assert second[table][0] == third[table][0] == first[table][0]
        # The other pair of table t is at table t + 1 next round (the last to the first).
        assert second[(table + 1) % 4][1] == first[table][1]
        assert third[(table + 2) % 4][1] == first[table][1]
    # Three rounds on four tables: no two pairs meet twice.
    meetings = [frozenset(pairs) for round_ in (first, second, third) for pairs in round_]
    assert len(set(meetings)) == len(meetings) == 12


def test_a_round_robin_takes_as_many_rounds_as_every_meeting_needs(client: FlaskClient) -> None:
    evening = made(client, movement="round_robin", rounds=None)
    assert evening["planned_rounds"] == 5  # five pairs: five rounds, one bye each
    everyone = director(client, evening)
    for _ in range(4):
        everyone = next_round(client, evening)
    met = [frozenset(pair) for round_ in everyone["rounds"] for pair in seats(round_)]
    pairs = [tuple(pair) for pair in evening_body()["pairs"]]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(two) for two in combinations(pairs, 2)), key=sorted
    )
    byes = [tuple(bye) for round_ in everyone["rounds"] for bye in round_["byes"]]
    assert sorted(byes) == sorted(pairs)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"movement": "mitchell", "format": "individual", "pairs": None,
          "players": [name for pair in EIGHT for name in pair]}, "movement"),
        ({"movement": "round_robin", "variant": "classic-6x3",
          "pairs": [["A", "B"], ["C", "D"], ["E", "F"], ["G", "H"], ["I", "J"], ["K", "L"]]},
         "movement"),
        ({"movement": "howell"}, "movement"),
        ({"movement": "swiss", "rounds": None}, "rounds"),
        ({"movement": "mitchell", "rounds": None}, "rounds"),
    ],
)  # fmt: skip
def test_a_movement_the_evening_cannot_play_is_refused(
    client: FlaskClient, app: Flask, changes: Json, field: str
) -> None:
    body = {key: value for key, value in evening_body(**changes).items() if value is not None}
    answer = client.post("/api/evenings", json=body)
    assert_error(answer, 422)
    assert field in answer.get_json()["fields"], answer.get_json()
    assert counts(app) == (0, 0, 0)  # no evening, so no table's game


def test_the_table_cards_say_where_each_pair_goes_next(client: FlaskClient) -> None:
    eight = "\n".join(", ".join(pair) for pair in EIGHT)
    made_here = client.post("/evenings/new", data=evening_form(players=eight, movement="mitchell"))
    assert made_here.status_code == 302, made_here.get_data(as_text=True)
    evening = made_here.headers["Location"]
    last = [tuple(side["players"]) for side in page_tables(client, evening)[3]["sides"]]
    cards = client.get(f"{evening}/cards").get_data(as_text=True)
    stays, moves = (" &amp; ".join(pair) for pair in last)
    assert f"Next round: {stays} stay at this table." in cards
    # The last table's moving pair goes round to table 1.
    assert f"Next round: {moves} move to table 1." in cards
    assert cards.count("Next round:") == 8
    assert "a Mitchell" in client.get(evening).get_data(as_text=True)
    swiss = client.post("/evenings/new", data=evening_form(name="Swiss night"))
    assert "Next round:" not in client.get(f"{swiss.headers['Location']}/cards").get_data(
        as_text=True
    )


def test_the_new_evening_page_offers_the_movements(client: FlaskClient) -> None:
    page = client.get("/evenings/new").get_data(as_text=True)
    for value in ("swiss", "mitchell", "round_robin"):
        assert f'value="{value}"' in page
    # A refusal shows the round robin's length for the pairs typed (six: five rounds).
    six = "\n".join(", ".join(pair) for pair in EIGHT[:6])
    refused = client.post(
        "/evenings/new",
        data=evening_form(players=six, movement="round_robin", rounds="", deals_per_round="0"),
    )
    assert refused.status_code == 422
    assert "A round robin of 6 pairs takes 5 rounds." in refused.get_data(as_text=True)
    created = client.post(
        "/evenings/new", data=evening_form(players=six, movement="round_robin", rounds="")
    )
    assert created.status_code == 302, created.get_data(as_text=True)
    evening_id = created.headers["Location"].rsplit("/", 1)[1]
    # An individual evening cannot move pairs: said at the movement's field.
    alone = evening_form(format="individual", players="A\nB\nC\nD\nE\nF\nG\nH")
    refused = client.post("/evenings/new", data={**alone, "movement": "mitchell"})
    assert refused.status_code == 422
    said = refused.get_data(as_text=True).split('id="err-movement"', 1)[1][:300]
    assert "moves pairs between tables of two sides" in said
    shown = client.get(f"/api/evenings/{evening_id}").get_json()
    assert (shown["movement"], shown["planned_rounds"]) == ("round_robin", 5)


def test_a_backup_keeps_the_movement(
    client: FlaskClient, app: Flask, other: Flask, tmp_path: Any
) -> None:
    evening = made(client, pairs=EIGHT, movement="mitchell")
    path = tmp_path / "club.json"
    assert app.test_cli_runner().invoke(args=["backup", str(path)]).exit_code == 0
    assert other.test_cli_runner().invoke(args=["restore", str(path)]).exit_code == 0
    there = other.test_client().get(f"/api/evenings/{evening['id']}").get_json()
    assert there["movement"] == "mitchell"
