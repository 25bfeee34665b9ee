"""The limits of what a person or a client may enter, one set for every door: the deal
and new-game forms, the API, an imported export and a restored backup read these names, so
a game one door accepts every other door takes back.

Each is far past anything a table plays; beyond it a value is a slip, not a game.
"""

from __future__ import annotations

#: The most a deal's figure of card points may be (meld, hand; a deal form's sum).
MAX_FIGURE = 100_000
#: The most canastas of one kind (or red threes) a side lays down, whatever the packs.
MAX_CANASTAS = 99
#: A total carried over from paper lies within this, either side of 0.
MAX_START = 1_000_000
#: The highest target a table may set: beyond it a game could not end in one evening.
MAX_TARGET = 1_000_000
#: The highest bonus (or meld minimum) a house option may set.
MAX_BONUS = 100_000
#: Longest name for a side or a player; longer would not fit a phone's score sheet.
MAX_NAME = 40
#: A phone's label in the change log.
MAX_DEVICE = 60
#: Longest request key (a deal form's nonce, an API Idempotency-Key).
MAX_REQUEST_KEY = 64
#: Longest game secret pasted into the join form.
MAX_SECRET = 100
#: Longest card notation read; a longer string is not a hand of cards.
MAX_CARDS = 60
#: More draws for seats than any table seats is not a draw.
MAX_DRAWS = 12
#: The melds one initial-meld check weighs at most.
MAX_MELDS = 20
#: The most cards or canastas a rules check counts.
MAX_COUNT = 1000
#: The last page of a list a client may ask for.
MAX_PAGE = 1_000_000
#: The tables' whole numbers (PostgreSQL's ``integer``): no id, deal number, version or
#: place (``seq``) is past it, so a larger one names nothing.
MAX_ID = 2**31 - 1


def most_of(figure: str) -> int:
    """The most a deal's figure may be: points up to ``MAX_FIGURE``, counts ``MAX_CANASTAS``."""
    return MAX_FIGURE if figure.endswith("_points") else MAX_CANASTAS


#: The most deals a club round may last: a round is an hour or two at a table.
MAX_DEALS = 100
#: The most rounds of a club evening, and the most minutes one round may last.
MAX_ROUNDS = 20
MAX_MINUTES = 600
#: The most players a club evening seats (the issue's largest evening is 30 tables).
MAX_ENTRANTS = 240
