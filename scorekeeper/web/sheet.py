"""The score sheet: totals, minimums, the dealer, every deal; its changing part alone for a
follower's poll (304 while nothing changed); a deleted game's page."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ..caching import cached, conditional
from ..extensions import htmx
from ..i18n import current_language, number, render_text
from ..store import changes, evenings, games
from ..store.evenings import Onward
from . import bp
from .answers import NO_GAME, game_or_404
from .chart import running_totals
from .forms import ConfirmForm
from .places import seated_at, sheet_places
from .scorer import can_confirm, can_score, last_change, note_scoring
from .share import absolute, public_host

#: Sent by the service worker for the sheet it keeps for offline use (templates/sw.js): the
#: answer is the follower's view, so no copy on the phone holds the secret.
OFFLINE_COPY_HEADER = "X-Offline-Copy"


def _onward(game_id: str, version: int) -> tuple[int | None, Onward | None]:
    """A finished table of a club evening: where its players go next, with the evening's
    version it was read at (what the sheet's parts are kept by, with the game's version).
    (None, None) for a game of its own, or one still being played: no query then, once
    the game's version was seen."""
    seated = seated_at(game_id)
    if seated is None:
        return None, None

    def finished() -> bool:
        head = games.head(game_id)
        return head is not None and head.finished

    if not cached(("finished", game_id), finished, at=version):
        return None, None
    at = evenings.version(seated.evening_id)
    return at, cached(("onward", game_id), lambda: evenings.onward(seated), at=at)


def _time_called(game_id: str, sheet: games.Sheet) -> bool:
    """A club table still playing after its director called time (read once per version
    of the game: calling time moves it)."""
    return (
        sheet.game.last_deal is not None
        and not sheet.state.finished
        and evenings.time_called(game_id)
    )


def _sheet_part(
    game_id: str, version: int, scorer: bool, confirming: bool = False
) -> dict[str, Any]:
    """The score sheet's own part at this version, for a scorer or a follower, rendered
    once and kept (with the page's title and the number of deals); the other side's
    phone's, with its Confirm forms (and their CSRF token), rendered for it alone."""
    at, onward = _onward(game_id, version)

    def render() -> dict[str, Any]:
        sheet = games.sheet_of(game_or_404(game_id))
        totals = sheet.state.totals
        called = _time_called(game_id, sheet)
        return {
            "title": " · ".join(
                f"{side.name} {number(total)}"
                for side, total in zip(sheet.game.sides, totals, strict=True)
            ),
            "body": render_template(
                "games/_sheet_body.html",
                sheet=sheet,
                places=sheet_places(sheet),
                chart=running_totals(sheet.state),
                can_score=scorer,
                confirming=confirming,
                seated=seated_at(game_id),
                onward=onward,
                time_called=called,
            ),
            "deals": len(sheet.state.lines),
            "next_deal": None if sheet.state.finished else sheet.state.next_deal,
            "time_called": called,
        }

    if confirming:
        return render()
    part: dict[str, Any] = cached(("sheet", game_id, scorer), render, at=(version, at))
    return part


def _panels(game_id: str, scorer: bool) -> str:
    """The sheet's share and download panels: the same at every version of the game,
    rendered once per phone kind and host (the links in them are absolute)."""
    host = public_host()

    def render() -> str:
        return render_template(
            "games/_sheet_panels.html",
            game_id=game_id,
            scorer=scorer,
            viewer_link=absolute(url_for("web.sheet", game_id=game_id)),
        )

    html: str = cached(("panels", game_id, scorer, request.scheme, host), render)
    return html


def _live_part(
    game_id: str,
    version: int,
    scorer: bool,
    onward: tuple[int | None, Onward | None],
    confirming: bool = False,
) -> str:
    """The part of the sheet that changes with each deal, alone (a follower's poll); a
    finished table's with its way on (``_onward``); the other side's, not kept."""

    def render() -> str:
        sheet = games.sheet_of(game_or_404(game_id))
        return render_template(
            "games/_live.html",
            sheet=sheet,
            chart=running_totals(sheet.state),
            can_score=scorer,
            confirming=confirming,
            onward=onward[1],
            time_called=_time_called(game_id, sheet),
        )

    if confirming:
        return render()
    html: str = cached(("live", game_id, scorer), render, at=(version, onward[0]))
    return html


@bp.get("/games/<game_id>")
def sheet(game_id: str) -> str | BaseResponse:
    """The score sheet: totals, minimums, the dealer, every deal. A follower's browser
    asks for its changing part alone (htmx) every few seconds: 304 while the game's
    version is the one it has."""
    partial = bool(htmx) and not htmx.boosted
    current = games.version_of(game_id)
    if current is None:
        abort(404, render_text(changes.NO_GAME) if partial else NO_GAME)
    offline_copy = OFFLINE_COPY_HEADER in request.headers
    scorer = can_score(current) and not offline_copy
    # The other side's phone at a club table that confirms results (never its offline copy).
    confirming = not scorer and not offline_copy and can_confirm(current)
    if current.deleted:
        return _deleted_page(game_id, scorer)
    if scorer:
        note_scoring(game_id)  # a phone that kept score before the session remembered it
    if partial:
        onward = _onward(game_id, current.version)
        etag = f"sheet-{game_id}-{current.version}-{int(scorer)}-{current_language()}"
        etag += "" if onward[0] is None else f"-evening{onward[0]}"
        etag += "-confirming" if confirming else ""
        response = conditional(
            etag, lambda: _live_part(game_id, current.version, scorer, onward, confirming)
        )
        response.vary.add("HX-Request")
        if confirming:
            response.cache_control.private = True
        return response
    part = _sheet_part(game_id, current.version, scorer, confirming)
    response = current_app.make_response(
        render_template(
            "games/sheet.html",
            title=part["title"],
            body=Markup(part["body"]),
            game_id=game_id,
            scorer=scorer,
            confirming=confirming,
            panels=Markup(_panels(game_id, scorer)),
            undo=last_change(game_id) if scorer else None,
            keep_awake=True,
            # A table of a club evening: its evening, round and table, and time left.
            seated=seated_at(game_id),
            playing=part["next_deal"] is not None and not part.get("time_called"),
            offline_copy=offline_copy,
            # The copy kept on a scorer's phone offers its deal form, which works offline.
            offline_record=part.get("next_deal") if offline_copy and can_score(current) else None,
        )
    )
    response.vary.update(("HX-Request", OFFLINE_COPY_HEADER))
    if scorer or confirming:
        # The scorer's own page (its share panel offers the scorer link), or the other
        # side's (its Confirm forms): no cache keeps it, nor the service worker (it keeps
        # the follower's view, asked for with OFFLINE_COPY_HEADER).
        response.headers["Cache-Control"] = "private, no-store"
    return response


def _deleted_page(game_id: str, scorer: bool) -> BaseResponse:
    """A deleted game's address: it says so, and its scorer may restore it."""
    response = current_app.make_response(
        (
            render_template(
                "games/deleted.html",
                game_id=game_id,
                scorer=scorer,
                form=ConfirmForm(),
                undo=last_change(game_id) if scorer else None,
            ),
            410,
        )
    )
    response.headers["Cache-Control"] = "private, no-store"
    return response
