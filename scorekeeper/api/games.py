"""The games and their deals (docs/API.md "Games", "Deals"), and the variants."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from flask import Response, current_app, jsonify, request

from ..caching import Setup, cached, conditional, setup_of
from ..extensions import creates_game
from ..i18n import render_text
from ..refusals import scorer_only
from ..rules import (
    VARIANTS,
    OptionError,
    RuleSet,
    SideResult,
    apply_options,
)
from ..rules.limits import MAX_ID, MAX_PAGE
from ..store import changes, games
from ..store.changes import Claimed, SideSpec
from ..store.errors import Refused, Why, check_moment
from ..store.games import DealTag, Head, Sheet
from . import (
    BODY,
    SECRET,
    ApiError,
    answers,
    bp,
    checked,
    device,
    idempotency_key,
    request_secret,
    schemas,
    spec,
)
from .documents import (
    change_json,
    deal_answer,
    deal_json,
    game_json,
    recorded_answer,
    variant_json,
)

PER_PAGE = 20


#: A change of a game (``game_id``) needs its secret, checked before the view reads the
#: request: the game's 404 and the token's 403 come first (as the pages check theirs).
scorer = scorer_only(request_secret)


def _no_game() -> Refused:
    return Refused(Why.NOT_FOUND, changes.NO_GAME)


def _gone() -> Refused:
    return Refused(Why.GONE, changes.GAME_GONE)


def _head(game_id: str) -> Head:
    """The game (without its deals) a change is asked of, its secret checked (``@scorer``)."""
    game = games.head(game_id)
    if game is None:
        raise _no_game()
    if game.deleted:
        raise _gone()
    return game


def _sheet(game_id: str) -> Sheet:
    game = games.load(game_id)
    if game is None:
        raise _no_game()
    if game.deleted_at is not None:
        raise _gone()
    return games.sheet_of(game)


# A read takes no body, query or header to validate: its answers are only documented.
@bp.get("/variants")
@spec.validate(resp=answers(200), skip_validation=True)
def variants() -> Response:
    """Every rule set the app knows, with its numbers."""
    return jsonify([variant_json(rules) for rules in VARIANTS.values()])


def _claims(body: schemas.Export, sides: int) -> Claimed:
    """What an export says its game came to (totals, winner) and when it was played."""
    totals = body.totals
    if totals is not None and len(totals) != sides:
        raise ApiError(
            422, "totals must list one whole number per side.", {"totals": "One per side."}
        )
    winner = body.winner
    if winner is not None and not 0 <= winner < sides:
        raise ApiError(422, "winner must be a side's index or null.", {"winner": "A side."})
    created = body.created_at
    return Claimed(
        totals=totals,
        names_winner=totals is not None and "winner" in body.model_fields_set,
        winner=winner,
        created_at=None if created is None else check_moment(created, "created_at"),
    )


def _side_specs(sides: Sequence[schemas.Side]) -> list[SideSpec]:
    """The sides as the store takes them; a player alone is a side of one, with the
    player's name."""
    return [
        SideSpec(
            name=(
                side.name
                if side.name is not None
                else side.players[0]
                if len(side.players) == 1
                else f"Side {index + 1}"
            ),
            players=side.players,
            start=side.start,
            cards=side.cards,
        )
        for index, side in enumerate(sides)
    ]


@bp.post("/games")
@creates_game
@spec.validate(headers=schemas.Key, resp=answers(201, *BODY, 409, 429))
def create(json: schemas.NewGame) -> tuple[Response, int]:
    """Create a game; the answer carries the secret that changing it needs."""
    game, secret = changes.create_game(
        json.variant,
        _side_specs(json.sides),
        json.options or {},
        json.first_dealer,
        device=device(),
        request_key=idempotency_key(),
    )
    return _with_secret(games.sheet_of(game), secret)


def _with_secret(sheet: Sheet, secret: str) -> tuple[Response, int]:
    """A new game's answer (created or imported): the game and the secret that changes it,
    which no cache may keep."""
    response = jsonify({**game_json(sheet), "token": secret})
    response.headers["Cache-Control"] = "private, no-store"
    return response, 201


@bp.get("/games")
@spec.validate(query=schemas.Page, resp=answers(200, 400))
def index() -> Response:
    """Games, newest first, a page at a time (``?page=``)."""
    page = request.args.get("page", "1")
    if not (page.isascii() and page.isdigit()) or not 1 <= int(page) <= MAX_PAGE:
        raise ApiError(
            400, f"page must be a whole number from 1 to {MAX_PAGE}.", {"page": "From 1."}
        )
    found, total = games.recent(int(page), PER_PAGE)
    return jsonify(
        {
            "games": [game_json(games.sheet_of(game), deals=False) for game in found],
            "page": int(page),
            "per_page": PER_PAGE,
            "total": total,
        }
    )


