"""Club evenings (RULES.md section 11): tables play rounds, entrants move, standings rank them.

An *entrant* is who is ranked: a pair (its players, of the rule set's side size) in a pairs
evening, where partners stay together; a single player in an individual one, where partners
change every round. A round is what its tables ended with (each side's players and total)
and who sat out. Standings and the next round's seating are both recomputed from the
rounds, so a corrected total just works, like a deal of a game.

The errors here are the caller's mistakes (an unknown name, a table of one side): the API
checks a request first and answers the player in their own language.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .ruleset import RuleSet
from .seat_search import History, Shape, in_order, search

#: Who is ranked: a pair's players, or one player's name alone (a tuple of one).
Entrant = tuple[str, ...]

#: Match points for a table (API.md "Club evenings"): a win, a share of the top, a bye.
WIN = 2
DRAW = 1
BYE = 2


class Format(enum.Enum):
    """Fixed partnerships all evening, or partners changing every round."""

    PAIRS = "pairs"
    INDIVIDUAL = "individual"


class EveningError(ValueError):
    """Entrants or rounds that do not make an evening; the message says what."""


@dataclass(frozen=True)
class SideTotal:
    """One side at a table when the round ended: its players and its total."""

    players: tuple[str, ...]
    total: int


@dataclass(frozen=True)
class TableResult:
    """A table's game as it ended: two sides, or three in ``classic-6x3``."""

    sides: tuple[SideTotal, ...]


@dataclass(frozen=True)
class RoundResult:
    """A round as played: every table's result and the entrants who sat out."""

    tables: tuple[TableResult, ...]
    byes: tuple[Entrant, ...] = ()


@dataclass(frozen=True)
class Standing:
    """An entrant's line in the standings (API.md's fields, plus ``points``: the totals it
    scored, the last tie-break before the name)."""

    players: Entrant
    match_points: int = 0
    difference: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    #: Tables played (a bye is not one).
    played: int = 0
    points: int = 0
    #: Victory points (RULES.md section 16), in an evening that scores by them.
    victory_points: int = 0


@dataclass(frozen=True)
class TableSeating:
    """A table of a seating: its sides' players, in seat-draw order (a pairs evening: one
    pair per side; an individual one: the partners of each side)."""

    sides: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RoundSeating:
    """Where everyone sits for a round, and who sits out."""

    tables: tuple[TableSeating, ...]
    byes: tuple[Entrant, ...]

    def result(self, totals: Sequence[Sequence[int]]) -> RoundResult:
        """The round once its tables have ended with ``totals`` (one tuple per table, one
        total per side)."""
        if len(totals) != len(self.tables):
            raise EveningError(f"{len(self.tables)} tables need totals, not {len(totals)}")
        return RoundResult(
            tables=tuple(
                TableResult(
                    tuple(
                        SideTotal(players, total)
                        for players, total in zip(table.sides, sides, strict=True)
                    )
                )
                for table, sides in zip(self.tables, totals, strict=True)
            ),
            byes=self.byes,
        )


def table_match_points(totals: Sequence[int]) -> tuple[int, ...]:
    """Match points of each side of a table: the sole highest total 2, a share of the
    highest total 1 each, every other side 0."""
    if len(totals) < 2:
        raise EveningError("a table has at least two sides")
    best = max(totals)
    top = WIN if list(totals).count(best) == 1 else DRAW
    return tuple(top if total == best else 0 for total in totals)


def table_differences(totals: Sequence[int]) -> tuple[int, ...]:
    """Each side's total minus the other side's (with more sides: the best other side's)."""
    if len(totals) < 2:
        raise EveningError("a table has at least two sides")
    return tuple(
        total - max(other for index, other in enumerate(totals) if index != side)
        for side, total in enumerate(totals)
    )


def entrants_of(format: Format, players: Sequence[str]) -> tuple[Entrant, ...]:
    """The entrants on a side: the pair itself, or each player alone."""
    if format is Format.PAIRS:
        return (tuple(players),)
    return tuple((player,) for player in players)


def check_entrants(format: Format, entrants: Sequence[Entrant]) -> None:
    """Raise ``EveningError`` unless every name is given once and each entrant is one
    player (individual) or one pair of the same size (pairs)."""
    names = Counter(name for entrant in entrants for name in entrant)
    twice = sorted(name for name, count in names.items() if count > 1)
    if twice:
        raise EveningError(f"named more than once: {', '.join(twice)}")
    sizes = {len(entrant) for entrant in entrants}
    if format is Format.INDIVIDUAL and sizes - {1}:
        raise EveningError("an individual evening ranks players one by one")
    if format is Format.PAIRS and (len(sizes) > 1 or sizes & {0, 1}):
        raise EveningError("a pairs evening ranks partnerships, all of one size")


def _entries(format: Format, round_: RoundResult) -> Iterable[Entrant]:
    """Everyone a round names: at its tables, then sitting out."""
    for table in round_.tables:
        for side in table.sides:
            yield from entrants_of(format, side.players)
    yield from round_.byes


def _check_round(format: Format, known: set[Entrant], number: int, round_: RoundResult) -> None:
    seen = Counter(_entries(format, round_))
    unknown = sorted(" & ".join(entrant) for entrant in seen if entrant not in known)
    if unknown:
        raise EveningError(f"round {number} names who is not in the evening: {unknown}")
    again = sorted(" & ".join(entrant) for entrant, count in seen.items() if count > 1)
    if again:
        raise EveningError(f"round {number} seats {again} more than once")


