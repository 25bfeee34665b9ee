"""A club evening's commands (RULES.md section 11): a new evening, the next round seated,
a round closed, seats swapped. Each is one transaction, the evening's row locked first,
and ends in the commit step's ``commit_evening``: the evening's version moved, its log's
entry written with the request's key (a retried command acts once).

Each table's round is an ordinary game, made by the same steps as any new game
(``new_game``, ``commit``) and changed through the same door; closing a round ends each
table's game through its change log (``time-called``). The standings and the next seating
come from the rules engine, fed with the games as ``store.evenings`` reads them.
"""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections.abc import Mapping, Sequence

from sqlalchemy import bindparam, select

from ...rules import Entrant, EveningError, Format, Movement, RuleSet, rounds_needed, seat_movement
from ...rules.limits import MAX_DEALS, MAX_ENTRANTS, MAX_MINUTES, MAX_NAME, MAX_ROUNDS
from ...rules.text import T
from ...rules.victory_points import BYE_VP, MATCH_POINTS, ScaleError, check_bye, read_scoring
from ..db import db, transaction
from ..errors import Refused, Why, check_name
from ..evenings import (
    EveningView,
    RoundView,
    confirm_secret,
    director_matches,
    load,
    result_of,
    table_secret,
    usual_sides,
    view,
    view_of,
)
from ..games import hash_secret, lock_game, sheet_of
from ..log import (
    CREATED,
    EVENING_CREATED,
    GAME_DELETED,
    REPLACED_BY,
    ROUND_CLOSED,
    ROUND_STARTED,
    SEATS_SWAPPED,
    TIME_CALLED,
    describe_evening,
)
from ..models import (
    Evening,
    EveningChange,
    EveningPlayer,
    EveningRound,
    EveningTable,
    Game,
    utcnow,
)
from ..players import name_key
from .checks import replayed
from .commit import LogEntry, commit_evening, commit_replayed
from .confirm import check_confirmed
from .new_game import SideSpec, checked_rules, creating, new_game
from .request_keys import RequestKey, evening_earlier, keyed, made_by
from .roster import person_for
from .seasons import join_season

NO_EVENING = T("There is no such evening.")
NOT_DIRECTOR = T("Only the evening's director can do this (the director's link holds the secret).")

#: The evening a key created, and what it asked.
_CREATED_BY = (
    select(EveningChange.evening_id, EveningChange.request_hash, Evening.name)
    .join(Evening, Evening.id == EveningChange.evening_id)
    .where(EveningChange.request_key == bindparam("key"), EveningChange.kind == EVENING_CREATED)
)


def _check_within(value: int | None, path: str, low: int, high: int) -> int:
    if value is None or isinstance(value, bool) or not low <= value <= high:
        raise Refused(
            Why.INVALID,
            T(
                "%(field)s is a whole number from %(low)s to %(high)s.",
                field=path,
                low=low,
                high=high,
            ),
            {path: T("A whole number from %(low)s to %(high)s.", low=low, high=high)},
        )
    return value


def evening_rules(variant: str, options: Mapping[str, object]) -> RuleSet:
    """The evening's rule set at its usual table; refused unless partners play it."""
    rules = checked_rules(variant, usual_sides(variant), options)
    if not rules.partnerships:
        message = T(
            "A club evening needs a partnership rule set; %(rules)s is played alone.",
            rules=T(rules.name),
        )
        raise Refused(Why.INVALID, message, {"variant": message})
    return rules


