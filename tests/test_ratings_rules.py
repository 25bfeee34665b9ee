"""Ratings across the club (RULES.md section 12): the rules' ratings over finished games.

The worked cases are computed by hand from Weng and Lin's Plackett-Luce update with the
library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300); the properties play random
club histories of every table shape the rule sets have and check what a rating must do
whatever the figures: a win lifts, a loss lowers, a draw between equals moves nobody, and
neither the order of the sides nor of the players in a side changes anything.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    NEWCOMER,
    PlayedGame,
    RatedSide,
    Rating,
    RatingError,
    Ratings,
    counts,
    places,
    rate,
)

SETTINGS = settings(max_examples=80, database=None, deadline=None)

#: Every table the rule sets seat, as players per side: classic for 4, 2 and 3, the
#: 6-player ones (2 × 3 and 3 × 2), Railroad for 2 to 6 each alone; the family's are 2 × 2.
SHAPES: list[tuple[int, ...]] = [
    (2, 2),
    (1, 1),
    (1, 1, 1),
    (3, 3),
    (2, 2, 2),
    *((1,) * n for n in range(2, 7)),
]
CLUB = [f"p{i}" for i in range(12)]


def game(game_id: str, *sides: tuple[Sequence[str | None], int]) -> PlayedGame[str]:
    return PlayedGame(game_id, tuple(RatedSide(tuple(people), total) for people, total in sides))


def close(a: Rating, b: Rating) -> bool:
    return math.isclose(a.mu, b.mu, abs_tol=1e-9) and math.isclose(a.sigma, b.sigma, abs_tol=1e-9)


# Hand-worked cases ---------------------------------------------------------------------
# Before a game each sigma grows by tau: s2 = (25/3)^2 + (25/300)^2 = 69.45139. With c^2
# the sum over sides of (side's s2 + beta^2), beta^2 = 17.36111, two sides of equal mu each
# win with p = 1/2; the winning side's mu moves by s2_side / c * (1 - p), shared among its
# players in proportion to their own s2, and each s2 shrinks by the factor
# 1 - s2 / c^2 * gamma * p * (1 - p), gamma = sqrt(s2_side) / c.


def test_two_newcomers_one_game() -> None:
    ratings = rate([game("g1", (["Ana"], 1510), (["Boris"], 860))])
    # c^2 = 2 * (69.45139 + 17.36111) = 173.625, c = 13.17669; the winner's mu moves by
    # 69.45139 / 13.17669 / 2 = 2.63539; gamma = 0.63246, s2 shrinks by 1 - 0.4 * 0.63246 / 4.
    winner, loser = ratings.current("Ana"), ratings.current("Boris")
    assert winner.mu == pytest.approx(25 + 2.63539, abs=1e-5)
    assert loser.mu == pytest.approx(25 - 2.63539, abs=1e-5)
    assert winner.sigma == loser.sigma == pytest.approx(math.sqrt(69.45139 * 0.936754), abs=1e-5)
    # Shown: 1000 + 40 * (mu - 3 sigma) = 1000 + 40 * (27.63539 - 24.19770).
    assert (winner.shown, loser.shown) == (1138, 927)
    assert ratings.rated == ("g1",)
    assert [step.won for step in ratings.history["Ana"]] == [True]
    assert [step.place for step in ratings.history["Boris"]] == [2]


def test_partnerships_share_their_side_s_move() -> None:
    ratings = rate([game("g1", (["Ana", "Boris"], 5120), (["Vera", "Goran"], 3480))])
    # A side's s2 = 138.90278; c^2 = 2 * (138.90278 + 17.36111) = 312.52778, c = 17.67845;
    # the side's mu moves by 138.90278 / 17.67845 / 2 = 3.92859, each partner half of it.
    for person in ("Ana", "Boris"):
        assert ratings.current(person).mu == pytest.approx(25 + 1.96430, abs=1e-5)
    for person in ("Vera", "Goran"):
        assert ratings.current(person).mu == pytest.approx(25 - 1.96430, abs=1e-5)


def test_a_draw_between_newcomers_moves_no_mu() -> None:
    ratings = rate([game("g1", (["Ana"], 3000), (["Boris"], 3000))])
    for person in ("Ana", "Boris"):
        step = ratings.history[person][-1]
        assert step.rating.mu == pytest.approx(25)
        assert step.rating.sigma < NEWCOMER.sigma
        assert (step.place, step.won) == (1, False)


def test_places_follow_the_totals() -> None:
    assert places([5120, 3480]) == (1, 2)
    assert places([3000, 3000]) == (1, 1)
    # Equal totals share a place and the next one is skipped.
    assert places([2000, 5100, 5100]) == (3, 1, 1)
    assert places([-200, 400, 5005]) == (3, 2, 1)


def test_three_sides_winner_up_last_down() -> None:
    ratings = rate([game("g1", (["Ana"], 5010), (["Boris"], 2300), (["Vera"], -150))])
    assert ratings.current("Ana").mu > 25 > ratings.current("Vera").mu
    assert [step.place for step in ratings.history["Vera"]] == [3]


def test_which_games_count() -> None:
    nobody = game("g1", (["Ana"], 5010), ([None], 2300))
    guest = game("g2", (["Ana", None], 5010), (["Boris", "Vera"], 2300))
    assert not counts(nobody)
    assert counts(guest)
    ratings = rate([nobody, guest])
    assert ratings.rated == ("g2",)
    # The guest played as a newcomer: Ana's side moved as a side of two newcomers would.
    assert None not in ratings.history
    alone = rate([game("g", (["Ana", "X"], 5010), (["Boris", "Vera"], 2300))])
    assert close(ratings.current("Ana"), alone.current("Ana"))
    assert close(ratings.current("Vera"), alone.current("Vera"))


def test_nobody_unrated_has_history() -> None:
    ratings: Ratings[str] = rate([])
    assert ratings.current("Ana") == NEWCOMER
    assert NEWCOMER.shown == 1000


def test_a_person_seated_twice_is_refused() -> None:
    with pytest.raises(RatingError, match="g1"):
        rate([game("g1", (["Ana", "Boris"], 5010), (["Ana", "Vera"], 2300))])


# Properties ------------------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn, shape: tuple[int, ...] | None = None) -> PlayedGame[str]:
    """A finished game of some rule set's shape, among the club, with any totals."""
    shape = shape or draw(st.sampled_from(SHAPES))
    people = draw(st.permutations(CLUB))[: sum(shape)]
    sides = []
    for size in shape:
        sides.append((people[:size], draw(st.integers(-2000, 12000).map(lambda t: 5 * t))))
        people = people[size:]
    return game(draw(st.uuids()).hex, *sides)


