"""The tables: a game, its sides and players, and each deal's entries per side."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, false, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import db


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Game(db.Model):  # type: ignore[name-defined]
    __tablename__ = "game"

    #: Public, unguessable id: it is in the score sheet's address.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: SHA-256 of the game's secret (the API's ``token``); the secret itself is never stored.
    token_hash: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(32))
    #: The house options the table chose, as given (RULES.md section 6).
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: Seat index of the player who dealt the first deal.
    first_dealer: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    #: Moves by one with every change of the game (its deals, its players' names), in the
    #: change's transaction: the ETag of its pages and the key of what is cached of them.
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    #: Cached from the rules engine after every change, only so the home page can list
    #: games in progress without replaying each one; the sheet always recomputes.
    finished: Mapped[bool] = mapped_column(default=False, index=True)
    #: Set when the game was deleted: it leaves every list and statistic, and its change
    #: log can bring it back (restore). None while it is listed.
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)
    #: The deal after which the game ends whatever the totals (RULES.md section 11): a club
    #: round's length, lowered to the deals played when the director calls time. None: the
    #: game ends at its target only.
    last_deal: Mapped[int | None] = mapped_column(default=None)
    #: A table of a club evening that asks for results confirmed by the other side: the
    #: SHA-256 of the other side's phone's secret (``store.evenings.confirm_secret``),
    #: which confirms deals and nothing else. None for every other game.
    confirm_hash: Mapped[str | None] = mapped_column(String(64), default=None)

    sides: Mapped[list[Side]] = relationship(
        back_populates="game", order_by="Side.position", cascade="all, delete-orphan"
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="game", order_by="Deal.seq", cascade="all, delete-orphan"
    )
    changes: Mapped[list[Change]] = relationship(
        back_populates="game", order_by="Change.id", cascade="all, delete-orphan"
    )


class Person(db.Model):  # type: ignore[name-defined]
    """Someone on the roster: their seats in every game point here, so their history and
    statistics follow them across games and variants, and a new name keeps them."""

    __tablename__ = "person"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    #: The name folded for matching ("ana" finds "Ana"): one roster entry per name.
    key: Mapped[str] = mapped_column(String(60), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: Moves by one when they are renamed or a game they sat in changes (``changes.commit``):
    #: the key of what is cached of their page.
    version: Mapped[int] = mapped_column(default=1, server_default="1")

    seats: Mapped[list[Player]] = relationship(back_populates="person")


#: The games listed (not deleted) in the history's order, in progress first and newest
#: first: a page of the history is read in this order, not sorted, and counted from it.
#: Partial, so that SQLite's planner takes it for the history even before any ANALYZE.
Index(
    "ix_game_listed",
    Game.finished,
    Game.created_at.desc(),
    Game.id,
    sqlite_where=Game.deleted_at.is_(None),
    postgresql_where=Game.deleted_at.is_(None),
)


class Counter(db.Model):  # type: ignore[name-defined]
    """A number kept under a name, moved by one in the transaction of every change of what
    it counts, and read as one row by its name: the same cost at ten games or ten thousand.
    ``ratings`` (``store.ratings``): the club's ratings and ladder are kept under it;
    ``history`` (``store.history``): the history page, moved by every change it shows."""

    __tablename__ = "counter"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[int] = mapped_column(default=1, server_default="1")


class Side(db.Model):  # type: ignore[name-defined]
    __tablename__ = "side"
    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(60))
    #: Total carried over from a game begun on paper.
    start: Mapped[int] = mapped_column(default=0)
    #: Cached from the rules engine after every change of the game (``rules.stats``), so
    #: that lists and statistics need not replay every game: the running total, the
    #: outcome ("won", "lost", "open") and the rest of the side's ``SideRecord``.
    total: Mapped[int] = mapped_column(default=0)
    outcome: Mapped[str] = mapped_column(String(8), default="open")
    record: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    game: Mapped[Game] = relationship(back_populates="sides")
    players: Mapped[list[Player]] = relationship(
        back_populates="side", order_by="Player.position", cascade="all, delete-orphan"
    )


class Player(db.Model):  # type: ignore[name-defined]
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("side_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(60))
    #: Who sat here, from the roster; None for a seat named only "Us 1" by default.
    person_id: Mapped[int | None] = mapped_column(
        ForeignKey("person.id", ondelete="SET NULL"), index=True, default=None
    )

    #: The card this player drew for seats (``QS``), when the table drew; else None.
    card: Mapped[str | None] = mapped_column(String(4), default=None)

    side: Mapped[Side] = relationship(back_populates="players")
    person: Mapped[Person | None] = relationship(back_populates="seats")


class Deal(db.Model):  # type: ignore[name-defined]
    __tablename__ = "deal"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    #: Order of entry; the deal's number is its place in that order (deleting one
    #: renumbers the later ones without rewriting them).
    seq: Mapped[int]
    #: Bumped on every edit, for the optimistic check when two phones edit one deal.
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: When the other side of a club table confirmed the deal as it stands (a game with a
    #: ``confirm_hash``); an edit of the deal, or an undo that changes it, clears it.
    confirmed_at: Mapped[datetime | None] = mapped_column(default=None)

    game: Mapped[Game] = relationship(back_populates="deals")
    results: Mapped[list[DealResult]] = relationship(
        back_populates="deal", order_by="DealResult.side_position", cascade="all, delete-orphan"
    )


class DealResult(db.Model):  # type: ignore[name-defined]
    """One side's entries for one deal: exactly the inputs of ``rules.SideResult``."""

    __tablename__ = "deal_result"
    __table_args__ = (UniqueConstraint("deal_id", "side_position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deal.id", ondelete="CASCADE"))
    side_position: Mapped[int]
    meld_points: Mapped[int] = mapped_column(default=0)
    natural_canastas: Mapped[int] = mapped_column(default=0)
    mixed_canastas: Mapped[int] = mapped_column(default=0)
    wild_canastas: Mapped[int] = mapped_column(default=0)
    sevens_canastas: Mapped[int] = mapped_column(default=0)
    concealed_canastas: Mapped[int] = mapped_column(default=0)
    red_threes: Mapped[int] = mapped_column(default=0)
    went_out: Mapped[bool] = mapped_column(default=False)
    concealed: Mapped[bool] = mapped_column(default=False)
    hand_points: Mapped[int] = mapped_column(default=0)
    # The Canasta family's figures (RULES.md section 10); 0 in every other rule set.
    sequence_canastas: Mapped[int] = mapped_column(default=0, server_default="0")
    deuce_canastas: Mapped[int] = mapped_column(default=0, server_default="0")
    joker_canastas: Mapped[int] = mapped_column(default=0, server_default="0")
    black_threes_in_hand: Mapped[int] = mapped_column(default=0, server_default="0")
    black_threes_taken: Mapped[int] = mapped_column(default=0, server_default="0")
    # Modern American, Hand and Foot and Burraco (RULES.md sections 13 to 15).
    aces_canastas: Mapped[int] = mapped_column(default=0, server_default="0")
    semi_natural_canastas: Mapped[int] = mapped_column(default=0, server_default="0")
    black_threes: Mapped[int] = mapped_column(default=0, server_default="0")
    red_threes_in_hand: Mapped[int] = mapped_column(default=0, server_default="0")
    aces_or_sevens_held: Mapped[int] = mapped_column(default=0, server_default="0")
    unfinished_aces: Mapped[bool] = mapped_column(default=False, server_default=false())
    unfinished_sevens: Mapped[bool] = mapped_column(default=False, server_default=false())
    unfinished_wild: Mapped[bool] = mapped_column(default=False, server_default=false())
    pot_missed: Mapped[bool] = mapped_column(default=False, server_default=false())
    special_hand: Mapped[str | None] = mapped_column(String(16), default=None)

    deal: Mapped[Deal] = relationship(back_populates="results")


