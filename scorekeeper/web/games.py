"""Views of a game: create, the score sheet, record / edit / delete a deal."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from itsdangerous import BadSignature, URLSafeSerializer
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from .. import codes
from ..caching import cached, conditional, table_of
from ..devices import label_of
from ..extensions import creates_game, htmx
from ..i18n import current_language, lazy_gettext, number, render_text
from ..i18n import gettext as _
from ..rules import (
    VARIANTS,
    RuleSet,
    Seat,
    SideResult,
    Violation,
    errors_of,
    replay,
    score_breakdown,
    seating,
    validate_deal,
)
from ..rules.cards import COUNTER_CLASSES
from ..rules.draw import DrawError, Drawn, Redraw, draw_card, draw_for_seats, redraws
from ..rules.game import next_line, winner_of
from ..rules.text import T, Text
from ..store import changes, games, players
from ..store.changes import SideSpec
from ..store.errors import Refused, Why, is_request_key
from ..store.games import Head, Secured, Sheet
from ..store.history import Filters, history
from ..store.models import Game
from . import bp
from .chart import running_totals
from .forms import ConfirmForm, DealForm, JoinForm, NewGameForm, deal_form, fill_deal_form

#: The cookie that holds a game's edit secret, scoped to that game's pages.
SCORER_COOKIE = "scorer"
SCORER_COOKIE_AGE = 366 * 24 * 3600
#: Sent by the service worker for the sheet it keeps for offline use (templates/sw.js): the
#: answer is the follower's view, so no copy on the phone holds the secret.
OFFLINE_COPY_HEADER = "X-Offline-Copy"


NO_GAME = lazy_gettext("There is no such game. Check the address, or start a new game.")


def game_or_404(game_id: str) -> Game:
    """The whole game (for its sheet), or a 404 page (410 once deleted)."""
    game = games.load(game_id)
    if game is None:
        abort(404, str(NO_GAME))
    if game.deleted_at is not None:
        abort(410, render_text(changes.GAME_GONE))
    return game


def _head_or_404(game_id: str) -> Head:
    game = games.head(game_id)
    if game is None:
        abort(404, str(NO_GAME))
    if game.deleted:
        abort(410, render_text(changes.GAME_GONE))
    return game


#: The label this phone picked for the change log ("Ana's phone"), in its session.
DEVICE = "device"


def device_label() -> str:
    """How the change log names this phone: its own label, else its browser and system."""
    label = session.get(DEVICE)
    if isinstance(label, str) and label:
        return label
    return label_of(request.headers.get("User-Agent", ""))


def name_this_phone(label: str | None) -> None:
    """Keep the label a phone gave itself on the new-game or join page (blank: unchanged)."""
    label = " ".join((label or "").split())
    if label and label.isprintable():
        session[DEVICE] = label


#: The change this phone made last, for the Undo next to its flash message.
LAST_CHANGE = "last_change"


def changed(message: str, game_id: str, change: int | None) -> None:
    """Flash what a change did, and offer to undo it on the next page."""
    flash(message, "saved")
    if change is not None:
        session[LAST_CHANGE] = {"game": game_id, "change": change}


def last_change(game_id: str | None = None) -> tuple[str, int] | None:
    """The game and change to offer Undo for on this page (of ``game_id``, or of any game
    on the home page), taken from the session: offered once."""
    last = session.pop(LAST_CHANGE, None)
    if not isinstance(last, dict) or game_id not in (None, last.get("game")):
        return None
    game, change = last.get("game"), last.get("change")
    return (game, change) if isinstance(game, str) and isinstance(change, int) else None


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


def can_score(game: Secured) -> bool:
    """Only a browser holding the game's secret (its creator, or a scorer link) may change it."""
    return games.token_matches(game, scorer_token())


def require_scorer(game: Secured) -> str:
    """The game's secret this phone holds; a 403 page when it holds none."""
    secret = scorer_token()
    if not games.token_matches(game, secret):
        abort(
            403,
            _(
                "Only the phone that keeps this game's score can change it (ask for the scorer "
                "link)."
            ),
        )
    assert secret is not None
    return secret


