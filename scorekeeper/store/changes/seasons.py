"""A club season's commands (API.md "Seasons and results"): a new season, its points table
changed by its director, an evening joining it. Each ends in the commit step's
``commit_season``: the season's version moved, its log's entry written with the request's
key (a retried command acts once).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import bindparam, select

from ...rules.season import DEFAULT_POINTS, PointsError, check_points
from ...rules.text import T, Text
from ..db import db, transaction
from ..errors import Refused, Why, check_name
from ..games import hash_secret
from ..log import SEASON_CREATED
from ..models import Season, SeasonChange
from ..seasons import SeasonView, director_matches, load, view
from .commit import commit_season
from .request_keys import keyed, made_by

POINTS_CHANGED = "points-changed"
EVENING_JOINED = "evening-joined"

NO_SEASON = T("There is no such season.")
NOT_SEASON_DIRECTOR = T(
    "Only the season's director can do this (the season's secret is given when it is made)."
)

#: The season a key created, and what it asked.
_CREATED_BY = (
    select(SeasonChange.season_id, SeasonChange.request_hash, Season.name)
    .join(Season, Season.id == SeasonChange.season_id)
    .where(SeasonChange.request_key == bindparam("key"), SeasonChange.kind == SEASON_CREATED)
)
#: A command a key made before in this season.
_EARLIER = select(SeasonChange.id, SeasonChange.kind, SeasonChange.request_hash).where(
    SeasonChange.request_key == bindparam("key"), SeasonChange.season_id == bindparam("season_id")
)
_WORDS = {
    SEASON_CREATED: T("season created"),
    POINTS_CHANGED: T("points table changed"),
    EVENING_JOINED: T("evening joined"),
}


def _what(kind: str) -> Text:
    return _WORDS.get(kind, _WORDS[SEASON_CREATED])


def _checked_points(points: object, field: str = "points") -> list[int]:
    try:
        return list(check_points(points, field))
    except PointsError as error:
        raise Refused(Why.INVALID, error.text, {error.field: error.text}) from None


def create_season(
    name: str,
    points: Sequence[object] | None = None,
    *,
    device: str = "",
    request_key: str | None = None,
) -> tuple[SeasonView, str]:
    """A new season with its points table (the default when None); returns it with the
    director's secret (shown once, stored hashed). A ``request_key`` that created a season
    before creates none: its secret cannot be given again, so the retry is refused
    (``Why.CONFLICT``) naming that season; sent with another season, it is refused as reused."""
    table = list(DEFAULT_POINTS) if points is None else points
    key = keyed(request_key, "create-season", name, list(table))
    if not name.strip():
        message = T("A season needs a name.")
        raise Refused(Why.INVALID, message, {"name": message})
    title = check_name(name, "name", side=True)
    checked = _checked_points(table)
    secret = secrets.token_urlsafe(24)
    with transaction():
        row = made_by(_CREATED_BY, key, lambda _row: _what(SEASON_CREATED))
        if row is not None:
            raise Refused(
                Why.CONFLICT,
                T(
                    "This request already created the season %(name)s; its director's secret "
                    "was given only in that first answer (it is kept hashed), so nothing was "
                    "created again.",
                    name=row.name,
                ),
                {"Idempotency-Key": T("Already created season %(id)s.", id=row.season_id)},
                season=row.season_id,
            )
        season = Season(
            id=secrets.token_urlsafe(12),
            token_hash=hash_secret(secret),
            name=title,
            points=checked,
        )
        db.session.add(season)
        commit_season(season, SEASON_CREATED, device=device, key=key)
        season_id = season.id
    return _viewed(season_id), secret


def _locked(season_id: str, secret: str | None) -> Season:
    """The season, its row locked, once the director's secret is checked."""
    found = load(season_id, lock=True)
    if found is None:
        raise Refused(Why.NOT_FOUND, NO_SEASON)
    if not director_matches(found, secret):
        raise Refused(Why.FORBIDDEN, NOT_SEASON_DIRECTOR)
    return found


def change_points(
    season_id: str,
    points: object,
    secret: str | None,
    *,
    device: str = "",
    request_key: str | None = None,
) -> SeasonView:
    """The season's points table changed (its director): the ladder counts every finished
    evening again with it. A ``request_key`` this season has seen changes nothing again."""
    key = keyed(request_key, "season-points", points)
    with transaction():
        season = _locked(season_id, secret)
        if made_by(_EARLIER, key, lambda row: _what(row.kind), season_id=season_id) is None:
            checked = _checked_points(points)
            if checked != list(season.points):
                season.points = checked
            commit_season(season, POINTS_CHANGED, device=device, key=key)
    return _viewed(season_id)


def join_season(season_id: str | None, secret: str | None, *, device: str = "") -> str | None:
    """The season a new evening joins, in the evening's transaction: None without one;
    refused for an unknown season (``season``) or a secret that is not its director's
    (``season_token``); its version moves (its page changes)."""
    if season_id is None:
        if secret is not None:
            message = T("A season's secret goes with the season it is of.")
            raise Refused(Why.INVALID, message, {"season": message})
        return None
    season = load(season_id, lock=True)
    if season is None:
        raise Refused(Why.NOT_FOUND, NO_SEASON, {"season": NO_SEASON})
    if not director_matches(season, secret):
        raise Refused(Why.FORBIDDEN, NOT_SEASON_DIRECTOR, {"season_token": NOT_SEASON_DIRECTOR})
    commit_season(season, EVENING_JOINED, device=device, key=None)
    return season.id


def _viewed(season_id: str) -> SeasonView:
    found = view(season_id)
    assert found is not None
    return found
