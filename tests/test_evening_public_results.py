"""An evening's public results (issue 44): ``GET /api/evenings/<id>/results`` shows the
evening without a secret, whoever asks, and answers 304 while it stands still; the page
``/evenings/<id>/results`` shows the standings the API gives, every table's deals as its
sheet keeps them, and a code to share that opens the page; the history lists evenings.
The standings as files: tests/test_evening_files.py."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from .helpers.api import Json, assert_error, auth, result
from .helpers.evenings import (
    FIRST_WINS,
    SECOND_WINS,
    deal,
    director,
    new_evening,
    new_evening_page,
)
from .helpers.qr import code_address, coded_path, decode, svg_image

#: A deal that leaves the first side below zero: 100 melded, 150 left in hand.
FIRST_BELOW = [result(100, hand=150), result(300, natural=1, went_out=True)]


def played(client: FlaskClient, **changes: Any) -> Json:
    """An evening of five pairs with round 1 played (table 1: the first side twice; table 2:
    one deal each way, the second going below zero) and round 2 begun (one deal at its
    first table); as its director reads it, with its token."""
    evening = director(client, new_evening(client, **changes))
    first, second = evening["rounds"][0]["tables"]
    for results in (FIRST_WINS, FIRST_WINS):
        assert deal(client, first, results).status_code == 201
    for results in (SECOND_WINS, FIRST_BELOW):
        assert deal(client, second, results).status_code == 201
    started = client.post(
        f"/api/evenings/{evening['id']}/rounds",
        json={"force": True},
        headers={**auth(evening["token"]), "Idempotency-Key": "round-2"},
    )
    assert started.status_code == 201, started.get_json()
    evening = director(client, evening)
    assert deal(client, evening["rounds"][1]["tables"][0], FIRST_WINS).status_code == 201
    return director(client, evening)


def secrets_of(evening: Json) -> list[str]:
    """Every secret the director's read holds: the evening's and each table's."""
    found = [evening["token"]]
    for round_ in evening["rounds"]:
        for table in round_["tables"]:
            found += [
                table["token"],
                *([table["confirm_token"]] if "confirm_token" in table else []),
            ]
    return found


def test_the_results_show_the_evening_with_no_secret_even_to_its_director(
    client: FlaskClient,
) -> None:
    evening = played(client, confirmations=True)
    path = f"/api/evenings/{evening['id']}/results"
    plain = client.get(path)
    as_director = client.get(path, headers=auth(evening["token"]))
    assert plain.status_code == as_director.status_code == 200
    body = plain.get_json()
    assert as_director.get_json() == body
    text = json.dumps(body)
    assert '"token"' not in text and '"confirm_token"' not in text
    assert not [secret for secret in secrets_of(evening) if secret in text]
    # The evening as a reader reads it, with the address of its results page.
    reader = client.get(f"/api/evenings/{evening['id']}").get_json()
    assert body["url"] == f"/evenings/{evening['id']}/results"
    assert {**body, "url": reader["url"]} == reader
    assert body["round"] == 2 and len(body["rounds"][0]["tables"]) == 2
    assert min(line["difference"] for line in body["standings"]) < 0
    # No such evening: a 404 with the error's shape, as the evening's own read.
    for evening_id in ("nosuchevening0000000000", "x" * 40):
        assert_error(client.get(f"/api/evenings/{evening_id}/results"), 404)
        assert client.get(f"/evenings/{evening_id}/results").status_code == 404


