"""Partnerships rated as partnerships, and the margin of a VP evening's table (RULES.md
section 12, "Pairs" and "The margin"): ``rules.pair_ratings`` and ``rules.ratings``."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.rules.pair_ratings import pair_counts, rate_pairs
from scorekeeper.rules.ratings import (
    NEWCOMER,
    VP_MARGIN,
    PlayedGame,
    RatedSide,
    Rating,
    rate,
)

SETTINGS = settings(max_examples=60, database=None, deadline=None)
CLUB = [f"p{i}" for i in range(10)]


def game(
    game_id: str, *sides: tuple[Sequence[str | None], int], scores: tuple[int, ...] | None = None
) -> PlayedGame[str]:
    rated = tuple(RatedSide(tuple(people), total) for people, total in sides)
    return PlayedGame(game_id, rated, scores)


def pair(*people: str) -> frozenset[str]:
    return frozenset(people)


def test_a_pair_that_always_wins_rises_above_one_that_always_loses() -> None:
    games = [game(f"g{n}", (["ana", "bo"], 5000), (["cy", "di"], 2000)) for n in range(5)]
    pairs = rate_pairs(games)
    winners, losers = pairs[pair("ana", "bo")], pairs[pair("cy", "di")]
    assert winners.rating.shown > NEWCOMER.shown > losers.rating.shown
    assert len(winners.games) == len(losers.games) == 5
    assert (winners.won, losers.won) == (5, 0)


def test_the_same_two_people_in_either_order_are_one_pair() -> None:
    games = [
        game("g1", (["ana", "bo"], 5000), (["cy", "di"], 2000)),
        game("g2", (["bo", "ana"], 5000), (["di", "cy"], 2000)),
    ]
    pairs = rate_pairs(games)
    assert set(pairs) == {pair("ana", "bo"), pair("cy", "di")}
    assert pairs[pair("ana", "bo")].games == ("g1", "g2")


def test_a_pair_is_rated_apart_from_its_people() -> None:
    # Ana wins with Bo and loses with Cy: the pairs part, while Ana is one person.
    games = [
        game("g1", (["ana", "bo"], 5000), (["eve", "fay"], 2000)),
        game("g2", (["ana", "cy"], 1000), (["eve", "fay"], 3000)),
    ]
    pairs = rate_pairs(games)
    assert pairs[pair("ana", "bo")].rating.shown > pairs[pair("ana", "cy")].rating.shown
    people = rate(games)
    assert len(people.history["ana"]) == 2


def test_which_games_count_for_pairs() -> None:
    assert pair_counts(game("g", (["a", "b"], 1), (["c", "d"], 0)))
    assert pair_counts(game("g", (["a", "b"], 1), (["c", None], 0)))
    assert not pair_counts(game("g", (["a"], 1), (["b"], 0)))  # players alone
    assert not pair_counts(game("g", (["a", "b"], 1), ([None, None], 0)))  # guests only
    # A side with a guest plays as a newcomer pair and is forgotten.
    pairs = rate_pairs([game("g", (["a", "b"], 1), (["c", None], 0))])
    assert set(pairs) == {pair("a", "b")}


def test_one_newcomer_pair_beating_another_is_the_worked_example() -> None:
    # A pair is one entrant: its move is a lone newcomer's (RULES.md's worked example).
    pairs = rate_pairs([game("g", (["a", "b"], 1), (["c", "d"], 0))])
    assert pairs[pair("a", "b")].rating.shown == 1138
    assert pairs[pair("c", "d")].rating.shown == 927


def _favourite_wins(scores: tuple[int, int] | None) -> float:
    """How far a favourite pair (it beat a newcomer pair twice) moves by a third win."""
    past = [game(f"w{n}", (["a", "b"], 5000), (["x", f"y{n}"], 0)) for n in range(2)]
    before = rate_pairs(past)[pair("a", "b")].rating.mu
    last = game("vp", (["a", "b"], 3000), (["c", "d"], 1000), scores=scores)
    return rate_pairs([*past, last])[pair("a", "b")].rating.mu - before


def test_a_big_vp_win_moves_more_than_a_narrow_one() -> None:
    plain, narrow, clear, big = (
        _favourite_wins(None),
        _favourite_wins((11, 9)),
        _favourite_wins((14, 6)),
        _favourite_wins((20, 0)),
    )
    assert math.isclose(narrow, plain)  # one step of the scale: a plain win
    assert plain < clear < big


def test_a_big_vp_win_moves_the_people_more_too() -> None:
    def moved(scores: tuple[int, int]) -> float:
        past = [game(f"w{n}", (["a", "b"], 5000), (["x", f"y{n}"], 0)) for n in range(2)]
        last = game("vp", (["a", "b"], 3000), (["c", "d"], 1000), scores=scores)
        return rate([*past, last]).current("a").mu - rate(past).current("a").mu

    assert moved((20, 0)) > moved((12, 8)) > moved((11, 9)) > 0


def test_a_10_10_table_is_a_draw_whatever_the_totals() -> None:
    # The evening scored it as a draw: between newcomers nobody moves.
    pairs = rate_pairs([game("g", (["a", "b"], 3030), (["c", "d"], 3000), scores=(10, 10))])
    assert pairs[pair("a", "b")].rating.mu == PlackettLuce().rating().mu
    assert pairs[pair("a", "b")].rating == pairs[pair("c", "d")].rating


@st.composite
def tables(draw: st.DrawFn) -> PlayedGame[str]:
    """A finished game of two pairs among the club, by totals or by VP."""
    people = draw(st.permutations(CLUB))[:4]
    totals = draw(st.tuples(st.integers(-400, 2400), st.integers(-400, 2400)))
    first = draw(st.integers(0, 20)) if draw(st.booleans()) else None
    scores = None if first is None else (first, 20 - first)
    sides = ((people[:2], 5 * totals[0]), (people[2:], 5 * totals[1]))
    return game(draw(st.uuids()).hex, *sides, scores=scores)


def _model_pairs(games: list[PlayedGame[str]]) -> dict[frozenset[str], Rating]:
    """The pairs' ratings straight from openskill, side by side with the module's."""
    plain, margin = PlackettLuce(), PlackettLuce(margin=VP_MARGIN)
    now: dict[frozenset[str], object] = {}
    for played in games:
        keys = [frozenset(p for p in side.people if p) for side in played.sides]
        teams = [[now.get(key) or plain.rating()] for key in keys]
        if played.scores is None:
            totals = [side.total for side in played.sides]
            ranks = [1.0 + sum(o > t for o in totals) for t in totals]
            after = plain.rate(teams, ranks=ranks)  # type: ignore[arg-type]
        else:
            after = margin.rate(teams, scores=[float(s) for s in played.scores])  # type: ignore[arg-type]
        for key, team in zip(keys, after, strict=True):
            now[key] = team[0]
    return {key: Rating.of(rating) for key, rating in now.items()}  # type: ignore[arg-type]


@SETTINGS
@given(st.lists(tables(), max_size=20), st.randoms(use_true_random=False))
def test_pairs_are_the_model_s_entrants_in_any_seat_order(
    games: list[PlayedGame[str]], shuffle: random.Random
) -> None:
    expected = _model_pairs(games)
    mixed = [
        PlayedGame(
            g.game_id,
            tuple(RatedSide(tuple(shuffle.sample(s.people, 2)), s.total) for s in g.sides),
            g.scores,
        )
        for g in games
    ]
    got = rate_pairs(mixed)
    assert set(got) == set(expected)
    for key, rated in got.items():
        assert math.isclose(rated.rating.mu, expected[key].mu, abs_tol=1e-9)
        assert math.isclose(rated.rating.sigma, expected[key].sigma, abs_tol=1e-9)
        assert len(rated.games) == sum(key in {frozenset(s.people) for s in g.sides} for g in games)


@SETTINGS
@given(st.lists(tables(), max_size=12), tables())
def test_the_vp_winner_rises_and_the_loser_falls(
    past: list[PlayedGame[str]], last: PlayedGame[str]
) -> None:
    if last.scores is None or last.scores[0] == last.scores[1]:
        return
    before, after = rate_pairs(past), rate_pairs([*past, last])
    winner, loser = (0, 1) if last.scores[0] > last.scores[1] else (1, 0)
    keys = [frozenset(side.people) for side in last.sides]

    def mu(ratings: object, key: frozenset[str]) -> float:
        found = ratings.get(key)  # type: ignore[attr-defined]
        return found.rating.mu if found else NEWCOMER.mu

    assert mu(after, keys[winner]) > mu(before, keys[winner])
    assert mu(after, keys[loser]) < mu(before, keys[loser])
