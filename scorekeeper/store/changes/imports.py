"""Import: a whole game at once, from an export document."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime

from sqlalchemy import insert

from ...rules import SideResult, errors_of, validate_deal
from ...rules.game import Ending, ending, next_line
from ...rules.limits import MAX_ID
from ...rules.stats import Outcome, SideRecord, ended, record_with
from ...rules.text import T, Text
from ..db import db
from ..errors import Refused, Why
from ..games import rules_for, seats_of
from ..log import CREATED, RECORDED, entries_json, read_log, snapshot
from ..models import Deal, DealResult, Game
from .checks import GAME_OVER
from .commit import LogEntry, as_committed, commit
from .deals import result_rows
from .new_game import SideSpec, check_created_before, creating, new_game
from .request_keys import keyed


@dataclass(frozen=True)
class Claimed:
    """What an export document says the game came to: an import must come to the same."""

    totals: list[int] | None = None
    #: Whether the document names a winner (null included) to check.
    names_winner: bool = False
    winner: int | None = None
    created_at: datetime | None = None


def import_game(
    variant: str,
    sides: Sequence[SideSpec],
    options: Mapping[str, object],
    first_dealer: int,
    deals: Sequence[Sequence[SideResult]],
    claimed: Claimed = Claimed(),
    *,
    seqs: Sequence[int] | None = None,
    changes: object = None,
    device: str = "",
    last_deal: int | None = None,
    request_key: str | None = None,
) -> tuple[str, str]:
    """Create a game and play its deals through the same checks as the deal page, in one
    transaction and in one pass: a document with any refused deal, or whose totals or
    winner differ from what its deals give, creates nothing. The game keeps its date, its
    deals their places (``seqs``) and its change log (``changes``, as exports write it;
    without one, the log starts from the deals as they stand). Returns the new game's id
    and its edit secret. ``last_deal`` ends the game after that deal (a club round's).
    A ``request_key`` that imported a game before imports none, as ``create_game``."""
    key = keyed(
        request_key,
        "import-game",
        variant,
        [asdict(spec) for spec in sides],
        dict(options),
        first_dealer,
        [[entries_json(result) for result in results] for results in deals],
        asdict(claimed) | {"created_at": str(claimed.created_at)},
        None if seqs is None else list(seqs),
        changes,
        last_deal,
    )
    places = list(seqs) if seqs is not None else list(range(1, len(deals) + 1))
    if len(places) != len(deals) or any(
        not a < b <= MAX_ID for a, b in zip([0, *places], places, strict=False)
    ):
        raise Refused(
            Why.INVALID,
            T("The deals' places (seq) are whole numbers from 1, each larger than the last."),
            {"deals": T("Places from 1, in order.")},
        )

    def make() -> tuple[str, str]:
        check_created_before(key)
        game, secret = new_game(variant, sides, options, first_dealer, claimed.created_at)
        game.last_deal = last_deal
        records, finished = _import_deals(game, deals, claimed, places)
        entries = []
        read = []
        if changes is None:
            entries = [
                LogEntry(CREATED),
                *(
                    LogEntry(RECORDED, deal=(seq, number), after=snapshot(1, results))
                    for number, (seq, results) in enumerate(zip(places, deals, strict=True), 1)
                ),
            ]
        else:
            carried = list(zip(places, deals, strict=True))
            read = read_log(changes, len(sides), carried, last_deal=last_deal)
        kept = list(zip(game.sides, records, strict=True))
        commit(
            game.id,
            entries,
            carried=read,
            records=[(side.id, record) for side, record in kept],
            finished=finished,
            was_finished=False,
            people=sorted(
                {p.person_id for s in game.sides for p in s.players if p.person_id is not None}
            ),
            device=device,
            key=key,
            at=game.created_at,
        )
        as_committed(game, kept, finished, game.created_at)
        return game.id, secret

    return creating(make)


def _import_deals(
    game: Game, deals: Sequence[Sequence[SideResult]], claimed: Claimed, seqs: Sequence[int]
) -> tuple[list[SideRecord], bool]:
    """The deals played and written; each side's record after them, and whether a side won."""
    rules = rules_for(game)
    seats = seats_of(game)
    totals = tuple(side.start for side in game.sides)
    records = [SideRecord(Outcome.OPEN, start) for start in totals]
    end: Ending | None = ending(rules, totals, 0, game.last_deal)
    for index, results in enumerate(deals):
        number = index + 1
        if end is not None:
            raise _deal_refused(number, GAME_OVER, {})
        minimums = tuple(rules.meld_minimum(total, number) for total in totals)
        violations = validate_deal(results, rules, minimums=minimums)
        if errors_of(violations):
            refused = Refused.breaking(violations, prefix=f"deals.{index}.")
            raise _deal_refused(number, refused.text, refused.fields, refused.warnings)
        dealer = seats[(game.first_dealer + index) % len(seats)]
        line = next_line(rules, totals, results, number, dealer)
        records = [record_with(r, line, side, results[side]) for side, r in enumerate(records)]
        totals = line.totals
        end = ending(rules, totals, number, game.last_deal, results)
    winner = None if end is None else end.winner
    _check_claims(totals, winner, claimed)
    now = game.created_at
    if deals:
        ids = db.session.scalars(
            insert(Deal).returning(Deal.id, sort_by_parameter_order=True),
            [{"game_id": game.id, "seq": seq, "created_at": now} for seq in seqs],
        ).all()
        db.session.execute(
            insert(DealResult),
            [
                row
                for deal_id, results in zip(ids, deals, strict=True)
                for row in result_rows(deal_id, results)
            ],
        )
    final = None if end is None else totals
    kept = [ended(record, index, winner, final) for index, record in enumerate(records)]
    return kept, end is not None


def _deal_refused(
    number: int,
    reason: Text,
    fields: Mapping[str, Text],
    warnings: Mapping[str, Text] | None = None,
) -> Refused:
    return Refused(
        Why.INVALID,
        T("Deal %(number)s: %(reason)s", number=number, reason=reason),
        fields,
        warnings=warnings,
    )


def _check_claims(totals: tuple[int, ...], winner: int | None, claimed: Claimed) -> None:
    if claimed.totals is not None and list(totals) != list(claimed.totals):
        raise Refused(
            Why.INVALID,
            T(
                "The document says the totals are %(claimed)s, but its deals add up to %(totals)s.",
                claimed=", ".join(str(t) for t in claimed.totals),
                totals=", ".join(str(t) for t in totals),
            ),
            {"totals": T("The deals add up to %(totals)s.", totals=list(totals))},
        )
    if claimed.names_winner and winner != claimed.winner:
        raise Refused(
            Why.INVALID,
            T("The document names another winner than its deals give."),
            {"winner": T("The deals give %(winner)s.", winner=str(winner))},
        )
