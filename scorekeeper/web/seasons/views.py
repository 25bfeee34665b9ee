"""A club season's pages: a new season (its name and points table), the season's page (its
evenings, its ladder beside the ratings, the chart of places; the points table for its
director) and the director's change of the points table."""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse
from wtforms import StringField
from wtforms.validators import DataRequired, Length

from ...caching import conditional
from ...i18n import current_language, render_text
from ...rules.season import DEFAULT_POINTS
from ...store import changes, seasons
from ...store.errors import Refused, Why
from ...store.seasons import SeasonView
from .. import bp
from ..answers import REFUSALS, abort_refused
from ..forms import PageForm
from ..request_keys import page_key
from ..scorer import device_label
from .chart import places_chart
from .director import is_director, keep_season, season_secret

NO_SEASON = _l("There is no such season. Check the address.")
#: An empty box or two after the table, for a place more.
SPARE = 4
#: The fewest boxes the points table shows.
FEWEST_BOXES = 12
MAX_SEASON_NAME = 40


class NewSeasonForm(PageForm):
    """A season's name; its points table is read as the boxes ``points`` (``typed_points``)."""

    name = StringField(
        _l("Name of the season"),
        [DataRequired(_l("Give the season a name.")), Length(max=MAX_SEASON_NAME)],
        filters=[lambda text: text.strip() if isinstance(text, str) else text],
        render_kw={"autocomplete": "off", "maxlength": MAX_SEASON_NAME},
    )


def typed_points() -> list[object]:
    """The points table as typed, one box a place: whole numbers as numbers, anything else
    as typed (the rules engine names the place it refuses); empty boxes at the end left out."""
    typed = [value.strip() for value in request.form.getlist("points")]
    while typed and not typed[-1]:
        typed.pop()
    return [int(value) if value.isdigit() and len(value) < 7 else value for value in typed]


def boxes(points: list[object] | tuple[int, ...]) -> list[object]:
    """The points table's boxes: its places, then some empty ones for more."""
    return [*points, *[""] * max(SPARE, FEWEST_BOXES - len(points))]


def place_errors(refusal: Refused) -> tuple[dict[int, str], list[str]]:
    """The store's messages by place box (``points.3``: the 4th box), and the others."""
    by_box: dict[int, str] = {}
    others: list[str] = []
    for path, message in refusal.fields.items():
        head, _dot, rest = path.partition(".")
        if head == "points" and rest.isdigit():
            by_box[int(rest)] = render_text(message)
        elif head != "name":
            others.append(render_text(message))
    return by_box, others


@bp.route("/seasons/new", methods=["GET", "POST"])
def new_season() -> str | BaseResponse | tuple[str, int]:
    """Start a season: its name and what each place of an evening scores."""
    form = NewSeasonForm()
    shown: list[object] | tuple[int, ...] = DEFAULT_POINTS
    by_box: dict[int, str] = {}
    if form.is_submitted():
        shown = typed_points()
    if form.validate_on_submit():
        try:
            season, secret = changes.create_season(
                form.name.data or "", typed_points(), device=device_label(), request_key=page_key()
            )
        except Refused as refusal:
            if refusal.season is not None:
                # Sent again (a double tap): the first one made it.
                flash(render_text(refusal.text), "error")
                return redirect(url_for("web.season", season_id=refusal.season))
            if refusal.why is not Why.INVALID:
                abort_refused(refusal)
            by_box, others = place_errors(refusal)
            if "name" in refusal.fields:
                form.name.errors = [*form.name.errors, render_text(refusal.fields["name"])]
            for message in others:
                flash(message, "error")
        else:
            response = redirect(url_for("web.season", season_id=season.id))
            keep_season(response, season.id, secret)
            return response
    status = 422 if form.is_submitted() else 200
    return render_template(
        "seasons/new.html", form=form, boxes=boxes(shown), box_errors=by_box
    ), status


def _view_or_404(season_id: str) -> SeasonView:
    found = seasons.view(season_id)
    if found is None:
        abort(404, str(NO_SEASON))
    return found


def _page(
    found: SeasonView,
    director: bool,
    status: int = 200,
    shown: list[object] | None = None,
    box_errors: dict[int, str] | None = None,
) -> BaseResponse:
    html = render_template(
        "seasons/show.html",
        season=found,
        director=director,
        chart=places_chart(found.ladder, len(found.counted)),
        default_points=DEFAULT_POINTS,
        boxes=boxes(found.points if shown is None else shown),
        box_errors=box_errors or {},
    )
    response = current_app.make_response((html, status))
    if director:
        response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/seasons/<season_id>")
def season(season_id: str) -> BaseResponse:
    """The season's page: its evenings, its ladder and the chart of places; its points
    table for its director. 304 while nothing of it changed (its evenings' games included)."""
    stamp = seasons.stamp_of(season_id)
    if stamp is None:
        abort(404, str(NO_SEASON))
    director = seasons.director_matches(stamp, season_secret(season_id))
    etag = f"season-{season_id}-{stamp.version}-e{stamp.evenings}-{int(director)}"
    etag += f"-{current_language()}"
    return conditional(etag, lambda: _page(_view_or_404(season_id), director))


@bp.post("/seasons/<season_id>/points")
def season_points(season_id: str) -> BaseResponse:
    """The director's points table: the ladder counts every finished evening again."""
    typed = typed_points()
    try:
        changes.change_points(
            season_id,
            typed,
            season_secret(season_id),
            device=device_label(),
            request_key=page_key(),
        )
    except Refused as refusal:
        if REFUSALS[refusal.why].error_page:
            abort_refused(refusal)
        by_box, _others = place_errors(refusal)
        flash(render_text(refusal.text), "error")
        found = _view_or_404(season_id)
        return _page(found, is_director(found), REFUSALS[refusal.why].status, typed, by_box)
    flash(_("The points table is saved; the ladder counts every evening with it."), "saved")
    return redirect(url_for("web.season", season_id=season_id))
