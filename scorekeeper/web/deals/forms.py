"""The deal form: who went out, then each side's figures, with the rule set's steppers,
penalty boxes and special hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, ClassVar

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
    SelectField,
)
from wtforms.validators import Length, Optional

from ...i18n import number, render_text
from ...rules import (
    CanastaKind,
    RuleSet,
    Severity,
    SideResult,
    Violation,
    figure_name,
    figures_of,
)
from ...rules.kinds import SPECIAL_HAND_NAMES
from ...rules.limits import MAX_REQUEST_KEY
from ...rules.scoring import BOOLEAN_FIELDS
from ...rules.text import N_
from ..figures import CountField, PointsField
from ..forms import PageForm, fit_entries


class SideDealForm(Form):
    """One side's figures for a deal; the steppers and boxes are the rule set's
    (``deal_form``)."""

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

    #: The special hands a side may go out with, by id (the rule set's, ``deal_form``).
    special_hands: ClassVar[Mapping[str, int]] = MappingProxyType({})

    def setup(self, side_names: Sequence[str]) -> DealForm:
        fit_entries(self.sides, len(side_names))
        self.went_out.choices = [
            *(SelectChoice(str(i), name) for i, name in enumerate(side_names)),
            SelectChoice("", _l("Nobody")),
        ]
        hands = [
            SelectChoice(hand, _("%(hand)s (%(points)s)", hand=_(name), points=number(points)))
            for hand, name in SPECIAL_HAND_NAMES.items()
            if (points := self.special_hands.get(hand)) is not None
        ]
        for entry in self.sides:
            if "special_hand" in entry.form:
                entry.form.special_hand.choices = [SelectChoice("", _("None")), *hands]
        return self

    def results(self) -> list[SideResult]:
        """The entry as the rules engine reads it (call after a successful validate)."""
        out = self.went_out.data
        results = []
        for index, entry in enumerate(self.sides):
            side = entry.form
            counts: dict[str, Any] = {
                name: getattr(side, name).data or 0 for name in COUNT_FIELDS if name in side
            }
            checks = {name: bool(side[name].data) for name in CHECK_FIELDS if name in side}
            hand = side.special_hand.data if "special_hand" in side else None
            results.append(
                SideResult(
                    meld_points=side.meld_points.points,
                    hand_points=side.hand_points.points,
                    **counts,
                    **checks,
                    special_hand=hand or None,
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
#: Threes laid down, by colour (``RuleSet.threes_laid``), and red threes left in a hand or
#: foot (Hand and Foot).
THREE_FIELDS = ("red_threes", "black_threes", "red_threes_in_hand")
#: The figures counted with steppers (the rule set's canastas, concealed ones, threes,
#: black threes, and a player left holding three aces or sevens).
COUNT_FIELDS = (
    *(kind.field for kind in CanastaKind),
    "concealed_canastas",
    *THREE_FIELDS,
    *BLACK_THREE_FIELDS,
    "aces_or_sevens_held",
)
#: The yes-or-no figures a side ticks (unfinished special melds, the pot never taken);
#: who went out and "concealed" are the deal's.
CHECK_FIELDS = tuple(name for name in BOOLEAN_FIELDS if name not in ("went_out", "concealed"))


@dataclass(frozen=True)
class Layout:
    """A side's figures on the deal form of a rule set, in the order they are typed:
    ``steppers`` above the points, ``penalties`` (steppers and boxes) under them, then the
    special hand where the rule set has some."""

    steppers: tuple[str, ...]
    penalty_steppers: tuple[str, ...]
    checks: tuple[str, ...]
    special_hand: bool


def layout_of(rules: RuleSet) -> Layout:
    asked = figures_of(rules)
    # Red threes left in a hand or foot go beside those laid down.
    penalties = tuple(
        name for name in COUNT_FIELDS if name in rules.penalties and name not in THREE_FIELDS
    )
    return Layout(
        steppers=tuple(
            name
            for name in (
                *(kind.field for kind in rules.canasta_kinds),
                "concealed_canastas",
                *THREE_FIELDS,
                *BLACK_THREE_FIELDS,
            )
            if name in asked and name not in penalties
        ),
        penalty_steppers=penalties,
        checks=tuple(name for name in CHECK_FIELDS if name in asked),
        special_hand="special_hand" in asked,
    )


#: Red threes where a side may also hold some (a hand or foot, the kitty).
RED_THREES_LAID = N_("Red threes laid down")


def _label(rules: RuleSet, name: str) -> str:
    """A figure's label on the deal form: red threes are "laid down" where others are
    left in a hand or kept in the kitty."""
    if name == "red_threes" and (rules.kitty or "red_threes_in_hand" in figures_of(rules)):
        return RED_THREES_LAID
    return figure_name(rules, name)


@cache
def _deal_form_class(
    steppers: tuple[tuple[str, str], ...],
    checks: tuple[tuple[str, str], ...],
    hand: str,
    special_hands: tuple[tuple[str, int], ...],
) -> type[DealForm]:
    fields: dict[str, Field] = {name: CountField(_l(label)) for name, label in steppers}
    fields.update({name: BooleanField(_l(label)) for name, label in checks})
    fields["hand_points"] = PointsField(_l(hand))
    if special_hands:
        fields["special_hand"] = SelectField(_l("Special hand"), default="", validate_choice=True)
    side_form = type("SideDealForm", (SideDealForm,), fields)
    return type(
        "DealForm",
        (DealForm,),
        {
            "sides": FieldList(FormField(side_form), min_entries=2),
            "special_hands": MappingProxyType(dict(special_hands)),
        },
    )


def steppers_of(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    """The deal form's steppers, each with its (English) label: each kind of canasta the
    rule set knows, under its own name ("Sambas"), concealed canastas when the house rule
    is on, the threes it scores, the black-three figures it scores apart, and the
    penalties counted (three aces or sevens held)."""
    layout = layout_of(rules)
    names = (*layout.steppers, *layout.penalty_steppers)
    return tuple((name, _label(rules, name)) for name in names)


def deal_form(rules: RuleSet, side_names: Sequence[str]) -> DealForm:
    """The deal form of a game: the rule set's steppers (``steppers_of``), boxes and
    special hands, and words for what is left in hand, a column for each side."""
    form_class = _deal_form_class(
        steppers_of(rules),
        tuple((name, figure_name(rules, name)) for name in layout_of(rules).checks),
        figure_name(rules, "hand_points"),
        tuple(rules.special_hands.items()),
    )
    return form_class().setup(side_names)


def fill_deal_form(form: DealForm, results: Sequence[SideResult]) -> None:
    """Put a stored deal's figures into the form for editing."""
    for index, result in enumerate(results):
        side = form.sides[index].form
        side.meld_points.data = str(result.meld_points)
        side.hand_points.data = str(result.hand_points)
        for name in (*COUNT_FIELDS, *CHECK_FIELDS):
            if name in side:
                getattr(side, name).data = getattr(result, name)
        if "special_hand" in side:
            side.special_hand.data = result.special_hand or ""
        if result.went_out:
            form.went_out.data = str(index)
            form.concealed.data = result.concealed
