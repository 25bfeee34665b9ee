"""The new-game page and the draw for seats: its views (``views.py``) and its form
(``forms.py``)."""

from . import views  # noqa: F401  (registers the views on the blueprint)
