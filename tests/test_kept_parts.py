"""Parts of pages kept with the versions they show (``caching.cached``): made once per
version, never shown at another, and replaced by the next version's, so a game that moves
on through an evening keeps one entry per part rather than one per deal."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.caching import cached


def made(log: list[str], what: str) -> str:
    log.append(what)
    return what


def nothing(log: list[str]) -> None:
    log.append("nothing")


def test_a_part_is_made_once_per_version_and_the_next_takes_its_place(
    sqlite_client: FlaskClient,
) -> None:
    app: Flask = sqlite_client.application
    log: list[str] = []
    with app.test_request_context("/"):
        assert cached(("part", "g"), lambda: made(log, "v1"), at=1) == "v1"
        assert cached(("part", "g"), lambda: made(log, "again"), at=1) == "v1"
        assert cached(("part", "g"), lambda: made(log, "v2"), at=2) == "v2"
        assert cached(("part", "g"), lambda: made(log, "again"), at=2) == "v2"
        # Version 1's part was replaced, not kept beside version 2's: asked for again (a
        # request that read the version just before the change), it is made anew.
        assert cached(("part", "g"), lambda: made(log, "v1 again"), at=1) == "v1 again"
        # What never changes (at=None) is kept too, even when it is None.
        assert cached(("fact", "g"), lambda: nothing(log)) is None
        assert cached(("fact", "g"), lambda: made(log, "again")) is None
    assert log == ["v1", "v2", "v1 again", "nothing"]
