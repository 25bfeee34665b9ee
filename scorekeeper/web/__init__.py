"""The pages: home, new game, score sheet, deal entry."""

from __future__ import annotations

from flask import Blueprint, Flask, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

bp = Blueprint("web", __name__)

from . import checks, games, rules  # noqa: E402,F401  (registers the views on bp)


def register_error_pages(app: Flask) -> None:
    """Errors in the page's own words; the API answers JSON (see ``api``)."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> ResponseReturnValue:
        if request.path.startswith("/api/"):
            from ..api import error_response

            return error_response(400, "The request lacks a valid CSRF token.")
        return render_template(
            "error.html",
            title="Page expired",
            message="This page was open too long or in another browser. "
            "Go back, reload the page and try again: nothing was saved.",
        ), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if request.path.startswith("/api/"):
            from ..api import error_response

            message = error.description or error.name
            if error.code == 413:
                message = "The request body is too large."
            return error_response(error.code or 500, message)
        return render_template(
            "error.html", title=error.name, message=error.description
        ), error.code or 500
