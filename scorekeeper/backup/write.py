"""``flask backup FILE``: the whole database as one file (JSON, gzipped when the name ends
in ``.gz``), in the shape ``backup.document`` states. It keeps everything a game's pages and
links depend on: game ids (the addresses), the hashed edit secrets (scorer links keep
working), the roster with its ids, every deal as entered, its version and time, each game's
change log and the club evenings."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import select

from ..store.db import db
from ..store.games import sheet_of
from ..store.history import every_game
from ..store.log import entries_json, log_json
from ..store.models import Evening, Game, Person, Season
from .document import BACKUP_FORMAT, Counts


def _writer(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "wt", encoding="utf-8")
    return path.open("w", encoding="utf-8")


def _stamp(moment: datetime) -> str:
    return moment.isoformat()


def _game(game: Game) -> dict[str, Any]:
    sheet = sheet_of(game)
    return {
        "id": game.id,
        "token_hash": game.token_hash,
        "variant": game.variant,
        "options": dict(game.options or {}),
        "first_dealer": game.first_dealer,
        "created_at": _stamp(game.created_at),
        "updated_at": _stamp(game.updated_at),
        # What is kept of its pages is keyed by it: a restored game must not go back to a
        # version whose pages showed something else.
        "version": game.version,
        "last_deal": game.last_deal,
        "confirm_hash": game.confirm_hash,
        "sides": [
            {
                "name": side.name,
                "start": side.start,
                "players": [
                    {"name": p.name, "person": p.person_id, "card": p.card} for p in side.players
                ],
            }
            for side in game.sides
        ],
        "deals": [
            {
                "seq": deal.seq,
                "version": deal.version,
                "created_at": _stamp(deal.created_at),
                "confirmed_at": None if deal.confirmed_at is None else _stamp(deal.confirmed_at),
                "results": [entries_json(r) for r in deal.results],
            }
            for deal in game.deals
        ],
        "totals": list(sheet.state.totals),
        "winner": sheet.state.winner,
        "deleted_at": None if game.deleted_at is None else _stamp(game.deleted_at),
        "changes": [
            {**log_json(c), "request_key": c.request_key, "request_hash": c.request_hash}
            for c in game.changes
        ],
    }


def backup(path: Path) -> Counts:
    """Write every game and the roster to ``path``."""
    people = db.session.scalars(select(Person).order_by(Person.id)).all()
    games = deals = 0
    with _writer(path) as out:
        roster = [{"id": p.id, "name": p.name, "created_at": _stamp(p.created_at)} for p in people]
        stamp = json.dumps(_stamp(datetime.now(UTC)))
        out.write(
            f'{{"format": {json.dumps(BACKUP_FORMAT)}, "created_at": {stamp},\n'
            f'"people": {json.dumps(roster)},\n"games": ['
        )
        count = len(people)
        for game in every_game(deleted=True):
            out.write(("," if games else "") + "\n" + json.dumps(_game(game)))
            games += 1
            deals += len(game.deals)
        out.write('\n],\n"seasons": [')
        seasons = db.session.scalars(select(Season).order_by(Season.created_at, Season.id))
        for index, season in enumerate(seasons):
            out.write(("," if index else "") + "\n" + json.dumps(_season(season)))
        out.write('\n],\n"evenings": [')
        evenings = db.session.scalars(select(Evening).order_by(Evening.created_at, Evening.id))
        for index, evening in enumerate(evenings):
            out.write(("," if index else "") + "\n" + json.dumps(_evening(evening)))
        out.write("\n]}\n")
    return Counts(games, deals, count)


def _season(season: Season) -> dict[str, Any]:
    """A club's season as a backup keeps it (its evenings name it)."""
    return {
        "id": season.id,
        "token_hash": season.token_hash,
        "name": season.name,
        "points": list(season.points),
        "created_at": _stamp(season.created_at),
        "version": season.version,
    }


def _evening(evening: Evening) -> dict[str, Any]:
    """A club evening as a backup keeps it: who played with whom, and each round's games."""
    return {
        "id": evening.id,
        "token_hash": evening.token_hash,
        "name": evening.name,
        "variant": evening.variant,
        "options": dict(evening.options or {}),
        "format": evening.format,
        "movement": evening.movement,
        "rounds": evening.rounds,
        "deals_per_round": evening.deals_per_round,
        "minutes_per_round": evening.minutes_per_round,
        "scoring": evening.scoring,
        "bye_vp": evening.bye_vp,
        "confirmations": evening.confirmations,
        "season": evening.season_id,
        "created_at": _stamp(evening.created_at),
        "version": evening.version,
        "players": [
            {"entrant": p.entrant, "position": p.position, "person": p.person_id}
            for p in evening.players
        ],
        "played": [
            {
                "number": r.number,
                "started_at": _stamp(r.started_at),
                "closed_at": None if r.closed_at is None else _stamp(r.closed_at),
                "byes": list(r.byes),
                "tables": [{"number": t.number, "game": t.game_id} for t in r.tables],
            }
            for r in evening.played_rounds
        ],
    }
