"""The deal page: enter the next deal, correct or delete an earlier one, and the live line
under the form (each side's score and new total as the figures are typed).

A page (GET) and a save (POST) are for the game's scorer alone (``@scorer_required``). A
save goes to the store, which checks everything (the secret, the game's state, the figures
against the rules) and refuses with each problem by its field path, errors and warnings:
the page puts them back next to the figures and checks nothing again. Asked for JSON (the
phone's queue of deals saved offline, static/offline.js), a save answers ``{"error",
"fields"}`` (each field's words by the form's field name) with the refusal's status, or the
saved deal's number.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from flask import (
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from ...caching import setup_of
from ...i18n import number as num
from ...i18n import render_text
from ...rules import (
    RuleSet,
    Severity,
    SideResult,
    Violation,
)
from ...rules.cards import COUNTER_CLASSES, Rank
from ...rules.text import N_, Text
from ...store import changes, evenings, games
from ...store.errors import Refused, Why
from ...store.games import DealTag, Head, Setup, Sheet
from ...store.models import Game
from .. import ERROR_PAGES, bp
from ..answers import (
    NO_GAME,
    REFUSALS,
    abort_if_lost,
    game_or_404,
    head_or_404,
    refusal_text,
    wants_json,
)
from ..forms import ConfirmForm
from ..request_keys import page_key
from ..scorer import changed, device_label, scorer_required, scorer_secret
from .forms import BLACK_THREE_FIELDS, DealForm, deal_form, fill_deal_form, layout_of


def _loose(text: Text) -> Violation:
    """A refusal of the deal as a whole (not of one figure), shown above the save button."""
    return Violation("results", "refused", text)


def black_three_hints(rules: RuleSet) -> dict[str, str]:
    """What the black-three figures of a rule set count, by figure (RULES.md section 10):
    said once above the sides, whose steppers point to it."""
    hints: dict[str, str] = {}
    if rules.black_three_penalty is not None:
        hints["black_threes_in_hand"] = _(
            "Black threes left in hand: %(points)s each, not in the hand points.",
            points=num(-rules.black_three_penalty),
        )
    if rules.black_three_taken_bonus is not None:
        each = num(rules.black_three_taken_bonus)
        count = rules.black_threes_in_packs
        if count in rules.black_threes_taken_totals:
            hints["black_threes_taken"] = _(
                "Black threes found in piles taken: %(each)s each, %(all)s for all %(count)s.",
                each=each,
                all=num(rules.black_threes_taken_totals[count]),
                count=count,
            )
        else:
            hints["black_threes_taken"] = _(
                "Black threes found in piles taken: %(each)s each.", each=each
            )
    return {name: hints[name] for name in BLACK_THREE_FIELDS if name in hints}


def counter_classes(rules: RuleSet) -> tuple[tuple[str, str, int], ...]:
    """The card counter's keys for the rule set's card values: RULES.md section 1's, or
    its own (Burraco: joker 30, two 20, ace 15, K to 8 10, 7 to 3 5)."""
    if not rules.card_values:
        return COUNTER_CLASSES
    value = rules.card_value
    classes = [("JK", N_("Jokers"), value(Rank.JOKER))]
    if value(Rank.TWO) == value(Rank.ACE):
        classes.append(("2 A", N_("Twos and aces"), value(Rank.ACE)))
    else:
        classes += [("2", N_("Twos"), value(Rank.TWO)), ("A", N_("Aces"), value(Rank.ACE))]
    classes.append(("K–8", N_("K to 8"), value(Rank.KING)))
    if Rank.THREE in rules.card_values and value(Rank.THREE) == value(Rank.SEVEN):
        classes.append(("7–3", N_("7 to 3"), value(Rank.SEVEN)))
    else:
        classes += [
            ("7–4", N_("7 to 4"), value(Rank.SEVEN)),
            ("3♠♣", N_("Black threes"), value(Rank.THREE)),
        ]
    return tuple(classes)


def penalty_hints(rules: RuleSet) -> dict[str, str]:
    """What the penalties counted with a stepper take off, by figure (RULES.md sections 13
    and 14): said once above the sides, as the black threes are."""
    hints: dict[str, str] = {}
    if "aces_or_sevens_held" in rules.penalties:
        hints["aces_or_sevens_held"] = _(
            "Three aces or sevens held: each time a player is left holding three or more "
            "aces, or three or more sevens, %(points)s.",
            points=num(-rules.penalties["aces_or_sevens_held"]),
        )
    if "red_threes_in_hand" in rules.penalties:
        hints["red_threes_in_hand"] = _(
            "Red threes left in a hand or foot when the round ends: %(points)s each.",
            points=num(-rules.penalties["red_threes_in_hand"]),
        )
    return hints


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
    time_called: bool = False,
) -> tuple[str, int]:
    return render_template(
        "deals/form.html",
        time_called=time_called,
        game=game,
        rules=rules,
        form=form,
        number=number,
        editing=editing,
        dealer=dealer,
        totals=totals,
        minimums=minimums,
        counter_classes=counter_classes(rules),
        hints={**black_three_hints(rules), **penalty_hints(rules)},
        layout=layout_of(rules),
        loose=loose,
        preview=preview,
        dealers=dealers,
        keep_awake=True,
    ), status


def _read(form: DealForm) -> list[SideResult] | None:
    """The figures as typed, or None while one is unreadable (its field says why)."""
    return form.results() if form.validate() else None


def _placed(form: DealForm, refusal: Refused) -> list[Violation]:
    """A refusal's words put on the form: a broken rule's errors and warnings next to the
    figures (by their paths), any other refusal above the save button. Returns those of
    no field."""
    if refusal.why is not Why.INVALID:
        return [_loose(refusal_text(refusal))]
    found = [Violation(path, "refused", text) for path, text in refusal.fields.items()]
    found += [
        Violation(path, "refused", text, Severity.WARNING)
        for path, text in refusal.warnings.items()
    ]
    return form.attach(found)


def _figure_messages(form: DealForm) -> dict[str, str]:
    """Each field's first error as the form shows it, by the field's name."""
    return {name: str(errors[0]) for name, errors in form.field_errors().items()}


def _refused_json(form: DealForm, refusal: Refused | None) -> Response:
    """A deal not saved, as JSON: the sentence for it and each field's words by the form's
    field names (offline.js puts them back next to the figures). Without a refusal, the
    form could not be read (a figure is not a number)."""
    if refusal is None:
        fields = _figure_messages(form)
        status = 422
        error = next(iter(fields.values()), str(ERROR_PAGES[400][1]))
    else:
        fields = {}
        if refusal.why is Why.INVALID:
            for path, text in refusal.fields.items():
                field = form.field_for(path)
                if field is not None:
                    fields.setdefault(field.name, render_text(text))
        status = REFUSALS[refusal.why].status
        error = render_text(refusal_text(refusal))
    response = jsonify({"error": error, "fields": fields})
    response.status_code = status
    return response


def _render_next_deal(
    game: Head,
    form: DealForm,
    preview: dict[str, object] | None = None,
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
        preview=preview,
        loose=loose,
        status=status,
        # Who deals from this deal on: a deal typed offline after others names its dealer.
        dealers=[game.player_name(game.dealer(game.next_deal + i)) for i in range(len(game.seats))],
        # A club table's last deal once time is called (only a round's game has a last deal).
        time_called=game.last_deal == game.next_deal and evenings.time_called(game.id),
    )


def _setup_or_404(game_id: str) -> Setup:
    """What never changes in the game (kept: no query), or the 404 page."""
    setup = setup_of(game_id)
    if setup is None:
        abort(404, str(NO_GAME))
    return setup


@bp.get("/games/<game_id>/deals/new")
@scorer_required
def record(game_id: str) -> tuple[str, int] | BaseResponse:
    """Enter the next deal, checked against the rules as it is typed (the live line). The
    game's deals are not read: the page costs the same in the first deal and the two
    hundredth."""
    game = head_or_404(game_id)
    if game.finished:
        flash(_("This game is over. Edit or delete a deal to reopen it."), "error")
        return redirect(url_for("web.sheet", game_id=game_id))
    form = deal_form(game.rules, [side.name for side in game.sides])
    form.nonce.data = secrets.token_urlsafe(16)
    return _render_next_deal(game, form)


@bp.post("/games/<game_id>/deals/new")
@scorer_required
def save_deal(game_id: str) -> tuple[str, int] | BaseResponse:
    """Save the next deal: read once, under the lock it is saved in (by the store). A
    refused deal comes back as its form, the store's words next to the figures."""
    setup = _setup_or_404(game_id)
    # The sides' names only label the choices: the page shown again reads them.
    form = deal_form(setup.rules, [""] * setup.sides)
    results = _read(form)
    refusal: Refused | None = None
    if results is not None:
        try:
            recorded = changes.record_deal(
                game_id,
                results,
                secret=scorer_secret(),
                request_key=page_key(),
                device=device_label(),
            )
        except Refused as refused:
            refusal = refused
        else:
            if wants_json():
                answer = jsonify({"number": recorded.number, "repeated": recorded.repeated})
                answer.status_code = 200 if recorded.repeated else 201
                return answer
            if recorded.repeated:
                # A double tap or a resent form: the deal is already on the sheet.
                flash(_("Deal %(number)s was already saved.", number=recorded.number), "saved")
            else:
                changed(
                    _("Deal %(number)s saved.", number=recorded.number), game_id, recorded.change
                )
            return redirect(url_for("web.sheet", game_id=game_id))
        abort_if_lost(refusal)
    if wants_json():
        return _refused_json(form, refusal)
    if refusal is not None and refusal.why is Why.CONFLICT:
        # The game is over (the save that ended it may be this very form's).
        flash(render_text(refusal_text(refusal)), "error")
        return redirect(url_for("web.sheet", game_id=game_id))
    # The page shown again is drawn from the game as it is now (totals, the dealer).
    game = head_or_404(game_id)
    if refusal is not None and refusal.why is Why.REUSED and game.finished:
        flash(render_text(refusal_text(refusal)), "error")
        return redirect(url_for("web.sheet", game_id=game_id))
    form.setup([side.name for side in game.sides])
    if refusal is None:
        return _render_next_deal(game, form, status=422)
    loose = _placed(form, refusal)
    return _render_next_deal(game, form, loose=loose, status=REFUSALS[refusal.why].status)


