"""A club season's pages (issue 44): a new season with the default points table, the season's
page (its evenings, its ladder beside the ratings, the chart of places), its director's
points table, and the new-evening page's choice of season."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from .helpers.evenings import FIRST_WINS, evening_body, evening_form, play_round

pytestmark = pytest.mark.one_database


def new_season_page(client: FlaskClient, name: str = "Winter 2027", **points: str) -> str:
    """A season made on its page (this client its director); its address."""
    data: dict[str, object] = {"name": name}
    data["points"] = list(points.values()) if points else [str(p) for p in DEFAULT]
    response = client.post("/seasons/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return str(response.headers["Location"])


DEFAULT = [12, 10, 8, 7, 6, 5, 4, 3, 2, 1]


def played_season(client: FlaskClient) -> tuple[str, list[str]]:
    """A season (made through the API) of two finished evenings; its id and theirs."""
    season = client.post("/api/seasons", json={"name": "Autumn"}).get_json()
    evenings = []
    for name in ("First Tuesday", "Second Tuesday"):
        body = evening_body(name=name, rounds=1, season=season["id"], season_token=season["token"])
        evening = client.post("/api/evenings", json=body).get_json()
        play_round(client, evening, FIRST_WINS)
        evenings.append(evening["id"])
    return season["id"], evenings


def test_the_new_season_page_fills_in_the_default_table(client: FlaskClient) -> None:
    html = client.get("/seasons/new").get_data(as_text=True)
    values = re.findall(r'<input id="points-\d+" name="points" value="([^"]*)"', html)
    assert values[:10] == [str(p) for p in DEFAULT] and set(values[10:]) == {""}
    # Numbers are typed on a numeric keypad.
    assert html.count('inputmode="numeric"') == len(values)


def test_a_season_made_on_its_page_is_directed_by_this_phone(client: FlaskClient) -> None:
    season = new_season_page(client, a="25", b="18", c="15")
    html = client.get(season).get_data(as_text=True)
    assert "Winter 2027" in html
    assert "Save the points table" in html
    assert "25, 18, 15 season points" in html and "The default table is" in html
    # Another phone reads the season and changes nothing.
    other = client.application.test_client()
    assert "Save the points table" not in other.get(season).get_data(as_text=True)
    season_id = season.rsplit("/", 1)[1]
    assert other.post(f"/seasons/{season_id}/points", data={"points": ["1"]}).status_code == 403


def test_a_place_scoring_more_than_the_one_above_is_refused_beside_its_box(
    client: FlaskClient,
) -> None:
    response = client.post("/seasons/new", data={"name": "Spring", "points": ["10", "12", "8"]})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.search(r'id="points-1"[^>]*aria-invalid="true"', html)
    assert "Place 2 cannot score more than place 1 (10)." in html
    # As typed, for the director to correct.
    assert re.findall(r'name="points" value="(\d+)"', html) == ["10", "12", "8"]


def test_the_director_changes_the_points_table(client: FlaskClient) -> None:
    season = new_season_page(client)
    season_id = season.rsplit("/", 1)[1]
    assert "This is the default table." in client.get(season).get_data(as_text=True)
    response = client.post(f"/seasons/{season_id}/points", data={"points": ["3", "2", "1", ""]})
    assert response.status_code == 302
    html = client.get(season).get_data(as_text=True)
    assert "3, 2, 1 season points" in html
    assert client.get(f"/api/seasons/{season_id}").get_json()["points"] == [3, 2, 1]
    refused = client.post(f"/seasons/{season_id}/points", data={"points": ["3", "x"]})
    assert refused.status_code == 422
    assert "Place 2 scores a whole number of points" in refused.get_data(as_text=True)


def test_the_season_page_lists_its_evenings_ladder_and_chart(client: FlaskClient) -> None:
    season_id, evenings = played_season(client)
    html = client.get(f"/seasons/{season_id}").get_data(as_text=True)
    for evening_id in evenings:
        assert f'href="/evenings/{evening_id}"' in html
    ladder = client.get(f"/api/seasons/{season_id}").get_json()["ladder"]
    rows = re.findall(
        r'<th scope="row" class="ladder-who">([^<]+)</th>\s*<td class="num"><strong>(\d+)',
        html,
    )
    assert rows == [(" &amp; ".join(line["players"]), str(line["points"])) for line in ladder]
    # What it measures, beside the ratings; what each place scores, the default said.
    assert "The season ladder measures who placed well" in html
    assert 'href="/players/ladder"' in html
    assert "This is the default table." in html
    # The chart: a line per pair of the ladder's top, two evenings across.
    chart = html[html.index("<svg") : html.index("</svg>")]
    assert chart.count('<polyline class="series') == 5
    assert "Places at each evening" in chart


def test_the_season_page_answers_304_until_a_table_changes(client: FlaskClient) -> None:
    season = client.post("/api/seasons", json={"name": "Autumn"}).get_json()
    body = evening_body(rounds=1, season=season["id"], season_token=season["token"])
    evening = client.post("/api/evenings", json=body).get_json()
    page = f"/seasons/{season['id']}"
    etag = client.get(page).headers["ETag"]
    assert client.get(page, headers={"If-None-Match": etag}).status_code == 304
    play_round(client, evening, FIRST_WINS)
    again = client.get(page, headers={"If-None-Match": etag})
    assert again.status_code == 200
    assert again.headers["ETag"] != etag


def test_the_new_evening_page_offers_the_seasons_this_phone_directs(client: FlaskClient) -> None:
    assert 'name="season"' not in client.get("/evenings/new").get_data(as_text=True)
    season = new_season_page(client)
    season_id = season.rsplit("/", 1)[1]
    html = client.get("/evenings/new").get_data(as_text=True)
    start = html.index('name="season"')
    select = html[start : html.index("</select>", start)]
    assert "Winter 2027" in select
    # None by default.
    assert '<option selected value="">' in select
    # The season's page links to a new evening in it, chosen.
    linked = client.get(f"/evenings/new?season={season_id}").get_data(as_text=True)
    assert re.search(rf'<option selected value="{season_id}">', linked)
    response = client.post("/evenings/new", data=evening_form(season=season_id))
    assert response.status_code == 302, response.get_data(as_text=True)
    evening_id = response.headers["Location"].rsplit("/", 1)[1]
    listed = client.get(f"/api/seasons/{season_id}").get_json()["evenings"]
    assert [e["id"] for e in listed] == [evening_id]
    # A phone that does not direct the season cannot put an evening in it.
    other = client.application.test_client()
    refused = other.post("/evenings/new", data=evening_form(season=season_id))
    assert refused.status_code == 403
    assert len(client.get(f"/api/seasons/{season_id}").get_json()["evenings"]) == 1


def test_an_unknown_season_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/seasons/no-such-season")
    assert response.status_code == 404
    assert "There is no such season." in response.get_data(as_text=True)
