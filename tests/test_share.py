"""The share panel's QR codes on the server's side (issue 22): drawn as SVG the page's CSP
allows, the follower's code for anyone, the scorer's only for the scorer and kept by no
cache; the address comes from the request's host."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import content_security_policy
from scorekeeper.web.share import LONGEST_PATH

from .helpers.api import new_game
from .helpers.pages import new_game as new_game_form
from .helpers.qr import code_address, coded_path

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

#: What a page's CSP refuses in markup: style attributes and elements, scripts, handlers.
UNSAFE = re.compile(r"<style|\sstyle=|<script|\son\w+=|javascript:", re.IGNORECASE)


def policy(client: FlaskClient) -> str:
    """The app's own CSP (a view that set none answers with it)."""
    return content_security_policy(client.application.extensions["assets"].style_hash())


def test_the_follower_code_is_an_svg_of_the_sheets_address(client: FlaskClient) -> None:
    game_id = new_game_form(client)
    sheet = client.get(f"/games/{game_id}", base_url="http://192.168.1.20:5000")
    html = sheet.get_data(as_text=True)
    assert sheet.headers["Content-Security-Policy"] == policy(client)
    src = code_address(html)
    assert coded_path(src) == f"/games/{game_id}"
    assert f">http://192.168.1.20:5000/games/{game_id}</a>" in html  # written under it
    # The panel is kept rendered, per host: a phone that reached this computer by another
    # address reads that one, in the same process, right after.
    again = client.get(f"/games/{game_id}", base_url="http://10.0.0.7:5000").get_data(as_text=True)
    assert f">http://10.0.0.7:5000/games/{game_id}</a>" in again and "192.168.1.20" not in again

    image = client.get(src, base_url="http://192.168.1.20:5000")
    assert image.status_code == 200 and image.mimetype == "image/svg+xml"
    assert image.headers["Content-Security-Policy"] == policy(client)
    assert "public" in image.headers["Cache-Control"]
    svg = image.get_data(as_text=True)
    # Sharp at any size: a viewBox and no fixed size; dark modules on a light quiet zone.
    assert re.match(r'<svg [^>]*viewBox="0 0 (\d+) \1"', svg)
    assert " width=" not in svg.split(">", 1)[0] and " height=" not in svg.split(">", 1)[0]
    assert 'fill="#fff" d="M0 0h' in svg and 'stroke="#000"' in svg
    assert not UNSAFE.search(svg)
    # Another host, another code: the address is the one the phone reached.
    assert client.get(src, base_url="http://10.0.0.7:5000").get_data(as_text=True) != svg


@pytest.mark.parametrize(
    "path",
    [
        "",
        "games/x",
        "//evil.example/x",
        "http://evil.example/",
        "/games/x#secret",
        "/a b",
        "/\\evil.example",
        "/" + "x" * LONGEST_PATH,
    ],
)
def test_codes_are_of_this_apps_addresses_only(client: FlaskClient, path: str) -> None:
    """No code of another site (a phone trusts a code shown by this app), nor of a scorer
    link (its code comes from the scorer's own page only)."""
    assert client.get("/code.svg", query_string={"path": path}).status_code == 404


def test_the_scorer_code_only_on_the_scorers_tap_and_never_cached(
    client: FlaskClient, app: Flask
) -> None:
    game_id = new_game_form(client)  # this client created it: it keeps score
    sheet = client.get(f"/games/{game_id}")
    html = sheet.get_data(as_text=True)
    assert sheet.headers["Cache-Control"] == "private, no-store"
    assert "/join#" not in html and "<svg" not in html
    assert "Show the scorer code" in html

    shown = client.get(f"/games/{game_id}/scorer-code", headers={"HX-Request": "true"})
    assert shown.status_code == 200
    assert shown.headers["Cache-Control"] == "private, no-store"
    assert shown.headers["Content-Security-Policy"] == policy(client)
    part = shown.get_data(as_text=True)
    link = re.search(r'<a href="(http://localhost/games/[^"#]+/join#[^"]+)"', part)
    assert link and link.group(1).startswith(f"http://localhost/games/{game_id}/join#")
    svg = part[part.index("<svg") : part.index("</svg>")]
    assert 'viewBox="0 0 ' in svg and not UNSAFE.search(svg)
    assert "Whoever scans this code can record, change and delete deals" in part

    follower = app.test_client()
    assert follower.get(f"/games/{game_id}/scorer-code").status_code == 403
    follower_html = follower.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Show the scorer code" not in follower_html and "scorer-code" not in follower_html
    assert "Share this game" in follower_html  # a follower shares the follower code
    assert client.get("/games/nope/scorer-code").status_code == 404


