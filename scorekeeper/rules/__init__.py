"""The rules of Canasta: pure Python, no Flask, database or I/O.

Rule sets are data (``variants``), a deal is scored and checked in ``scoring``, and a
whole game is replayed from its deal entries in ``game``. The web pages, the JSON API and
the database all call this package; nothing else computes a score.
"""

from .cards import Card, CardError, Rank, Suit, card_points, parse_card, parse_cards
from .checks import (
    Answer,
    GoingOutVerdict,
    InitialMeldVerdict,
    MeldVerdict,
    check_going_out,
    check_initial_meld,
    check_meld,
    check_pickup,
)
from .game import DealLine, GameState, Seat, replay, seating, winner_of
from .house import (
    Difference,
    SharedRules,
    decode_option,
    differences,
    encode_option,
    read_share_query,
    share_query,
)
from .scoring import (
    ScoreBreakdown,
    Severity,
    SideResult,
    Violation,
    errors_of,
    score_breakdown,
    score_deal,
    score_side,
    score_table,
    validate_deal,
    warnings_of,
)
from .variants import (
    CLASSIC,
    OPTION_NAMES,
    VARIANTS,
    CanastaKind,
    MeldTier,
    OptionError,
    RuleSet,
    apply_options,
    options_of,
)

__all__ = [
    "CLASSIC",
    "OPTION_NAMES",
    "VARIANTS",
    "Answer",
    "CanastaKind",
    "Card",
    "CardError",
    "DealLine",
    "Difference",
    "GameState",
    "GoingOutVerdict",
    "InitialMeldVerdict",
    "MeldTier",
    "MeldVerdict",
    "OptionError",
    "Rank",
    "RuleSet",
    "ScoreBreakdown",
    "Seat",
    "Severity",
    "SharedRules",
    "SideResult",
    "Suit",
    "Violation",
    "apply_options",
    "card_points",
    "check_going_out",
    "check_initial_meld",
    "check_meld",
    "check_pickup",
    "decode_option",
    "differences",
    "encode_option",
    "errors_of",
    "options_of",
    "parse_card",
    "parse_cards",
    "read_share_query",
    "replay",
    "score_breakdown",
    "score_deal",
    "score_side",
    "score_table",
    "seating",
    "share_query",
    "validate_deal",
    "warnings_of",
    "winner_of",
]
