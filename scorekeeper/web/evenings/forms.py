"""The club evening's forms: a new evening, a swap of two players, the director's link."""

from __future__ import annotations

import re

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import Field, RadioField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, Optional, ValidationError

from ...rules import VARIANTS, Format, Movement, RuleSet
from ...rules.limits import MAX_DEALS, MAX_DEVICE, MAX_ENTRANTS, MAX_MINUTES, MAX_ROUNDS
from ..figures import FigureField
from ..forms import PageForm
from ..scorer import JoinForm, secret_field

#: The rule sets an evening may be played by: those of partners (RULES.md section 11).
EVENING_VARIANTS = tuple(v for v in VARIANTS.values() if v.partnerships)
#: Between partners on a line of the players' field: "Ana, Boris", "Ana & Boris", "Ana / Boris".
PARTNERS = re.compile(r"[,;&/+]")
#: Longest players' field: every name of the largest evening, with room to spare.
MAX_PLAYERS_TEXT = MAX_ENTRANTS * 48
#: An evening's name, as long as a game's side's (the store's ``check_name``).
MAX_EVENING_NAME = 40


def _count_field(label: str, maximum: int, example: int, required: bool = True) -> FigureField:
    validators = [InputRequired(_l("Give a number."))] if required else [Optional()]
    return FigureField(
        label,
        validators,
        minimum=1,
        maximum=maximum,
        example=example,
        render_kw={"enterkeyhint": "next"},
    )


class NewEveningForm(PageForm):
    """An evening: its name, rule set, format, who is present, and the rounds' length."""

    #: The fields a refusal of the store may name (as ``create_evening`` calls them).
    FIELDS = (
        "name",
        "variant",
        "format",
        "movement",
        "rounds",
        "deals_per_round",
        "minutes_per_round",
    )

    name = StringField(
        _l("Name of the evening"),
        # DataRequired after the strip: a name of spaces is no name.
        [DataRequired(_l("Give the evening a name.")), Length(max=MAX_EVENING_NAME)],
        filters=[lambda text: text.strip() if isinstance(text, str) else text],
        render_kw={"autocomplete": "off", "maxlength": MAX_EVENING_NAME},
    )
    variant = SelectField(
        _l("Rule set"),
        choices=[SelectChoice(v.id, _l(v.short_name)) for v in EVENING_VARIANTS],
        default="classic",
        validate_choice=True,
    )
    format = RadioField(
        _l("Partners"),
        choices=[
            SelectChoice(Format.PAIRS.value, _l("Fixed pairs: partners stay together")),
            SelectChoice(Format.INDIVIDUAL.value, _l("Individual: partners change each round")),
        ],
        default=Format.PAIRS.value,
        validate_choice=True,
    )
    players = TextAreaField(
        _l("Players present"),
        [InputRequired(_l("Name the players present.")), Length(max=MAX_PLAYERS_TEXT)],
        render_kw={"autocomplete": "off", "rows": 8, "spellcheck": "false"},
    )
    movement = RadioField(
        _l("Seating after round 1"),
        choices=[
            SelectChoice(Movement.SWISS.value, _l("By the standings (Swiss)")),
            SelectChoice(
                Movement.MITCHELL.value,
                _l("Mitchell: half the pairs keep their table, the others move one table up"),
            ),
            SelectChoice(
                Movement.ROUND_ROBIN.value, _l("Round robin: every pair meets every other once")
            ),
        ],
        default=Movement.SWISS.value,
        validate_choice=True,
    )
    #: Left empty, a round robin plays as many rounds as it takes.
    rounds = _count_field(_l("Rounds"), MAX_ROUNDS, 3, False)
    deals_per_round = _count_field(_l("Deals per round"), MAX_DEALS, 4)
    minutes_per_round = _count_field(_l("Minutes per round (optional)"), MAX_MINUTES, 50, False)
    device = StringField(
        _l("This phone's name in the change log"),
        validators=[Optional(), Length(max=MAX_DEVICE)],
        render_kw={"autocomplete": "off", "maxlength": MAX_DEVICE},
    )

    @property
    def chosen_format(self) -> Format:
        return (
            Format(self.format.data)
            if self.format.data in ("pairs", "individual")
            else Format.PAIRS
        )

    @property
    def chosen_movement(self) -> Movement:
        values = {movement.value for movement in Movement}
        return Movement(self.movement.data if self.movement.data in values else "swiss")

    @property
    def rules(self) -> RuleSet:
        return VARIANTS.get(self.variant.data or "", VARIANTS["classic"])

    def entrants(self) -> tuple[list[list[str]], list[int]]:
        """The players as the store takes them (each pair, or each player alone), with the
        line of the field each came from (for the messages)."""
        entrants: list[list[str]] = []
        lines: list[int] = []
        for number, line in enumerate((self.players.data or "").splitlines(), start=1):
            names = [" ".join(part.split()) for part in PARTNERS.split(line)]
            names = [name for name in names if name]
            if not names:
                continue
            if self.chosen_format is Format.PAIRS:
                entrants.append(names)
                lines.append(number)
            else:
                for name in names:
                    entrants.append([name])
                    lines.append(number)
        return entrants, lines

    def validate_players(self, field: Field) -> None:
        if not self.entrants()[0] and field.data and field.data.strip():
            raise ValidationError(_("Name the players present."))


class SwapForm(PageForm):
    """Two players who change places before their tables' first deal."""

    first = SelectField(_l("Swap"), validate_choice=True)
    second = SelectField(_l("with"), validate_choice=True)

    def setup(self, names: list[str]) -> SwapForm:
        choices = [SelectChoice("", "—"), *(SelectChoice(name, name) for name in names)]
        self.first.choices = self.second.choices = choices
        return self

    def validate_first(self, field: Field) -> None:
        if not field.data:
            raise ValidationError(_("Pick a player."))

    def validate_second(self, field: Field) -> None:
        if not field.data:
            raise ValidationError(_("Pick a player."))


class DirectorJoinForm(JoinForm):
    """Direct the evening from this device: its secret, from the director's link or pasted
    (and this phone's name, as a scorer's)."""

    token = secret_field(
        _l("The evening's secret"), _l("Paste the secret from the director's link.")
    )
