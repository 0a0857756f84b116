"""Bot seats, table clocks and duty leases in the database; the schema comes from migrations ``0003_bots`` and
``0011_duty_leases``.

Kept apart from ``app/persistence/models.py`` (same ``Base``): a bot seat is an ordinary ``seat`` row with
``is_bot`` set and no token, plus its level here; a table's ``turn_timer`` / ``stand_in`` settings live in
``table_clock`` (no row = timer off, no stand-in).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.persistence.models import Base


class BotSeat(Base):
    """The level (``easy`` / ``normal`` / ``hard``) of a bot seat."""

    __tablename__ = "bot_seat"

    seat_id: Mapped[int] = mapped_column(ForeignKey("seat.id", ondelete="CASCADE"), primary_key=True)
    level: Mapped[str] = mapped_column(String(16))


class TableClock(Base):
    """A table's ``turn_timer`` (``off``, ``relaxed``, ``fast`` or a correspondence length ``1h`` ... ``3d``) and
    ``stand_in`` options; ``timer_set_at``: when the mode was last set (migration ``0007_far_correspondence_clock``);
    ``stand_in_level``: the stand-in bot's level at this table, ``None`` for the server's default (migration
    ``0016_stand_in_level``)."""

    __tablename__ = "table_clock"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True)
    turn_timer: Mapped[str] = mapped_column(String(16), default="off")
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False)
    timer_set_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    stand_in_level: Mapped[str | None] = mapped_column(String(16), nullable=True)


class DutyLease(Base):
    """Which server process holds a table's duties -- its bot, stand-in and turn-timer decisions and its push
    reminders -- and until when (migration ``0011_duty_leases``). The holder renews the lease while it lives;
    one that is not renewed in time (a process killed, a machine gone) is taken over by another process. The row
    also keeps the table's stand-in state, so every process reports the same and a takeover goes on with it:
    ``absent`` (seat id -> when it was first seen with no socket, ISO time) and ``stand_ins`` (the seat ids a
    stand-in plays for now)."""

    __tablename__ = "duty_lease"
    __table_args__ = (Index("ix_duty_lease_expires_at", "expires_at"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    absent: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    stand_ins: Mapped[list[Any]] = mapped_column(JSON, default=list)