#: A club's past: up to 30 games, so that ratings differ before the game checked.
pasts = st.lists(tables(), max_size=30)


@SETTINGS
@given(pasts, st.sampled_from(SHAPES).flatmap(lambda shape: tables(shape)))
def test_first_rises_last_falls(past: list[PlayedGame[str]], last: PlayedGame[str]) -> None:
    before = rate(past)
    after = rate([*past, last])
    ranks = places([side.total for side in last.sides])
    for side, place in zip(last.sides, ranks, strict=True):
        for person in side.people:
            assert person is not None
            change = after.current(person).mu - before.current(person).mu
            if place == 1 and ranks.count(1) == 1:
                assert change > 0
            if place == max(ranks) and ranks.count(place) == 1:
                assert change < 0
            assert after.history[person][-1].place == place


@SETTINGS
@given(pasts, tables(), st.randoms(use_true_random=False))
def test_order_of_sides_and_seats_does_not_matter(
    past: list[PlayedGame[str]], last: PlayedGame[str], shuffle: random.Random
) -> None:
    sides = [
        RatedSide(tuple(shuffle.sample(side.people, len(side.people))), side.total)
        for side in last.sides
    ]
    shuffle.shuffle(sides)
    mixed = PlayedGame(last.game_id, tuple(sides))
    one, other = rate([*past, last]), rate([*past, mixed])
    for side in last.sides:
        for person in side.people:
            assert person is not None
            assert math.isclose(one.current(person).mu, other.current(person).mu, abs_tol=1e-9)
            assert math.isclose(
                one.current(person).sigma, other.current(person).sigma, abs_tol=1e-9
            )


@SETTINGS
@given(st.sampled_from([s for s in SHAPES if len(set(s)) == 1]), st.integers(0, 3))
def test_a_draw_between_equals_moves_no_mu(shape: tuple[int, ...], games_before: int) -> None:
    # Equals: every side's players have played the same games against each other's twins.
    size, count = shape[0], len(shape)
    seats = [[f"s{side}p{seat}" for seat in range(size)] for side in range(count)]
    # Each side beat a side of strangers ``games_before`` times: the same history for all.
    past = [
        game(f"w{side}-{n}", (seats[side], 5000), ([f"x{side}{n}{k}" for k in range(size)], 0))
        for n in range(games_before)
        for side in range(count)
    ]
    before = rate(past)
    after = rate([*past, game("draw", *((people, 4000) for people in seats))])
    for people in seats:
        for person in people:
            assert after.current(person).mu == pytest.approx(before.current(person).mu, abs=1e-9)


@SETTINGS
@given(pasts)
def test_history_is_each_person_s_rated_games(past: list[PlayedGame[str]]) -> None:
    ratings = rate(past)
    assert ratings.rated == tuple(g.game_id for g in past)
    for person, steps in ratings.history.items():
        sat = [g.game_id for g in past if any(person in side.people for side in g.sides)]
        assert [step.game_id for step in steps] == sat
        assert ratings.current(person) == steps[-1].rating
        assert all(step.rating.sigma > 0 for step in steps)
