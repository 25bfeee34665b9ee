"""Views of a game: create, the score sheet, record / edit / delete a deal."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from flask import (
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.wrappers import Response as BaseResponse

from .. import game_creation_limit, htmx, limiter
from ..i18n import current_language
from ..rules import (
    VARIANTS,
    RuleSet,
    Seat,
    Violation,
    errors_of,
    score_breakdown,
    seating,
)
from ..rules.cards import COUNTER_CLASSES
from ..rules.text import T
from ..store import players
from ..store.games import (
    Outdated,
    Refusal,
    Sheet,
    SideSpec,
    add_deal,
    check_deal,
    create_game,
    deal_at,
    delete_deal,
    game_version,
    load,
    replace_deal,
    sheet_of,
    sheet_with,
    side_results,
    token_matches,
)
from ..store.history import Filters, history
from ..store.models import Deal, Game
from . import bp
from .forms import ConfirmForm, DealForm, JoinForm, NewGameForm, fill_deal_form
from .sheets import compress_as, sheet_cache

#: The cookie that holds a game's edit secret, scoped to that game's pages.
SCORER_COOKIE = "scorer"
SCORER_COOKIE_AGE = 366 * 24 * 3600


_NO_GAME = lazy_gettext("There is no such game. Check the address, or start a new game.")


def _game_or_404(game_id: str) -> Game:
    game = load(game_id)
    if game is None:
        abort(404, str(_NO_GAME))
    return game


def _deal_or_404(game: Game, number: int) -> Deal:
    try:
        return deal_at(game, number)
    except Refusal as refusal:
        abort(404, refusal.message)


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="scorer-cookie")


def scorer_token() -> str | None:
    """The game secret this browser holds (the signed scorer cookie), if any."""
    cookie = request.cookies.get(SCORER_COOKIE)
    if not cookie:
        return None
    try:
        token = _signer().loads(cookie)
    except BadSignature:
        return None
    return token if isinstance(token, str) else None


def can_score(game: Game) -> bool:
    """Only a browser holding the game's secret (its creator, or a scorer link) may change it."""
    return token_matches(game, scorer_token())


def _require_scorer(game: Game) -> None:
    if not can_score(game):
        abort(
            403,
            _(
                "Only the phone that keeps this game's score can change it (ask for the scorer "
                "link)."
            ),
        )


