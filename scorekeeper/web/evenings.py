"""Club evenings' pages: the director's page (every table live, the rounds, standings)."""

from __future__ import annotations

from flask import abort, render_template

from ..store import evenings
from . import bp


@bp.get("/evenings/<evening_id>")
def evening(evening_id: str) -> str:
    """The evening as it stands: its rounds' tables and the standings."""
    found = evenings.view(evening_id)
    if found is None:
        abort(404)
    return render_template("evenings/show.html", evening=found)
