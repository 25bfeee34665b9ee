"""The roster, each player's (and partnership's) statistics and rating, and the ladder."""

from __future__ import annotations

import re

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse
from wtforms import StringField
from wtforms.validators import InputRequired, Length

from ..caching import cached, rated_club
from ..i18n import render_text, zone_name
from ..rules import CANASTA_NAMES, NEWCOMER, CanastaKind
from ..rules.limits import MAX_NAME
from ..rules.stats import Summary
from ..rules.text import N_
from ..store import changes, pairs, players, ratings
from ..store.changes.roster import NO_PERSON
from ..store.errors import Refused, Why
from . import bp
from .forms import PageForm
from .rating_chart import rating_history
from .request_keys import page_key
from .scorer import device_label, scored_games


class PersonForm(PageForm):
    """A player's name on the roster: to add someone or to rename them."""

    name = StringField(
        _l("Name"),
        [InputRequired(_l("Give a name.")), Length(max=MAX_NAME)],
        render_kw={"autocomplete": "off", "maxlength": MAX_NAME},
    )


#: Each kind of canasta's row in a player's figures per deal.
PER_DEAL = {
    CanastaKind.NATURAL: N_("Natural canastas per deal"),
    CanastaKind.MIXED: N_("Mixed canastas per deal"),
    CanastaKind.SEQUENCE: N_("Sequence canastas per deal"),
    CanastaKind.DEUCE: N_("Seven-twos canastas per deal"),
    CanastaKind.JOKER: N_("Four-jokers canastas per deal"),
    CanastaKind.WILD: N_("Wild canastas per deal"),
    CanastaKind.SEVENS: N_("Sevens canastas per deal"),
    CanastaKind.ACES: N_("Aces canastas per deal"),
    CanastaKind.SEMI_NATURAL: N_("Semi-natural canastas per deal"),
}
#: Kinds every rule set has: their rows show even at 0.
EVERY_RULE_SET = (CanastaKind.NATURAL, CanastaKind.MIXED)


@bp.app_template_global("canasta_rates")
def canasta_rates(summary: Summary) -> list[tuple[str, str, float | None]]:
    """Per kind of canasta a player (or partnership) made: its row's label, the names the
    rule sets of their games give it (where one has a name of its own: "samba"), canastas
    per deal. Kinds no rule set of theirs scored are left out."""
    rows = []
    for kind in CanastaKind:
        count: int = getattr(summary, kind.field)
        if count or kind in EVERY_RULE_SET:
            words = summary.canasta_words(kind)
            own = any(word != CANASTA_NAMES[kind].word for word in words)
            names = ", ".join(_(word) for word in words) if own else ""
            rows.append((_(PER_DEAL[kind]), names, summary.per_deal(count)))
    return rows


def _person_or_404(person_id: int) -> players.Listed:
    person = players.find(person_id)
    if person is None:
        abort(404, render_text(NO_PERSON))
    return person


@bp.route("/players", methods=["GET", "POST"])
def roster() -> str | BaseResponse | tuple[str, int]:
    """Everyone who plays here, with games played and won; add someone new."""
    form = PersonForm()
    status = 200
    if form.validate_on_submit():
        try:
            person = changes.add_person(form.name.data or "")
        except Refused as refusal:
            form.name.errors = [render_text(refusal.text)]
            status = 422
        else:
            flash(_("%(name)s is on the list.", name=person.name), "saved")
            return redirect(url_for("web.roster"), 303)
    elif form.is_submitted():
        status = 422
    return render_template("players/index.html", lines=players.roster(), form=form), status


#: The ladder read by pairs (``/players/ladder?by=pairs``); by players otherwise.
BY_PAIRS = "pairs"


@bp.get("/players/ladder")
def ladder() -> str:
    """The club ladder: everyone with a rated game, the highest rating first; or, by pairs,
    every partnership of two rated as one."""
    version = ratings.version()
    by_pairs = request.args.get("by") == BY_PAIRS

    def make() -> str:
        return render_template("players/_ladder.html", lines=ratings.ladder(_club(version)))

    def make_pairs() -> str:
        return render_template("players/_pair_ladder.html", lines=pairs.pair_ladder(_club(version)))

    if by_pairs:
        part = Markup(cached(("pair-ladder",), make_pairs, at=version))
    else:
        part = Markup(cached(("ladder", zone_name()), make, at=version))
    return render_template(
        "players/ladder.html", ladder_part=part, start=NEWCOMER.shown, by_pairs=by_pairs
    )