def abort_refused(refusal: Refused) -> None:
    """A refusal the page cannot show next to a field: the error page with its status."""
    status = {Why.FORBIDDEN: 403, Why.NOT_FOUND: 404, Why.GONE: 410}.get(refusal.why, 409)
    abort(status, render_text(refusal.text))


def abort_if_lost(refusal: Refused) -> None:
    """No such game or deal (any more), or not this phone's to change: the error page; a
    page shows every other refusal itself."""
    if refusal.why in (Why.FORBIDDEN, Why.NOT_FOUND, Why.GONE):
        abort_refused(refusal)


#: Games this phone keeps score of, newest last, in its (signed) session: the scorer cookie
#: is sent to its game's pages only, and the roster's pages need to know (renaming a player
#: takes the right to keep score of a game they sat in).
SCORING = "scoring"
#: Enough for a season of evenings; an older game comes back when its sheet is opened.
SCORING_KEPT = 40


def note_scoring(game_id: str) -> None:
    """Remember in the session that this phone keeps score of ``game_id``."""
    kept = session.get(SCORING, [])
    if game_id not in kept:
        session[SCORING] = [*kept, game_id][-SCORING_KEPT:]


def scored_games() -> list[str]:
    """The games this phone keeps score of (as far as its session remembers)."""
    kept = session.get(SCORING, [])
    return [game_id for game_id in kept if isinstance(game_id, str)]


def _set_scorer_cookie(response: BaseResponse, game_id: str, token: str) -> None:
    note_scoring(game_id)
    response.set_cookie(
        SCORER_COOKIE,
        _signer().dumps(token),
        max_age=SCORER_COOKIE_AGE,
        path=url_for("web.sheet", game_id=game_id),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


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


#: Names offered as one-tap chips on the new-game page: who played most recently.
REGULARS = 12


@bp.route("/games/new", methods=["GET", "POST"])
@creates_game
def create() -> str | BaseResponse | tuple[str, int]:
    """Start a game: rule set, sides, players in seat order, first dealer, house rules."""
    source = games.load(request.args["from"]) if "from" in request.args else None
    if source is not None and request.method == "GET":
        rules = _table(source.variant, len(source.sides))
    else:
        rules = _table(request.args.get("variant"), request.args.get("players", type=int))
    form = NewGameForm()
    form.setup(rules)
    if source is not None and not form.is_submitted():
        _prefill_from(form, source)
    seats = seating([rules.players_per_side] * rules.sides)
    asked_draw = form.is_submitted() and "draw" in request.form
    redraw: tuple[str, ...] | None = None
    if asked_draw:
        # "Draw for seats": the form comes back with the seats filled in, nothing started.
        redraw = _draw_for_seats(form, rules)
    elif form.validate_on_submit():
        try:
            game, token = changes.create_game(
                rules.id,
                _side_specs(form, rules, seats),
                form.options(VARIANTS[rules.id].with_sides(rules.sides)),
                first_dealer=form.first_dealer.data,
                device=device_label(),
            )
        except Refused as refusal:
            if refusal.why is not Why.INVALID:
                abort_refused(refusal)
            for path, message in refusal.fields.items():
                field = form.field_for(path)
                if field is None:
                    flash(render_text(message), "error")
                else:
                    field.errors = [*field.errors, render_text(message)]
        else:
            name_this_phone(form.device.data)
            response = redirect(url_for("web.sheet", game_id=game.id))
            _set_scorer_cookie(response, game.id, token)
            return response
    seated = asked_draw and redraw == ()
    status = 422 if form.is_submitted() and not seated else 200
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
        redraw=redraw,
        places=_form_places(form, rules, seats) if seated else None,
        variants=VARIANTS.values(),
        roster=[line.person.name for line in lines],
        regulars=sorted((line.person.name for line in regulars), key=str.casefold),
        device_hint=device_label(),
    ), status


