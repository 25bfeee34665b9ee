"""rules.stats: a game condensed per side, and many games added up."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import CLASSIC, VARIANTS, CanastaKind, SideResult, apply_options, replay
from scorekeeper.rules.stats import (
    Meeting,
    Outcome,
    SideRecord,
    head_to_head,
    longest_streak,
    side_records,
    summarise,
)

from .helpers.strategies import deals

CASE_A = SideResult(220, natural_canastas=1, mixed_canastas=1, red_threes=1, went_out=True,
                    hand_points=10)  # fmt: skip
CASE_B = SideResult(150, red_threes=2, hand_points=85)
CONCEALED = SideResult(300, natural_canastas=1, mixed_canastas=1, went_out=True, concealed=True)

W, L, OPEN = Outcome.WON, Outcome.LOST, Outcome.OPEN


def test_records_of_a_won_game() -> None:
    rules = apply_options(CLASSIC, {"target": 3000})
    played = [[CASE_A, CASE_B], [CASE_B, CONCEALED], [CASE_A, CASE_B]]
    state = replay(rules, played)
    us, them = side_records(state, played)
    # Us: 1210 + 265 + 1210; them: 265 + (300 + 500 + 300 + 100 + 100 concealed) + 265.
    assert state.totals == (2685, 1830)
    assert not state.finished
    assert us == SideRecord(
        outcome=OPEN,
        total=2685,
        deals=3,
        deal_points=2685,
        natural_canastas=2,
        mixed_canastas=2,
        red_threes=4,
        went_out=2,
        went_out_concealed=0,
        # Deal 1 from 0 (50), deal 2 from 1210 (50), deal 3 from 1475 (50).
        tiers={50: 3},
    )
    assert them.went_out == 1 and them.went_out_concealed == 1
    assert them.tiers == {50: 2, 90: 1}  # deal 3 began at 1565
    final = replay(rules, [*played, [CASE_A, CASE_B]])
    us, them = side_records(final, [*played, [CASE_A, CASE_B]])
    assert (us.outcome, them.outcome) == (W, L)
    # Deal 4 began at 2685 (needs 90) for us, 1830 (needs 90) for them.
    assert us.tiers == {50: 3, 90: 1} and them.tiers == {50: 2, 90: 2}


def test_starting_totals_count_in_the_total_not_in_the_deal_points() -> None:
    state = replay(CLASSIC, [[CASE_A, CASE_B]], starts=(3000, -200))
    us, them = side_records(state, [[CASE_A, CASE_B]])
    assert (us.total, us.deal_points) == (4210, 1210)
    assert (them.total, them.deal_points) == (65, 265)
    assert us.tiers == {120: 1} and them.tiers == {15: 1}


def test_longest_streak_ignores_unfinished_games() -> None:
    assert longest_streak([]) == 0
    assert longest_streak([L, L]) == 0
    assert longest_streak([W, W, L, W, OPEN, W, W, W, L, W]) == 4


def test_summary_rates_and_variants() -> None:
    record = SideRecord(W, 5100, deals=4, deal_points=5100, natural_canastas=2, went_out=1,
                        tiers={50: 1, 90: 3})  # fmt: skip
    lost = SideRecord(L, 900, deals=2, deal_points=900, red_threes=3, tiers={50: 2})
    summary = summarise([("classic", record), ("railroad", lost), ("classic", lost)])
    assert (summary.games.played, summary.games.won, summary.games.rate) == (3, 1, 1 / 3)
    assert summary.by_variant["classic"].rate == 0.5
    assert summary.by_variant["railroad"].rate == 0.0
    assert summary.deals == 8
    assert summary.average_deal_score == (5100 + 900 + 900) / 8
    assert summary.per_deal(summary.red_threes) == 6 / 8
    assert summary.tiers == {50: 5, 90: 3}
    assert summary.longest_streak == 1
    empty = summarise([])
    assert empty.games.rate is None and empty.average_deal_score is None


def test_head_to_head_counts_each_opponent() -> None:
    rivals = head_to_head(
        [
            Meeting("Vera", won=True, lost=False),
            Meeting("Goran", won=True, lost=False),
            Meeting("Vera", won=False, lost=True),
            Meeting("Mila", won=False, lost=False),  # a third side won
            Meeting("Vera", won=False, lost=True),
        ]
    )
    assert [(r.opponent, r.games, r.won, r.lost) for r in rivals] == [
        ("Vera", 3, 1, 2),
        ("Goran", 1, 1, 0),
        ("Mila", 1, 0, 0),
    ]


outcomes = st.sampled_from([W, L, OPEN])


@given(st.lists(outcomes))
def test_a_streak_is_never_longer_than_the_wins(games: list[Outcome]) -> None:
    streak = longest_streak(games)
    assert 0 <= streak <= games.count(W)
    assert (streak > 0) == (W in games)
    # A longer run after a loss is the new longest streak.
    assert longest_streak([*games, L, *[W] * (streak + 1)]) == streak + 1


@given(st.lists(deals(), max_size=8))
def test_records_add_up_to_the_replayed_game(played: list[list[SideResult]]) -> None:
    state = replay(CLASSIC, played)
    records = side_records(state, played)
    for side, record in enumerate(records):
        assert record.total == state.totals[side]
        assert record.deals == len(played)
        assert sum(record.tiers.values()) == len(played)
        assert record.went_out == sum(deal[side].went_out for deal in played)
        assert record.went_out_concealed <= record.went_out
    summary = summarise([("classic", record) for record in records])
    assert summary.deal_points == sum(sum(line.scores) for line in state.lines)
    assert summary.games.won == (1 if state.finished else 0)


@given(
    st.sampled_from(["railroad", "samba", "bolivia", "cuban", "uruguay"]),
    st.lists(st.lists(st.integers(0, 2), min_size=7, max_size=7), min_size=1, max_size=5),
)
def test_every_kind_of_canasta_is_counted_in_the_records(
    variant: str, counts: list[list[int]]
) -> None:
    """A player's page counts each kind a side melded, deal by deal and over games: the
    sevens of Railroad and the sambas, escaleras, bolivias and Cuban wild canastas of the
    family (issue 30)."""
    rules = VARIANTS[variant]
    kinds = [kind for kind in CanastaKind if kind in rules.canasta_kinds]
    played = [
        [
            SideResult(meld_points=1000, **{k.field: n for k, n in zip(kinds, row, strict=False)}),
            SideResult(hand_points=50),
        ]
        for row in counts
    ]
    records = side_records(replay(rules, played), played)
    summary = summarise([(variant, records[0]), (variant, records[0])])
    for index, kind in enumerate(kinds):
        made = sum(row[index] for row in counts)
        assert getattr(records[0], kind.field) == made
        assert getattr(records[1], kind.field) == 0
        assert getattr(summary, kind.field) == 2 * made


def test_a_kind_of_canasta_is_named_by_the_rule_sets_it_was_made_in() -> None:
    """Bolivia calls its wild canasta a "bolivia"; Cuban Canasta and Uruguay call theirs
    wild canastas, and a player who never played Bolivia made no bolivia (issue 40)."""
    wild = SideRecord(W, 3000, deals=1, deal_points=3000, wild_canastas=1)
    uruguay = summarise([("uruguay", wild), ("cuban", wild)])
    assert uruguay.canasta_words(CanastaKind.WILD) == ("wild",)
    assert uruguay.canasta_words(CanastaKind.SEQUENCE) == ()
    both = summarise([("uruguay", wild), ("bolivia", wild), ("classic", SideRecord(L, 0))])
    assert both.canasta_words(CanastaKind.WILD) == ("bolivia", "wild")


def test_played_is_played_to_the_end_and_a_game_with_no_deal_is_nothing() -> None:
    """Played: won, lost or drawn, the games a rate is over; still going apart; a game with
    no deal (made and never dealt, or a club table closed before its first) not at all, not
    even as a draw that breaks a streak (issue 40)."""
    won = SideRecord(W, 5100, deals=4, deal_points=5100)
    going = SideRecord(OPEN, 900, deals=2, deal_points=900)
    never_dealt = SideRecord(OPEN, 0)
    nobody_played = SideRecord(Outcome.DRAWN, 0)
    summary = summarise(
        [("classic", won), ("classic", never_dealt), ("cuban", nobody_played), ("classic", won),
         ("uruguay", going)]
    )  # fmt: skip
    assert (summary.games.played, summary.games.won, summary.games.going) == (2, 2, 1)
    assert summary.games.rate == 1.0
    assert summary.longest_streak == 2
    assert set(summary.by_variant) == {"classic", "uruguay"}
    assert summary.by_variant["uruguay"].played == 0 and summary.by_variant["uruguay"].rate is None
    assert summary.deals == 10
