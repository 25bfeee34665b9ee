"""A player's guide to a club evening: where they sit in the round being played (then in
the next, once seated), their results so far and their place in the standings.

Each player's guide has an address of its own. Its id is derived from the evening's
secret's hash and the player's place among the entrants (as ``table_secret`` derives a
table's scorer secret): stored nowhere, it outlives a backup and restore, nobody without the
evening's rows can make one, and a swap of seats leaves it as it was. It only reads: the
guide offers nothing that records or changes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

from ..rules import Entrant, Standing, seating, table_match_points
from ..rules.evening import BYE
from .evenings import EveningView, RoundView

#: A guide's id as its address has it.
GUIDE_ID = re.compile(r"[A-Za-z0-9_-]{16}")


def guide_id(evening: EveningView, entrant: int, position: int) -> str:
    """The id of the guide of the ``position``-th player of the ``entrant``-th entrant."""
    message = f"guide:{evening.id}:{entrant}:{position}".encode()
    digest = hmac.new(evening.token_hash.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode()


def guide_ids(evening: EveningView) -> dict[str, str]:
    """Every player's guide id, by name, in the entrants' order."""
    return {
        name: guide_id(evening, entrant, position)
        for entrant, names in enumerate(evening.entrants)
        for position, name in enumerate(names)
    }


@dataclass(frozen=True)
class GuideRound:
    """Where the player sat in one round, and how it went."""

    round: int
    #: The table's number and game; None both when the player sat out (a bye).
    table: int | None
    game_id: str | None = None
    #: Seat 1 to n, as the table card draws them (seat 1 at the bottom, going left).
    seat: int | None = None
    partners: tuple[str, ...] = ()
    #: Each other side's players.
    opponents: tuple[tuple[str, ...], ...] = ()
    finished: bool = False
    deals: int = 0
    last_deal: int | None = None
    #: The player's side's total, and each other side's.
    total: int = 0
    against: tuple[int, ...] = ()
    #: Of a finished table (2 won, 1 drawn, 0 lost) or a bye (2); None while playing.
    match_points: int | None = None

    @property
    def outcome(self) -> str:
        """``bye``, ``playing``, ``won``, ``drawn`` or ``lost``."""
        if self.table is None:
            return "bye"
        if self.match_points is None:
            return "playing"
        return {2: "won", 1: "drawn"}.get(self.match_points, "lost")


@dataclass(frozen=True)
class Guide:
    """One player's evening."""

    evening: EveningView
    name: str
    entrant: Entrant
    #: Every round seated so far, the latest last.
    rounds: tuple[GuideRound, ...]
    #: The player's line in the standings, and its place (1 first); None before any.
    standing: Standing | None
    place: int | None

    @property
    def latest(self) -> GuideRound | None:
        """The round seated last: the one being played, or the one just finished while the
        next is not seated yet."""
        return self.rounds[-1] if self.rounds else None

    @property
    def results(self) -> tuple[GuideRound, ...]:
        """The rounds whose table has finished, or that the player sat out."""
        return tuple(r for r in self.rounds if r.outcome != "playing")


def _round_of(round_: RoundView, name: str) -> GuideRound:
    for table in round_.tables:
        sides = [side.players for side in table.sides]
        ours = next((i for i, players in enumerate(sides) if name in players), None)
        if ours is None:
            continue
        seats = seating([len(players) for players in sides])
        seat = next(i for i, s in enumerate(seats) if sides[s.side][s.player] == name)
        totals = [side.total for side in table.sides]
        return GuideRound(
            round=round_.number,
            table=table.number,
            game_id=table.game_id,
            seat=seat + 1,
            partners=tuple(n for n in sides[ours] if n != name),
            opponents=tuple(players for i, players in enumerate(sides) if i != ours),
            finished=table.finished,
            deals=table.deals,
            last_deal=table.last_deal,
            total=totals[ours],
            against=tuple(total for i, total in enumerate(totals) if i != ours),
            match_points=table_match_points(totals)[ours] if table.finished else None,
        )
    return GuideRound(round=round_.number, table=None, match_points=BYE)


def guide_of(evening: EveningView, entrant: int, position: int) -> Guide:
    """The guide of the ``position``-th player of the ``entrant``-th entrant."""
    players = evening.entrants[entrant]
    name = players[position]
    place, standing = next(
        ((i + 1, line) for i, line in enumerate(evening.standings) if name in line.players),
        (None, None),
    )
    return Guide(
        evening=evening,
        name=name,
        entrant=players,
        rounds=tuple(_round_of(round_, name) for round_ in evening.played),
        standing=standing,
        place=place,
    )


def guide(found: EveningView, guide: str) -> Guide | None:
    """The guide of id ``guide`` at the evening ``found``, or None (no player of it has
    that guide)."""
    if not GUIDE_ID.fullmatch(guide):
        return None
    for entrant, names in enumerate(found.entrants):
        for position in range(len(names)):
            if hmac.compare_digest(guide_id(found, entrant, position), guide):
                return guide_of(found, entrant, position)
    return None
