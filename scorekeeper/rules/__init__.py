"""The rules of Canasta: pure Python, no Flask, database or I/O.

Rule sets are data (``variants``, house rules read in ``options``); a deal is scored in
``scoring`` and checked in ``validation``; a whole game is replayed from its deal entries in
``game``; the rule tools' answers are in ``melds`` and ``checks``; a club evening's standings
and seating are in ``evening`` (its movements in ``movements``), and the club's ratings over
finished games in ``ratings``.
The web pages, the JSON API and the database all call this package; nothing else computes a
score.
"""

from .cards import Card, CardError, Rank, Suit, card_points, parse_card, parse_cards
from .checks import Answer, GoingOutVerdict, check_going_out, check_pickup
from .evening import (
    Entrant,
    EveningError,
    Format,
    RoundResult,
    RoundSeating,
    SideTotal,
    Standing,
    TableResult,
    TableSeating,
    seat_round,
    standings,
    table_differences,
    table_match_points,
)
from .game import DealLine, GameState, Seat, plays_first, replay, seating, winner_of
from .house import (
    Difference,
    SharedRules,
    decode_option,
    differences,
    encode_option,
    read_share_query,
    share_query,
)
from .kinds import CANASTA_NAMES, CanastaKind, CanastaName, MeldTier
from .melds import (
    InitialMeldVerdict,
    check_initial_meld,
    check_meld,
    starts_sequence,
)
from .movements import Movement, mitchell, round_robin, rounds_needed, seat_movement
from .options import OPTION_NAMES, apply_options, options_of
from .ratings import (
    NEWCOMER,
    PlayedGame,
    RatedSide,
    Rating,
    RatingError,
    Ratings,
    RatingStep,
    counts,
    places,
    rate,
)
from .ruleset import OptionError, RuleSet
from .scoring import (
    ScoreBreakdown,
    SideResult,
    figure_name,
    figures_of,
    score_breakdown,
    score_deal,
    score_side,
    score_table,
)
from .validation import Severity, Violation, errors_of, validate_deal, warnings_of
from .variants import CLASSIC, VARIANTS
from .verdicts import MeldVerdict

__all__ = [
    "CANASTA_NAMES",
    "CLASSIC",
    "NEWCOMER",
    "OPTION_NAMES",
    "VARIANTS",
    "Answer",
    "CanastaKind",
    "CanastaName",
    "Card",
    "CardError",
    "DealLine",
    "Difference",
    "Entrant",
    "EveningError",
    "Format",
    "GameState",
    "GoingOutVerdict",
    "InitialMeldVerdict",
    "MeldTier",
    "MeldVerdict",
    "Movement",
    "OptionError",
    "PlayedGame",
    "Rank",
    "RatedSide",
    "Rating",
    "RatingError",
    "RatingStep",
    "Ratings",
    "RoundResult",
    "RoundSeating",
    "RuleSet",
    "ScoreBreakdown",
    "Seat",
    "Severity",
    "SharedRules",
    "SideResult",
    "SideTotal",
    "Standing",
    "Suit",
    "TableResult",
    "TableSeating",
    "Violation",
    "apply_options",
    "card_points",
    "check_going_out",
    "check_initial_meld",
    "check_meld",
    "check_pickup",
    "counts",
    "decode_option",
    "differences",
    "encode_option",
    "errors_of",
    "figure_name",
    "figures_of",
    "mitchell",
    "options_of",
    "parse_card",
    "parse_cards",
    "places",
    "plays_first",
    "rate",
    "read_share_query",
    "replay",
    "round_robin",
    "rounds_needed",
    "score_breakdown",
    "score_deal",
    "score_side",
    "score_table",
    "seat_movement",
    "seat_round",
    "seating",
    "share_query",
    "standings",
    "starts_sequence",
    "table_differences",
    "table_match_points",
    "validate_deal",
    "warnings_of",
    "winner_of",
]
