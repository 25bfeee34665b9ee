"""A backup's player, game and club evening, read (``backup.document``), made rows again:
each value checked as the app checks it when a game is created, imported or played (names,
options, dates, the rule set's table), each reference against the rest of the file, and each
game replayed, every deal checked against the minimum it was played at."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from ..api.schemas import side_result
from ..rules import Format, Movement, errors_of, validate_deal
from ..rules.season import PointsError, check_points
from ..rules.text import Text
from ..rules.victory_points import ScaleError, read_scoring
from ..store.changes import (
    check_first_dealer,
    check_movement,
    check_start,
    checked_rules,
    evening_rules,
)
from ..store.changes.request_keys import fingerprint
from ..store.errors import Refused, check_moment, check_name
from ..store.games import Sheet, sheet_of, side_results
from ..store.log import RECORDED, Read, read_log, reconstructed_log, results_of
from ..store.models import (
    Change,
    Deal,
    DealResult,
    Evening,
    EveningPlayer,
    EveningRound,
    EveningTable,
    Game,
    Person,
    Player,
    Season,
    Side,
)
from ..store.players import name_key
from ..store.seats import check_cards
from . import document
from .document import BackupError


def short(value: object) -> str:
    """A value as a refusal quotes it: a 10,000-character name is not repeated whole."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def wrong(path: str, message: str) -> BackupError:
    return BackupError(message, {path: Text(message)})


def person(data: document.PersonBackup) -> Person:
    """A roster entry, checked as the roster checks a new name."""
    row = Person(
        id=data.id,
        name=check_name(data.name, "name", side=False),
        created_at=check_moment(data.created_at, "created_at"),
    )
    row.key = name_key(row.name)
    return row


def _moment(value: str | None, path: str) -> Any:
    return None if value is None else check_moment(value, path)


def game(data: document.GameBackup, people: Mapping[int, Person]) -> tuple[Game, Sheet]:
    """A game of the backup, checked as a new game, an import and a deal are (paths are the
    game's own: ``sides.0.name``), and its replay."""
    rules = checked_rules(data.variant, len(data.sides), data.options or {})
    row = Game(
        id=data.id,
        token_hash=data.token_hash,
        variant=data.variant,
        options=dict(data.options or {}),
        first_dealer=check_first_dealer(data.first_dealer, rules),
        created_at=check_moment(data.created_at, "created_at"),
        updated_at=check_moment(data.updated_at, "updated_at"),
        version=data.version,
        deleted_at=_moment(data.deleted_at, "deleted_at"),
        last_deal=data.last_deal,
        confirm_hash=data.confirm_hash,
    )
    seated: set[int] = set()
    for position, side_data in enumerate(data.sides):
        path = f"sides.{position}"
        side = Side(
            position=position,
            name=check_name(side_data.name, f"{path}.name", side=True),
            start=check_start(side_data.start, rules, f"{path}.start"),
        )
        if len(side_data.players) != rules.players_per_side:
            raise wrong(f"{path}.players", f"A side here has {rules.players_per_side} players.")
        for seat, player in enumerate(side_data.players):
            seat_path = f"{path}.players.{seat}"
            side.players.append(_player(player, seat_path, people, seated))
            side.players[-1].position = seat
        row.sides.append(side)
    _cards(data, row, rules.players_per_side)
    for number, deal_data in enumerate(data.deals):
        if len(deal_data.results) != len(data.sides):
            raise wrong(f"deals.{number}.results", "A deal has one result per side.")
        deal = Deal(
            seq=deal_data.seq,
            version=deal_data.version,
            created_at=check_moment(deal_data.created_at, f"deals.{number}.created_at"),
            confirmed_at=_moment(deal_data.confirmed_at, f"deals.{number}.confirmed_at"),
        )
        for position, result in enumerate(deal_data.results):
            entries = asdict(side_result(result))
            deal.results.append(DealResult(**entries, side_position=position))
        row.deals.append(deal)
    sheet = sheet_of(row)
    for number, (deal, line) in enumerate(zip(row.deals, sheet.state.lines, strict=True)):
        errors = errors_of(validate_deal(side_results(deal), rules, minimums=line.minimums))
        if errors:
            raise Refused.breaking(errors, prefix=f"deals.{number}.")
    if sheet.state.deals_after_end:
        raise wrong("deals", f"The game ended with deal {sheet.state.finished_after}.")
    return row, sheet


def _player(
    data: document.SeatBackup, path: str, people: Mapping[int, Person], seated: set[int]
) -> Player:
    """A seat: a name, and the roster's player who sits there (once a game)."""
    name = check_name(data.name, f"{path}.name", side=False)
    if data.person is None:
        return Player(name=name)
    if data.person not in people or data.person in seated:
        raise wrong(f"{path}.person", f"Unknown or seated twice: {data.person}.")
    seated.add(data.person)
    if name != people[data.person].name:
        # A seat shows its person's name (a rename renames every seat).
        raise wrong(
            f"{path}.name",
            f"{short(name)} is not the name of player {data.person} of the roster "
            f"({short(people[data.person].name)}), who sits there.",
        )
    return Player(name=name, person=people[data.person])