@bp.get("/games/<game_id>")
@spec.validate(resp=answers(200, 304, 404, 410), skip_validation=True)
def show(game_id: str) -> Response:
    """The game with every deal; 304 for a client that has this version already."""
    current = games.version_of(game_id)
    if current is None:
        raise _no_game()
    if current.deleted:
        raise _gone()
    version = current.version

    def document() -> Response:
        body = cached(("api-game", game_id), lambda: _game_document(game_id), at=version)
        return current_app.response_class(body, mimetype="application/json")

    return conditional(f"game-{game_id}-{version}", document)


def _game_document(game_id: str) -> bytes:
    return jsonify(game_json(_sheet(game_id))).get_data()


def _results(deal: schemas.NewDeal, rules: RuleSet, prefix: str = "") -> list[SideResult]:
    """A deal as the rules engine reads it: the schema checked each entry's type and range,
    the rules engine checks the deal; here, one result per side, in side order. ``prefix``
    places the paths of an imported deal (``deals.3.``)."""
    if len(deal.results) != rules.sides:
        raise ApiError(
            422,
            f"A deal of this game has one result per side: {rules.sides}, not {len(deal.results)}.",
            {f"{prefix}results": f"Give {rules.sides} results."},
        )
    for index, result in enumerate(deal.results):
        if result.side is not None and result.side != index:
            raise ApiError(
                422,
                "Results go in side order.",
                {f"{prefix}results.{index}.side": f"This result is side {index}'s."},
            )
    return [schemas.side_result(result) for result in deal.results]


def _setup(game_id: str) -> Setup:
    """The game a deal is recorded in: its rule set reads the body (kept: no query)."""
    table = setup_of(game_id)
    if table is None:
        raise _no_game()
    return table


def _game_over(game_id: str) -> None:
    """A deal's body is refused only after its game would take it (404 and 403 are
    ``@scorer``'s): a finished game takes no deal, whatever the body says: 409."""
    game = games.head(game_id)
    if game is not None and game.finished:
        raise ApiError(409, render_text(changes.GAME_OVER)) from None


def _game_first(*hook: Any) -> None:
    """A deal's body is refused only after its game would take it (409)."""
    try:
        checked(*hook)
    except ApiError:
        _game_over(str((request.view_args or {})["game_id"]))
        raise


@bp.post("/games/<game_id>/deals")
@scorer
@spec.validate(
    headers=schemas.Key,
    resp=answers(201, *BODY, 403, 404, 409, 410),
    security=SECRET,
    before=_game_first,
)
def record(game_id: str, json: schemas.NewDeal) -> tuple[Response, int]:
    """Record the next deal; 409 once the game is over. A retry with the same
    Idempotency-Key answers as the first time and records nothing."""
    table = _setup(game_id)
    key = idempotency_key()
    try:
        results = _results(json, table.rules)
    except ApiError:
        _game_over(game_id)
        raise
    recorded = changes.record_deal(
        game_id, results, secret=request_secret(), request_key=key, device=device()
    )
    return jsonify(recorded_answer(recorded)), 201


def _number(game: Head, number: int) -> None:
    if not 1 <= number <= game.deals:
        raise Refused(Why.NOT_FOUND, changes.no_deal(number))


#: A deal's ETag: its place and its version (``DealTag``), as a strong tag.
DEAL_ETAG = re.compile(schemas.DEAL_ETAG_PATTERN)


def deal_etag(tag: DealTag) -> str:
    return f"{tag.seq}.{tag.version}"


def _if_match() -> DealTag | None:
    """The deal an ``If-Match`` header names (its ETag), or None without one or with
    ``*``; anything else is a 400."""
    value = request.headers.get("If-Match")
    if value is None or value.strip() == "*":
        return None
    found = DEAL_ETAG.fullmatch(value.strip())
    tag = DealTag(int(found[1]), int(found[2])) if found else None
    if tag is None or max(tag) > MAX_ID:
        raise ApiError(
            400,
            'If-Match is a deal\'s ETag as GET answers it ("<seq>.<version>"), or *.',
            {"If-Match": "Invalid."},
        )
    return tag


