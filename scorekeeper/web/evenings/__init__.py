"""A club evening's pages: the new evening, the director's page, the table cards and the
standings (``views.py``); who directs it (``director.py``); their forms (``forms.py``)."""

from . import director, views  # noqa: F401  (registers the views on the blueprint)
