"""The screen for the room: a club evening on a projector or a TV, landscape and large.

The round and its countdown, every table's progress and the standings with each line's
last move (``store.screen``). It needs no secret and has no buttons. Its live part answers
its own poll (htmx, every 10 s) with 304 while the evening stands still, keyed by the
evening's stamp as the director's page is; a public cache may keep that part (it is the
same for everyone in a language). A finished evening's screen polls no more.
"""

from __future__ import annotations

from flask import abort, current_app, render_template
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ...caching import cached, conditional, evening_view
from ...extensions import htmx
from ...i18n import current_language
from ...store import evenings
from ...store.evenings import EveningView
from ...store.screen import screen_lines
from .. import bp
from .director import NO_EVENING, stamp_or_404

#: Standings lines one column of the screen holds beside the tables, at 1920 x 1080; up to
#: twice as many take two columns. More (an individual evening of twelve tables: 48) go
#: under the tables, in four columns of twelve.
LINES_PER_COLUMN = 14


def columns(lines: int) -> int:
    """How many columns the standings take on the screen: one, two, or four."""
    if lines <= LINES_PER_COLUMN:
        return 1
    return 2 if lines <= 2 * LINES_PER_COLUMN else 4


def _evening_or_404(stamp: evenings.Stamp, evening_id: str) -> EveningView:
    found = evening_view(evening_id, stamp)
    if found is None:
        abort(404, str(NO_EVENING))
    return found


def _live(stamp: evenings.Stamp, evening_id: str) -> str:
    """The screen's changing part, rendered once per state of the evening and kept."""

    def render() -> str:
        found = _evening_or_404(stamp, evening_id)
        lines = screen_lines(found)
        return render_template(
            "evenings/_screen_live.html",
            evening=found,
            lines=lines,
            columns=columns(len(lines)),
        )

    html: str = cached(("screen", evening_id), render, at=stamp.key)
    return html


@bp.get("/evenings/<evening_id>/screen")
def evening_screen(evening_id: str) -> BaseResponse:
    """The room's screen. Its live part alone answers the page's poll."""
    stamp = stamp_or_404(evening_id)
    if htmx and not htmx.boosted:
        etag = f"screen-{evening_id}-{stamp.key}-{current_language()}"
        response = conditional(etag, lambda: _live(stamp, evening_id))
        # The same for every reader of a language: any cache may keep it, asking each time.
        response.cache_control.public = True
        response.vary.update(("HX-Request", "Cookie", "Accept-Language"))
        return response
    found = _evening_or_404(stamp, evening_id)
    live = _live(stamp, evening_id)
    response = current_app.make_response(
        render_template("evenings/screen.html", evening=found, live=Markup(live), keep_awake=True)
    )
    response.vary.add("HX-Request")
    response.cache_control.no_cache = True
    return response