class Change(db.Model):  # type: ignore[name-defined]
    """One change to a game, as its change log keeps it: what it did, when, from which
    phone, and the deal's entries before and after it. Deals stay stored as inputs; the
    log is how they got there, and what an undo reads."""

    __tablename__ = "change"
    __table_args__ = (
        Index("ix_change_game_id_id", "game_id", "id"),
        # A key makes one change per game. Only changes that carry one are indexed (most
        # have none); the key leads, so a new game's key is found without its game.
        Index(
            "uq_change_request_key_game_id",
            "request_key",
            "game_id",
            unique=True,
            sqlite_where=text("request_key IS NOT NULL"),
            postgresql_where=text("request_key IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    #: ``game-created``, ``deal-recorded``, ``deal-edited``, ``deal-deleted``,
    #: ``game-deleted``, ``game-restored``, ``undo`` or ``player-renamed``.
    kind: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    #: The label of the phone that made it ("Ana's phone"), or of the API client.
    device: Mapped[str] = mapped_column(String(60), default="")
    #: The deal's identity (``Deal.seq``) and its number when the change was made.
    deal_seq: Mapped[int | None] = mapped_column(default=None)
    deal_number: Mapped[int | None] = mapped_column(default=None)
    #: The deal before and after the change (``{"version": n, "results": [one object
    #: per side, as entries_json writes them]}``); None where the deal did not exist.
    #: A rename keeps ``{"person": id, "name": ...}``.
    before: Mapped[Any] = mapped_column(JSON, nullable=True, default=None)
    after: Mapped[Any] = mapped_column(JSON, nullable=True, default=None)
    #: The change an ``undo`` reverted.
    undoes: Mapped[int | None] = mapped_column(ForeignKey("change.id"), default=None)
    #: Whether a later ``undo`` reverted this change (and was not itself undone).
    undone: Mapped[bool] = mapped_column(default=False)
    #: Written by the migration that started the log, from the deals as they stood.
    reconstructed: Mapped[bool] = mapped_column(default=False)
    #: The page form's nonce or the API's Idempotency-Key that made it: a retried
    #: request makes the change once, even after the change was undone or its deal deleted.
    request_key: Mapped[str | None] = mapped_column(String(64), default=None)
    #: SHA-256 (hex) of what that request asked (its route, its target and its body, as
    #: ``changes.request_keys.fingerprint`` writes it): the same key asking something else is
    #: refused. None for keys kept before it was (and for changes without a key).
    request_hash: Mapped[str | None] = mapped_column(String(64), default=None)

    game: Mapped[Game] = relationship(back_populates="changes")


class Evening(db.Model):  # type: ignore[name-defined]
    """A club evening (RULES.md section 11): its tables play rounds, each table's round an
    ordinary game. Standings are recomputed from those games; nothing here is a score."""

    __tablename__ = "evening"

    #: Public, unguessable id: it is in the director's page's address.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: SHA-256 of the director's secret; each table's scorer secret is derived from the
    #: secret and the table's game (``store.evenings.table_secret``), so none is stored.
    token_hash: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(60))
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: ``pairs`` or ``individual`` (``rules.Format``).
    format: Mapped[str] = mapped_column(String(12))
    rounds: Mapped[int]
    deals_per_round: Mapped[int]
    minutes_per_round: Mapped[int | None] = mapped_column(default=None)
    #: How rounds after the first are seated: ``swiss``, ``mitchell`` or ``round_robin``
    #: (``rules.Movement``).
    movement: Mapped[str] = mapped_column(String(12), default="swiss", server_default="swiss")
    #: How a table's result ranks: None for match points, else API.md's
    #: ``{"victory_points": <a published scale's name or its steps>}`` (RULES.md section 16).
    scoring: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    #: The victory points a bye scores (with victory points only).
    bye_vp: Mapped[int] = mapped_column(default=12, server_default="12")
    #: Each deal is confirmed on the other side's phone (its table card's second code).
    confirmations: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: The club's season the evening counts for (it joined with the season's secret).
    season_id: Mapped[str | None] = mapped_column(ForeignKey("season.id"), index=True, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: Moves by one when a round starts or closes or seats are swapped (the director's
    #: commands read it); its pages are keyed by its ``EveningStamp``.
    version: Mapped[int] = mapped_column(default=1, server_default="1")

    players: Mapped[list[EveningPlayer]] = relationship(
        back_populates="evening",
        order_by="(EveningPlayer.entrant, EveningPlayer.position)",
        cascade="all, delete-orphan",
    )
    played_rounds: Mapped[list[EveningRound]] = relationship(
        back_populates="evening", order_by="EveningRound.number", cascade="all, delete-orphan"
    )


class EveningStamp(db.Model):  # type: ignore[name-defined]
    """The version of everything an evening's pages show (``evenings.stamp_of``): moved by
    the commit step with every command of the evening, every change of one of its tables'
    games and every rename of someone present. A row of its own, not a column of the
    evening's: a command locks the evening's row before its tables' games, a deal its game
    before this row, and the two must never wait on each other."""

    __tablename__ = "evening_stamp"

    evening_id: Mapped[str] = mapped_column(
        ForeignKey("evening.id", ondelete="CASCADE"), primary_key=True
    )
    value: Mapped[int] = mapped_column(default=1, server_default="1")


class EveningChange(db.Model):  # type: ignore[name-defined]
    """One command of the evening's director, as the evening's log keeps it: what it did
    (its tables' games log what it did to each of them) and the request's key, so that a
    retried command acts once."""

    __tablename__ = "evening_change"
    __table_args__ = (
        Index("ix_evening_change_evening_id_id", "evening_id", "id"),
        # As the games' log: a key makes one command per evening, and leads the index.
        Index(
            "uq_evening_change_request_key_evening_id",
            "request_key",
            "evening_id",
            unique=True,
            sqlite_where=text("request_key IS NOT NULL"),
            postgresql_where=text("request_key IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[str] = mapped_column(ForeignKey("evening.id", ondelete="CASCADE"))
    #: ``evening-created``, ``round-started``, ``round-closed`` or ``seats-swapped``.
    kind: Mapped[str] = mapped_column(String(16))
    #: The round the command was of (None for the evening's creation).
    round: Mapped[int | None] = mapped_column(default=None)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    device: Mapped[str] = mapped_column(String(60), default="")
    #: As ``Change.request_key`` and ``Change.request_hash``.
    request_key: Mapped[str | None] = mapped_column(String(64), default=None)
    request_hash: Mapped[str | None] = mapped_column(String(64), default=None)


class EveningPlayer(db.Model):  # type: ignore[name-defined]
    """A player present at an evening, from the roster, and who they are ranked with: the
    entrant (a pair, or the player alone) and their place in it."""

    __tablename__ = "evening_player"
    __table_args__ = (
        UniqueConstraint("evening_id", "entrant", "position", name="uq_evening_player_seat"),
        UniqueConstraint("evening_id", "person_id", name="uq_evening_player_person"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[str] = mapped_column(ForeignKey("evening.id", ondelete="CASCADE"))
    entrant: Mapped[int]
    position: Mapped[int]
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"), index=True)

    evening: Mapped[Evening] = relationship(back_populates="players")
    person: Mapped[Person] = relationship()


class EveningRound(db.Model):  # type: ignore[name-defined]
    """A round as seated: its tables' games and the entrants sitting out."""

    __tablename__ = "evening_round"
    __table_args__ = (UniqueConstraint("evening_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[str] = mapped_column(ForeignKey("evening.id", ondelete="CASCADE"))
    number: Mapped[int]
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: When the director called time (closed the round), if they did.
    closed_at: Mapped[datetime | None] = mapped_column(default=None)
    #: The entrants (``EveningPlayer.entrant``) sitting out this round.
    byes: Mapped[list[int]] = mapped_column(JSON, default=list)

    evening: Mapped[Evening] = relationship(back_populates="played_rounds")
    tables: Mapped[list[EveningTable]] = relationship(
        back_populates="round", order_by="EveningTable.number", cascade="all, delete-orphan"
    )


class EveningTable(db.Model):  # type: ignore[name-defined]
    """A table of a round: its number in the room and the game it plays."""

    __tablename__ = "evening_table"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("evening_round.id", ondelete="CASCADE"))
    number: Mapped[int]
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), unique=True)

    round: Mapped[EveningRound] = relationship(back_populates="tables")
    game: Mapped[Game] = relationship()


class Season(db.Model):  # type: ignore[name-defined]
    """A club's season (API.md "Seasons and results"): evenings that joined it add up to
    its ladder by their places (``rules.season``); nothing here is a score."""

    __tablename__ = "season"

    #: Public, unguessable id: it is in the season's page's address.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: SHA-256 of the season director's secret (evenings join with it; it edits the points).
    token_hash: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(60))
    #: The season points of 1st, 2nd, ... place of an evening (``rules.season``).
    points: Mapped[list[int]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: Moves by one with each change of the season (its points, an evening joining).
    version: Mapped[int] = mapped_column(default=1, server_default="1")


class SeasonStamp(db.Model):  # type: ignore[name-defined]
    """The version of what a season's page shows of its evenings (``seasons.stamp_of``):
    moved by the commit step whenever one of its evenings' stamps moves. Apart from the
    season's row for the reason ``EveningStamp`` is apart from the evening's."""

    __tablename__ = "season_stamp"

    season_id: Mapped[str] = mapped_column(
        ForeignKey("season.id", ondelete="CASCADE"), primary_key=True
    )
    value: Mapped[int] = mapped_column(default=1, server_default="1")


class SeasonChange(db.Model):  # type: ignore[name-defined]
    """One command of the season's director, with the request's key: a retried command
    acts once (as ``EveningChange``)."""

    __tablename__ = "season_change"
    __table_args__ = (
        Index("ix_season_change_season_id_id", "season_id", "id"),
        Index(
            "uq_season_change_request_key_season_id",
            "request_key",
            "season_id",
            unique=True,
            sqlite_where=text("request_key IS NOT NULL"),
            postgresql_where=text("request_key IS NOT NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[str] = mapped_column(ForeignKey("season.id", ondelete="CASCADE"))
    #: ``season-created``, ``points-changed`` or ``evening-joined``.
    kind: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    device: Mapped[str] = mapped_column(String(60), default="")
    request_key: Mapped[str | None] = mapped_column(String(64), default=None)
    request_hash: Mapped[str | None] = mapped_column(String(64), default=None)