def _render_edit(
    sheet: Sheet,
    form: DealForm,
    number: int,
    preview: dict[str, object] | None = None,
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
        preview=preview,
        loose=loose,
        status=status,
    )


def shown_deal(seq: str | None, version: str | None) -> DealTag | None:
    """The deal a form showed (its hidden ``seq`` and ``version``); None when the form
    carries none, or figures no deal has (a hand-made form)."""
    if not (seq or "").isdecimal() or not (version or "").isdecimal():
        return None
    return DealTag(int(seq or 0), int(version or 0))


def _sheet_with_deal(game_id: str, number: int) -> Sheet:
    sheet = games.sheet_of(game_or_404(game_id))
    if games.deal_at(sheet.game, number) is None:
        abort(404, render_text(changes.no_deal(number)))
    return sheet


@bp.get("/games/<game_id>/deals/<int:number>/edit")
@scorer_required
def update(game_id: str, number: int) -> tuple[str, int] | BaseResponse:
    """Correct an earlier deal; every later total and minimum follows."""
    sheet = _sheet_with_deal(game_id, number)
    form = deal_form(sheet.rules, [side.name for side in sheet.game.sides])
    deal = sheet.game.deals[number - 1]
    fill_deal_form(form, games.side_results(deal))
    form.seq.data, form.version.data = str(deal.seq), str(deal.version)
    form.nonce.data = secrets.token_urlsafe(16)
    return _render_edit(sheet, form, number)