def _side_specs(form: NewGameForm, rules: RuleSet, seats: Sequence[Seat]) -> list[SideSpec]:
    """Sides from the form: partners gathered from their seats; a player alone is a side
    named after the player. The cards drawn for seats come along when every player tapped
    one and the draw needed no second round."""
    names: list[list[str]] = [[] for _ in range(rules.sides)]
    cards: list[list[str]] = [[] for _ in range(rules.sides)]
    tokens = [entry.form.token for entry in form.cards]
    keep = all(tokens) and not redraws(
        [Drawn(str(index), draw_card(token or "")) for index, token in enumerate(tokens)]
    )
    for seat, entry, token in zip(seats, form.players, tokens, strict=True):
        names[seat.side].append(entry.data)
        if keep and token:
            cards[seat.side].append(token)
    return [
        SideSpec(
            name=form.side_name(index) if rules.partnerships else names[index][0],
            players=names[index],
            start=entry.form.start.data or 0,
            cards=cards[index],
        )
        for index, entry in enumerate(form.sides)
    ]


def _draw_for_seats(form: NewGameForm, rules: RuleSet) -> tuple[str, ...] | None:
    """The draw of the new-game page: with every name and card given, the players go to
    their drawn seats (their cards with them) and the player to the right of the highest
    deals first. Returns ``()`` once seated, who must draw again (their cards cleared),
    or None when a name or a card is missing (the fields say which)."""
    names = [(entry.data or "").strip() for entry in form.players]
    complete = True
    for seat, (entry, name, pick) in enumerate(zip(form.players, names, form.cards, strict=True)):
        if not name:
            entry.errors = [_("Each player needs a name.")]
            complete = False
        if pick.form.token is None:
            who = name or _("Seat %(number)s", number=seat + 1)
            pick.form.rank.errors = [
                _("Tap the card %(player)s drew: its rank and its suit.", player=who)
            ]
            complete = False
    if not complete:
        return None
    tokens = [pick.form.token or "" for pick in form.cards]
    try:
        draw = draw_for_seats(
            rules,
            [Drawn(name, draw_card(token)) for name, token in zip(names, tokens, strict=True)],
        )
    except DrawError as error:
        index = int(error.field.split(".")[1]) if error.field.count(".") == 2 else 0
        form.players[index].errors = [render_text(error.text)]
        return None
    except Redraw as redraw:
        for name, pick in zip(names, form.cards, strict=True):
            if name in redraw.players:
                pick.form.clear()
                pick.form.rank.errors = [_("%(player)s draws again.", player=name)]
        return redraw.players
    card_of = dict(zip(names, tokens, strict=True))
    for entry, pick, name in zip(form.players, form.cards, draw.seats, strict=True):
        entry.data = name
        pick.form.rank.data, pick.form.suit.data = _rank_and_suit(card_of[name])
    form.first_dealer.data = draw.first_dealer_seat
    return ()


def _rank_and_suit(token: str) -> tuple[str, str | None]:
    return (token, None) if token == "JK" else (token[:-1], token[-1])


@dataclass(frozen=True)
class Place:
    """A seat of the table drawing: who sits there, their side, the card they drew."""

    name: str
    side: int
    side_name: str
    card: str | None
    deals_first: bool

    @property
    def card_label(self) -> str:
        """The card as players write it: ``Q♠``."""
        if not self.card:
            return ""
        return self.card[:-1] + SUIT_SYMBOLS[self.card[-1]]

    @property
    def red(self) -> bool:
        return bool(self.card) and self.card[-1] in "HD"  # type: ignore[index]


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _form_places(form: NewGameForm, rules: RuleSet, seats: Sequence[Seat]) -> list[Place]:
    """The table as the new-game form now seats it."""
    return [
        Place(
            name=entry.data,
            side=seat.side,
            side_name=form.side_name(seat.side) if rules.partnerships else "",
            card=pick.form.token,
            deals_first=index == form.first_dealer.data,
        )
        for index, (seat, entry, pick) in enumerate(
            zip(seats, form.players, form.cards, strict=True)
        )
    ]


def sheet_places(sheet: Sheet) -> list[Place]:
    """Who sat where in a game: its seats in order, the first dealer, the cards drawn."""
    partnerships = sheet.rules.partnerships
    places = []
    for index, seat in enumerate(sheet.seats):
        side = sheet.game.sides[seat.side]
        player = side.players[seat.player]
        places.append(
            Place(
                name=player.name,
                side=seat.side,
                side_name=side.name if partnerships else "",
                card=player.card,
                deals_first=index == sheet.game.first_dealer,
            )
        )
    return places


