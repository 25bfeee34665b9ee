"""A club evening's pages: the new evening, the director's page, the table cards and the
standings (``views.py``); who directs it (``director.py``); each player's guide
(``guide.py``); the screen for the room (``screen.py``); a table's scorer once time is
called (``time_called.py``); the public results page and the standings as a file
(``results.py``, ``files.py``); their forms (``forms.py``)."""

from . import (  # noqa: F401  (registers the views on the blueprint)
    director,
    guide,
    results,
    screen,
    time_called,
    views,
)
