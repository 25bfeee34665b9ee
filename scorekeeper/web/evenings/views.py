"""Club evenings' pages: a new evening, the director's page (every table live, the rounds,
the standings, the director's buttons), the table cards and the printable standings."""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from ...caching import cached, conditional, evening_view
from ...codes import svg
from ...extensions import creates_game, htmx
from ...i18n import current_language, render_text
from ...rules import Format, rounds_needed
from ...rules.victory_points import BYE_VP, PUBLISHED
from ...store import changes, evenings
from ...store.errors import Refused, Why
from ...store.evenings import EveningView
from .. import bp
from ..answers import REFUSALS, abort_refused
from ..places import REGULARS, roster_chips, table_places
from ..request_keys import page_key
from ..scorer import device_label, name_this_phone, no_store
from ..seasons.director import chosen_season, offer_seasons
from ..share import absolute
from .director import (
    NO_EVENING,
    director_or_403,
    director_secret,
    is_director,
    set_director_cookie,
    stamp_or_404,
)
from .forms import EVENING_VARIANTS, CloseRoundForm, NewEveningForm, SwapForm
from .guide import absolute_guide_links, guide_links


@bp.route("/evenings/new", methods=["GET", "POST"])
@creates_game
def new_evening() -> str | BaseResponse | tuple[str, int]:
    """Start a club evening: its rule set, format, players, rounds and their length."""
    form = NewEveningForm()
    offer_seasons(form.season)
    if form.validate_on_submit():
        name_this_phone(form.device.data)
        entrants, lines = form.entrants()
        scoring, steps = form.scoring_value()
        season, season_token = chosen_season(form.season)
        try:
            evening, secret = changes.create_evening(
                form.name.data or "",
                form.variant.data or "",
                {},
                form.chosen_format,
                entrants,
                form.rounds.data,
                form.deals_per_round.data or 0,
                form.minutes_per_round.data,
                movement=form.chosen_movement,
                device=device_label(),
                request_key=page_key(),
                scoring=scoring,
                bye_vp=BYE_VP if form.bye_vp.data is None else form.bye_vp.data,
                confirmations=bool(form.confirmations.data),
                season=season,
                season_token=season_token,
            )
        except Refused as refusal:
            if refusal.evening is not None:
                # Sent again (a double tap): the first one made it.
                flash(render_text(refusal.text), "error")
                return redirect(url_for("web.evening", evening_id=refusal.evening))
            if refusal.why is not Why.INVALID:
                abort_refused(refusal)
            _attach(form, refusal, lines, steps)
        else:
            response = redirect(url_for("web.evening", evening_id=evening.id))
            set_director_cookie(response, evening.id, secret)
            return response
    status = 422 if form.is_submitted() else 200
    roster, regulars = roster_chips(REGULARS * 2)
    pairs = len(form.entrants()[0]) if form.chosen_format is Format.PAIRS else 0
    return render_template(
        "evenings/new.html",
        form=form,
        robin=(pairs, rounds_needed(pairs)) if pairs >= 2 else None,
        variants=EVENING_VARIANTS,
        published=PUBLISHED,
        roster=roster,
        regulars=regulars,
    ), status


def _attach(form: NewEveningForm, refusal: Refused, lines: list[int], steps: list[int]) -> None:
    """The store's messages next to their fields (``pairs.2.1`` and ``players.3``: the
    players' field, naming the line; ``scoring.victory_points.3.0``: the typed scale's,
    naming its line); one no field shows goes on top of the page."""
    for path, message in refusal.fields.items():
        head, _dot, rest = path.partition(".")
        text = render_text(message)
        if head in ("pairs", "players"):
            field = form.players
            index = rest.split(".")[0]
            if index.isdigit() and int(index) < len(lines):
                text = _("Line %(line)s: %(message)s", line=lines[int(index)], message=text)
        elif path.startswith("scoring.victory_points"):
            field = form.scale
            index = path.removeprefix("scoring.victory_points").strip(".").split(".")[0]
            if index.isdigit() and int(index) < len(steps):
                text = _("Line %(line)s: %(message)s", line=steps[int(index)], message=text)
        else:
            field = getattr(form, head, None) if head in NewEveningForm.FIELDS else None
        if field is None:
            flash(text, "error")
        else:
            field.errors = [*field.errors, text]


def _view_or_404(evening_id: str, stamp: evenings.Stamp | None = None) -> EveningView:
    """The evening at ``stamp`` when the request read it already, else at its stamp now."""
    found = evening_view(evening_id, stamp)
    if found is None:
        abort(404, str(NO_EVENING))
    return found


