"""The new-game form's fields for the house rules of RULES.md sections 13 to 15, and the
"minimum by deal" any rule set may play: the penalties, the special hands, the contract,
canastas a house may add, how long the game lasts (a target, a number of deals, minimums
by deal). ``NewGameForm`` has these fields; the page shows those its rule set has."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, Field, Form, RadioField, SelectChoice, StringField
from wtforms.validators import Optional, ValidationError

from ...i18n import number
from ...rules import VARIANTS, CanastaKind, RuleSet
from ...rules.kinds import SPECIAL_HAND_NAMES
from ...rules.limits import MAX_BONUS, MAX_DEALS
from ...rules.options import MOST_CANASTAS_TO_GO_OUT
from ...rules.scoring import ENTRY_FIELDS
from ..figures import FigureField

#: Figures some rule set takes points off for (``RuleSet.penalties``), in the deal form's
#: order; each is the house option ``<figure>_penalty``.
PENALTY_FIGURES = tuple(
    figure
    for figure in ENTRY_FIELDS
    if any(figure in rules.penalties for rules in VARIANTS.values())
)
#: The special hands' value fields (``pairs_hand``) and the choice of which a table plays.
ALL_HANDS, HOUSE_HANDS = "all", "house"


def penalty_field(figure: str) -> str:
    return f"{figure}_penalty"


def hand_field(hand: str) -> str:
    return f"{hand}_hand"


def contract_field(kind: CanastaKind) -> str:
    return f"{kind.value}_contract"


def house_kind_field(kind: CanastaKind) -> str:
    """The box that turns on a kind of canasta a house may add (Burraco's semi-clean)."""
    return f"{kind.value}_canastas_on"


#: Minimums in a list are separated by commas, semicolons or spaces ("125, 155, 180").
_LIST_SEPARATORS = re.compile(r"[\s,;]+")


class MinimumsField(StringField):
    """Initial-meld minimums for deal 1, 2, 3 ... typed as a list ("125, 155, 180");
    ``data`` is the list of points, empty when left empty."""

    def __init__(self, label: str, **kwargs: Any) -> None:
        render_kw = {"inputmode": "numeric", "autocomplete": "off", **kwargs.pop("render_kw", {})}
        super().__init__(label, [Optional()], render_kw=render_kw, **kwargs)

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        return ", ".join(str(minimum) for minimum in self.data or [])

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = []
        text = str(valuelist[0]).strip() if valuelist else ""
        parts = [part for part in _LIST_SEPARATORS.split(text) if part]
        if any(not part.isdecimal() or len(part) > 6 for part in parts):
            raise ValueError(
                _(
                    "Type the minimums as numbers, deal 1 first, such as %(example)s.",
                    example="125, 155, 180",
                )
            )
        self.data = [int(part) for part in parts]

    def post_validate(self, form: Form, validation_stopped: bool) -> None:
        if validation_stopped or not self.data:
            return
        if len(self.data) > MAX_DEALS:
            raise ValidationError(_("At most %(count)s deals.", count=MAX_DEALS))
        if any(minimum > MAX_BONUS or minimum % 5 for minimum in self.data):
            raise ValidationError(
                _("Each minimum is a multiple of 5 up to %(most)s.", most=number(MAX_BONUS))
            )


def _points(label: str) -> FigureField:
    return FigureField(label, [Optional()], maximum=MAX_BONUS, example=500)


def table_rule_fields() -> dict[str, Field]:
    """The unbound fields ``NewGameForm`` takes on: every penalty, special hand, contract
    count and house kind any rule set has (the page shows its own rule set's)."""
    fields: dict[str, Any] = {
        "deals": FigureField(
            _l("Number of deals"), [Optional()], minimum=1, maximum=MAX_DEALS, example=4
        ),
        "meld_minimums_by_deal": MinimumsField(_l("Minimum by deal")),
        "play_on": BooleanField(_l("After the listed deals, play on to the target")),
        "special_hands": RadioField(_l("Special hands"), default=ALL_HANDS, validate_choice=False),
    }
    for figure in PENALTY_FIGURES:
        fields[penalty_field(figure)] = _points(figure)
    for hand, name in SPECIAL_HAND_NAMES.items():
        fields[hand_field(hand)] = _points(name)
    for kind in CanastaKind:
        fields[contract_field(kind)] = FigureField(
            kind.value, [Optional()], maximum=MOST_CANASTAS_TO_GO_OUT, example=2
        )
        fields[house_kind_field(kind)] = BooleanField(kind.value)
    return fields


def field_names(rules: RuleSet) -> dict[str, tuple[str, ...]]:
    """The fields of ``rules``' house options, by option: the options ``special_hands``
    and ``contract`` are several fields each."""
    names: dict[str, tuple[str, ...]] = {
        penalty_field(figure): (penalty_field(figure),) for figure in rules.penalties
    }
    if rules.special_hands:
        names["special_hands"] = (
            "special_hands",
            *(hand_field(hand) for hand in SPECIAL_HAND_NAMES if hand in rules.special_hands),
        )
    if rules.contract:
        names["contract"] = tuple(contract_field(kind) for kind in rules.canasta_kinds)
    return names


def setup_choices(form: Form, rules: RuleSet) -> None:
    """The special hands' choice in words: every one of them, or the house's few."""
    house = [hand for hand in SPECIAL_HAND_NAMES if hand in rules.house_special_hands]
    form.special_hands.choices = [
        SelectChoice(ALL_HANDS, _("All %(count)s special hands", count=len(rules.special_hands))),
        SelectChoice(
            HOUSE_HANDS,
            _(
                "Only these %(count)s: %(hands)s",
                count=len(house),
                hands=", ".join(_(SPECIAL_HAND_NAMES[hand]).lower() for hand in house),
            ),
        ),
    ]


def fill_table_rules(form: Form, rules: RuleSet) -> None:
    """Show a table's rules of these kinds in their fields."""
    form.deals.data = rules.deals
    form.meld_minimums_by_deal.data = list(rules.meld_minimums_by_deal)
    form.play_on.data = bool(rules.meld_minimums_by_deal) and rules.deals is None
    for figure in PENALTY_FIGURES:
        form[penalty_field(figure)].data = rules.penalties.get(figure)
    hands = set(rules.special_hands)
    house = bool(hands) and hands == rules.house_special_hands
    form.special_hands.data = HOUSE_HANDS if house else ALL_HANDS
    for hand in SPECIAL_HAND_NAMES:
        form[hand_field(hand)].data = rules.special_hands.get(hand)
    for kind in CanastaKind:
        form[contract_field(kind)].data = rules.contract.get(kind, 0)
    for kind, suggested in rules.house_canastas.items():
        form[house_kind_field(kind)].data = kind in rules.canasta_bonuses
        form[f"{kind.value}_canasta_bonus"].data = rules.canasta_bonuses.get(kind, suggested)


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def game_deals(form: Form) -> int | None:
    """The deals after which the game ends, as the form has them: the number typed; else,
    with minimums by deal, their count unless the table plays on to its target."""
    by_deal = form.meld_minimums_by_deal.data or []
    if by_deal and form.play_on.data:
        return None
    if form.deals.data is not None:
        deals: int = form.deals.data
        return deals
    return len(by_deal) or None


def table_options(form: Form, published: RuleSet) -> dict[str, object]:
    """These house options as the form has them (equal to the book's or not), for the
    options ``published`` has; the number of deals goes with the minimums by deal."""
    chosen: dict[str, object] = {
        "meld_minimums_by_deal": form.meld_minimums_by_deal.data or None,
        "deals": game_deals(form),
    }
    for figure, points in published.penalties.items():
        chosen[penalty_field(figure)] = _or(form[penalty_field(figure)].data, points)
    if published.special_hands:
        played = (
            published.house_special_hands
            if form.special_hands.data == HOUSE_HANDS and published.house_special_hands
            else published.special_hands
        )
        chosen["special_hands"] = {
            hand: _or(form[hand_field(hand)].data, published.special_hands[hand])
            for hand in SPECIAL_HAND_NAMES
            if hand in played
        }
    if published.contract:
        contract = {
            kind.value: _or(form[contract_field(kind)].data, published.contract.get(kind, 0))
            for kind in published.canasta_kinds
        }
        chosen["contract"] = {kind: count for kind, count in contract.items() if count}
    for kind, suggested in published.house_canastas.items():
        if form[house_kind_field(kind)].data:
            name = f"{kind.value}_canasta_bonus"
            chosen[name] = _or(form[name].data, suggested)
    return chosen


def keep_deals(options: Mapping[str, object], chosen: Mapping[str, object]) -> dict[str, object]:
    """``options`` (those that differ from the book) with the number of deals said
    whenever the minimums by deal are: alone they would set it to their count."""
    kept = dict(options)
    if "meld_minimums_by_deal" in kept:
        kept["deals"] = chosen["deals"]
    return kept
