"""Hypothesis strategies for the rules: deals a table can have."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper.rules import (
    SideResult,
)

Deal = tuple[SideResult, SideResult]


def fives(low: int, high: int) -> st.SearchStrategy[int]:
    """Multiples of 5 from ``low`` to ``high`` (both multiples of 5)."""
    return st.integers(low // 5, high // 5).map(lambda k: 5 * k)


@st.composite
def side_results(draw: st.DrawFn, *, went_out: bool, red_threes: int) -> SideResult:
    """One side's valid classic entry."""
    natural = draw(st.integers(0, 3))
    mixed = draw(st.integers(0, 3))
    if went_out and natural + mixed == 0:
        # Going out needs a canasta (section 2).
        if draw(st.booleans()):
            natural = 1
        else:
            mixed = 1
    # A natural canasta holds at least 35 card points, a mixed one 50 (section 7).
    least = 35 * natural + 50 * mixed
    return SideResult(
        meld_points=least + draw(fives(0, 400)),
        natural_canastas=natural,
        mixed_canastas=mixed,
        red_threes=red_threes,
        went_out=went_out,
        concealed=went_out and draw(st.booleans()),
        hand_points=draw(fives(0, 300)),
    )


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    """A valid classic deal entry for two sides."""
    out = draw(st.sampled_from([None, 0, 1]))
    all_red_threes = draw(st.integers(0, 4))
    first = draw(st.integers(0, all_red_threes))
    return (
        draw(side_results(went_out=out == 0, red_threes=first)),
        draw(side_results(went_out=out == 1, red_threes=all_red_threes - first)),
    )