def _prefill_from(form: NewGameForm, game: Game) -> None:
    """'New game, same players': same sides, seats and rules; the next dealer deals."""
    sheet = games.sheet_of(game)
    for index, side in enumerate(game.sides):
        form.sides[index].form.name.data = side.name
    for index, seat in enumerate(sheet.seats):
        form.players[index].data = sheet.player_name(seat)
    form.first_dealer.data = sheet.seats.index(sheet.state.next_dealer)
    form.fill_rules(sheet.rules)


def _sheet_part(game_id: str, version: int, scorer: bool) -> dict[str, Any]:
    """The score sheet's own part at this version, for a scorer or a follower, rendered
    once and kept (with the page's title and the number of deals)."""

    def render() -> dict[str, Any]:
        sheet = games.sheet_of(game_or_404(game_id))
        totals = sheet.state.totals
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
            ),
            "deals": len(sheet.state.lines),
            "next_deal": None if sheet.state.finished else sheet.state.next_deal,
        }

    part: dict[str, Any] = cached(("sheet", game_id, version, scorer), render)
    return part


def _live_part(game_id: str, version: int, scorer: bool) -> str:
    """The part of the sheet that changes with each deal, alone (a follower's poll)."""

    def render() -> str:
        sheet = games.sheet_of(game_or_404(game_id))
        return render_template(
            "games/_live.html", sheet=sheet, chart=running_totals(sheet.state), can_score=scorer
        )

    html: str = cached(("live", game_id, version, scorer), render)
    return html


@bp.get("/games/<game_id>")
def sheet(game_id: str) -> str | BaseResponse:
    """The score sheet: totals, minimums, the dealer, every deal. A follower's browser
    asks for its changing part alone (htmx) every few seconds: 304 while the game's
    version is the one it has."""
    partial = bool(htmx) and not htmx.boosted
    current = games.version_of(game_id)
    if current is None:
        abort(404, _("There is no such game.") if partial else NO_GAME)
    offline_copy = OFFLINE_COPY_HEADER in request.headers
    scorer = can_score(current) and not offline_copy
    if current.deleted:
        return _deleted_page(game_id, scorer)
    if scorer:
        note_scoring(game_id)  # a phone that kept score before the session remembered it
    if partial:
        etag = f"sheet-{game_id}-{current.version}-{int(scorer)}-{current_language()}"
        response = conditional(etag, lambda: _live_part(game_id, current.version, scorer))
        response.vary.add("HX-Request")
        return response
    part = _sheet_part(game_id, current.version, scorer)
    response = current_app.make_response(
        render_template(
            "games/sheet.html",
            title=part["title"],
            body=Markup(part["body"]),
            game_id=game_id,
            scorer=scorer,
            viewer_link=url_for("web.sheet", game_id=game_id, _external=True),
            undo=last_change(game_id) if scorer else None,
            keep_awake=True,
            offline_copy=offline_copy,
            # The copy kept on a scorer's phone offers its deal form, which works offline.
            offline_record=part.get("next_deal") if offline_copy and can_score(current) else None,
        )
    )
    response.vary.update(("HX-Request", OFFLINE_COPY_HEADER))
    if scorer:
        # The scorer's own page (its share panel offers the scorer link): no cache keeps
        # it, nor the service worker (it keeps the follower's view, asked for with
        # OFFLINE_COPY_HEADER).
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