def _expected(game_id: str, number: int, version: int | None) -> DealTag | None:
    """The deal a change is meant for: the one If-Match names (without it, the one at
    ``number``: the store refuses when there is none); a ``version`` in the body is of
    that deal, or else of the one now at that number."""
    tag = _if_match()
    if version is None:
        return tag
    now = tag or games.deal_tag(game_id, number)
    return DealTag(now.seq if now else 0, version)


def _outdated(game_id: str, number: int, refusal: Refused) -> ApiError:
    """A stale version: 409 with the deal as it is now, to check and send again."""
    sheet = _sheet(game_id)
    extra = {"deal": deal_json(sheet, number)} if games.deal_at(sheet.game, number) else {}
    error = ApiError.of(refusal)
    error.extra = extra
    return error


def _deal_first(*hook: Any) -> None:
    """A deal's new body is refused only after the deal is there to change (404, 410)."""
    try:
        checked(*hook)
    except ApiError:
        where = request.view_args or {}
        _number(_head(str(where["game_id"])), int(where["number"]))
        raise


@bp.put("/games/<game_id>/deals/<int:number>")
@scorer
@spec.validate(
    headers=schemas.KeyAndIfMatch,
    resp=answers(200, *BODY, 403, 404, 409, 410),
    security=SECRET,
    before=_deal_first,
)
def update(game_id: str, number: int, json: schemas.Edit) -> Response:
    """Replace a deal's entries; totals, minimums and the winner are recomputed. With
    ``If-Match`` (or a ``version`` in the body), refused (409) when the deal changed since."""
    expected = _expected(game_id, number, json.version)
    results = _results(json, _setup(game_id).rules)
    try:
        edited = changes.edit_deal(
            game_id,
            number,
            results,
            secret=request_secret(),
            expected=expected,
            device=device(),
            request_key=idempotency_key(),
        )
    except Refused as refusal:
        if refusal.why is Why.OUTDATED:
            raise _outdated(game_id, number, refusal) from None
        raise
    return jsonify(deal_answer(edited.sheet, number, edited.warnings))


@bp.get("/games/<game_id>/deals/<int:number>")
@spec.validate(resp=answers(200, 404, 410), skip_validation=True)
def show_deal(game_id: str, number: int) -> Response:
    """The deal, its place and version as its ETag (for ``If-Match`` on a change)."""
    sheet = _sheet(game_id)
    deal = games.deal_at(sheet.game, number)
    if deal is None:
        raise Refused(Why.NOT_FOUND, changes.no_deal(number))
    response = jsonify(deal_json(sheet, number))
    response.set_etag(deal_etag(games.tag_of(deal)))
    response.cache_control.no_cache = True
    return response


@bp.delete("/games/<game_id>/deals/<int:number>")
@scorer
@spec.validate(
    headers=schemas.KeyAndIfMatch, resp=answers(200, 400, 403, 404, 409, 410), security=SECRET
)
def delete(game_id: str, number: int) -> Response:
    """Remove a deal; later deals are renumbered. Answers with the game."""
    expected = _expected(game_id, number, None)
    try:
        sheet = changes.delete_deal(
            game_id,
            number,
            secret=request_secret(),
            expected=expected,
            device=device(),
            request_key=idempotency_key(),
        ).sheet
    except Refused as refusal:
        if refusal.why is Why.OUTDATED:
            raise _outdated(game_id, number, refusal) from None
        raise
    return jsonify(game_json(sheet))


@bp.post("/games/<game_id>/deals/<int:number>/confirm")
@spec.validate(
    headers=schemas.KeyAndIfMatch, resp=answers(200, 400, 403, 404, 409, 410), security=SECRET
)
def confirm(game_id: str, number: int) -> Response:
    """The other side of a club table confirms a deal (API.md "Club evenings"): its own
    token, not the scorer's (403). With ``If-Match``, refused (409) when the deal changed
    since. Answers with the deal."""
    current = games.version_of(game_id)
    if current is None:
        raise _no_game()
    changes.require_confirmer(current, request_secret())
    expected = _expected(game_id, number, None)
    try:
        confirmed = changes.confirm_deal(
            game_id,
            number,
            secret=request_secret(),
            expected=expected,
            device=device(),
            request_key=idempotency_key(),
        )
    except Refused as refusal:
        if refusal.why is Why.OUTDATED:
            raise _outdated(game_id, number, refusal) from None
        raise
    return jsonify(deal_json(confirmed.sheet, confirmed.number))


# --- the change log, and deleting a game (docs/API.md "Changes and undo") ---------------


