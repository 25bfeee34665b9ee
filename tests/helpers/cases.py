"""The worked cases of RULES.md section 8 as the rules engine takes them (one side's deal),
with the scores worked out by hand there."""

from __future__ import annotations

from scorekeeper.rules import SideResult

# 500 + 300 (canastas) + 100 (red three) + 100 (out) + 220 - 10 = 1210
CASE_A = SideResult(
    meld_points=220,
    natural_canastas=1,
    mixed_canastas=1,
    red_threes=1,
    went_out=True,
    hand_points=10,
)
# 200 (red threes) + 150 - 85 = 265
CASE_B = SideResult(meld_points=150, red_threes=2, hand_points=85)
# -200 (red threes, nothing melded) - 120 = -320
CASE_C = SideResult(meld_points=0, red_threes=2, hand_points=120)
# 2 x 500 + 800 (all four red threes) + 200 (out concealed) + 310 - 15 = 2295
CASE_D = SideResult(
    meld_points=310,
    natural_canastas=2,
    red_threes=4,
    went_out=True,
    concealed=True,
    hand_points=15,
)
# 300 + 95 - 40 = 355
CASE_E = SideResult(meld_points=95, mixed_canastas=1, hand_points=40)
