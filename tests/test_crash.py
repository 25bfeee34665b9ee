"""A real server (gunicorn, SQLite in WAL mode) killed with SIGKILL in the middle of a burst
of deals loses none that it acknowledged, and the database stays sound."""

from __future__ import annotations

import http.client
import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .serving import Gunicorn


def call(
    url: str,
    method: str = "GET",
    body: Any = None,
    token: str | None = None,
    key: str | None = None,
) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_sigkill_mid_burst_loses_no_acknowledged_deal(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    server = Gunicorn(instance, workers=2)
    status, game = call(
        server.url + "/api/games",
        "POST",
        {
            "variant": "classic",
            "sides": [{"name": "We"}, {"name": "They"}],
            "options": {"target": 1_000_000},
        },
    )  # no side wins during the burst
    assert status == 201
    acknowledged: dict[int, int] = {}  # deal number -> meld points the answer confirmed
    lock = threading.Lock()
    stop = threading.Event()

    def phone(index: int) -> None:
        for n in range(200):  # bounded: the server is killed long before
            if stop.is_set():
                return
            meld = 5 * (200 * index + n + 1)  # tells the deals apart
            body = {
                "results": [
                    {"meld_points": meld, "hand_points": 5},
                    {"meld_points": 50, "hand_points": 5},
                ]
            }
            try:
                status, answer = call(
                    f"{server.url}/api/games/{game['id']}/deals",
                    "POST",
                    body,
                    game["token"],
                    key=f"{index}-{n}",
                )
            except (OSError, http.client.HTTPException):
                # The server is gone, or was killed in the middle of its answer: an answer
                # cut short acknowledges nothing.
                return
            if status == 201:
                with lock:
                    acknowledged[answer["number"]] = meld

    phones = [threading.Thread(target=phone, args=(i,)) for i in range(4)]
    for thread in phones:
        thread.start()
    deadline = time.monotonic() + 60
    while len(acknowledged) < 30 and time.monotonic() < deadline:
        time.sleep(0.05)
    server.kill()  # SIGKILL, mid-burst: requests are in flight
    stop.set()
    for thread in phones:
        thread.join(timeout=30)
    assert len(acknowledged) >= 30

    with sqlite3.connect(instance / "scorekeeper.sqlite") as database:
        assert database.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    server = Gunicorn(instance, workers=1)
    try:
        status, after = call(f"{server.url}/api/games/{game['id']}")
    finally:
        server.kill()
    assert status == 200
    stored = {deal["number"]: deal["results"][0]["meld_points"] for deal in after["deals"]}
    for number, meld in acknowledged.items():
        assert stored.get(number) == meld, number
    assert sorted(stored) == list(range(1, len(stored) + 1))