@bp.get("/games/<game_id>/scorer-code")
def scorer_code(game_id: str) -> BaseResponse:
    """The scorer link and its QR code, for the scorer's phone alone, on a tap in the
    share panel (the sheet never holds the secret). The secret rides in the fragment:
    browsers never send it, so no server logs it."""
    secret = require_scorer(_head_or_404(game_id))
    link = url_for("web.join", game_id=game_id, _external=True) + f"#{secret}"
    response = current_app.make_response(
        render_template(
            "games/scorer_code.html",
            game_id=game_id,
            scorer_link=link,
            code_svg=Markup(codes.svg(link)),
        )
    )
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.route("/games/<game_id>/join", methods=["GET", "POST"])
def join(game_id: str) -> BaseResponse:
    """The scorer link: hands the game's secret to another phone. The link carries it in
    its fragment (``#secret``), which app.js posts here; it can also be pasted."""
    game = _head_or_404(game_id)
    form = JoinForm()
    if form.validate_on_submit():
        token = (form.token.data or "").strip()
        if games.token_matches(game, token):
            name_this_phone(form.device.data)
            response = redirect(url_for("web.sheet", game_id=game_id))
            _set_scorer_cookie(response, game_id, token)
            return response
        form.token.errors = [*form.token.errors, _("This is not the secret of this game.")]
    status = 403 if form.is_submitted() else 200
    if not form.is_submitted():
        form.device.data = session.get(DEVICE) or ""
    response = current_app.make_response(
        (
            render_template(
                "games/join.html",
                game=game,
                form=form,
                device_hint=label_of(request.headers.get("User-Agent", "")),
            ),
            status,
        )
    )
    # A secret is pasted here (and a refused one shown again): no cache keeps the page.
    response.headers["Cache-Control"] = "private, no-store"
    return response


# --- the deal page -------------------------------------------------------------------------


def _loose(text: Text) -> Violation:
    """A refusal of the deal as a whole (not of one figure), shown above the save button."""
    return Violation("results", "refused", text)


def _render_deal_form(
    game: Head | Game,
    rules: RuleSet,
    form: DealForm,
    number: int,
    *,
    editing: bool,
    dealer: str,
    totals: Sequence[int],
    minimums: Sequence[int],
    preview: dict[str, object] | None,
    loose: Sequence[Violation] = (),
    status: int = 200,
    dealers: Sequence[str] = (),
) -> tuple[str, int]:
    return render_template(
        "deals/form.html",
        game=game,
        rules=rules,
        form=form,
        number=number,
        editing=editing,
        dealer=dealer,
        totals=totals,
        minimums=minimums,
        counter_classes=COUNTER_CLASSES,
        loose=loose,
        preview=preview,
        dealers=dealers,
        keep_awake=True,
    ), status


def _entry(
    form: DealForm, rules: RuleSet, minimums: Sequence[int]
) -> tuple[list[SideResult] | None, list[Violation]]:
    """The form's entry (None while a figure is unreadable) with every message of the
    rules engine put next to its field; returns the entry and the messages of no field."""
    if not form.validate():
        return None, []
    results = form.results()
    loose = form.attach(validate_deal(results, rules, minimums=minimums))
    return results, loose


def _next_deal_preview(
    game: Head, results: Sequence[SideResult] | None
) -> dict[str, object] | None:
    """Scores and new totals of the next deal for the live line, or None while the entry
    cannot be scored."""
    rules = game.rules
    if results is None or errors_of(validate_deal(results, rules, minimums=game.minimums)):
        return None
    line = next_line(rules, game.totals, results, game.next_deal, game.dealer(game.next_deal))
    return {
        "line": line,
        "breakdowns": [score_breakdown(result, rules) for result in results],
        "winner": winner_of(line.totals, rules.target),
    }


def _render_next_deal(
    game: Head,
    form: DealForm,
    results: Sequence[SideResult] | None,
    loose: Sequence[Violation] = (),
    status: int = 200,
) -> tuple[str, int]:
    return _render_deal_form(
        game,
        game.rules,
        form,
        game.next_deal,
        editing=False,
        dealer=game.player_name(game.dealer(game.next_deal)),
        totals=game.totals,
        minimums=game.minimums,
        preview=_next_deal_preview(game, results) if form.is_submitted() else None,
        loose=loose,
        status=status,
        # Who deals from this deal on: a deal typed offline after others names its dealer.
        dealers=[game.player_name(game.dealer(game.next_deal + i)) for i in range(len(game.seats))],
    )


