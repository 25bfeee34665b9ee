"""The OpenAPI document of the JSON API, served at /api/openapi.json (and fuzzed in tests)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from ..rules import OPTION_NAMES, VARIANTS
from ..rules.scoring import BOOLEAN_FIELDS, INTEGER_FIELDS
from . import bp

_ERROR = {"$ref": "#/components/schemas/Error"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _answers(*codes: int, ok: int = 200, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    answers: dict[str, Any] = {str(ok): {"description": "Done", **_json(schema or {})}}
    for code in codes:
        answers[str(code)] = {"description": "Refused, nothing changed", **_json(_ERROR)}
    return answers


_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
_NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}
_CHANGE_ID = {
    "name": "change_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}
_IF_MATCH = {"name": "If-Match", "in": "header", "schema": {"type": "string"}}
_KEY = {"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}}
_BEARER: list[dict[str, list[str]]] = [{"token": []}]
_CARDS = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
_CONTEXT = {
    "variant": {"type": "string", "enum": list(VARIANTS)},
    "options": {"$ref": "#/components/schemas/Options"},
    "game": {"type": "string"},
}

SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {
        "title": "Canasta Scorekeeper API",
        "version": "1",
        "description": "Score sheets and rules checks for Canasta (docs/API.md in the repository).",
    },
    "components": {
        "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error", "fields"],
                "properties": {
                    "error": {"type": "string"},
                    "fields": {"type": "object", "additionalProperties": {"type": "string"}},
                },
            },
            "Options": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    name: (
                        {"type": "boolean"}
                        if name
                        in (
                            "wilds_may_outnumber_naturals",
                            "black_three_freezes",
                            "concealed_canasta_bonus",
                        )
                        else {"type": "array", "items": {"type": "object"}}
                        if name == "meld_minimums"
                        else {"type": "integer", "nullable": name == "concealed_going_out_bonus"}
                    )
                    for name in OPTION_NAMES
                },
            },
            "Result": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "side": {"type": "integer"},
                    **{name: {"type": "integer", "minimum": 0} for name in INTEGER_FIELDS},
                    **{name: {"type": "boolean"} for name in BOOLEAN_FIELDS},
                },
            },
            "Deal": {
                "type": "object",
                "required": ["results"],
                "additionalProperties": False,
                "properties": {
                    "results": {"type": "array", "items": {"$ref": "#/components/schemas/Result"}},
                    "version": {"type": "integer"},
                },
            },
            "NewGame": {
                "type": "object",
                "required": ["sides"],
                "additionalProperties": False,
                "properties": {
                    "variant": {"type": "string", "enum": list(VARIANTS)},
                    "first_dealer": {"type": "integer", "minimum": 0},
                    "options": {"$ref": "#/components/schemas/Options"},
                    "sides": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {
                                "name": {"type": "string"},
                                "players": {"type": "array", "items": {"type": "string"}},
                                "start": {"type": "integer"},
                                "cards": {
                                    "type": "array",
                                    "items": {"type": "string"},
                                    "description": (
                                        "The card each player drew for seats (POST "
                                        "/api/seat-draw), in player order; all sides or "
                                        "none. Kept with the game and in its export."
                                    ),
                                },
                            },
                        },
                    },
                },
            },
        },
    },
    "paths": {
        "/api/variants": {"get": {"summary": "Every rule set", "responses": _answers()}},
        "/api/games": {
            "get": {
                "summary": "Games, newest first",
                "parameters": [{"name": "page", "in": "query", "schema": {"type": "integer"}}],
                "responses": _answers(400),
            },
            "post": {
                "summary": "Create a game (its answer carries the token)",
                "requestBody": {
                    "required": True,
                    **_json({"$ref": "#/components/schemas/NewGame"}),
                },
                "responses": _answers(400, 413, 415, 422, 429, ok=201),
            },
        },
        "/api/games/import": {
            "post": {
                "summary": "Create a game from an export",
                "requestBody": {"required": True, **_json({"type": "object"})},
                "responses": _answers(400, 413, 415, 422, 429, ok=201),
            }
        },
        "/api/games/{game_id}": {
            "get": {
                "summary": "A game (410 once deleted)",
                "parameters": [_GAME_ID],
                "responses": _answers(404, 410),
            },
            "delete": {
                "summary": "Delete a game (it leaves every list; restore brings it back)",
                "security": _BEARER,
                "parameters": [_GAME_ID],
                "responses": _answers(403, 404, 409),
            },
        },
        "/api/games/{game_id}/restore": {
            "post": {
                "summary": "Restore a deleted game",
                "security": _BEARER,
                "parameters": [_GAME_ID],
                "responses": _answers(403, 404, 409),
            }
        },
        "/api/games/{game_id}/changes": {
            "get": {
                "summary": "The game's change log, newest first",
                "parameters": [_GAME_ID],
                "responses": _answers(404),
            }
        },
        "/api/games/{game_id}/changes/{change_id}/undo": {
            "post": {
                "summary": "Undo any change of the game (an undo's undo does it again)",
                "security": _BEARER,
                "parameters": [_GAME_ID, _CHANGE_ID, _KEY],
                "responses": _answers(400, 403, 404, 409, 410, 422),
            }
        },
        "/api/games/{game_id}/export": {
            "get": {
                "summary": "A game's export",
                "parameters": [_GAME_ID],
                "responses": _answers(404, 410),
            }
        },
        "/api/games/{game_id}/deals": {
            "post": {
                "summary": "Record the next deal (Idempotency-Key makes a retry safe)",
                "security": _BEARER,
                "parameters": [_GAME_ID, _KEY],
                "requestBody": {"required": True, **_json({"$ref": "#/components/schemas/Deal"})},
                "responses": _answers(400, 403, 404, 409, 410, 413, 415, 422, ok=201),
            }
        },
        "/api/games/{game_id}/deals/{number}": {
            "get": {
                "summary": "A deal (its ETag names the deal and its version)",
                "parameters": [_GAME_ID, _NUMBER],
                "responses": _answers(404, 410),
            },
            "put": {
                "summary": "Replace a deal (with If-Match or version: only if unchanged since)",
                "security": _BEARER,
                "parameters": [_GAME_ID, _NUMBER, _IF_MATCH, _KEY],
                "requestBody": {"required": True, **_json({"$ref": "#/components/schemas/Deal"})},
                "responses": _answers(400, 403, 404, 409, 410, 413, 415, 422),
            },
            "delete": {
                "summary": "Delete a deal; later deals move up (If-Match: only if unchanged)",
                "security": _BEARER,
                "parameters": [_GAME_ID, _NUMBER, _IF_MATCH],
                "responses": _answers(403, 404, 409, 410),
            },
        },
        "/api/seat-draw": {
            "post": {
                "summary": "Draw for seats: sides, seats clockwise from the highest, first dealer",
                "requestBody": {
                    "required": True,
                    **_json(
                        {
                            "type": "object",
                            "required": ["draws"],
                            "additionalProperties": False,
                            "properties": {
                                "variant": _CONTEXT["variant"],
                                "draws": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "required": ["player", "card"],
                                        "additionalProperties": False,
                                        "properties": {
                                            "player": {"type": "string"},
                                            "card": {"type": "string"},
                                        },
                                    },
                                },
                            },
                        }
                    ),
                },
                "responses": {
                    **_answers(
                        400,
                        415,
                        schema={
                            "type": "object",
                            "properties": {
                                "sides": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "players": {
                                                "type": "array",
                                                "items": {"type": "string"},
                                            }
                                        },
                                    },
                                },
                                "seats": {"type": "array", "items": {"type": "string"}},
                                "first_dealer": {"type": "string"},
                            },
                        },
                    ),
                    "422": {
                        "description": "Refused; with redraw, who draws again",
                        **_json(
                            {
                                "allOf": [
                                    _ERROR,
                                    {
                                        "type": "object",
                                        "properties": {
                                            "redraw": {
                                                "type": "array",
                                                "items": {"type": "string"},
                                            }
                                        },
                                    },
                                ]
                            }
                        ),
                    },
                },
            }
        },
        "/api/check/meld": {
            "post": {
                "summary": "Is this meld legal?",
                "requestBody": {
                    "required": True,
                    **_json(
                        {
                            "type": "object",
                            "required": ["cards"],
                            "additionalProperties": False,
                            "properties": {
                                **_CONTEXT,
                                "cards": _CARDS,
                                "going_out": {"type": "boolean"},
                            },
                        }
                    ),
                },
                "responses": _answers(400, 404, 415, 422),
            }
        },
        "/api/check/initial-meld": {
            "post": {
                "summary": "Do these melds reach the minimum?",
                "requestBody": {
                    "required": True,
                    **_json(
                        {
                            "type": "object",
                            "required": ["melds"],
                            "additionalProperties": False,
                            "properties": {
                                **_CONTEXT,
                                "score": {"type": "integer"},
                                "side": {"type": "integer"},
                                "melds": {"type": "array", "items": _CARDS},
                                "pile_top": {"type": "string", "nullable": True},
                            },
                        }
                    ),
                },
                "responses": _answers(400, 404, 415, 422),
            }
        },
        "/api/check/pickup": {
            "post": {
                "summary": "May this side take the discard pile?",
                "requestBody": {
                    "required": True,
                    **_json(
                        {
                            "type": "object",
                            "required": ["top"],
                            "additionalProperties": False,
                            "properties": {
                                **_CONTEXT,
                                "top": {"type": "string"},
                                "frozen": {"type": "boolean"},
                                "side_has_melded": {"type": "boolean"},
                                "hand": _CARDS,
                                "natural_matches": {"type": "integer"},
                                "wild_cards": {"type": "integer"},
                                "cards_in_hand": {"type": "integer"},
                                "side_melds": _CARDS,
                                "full_melds": _CARDS,
                                "pile_size": {"type": "integer"},
                            },
                        }
                    ),
                },
                "responses": _answers(400, 404, 415, 422),
            }
        },
        "/api/check/going-out": {
            "post": {
                "summary": "May the player go out, and is it concealed?",
                "requestBody": {
                    "required": True,
                    **_json(
                        {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {
                                **_CONTEXT,
                                "canastas": {
                                    "type": "object",
                                    "additionalProperties": {"type": "integer"},
                                },
                                "cards_left": {"type": "integer"},
                                "last_discard": {"type": "string", "nullable": True},
                                "melded_before": {"type": "boolean"},
                            },
                        }
                    ),
                },
                "responses": _answers(400, 404, 415, 422),
            }
        },
    },
}


@bp.get("/openapi.json")
def openapi() -> Response:
    """This API described for tools (OpenAPI 3.0)."""
    return jsonify(SPEC)
