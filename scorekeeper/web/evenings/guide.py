"""Each player's guide to a club evening (``store.guides``): their table, seat, partner and
opponents, their results and place. Read-only, at an address of its own that the table
cards and the director's page hand out; it polls like a follower's sheet (304 while the
evening stands still), and the service worker keeps its last copy for the phone offline."""

from __future__ import annotations

from flask import abort, current_app, render_template, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ...caching import cached, conditional, evening_view
from ...extensions import htmx
from ...i18n import current_language
from ...store import evenings, guides
from ...store.evenings import EveningView
from .. import bp
from ..share import absolute
from .director import NO_EVENING, stamp_or_404

NO_GUIDE = NO_EVENING


def guide_links(evening: EveningView) -> list[tuple[str, str]]:
    """Each player's name and the address of their guide (the page's own, without host)."""
    return [
        (name, url_for("web.guide", evening_id=evening.id, guide_id=guide_id))
        for name, guide_id in guides.guide_ids(evening).items()
    ]


def absolute_guide_links(evening: EveningView) -> dict[str, str]:
    """Each player's guide as a phone opens it, by name (for the table cards' codes)."""
    return {name: absolute(path) for name, path in guide_links(evening)}


def _guide_or_404(stamp: evenings.Stamp, evening_id: str, guide_id: str) -> guides.Guide:
    evening = evening_view(evening_id, stamp)
    found = None if evening is None else guides.guide(evening, guide_id)
    if found is None:
        abort(404, str(NO_GUIDE))
    return found


def _live(stamp: evenings.Stamp, evening_id: str, guide_id: str) -> str:
    """The guide's changing part, rendered once per state of the evening and kept."""

    def render() -> str:
        found = _guide_or_404(stamp, evening_id, guide_id)
        return render_template("evenings/_guide_live.html", guide=found, guide_id=guide_id)

    html: str = cached(("guide", evening_id, guide_id), render, at=stamp.key)
    return html


@bp.get("/evenings/<evening_id>/guide/<guide_id>")
def guide(evening_id: str, guide_id: str) -> BaseResponse:
    """A player's guide. Its live part alone answers the page's poll (htmx), 304 while the
    evening and its tables' games stand as the phone last saw them."""
    stamp = stamp_or_404(evening_id)
    if not guides.GUIDE_ID.fullmatch(guide_id):
        abort(404, str(NO_GUIDE))
    if htmx and not htmx.boosted:
        etag = f"guide-{evening_id}-{guide_id}-{stamp.key}"
        etag += f"-{current_language()}"
        response = conditional(etag, lambda: _live(stamp, evening_id, guide_id))
        response.vary.add("HX-Request")
        return response
    found = _guide_or_404(stamp, evening_id, guide_id)
    live = _live(stamp, evening_id, guide_id)
    response = current_app.make_response(
        render_template("evenings/guide.html", guide=found, live=Markup(live))
    )
    # A page like a follower's sheet: kept by the service worker, asked again each time.
    response.vary.add("HX-Request")
    response.cache_control.no_cache = True
    return response
