"""The new-game page: the rule set, the sides and their players, the first dealer, house
rules; and the draw for seats (who sits where, who deals first)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from ...extensions import creates_game
from ...i18n import number, render_text
from ...rules import (
    VARIANTS,
    OptionError,
    RuleSet,
    Seat,
    apply_options,
    differences,
    read_share_query,
    seating,
)
from ...rules.draw import DrawError, Drawn, Redraw, draw_card, draw_for_seats, redraws
from ...rules.house import PLAYERS, RESERVED, VARIANT
from ...store import changes, games
from ...store.changes import SideSpec
from ...store.errors import Refused, Why
from ...store.models import Game
from .. import bp
from ..answers import abort_refused
from ..house import (
    difference_lines,
    kept_text,
    option_label,
    option_value,
    read_kept,
    refusal_line,
    share_path,
)
from ..places import REGULARS, Place, roster_chips, seat_places
from ..scorer import device_label, name_this_phone, set_scorer_cookie
from .forms import NewGameForm, bonus_options
from .table_rules import field_names as table_field_names

#: Tables that choose their size (Railroad, Hand and Foot) seat this many players unless
#: the new-game page says otherwise.
DEFAULT_PLAYERS = 4


def _page_rules(variant: str | None, players: int | None) -> RuleSet:
    """The rule set the new-game page is for: a known variant (classic by default) at a
    table size it allows (``players``: Railroad's players, Hand and Foot's 4 or 6)."""
    base = VARIANTS.get(variant or "", VARIANTS["classic"])
    if base.sides_range is None:
        return base
    low, high = base.sides_range
    count = players if players is not None else DEFAULT_PLAYERS
    return base.with_sides(min(max(count // base.players_per_side, low), high))


@bp.route("/games/new", methods=["GET", "POST"])
@creates_game
def create() -> str | BaseResponse | tuple[str, int]:
    """Start a game: rule set, sides, players in seat order, first dealer, house rules."""
    source = games.load(request.args["from"]) if "from" in request.args else None
    if source is not None and request.method == "GET":
        each = VARIANTS[source.variant].players_per_side
        rules = _page_rules(source.variant, len(source.sides) * each)
    else:
        rules = _page_rules(request.args.get("variant"), request.args.get("players", type=int))
    form = NewGameForm()
    form.setup(rules)
    shared: list[str] = []
    if source is not None and not form.is_submitted():
        _prefill_from(form, source)
    elif not form.is_submitted():
        shared = _prefill_shared(form, rules)
    kept = read_kept(form.shared.data, rules).options
    fields = tuple(name for name in form_options(rules) if name not in kept)
    seats = seating([rules.players_per_side] * rules.sides)
    asked_draw = form.is_submitted() and "draw" in request.form
    asked_share = form.is_submitted() and "share" in request.form
    redraw: tuple[str, ...] | None = None
    share_link: str | None = None
    share_problems: list[str] = []
    if asked_draw:
        # "Draw for seats": the form comes back with the seats filled in, nothing started.
        redraw = _draw_for_seats(form, rules)
    elif asked_share:
        # "Share these rules": the link of the house rules as the form has them now.
        share_link, share_problems = _share_link(form, rules, kept, fields)
    elif form.validate_on_submit():
        name_this_phone(form.device.data)  # the game's first line names the phone so
        try:
            game, secret = changes.create_game(
                rules.id,
                _side_specs(form, rules, seats),
                {**form.options(VARIANTS[rules.id].with_sides(rules.sides)), **kept},
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
            response = redirect(url_for("web.sheet", game_id=game.id))
            set_scorer_cookie(response, game.id, secret)
            return response
    seated = asked_draw and redraw == ()
    status = 422 if form.is_submitted() and not (seated or share_link) else 200
    roster, regulars = roster_chips(REGULARS)
    return render_template(
        "games/new.html",
        form=form,
        rules=rules,
        seats=seats,
        redraw=redraw,
        places=_form_places(form, rules, seats) if seated else None,
        variants=VARIANTS.values(),
        fields=fields,
        shared=shared,
        kept=[
            f"{option_label(name)}: {option_value(value, rules)}" for name, value in kept.items()
        ],
        share_link=share_link,
        share_problems=share_problems,
        roster=roster,
        regulars=regulars,
        device_hint=device_label(),
        # Written here: Jinja would fold ``1250|num`` into the first request's language.
        paper_hint=_(
            "Total on the paper sheet, such as %(total)s or %(negative)s.",
            total=number(1250),
            negative=number(-150),
        ),
    ), status


def _side_specs(form: NewGameForm, rules: RuleSet, seats: Sequence[Seat]) -> list[SideSpec]:
    """Sides from the form: partners gathered from their seats; a player alone is a side
    named after the player. The cards drawn for seats come along when every player tapped
    one and the draw needed no second round."""
    names: list[list[str]] = [[] for _ in range(rules.sides)]
    cards: list[list[str]] = [[] for _ in range(rules.sides)]
    notations = [entry.form.notation for entry in form.cards]
    keep = all(notations) and not redraws(
        [Drawn(str(index), draw_card(notation or "")) for index, notation in enumerate(notations)]
    )
    for seat, entry, notation in zip(seats, form.players, notations, strict=True):
        names[seat.side].append(entry.data)
        if keep and notation:
            cards[seat.side].append(notation)
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
        if pick.form.notation is None:
            who = name or _("Seat %(number)s", number=seat + 1)
            pick.form.rank.errors = [
                _("Tap the card %(player)s drew: its rank and its suit.", player=who)
            ]
            complete = False
    if not complete:
        return None
    notations = [pick.form.notation or "" for pick in form.cards]
    try:
        draw = draw_for_seats(
            rules,
            [
                Drawn(name, draw_card(notation))
                for name, notation in zip(names, notations, strict=True)
            ],
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
    card_of = dict(zip(names, notations, strict=True))
    for entry, pick, name in zip(form.players, form.cards, draw.seats, strict=True):
        entry.data = name
        pick.form.rank.data, pick.form.suit.data = _rank_and_suit(card_of[name])
    form.first_dealer.data = draw.first_dealer_seat
    return ()


def _rank_and_suit(notation: str) -> tuple[str, str | None]:
    return (notation, None) if notation == "JK" else (notation[:-1], notation[-1])


def _form_places(form: NewGameForm, rules: RuleSet, seats: Sequence[Seat]) -> list[Place]:
    """The table as the new-game form now seats it, for the first deal."""
    return seat_places(
        seats,
        [entry.data for entry in form.players],
        side_names=[form.side_name(side) for side in range(rules.sides)]
        if rules.partnerships
        else (),
        cards=[pick.form.notation for pick in form.cards],
        dealer=seats[form.first_dealer.data],
    )


def _prefill_from(form: NewGameForm, game: Game) -> None:
    """'New game, same players': same sides, seats and rules; the next dealer deals."""
    sheet = games.sheet_of(game)
    for index, side in enumerate(game.sides):
        form.sides[index].form.name.data = side.name
    for index, seat in enumerate(sheet.seats):
        form.players[index].data = sheet.player_name(seat)
    form.first_dealer.data = sheet.seats.index(sheet.state.next_dealer)
    _fill_house_rules(form, sheet.rules, VARIANTS[game.variant].with_sides(len(game.sides)))


def form_options(rules: RuleSet) -> tuple[str, ...]:
    """The house options the new-game page has a field for, with this rule set, in the
    page's order (the concealed bonuses only where going out concealed is scored; the
    minimums by total only where the minimum does not go by deal)."""
    concealed = rules.concealed_going_out_bonus is not None
    return (
        "target",
        "deals",
        *(("concealed_canasta_bonus",) if concealed else ()),
        "wilds_may_outnumber_naturals",
        "black_three_freezes",
        *bonus_options(rules),
        *(f"{kind.value}_canasta_bonus" for kind in rules.house_canastas),
        *table_field_names(rules),
        *(() if rules.meld_minimums_by_deal else ("meld_minimums",)),
        "meld_minimums_by_deal",
    )


def _same(one: object, other: object) -> bool:
    return json.dumps(one, sort_keys=True) == json.dumps(other, sort_keys=True)


def _fill_house_rules(form: NewGameForm, table: RuleSet, published: RuleSet) -> None:
    """Show a table's house rules in the form: in their fields, and those no field can
    hold (an option the page has no field for, a minimum table of another length) in the
    hidden field, which the game then gets as they are."""
    form.fill_rules(table)
    held = form.options(published)
    fields = form_options(published)
    kept = {
        name: value
        for name, value in ((d.option, d.table) for d in differences(table, published))
        if name not in fields or not _same(held.get(name), value)
    }
    form.shared.data = kept_text(kept)


def _prefill_shared(form: NewGameForm, rules: RuleSet) -> list[str]:
    """A shared link's house rules (``?variant=classic&target=3000``) in the form; what
    it sets that the rules refuse is left out, and a message names it. Returns the
    lines that say where the link's rules differ from the book."""
    variant = request.args.get(VARIANT)
    if variant is not None and variant not in VARIANTS:
        # House rules are overrides of one rule set: another's would mean something else.
        message = _(
            "The link's rule set (%(variant)s) is not one this app knows: "
            "here are %(rules)s, without the link's house rules.",
            variant=variant[:40],
            rules=_(rules.name),
        )
        flash(message, "error")
        return []
    players = request.args.get(PLAYERS, type=int)
    if PLAYERS in request.args and rules.sides_range is not None and players != rules.players:
        low, high = rules.sides_range
        message = _(
            "The link's number of players was left out: %(rules)s is played by "
            "%(low)s to %(high)s players.",
            rules=_(rules.name),
            low=low * rules.players_per_side,
            high=high * rules.players_per_side,
        )
        flash(message, "error")
    query = {name: value for name, value in request.args.items() if name not in RESERVED}
    if not query:
        return []
    shared = read_share_query(query, rules)
    for error in shared.refused:
        flash(refusal_line(error), "error")
    _fill_house_rules(form, shared.rules, rules)
    return difference_lines(shared.rules, rules)


def _errors(errors: Iterable[object] | Mapping[str, object]) -> list[str]:
    """A field's messages, a list of them (the minimum table: one per tier) flattened."""
    found: list[str] = []
    for error in errors.values() if isinstance(errors, Mapping) else errors:
        if isinstance(error, (list, tuple, Mapping)):
            found.extend(_errors(error))
        else:  # a message, perhaps a lazy one
            found.append(str(error))
    return found


def _share_link(
    form: NewGameForm, rules: RuleSet, kept: Mapping[str, object], fields: Sequence[str]
) -> tuple[str | None, list[str]]:
    """The link of the house rules the form holds, or why it cannot be made yet (each
    house-rule field checked as for starting the game, and the rules' own checks)."""
    problems: list[str] = []
    for name in fields:
        for field in form.option_fields(name):
            inline = getattr(type(form), f"validate_{field.name}", None)  # as Form.validate
            if not field.validate(form, [inline] if inline else []):
                problems += [f"{option_label(name)}: {error}" for error in _errors(field.errors)]
    if problems:
        return None, problems
    try:
        table = apply_options(rules, {**form.options(rules), **kept})
    except OptionError as error:
        return None, [f"{option_label(error.option)}: {render_text(error.text)}"]
    return share_path(table, rules), []
