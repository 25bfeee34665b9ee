"""A club season's pages: a new season, the season's page with its evenings, ladder and
chart, and its director's points table (``views.py``); which seasons this browser directs
(``director.py``); the chart of places (``chart.py``)."""

from . import views  # noqa: F401  (registers the views on the blueprint)