def test_the_results_answer_304_until_a_deal_is_recorded(client: FlaskClient, app: Flask) -> None:
    evening = played(client)
    path = f"/api/evenings/{evening['id']}/results"
    reader = app.test_client()
    first = reader.get(path)
    etag = first.headers["ETag"]
    cache = first.headers["Cache-Control"]
    assert "public" in cache and "no-cache" in cache and "private" not in cache
    assert reader.get(path, headers={"If-None-Match": etag}).status_code == 304
    table = evening["rounds"][1]["tables"][0]
    assert deal(client, table, SECOND_WINS).status_code == 201
    moved = reader.get(path, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    deals = [t["deals"] for t in moved.get_json()["rounds"][1]["tables"]]
    assert deals[0] == 2


# --- the page ---------------------------------------------------------------------------


def signed(score: int) -> str:
    """A deal's score as the English sheet writes it: +1,210, -320, 0."""
    return ("+" if score > 0 else "") + f"{score:,}"


def words(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


def standings_on(html: str) -> list[tuple[str, int]]:
    """The page's standings: each line's names and its ranking figure (in bold)."""
    table = html.split('aria-label="Standings"', 1)[1].split("</table>", 1)[0]
    found = re.findall(
        r'<th scope="row" class="standing-who">([^<]+)</th>\s*<td class="num"><strong>(-?\d+)',
        table,
    )
    return [(unescape(names), int(points)) for names, points in found]


def sheet_rows(html: str, game_id: str) -> list[list[tuple[str, str]]]:
    """A table's sheet on the page: per deal, each side's score and running total."""
    part = html.split(f'id="h-table-{game_id}"', 1)[1].split("</table>", 1)[0]
    body = part.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        re.findall(
            r'<span class="deal-score">([^<]+)</span> <span class="total-after">([^<]+)</span>',
            row,
        )
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
        if "deal-score" in row
    ]


def test_the_page_shows_the_standings_of_the_api_and_every_tables_deals(
    client: FlaskClient, app: Flask
) -> None:
    evening = played(client, scoring={"victory_points": "burraco-3"})
    reader = app.test_client()  # a phone with only the address
    page = reader.get(f"/evenings/{evening['id']}/results")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    results = reader.get(f"/api/evenings/{evening['id']}/results").get_json()
    assert standings_on(html) == [
        (" & ".join(line["players"]), line["victory_points"]) for line in results["standings"]
    ]
    for round_ in results["rounds"]:
        for table in round_["tables"]:
            game = reader.get(f"/api/games/{table['game']}").get_json()
            totals = [0] * len(game["sides"])
            expected = []
            for one in game["deals"]:
                scores = [side["score"] for side in one["results"]]
                totals = [t + s for t, s in zip(totals, scores, strict=True)]
                expected.append(
                    [(signed(s), f"{t:,}") for s, t in zip(scores, totals, strict=True)]
                )
            assert sheet_rows(html, table["game"]) == expected, table
    # Every round and table, each side's total and (finished) victory points.
    text = words(html)
    assert "Round 1" in text and "Round 2" in text
    finished = results["rounds"][0]["tables"][1]
    vps = [side["victory_points"] for side in finished["sides"]]
    assert all(f"{vp} VP" in text for vp in vps)
    assert "Sitting out" in text
    # Nothing of a secret: no scorer link, whoever reads it.
    assert "/join#" not in html and "Bearer" not in html


def test_the_share_code_opens_the_results_page(client: FlaskClient, app: Flask) -> None:
    evening = new_evening_page(client)
    path = evening + "/results"
    reader = app.test_client()
    html = reader.get(path).get_data(as_text=True)
    code = code_address(html)
    assert coded_path(code) == path
    svg = reader.get(code).get_data(as_text=True)
    assert decode(svg_image(svg)) == ["http://localhost" + path]
    assert f'<a href="{path}">http://localhost{path}</a>' in html  # the link beside it
    # The director's page leads to it and to the files.
    director_page = client.get(evening).get_data(as_text=True)
    for target in ("/results", "/standings.csv", "/standings.xlsx"):
        assert f'href="{evening}{target}"' in director_page, target


def test_the_history_lists_evenings_newest_first_each_to_its_results(
    client: FlaskClient,
) -> None:
    older = new_evening(client, name="Monday club")
    newer = new_evening(client, name="Friday club")
    html = client.get("/history").get_data(as_text=True)
    part = html.split('id="h-evenings"', 1)[1]
    links = re.findall(r'href="(/evenings/[^"]+/results)"', part)
    assert links[:2] == [f"/evenings/{newer['id']}/results", f"/evenings/{older['id']}/results"]
    assert words(part).index("Friday club") < words(part).index("Monday club")
    assert "Round 1 of 3" in words(part)


def evening_links(html: str) -> list[str]:
    """The results pages the history's evenings link to, in its order."""
    if 'id="h-evenings"' not in html:
        return []
    part = html.split('id="h-evenings"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'href="/evenings/([^"/]+)/results"', part)


def test_the_historys_filters_narrow_its_evenings_too(client: FlaskClient) -> None:
    """Asking for one player's games lists the evenings that player came to (a round's
    bye too), not every evening of the club; a rule set, the days and a search narrow
    them likewise."""
    monday = new_evening(client, name="Monday club")
    others = [["Lea", "Oto"], ["Nina", "Rade"], ["Ema", "Filip"], ["Iva", "Jan"]]
    friday = new_evening(client, name="Friday club", pairs=others, variant="samba")
    page = client.get("/history").get_data(as_text=True)
    assert evening_links(page) == [friday["id"], monday["id"]]
    ana = re.search(r'<option value="(\d+)"[^>]*>Ana</option>', page)
    lea = re.search(r'<option value="(\d+)"[^>]*>Lea</option>', page)
    assert ana and lea

    def listed(query: str) -> list[str]:
        response = client.get(f"/history?{query}")
        assert response.status_code == 200
        return evening_links(response.get_data(as_text=True))

    assert listed(f"player={ana[1]}") == [monday["id"]]
    assert listed(f"player={lea[1]}") == [friday["id"]]
    assert listed("variant=samba") == [friday["id"]]
    assert listed("variant=bolivia") == []
    assert listed("q=monday") == [monday["id"]]
    assert listed("q=nina") == [friday["id"]]
    assert listed("since=2000-01-01&until=2000-01-02") == []


def test_the_history_lists_the_newest_evenings_and_says_how_many_more(
    client: FlaskClient,
) -> None:
    made = [new_evening(client, name=f"Club {number}")["id"] for number in range(22)]
    html = client.get("/history").get_data(as_text=True)
    assert evening_links(html) == made[::-1][:20]
    assert "The newest 20 of 22 evenings" in words(html)