def _cards(data: document.GameBackup, row: Game, per_side: int) -> None:
    """The cards drawn for seats: all players' or none, a draw that decided."""
    drawn = [[p.card for p in side.players] for side in data.sides]
    if all(card is None for cards in drawn for card in cards):
        return
    for position, cards in enumerate(drawn):
        for seat, card in enumerate(cards):
            if card is None:
                raise wrong(
                    f"sides.{position}.players.{seat}.card", "Every player drew a card, or none."
                )
    kept = check_cards([[card for card in cards if card] for cards in drawn], per_side)
    for side, side_cards in zip(row.sides, kept, strict=True):
        for player, drawn_card in zip(side.players, side_cards, strict=True):
            player.card = drawn_card


def log(data: document.GameBackup, raw: Mapping[str, Any], row: Game) -> list[Read]:
    """The game's change log, checked as an import's is (``raw``: the file's own entries);
    a backup from before the log gets one reconstructed from its deals, as the migration
    that began it did."""
    if data.changes is None:
        read: list[Read] = [
            (change, None) for change in reconstructed_log(row.created_at, row.deals)
        ]
    else:
        deals = [(deal.seq, deal.results) for deal in row.deals]
        read = read_log(raw["changes"], len(row.sides), deals, last_deal=row.last_deal)
        for index, ((change, _place), kept) in enumerate(zip(read, data.changes, strict=True)):
            if kept.id is None:
                raise wrong(f"changes.{index}.id", "A change keeps its id (a whole number).")
            change.request_key = kept.request_key
            change.request_hash = kept.request_hash
            # Its id as it was: an undo names it, and so may an API client.
            change.id = kept.id
    _keys_from_deals(data, [change for change, _place in read])
    return read


def _keys_from_deals(data: document.GameBackup, log: Sequence[Change]) -> None:
    """A backup from before keys were kept in the change log keeps each on the deal it
    recorded: it goes to the change that recorded that deal, as the migration moved them
    (with what that request asked, from the change's own figures)."""
    keyed = {c.request_key for c in log if c.request_key is not None}
    for deal in data.deals:
        if deal.request_key is None or deal.request_key in keyed:
            continue
        recorded = next((c for c in log if c.kind == RECORDED and c.deal_seq == deal.seq), None)
        if recorded is not None and recorded.request_key is None:
            recorded.request_key = deal.request_key
            if deal.request_hash is not None:
                recorded.request_hash = fingerprint("record-deal", results_of(recorded.after))
            keyed.add(deal.request_key)


def season(data: document.SeasonBackup) -> Season:
    """A season of a backup, checked (its points table as a director's is)."""
    try:
        points = list(check_points(data.points))
    except PointsError as error:
        raise wrong(error.field, str(error.text)) from None
    return Season(
        id=data.id,
        token_hash=data.token_hash,
        name=check_name(data.name, "name", side=True),
        points=points,
        created_at=check_moment(data.created_at, "created_at"),
        version=data.version,
    )


def evening(
    data: document.EveningBackup,
    people: Mapping[int, Person],
    games: set[str],
    seasons: Collection[str] = (),
) -> Evening:
    """An evening of a backup, checked; its tables' games and its season restored before it."""
    if data.season is not None and data.season not in seasons:
        raise wrong("season", f"No season {short(data.season)} restored.")
    rules = evening_rules(data.variant, data.options or {})
    check_movement(Movement(data.movement), Format(data.format), rules)
    try:
        scale = read_scoring(data.scoring)
    except ScaleError as error:
        raise wrong(error.field, str(error.text)) from None
    if scale is not None and rules.sides != 2:
        raise wrong("scoring", "Victory points are shared by tables of two sides.")
    row = Evening(
        id=data.id,
        token_hash=data.token_hash,
        name=check_name(data.name, "name", side=True),
        variant=data.variant,
        options=dict(data.options or {}),
        format=data.format,
        movement=data.movement,
        rounds=data.rounds,
        deals_per_round=data.deals_per_round,
        minutes_per_round=data.minutes_per_round,
        scoring=None if scale is None else {"victory_points": scale.document()},
        bye_vp=data.bye_vp,
        confirmations=data.confirmations,
        season_id=data.season,
        created_at=check_moment(data.created_at, "created_at"),
        version=data.version,
    )
    for index, player in enumerate(data.players):
        if player.person not in people:
            raise wrong(f"players.{index}.person", f"No player {player.person} on the roster.")
        row.players.append(
            EveningPlayer(
                entrant=player.entrant, position=player.position, person=people[player.person]
            )
        )
    entrants = {player.entrant for player in data.players}
    if entrants != set(range(len(entrants))):
        raise wrong("players", "Entrants are numbered 0, 1, 2, … without a gap.")
    for index, played in enumerate(data.played):
        path = f"played.{index}"
        if not set(played.byes) <= entrants:
            raise wrong(f"{path}.byes", "Byes name the evening's entrants by number.")
        round_ = EveningRound(
            number=played.number,
            started_at=check_moment(played.started_at, f"{path}.started_at"),
            closed_at=_moment(played.closed_at, f"{path}.closed_at"),
            byes=list(played.byes),
        )
        for place, table in enumerate(played.tables):
            if table.game not in games:
                raise wrong(f"{path}.tables.{place}.game", f"No game {short(table.game)} restored.")
            round_.tables.append(EveningTable(number=table.number, game_id=table.game))
        row.played_rounds.append(round_)
    return row