def _set_scorer_cookie(response: BaseResponse, game: Game, token: str) -> None:
    response.set_cookie(
        SCORER_COOKIE,
        _signer().dumps(token),
        max_age=SCORER_COOKIE_AGE,
        path=url_for("web.sheet", game_id=game.id),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


#: Games the home page lists; the history has the rest.
HOME_GAMES = 12


@bp.get("/")
def index() -> str:
    """Games in progress, then the latest finished ones; the history has every game."""
    games, total = history(Filters(), per_page=HOME_GAMES)
    return render_template(
        "index.html",
        in_progress=[g for g in games if not g.finished],
        finished=[g for g in games if g.finished],
        total=total,
    )


#: Railroad tables seat this many players unless the new-game page says otherwise.
DEFAULT_RAILROAD_PLAYERS = 4


def _table(variant: str | None, players: int | None) -> RuleSet:
    """The rule set the new-game page is for: a known variant (classic by default) at a
    table size it allows."""
    base = VARIANTS.get(variant or "", VARIANTS["classic"])
    if base.sides_range is None:
        return base
    low, high = base.sides_range
    count = players if players is not None else DEFAULT_RAILROAD_PLAYERS
    return base.with_sides(min(max(count, low), high))


@bp.route("/games/new", methods=["GET", "POST"])
@limiter.limit(game_creation_limit, methods=["POST"])
def create() -> str | BaseResponse | tuple[str, int]:
    """Start a game: rule set, sides, players in seat order, first dealer, house rules."""
    source = load(request.args["from"]) if "from" in request.args else None
    if source is not None and request.method == "GET":
        rules = _table(source.variant, len(source.sides))
    else:
        rules = _table(request.args.get("variant"), request.args.get("players", type=int))
    form = NewGameForm()
    form.setup(rules)
    if source is not None and not form.is_submitted():
        _prefill_from(form, source)
    seats = seating([rules.players_per_side] * rules.sides)
    if form.validate_on_submit():
        try:
            game, token = create_game(
                rules.id,
                _side_specs(form, rules, seats),
                form.options(VARIANTS[rules.id].with_sides(rules.sides)),
                first_dealer=form.first_dealer.data,
            )
        except Refusal as refusal:
            for path, message in refusal.fields.items():
                field = form.field_for(path)
                if field is None:
                    flash(message, "error")
                else:
                    field.errors = [*field.errors, message]
        else:
            response = redirect(url_for("web.sheet", game_id=game.id))
            _set_scorer_cookie(response, game, token)
            return response
    status = 422 if form.is_submitted() else 200
    lines = players.roster()
    regulars = sorted(
        (line for line in lines if line.last_played is not None),
        key=lambda line: line.last_played,  # type: ignore[arg-type,return-value]
        reverse=True,
    )[:REGULARS]
    return render_template(
        "games/new.html",
        form=form,
        rules=rules,
        seats=seats,
        variants=VARIANTS.values(),
        roster=[line.person.name for line in lines],
        regulars=sorted((line.person.name for line in regulars), key=str.casefold),
    ), status


#: Names offered as one-tap chips on the new-game page: who played most recently.
REGULARS = 12


def _side_specs(form: NewGameForm, rules: RuleSet, seats: Sequence[Seat]) -> list[SideSpec]:
    """Sides from the form: partners gathered from their seats; a player alone is a side
    named after the player."""
    players: list[list[str]] = [[] for _ in range(rules.sides)]
    for seat, entry in zip(seats, form.players, strict=True):
        players[seat.side].append(entry.data)
    return [
        SideSpec(
            name=(entry.form.name.data or "") if rules.partnerships else players[index][0],
            players=players[index],
            start=entry.form.start.data or 0,
        )
        for index, entry in enumerate(form.sides)
    ]


def _prefill_from(form: NewGameForm, game: Game) -> None:
    """'New game, same players': same sides, seats and rules; the next dealer deals."""
    sheet = sheet_of(game)
    for index, side in enumerate(game.sides):
        form.sides[index].form.name.data = side.name
    for index, seat in enumerate(sheet.seats):
        form.players[index].data = sheet.player_name(seat)
    form.first_dealer.data = sheet.seats.index(sheet.state.next_dealer)
    form.fill_rules(sheet.rules)


@bp.get("/games/<game_id>")
def sheet(game_id: str) -> str | BaseResponse:
    """The score sheet: totals, minimums, the dealer, every deal. A follower's browser
    asks for its changing part alone (htmx), and gets 304 while nothing has changed.
    Both come from the worker's copy of the sheet while the game's version is unchanged
    (``sheets``)."""
    partial = bool(htmx) and not htmx.boosted
    version = game_version(game_id)
    if version is None:
        abort(404, _("There is no such game.") if partial else _NO_GAME)
    cache = sheet_cache()
    if partial:
        etag = f"{game_id}-{version}-{int(scorer_token() is not None)}-{current_language()}"
        # Weak: it names the sheet's state, so it holds for the compressed bytes too (and
        # Flask-Compress leaves a weak ETag as it is).
        if request.if_none_match.contains_weak(etag):
            response = make_response("", 304)
        else:
            shown = cache.get(game_id, version) or cache.put(_game_or_404(game_id))
            scorer = can_score(shown.sheet.game)
            response = make_response(str(shown.live(scorer)))
            compress_as(f"live;{request.script_root};{etag};{int(scorer)}")
        response.set_etag(etag, weak=True)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Vary"] = "HX-Request"
        return response
    shown = cache.get(game_id, version) or cache.put(_game_or_404(game_id))
    game = shown.sheet.game
    scorer_link = None
    if can_score(game):
        # The secret rides in the fragment: browsers never send it, so no server logs it.
        scorer_link = url_for("web.join", game_id=game.id, _external=True) + f"#{scorer_token()}"
    response = make_response(
        render_template(
            "games/sheet.html",
            sheet=shown.sheet,
            live=shown.live(scorer_link is not None),
            can_score=scorer_link is not None,
            scorer_link=scorer_link,
            viewer_link=url_for("web.sheet", game_id=game.id, _external=True),
        )
    )
    response.headers["Vary"] = "HX-Request"
    if scorer_link:
        # It carries the scorer link (the game's secret): no shared cache keeps it.
        response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.route("/games/<game_id>/join", methods=["GET", "POST"])
def join(game_id: str) -> BaseResponse | tuple[str, int] | str:
    """The scorer link: hands the game's secret to another phone. The link carries it in
    its fragment (``#secret``), which app.js posts here; it can also be pasted."""
    game = _game_or_404(game_id)
    form = JoinForm()
    if form.validate_on_submit():
        token = (form.token.data or "").strip()
        if token_matches(game, token):
            response = redirect(url_for("web.sheet", game_id=game.id))
            _set_scorer_cookie(response, game, token)
            return response
        form.token.errors = [*form.token.errors, _("This is not the secret of this game.")]
    status = 403 if form.is_submitted() else 200
    return render_template("games/join.html", game=game, form=form), status


def _deal_form(sheet: Sheet) -> DealForm:
    return DealForm().setup([side.name for side in sheet.game.sides])


def _check(form: DealForm, sheet: Sheet, number: int) -> tuple[list[Violation], list[Violation]]:
    """Validate the form, then the entry under the rules; attach every message to its field."""
    if not form.validate():
        return [], []
    violations = check_deal(sheet, form.results(), number)
    loose = form.attach(violations)
    return violations, loose


def _loose(refusal: Refusal) -> Violation:
    """A refusal of the deal as a whole (not of one figure), shown above the save button."""
    return Violation("results", "refused", T("%(message)s", message=refusal.message))


def _render_deal_form(
    sheet: Sheet, form: DealForm, number: int, loose: Sequence[Violation] = (), status: int = 200
) -> tuple[str, int]:
    state = sheet.state
    editing = number <= len(state.lines)
    if editing:
        # The sheet as it stood when this deal began: totals before it, its minimums.
        line = state.lines[number - 1]
        before = tuple(t - s for t, s in zip(line.totals, line.scores, strict=True))
        minimums, dealer = line.minimums, line.dealer
    else:
        before, minimums, dealer = state.totals, state.minimums, state.next_dealer
    return render_template(
        "deals/form.html",
        sheet=sheet,
        form=form,
        number=number,
        editing=editing,
        dealer=sheet.player_name(dealer),
        totals=before,
        minimums=minimums,
        counter_classes=COUNTER_CLASSES,
        loose=loose,
        preview=_preview(sheet, form, number) if form.is_submitted() else None,
    ), status


def _preview(sheet: Sheet, form: DealForm, number: int) -> dict[str, object] | None:
    """Scores and new totals for the live line, or None while an entry is unreadable."""
    if form.has_errors():
        return None
    results = form.results()
    if errors_of(check_deal(sheet, results, number)):
        return None
    state = sheet_with(sheet, number, results)
    line = state.lines[number - 1]
    return {
        "line": line,
        "breakdowns": [score_breakdown(result, sheet.rules) for result in results],
        "winner": state.winner if state.finished_after == number else None,
    }


@bp.route("/games/<game_id>/deals/new", methods=["GET", "POST"])
def record(game_id: str) -> tuple[str, int] | BaseResponse:
    """Enter the next deal, checked against the rules before anything is saved."""
    game = _game_or_404(game_id)
    _require_scorer(game)
    sheet = sheet_of(game)
    form = _deal_form(sheet)
    nonce = form.nonce.data if form.is_submitted() else None
    for seen, deal in enumerate(game.deals, start=1):
        if nonce and deal.request_key == nonce:
            # A double tap or a resent form: the deal is already on the sheet.
            flash(_("Deal %(number)s was already saved.", number=seen), "saved")
            return redirect(url_for("web.sheet", game_id=game.id))
    if sheet.state.finished:
        flash(_("This game is over. Edit or delete a deal to reopen it."), "error")
        return redirect(url_for("web.sheet", game_id=game.id))
    number = sheet.state.next_deal
    if not form.is_submitted():
        form.nonce.data = secrets.token_urlsafe(16)
        return _render_deal_form(sheet, form, number)
    violations, loose = _check(form, sheet, number)
    if form.has_errors() or errors_of(violations):
        return _render_deal_form(sheet, form, number, loose, status=422)
    try:
        saved = add_deal(game, form.results(), request_key=form.nonce.data or None)
    except Refusal as refusal:
        return _render_deal_form(sheet, form, number, [_loose(refusal)], status=refusal.status)
    flash(_("Deal %(number)s saved.", number=saved.number), "saved")
    return redirect(url_for("web.sheet", game_id=game.id))


@bp.route("/games/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def update(game_id: str, number: int) -> tuple[str, int] | BaseResponse:
    """Correct an earlier deal; every later total and minimum follows."""
    game = _game_or_404(game_id)
    _require_scorer(game)
    deal = _deal_or_404(game, number)
    sheet = sheet_of(game)
    form = _deal_form(sheet)
    if not form.is_submitted():
        fill_deal_form(form, side_results(deal))
        form.version.data = str(deal.version)
        return _render_deal_form(sheet, form, number)
    violations, loose = _check(form, sheet, number)
    if form.has_errors() or errors_of(violations):
        return _render_deal_form(sheet, form, number, loose, status=422)
    try:
        version = int(form.version.data) if (form.version.data or "").isdigit() else None
        replace_deal(game, number, form.results(), version=version)
    except Outdated as outdated:
        # Someone else's change wins the race: show it, and let this phone decide.
        fresh = _game_or_404(game_id)
        current = fresh.deals[number - 1]
        fill_deal_form(form, side_results(current))
        form.version.data = str(current.version)
        return _render_deal_form(sheet_of(fresh), form, number, [_loose(outdated)], status=409)
    except Refusal as refusal:
        game = _game_or_404(game_id)
        return _render_deal_form(
            sheet_of(game), form, number, [_loose(refusal)], status=refusal.status
        )
    flash(_("Deal %(number)s changed.", number=number), "info")
    return redirect(url_for("web.sheet", game_id=game.id))


@bp.post("/games/<game_id>/deals/preview")
def preview(game_id: str) -> Response:
    """The live line under the deal form: each side's score and new total (htmx)."""
    game = _game_or_404(game_id)
    _require_scorer(game)
    sheet = sheet_of(game)
    number = request.args.get("number", type=int) or sheet.state.next_deal
    number = max(1, min(number, sheet.state.next_deal))
    form = _deal_form(sheet)
    _violations, loose = _check(form, sheet, number)
    html = render_template(
        "deals/_preview.html",
        sheet=sheet,
        form=form,
        number=number,
        loose=loose,
        preview=_preview(sheet, form, number),
        oob=True,
    )
    response = make_response(html)
    response.headers["Vary"] = "HX-Request"
    return response


@bp.route("/games/<game_id>/deals/<int:number>/delete", methods=["GET", "POST"])
def delete(game_id: str, number: int) -> str | BaseResponse | tuple[str, int]:
    """Delete a deal (undo is deleting the last one), after a confirmation."""
    game = _game_or_404(game_id)
    _require_scorer(game)
    _deal_or_404(game, number)
    sheet = sheet_of(game)
    form = ConfirmForm()
    if form.validate_on_submit():
        seq = int(form.seq.data) if (form.seq.data or "").isdigit() else None
        try:
            delete_deal(game, number, seq=seq)
        except Refusal as refusal:
            flash(refusal.message, "error")
            return redirect(url_for("web.sheet", game_id=game_id))
        flash(_("Deal %(number)s deleted.", number=number), "info")
        return redirect(url_for("web.sheet", game_id=game_id))
    line = sheet.state.lines[number - 1]
    form.seq.data = str(game.deals[number - 1].seq)
    return render_template(
        "deals/delete.html",
        sheet=sheet,
        form=form,
        number=number,
        line=line,
        last=number == len(game.deals),
    )
