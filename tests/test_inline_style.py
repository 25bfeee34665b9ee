"""A whole page carries its stylesheet inline (issue 45): its first paint waits for no
request. The CSP allows that text by its hash and no other inline style; a boosted htmx
answer, whose head htmx leaves alone, and a part of a page carry none."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .helpers.pages import new_game, style_source

pytestmark = pytest.mark.one_database  # the pages' markup: on SQLite alone

STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)
LINKED = re.compile(r'<link rel="stylesheet" href="(/static/app\.[0-9a-f]{10}\.css)">')
BOOSTED = {"HX-Request": "true", "HX-Boosted": "true"}


def sources(csp: str) -> list[str]:
    """The sources of the CSP's style-src."""
    (directive,) = [d.strip() for d in csp.split(";") if d.strip().startswith("style-src ")]
    return directive.split()[1:]


def test_a_whole_page_carries_the_stylesheet_the_csp_allows_by_hash(
    client: FlaskClient, app: Flask
) -> None:
    game_id = new_game(client)
    for path in ("/", f"/games/{game_id}", "/history", "/rules"):
        page = client.get(path)
        html = page.get_data(as_text=True)
        styles = STYLE.findall(html)
        assert len(styles) == 1, path
        assert styles[0] == app.extensions["assets"].files["app.css"].body.decode()
        assert html.index("<style>") < html.index("</head>")
        assert not LINKED.search(html), path  # nothing left to fetch before the first paint
        csp = page.headers["Content-Security-Policy"]
        assert sources(csp) == ["'self'", style_source(styles[0])]
        assert "unsafe-inline" not in csp
        assert "HX-Boosted" in page.headers["Vary"]


def test_a_boosted_answer_names_the_file_instead(client: FlaskClient) -> None:
    game_id = new_game(client)
    for path in ("/", f"/games/{game_id}", "/history"):
        page = client.get(path, headers=BOOSTED)
        html = page.get_data(as_text=True)
        assert "<style" not in html, path
        linked = LINKED.search(html)
        assert linked, path
        # The file it names is the same stylesheet, as a phone that kept the copy fetches it.
        css = client.get(linked[1])
        assert css.status_code == 200 and css.mimetype == "text/css"
        assert "HX-Boosted" in page.headers["Vary"]


def test_a_part_of_a_page_carries_no_style(client: FlaskClient) -> None:
    game_id = new_game(client)
    part = client.get(f"/games/{game_id}", headers={"HX-Request": "true"})
    assert part.status_code == 200
    html = part.get_data(as_text=True)
    assert "<style" not in html and "<head" not in html
