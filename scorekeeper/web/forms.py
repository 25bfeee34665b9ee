"""One form per screen: new game, deal entry, and the empty form for POST-only buttons."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache

from babel.support import NullTranslations, Translations
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.i18n import messages_path
from wtforms.validators import (
    AnyOf,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    ValidationError,
)

from ..i18n import current_language, render_text
from ..rules import (
    CanastaKind,
    RuleSet,
    Severity,
    SideResult,
    Violation,
    figure_name,
    figures_of,
    options_of,
)
from ..rules.draw import DRAW_RANKS
from ..rules.limits import (
    MAX_BONUS,
    MAX_DEVICE,
    MAX_NAME,
    MAX_PAGE,
    MAX_REQUEST_KEY,
    MAX_SECRET,
    MAX_START,
    MAX_TARGET,
)
from ..rules.options import MOST_CANASTAS_TO_GO_OUT
from .figures import CountField, FigureField, PointsField


def _fit(entries: FieldList, count: int) -> None:
    """Exactly ``count`` entries: the game's sides or seats, whatever a client posted."""
    del entries.entries[count:]
    entries.last_index = len(entries.entries) - 1
    while len(entries.entries) < count:
        entries.append_entry()


@cache
def _wtforms_translations(language: str) -> NullTranslations:
    return Translations.load(messages_path(), [language], domain="wtforms")


class PageForm(FlaskForm):
    """A page's form. Its CSRF token is the app's (CSRFProtect checks it on every POST
    before the view, and templates write it with ``csrf_field()``), so the form does not
    check it again; WTForms' own messages are read once per language, not per request."""

    class Meta:
        csrf = False

        def get_translations(self, form: Form) -> NullTranslations:
            return _wtforms_translations(current_language())


class SideDealForm(Form):
    """One side's figures for a deal; the canasta steppers are the rule set's
    (``deal_form``)."""

    red_threes = CountField(_l("Red threes"))
    meld_points = PointsField(_l("Melded points"))
    hand_points = PointsField(_l("Left in hand"))


class DealForm(PageForm):
    """A whole deal: who went out, then each side's figures."""

    went_out = RadioField(
        _l("Who went out"),
        choices=[SelectChoice("", _l("Nobody"))],
        default="",
        validate_choice=True,
    )
    #: One per opened form: a double tap or a resent form records one deal.
    nonce = HiddenField(validators=[Optional(), Length(max=MAX_REQUEST_KEY)])
    #: The edited deal (its ``seq``) and its version when the form was opened: the edit
    #: lands on that deal only, as it was then (optimistic check).
    seq = HiddenField(validators=[Optional(), Length(max=12)])
    version = HiddenField(validators=[Optional(), Length(max=12)])
    concealed = BooleanField(_l("Went out concealed"))
    sides = FieldList(FormField(SideDealForm), min_entries=2)

    def setup(self, side_names: Sequence[str]) -> DealForm:
        _fit(self.sides, len(side_names))
        self.went_out.choices = [
            *(SelectChoice(str(i), name) for i, name in enumerate(side_names)),
            SelectChoice("", _l("Nobody")),
        ]
        return self

    def results(self) -> list[SideResult]:
        """The entry as the rules engine reads it (call after a successful validate)."""
        out = self.went_out.data
        results = []
        for index, entry in enumerate(self.sides):
            side = entry.form
            counts = {name: getattr(side, name).data or 0 for name in COUNT_FIELDS if name in side}
            results.append(
                SideResult(
                    meld_points=side.meld_points.points,
                    hand_points=side.hand_points.points,
                    **counts,
                    went_out=out == str(index),
                    concealed=bool(self.concealed.data),
                )
            )
        # "Concealed" is one choice for the deal; it belongs to the side that went out.
        if not out:
            return results
        return [
            r if r.went_out else SideResult(**{**r.__dict__, "concealed": False}) for r in results
        ]

    def field_for(self, path: str) -> Field | None:
        """The form field an engine path such as ``results.1.red_threes`` names."""
        parts = path.split(".")
        if len(parts) != 3:
            return None
        _, side, figure = parts
        if figure == "went_out":
            return self.went_out
        if figure == "concealed":
            return self.concealed
        try:
            entry = self.sides[int(side)]
        except (ValueError, IndexError):
            return None
        field: Field | None = getattr(entry.form, figure, None)
        return field

    def attach(self, violations: Sequence[Violation], *, live: bool = False) -> list[Violation]:
        """Put each violation next to its field: errors in ``field.errors``, warnings in
        ``field.warnings``. Returns those that belong to no field (the deal as a whole).

        While the deal is typed (``live``), an error of who went out (picked first, above
        every figure) or of a figure not typed yet is returned too, for the live line above
        the save button: next to its field it would push the figures down just as the
        thumb comes down on the next one (a natural canasta counted for a mixed one)."""
        loose: list[Violation] = []
        for violation in violations:
            field = self.field_for(violation.field)
            untyped = isinstance(field, PointsField) and not (field.data or "").strip()
            if field is None:
                loose.append(violation)
            elif violation.severity is Severity.WARNING:
                if untyped:
                    continue  # not typed yet: no "check this" before the player gets there
                warnings = getattr(field, "warnings", [])
                if render_text(violation.text) not in warnings:
                    field.warnings = [*warnings, render_text(violation.text)]
            elif live and (untyped or field is self.went_out or field is self.concealed):
                loose.append(violation)
            elif render_text(violation.text) not in field.errors:
                field.errors = [*field.errors, render_text(violation.text)]
        return loose

    def field_errors(self) -> dict[str, list[str]]:
        """Each figure's errors by its field's name (``sides-1-red_threes``), for those that
        have some (``errors`` is cached by WTForms)."""
        figures = (self.went_out, self.concealed, *(f for e in self.sides for f in e.form))
        return {field.name: list(field.errors) for field in figures if field.errors}

    def has_errors(self) -> bool:
        """Whether any figure carries an error."""
        return bool(self.field_errors())