@bp.post("/games/<game_id>/deals/<int:number>/edit")
@scorer_required
def save_edit(game_id: str, number: int) -> tuple[str, int] | BaseResponse:
    """Save a corrected deal (the store checks it, as a new one). Refused because another
    phone changed it meanwhile, the form shows the deal as it is now: this phone decides."""
    setup = _setup_or_404(game_id)
    form = deal_form(setup.rules, [""] * setup.sides)
    results = _read(form)
    expected = shown_deal(form.seq.data, form.version.data)
    refusal: Refused | None = None
    if results is not None:
        try:
            edited = changes.edit_deal(
                game_id,
                number,
                results,
                secret=scorer_secret(),
                expected=expected,
                device=device_label(),
                request_key=page_key(),
            )
        except Refused as refused:
            refusal = refused
        else:
            changed(_("Deal %(number)s changed.", number=number), game_id, edited.change)
            return redirect(url_for("web.sheet", game_id=game_id))
        abort_if_lost(refusal)
    sheet = _sheet_with_deal(game_id, number)
    form.setup([side.name for side in sheet.game.sides])
    if refusal is None:
        return _render_edit(sheet, form, number, status=422)
    if refusal.why is Why.OUTDATED:
        # Someone else's change wins the race: show it, and let this phone decide.
        current = sheet.game.deals[number - 1]
        fill_deal_form(form, games.side_results(current))
        form.seq.data, form.version.data = str(current.seq), str(current.version)
    loose = _placed(form, refusal)
    return _render_edit(sheet, form, number, loose=loose, status=REFUSALS[refusal.why].status)


