"""The new-game form: the sides, the players in seat order, the cards drawn for seats, who
deals first, and the house rules."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectChoice,
    StringField,
)
from wtforms.validators import InputRequired, Length, Optional, StopValidation, ValidationError

from ...rules import CanastaKind, RuleSet, options_of
from ...rules.draw import DRAW_RANKS
from ...rules.kinds import SPECIAL_HAND_NAMES
from ...rules.limits import MAX_BONUS, MAX_DEVICE, MAX_NAME, MAX_START, MAX_TARGET
from ...rules.options import MOST_CANASTAS_TO_GO_OUT
from ..figures import FigureField
from ..forms import PageForm, fit_entries
from ..house import option_label
from .table_rules import (
    contract_field,
    fill_table_rules,
    game_deals,
    hand_field,
    keep_deals,
    penalty_field,
    setup_choices,
    table_options,
    table_rule_fields,
)
from .table_rules import (
    field_names as table_field_names,
)


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
    page's order: those the rule set has and that change a score (a bonus for each red
    three where every count has its own total does not; a table may add going out
    concealed where it is not scored, but only a rule set that leaves it to the house
    offers a field for it)."""
    offered = options_of(rules)
    if rules.concealed_going_out_bonus is None and not rules.house_concealed_going_out:
        offered.pop("concealed_going_out_bonus", None)
    if not rules.threes_laid or all(
        count in rules.red_three_totals for count in range(1, rules.max_red_threes + 1)
    ):
        offered.pop("red_three_bonus", None)
    if not rules.threes_laid:
        offered.pop("all_red_threes_bonus", None)
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
    def notation(self) -> str | None:
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
    # Empty where the game ends after its deals (``validate_target``).
    target = FigureField(_l("Play to"), [], minimum=5, maximum=MAX_TARGET, example=5000)
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
    aces_canasta_bonus = _points_field(_l("Aces canasta"))
    semi_natural_canasta_bonus = _points_field(_l("Semi-natural canasta"))
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
        if field.data is None and game_deals(self) is None:
            raise StopValidation(_("Give the target score, or a number of deals."))
        if field.data is not None and field.data % 5:
            raise ValidationError(_l("The target is a multiple of 5, like every score."))

    def setup(self, rules: RuleSet) -> NewGameForm:
        self.partnerships = rules.partnerships
        self.rules = rules
        setup_choices(self, rules)
        fit_entries(self.sides, rules.sides)
        fit_entries(self.players, rules.players)
        fit_entries(self.cards, rules.players)
        fit_entries(self.tiers, len(rules.meld_minimums))
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
        fill_table_rules(self, rules)

    def house_fields(self, rules: RuleSet) -> list[tuple[Field, str]]:
        """The number fields the rule set has options for, each with its label: a kind of
        canasta under the rule set's own name, the "all of them" totals with their count."""
        offered = bonus_options(rules)
        labels: dict[str, str] = {
            f"{kind.value}_canasta_bonus": _(rules.canasta_names[kind].word).capitalize()
            for kind in rules.canasta_kinds
            if kind in rules.canasta_names
        }
        labels["all_red_threes_bonus"] = (
            _("All %(count)s threes of one colour", count=rules.max_red_threes)
            if len(rules.threes_laid) > 1
            else _("All %(count)s red threes", count=rules.max_red_threes)
        )
        labels["all_black_threes_taken_bonus"] = _(
            "All %(count)s black threes taken", count=rules.black_threes_in_packs
        )
        return [
            (getattr(self, name), labels.get(name) or str(getattr(self, name).label.text))
            for name in BONUS_FIELDS
            if name in offered
        ]

    def contract_fields(self, rules: RuleSet) -> list[tuple[Field, str]]:
        """The contract's counts, one per kind of canasta, under the rule set's names."""
        return [
            (self[contract_field(kind)], _(rules.canasta_name(kind).label))
            for kind in rules.canasta_kinds
        ]

    def penalty_fields(self, rules: RuleSet) -> list[tuple[Field, str]]:
        """The penalties' points, each under its figure's name ("... (minus)")."""
        return [
            (self[penalty_field(figure)], option_label(penalty_field(figure)))
            for figure in rules.penalties
        ]

    def special_hand_fields(self, rules: RuleSet) -> list[tuple[str, Field, str]]:
        """Each special hand the rule set knows, its value's field and its name."""
        return [
            (hand, self[hand_field(hand)], _(name))
            for hand, name in SPECIAL_HAND_NAMES.items()
            if hand in rules.special_hands
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
        chosen.update(table_options(self, rules))
        differ = {name: value for name, value in chosen.items() if value != defaults.get(name)}
        return keep_deals(differ, chosen)

    def option_fields(self, name: str) -> list[Field]:
        """The fields that hold a house option (the special hands and the contract are
        several: the choice and each value, each kind's count)."""
        names = table_field_names(self.rules).get(name)
        if names:
            return [self[field] for field in names]
        field = self.field_for(f"options.{name}")
        return [] if field is None else [field]

    def field_for(self, path: str) -> Field | None:
        """The field an error path of the store names (``sides.1.name``, ``options.target``)."""
        parts = path.split(".")
        if parts[0] == "options" and len(parts) == 2:
            name = "tiers" if parts[1] == "meld_minimums" else parts[1]
            if name == "contract":
                kinds = getattr(self, "rules", None)
                name = contract_field(kinds.canasta_kinds[0]) if kinds else name
            field: Field | None = getattr(self, name, None)
            return field
        if parts[0] == "sides" and len(parts) == 3 and parts[1].isdigit():
            index = int(parts[1])
            if index < len(self.sides):
                return getattr(self.sides[index].form, parts[2], None)
        return None


# The house rules of RULES.md sections 13 to 15 (``table_rules``), fields of the form too.
for name, unbound in table_rule_fields().items():
    setattr(NewGameForm, name, unbound)
