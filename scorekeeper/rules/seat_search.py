"""The search behind a club evening's seating (RULES.md section 11): who sits out, and who
sits at which table on which side, so that as few people as possible meet again.

The search knows nothing of names or formats. It seats *entrants* (a pair in a pairs evening,
a player in an individual one), numbered in standings order (0 is the top), at tables of
``sides`` sides of ``per_side`` entrants. A seating costs ``(partner repeats, opponent
repeats)``: each two entrants on one side add how often they were partners before, each two
entrants on different sides of a table how often they were opponents; tuples compare
lexicographically, so a partner repeat is worse than any number of opponent repeats.

Byes come first: only a *fair* set of entrants sits out (nobody who has had more byes than
someone who plays), tried from the bottom of the standings up. For each, a depth-first
search seats one table after another, the best placed entrant not yet seated opening each, and
keeps the cheapest seating found; a later bye set replaces it only if strictly cheaper, so
the byes stay as low as a cheapest seating allows. The search stops
at the first seating without a repeat, or when its budget of candidates looked at is spent:
then it keeps the best found, and ``exact`` is False.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

#: A table as the search seats it: its sides, each a tuple of entrants.
TableSides = tuple[tuple[int, ...], ...]
#: (partner repeats, opponent repeats); lower is better, compared as a tuple.
Cost = tuple[int, int]

#: Candidates the search may look at in one call. Measured over evenings of every size up to
#: 20 pairs and 40 players, 6 rounds, it ran out only at six-player tables of an individual
#: evening (12 players or more), and no call took more than a fifth of a second.
BUDGET = 40_000
#: Inside the search a cost is one number, partner repeats weighing more than any count of
#: opponent repeats can reach, so that costs can be added and subtracted.
PARTNER = 1 << 20


@dataclass(frozen=True)
class Shape:
    """A table: ``sides`` sides of ``per_side`` entrants each."""

    sides: int
    per_side: int

    @property
    def size(self) -> int:
        return self.sides * self.per_side


@dataclass(frozen=True)
class History:
    """What the earlier rounds did, per two entrants (``partners[u][v]``, symmetric) and per entrant
    (``byes[u]``)."""

    partners: tuple[tuple[int, ...], ...]
    opponents: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]

    @property
    def entrants(self) -> int:
        return len(self.byes)


@dataclass(frozen=True)
class Found:
    """A seating: the entrants that sit out, the tables, their cost and whether the search looked
    at everything it had to (False: the budget ran out first)."""

    byes: tuple[int, ...]
    tables: tuple[TableSides, ...]
    cost: Cost
    exact: bool


def fair_byes(byes: Sequence[int], count: int) -> Iterator[tuple[int, ...]]:
    """Every set of ``count`` entrants that may sit out, best first.

    Fair: whoever sits out has had no more byes than anyone who plays. The entrants with fewest
    byes go first; among the entrants tied at the boundary, sets from the bottom of the
    standings come first (higher entrant numbers).
    """
    if count == 0:
        yield ()
        return
    order = sorted(range(len(byes)), key=lambda entrant: (byes[entrant], -entrant))
    boundary = byes[order[count - 1]]
    forced = tuple(entrant for entrant in order if byes[entrant] < boundary)
    tied = [entrant for entrant in order if byes[entrant] == boundary]
    for chosen in combinations(tied, count - len(forced)):
        yield tuple(sorted(forced + chosen))


def table_cost(table: TableSides, history: History) -> Cost:
    """What a table adds: partners who were partners before, opponents who met before."""
    partner = opponent = 0
    for index, side in enumerate(table):
        for first, second in combinations(side, 2):
            partner += history.partners[first][second]
        for other in table[index + 1 :]:
            opponent += sum(history.opponents[u][v] for u in side for v in other)
    return partner, opponent


def weight(cost: Cost) -> int:
    return cost[0] * PARTNER + cost[1]


def in_order(entrants: Sequence[int], shape: Shape) -> tuple[TableSides, ...]:
    """Tables of consecutive entrants: side after side, table after table."""
    size, each = shape.size, shape.per_side
    return tuple(
        tuple(
            tuple(entrants[start + side * each : start + (side + 1) * each])
            for side in range(shape.sides)
        )
        for start in range(0, len(entrants), size)
    )


class _Search:
    """One call's depth-first branch and bound.

    It keeps the cheapest seating found so far, and for each set of entrants still to seat
    the least a seating of them can cost, learnt when a search below it ends: the same set
    comes back after other first tables and under other byes, and is then cut short.
    """

    def __init__(self, shape: Shape, history: History, budget: int) -> None:
        self.shape = shape
        self.history = history
        self.budget = budget
        self.best: tuple[tuple[int, ...], tuple[TableSides, ...]] = ((), ())
        self.best_cost = -1  # nothing found yet
        #: The cost of the seating in standings order while it is the best kept: it is only
        #: the fallback of a spent budget, so the search's own seating replaces it at an
        #: equal cost (rule 4 decides between equal costs), and ``best_cost`` is one more.
        self.fallback: int | None = None
        self.floor: dict[tuple[int, ...], int] = {}
        self.byes: tuple[int, ...] = ()
        self.spent = 0

    @property
    def done(self) -> bool:
        """Nothing can beat a seating without repeats, and a spent budget stops everything."""
        return self.spent > self.budget or self.best_cost == 0

    def beaten(self, cost: int) -> bool:
        """Whether a seating costing at least ``cost`` cannot improve on the best found."""
        return self.best_cost >= 0 and cost >= self.best_cost

    def keep(self, byes: tuple[int, ...], tables: tuple[TableSides, ...], cost: int) -> None:
        if not self.beaten(cost):
            self.best, self.best_cost, self.fallback = (byes, tables), cost, None

    def tables(self, remaining: tuple[int, ...], seated: tuple[TableSides, ...], cost: int) -> None:
        """Seat the entrants of ``remaining`` table by table, after ``seated``."""
        if not remaining:
            self.keep(self.byes, seated, cost)
            return
        floor = self.floor.get(remaining, 0)
        if self.beaten(cost + floor):
            return
        # The best placed entrant not yet seated opens the next table (the Swiss way).
        pivot, pool = remaining[0], remaining[1:]
        sides: list[list[int]] = [[pivot]] + [[] for _ in range(self.shape.sides - 1)]
        self.fill(pool, pivot, sides, [0] * self.shape.sides, seated, cost)
        if self.spent <= self.budget:
            # Every seating of ``remaining`` cheaper than the best, less ``cost``, was tried.
            self.floor[remaining] = max(floor, self.best_cost - cost)

    def fill(
        self,
        pool: tuple[int, ...],
        pivot: int,
        sides: list[list[int]],
        floors: list[int],
        seated: tuple[TableSides, ...],
        cost: int,
    ) -> None:
        """Choose the next seat of the table being built in ``sides``.

        Each table is built once: within a side, members come in pool order (``floors`` is
        each side's first allowed pool position), and the sides other than the pivot's start
        in pool order too. Candidates are tried cheapest first, then nearest in the standings
        to the pivot, so the first seating found is the Swiss one where it costs nothing.
        """
        side = next(
            (s for s, members in enumerate(sides) if len(members) < self.shape.per_side), None
        )
        taken = {entrant for members in sides for entrant in members}
        if side is None:
            table = tuple(tuple(members) for members in sides)
            left = tuple(entrant for entrant in pool if entrant not in taken)
            self.tables(left, (*seated, table), cost)
            return
        partners, opponents = self.history.partners, self.history.opponents
        candidates: list[tuple[int, int, int, int]] = []
        free = range(floors[side], len(pool))
        self.spent += len(free)
        for position in free:
            entrant = pool[position]
            if entrant in taken:
                continue
            extra = PARTNER * sum(partners[entrant][other] for other in sides[side]) + sum(
                opponents[entrant][other]
                for index, members in enumerate(sides)
                if index != side
                for other in members
            )
            candidates.append((extra, abs(entrant - pivot), entrant, position))
        candidates.sort()
        for extra, _, entrant, position in candidates:
            if self.beaten(cost + extra):
                break  # sorted by cost: every later candidate costs as much or more
            sides[side].append(entrant)
            saved = floors[:]
            floors[side] = position + 1
            if side > 0 and len(sides[side]) == 1 and side + 1 < len(sides):
                # A side's first member opens the next side's range (sides are unordered).
                floors[side + 1] = position + 1
            self.fill(pool, pivot, sides, floors, seated, cost + extra)
            sides[side].pop()
            floors[:] = saved
            if self.done:
                return

    def run(self, entrants: int, bye_count: int) -> Found:
        for byes in fair_byes(self.history.byes, bye_count):
            playing = tuple(entrant for entrant in range(entrants) if entrant not in byes)
            if self.best_cost < 0:
                # The seating in standings order: a seating at once, should the budget run out.
                tables = in_order(playing, self.shape)
                cost = sum(weight(table_cost(t, self.history)) for t in tables)
                self.best, self.best_cost, self.fallback = (byes, tables), cost + 1, cost
            self.byes = byes
            self.tables(playing, (), 0)
            if self.done:
                break
        byes, tables = self.best
        cost = self.best_cost if self.fallback is None else self.fallback
        return Found(byes, normal(tables), divmod(cost, PARTNER), exact=self.spent <= self.budget)


def normal(tables: Sequence[TableSides]) -> tuple[TableSides, ...]:
    """The same tables in standings order: each side's entrants, the sides of a table by their
    best entrant, the tables by theirs (table 1 is the top's)."""
    ordered = (tuple(sorted((tuple(sorted(side)) for side in table), key=min)) for table in tables)
    return tuple(sorted(ordered, key=lambda table: min(min(side) for side in table)))


def search(shape: Shape, history: History, *, budget: int = BUDGET) -> Found:
    """The cheapest seating of every entrant of ``history`` at tables of ``shape`` (see the
    module's docstring); ``history.entrants`` must be at least one table's worth."""
    entrants = history.entrants
    if entrants < shape.size:
        raise ValueError(f"{entrants} cannot fill a table of {shape.size}")
    return _Search(shape, history, budget).run(entrants, entrants % shape.size)
