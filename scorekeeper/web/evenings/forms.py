"""The club evening's forms: a new evening, a swap of two players, time called, the
director's link."""

from __future__ import annotations

import re

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    Field,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, Optional, ValidationError

from ...i18n import current_language
from ...i18n import number as figure
from ...rules import VARIANTS, Format, Movement, RuleSet
from ...rules.limits import MAX_DEALS, MAX_DEVICE, MAX_ENTRANTS, MAX_MINUTES, MAX_ROUNDS
from ...rules.victory_points import BYE_VP, MATCH_POINTS, MOST_STEPS, PUBLISHED, TOTAL
from ..figures import FigureField, Unreadable, read_figure
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
#: The scoring choice of a scale the director types.
TYPED = "typed"
#: Longest typed scale: every step's line, with room to spare.
MAX_SCALE_TEXT = MOST_STEPS * 24


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
        "scoring",
        "bye_vp",
    )

    #: The season the evening joins (``seasons.director.offer_seasons`` lists them).
    season = SelectField(_l("Season"), choices=[], validate_choice=False)
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
    scoring = RadioField(
        _l("Scoring"),
        choices=[
            SelectChoice(MATCH_POINTS, _l("Match points: a win 2, a draw 1, a loss 0")),
            SelectChoice("burraco-3", _l("Victory points: Burraco's scale for rounds of 3 deals")),
            SelectChoice("burraco-4", _l("Victory points: Burraco's scale for rounds of 4 deals")),
            SelectChoice(TYPED, _l("Victory points: a scale I type")),
        ],
        default=MATCH_POINTS,
        validate_choice=True,
    )
    scale = TextAreaField(
        _l("Your scale"),
        [Length(max=MAX_SCALE_TEXT)],
        render_kw={"autocomplete": "off", "rows": 6, "spellcheck": "false"},
    )
    bye_vp = FigureField(
        _l("Victory points for a bye"),
        [Optional()],
        minimum=0,
        maximum=TOTAL,
        example=BYE_VP,
        render_kw={"enterkeyhint": "next"},
    )
    #: Each deal confirmed on the other side's phone (a second code on each table card).
    confirmations = BooleanField(_l("Results confirmed by the other side"))
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

    def steps(self) -> tuple[list[list[int | None]], list[int]]:
        """The typed scale's steps as the store takes them (``[upper bound, winner's VP]``,
        ``[None, VP]`` for a line of the VP alone), with the line each came from. Raises
        ``ValidationError`` naming a line that is no step."""
        steps: list[list[int | None]] = []
        lines: list[int] = []
        for at, line in enumerate((self.scale.data or "").splitlines(), start=1):
            if not line.strip():
                continue
            parts = line.split(":")
            try:
                figures = [read_figure(part, current_language()) for part in parts]
            except Unreadable:
                figures = []
            if len(figures) not in (1, 2):
                raise ValidationError(
                    _(
                        "Line %(line)s: the largest difference, a colon and the winner's "
                        "victory points (%(example)s); the last line the victory points "
                        "alone (20).",
                        line=at,
                        example=f"{figure(1500)}: 11",
                    )
                )
            steps.append([None, figures[0]] if len(figures) == 1 else [figures[0], figures[1]])
            lines.append(at)
        return steps, lines

    def scoring_value(self) -> tuple[object, list[int]]:
        """The scoring as the store takes it (API.md's), and the typed scale's lines."""
        chosen = self.scoring.data or MATCH_POINTS
        if chosen in PUBLISHED:
            return {"victory_points": chosen}, []
        if chosen == TYPED:
            steps, lines = self.steps()
            return {"victory_points": steps}, lines
        return MATCH_POINTS, []

    def validate_scale(self, field: Field) -> None:
        if self.scoring.data != TYPED:
            return
        steps, _lines = self.steps()
        if not steps:
            raise ValidationError(_("Type your scale: a line per step."))

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


class CloseRoundForm(PageForm):
    """Time called on a round: each table plays out its deal in progress (``call``), or
    every table stops as it stands (``final``)."""

    call = SubmitField(_l("Call time"))
    final = SubmitField(_l("Stop every table now"))


class DirectorJoinForm(JoinForm):
    """Direct the evening from this device: its secret, from the director's link or pasted
    (and this phone's name, as a scorer's)."""

    token = secret_field(
        _l("The evening's secret"), _l("Paste the secret from the director's link.")
    )