def test_the_api_token_is_never_in_a_sheet(client: FlaskClient, app: Flask) -> None:
    game_id, token = new_game(client)
    scorer = app.test_client()
    assert scorer.post(f"/games/{game_id}/join", data={"token": token}).status_code == 302
    assert token not in scorer.get(f"/games/{game_id}").get_data(as_text=True)


@pytest.mark.parametrize(
    "path",
    [
        "/rules",
        "/rules/railroad?players=3",
        "/check",
        "/check/meld?variant=classic-2",
        "/check/initial-meld",
        "/check/pickup",
        "/check/going-out",
        "/history?variant=classic",
    ],
)
def test_rule_pages_tools_and_history_share_their_own_address(
    client: FlaskClient, path: str
) -> None:
    html = client.get(path).get_data(as_text=True)
    assert "Share this page" in html
    assert coded_path(code_address(html)) == path
    assert f">http://localhost{path}</a>" in html.replace("&amp;", "&")


@pytest.mark.parametrize("language", ["mk", "ru", "sk"])
def test_the_share_panel_speaks_the_players_language(client: FlaskClient, language: str) -> None:
    game_id = new_game_form(client)
    client.get(f"/language/{language}")
    english = ("Share this game", "Show the scorer code", "Whoever scans", "QR code of")
    for page in (f"/games/{game_id}", f"/games/{game_id}/scorer-code", "/rules"):
        html = client.get(page).get_data(as_text=True)
        assert not [words for words in english if words in html], (language, page)


def scorer_of(client: FlaskClient, host: str) -> str:
    """A new game made through the page on ``host``: the client keeps its score there (a
    cookie is its host's)."""
    form = {"sides-0-name": "We", "sides-1-name": "They", "first_dealer": "0", "target": "5000"}
    form.update({f"players-{i}": name for i, name in enumerate(["Ana", "Vera", "Boris", "Goran"])})
    created = client.post("/games/new", data=form, headers={"Host": host})
    assert created.status_code == 302, created.get_data(as_text=True)
    return created.headers["Location"].rsplit("/", 1)[1]


@pytest.mark.parametrize(
    ("config", "host"),
    [
        ({"SERVER_NAME": "scores.example.org"}, "scores.example.org"),
        ({"TRUSTED_HOSTS": [".example.org", "scores.example.org", "evil.example"]}, None),
    ],
)
def test_the_links_handed_out_take_the_configured_host(
    app: Flask, config: dict[str, object], host: str | None
) -> None:
    """A request's Host header is the client's to write: where the server names its host
    (SERVER_NAME, or TRUSTED_HOSTS), the scorer link, the follower's link and the QR codes
    carry that name whatever Host a request came with (issue 31)."""
    app.config.update(config)
    host = host or "scores.example.org"  # the first single host of TRUSTED_HOSTS
    client = app.test_client()
    evil = {"headers": {"Host": "evil.example"}}
    game_id = scorer_of(client, "evil.example")
    sheet = client.get(f"/games/{game_id}", **evil).get_data(as_text=True)
    assert f">http://{host}/games/{game_id}</a>" in sheet and "evil.example" not in sheet
    shown = client.get(
        f"/games/{game_id}/scorer-code", headers={"HX-Request": "true", "Host": "evil.example"}
    )
    part = shown.get_data(as_text=True)
    assert f'href="http://{host}/games/{game_id}/join#' in part and "evil.example" not in part
    image = client.get(code_address(sheet), **evil).get_data(as_text=True)
    assert image == client.get(code_address(sheet), headers={"Host": host}).get_data(as_text=True)


def test_trusted_hosts_refuse_any_other_host(app: Flask) -> None:
    app.config["TRUSTED_HOSTS"] = ["scores.example.org"]
    client = app.test_client()
    assert client.get("/", base_url="http://scores.example.org").status_code == 200
    refused = client.get("/games/new", base_url="http://evil.example")
    assert refused.status_code == 400 and "evil.example" not in refused.get_data(as_text=True)


def test_without_a_configured_host_the_links_are_the_requests(client: FlaskClient) -> None:
    """``make run-lan`` sets nothing: a phone gets the address it reached the server by."""
    game_id = scorer_of(client, "192.168.1.20:5000")
    shown = client.get(
        f"/games/{game_id}/scorer-code",
        headers={"HX-Request": "true", "Host": "192.168.1.20:5000"},
    )
    assert f'href="http://192.168.1.20:5000/games/{game_id}/join#' in shown.get_data(as_text=True)