def create_evening(
    name: str,
    variant: str,
    options: Mapping[str, object],
    format: Format,
    entrants: Sequence[Sequence[str]],
    rounds: int | None,
    deals_per_round: int,
    minutes_per_round: int | None,
    *,
    movement: Movement = Movement.SWISS,
    device: str = "",
    rng: random.Random | None = None,
    request_key: str | None = None,
    scoring: object = None,
    bye_vp: object = BYE_VP,
    confirmations: bool = False,
    season: str | None = None,
    season_token: str | None = None,
) -> tuple[EveningView, str]:
    """A new evening, its players on the roster and its first round seated by lot; returns
    it with the director's secret (shown once, stored hashed). ``entrants`` are the pairs
    (``Format.PAIRS``) or each player alone. A round robin's ``rounds`` may be None: as
    many as it takes (``rounds_needed``). ``scoring`` and ``bye_vp`` are as API.md writes
    them: match points (None), or victory points by a scale, and a bye's VP.
    ``confirmations``: each deal is confirmed on the other side's phone. ``season``: the
    season it joins, with its director's secret (``season_token``). A
    ``request_key`` that created an evening before creates none: its secret cannot be
    given again, so the retry is refused
    (``Why.CONFLICT``) naming that evening; sent with another evening, it is refused as
    reused (``Why.REUSED``)."""
    key = keyed(
        request_key,
        "create-evening",
        name,
        variant,
        dict(options),
        format.value,
        [list(entrant) for entrant in entrants],
        rounds,
        deals_per_round,
        minutes_per_round,
        # Only a movement or a scoring other than the default joins the fingerprint: a
        # retry made before they existed still matches.
        *([] if movement is Movement.SWISS else [movement.value]),
        *([] if scoring in (None, MATCH_POINTS) and bye_vp == BYE_VP else [scoring, bye_vp]),
        *(["confirmations"] if confirmations else []),
        *([] if season is None else [{"season": season}]),
    )
    if not name.strip():
        message = T("An evening needs a name.")
        raise Refused(Why.INVALID, message, {"name": message})
    title = check_name(name, "name", side=True)
    rules = evening_rules(variant, options)
    check_movement(movement, format, rules)
    if rounds is None and movement is Movement.ROUND_ROBIN:
        rounds = rounds_needed(len(entrants)) if len(entrants) >= 2 else 1
    rounds = _check_within(rounds, "rounds", 1, MAX_ROUNDS)
    _check_within(deals_per_round, "deals_per_round", 1, MAX_DEALS)
    if minutes_per_round is not None:
        _check_within(minutes_per_round, "minutes_per_round", 1, MAX_MINUTES)
    try:
        scale, bye = read_scoring(scoring), check_bye(bye_vp)
    except ScaleError as error:
        raise Refused(Why.INVALID, error.text, {error.field: error.text}) from None
    if scale is not None and rules.sides != 2:
        message = T(
            "Victory points are shared by a table's two sides, and %(rules)s seats more: "
            "score it by match points.",
            rules=T(rules.name),
        )
        raise Refused(Why.INVALID, message, {"scoring": message})
    field = "pairs" if format is Format.PAIRS else "players"
    size = rules.players_per_side if format is Format.PAIRS else 1
    table = rules.players // size
    if len(entrants) * size > MAX_ENTRANTS:
        message = T("An evening seats at most %(most)s players.", most=MAX_ENTRANTS)
        raise Refused(Why.INVALID, message, {field: message})
    if len(entrants) < 2 * table:
        message = T(
            "An evening of %(rules)s needs at least two tables: %(least)s %(what)s.",
            rules=T(rules.name),
            least=2 * table,
            what=T("pairs") if format is Format.PAIRS else T("players"),
        )
        raise Refused(Why.INVALID, message, {field: message})
    for index, entrant in enumerate(entrants):
        if len(entrant) != size:
            message = T(
                "Each pair of %(rules)s has %(count)s players.", rules=T(rules.name), count=size
            )
            raise Refused(Why.INVALID, message, {f"{field}.{index}": message})
    secret = secrets.token_urlsafe(24)

    def make() -> str:
        _check_created_before(key)
        evening = Evening(
            id=secrets.token_urlsafe(12),
            token_hash=hash_secret(secret),
            name=title,
            variant=variant,
            options=dict(options),
            format=format.value,
            movement=movement.value,
            rounds=rounds,
            deals_per_round=deals_per_round,
            minutes_per_round=minutes_per_round,
            scoring=None if scale is None else {"victory_points": scale.document()},
            bye_vp=bye,
            confirmations=confirmations,
            season_id=join_season(season, season_token, device=device),
        )
        seen: dict[str, str] = {}
        for number, entrant in enumerate(entrants):
            for position, typed in enumerate(entrant):
                path = f"{field}.{number}" + (f".{position}" if format is Format.PAIRS else "")
                player = check_name(typed, path, side=False)
                folded = name_key(player)
                if folded in seen:
                    message = T("%(name)s is named twice.", name=player)
                    raise Refused(Why.INVALID, message, {path: message})
                seen[folded] = path
                evening.players.append(
                    EveningPlayer(entrant=number, position=position, person=person_for(player))
                )
        db.session.add(evening)
        db.session.flush()
        _seat_next(evening, secret, device, rng or random.Random(secrets.randbits(64)))
        commit_evening(evening, EVENING_CREATED, round_number=None, device=device, key=key)
        return evening.id

    return _viewed(creating(make)), secret


