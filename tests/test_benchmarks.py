"""The rules engine's speed, with pytest-benchmark: recomputing a 200-deal game (which every
score sheet, API answer and saved deal does) and checking a meld (the "settle it" tools).

Each benchmark is capped at a fraction of a second so the ordinary ``pytest`` run stays
fast; ``pytest tests/test_benchmarks.py --benchmark-min-rounds=1000`` measures longer. The
results are checked too, so a fast but wrong engine fails here as well.
"""

from __future__ import annotations

import random

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from scorekeeper.rules import (
    CLASSIC,
    CanastaKind,
    MeldVerdict,
    SideResult,
    apply_options,
    check_meld,
    errors_of,
    parse_cards,
    replay,
    score_breakdown,
    seating,
    validate_deal,
)

#: Issue 8 asked for a 200-deal game recomputed in under 5 ms; pytest-benchmark prints the
#: figure (about 1.8 ms in docs/PERFORMANCE.md) but asserts no time: on shared, busy
#: machines a timed assertion fails for reasons that are not the code's (seen: 5.9 ms while
#: two suites ran at once). bench/ compares against a baseline measured in the same run.

#: A game long enough that nobody wins before deal 200.
RULES = apply_options(CLASSIC, {"target": 1_000_000})
QUICK = pytest.mark.benchmark(max_time=0.2)


def deals(count: int, seed: int = 200) -> list[list[SideResult]]:
    """``count`` plausible classic deals: one side goes out with a canasta, at most four red
    threes; the other side is sometimes caught without a meld."""
    rng = random.Random(seed)
    game = []
    for _ in range(count):
        out = rng.randrange(2)
        reds = [0, 0]
        for _ in range(4):
            if rng.random() < 0.4:
                reds[rng.randrange(2)] += 1
        results = []
        for side in range(2):
            natural, mixed = (rng.randrange(2), 1) if side == out else (0, rng.randrange(2))
            melded = side == out or mixed or rng.random() < 0.7
            meld = 35 * natural + 50 * mixed + 5 * rng.randrange(0, 40) if melded else 0
            results.append(
                SideResult(
                    meld_points=meld,
                    natural_canastas=natural,
                    mixed_canastas=mixed,
                    red_threes=reds[side],
                    went_out=side == out,
                    hand_points=5 * rng.randrange(1, 60),
                )
            )
        assert not errors_of(validate_deal(results, RULES)), results
        game.append(results)
    return game


@QUICK
def test_replay_200_deals(benchmark: BenchmarkFixture) -> None:
    game = deals(200)
    seats = seating([2, 2])

    state = benchmark(replay, RULES, game, starts=[0, 0], seats=seats, first_dealer=1)

    # Right, not just fast: every line's totals are the running sums of the deal scores.
    totals = [0, 0]
    for index, (line, results) in enumerate(zip(state.lines, game, strict=True)):
        scores = [score_breakdown(result, RULES).total for result in results]
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
        assert line.number == index + 1
        assert list(line.scores) == scores
        assert list(line.totals) == totals
        assert line.dealer == seats[(1 + index) % 4]
    assert list(state.totals) == totals
    assert state.winner is None
    assert state.next_deal == 201
    assert state.next_dealer == seats[(1 + 200) % 4]


#: Melds a table asks about, legal and not, canastas among them.
MELDS = {
    "9 9 9 2 2 JK": (True, None),
    "K K K K K K K": (True, CanastaKind.NATURAL),
    "Q Q Q Q Q 2 JK": (True, CanastaKind.MIXED),
    "5 5 2": (True, None),
    "5 2 2": (False, None),
    "7 7 2 2 2 JK": (False, None),
    "3h 3h 3h": (False, None),
}


@QUICK
def test_check_meld(benchmark: BenchmarkFixture) -> None:
    melds = {parse_cards(text): expected for text, expected in MELDS.items()}

    def check_all() -> list[MeldVerdict]:
        return [check_meld(cards, CLASSIC) for cards in melds]

    verdicts = benchmark(check_all)

    for verdict, (text, (legal, canasta)) in zip(verdicts, MELDS.items(), strict=True):
        assert verdict.legal is legal, (text, verdict.rule)
        assert verdict.canasta is canasta, text
