"""The deal form: who went out, then each side's figures, with the rule set's steppers."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

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
)
from wtforms.validators import Length, Optional

from ...i18n import render_text
from ...rules import (
    CanastaKind,
    RuleSet,
    Severity,
    SideResult,
    Violation,
    figure_name,
    figures_of,
)
from ...rules.limits import MAX_REQUEST_KEY
from ..figures import CountField, PointsField
from ..forms import PageForm, fit_entries


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
        fit_entries(self.sides, len(side_names))
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
            counts: dict[str, Any] = {
                name: getattr(side, name).data or 0 for name in COUNT_FIELDS if name in side
            }
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