@bp.get("/games/<game_id>/changes")
@spec.validate(resp=answers(200, 404), skip_validation=True)
def change_log(game_id: str) -> Response:
    """Every change of the game, newest first (a deleted game's too: it can be restored)."""
    found = games.log_of(game_id)
    if found is None:
        raise _no_game()
    return jsonify({"changes": [change_json(change) for change in found]})


@bp.post("/games/<game_id>/changes/<int:change_id>/undo")
@scorer
@spec.validate(headers=schemas.Key, resp=answers(200, 400, 403, 404, 409, 410), security=SECRET)
def undo(game_id: str, change_id: int) -> Response:
    """Revert one change of the game (any, not only the last), logged as an ``undo``."""
    undone = changes.undo_change(
        game_id,
        change_id,
        secret=request_secret(),
        device=device(),
        request_key=idempotency_key(),
    )
    return jsonify({"game": game_json(undone.sheet), "change": undone.change})


@bp.post("/games/<game_id>/time-called")
@scorer
@spec.validate(
    json=schemas.TimeCalled,
    headers=schemas.Key,
    resp=answers(200, *BODY, 403, 404, 409, 410),
    security=SECRET,
)
def time_called(game_id: str, json: schemas.TimeCalled) -> Response:
    """After time is called on a club table's round: ``deal_in_progress: false`` ends the
    table's round after the deals recorded (``true``: the deal in progress is recorded
    as usual, and is its last; nothing changes now)."""
    if json.deal_in_progress:
        return jsonify(game_json(_sheet(game_id)))
    ended = changes.no_deal_in_progress(
        game_id, secret=request_secret(), device=device(), request_key=idempotency_key()
    )
    return jsonify(game_json(ended.sheet))


@bp.delete("/games/<game_id>")
@scorer
@spec.validate(headers=schemas.Key, resp=answers(200, 403, 404, 409, 422), security=SECRET)
def delete_game(game_id: str) -> Response:
    """Delete the game: it leaves every list; GET answers 410 until it is restored."""
    deleted = changes.delete_game(
        game_id, secret=request_secret(), device=device(), request_key=idempotency_key()
    )
    return jsonify(game_json(deleted.sheet))


@bp.post("/games/<game_id>/restore")
@scorer
@spec.validate(headers=schemas.Key, resp=answers(200, 403, 404, 409, 422), security=SECRET)
def restore_game(game_id: str) -> Response:
    """Bring a deleted game back into every list."""
    restored = changes.restore_game(
        game_id, secret=request_secret(), device=device(), request_key=idempotency_key()
    )
    return jsonify(game_json(restored.sheet))


@bp.get("/games/<game_id>/export")
@spec.validate(resp=answers(200, 404, 410), skip_validation=True)
def export(game_id: str) -> Response:
    """The game with every deal's inputs as one document, for backups and moving games."""
    response = jsonify(games.export_game(_sheet(game_id)))
    response.headers["Content-Disposition"] = f'attachment; filename="canasta-{game_id}.json"'
    return response


@bp.before_request
def import_limit() -> None:
    """An export may be larger than other bodies: its limit is set before spectree reads it."""
    if request.endpoint == "api.import_":
        request.max_content_length = current_app.config["IMPORT_MAX_CONTENT_LENGTH"]


@bp.post("/games/import")
@creates_game
@spec.validate(headers=schemas.Key, resp=answers(201, *BODY, 409, 429))
def import_(json: schemas.Export) -> tuple[Response, int]:
    """Create a game from an export: the same scores, totals and winner, a new id and secret.
    Sent again with its Idempotency-Key, it imports nothing (409, as a new game's retry)."""
    variant = json.variant
    options = json.options or {}
    sides = _side_specs(json.sides)
    try:
        rules = apply_options(VARIANTS[variant].with_sides(len(sides)), options)
    except OptionError as error:
        raise ApiError(
            422, render_text(error.text), {f"options.{error.option}": render_text(error.text)}
        ) from None
    seqs: list[int] = []
    for deal in json.deals:
        # Each deal's place in the game (its identity in the change log) rides along; a
        # deal without one comes next after the one before.
        seqs.append(deal.seq if deal.seq is not None else seqs[-1] + 1 if seqs else 1)
    results = [_results(deal, rules, f"deals.{index}.") for index, deal in enumerate(json.deals)]
    game_id, secret = changes.import_game(
        variant,
        sides,
        options,
        json.first_dealer,
        results,
        _claims(json, len(sides)),
        seqs=seqs,
        changes=json.changes,
        device=device(),
        last_deal=json.last_deal,
        request_key=idempotency_key(),
    )
    return _with_secret(_sheet(game_id), secret)