def _open_seats(evening: EveningView) -> list[str]:
    """Who may be swapped now: the players of the current round's tables with no deal
    yet, and those sitting out."""
    current = evening.current
    if current is None or evening.finished or current.closed_at is not None:
        return []
    names = [
        n
        for t in current.tables
        if not t.deals and not t.finished
        for side in t.sides
        for n in side.players
    ]
    names += [name for entrant in current.byes for name in entrant]
    return sorted(names, key=str.casefold)


def _live(evening: EveningView, director: bool) -> str:
    """The part of the director's page that changes: rounds, tables, standings, buttons."""
    return render_template("evenings/_live.html", evening=evening, director=director)


def _follower_live(evening_id: str, stamp: evenings.Stamp) -> str:
    """A follower's part, rendered once per state of the evening and kept."""
    html: str = cached(
        ("evening", evening_id),
        lambda: _live(_view_or_404(evening_id, stamp), False),
        at=stamp.key,
    )
    return html


@bp.get("/evenings/<evening_id>")
def evening(evening_id: str) -> BaseResponse:
    """The director's page: every table of the round live, time left, the standings; the
    director's buttons for the director's browser. Followers see it read-only. Its live
    part alone answers the page's poll (htmx): 304 while nothing changed."""
    stamp = stamp_or_404(evening_id)
    director = is_director(stamp)
    if htmx and not htmx.boosted:
        etag = f"evening-{evening_id}-{stamp.key}-{int(director)}"
        etag += f"-{current_language()}"
        response = conditional(
            etag,
            lambda: (
                _live(_view_or_404(evening_id, stamp), True)
                if director
                else _follower_live(evening_id, stamp)
            ),
        )
        response.vary.add("HX-Request")
        if director:
            response.cache_control.private = True
        return response
    found = _view_or_404(evening_id, stamp)
    return _page(found, director)


def _page(
    found: EveningView, director: bool, status: int = 200, swap: SwapForm | None = None
) -> BaseResponse:
    """The whole page; the director's with the swap form (as posted, when refused)."""
    if director:
        live = _live(found, True)
        swap = swap or SwapForm(formdata=None).setup(_open_seats(found))
    else:
        live = _follower_live(found.id, stamp_or_404(found.id))
    response = current_app.make_response(
        (
            render_template(
                "evenings/show.html",
                evening=found,
                director=director,
                live=Markup(live),
                swap=swap,
                guides=guide_links(found) if director else [],
            ),
            status,
        )
    )
    response.vary.add("HX-Request")
    if director:
        response.headers["Cache-Control"] = "private, no-store"
    return response


def _refused(evening_id: str, refusal: Refused) -> BaseResponse:
    """A director's action the store refused: the error page (no such evening, not the
    director), else the director's page again with the reason on top."""
    if REFUSALS[refusal.why].error_page:
        abort_refused(refusal)
    flash(render_text(refusal.text), "error")
    stamp = stamp_or_404(evening_id)
    return _page(_view_or_404(evening_id), is_director(stamp), REFUSALS[refusal.why].status)


@bp.route("/evenings/<evening_id>/rounds", methods=["GET", "POST"])
def start_round(evening_id: str) -> BaseResponse:
    """Seat and start the next round (the director's button). While a result of the
    round waits for the other side's confirmation, the button asks first (GET): the page
    names the tables, and "Start anyway" sends ``force``."""
    if request.method == "GET":
        director_or_403(evening_id)
        return _ask_to_start(_view_or_404(evening_id))
    try:
        found = changes.start_round(
            evening_id,
            director_secret(),
            device=device_label(),
            request_key=page_key(),
            force=request.form.get("force") == "1",
        )
    except Refused as refusal:
        if "force" in refusal.fields and not REFUSALS[refusal.why].error_page:
            # A deal went unconfirmed since the page was drawn: ask again.
            flash(render_text(refusal.text), "error")
            return _ask_to_start(_view_or_404(evening_id), REFUSALS[refusal.why].status)
        return _refused(evening_id, refusal)
    flash(_("Round %(number)s is seated.", number=len(found.played)), "saved")
    return redirect(url_for("web.evening", evening_id=evening_id))


