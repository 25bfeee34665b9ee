"""Games through the pages' forms: the new-game form, the deal form and what the sheet shows."""

from __future__ import annotations

import base64
import hashlib
import re
from html.parser import HTMLParser
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import db
from scorekeeper.store.models import Deal, DealResult

NAMES = ["Ana", "Vera", "Boris", "Goran"]  # seat order: We, They, We, They


def new_game(client: FlaskClient, **extra: Any) -> str:
    """Create a classic game through the new-game form; returns its id."""
    data = {
        "sides-0-name": "We",
        "sides-1-name": "They",
        **{f"players-{i}": name for i, name in enumerate(NAMES)},
        "first_dealer": "0",
        "target": "5000",
    }
    data.update({k: str(v) for k, v in extra.items()})
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.fullmatch(r"/games/([\w-]+)", response.headers["Location"])
    assert match
    return match.group(1)


def deal_form(
    out: str = "",
    concealed: bool = False,
    we: dict[str, Any] | None = None,
    they: dict[str, Any] | None = None,
) -> dict[str, str]:
    data = {"went_out": out}
    if concealed:
        data["concealed"] = "y"
    for index, figures in enumerate((we or {}, they or {})):
        for name, value in figures.items():
            data[f"sides-{index}-{name}"] = str(value)
    return data


CASE_A = {
    "meld_points": 220,
    "natural_canastas": 1,
    "mixed_canastas": 1,
    "red_threes": 1,
    "hand_points": 10,
}


CASE_B = {"meld_points": 150, "red_threes": 2, "hand_points": 85}


def totals(client: FlaskClient, game_id: str) -> list[int]:
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    # English groups thousands: 1,210.
    found = re.findall(r'class="total-points num">(-?[\d,]+)<', html)
    return [int(v.replace(",", "")) for v in found]


#: What Chromium sends.
ACCEPT = {"Accept-Encoding": "gzip, deflate, br, zstd"}


#: A full evening: 20 deals on the sheet (and in the chart), nobody at 5000 yet.
DEALS = 20


def played_game(client: FlaskClient, deals: int = DEALS) -> str:
    """A classic game with ``deals`` deals: each side goes out in turn, modestly."""
    game_id = new_game(client)
    small = {"meld_points": 120, "mixed_canastas": 1, "hand_points": 0}
    stuck = {"meld_points": 60, "hand_points": 45}
    for number in range(deals):
        out = number % 2
        sides = (small, stuck) if out == 0 else (stuck, small)
        response = client.post(
            f"/games/{game_id}/deals/new",
            data=deal_form(str(out), we=sides[0], they=sides[1]),
        )
        assert response.status_code == 302, response.get_data(as_text=True)
    return game_id


def needs(client: FlaskClient, game_id: str) -> list[int]:
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    return [int(v) for v in re.findall(r'class="badge[^"]*"[^>]*>needs (\d+)', html)]


def count_rows(app: Flask) -> tuple[int, int]:
    with app.app_context():
        return db.session.query(Deal).count(), db.session.query(DealResult).count()


def form_nonce(client: FlaskClient, game_id: str) -> str:
    """The one-time key of a deal form opened now (what a double tap sends twice)."""
    form_page = client.get(f"/games/{game_id}/deals/new").get_data(as_text=True)
    nonce = re.search(r'name="nonce" type="hidden" value="([^"]+)"', form_page)
    assert nonce
    return nonce.group(1)


class FormReader(HTMLParser):
    """What a browser posts for the page's new-game form as it stands: each field's value,
    the boxes and choices ticked."""

    def __init__(self) -> None:
        super().__init__()
        self.action = ""
        self.data: list[tuple[str, str]] = []
        self._in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form" and found.get("method") == "post":
            self._in_form, self.action = True, found.get("action", "")
        elif tag == "input" and self._in_form and "name" in found:
            kind = found.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in found:
                return
            self.data.append((found["name"], found.get("value", "y" if kind == "checkbox" else "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False


def read_form(html: str) -> FormReader:
    reader = FormReader()
    reader.feed(html)
    assert reader.action, "no new-game form in the page"
    return reader


#: Six players' names, in seat order, for the tables that seat more than four.
PLAYERS = ["Ana", "Vera", "Boris", "Goran", "Lidija", "Stefan"]


def page_game(client: FlaskClient, variant: str, players: int = 4, **changes: str) -> str:
    """A game started from the new-game page as a browser posts it (every field as the
    page fills it in), with ``changes`` typed over; returns its id."""
    html = client.get(f"/games/new?variant={variant}&players={players}").get_data(as_text=True)
    form = read_form(html)
    data = dict(form.data)
    data.update({f"players-{seat}": PLAYERS[seat] for seat in range(players)})
    data.update(changes)
    response = client.post(form.action.replace("&amp;", "&"), data=data)
    # What went wrong, as the page says it (its text, not its markup).
    said = " ".join(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)).split())
    assert response.status_code == 302, said[:3000]
    return response.headers["Location"].rsplit("/", 1)[1]


def style_source(text: str) -> str:
    """The CSP source that allows an inline ``<style>`` of exactly ``text``."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


class InlineFinder(HTMLParser):
    """Collects what a strict Content-Security-Policy would block: inline script, style
    attributes and handlers; and the text of each ``<style>`` element, which the CSP
    allows only by its hash."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_endtag(self, tag: str) -> None:
        self._in_style = self._in_style and tag != "style"

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles[-1] += data

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "script" and "src" not in names:
            self.found.append("inline <script>")
        if tag == "style":
            self.styles.append("")
            self._in_style = True
        if "style" in names:
            self.found.append(f"style= on <{tag}>")
        self.found += [f"{name}= on <{tag}>" for name in names if name.startswith("on")]