def _club(version: int) -> ratings.Club:
    """The club's ratings at ``version`` (``caching.rated_club``): every player's page and
    the ladder read the same."""
    return rated_club()


def _rating_part(person_id: int) -> Markup:
    """A player's rating and its chart, rendered once per version of the ratings:
    a game they did not play moves their place, and a game of an earlier opponent their
    rating (``Person.version`` does not follow those)."""
    version = ratings.version()

    def make() -> str:
        club = _club(version)
        rated = club.people.get(person_id)
        return render_template(
            "players/_rating.html",
            rated=rated,
            chart=rating_history(NEWCOMER.shown, rated.history) if rated else None,
            place=ratings.place(club, person_id),
            start=NEWCOMER.shown,
        )

    return Markup(cached(("rating", person_id), make, at=version))


@bp.get("/players/<int:person_id>")
def player(person_id: int) -> str:
    """A player's statistics: games and wins, rating, per rule set, per deal, partners,
    rivals."""
    person = _person_or_404(person_id)
    return render_template(
        "players/show.html",
        person=person,
        page_part=_page_part(person),
        rating_part=_rating_part(person.id),
        form=PersonForm(name=person.name),
        may_rename=players.may_rename(person.id, scored_games()),
    )


def _page_part(person: players.Listed) -> Markup:
    """The player's figures, rendered once per version of their page (caching.cached)."""

    def make() -> str:
        page = players.player_page(person.id)
        if page is None:
            abort(404, render_text(NO_PERSON))
        return render_template("players/_page.html", page=page)

    return Markup(cached(("player", person.id, zone_name()), make, at=person.version))


@bp.post("/players/<int:person_id>/rename")
def rename(person_id: int) -> BaseResponse | tuple[str, int]:
    person = _person_or_404(person_id)
    form = PersonForm()
    status = 422
    if form.validate_on_submit():
        try:
            person = changes.rename_player(
                person.id,
                form.name.data or "",
                scoring=scored_games(),
                device=device_label(),
                request_key=page_key(),
            )
        except Refused as refusal:
            if refusal.why is Why.NOT_FOUND:
                abort(404, render_text(refusal.text))
            if refusal.why is Why.FORBIDDEN:
                status = 403
            form.name.errors = [render_text(refusal.text)]
        else:
            flash(_("Renamed: every game of theirs shows %(name)s.", name=person.name), "saved")
            return redirect(url_for("web.player", person_id=person.id), 303)
    html = render_template(
        "players/show.html",
        person=person,
        page_part=_page_part(person),
        rating_part=_rating_part(person.id),
        form=form,
        renaming=True,
        may_rename=True,
    )
    return html, status


@bp.get("/partnerships/<slug>")
def partnership(slug: str) -> str:
    """What these players did as one side (``slug``: their ids joined by hyphens)."""
    parts = slug.split("-")
    named = 2 <= len(parts) <= 3 and all(re.fullmatch("[0-9]{1,9}", part) for part in parts)
    page = players.partnership_page([int(part) for part in parts]) if named else None
    if page is None:
        abort(404, _("There is no such partnership."))
    return render_template(
        "players/partnership.html", page=page, ratings_part=_partnership_ratings(page)
    )


def _partnership_ratings(page: players.PartnershipPage) -> Markup:
    """The partnership's own rating beside each of its people's, rendered once per
    version of the ratings (a rename moves it too)."""
    ids = tuple(person.id for person in page.people)
    names = tuple(person.name for person in page.people)
    version = ratings.version()

    def make() -> str:
        club = _club(version)
        return render_template(
            "players/_pair_rating.html",
            pair=pairs.pair_rating(club, frozenset(ids)),
            people=[(i, n, club.people.get(i)) for i, n in zip(ids, names, strict=True)],
            start=NEWCOMER.shown,
        )

    return Markup(cached(("pair-rating", ids), make, at=version))