@bp.post("/games/<game_id>/deals/preview")
@scorer_required
def preview(game_id: str) -> Response:
    """The live line under the deal form (htmx): the store's dry run of the save, each
    side's score and new total, the rules engine's words next to the figures as typed."""
    setup = _setup_or_404(game_id)
    form = deal_form(setup.rules, [""] * setup.sides)
    results = _read(form)
    played: changes.Played | None = None
    loose: list[Violation] = []
    if results is not None:
        try:
            played = changes.preview_deal(
                game_id,
                results,
                secret=scorer_secret(),
                number=request.args.get("number", type=int),
                expected=shown_deal(form.seq.data, form.version.data),
            )
        except Refused as refusal:
            abort_if_lost(refusal)
            loose = [_loose(refusal_text(refusal))]
        else:
            loose = form.attach(played.violations, live=True)
    game = head_or_404(game_id) if played is None else played.game
    form.setup([side.name for side in game.sides])
    html = render_template(
        "deals/_preview.html",
        form=form,
        loose=loose,
        oob=True,
        game=game,
        rules=setup.rules,
        preview=played if played is not None and played.line is not None else None,
    )
    response = current_app.make_response(html)
    response.vary.add("HX-Request")
    return response


@bp.get("/games/<game_id>/deals/<int:number>/delete")
@scorer_required
def delete(game_id: str, number: int) -> str:
    """Delete a deal (undo is deleting the last one), after a confirmation."""
    sheet = _sheet_with_deal(game_id, number)
    form = ConfirmForm()
    deal = sheet.game.deals[number - 1]
    form.seq.data, form.version.data = str(deal.seq), str(deal.version)
    return render_template(
        "deals/delete.html",
        game=sheet.game,
        form=form,
        number=number,
        line=sheet.state.lines[number - 1],
        last=number == len(sheet.game.deals),
        keep_awake=True,
    )


@bp.post("/games/<game_id>/deals/<int:number>/delete")
def confirm_delete(game_id: str, number: int) -> BaseResponse:
    """The confirmed deletion: the store checks the secret, and that the deal confirmed
    (its ``seq`` and version) is still the one at that number, unchanged."""
    form = ConfirmForm()
    if not form.validate_on_submit():
        return redirect(url_for("web.delete", game_id=game_id, number=number))
    try:
        deleted = changes.delete_deal(
            game_id,
            number,
            secret=scorer_secret(),
            expected=shown_deal(form.seq.data, form.version.data),
            device=device_label(),
            request_key=page_key(),
        )
    except Refused as refusal:
        abort_if_lost(refusal)
        flash(render_text(refusal_text(refusal)), "error")
        return redirect(url_for("web.sheet", game_id=game_id))
    changed(_("Deal %(number)s deleted.", number=number), game_id, deleted.change)
    return redirect(url_for("web.sheet", game_id=game_id))