@bp.route("/games/<game_id>/deals/new", methods=["GET", "POST"])
def record(game_id: str) -> tuple[str, int] | BaseResponse:
    """Enter the next deal, checked against the rules before anything is saved. The game's
    deals are not read: the page costs the same in the first deal and the two hundredth;
    a save reads the game once, under the lock it is saved in."""
    if request.method == "GET":
        game = _head_or_404(game_id)
        require_scorer(game)
        if game.finished:
            flash(_("This game is over. Edit or delete a deal to reopen it."), "error")
            return redirect(url_for("web.sheet", game_id=game_id))
        form = deal_form(game.rules, [side.name for side in game.sides])
        form.nonce.data = secrets.token_urlsafe(16)
        return _render_next_deal(game, form, None)
    table = table_of(game_id)
    if table is None:
        abort(404, str(NO_GAME))
    secret = require_scorer(table)
    # The sides' names only label the choices: the page shown again reads them.
    form = deal_form(table.rules, [""] * table.sides)
    results = form.results() if form.validate() else None
    refusal: Refused | None = None
    # A nonce this page did not issue (not printable ASCII) guards nothing: it is not kept.
    nonce = form.nonce.data if form.nonce.data and is_request_key(form.nonce.data) else None
    if results is not None:
        try:
            recorded = changes.record_deal(
                game_id, results, secret=secret, request_key=nonce, device=device_label()
            )
        except Refused as refused:
            refusal = refused
        else:
            if recorded.repeated:
                # A double tap or a resent form: the deal is already on the sheet.
                flash(_("Deal %(number)s was already saved.", number=recorded.number), "saved")
            else:
                changed(
                    _("Deal %(number)s saved.", number=recorded.number), game_id, recorded.change
                )
            return redirect(url_for("web.sheet", game_id=game_id))
    if refusal is not None:
        abort_if_lost(refusal)
    game = _head_or_404(game_id)
    reused: Text | None = None
    if refusal is not None and refusal.why is Why.REUSED:
        # The form was saved before with other figures (changed after a slow save, or
        # sent again from the history): say so, rather than drop them silently.
        reused = T(
            "This form was already saved as deal %(number)s; these figures were not saved.",
            number=refusal.deal,
        )
    if game.finished:
        # The save that ended the game may be this very form's.
        flash(
            render_text(reused)
            if reused
            else _("This game is over. Edit or delete a deal to reopen it."),
            "error",
        )
        return redirect(url_for("web.sheet", game_id=game_id))
    form.setup([side.name for side in game.sides])
    loose = []
    if results is not None:  # the messages of the rules engine, next to their fields
        loose = form.attach(validate_deal(results, game.rules, minimums=game.minimums))
    if refusal is not None and refusal.why is not Why.INVALID:
        loose = [*loose, _loose(reused or refusal.text)]
    status = 422 if refusal is None or refusal.why is Why.INVALID else 409
    return _render_next_deal(game, form, results, loose, status=status)


def _edit_preview(
    sheet: Sheet, number: int, results: Sequence[SideResult] | None
) -> dict[str, object] | None:
    """Scores and new totals of an edited deal for the live line: the game replayed with
    the new entry."""
    if results is None:
        return None
    minimums = sheet.state.lines[number - 1].minimums
    if errors_of(validate_deal(results, sheet.rules, minimums=minimums)):
        return None
    deals = [games.side_results(deal) for deal in sheet.game.deals]
    deals[number - 1] = list(results)
    state = replay(
        sheet.rules,
        deals,
        starts=sheet.state.starts,
        seats=sheet.seats,
        first_dealer=sheet.game.first_dealer,
    )
    return {
        "line": state.lines[number - 1],
        "breakdowns": [score_breakdown(result, sheet.rules) for result in results],
        "winner": state.winner if state.finished_after == number else None,
    }


def _render_edit(
    sheet: Sheet,
    form: DealForm,
    number: int,
    results: Sequence[SideResult] | None,
    loose: Sequence[Violation] = (),
    status: int = 200,
) -> tuple[str, int]:
    line = sheet.state.lines[number - 1]
    return _render_deal_form(
        sheet.game,
        sheet.rules,
        form,
        number,
        editing=True,
        dealer=sheet.player_name(line.dealer),
        # The sheet as it stood when this deal began: totals before it, its minimums.
        totals=tuple(t - s for t, s in zip(line.totals, line.scores, strict=True)),
        minimums=line.minimums,
        preview=_edit_preview(sheet, number, results) if form.is_submitted() else None,
        loose=loose,
        status=status,
    )


def _sheet_with_deal(game_id: str, number: int) -> Sheet:
    sheet = games.sheet_of(game_or_404(game_id))
    require_scorer(sheet.game)
    if games.deal_at(sheet.game, number) is None:
        abort(404, _("This game has no deal %(number)s.", number=number))
    return sheet


