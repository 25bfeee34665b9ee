"""Movements of a club evening (RULES.md section 11): how pairs change tables from round to round.

The director picks one by name when the evening is made. ``swiss`` seats each round from the
standings (``evening.seat_round``); ``mitchell`` and ``round_robin`` are fixed schedules of a
pairs evening at tables of two sides, decided by round 1's seats alone.

A schedule places the pairs of an *order* (a list of entrants) round after round:

- ``mitchell``: the first ``n // 2`` pairs of the order are *stationary*, one per table,
  table 1 first, and keep their table and seat all evening (listed first at it); the others
  *move*, starting at tables 1, 2, ... and going one table up each round, from the last table
  back to the first. With an odd number of pairs there is one more moving pair than tables:
  it starts past the last table, and whichever moving pair is due there sits out that round
  (it goes on to table 1 the round after). Stationary pairs never sit out, and moving pairs
  never meet each other nor stationary ones among themselves: two pairs meet again only once
  the rounds outnumber the moving pairs' positions (the tables, plus the sit-out with an odd
  count).
- ``round_robin``: the circle method. With an even count the first pair of the order keeps
  table 1's first seat and the others turn around the tables one place a round; with an odd
  count an empty place takes that fixed spot, and whoever it meets sits out. Every pair meets
  every other once in ``rounds_needed(n)`` rounds, and with an odd count sits out once. Later
  rounds play the robin again in the same order.

Round 1 is by lot, as in the Swiss movement: the order is the entrants shuffled. Later
rounds read the order back from round 1's seats (its tables in order, each side as seated,
and its byes), so a swap the director made before round 1 began moves those pairs for the
whole evening, and nothing needs storing beyond the rounds.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence

from .evening import (
    Entrant,
    EveningError,
    Format,
    RoundResult,
    RoundSeating,
    TableSeating,
    check_entrants,
    seat_round,
    table_shape,
)
from .ruleset import RuleSet


class Movement(enum.Enum):
    """How the pairs move between rounds, chosen by name when the evening is made."""

    SWISS = "swiss"
    MITCHELL = "mitchell"
    ROUND_ROBIN = "round_robin"


def rounds_needed(pairs: int) -> int:
    """The rounds a round robin of ``pairs`` takes for everyone to meet everyone once: one
    fewer than the pairs, or as many as the pairs when one sits out each round."""
    if pairs < 2:
        raise EveningError(f"a round robin needs two pairs at least, not {pairs}")
    return pairs if pairs % 2 else pairs - 1


def _check_order(order: Sequence[Entrant], round_number: int) -> None:
    if len(order) < 2:
        raise EveningError(f"{len(order)} pairs cannot fill a table")
    if len(set(order)) != len(order):
        raise EveningError("a pair is named more than once")
    if round_number < 1:
        raise EveningError(f"rounds are counted from 1, not {round_number}")


def mitchell(order: Sequence[Entrant], round_number: int) -> RoundSeating:
    """Round ``round_number`` (from 1) of a Mitchell movement of the pairs of ``order``, the
    stationary pairs first (see the module's docstring)."""
    _check_order(order, round_number)
    tables = len(order) // 2
    stationary, moving = order[:tables], order[tables:]
    # A moving pair's place: tables 0 .. tables - 1, and with an odd count the sit-out last.
    places = len(moving)
    at: dict[int, Entrant] = {
        (start + round_number - 1) % places: pair for start, pair in enumerate(moving)
    }
    return RoundSeating(
        tables=tuple(TableSeating((stationary[table], at[table])) for table in range(tables)),
        byes=tuple(at[place] for place in range(tables, places)),
    )


def round_robin(order: Sequence[Entrant], round_number: int) -> RoundSeating:
    """Round ``round_number`` (from 1) of a round robin of the pairs of ``order`` by the
    circle method (see the module's docstring); past ``rounds_needed`` it starts again."""
    _check_order(order, round_number)
    circle: list[Entrant | None] = [None, *order] if len(order) % 2 else list(order)
    size = len(circle)
    turn = (round_number - 1) % (size - 1)
    rest = circle[1:]
    placed = [circle[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    tables: list[TableSeating] = []
    byes: list[Entrant] = []
    for place in range(size // 2):
        first, second = placed[place], placed[size - 1 - place]
        if first is None or second is None:
            byes.extend(pair for pair in (first, second) if pair is not None)
        else:
            tables.append(TableSeating((first, second)))
    return RoundSeating(tables=tuple(tables), byes=tuple(byes))


#: The schedules, by movement: each places an order's pairs for a round.
SCHEDULES = {Movement.MITCHELL: mitchell, Movement.ROUND_ROBIN: round_robin}


def order_of(movement: Movement, entrants: Sequence[Entrant], first: RoundResult) -> list[Entrant]:
    """The order that seats round 1 as ``first`` was played: the inverse of the schedule's
    round 1, so the evening moves on from the seats the pairs actually took."""
    known = set(entrants)
    if movement is Movement.MITCHELL:
        tables = len(entrants) // 2
        order = [table.sides[0].players for table in first.tables]
        order += [table.sides[1].players for table in first.tables]
        order += list(first.byes)
        shape_ok = len(first.tables) == tables
    else:
        # Round 1 of the circle: place p meets place size - 1 - p (place 0 empty when odd).
        empty = len(entrants) % 2
        size = len(entrants) + empty
        slots: list[Entrant | None] = [None] * size
        for place, table in enumerate(first.tables, start=empty):
            if place < size // 2:
                slots[place] = table.sides[0].players
                slots[size - 1 - place] = table.sides[1].players
        if empty and len(first.byes) == 1:
            slots[size - 1] = first.byes[0]
        order = [pair for pair in slots[empty:] if pair is not None]
        shape_ok = len(first.tables) == size // 2 - empty
    if (
        not shape_ok
        or any(len(table.sides) != 2 for table in first.tables)
        or len(first.byes) != len(entrants) % 2
        or len(order) != len(entrants)
        or set(order) != known
    ):
        raise EveningError(f"round 1 was not seated by the {movement.value} movement")
    return order


def seat_movement(
    movement: Movement,
    rules: RuleSet,
    format: Format,
    entrants: Sequence[Entrant],
    rounds: Sequence[RoundResult],
    rng: random.Random,
    *,
    order: Sequence[Entrant] | None = None,
) -> RoundSeating:
    """Seat the round after ``rounds`` by ``movement``: the one call that seats an evening's
    round, whatever its movement.

    The Swiss movement is ``seat_round``. A Mitchell or a round robin is for a pairs evening
    of two sides to a table: round 1 shuffles the entrants with ``rng`` into the order, and
    each later round reads it back from round 1 (``order_of``) and ignores ``rng``. ``order``
    is the standings the Swiss seating follows (``seat_round``); a schedule needs none.
    """
    if movement is Movement.SWISS:
        return seat_round(rules, format, entrants, rounds, rng, order=order)
    shape = table_shape(rules, format)
    check_entrants(format, entrants)
    if format is not Format.PAIRS or shape.sides != 2:
        raise EveningError(f"the {movement.value} movement moves pairs between tables of two sides")
    if any(len(pair) != rules.players_per_side for pair in entrants):
        raise EveningError(f"{rules.id} is played by partnerships of {rules.players_per_side}")
    if rounds:
        order = order_of(movement, entrants, rounds[0])
    else:
        order = list(entrants)
        rng.shuffle(order)
    return SCHEDULES[movement](order, len(rounds) + 1)
