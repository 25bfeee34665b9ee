"""The new-game page: the rule set, the sides and their players, the first dealer, house
rules; and the draw for seats (who sits where, who deals first)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask import flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..extensions import creates_game
from ..i18n import gettext as _
from ..i18n import render_text
from ..rules import VARIANTS, RuleSet, Seat, seating
from ..rules.draw import DrawError, Drawn, Redraw, draw_card, draw_for_seats, redraws
from ..store import changes, games, players
from ..store.changes import SideSpec
from ..store.errors import Refused, Why
from ..store.games import Sheet
from ..store.models import Game
from . import bp
from .answers import abort_refused
from .forms import NewGameForm
from .scorer import device_label, name_this_phone, set_scorer_cookie

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
            set_scorer_cookie(response, game.id, token)
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