@bp.route("/games/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def update(game_id: str, number: int) -> tuple[str, int] | BaseResponse:
    """Correct an earlier deal; every later total and minimum follows."""
    sheet = _sheet_with_deal(game_id, number)
    form = deal_form(sheet.rules, [side.name for side in sheet.game.sides])
    if not form.is_submitted():
        deal = sheet.game.deals[number - 1]
        fill_deal_form(form, games.side_results(deal))
        form.version.data = str(deal.version)
        form.nonce.data = secrets.token_urlsafe(16)
        return _render_edit(sheet, form, number, None)
    results, loose = _entry(form, sheet.rules, sheet.state.lines[number - 1].minimums)
    if results is None or form.has_errors():
        return _render_edit(sheet, form, number, results, loose, status=422)
    version = int(form.version.data) if (form.version.data or "").isdigit() else None
    nonce = form.nonce.data if form.nonce.data and is_request_key(form.nonce.data) else None
    try:
        edited = changes.edit_deal(
            game_id,
            number,
            results,
            secret=scorer_token(),
            version=version,
            device=device_label(),
            request_key=nonce,
        )
    except Refused as refusal:
        abort_if_lost(refusal)
        sheet = _sheet_with_deal(game_id, number)
        if refusal.why is Why.OUTDATED:
            # Someone else's change wins the race: show it, and let this phone decide.
            current = sheet.game.deals[number - 1]
            fill_deal_form(form, games.side_results(current))
            form.version.data = str(current.version)
            results = games.side_results(current)
        return _render_edit(sheet, form, number, results, [_loose(refusal.text)], status=409)
    changed(_("Deal %(number)s changed.", number=number), game_id, edited.change)
    return redirect(url_for("web.sheet", game_id=game_id))


@bp.post("/games/<game_id>/deals/preview")
def preview(game_id: str) -> Response:
    """The live line under the deal form: each side's score and new total (htmx). The next
    deal is played from the game's head; an edited one replays the game."""
    game = _head_or_404(game_id)
    require_scorer(game)
    number = request.args.get("number", type=int) or game.next_deal
    number = max(1, min(number, game.next_deal))
    form = deal_form(game.rules, [side.name for side in game.sides])
    context: dict[str, Any]
    if number == game.next_deal:
        results, loose = _entry(form, game.rules, game.minimums)
        context = {"game": game, "rules": game.rules, "preview": _next_deal_preview(game, results)}
    else:
        sheet = games.sheet_of(game_or_404(game_id))
        minimums = sheet.state.lines[number - 1].minimums
        results, loose = _entry(form, sheet.rules, minimums)
        context = {
            "game": sheet.game,
            "rules": sheet.rules,
            "preview": _edit_preview(sheet, number, results),
        }
    html = render_template(
        "deals/_preview.html", form=form, number=number, loose=loose, oob=True, **context
    )
    response = current_app.make_response(html)
    response.vary.add("HX-Request")
    return response


@bp.route("/games/<game_id>/deals/<int:number>/delete", methods=["GET", "POST"])
def delete(game_id: str, number: int) -> str | BaseResponse | tuple[str, int]:
    """Delete a deal (undo is deleting the last one), after a confirmation."""
    sheet = _sheet_with_deal(game_id, number)
    form = ConfirmForm()
    if form.validate_on_submit():
        seq = int(form.seq.data) if (form.seq.data or "").isdigit() else None
        try:
            deleted = changes.delete_deal(
                game_id, number, secret=scorer_token(), seq=seq, device=device_label()
            )
        except Refused as refusal:
            abort_if_lost(refusal)
            flash(render_text(refusal.text), "error")
            return redirect(url_for("web.sheet", game_id=game_id))
        changed(_("Deal %(number)s deleted.", number=number), game_id, deleted.change)
        return redirect(url_for("web.sheet", game_id=game_id))
    form.seq.data = str(sheet.game.deals[number - 1].seq)
    return render_template(
        "deals/delete.html",
        game=sheet.game,
        form=form,
        number=number,
        line=sheet.state.lines[number - 1],
        last=number == len(sheet.game.deals),
        keep_awake=True,
    )
