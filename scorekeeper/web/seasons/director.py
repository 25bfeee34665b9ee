"""Which seasons this browser directs: one signed cookie holds each season's secret, sent
to the seasons' pages (the points table) and to the new-evening page (an evening joins a
season with its secret), and nowhere else.

The secret is checked by the store's commands (``store.changes.seasons``); the pages only
read the cookie to decide what to show and which seasons to offer.
"""

from __future__ import annotations

from flask import current_app, request, url_for
from flask_babel import gettext as _
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.wrappers import Response as BaseResponse
from wtforms import SelectField

from ...store import seasons
from ...store.seasons import SeasonView
from ..scorer import SCORER_COOKIE_AGE

#: The cookie that holds the seasons' secrets, ``{season id: secret}``.
SEASONS_COOKIE = "seasons"
#: The most seasons one browser directs at once; the oldest one goes first.
KEPT = 12


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=f"{SEASONS_COOKIE}-cookie")


def directed() -> dict[str, str]:
    """The seasons this browser directs, as ``{season id: secret}`` (oldest first)."""
    cookie = request.cookies.get(SEASONS_COOKIE)
    if not cookie:
        return {}
    try:
        found = _signer().loads(cookie)
    except BadSignature:
        return {}
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, str)}


def season_secret(season_id: str) -> str | None:
    return directed().get(season_id)


def is_director(season: SeasonView) -> bool:
    return seasons.director_matches(season, season_secret(season.id))


def keep_season(response: BaseResponse, season_id: str, secret: str) -> None:
    """Make this browser the season's director, for its pages and the new-evening page."""
    kept = {k: v for k, v in directed().items() if k != season_id}
    kept[season_id] = secret
    value = _signer().dumps(dict(list(kept.items())[-KEPT:]))
    response.headers["Cache-Control"] = "private, no-store"
    for path in ("/seasons/", url_for("web.new_evening")):
        response.set_cookie(
            SEASONS_COOKIE,
            value,
            max_age=SCORER_COOKIE_AGE,
            path=path,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )


def offer_seasons(field: SelectField) -> None:
    """The new-evening page's choice of season: none, or one this browser directs (newest
    first); the season's page's link picks its season (``?season=``)."""
    field.choices = [("", _("None")), *seasons.named(list(directed()))]
    if request.method == "GET":
        field.data = request.args.get("season", "")


def chosen_season(field: SelectField) -> tuple[str | None, str | None]:
    """The season a new evening joins and this browser's secret of it (None, None: none)."""
    season_id = field.data or None
    return (None, None) if season_id is None else (season_id, season_secret(season_id))
