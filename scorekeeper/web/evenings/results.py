"""An evening's public results page (issue 44): the standings, every round's tables with
their totals and each table's deals, a link and QR code to share, printable on A4; and the
standings as a file (``files.py``). Read-only and secret-free, at one address for good."""

from __future__ import annotations

import io
import re
import unicodedata

from flask import Response, abort, render_template, send_file
from markupsafe import Markup

from ...caching import cached, evening_view
from ...i18n import current_language
from ...store import results as store_results
from ...store.evenings import EveningView
from ...store.results import Results
from .. import bp
from .director import NO_EVENING, stamp_or_404
from .files import standings_csv, standings_xlsx

#: The spreadsheet's media type.
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _results_or_404(evening_id: str) -> Results:
    found = store_results.results(evening_id)
    if found is None:
        abort(404, str(NO_EVENING))
    return found


def _content(evening_id: str) -> tuple[str, str]:
    """The evening's name and the page's own part, rendered once per state of the evening
    (and language) and kept."""
    stamp = stamp_or_404(evening_id)

    def render() -> tuple[str, str]:
        found = _results_or_404(evening_id)
        html = render_template("evenings/_results.html", results=found, evening=found.evening)
        return found.evening.name, html

    kept: tuple[str, str] = cached(("results", evening_id), render, at=stamp.key)
    return kept


@bp.get("/evenings/<evening_id>/results")
def evening_results(evening_id: str) -> str:
    """The evening's results, for anyone with the address: nothing on it changes anything."""
    name, content = _content(evening_id)
    return render_template(
        "evenings/results.html", evening_id=evening_id, name=name, content=Markup(content)
    )


def file_name(name: str, evening_id: str, suffix: str) -> str:
    """A download's name from the evening's: its letters and digits, words joined by
    hyphens (``Tuesday club`` → ``Tuesday-club-standings.csv``); its id when none is left."""
    words = re.findall(r"\w+", unicodedata.normalize("NFC", name))
    stem = "-".join(words)[:60].strip("-_") or evening_id
    return f"{stem}-standings.{suffix}"


def _download(evening: EveningView, suffix: str, mimetype: str, data: bytes) -> Response:
    """A file to keep (Content-Disposition: attachment, named after the evening), in the
    request's language, which the headers say it varies by."""
    response = send_file(
        io.BytesIO(data),
        mimetype=mimetype,
        as_attachment=True,
        download_name=file_name(evening.name, evening.id, suffix),
        max_age=0,
    )
    response.headers["Content-Language"] = current_language()
    response.vary.update(("Accept-Language", "Cookie"))
    return response


def _evening_or_404(evening_id: str) -> EveningView:
    found = evening_view(evening_id)
    if found is None:
        abort(404, str(NO_EVENING))
    return found


@bp.get("/evenings/<evening_id>/standings.csv")
def standings_csv_file(evening_id: str) -> Response:
    """The standings and every round's tables as CSV, headed in the page's language."""
    found = _evening_or_404(evening_id)
    return _download(found, "csv", "text/csv", standings_csv(found))


@bp.get("/evenings/<evening_id>/standings.xlsx")
def standings_xlsx_file(evening_id: str) -> Response:
    """The same as a spreadsheet: a sheet of standings and a sheet of tables."""
    found = _evening_or_404(evening_id)
    return _download(found, "xlsx", XLSX, standings_xlsx(found))
