"""SQLAlchemy 2 typed models. Alembic owns the schema (``migrations/``); a test checks both agree."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    PrimaryKeyConstraint,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class GameTable(Base):
    """A hosted private table: rule set, engine options, table settings, hashed join code."""

    __tablename__ = "game_table"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    capacity: Mapped[int] = mapped_column(Integer)
    spectators: Mapped[bool] = mapped_column(Boolean, default=False)
    join_code_hash: Mapped[str] = mapped_column(String(64))
    # Bumped on every lobby change (join, reorder, removal, start, rematch) so sockets refresh table info.
    revision: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A practice table ("Play on from here", ``app.services.practice``): its first game starts at one step of a
    # finished game; ``practice_from`` names it (``{"table_id", "number", "step"}``; no foreign key: the practice
    # table outlives the game it came from).
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    practice_from: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class Seat(Base):
    """A seat at a table; ``position`` is the engine's seat index once the game starts."""

    __tablename__ = "seat"
    __table_args__ = (Index("ix_seat_table_id", "table_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    is_host: Mapped[bool] = mapped_column(Boolean, default=False)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Game(Base):
    """One game at a table (a rematch is the next ``number``): seed, options, version and snapshot."""

    __tablename__ = "game"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_game_table_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    ruleset: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    # Seat ids and names in engine seat order, frozen at the start (the replay record shows them).
    seats: Mapped[list[Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer, default=0)
    # The state at ``snapshot_version`` (taken every few commands and at the end); the state at
    # ``version`` is the snapshot plus the commands after it, replayed.
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)
    snapshot_version: Mapped[int] = mapped_column(Integer, default=0)
    # The snapshot before it (moved here when a new one is stored): a resume from a version between the two
    # replays from here rather than from the seed (``app.services.history``).
    previous_snapshot: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    previous_snapshot_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    winners: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class GameCommand(Base):
    """An accepted command: ``seq`` is the game version it produced (with the game, the key).

    Only what the engine cannot recompute is stored: the seat, the client's command id (a resend is told from a
    new command by it) and the command. Its events, and each seat's and a spectator's redaction of them, are
    recomputed from the game's snapshot or seed by the deterministic engine (C-10) when a resume with ``since``,
    a resend or a replay needs them (``app.services.history``); a process that accepted or heard the command keeps
    the recent ones in its fan-out cache.
    """

    __tablename__ = "game_command"
    __table_args__ = (
        PrimaryKeyConstraint("game_id", "seq", name="pk_game_command"),
        UniqueConstraint("game_id", "command_id", name="uq_game_command_command_id"),
    )

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    command_id: Mapped[str] = mapped_column(String(64))
    command: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Who made the seat's decision for it, if not the seat itself: its turn timer ("timer") or a stand-in
    # ("stand_in"); the recomputed events of its own move say so (``app.services.base.attributed``).
    made_by: Mapped[str | None] = mapped_column(String(16), nullable=True)


class GameCommandPack(Base):
    """A finished game's commands, packed: the rows of ``game_command`` moved into one compressed value when the
    game finished (``app.persistence.commands``). ``commands`` is how many it holds (1 .. that number)."""

    __tablename__ = "game_command_pack"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    commands: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class JoinFailure(Base):
    """A wrong join code (``app.services.security.JoinLimiter``): the table and client address it came from.

    The limiter counts these rows in a sliding window, so every server process sharing the database enforces
    one limit; rows older than the window are deleted as new failures arrive.
    """

    __tablename__ = "join_failure"
    __table_args__ = (
        Index("ix_join_failure_table_id_failed_at", "table_id", "failed_at"),
        Index("ix_join_failure_address_failed_at", "address", "failed_at"),
        Index("ix_join_failure_failed_at", "failed_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # No foreign key: a row outlives nothing it needs, and it expires with the window anyway.
    table_id: Mapped[str] = mapped_column(String(32))
    address: Mapped[str] = mapped_column(String(255))
    failed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMessage(Base):
    """A table chat message or quick reaction (``app/web/chat.py``): kept out of the game record.

    Only the last 50 of a table are kept (each insert deletes the older ones). Inserts at one table are
    serialized (``app.services.chat``), so ``id`` orders a table's messages as they were committed, and it is
    unique across server processes. ``seat_id`` (the seat row, no foreign key: a removed seat's words stay)
    counts the per-seat rate limit; ``seat`` and ``name`` are what the table showed when it was said.
    """

    __tablename__ = "chat_message"
    __table_args__ = (Index("ix_chat_message_table_id_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str | None] = mapped_column(String(300), nullable=True)
    emoji: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Seconds since the epoch (the wire's ``at``), from the posting process's wall clock.
    at: Mapped[float] = mapped_column(Float)


class ReplayShare(Base):
    """A read-only link to one finished game's replay (``app.services.shares``): whoever holds its token may
    read that game's record and steps, nothing else of the table. Only the token's SHA-256 is stored; the host
    (or the seat that made it) revokes it by deleting the row."""

    __tablename__ = "replay_share"
    __table_args__ = (Index("ix_replay_share_game_id", "game_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The seat row that made it (no foreign key: a link outlives its maker's seat until the host revokes it).
    created_by: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
