"""Club evenings through the JSON API and the director's pages: a new evening, a deal at a
table, the director's view (the same steps as tests/test_evenings_api.py and
tests/test_evening_pages.py take)."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from .api import Json, auth, result

PAIRS = [["Ana", "Boris"], ["Vera", "Goran"], ["Dana", "Ivo"], ["Mila", "Petar"], ["Sara", "Toni"]]
#: One deal: the first side out with a natural canasta (+900), the second +50.
FIRST_WINS = [result(300, natural=1, went_out=True), result(100, hand=50)]
SECOND_WINS = [result(100, hand=50), result(300, natural=1, went_out=True)]


def evening_body(**changes: Any) -> Json:
    """A pairs evening of classic: five pairs (two tables and a bye), three rounds of two
    deals."""
    body: Json = {
        "name": "Tuesday club",
        "variant": "classic",
        "format": "pairs",
        "pairs": PAIRS,
        "rounds": 3,
        "deals_per_round": 2,
        "minutes_per_round": 50,
    }
    return {**body, **changes}


def new_evening(client: FlaskClient, **changes: Any) -> Json:
    """The evening of ``evening_body`` made through the API, with its director's token."""
    response = client.post("/api/evenings", json=evening_body(**changes))
    assert response.status_code == 201, response.get_json()
    # It holds the director's secret: kept by no cache.
    assert response.headers["Cache-Control"] == "private, no-store"
    made: Json = response.get_json()
    return made


def deal(client: FlaskClient, table: Json, results: list[Json]) -> Any:
    """A deal recorded at a table (its scorer token)."""
    return client.post(
        f"/api/games/{table['game']}/deals", json={"results": results}, headers=auth(table["token"])
    )


def director(client: FlaskClient, evening: Json) -> Json:
    """The evening as its director reads it (each table with its scorer token)."""
    response = client.get(f"/api/evenings/{evening['id']}", headers=auth(evening["token"]))
    assert response.status_code == 200
    body: Json = response.get_json()
    return {**body, "token": evening["token"]}


def evening_form(**changes: str) -> dict[str, str]:
    """The new-evening page's form of ``evening_body``'s evening."""
    form = {
        "name": "Tuesday club",
        "variant": "classic",
        "format": "pairs",
        "players": "\n".join(", ".join(pair) for pair in PAIRS),
        "rounds": "3",
        "deals_per_round": "2",
        "minutes_per_round": "50",
    }
    return {**form, **changes}


def new_evening_page(client: FlaskClient) -> str:
    """An evening made on the new-evening page (this client its director); its address."""
    response = client.post("/evenings/new", data=evening_form())
    assert response.status_code == 302, response.get_data(as_text=True)
    return str(response.headers["Location"])


def page_tables(client: FlaskClient, evening: str) -> list[Json]:
    """The current round's tables of an evening made on the page, with their scorer
    tokens (the director's link holds the secret)."""
    html = client.get(f"{evening}/director-link").get_data(as_text=True)
    found = re.search(r'<a href="http://localhost/evenings/[^"#]+/join#([^"]+)"', html)
    assert found, html
    evening_id = evening.rsplit("/", 1)[1]
    body = client.get(f"/api/evenings/{evening_id}", headers=auth(found.group(1))).get_json()
    return list(body["rounds"][-1]["tables"])


#: One deal that leaves both sides level: a draw at the table.
LEVEL = [result(100), result(100)]


def play_round(client: FlaskClient, evening: Json, results: list[Json]) -> None:
    """Every table of the current round plays the round's deals, each ``results``."""
    current = evening["rounds"][-1]
    for table in current["tables"]:
        for _ in range(evening["deals_per_round"]):
            assert deal(client, table, results).status_code == 201
