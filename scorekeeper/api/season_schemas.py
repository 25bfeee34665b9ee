"""The bodies of the seasons' API (API.md "Seasons and results"), kept apart from
``schemas`` (which imports them, so the OpenAPI document and its contract test find them
there). A points table's shape is stated here; that no place scores more than the place
above it is the rules engine's (``rules.season.check_points``), in its words."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field

from ..rules.season import DEFAULT_POINTS, MOST_PLACES, MOST_POINTS
from .schemas import Body, Name


def _whole(value: object) -> object:
    """``12.0`` is the whole number 12, as JSON Schema's ``integer`` says (and ``schemas``
    reads every whole number)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: One place's season points.
Place = Annotated[int, Field(ge=0, le=MOST_POINTS), BeforeValidator(_whole)]
Points = Annotated[list[Place], Field(min_length=1, max_length=MOST_PLACES)]


class NewSeason(Body):
    """A new season: its name, and the season points of 1st, 2nd, ... place of an evening
    (places beyond the list score 0; the default when left out)."""

    name: Name
    points: Points = Field(list(DEFAULT_POINTS))


class SeasonPoints(Body):
    """The season's points table, changed by its director."""

    points: Points