def check_movement(movement: Movement, format: Format, rules: RuleSet) -> None:
    """A Mitchell or a round robin moves pairs between tables of two sides."""
    if movement is Movement.SWISS or (format is Format.PAIRS and rules.sides == 2):
        return
    message = T(
        "A Mitchell or a round robin moves pairs between tables of two sides; seat this "
        "evening by standings (Swiss)."
    )
    raise Refused(Why.INVALID, message, {"movement": message})


def _check_created_before(key: RequestKey | None) -> None:
    """Refused when the key created an evening before: as ``create_evening``."""
    row = made_by(_CREATED_BY, key, lambda _row: describe_evening(EVENING_CREATED, None))
    if row is not None:
        raise Refused(
            Why.CONFLICT,
            T(
                "This request already created the evening %(name)s; its director's secret "
                "was given only in that first answer (it is kept hashed), so nothing was "
                "created again.",
                name=row.name,
            ),
            {"Idempotency-Key": T("Already created evening %(id)s.", id=row.evening_id)},
            evening=row.evening_id,
        )


def _side_name(players: Sequence[str]) -> str:
    """A table's side named after its players ("Ana & Boris"), short enough for a name."""
    joined = name = " & ".join(players)
    # Shortened until ``check_name`` takes it: by letters, and as the roster folds them.
    while len(name) > MAX_NAME or len(unicodedata.normalize("NFKC", name).casefold()) > 60:
        joined = joined[:-1]
        name = joined.rstrip() + "…"
    return name


def _seat_next(evening: Evening, secret: str, device: str, rng: random.Random) -> EveningRound:
    """Seat the evening's next round: its tables' games made and its byes kept."""
    rules = evening_rules(evening.variant, evening.options)
    current = view_of(evening)
    try:
        seating = seat_movement(
            current.movement,
            rules,
            current.format,
            current.entrants,
            [result_of(round_) for round_ in current.played],
            rng,
            # Swiss by the evening's own standings: by victory points when it scores them.
            order=None if current.scale is None else [s.players for s in current.standings],
        )
    except EveningError as error:  # the checks above keep every evening seatable
        raise Refused(
            Why.CONFLICT, T("This evening cannot be seated: %(why)s", why=str(error))
        ) from None
    number = len(evening.played_rounds) + 1
    round_ = EveningRound(
        number=number,
        started_at=utcnow(),
        byes=[current.entrants.index(entrant) for entrant in seating.byes],
    )
    evening.played_rounds.append(round_)
    for table_number, table in enumerate(seating.tables, start=1):
        game = _table_game(evening, rules, table.sides, rng, secret, device)
        round_.tables.append(EveningTable(number=table_number, game_id=game.id))
    db.session.flush()
    return round_


def _table_game(
    evening: Evening,
    rules: RuleSet,
    sides: Sequence[Sequence[str]],
    rng: random.Random,
    secret: str,
    device: str,
) -> Game:
    """A table's game: the evening's rules, the seated sides, a dealer by lot, the round's
    length, and the scorer secret derived from the director's."""
    specs = [SideSpec(name=_side_name(players), players=list(players)) for players in sides]
    game, _secret = new_game(evening.variant, specs, evening.options, rng.randrange(rules.players))
    game.token_hash = hash_secret(table_secret(secret, game.id))
    if evening.confirmations:
        game.confirm_hash = hash_secret(confirm_secret(secret, game.id))
    game.last_deal = evening.deals_per_round
    commit_replayed(sheet_of(game), LogEntry(CREATED), device=device, key=None, at=game.created_at)
    return game