#: Black threes scored apart (RULES.md section 10): left in hand (Bolivia), found in piles
#: taken (Cuban). A rule set's deal form has the ones ``figures_of`` asks for.
BLACK_THREE_FIELDS = ("black_threes_in_hand", "black_threes_taken")
#: The figures counted with steppers (the rule set's canastas, concealed ones, red threes,
#: black threes).
COUNT_FIELDS = (
    *(kind.field for kind in CanastaKind),
    "concealed_canastas",
    "red_threes",
    *BLACK_THREE_FIELDS,
)


@cache
def _deal_form_class(steppers: tuple[tuple[str, str], ...], hand: str) -> type[DealForm]:
    fields: dict[str, Field] = {name: CountField(_l(label)) for name, label in steppers}
    fields["hand_points"] = PointsField(_l(hand))
    side_form = type("SideDealForm", (SideDealForm,), fields)
    return type("DealForm", (DealForm,), {"sides": FieldList(FormField(side_form), min_entries=2)})


def steppers_of(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    """The deal form's steppers besides red threes, each with its (English) label: each
    kind of canasta the rule set knows, under its own name ("Sambas"), concealed canastas
    when the house rule is on, and the black-three figures it scores apart."""
    asked = figures_of(rules)
    names = (
        *(kind.field for kind in rules.canasta_kinds),
        *(name for name in ("concealed_canastas", *BLACK_THREE_FIELDS) if name in asked),
    )
    return tuple((name, figure_name(rules, name)) for name in names)


def deal_form(rules: RuleSet, side_names: Sequence[str]) -> DealForm:
    """The deal form of a game: the rule set's steppers (``steppers_of``) and words for
    what is left in hand, a column for each side."""
    form_class = _deal_form_class(steppers_of(rules), figure_name(rules, "hand_points"))
    return form_class().setup(side_names)


def fill_deal_form(form: DealForm, results: Sequence[SideResult]) -> None:
    """Put a stored deal's figures into the form for editing."""
    for index, result in enumerate(results):
        side = form.sides[index].form
        side.meld_points.data = str(result.meld_points)
        side.hand_points.data = str(result.hand_points)
        for name in COUNT_FIELDS:
            if name in side:
                getattr(side, name).data = getattr(result, name)
        if result.went_out:
            form.went_out.data = str(index)
            form.concealed.data = result.concealed


class SideSetupForm(Form):
    # Required for partnerships only: a player alone is a side named after the player.
    name = StringField(_l("Side"), validators=[Optional(), Length(max=MAX_NAME)])
    # A total from paper may be negative: the text keyboard (``FigureField``).
    start = FigureField(
        _l("Carried over from paper"), [Optional()], minimum=-MAX_START, maximum=MAX_START
    )

    def validate_start(self, field: Field) -> None:
        if field.data and field.data % 5:
            raise ValidationError(_l("A starting total is a multiple of 5, like every score."))


def _or(value: int | None, default: int | None) -> int | None:
    return default if value is None else value


def _points_field(label: str) -> FigureField:
    return FigureField(label, [Optional()], maximum=MAX_BONUS, example=500)


class TierForm(Form):
    """One row of the initial-meld table: from this total, the first meld needs so much."""

    from_total = FigureField(
        _l("From a total of"), [Optional()], minimum=-MAX_TARGET, maximum=MAX_TARGET
    )
    minimum = _points_field(_l("the first meld needs"))


#: The number fields of the new-game form, each named as the house option it sets, in the
#: order the form lists them; a rule set offers those its options have (``options_of``).
BONUS_FIELDS = (
    *(f"{kind.value}_canasta_bonus" for kind in CanastaKind),
    "red_three_bonus",
    "all_red_threes_bonus",
    "black_three_penalty",
    "black_three_taken_bonus",
    "all_black_threes_taken_bonus",
    "going_out_bonus",
    "concealed_going_out_bonus",
    "canastas_to_go_out",
)


def bonus_options(rules: RuleSet) -> tuple[str, ...]:
    """The number options the new-game page has a field for with this rule set, in the
    page's order: those the rule set has (a table may add going out concealed where it is
    not scored, but no field offers it)."""
    offered = options_of(rules)
    if rules.concealed_going_out_bonus is None:
        offered.pop("concealed_going_out_bonus", None)
    return tuple(name for name in BONUS_FIELDS if name in offered)


#: The draw's card picker: ranks high to low, then the joker (which draws again).
DRAW_RANK_CHOICES = [SelectChoice(rank.value) for rank in reversed(DRAW_RANKS)]
DRAW_SUIT_CHOICES = [
    SelectChoice(suit, symbol) for suit, symbol in zip("SHDC", "♠♥♦♣", strict=True)
]


_DRAW_RANKS = {choice.value for choice in DRAW_RANK_CHOICES}
_DRAW_SUITS = {choice.value for choice in DRAW_SUIT_CHOICES}


def _tapped(value: object) -> str | None:
    return None if value is None else str(value)


class DrawnCardForm(Form):
    """The card one player drew for seats: a rank (or the joker) and a suit, as tapped."""

    # Nothing tapped stays None (``str`` would make it "None").
    rank = RadioField(
        _l("Rank"),
        choices=[*DRAW_RANK_CHOICES, SelectChoice("JK")],
        coerce=_tapped,
        validators=[Optional()],
    )
    suit = RadioField(
        _l("Suit"), choices=DRAW_SUIT_CHOICES, coerce=_tapped, validators=[Optional()]
    )
    #: Always posted: a seat whose card is not tapped yet keeps its place in the list
    #: (FieldList numbers the entries it finds in the post one after another).
    seat = HiddenField(validators=[Optional(), Length(max=2)])

    @property
    def token(self) -> str | None:
        """The card in the notation of the rules (``QS``, ``JK``), or None until tapped."""
        if self.rank.data == "JK":
            return "JK"
        # Only what the buttons offer: anything else posted counts as not tapped.
        if self.rank.data not in _DRAW_RANKS or self.suit.data not in _DRAW_SUITS:
            return None
        return f"{self.rank.data}{self.suit.data}"

    def clear(self) -> None:
        self.rank.data = self.suit.data = None


#: The names of sides left unnamed, in seat order: the new-game page shows them in the
#: empty fields, and a game started with the fields empty has them.
SIDE_DEFAULTS = (_l("We"), _l("They"), _l("Others"))


class NewGameForm(PageForm):
    """Sides, the players in seat order, who deals first, and the house rules."""

    sides = FieldList(FormField(SideSetupForm), min_entries=2)
    #: Player names in seat order around the table (partners never side by side).
    players = FieldList(
        StringField(
            "Player",
            validators=[InputRequired(_l("Each player needs a name.")), Length(max=MAX_NAME)],
        ),
        min_entries=4,
    )
    first_dealer = RadioField(_l("Deals first"), default="0", coerce=int, validate_choice=True)
    #: The draw for seats: the card each seat's player drew (optional).
    cards = FieldList(FormField(DrawnCardForm), min_entries=4)
    target = FigureField(
        _l("Play to"),
        [InputRequired(_l("Give the target score."))],
        minimum=5,
        maximum=MAX_TARGET,
        example=5000,
    )
    concealed_canasta_bonus = BooleanField(_l("+100 for each canasta melded whole from the hand"))
    wilds_may_outnumber_naturals = BooleanField(
        _l("Wild cards may outnumber natural cards in a meld")
    )
    black_three_freezes = BooleanField(_l("A black three on the pile freezes it"))
    # A kind of canasta the rule set names ("Samba") is labelled with its name (``house_fields``).
    natural_canasta_bonus = _points_field(_l("Natural canasta"))
    mixed_canasta_bonus = _points_field(_l("Mixed canasta"))
    sequence_canasta_bonus = _points_field(_l("Sequence canasta"))
    deuce_canasta_bonus = _points_field(_l("Seven twos"))
    joker_canasta_bonus = _points_field(_l("Four jokers and three twos"))
    wild_canasta_bonus = _points_field(_l("Wild canasta"))
    sevens_canasta_bonus = _points_field(_l("Sevens canasta"))
    red_three_bonus = _points_field(_l("Each red three"))
    all_red_threes_bonus = _points_field(_l("All red threes to one side"))
    black_three_penalty = _points_field(_l("Each black three left in hand (minus)"))
    black_three_taken_bonus = _points_field(_l("Each black three found in a pile taken"))
    all_black_threes_taken_bonus = _points_field(_l("All black threes found in piles taken"))
    going_out_bonus = _points_field(_l("Going out"))
    concealed_going_out_bonus = _points_field(_l("Extra for going out concealed"))
    canastas_to_go_out = FigureField(
        _l("Canastas to go out"),
        [Optional()],
        minimum=1,
        maximum=MOST_CANASTAS_TO_GO_OUT,
        example=2,
    )
    tiers = FieldList(FormField(TierForm), min_entries=4)
    #: A shared link's house rules that no field above shows, as the link wrote them.
    shared = HiddenField()
    device = StringField(
        _l("This phone's name in the change log"),
        validators=[Optional(), Length(max=MAX_DEVICE)],
        render_kw={"autocomplete": "off", "maxlength": MAX_DEVICE},
    )

    def validate_target(self, field: Field) -> None:
        if field.data is not None and field.data % 5:
            raise ValidationError(_l("The target is a multiple of 5, like every score."))

    def setup(self, rules: RuleSet) -> NewGameForm:
        self.partnerships = rules.partnerships
        _fit(self.sides, rules.sides)
        _fit(self.players, rules.players)
        _fit(self.cards, rules.players)
        _fit(self.tiers, len(rules.meld_minimums))
        self.first_dealer.choices = [
            SelectChoice(seat, str(seat + 1)) for seat in range(rules.players)
        ]
        if not self.is_submitted():
            self.fill_rules(rules)
        return self

    def side_default(self, index: int) -> str:
        """The name a side left unnamed gets: what its field shows greyed out."""
        if index < len(SIDE_DEFAULTS):
            return str(SIDE_DEFAULTS[index])
        return _("Side %(number)s", number=index + 1)

    def side_name(self, index: int) -> str:
        """The side's name as typed, or its default when left empty."""
        return (self.sides[index].form.name.data or "").strip() or self.side_default(index)

    def fill_rules(self, rules: RuleSet) -> None:
        """Show a rule set's numbers and options in the house-rule fields."""
        options = options_of(rules)
        self.target.data = rules.target
        for name in BONUS_FIELDS:
            getattr(self, name).data = options.get(name)
        for entry, tier in zip(self.tiers, rules.meld_minimums, strict=False):
            entry.form.from_total.data = tier.from_total
            entry.form.minimum.data = tier.minimum
        self.concealed_canasta_bonus.data = rules.concealed_canasta_bonus > 0
        self.wilds_may_outnumber_naturals.data = rules.wilds_may_outnumber_naturals
        self.black_three_freezes.data = rules.black_three_freezes

    def house_fields(self, rules: RuleSet) -> list[tuple[Field, str]]:
        """The number fields the rule set has options for, each with its label: a kind of
        canasta under the rule set's own name, the "all of them" totals with their count."""
        offered = bonus_options(rules)
        labels: dict[str, str] = {
            f"{kind.value}_canasta_bonus": _(rules.canasta_names[kind].word).capitalize()
            for kind in rules.canasta_kinds
            if kind in rules.canasta_names
        }
        labels["all_red_threes_bonus"] = _("All %(count)s red threes", count=rules.max_red_threes)
        labels["all_black_threes_taken_bonus"] = _(
            "All %(count)s black threes taken", count=rules.black_threes_in_packs
        )
        return [
            (getattr(self, name), labels.get(name) or str(getattr(self, name).label.text))
            for name in BONUS_FIELDS
            if name in offered
        ]

    def options(self, rules: RuleSet) -> dict[str, object]:
        """The house options that differ from the rule set's own numbers."""
        # A figure left blank keeps the rule set's own number.
        tiers = [
            {
                "from": None if index == 0 else _or(entry.form.from_total.data, tier.from_total),
                "minimum": _or(entry.form.minimum.data, tier.minimum),
            }
            for index, (entry, tier) in enumerate(zip(self.tiers, rules.meld_minimums, strict=True))
        ]
        chosen: dict[str, object] = {
            "target": self.target.data,
            "concealed_canasta_bonus": self.concealed_canasta_bonus.data,
            "wilds_may_outnumber_naturals": self.wilds_may_outnumber_naturals.data,
            "black_three_freezes": self.black_three_freezes.data,
            "meld_minimums": tiers,
        }
        defaults = options_of(rules)
        for name in BONUS_FIELDS:
            if name in defaults and getattr(self, name).data is not None:
                chosen[name] = getattr(self, name).data
        return {name: value for name, value in chosen.items() if value != defaults.get(name)}

    def field_for(self, path: str) -> Field | None:
        """The field an error path of the store names (``sides.1.name``, ``options.target``)."""
        parts = path.split(".")
        if parts[0] == "options" and len(parts) == 2:
            name = "tiers" if parts[1] == "meld_minimums" else parts[1]
            field: Field | None = getattr(self, name, None)
            return field
        if parts[0] == "sides" and len(parts) == 3 and parts[1].isdigit():
            index = int(parts[1])
            if index < len(self.sides):
                return getattr(self.sides[index].form, parts[2], None)
        return None


def secret_field(label: str, missing: str) -> StringField:
    """A secret from a link's fragment (app.js puts it in: ``data-join-token``) or pasted."""
    return StringField(
        label,
        validators=[InputRequired(missing), Length(max=MAX_SECRET)],
        render_kw={"autocomplete": "off", "spellcheck": "false", "data-join-token": "1"},
    )


class JoinForm(PageForm):
    """Keep score on this phone: the game's secret, from the scorer link or pasted."""

    token = secret_field(_l("The game's secret"), _l("Paste the secret from the scorer link."))
    device = StringField(
        _l("This phone's name in the change log"),
        validators=[Optional(), Length(max=MAX_DEVICE)],
        render_kw={"autocomplete": "off", "maxlength": MAX_DEVICE},
    )


class UndoForm(PageForm):
    """An Undo button: ``nonce`` makes a double tap undo once; ``next`` says which page
    the phone goes back to."""

    nonce = HiddenField(validators=[Optional(), Length(max=MAX_REQUEST_KEY)])
    next = HiddenField(validators=[Optional(), AnyOf(("sheet", "changes"))])


class DeviceForm(PageForm):
    """The label the change log shows for this phone."""

    device = StringField(
        _l("This phone's name in the change log"),
        validators=[InputRequired(_l("Give this phone a name.")), Length(max=MAX_DEVICE)],
        render_kw={"autocomplete": "off", "maxlength": MAX_DEVICE},
    )


class ConfirmForm(PageForm):
    """A POST-only button with its CSRF token; ``seq`` and ``version`` name the deal it
    confirms, as it was shown."""

    seq = HiddenField(validators=[Optional(), Length(max=12)])
    version = HiddenField(validators=[Optional(), Length(max=12)])


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


class PersonForm(PageForm):
    """A player's name on the roster: to add someone or to rename them."""

    name = StringField(
        _l("Name"),
        [InputRequired(_l("Give a name.")), Length(max=MAX_NAME)],
        render_kw={"autocomplete": "off", "maxlength": MAX_NAME},
    )