def _ask_to_start(found: EveningView, status: int = 200) -> BaseResponse:
    """The question before the next round while results wait for confirmation."""
    current = found.current
    waiting = [t for t in current.tables if t.unconfirmed] if current else []
    html = render_template("evenings/start.html", evening=found, waiting=waiting)
    return no_store(html, status)


@bp.route("/evenings/<evening_id>/rounds/<int:number>/close", methods=["GET", "POST"])
def close_round(evening_id: str, number: int) -> str | BaseResponse:
    """Time called: asks first, then each table still playing plays out its deal in
    progress (RULES.md section 16), or, with "Stop every table now", ends as it stands."""
    form = CloseRoundForm()
    if request.method == "GET":
        director_or_403(evening_id)
        found = _view_or_404(evening_id)
        round_ = next((r for r in found.played if r.number == number), None)
        if round_ is None:
            abort(404)
        page = render_template("evenings/close.html", evening=found, round=round_, form=form)
        return no_store(page)
    try:
        changes.close_round(
            evening_id,
            number,
            director_secret(),
            final=bool(form.final.data),
            device=device_label(),
            request_key=page_key(),
        )
    except Refused as refusal:
        return _refused(evening_id, refusal)
    if form.final.data:
        flash(_("Round %(number)s is closed.", number=number), "saved")
    else:
        flash(
            _(
                "Time is called on round %(number)s: each table plays out its deal in progress.",
                number=number,
            ),
            "saved",
        )
    return redirect(url_for("web.evening", evening_id=evening_id))


@bp.post("/evenings/<evening_id>/rounds/<int:number>/swap")
def swap_seats(evening_id: str, number: int) -> BaseResponse:
    """Two players change places before their tables' first deal (the director's form)."""
    director_or_403(evening_id)
    found = _view_or_404(evening_id)
    form = SwapForm().setup(_open_seats(found))
    if not form.validate():
        return _page(found, True, 422, swap=form)
    names = [form.first.data or "", form.second.data or ""]
    try:
        changes.swap(
            evening_id,
            number,
            names,
            director_secret(),
            device=device_label(),
            request_key=page_key(),
        )
    except Refused as refusal:
        if refusal.why is not Why.INVALID:
            return _refused(evening_id, refusal)
        for path, message in refusal.fields.items():
            field = form.second if path == "players.1" else form.first
            field.errors = [*field.errors, render_text(message)]
        return _page(found, True, 422, swap=form)
    flash(_("%(first)s and %(second)s changed places.", first=names[0], second=names[1]), "saved")
    return redirect(url_for("web.evening", evening_id=evening_id))


@bp.get("/evenings/<evening_id>/cards")
def table_cards(evening_id: str) -> BaseResponse:
    """One card per table of the round: its number, who sits where, the QR code of its
    scorer link (the table's phone scans it to keep score) and of each player's guide, and,
    where a Mitchell or a round robin knows it, where each pair goes next round. The
    director's alone."""
    secret = director_or_403(evening_id)
    found = _view_or_404(evening_id)
    current = found.current
    onward = evenings.next_tables(found)
    guides = absolute_guide_links(found)
    cards = []
    for table in current.tables if current else ():
        link = absolute(url_for("web.join", game_id=table.game_id))
        link += "#" + evenings.table_secret(secret, table.game_id)
        places = table_places(table)
        # The other side's phone, in an evening that confirms results: its own secret.
        confirm_link = None
        if found.confirmations:
            confirm_link = absolute(url_for("web.confirm_join", game_id=table.game_id))
            confirm_link += "#" + evenings.confirm_secret(secret, table.game_id)
        cards.append(
            {
                "table": table,
                "places": places,
                # Each player's own guide, seat by seat: read-only, to keep on their phone.
                "guides": [
                    (place.name, guides[place.name], Markup(svg(guides[place.name])))
                    for place in places
                ],
                "scorer_link": link,
                "code_svg": Markup(svg(link)),
                "confirm_link": confirm_link,
                "confirm_svg": Markup(svg(confirm_link)) if confirm_link else None,
                "follower_link": absolute(url_for("web.sheet", game_id=table.game_id)),
                "next": [
                    (side.players, onward[side.players])
                    for side in table.sides
                    if side.players in onward
                ],
            }
        )
    return no_store(
        render_template("evenings/cards.html", evening=found, round=current, cards=cards)
    )


@bp.get("/evenings/<evening_id>/standings")
def evening_standings(evening_id: str) -> str:
    """The standings to print (or read): the evening's rounds so far, best first."""
    return render_template("evenings/standings.html", evening=_view_or_404(evening_id))