def _locked(evening_id: str, secret: str | None) -> Evening:
    """The evening, its row locked until the transaction ends, once the director's secret
    is checked."""
    found = load(evening_id, lock=True)
    if found is None:
        raise Refused(Why.NOT_FOUND, NO_EVENING)
    if not director_matches(found, secret):
        raise Refused(Why.FORBIDDEN, NOT_DIRECTOR)
    return found


def _lock_games(round_: EveningRound) -> None:
    """Lock the round's games (in id order, as every lock of several games is taken), so a
    deal recorded meanwhile is either in what is read next or waits for this change; then
    read them afresh."""
    for table in sorted(round_.tables, key=lambda table: table.game_id):
        lock_game(table.game_id)
    for table in round_.tables:
        db.session.expire(table.game)


def start_round(
    evening_id: str,
    secret: str | None,
    *,
    device: str = "",
    rng: random.Random | None = None,
    request_key: str | None = None,
    force: bool = False,
) -> EveningView:
    """Seat and start the next round (RULES.md section 11); refused while a table of the
    current round plays on, or after the last round, and in an evening that confirms
    results while a deal of the current round is unconfirmed, unless ``force``. A
    ``request_key`` this evening has seen seats nothing again and answers with the evening
    as it stands (``force`` is left out of its fingerprint: it only allows the one
    command, so a retry with or without it seats nothing twice)."""
    key = keyed(request_key, "start-round")
    with transaction():
        evening = _locked(evening_id, secret)
        if evening_earlier(evening_id, key):
            return _viewed(evening_id)
        current = view_of(evening)
        if len(current.played) >= current.rounds:
            raise Refused(
                Why.CONFLICT,
                T("All %(rounds)s rounds of this evening were played.", rounds=current.rounds),
            )
        if not current.may_start_round:
            playing = [str(t.number) for t in current.played[-1].tables if not t.finished]
            raise Refused(
                Why.CONFLICT,
                T(
                    "Round %(number)s is still being played at table(s) %(tables)s: wait for "
                    "their last deal, or close the round.",
                    number=len(current.played),
                    tables=", ".join(playing),
                ),
            )
        if current.confirmations and not force:
            check_confirmed(current)
        round_ = _seat_next(
            evening, secret or "", device, rng or random.Random(secrets.randbits(64))
        )
        commit_evening(evening, ROUND_STARTED, round_number=round_.number, device=device, key=key)
    return _viewed(evening_id)


def _viewed(evening_id: str) -> EveningView:
    found = view(evening_id)
    assert found is not None
    return found


def close_round(
    evening_id: str,
    number: int,
    secret: str | None,
    *,
    final: bool = False,
    device: str = "",
    request_key: str | None = None,
) -> EveningView:
    """Time is called on round ``number`` (RULES.md section 16): each table still playing
    plays out the deal in progress and then stops, its game's last deal lowered to the
    next one (``time_called``); with ``final``, each stops after the deals played. Each
    table's change goes through its change log, so its scorer can undo it, and moves the
    game's version (its sheet then says time is called). Closing again changes only what
    ``final`` lowers further. A ``request_key`` this evening has seen closes nothing again."""
    # ``final`` left out at its default, as a key kept before it was fingerprints it.
    key = keyed(request_key, "close-round", number, *([final] if final else []))
    with transaction():
        evening = _locked(evening_id, secret)
        if evening_earlier(evening_id, key):
            return _viewed(evening_id)
        round_ = next((r for r in evening.played_rounds if r.number == number), None)
        if round_ is None:
            raise Refused(Why.NOT_FOUND, T("This evening has no round %(number)s.", number=number))
        _lock_games(round_)
        first_call = round_.closed_at is None
        changed = first_call
        for table in round_.tables:
            game = table.game
            if sheet_of(game).state.finished:
                continue
            before = game.last_deal
            played = len(game.deals)
            last = played if final else min(before or played + 1, played + 1)
            if last == before and not first_call:
                continue
            game.last_deal = last
            changed = True
            commit_replayed(
                sheet_of(game),
                LogEntry(TIME_CALLED, before={"last_deal": before}, after={"last_deal": last}),
                device=device,
                key=None,
            )
        if first_call:
            round_.closed_at = utcnow()
        if changed:
            commit_evening(evening, ROUND_CLOSED, round_number=number, device=device, key=key)
    return _viewed(evening_id)


