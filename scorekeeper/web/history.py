"""Every game played here: the home page (games in progress, the latest finished), the
history page, and the downloads of one game or of all."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

from flask import Response, render_template, request, stream_with_context
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from wtforms import DateField, Field, Form, IntegerField, SelectField, StringField
from wtforms.validators import Length, NumberRange, Optional, ValidationError

from ..caching import cached
from ..i18n import day_start, local_date, zone_name
from ..rules import VARIANTS
from ..rules.limits import MAX_NAME, MAX_PAGE
from ..store.games import export_game, sheet_of
from ..store.history import (
    Filters,
    deleted_among,
    evening_lines,
    every_game,
    games_of,
    history,
    listing,
    version,
)
from ..store.players import roster_choices
from . import bp
from .answers import game_or_404
from .cells import neutral
from .scorer import last_change, scored_games


class HistoryForm(Form):
    """The history page's filters, read from the query string (a GET form: no CSRF)."""

    q = StringField(_l("Name"), [Optional(), Length(max=MAX_NAME)])
    player = SelectField(_l("Player"), default="", validate_choice=True)
    variant = SelectField(_l("Rule set"), default="", validate_choice=True)
    since = DateField(_l("From"), [Optional()])
    until = DateField(_l("Until"), [Optional()])
    page = IntegerField(_l("Page"), [Optional(), NumberRange(min=1, max=MAX_PAGE)])

    def validate_q(self, field: Field) -> None:
        if field.data and any(unicodedata.category(c).startswith("C") for c in field.data):
            raise ValidationError(_("A name is letters, digits and punctuation."))

    def validate_until(self, field: Field) -> None:
        if field.data and self.since.data and field.data < self.since.data:
            raise ValidationError(_("The last day cannot come before the first."))


#: Games the home page lists; the history has the rest.
HOME_GAMES = 12


@bp.get("/")
def index() -> str:
    """Games in progress, then the latest finished ones; the history has every game."""
    found, total = history(Filters(), per_page=HOME_GAMES)
    return render_template(
        "index.html",
        undo=last_change(),
        in_progress=[g for g in found if not g.finished],
        finished=[g for g in found if g.finished],
        total=total,
    )


def _filters(form: HistoryForm) -> Filters:
    """The filters that were given well; a badly given one is shown with its message and
    left out, rather than hiding every game."""
    form.validate()

    def good(field_name: str) -> object:
        field = form[field_name]
        return None if field.errors else field.data

    player = good("player")
    since, until = good("since"), good("until")
    return Filters(
        player=int(player) if isinstance(player, str) and player else None,
        variant=str(good("variant") or "") or None,
        # Days of the phone's own time zone, from its midnight to the next.
        since=day_start(since) if isinstance(since, date) else None,
        before=day_start(until + timedelta(days=1))
        if isinstance(until, date) and until < date.max
        else None,
        search=str(good("q") or "").strip(),
    )


#: The query-string keys the history passes on to its other pages.
FILTERS = ("q", "player", "variant", "since", "until")


#: The query-string keys the history page reads.
ARGUMENTS = (*FILTERS, "page")


@bp.get("/history")
def history_page() -> str:
    """All games, in progress first and newest first; filtered, searched and paged."""
    # Kept under what it shows: the history's version (moved by every change of a game,
    # an evening or the roster), the filters as asked and the time zone its dates are in.
    asked = tuple((name, request.args.get(name)) for name in ARGUMENTS)
    content = cached(("history", asked, zone_name()), _content, at=version())
    # Outside what is kept: it is this phone's own (the games it kept score of).
    deleted = deleted_among(scored_games())
    return render_template("history/index.html", content=Markup(content), deleted=deleted)


def _content() -> str:
    """The page's filters, its games and the club evenings beside them, by the same
    filters, each evening to its results page."""
    form = HistoryForm(request.args)
    form.player.choices = [("", _("Everyone"))] + [(str(pid), n) for pid, n in roster_choices()]
    form.variant.choices = [("", _("Every rule set"))] + [
        (variant.id, _(variant.short_name)) for variant in VARIANTS.values()
    ]
    filters = _filters(form)
    page = form.page.data if not form.page.errors and form.page.data else 1
    listed = listing(filters, page)
    evenings, evenings_total = evening_lines(filters)
    games = render_template(
        "history/_content.html",
        form=form,
        filtered=filters.active,
        games=games_of(listed),
        total=listed.total,
        page=listed.page,
        pages=listed.pages,
        query={k: request.args[k] for k in FILTERS if request.args.get(k)},
    )
    lines = render_template(
        "history/_evenings.html", evenings=evenings, evenings_total=evenings_total
    )
    return games + lines


@bp.get("/games/<game_id>/sheet.csv")
def sheet_csv(game_id: str) -> Response:
    """The score sheet as a spreadsheet, laid out like the paper one: a row per deal with
    each side's score and running total, the starting totals first, the winner last."""
    sheet = sheet_of(game_or_404(game_id))
    game, state = sheet.game, sheet.state
    out = io.StringIO()
    writer = csv.writer(out)
    heading = [_("Deal"), _("Dealer")]
    for side in game.sides:
        heading += [side.name, _("%(side)s total", side=side.name)]
    writer.writerow([neutral(cell) for cell in heading])
    if any(state.starts):
        writer.writerow([_("Start"), ""] + [x for start in state.starts for x in ("", start)])
    for line in state.lines:
        row: list[object] = [line.number, neutral(sheet.player_name(line.dealer))]
        for score, total in zip(line.scores, line.totals, strict=True):
            row += [score, total]
        writer.writerow(row)
    if state.winner is not None:
        writer.writerow([_("Winner"), neutral(game.sides[state.winner].name)])
    filename = f"canasta-{local_date(game.created_at)}-{game.id}.csv"
    return Response(
        "\ufeff" + out.getvalue(),  # the byte-order mark tells spreadsheets it is UTF-8
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


#: The document that holds every game: a list of single-game exports.
EXPORT_ALL_FORMAT = "canasta-scorekeeper/all/1"


@bp.get("/history/export.json")
def export_all() -> Response:
    """Every game as one JSON document (each in the format of the single-game export,
    which ``POST /api/games/import`` takes back), streamed a batch of games at a time."""

    def document() -> Iterator[str]:
        stamp = json.dumps(datetime.now(UTC).replace(microsecond=0).isoformat())
        yield f'{{"format": {json.dumps(EXPORT_ALL_FORMAT)}, "exported_at": {stamp}, "games": ['

        for index, game in enumerate(every_game()):
            yield ("," if index else "") + "\n" + json.dumps(export_game(sheet_of(game)))
        yield "\n]}\n"

    stamp = local_date(datetime.now(UTC))
    return Response(
        stream_with_context(document()),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="canasta-all-{stamp}.json"'},
    )