def standings(
    format: Format, entrants: Sequence[Entrant], rounds: Sequence[RoundResult]
) -> tuple[Standing, ...]:
    """The standings after ``rounds``, best first (API.md "Club evenings").

    A table gives each side's entrants its match points (``table_match_points``) and its
    difference (``table_differences``); in an individual evening each player gets their
    side's. A bye scores 2 match points and 0 difference once per entrant: a further bye
    (the seating gives one only when everyone has had one) is counted and scores nothing.
    Order: match points, then difference, then points scored, then the name.
    """
    check_entrants(format, entrants)
    known = set(entrants)
    lines: dict[Entrant, Counter[str]] = {entrant: Counter() for entrant in entrants}
    for number, round_ in enumerate(rounds, start=1):
        _check_round(format, known, number, round_)
        for table in round_.tables:
            totals = [side.total for side in table.sides]
            points = table_match_points(totals)
            differences = table_differences(totals)
            for side, mp, difference in zip(table.sides, points, differences, strict=True):
                outcome = "won" if mp == WIN else "drawn" if mp == DRAW else "lost"
                for entrant in entrants_of(format, side.players):
                    line = lines[entrant]
                    line["match_points"] += mp
                    line["difference"] += difference
                    line["points"] += side.total
                    line["played"] += 1
                    line[outcome] += 1
        for entrant in round_.byes:
            line = lines[entrant]
            if not line["byes"]:
                line["match_points"] += BYE
            line["byes"] += 1
    ranked = [Standing(entrant, **line) for entrant, line in lines.items()]
    return tuple(sorted(ranked, key=standing_order))


def standing_order(standing: Standing) -> tuple[int, int, int, tuple[str, ...], Entrant]:
    """The sort key of the standings: more match points, then a larger difference, then more
    points scored, then the name (case aside, then as written)."""
    return (
        -standing.match_points,
        -standing.difference,
        -standing.points,
        tuple(name.casefold() for name in standing.players),
        standing.players,
    )


def table_shape(rules: RuleSet, format: Format) -> Shape:
    """A table in entrants: a pairs evening seats its rule set's sides, a pair each; an
    individual one seats every player of the rule set, an entrant each."""
    if not rules.partnerships:
        raise EveningError(f"{rules.id} has no partnerships: an evening needs a partnership game")
    if format is Format.PAIRS:
        return Shape(sides=rules.sides, per_side=1)
    return Shape(sides=rules.sides, per_side=rules.players_per_side)


def _history(format: Format, entrants: Sequence[Entrant], rounds: Sequence[RoundResult]) -> History:
    """Who partnered and who met whom, and the byes, per entrant of ``entrants``."""
    index = {entrant: number for number, entrant in enumerate(entrants)}
    count = len(entrants)
    partners = [[0] * count for _ in range(count)]
    opponents = [[0] * count for _ in range(count)]
    byes = [0] * count
    for round_ in rounds:
        for table in round_.tables:
            sides = [
                [index[entrant] for entrant in entrants_of(format, side.players)]
                for side in table.sides
            ]
            for number, side in enumerate(sides):
                for other_number, other in enumerate(sides):
                    met = partners if number == other_number else opponents
                    for u in side:
                        for v in other:
                            if u != v:
                                met[u][v] += 1
        for entrant in round_.byes:
            byes[index[entrant]] += 1
    return History(
        partners=tuple(map(tuple, partners)),
        opponents=tuple(map(tuple, opponents)),
        byes=tuple(byes),
    )


def seat_round(
    rules: RuleSet,
    format: Format,
    entrants: Sequence[Entrant],
    rounds: Sequence[RoundResult],
    rng: random.Random,
    *,
    order: Sequence[Entrant] | None = None,
) -> RoundSeating:
    """Seat the round after ``rounds`` (RULES.md section 11).

    Round 1 is by lot: ``rng`` shuffles the entrants, tables take them in that order and
    the last ones sit out. Later rounds follow the standings and ignore ``rng``: nobody
    gets a second bye while someone has none; then the fewest repeats (a pair meeting a
    pair again; in an individual evening a partner again, then an opponent again); then
    the byes as low in the standings as that allows; then tables of neighbours in the
    standings. Players beyond whole tables sit out. ``order`` is the standings to seat by,
    best first, when the evening ranks otherwise than by match points (victory points).
    """
    shape = table_shape(rules, format)
    check_entrants(format, entrants)
    if format is Format.PAIRS and any(len(pair) != rules.players_per_side for pair in entrants):
        raise EveningError(f"{rules.id} is played by partnerships of {rules.players_per_side}")
    if len(entrants) < shape.size:
        raise EveningError(f"{len(entrants)} cannot fill a table: {rules.id} seats {shape.size}")
    if not rounds:
        order = list(entrants)
        rng.shuffle(order)
        seated = len(order) - len(order) % shape.size
        return _seating(order, in_order(range(seated), shape), range(seated, len(order)))
    ranked = [line.players for line in standings(format, entrants, rounds)]
    if order is not None:
        if sorted(order) != sorted(ranked):
            raise EveningError("the order to seat by names other entrants than the evening's")
        ranked = list(order)
    found = search(shape, _history(format, ranked, rounds))
    return _seating(ranked, found.tables, found.byes)


def _seating(
    entrants: Sequence[Entrant],
    tables: Iterable[tuple[tuple[int, ...], ...]],
    byes: Iterable[int],
) -> RoundSeating:
    """Names for a seating of entrant numbers; the sides keep the order the search gave."""
    return RoundSeating(
        tables=tuple(
            TableSeating(
                tuple(
                    tuple(name for entrant in side for name in entrants[entrant]) for side in table
                )
            )
            for table in tables
        ),
        byes=tuple(entrants[entrant] for entrant in byes),
    )