def swap(
    evening_id: str,
    number: int,
    names: Sequence[str],
    secret: str | None,
    *,
    device: str = "",
    request_key: str | None = None,
) -> EveningView:
    """Swap two players (an individual evening) or the pairs of two players (a pairs
    evening) between two tables of round ``number``, or between a table and the byes, before
    either table has a deal (or once its deals were undone): their games are made again
    with the new seats (and new scorer links), and the games they replace are deleted
    through their change logs. A ``request_key`` this evening has seen swaps nothing
    again (which would swap them back) and answers with the evening as it stands."""
    key = keyed(request_key, "swap", number, [name_key(name) for name in names])
    with transaction():
        evening = _locked(evening_id, secret)
        if evening_earlier(evening_id, key):
            return _viewed(evening_id)
        round_ = next((r for r in evening.played_rounds if r.number == number), None)
        if round_ is not None:
            _lock_games(round_)
        current = view_of(evening)
        if round_ is None or round_ is not evening.played_rounds[-1]:
            raise Refused(
                Why.CONFLICT if round_ is not None else Why.NOT_FOUND,
                T("Seats can be swapped only in the round being played."),
            )
        if round_.closed_at is not None:
            raise Refused(
                Why.CONFLICT,
                T("Round %(number)s was closed: its seats stay as they were.", number=number),
            )
        if len(names) != 2 or name_key(names[0]) == name_key(names[1]):
            message = T("Name two different players to swap.")
            raise Refused(Why.INVALID, message, {"players": message})
        units = [_unit_of(current, name, f"players.{i}") for i, name in enumerate(names)]
        viewed = current.played[-1]
        where = [_place_of(viewed, unit) for unit in units]
        if where[0] == where[1]:
            message = T("These two sit together already: swapping them changes nothing.")
            raise Refused(Why.INVALID, message, {"players": message})
        tables = {table for table, _side in where if table is not None}
        for table in viewed.tables:
            if table.number in tables and (table.deals or table.finished):
                raise Refused(
                    Why.CONFLICT,
                    T(
                        "Table %(table)s has played a deal: seats can be swapped only "
                        "before a table's first deal.",
                        table=table.number,
                    ),
                )
        # Each unit's players take the other's places, name for name.
        first, second = units
        moved = {**dict(zip(first, second, strict=True)), **dict(zip(second, first, strict=True))}
        seats = {
            t.number: [[moved.get(n, n) for n in side.players] for side in t.sides]
            for t in viewed.tables
        }
        byes = [tuple(moved.get(n, n) for n in entrant) for entrant in viewed.byes]
        rules = evening_rules(evening.variant, evening.options)
        rng = random.Random(secrets.randbits(64))
        for table in round_.tables:
            if table.number in tables:
                old = table.game
                table.game = _table_game(
                    evening, rules, seats[table.number], rng, secret or "", device
                )
                db.session.flush()
                _replaced(old, table.game, device)
        round_.byes = [current.entrants.index(entrant) for entrant in byes]
        commit_evening(evening, SEATS_SWAPPED, round_number=number, device=device, key=key)
    return _viewed(evening_id)


def _replaced(old: Game, new: Game, device: str) -> None:
    """A table's game replaced by a swap leaves every list through its change log (a
    deletion naming the game that took its place, which nothing restores); nothing the
    log points at is removed."""
    old.deleted_at = utcnow()
    commit_replayed(
        replayed(old), LogEntry(GAME_DELETED, after={REPLACED_BY: new.id}), device=device, key=None
    )


def _unit_of(current: EveningView, typed: str, path: str) -> Entrant:
    """Who moves when ``typed`` is swapped: the player, or their pair."""
    key = name_key(typed)
    for entrant in current.entrants:
        for name in entrant:
            if name_key(name) == key:
                return entrant
    message = T("%(name)s is not playing this evening.", name=typed)
    raise Refused(Why.INVALID, message, {path: message})


def _place_of(round_: RoundView, unit: Entrant) -> tuple[int | None, int | None]:
    """The table and side where ``unit`` sits this round (None, None: sitting out)."""
    for table in round_.tables:
        for index, side in enumerate(table.sides):
            if set(unit) <= set(side.players):
                return table.number, index
    return None, None
