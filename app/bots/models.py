"""Bot seats and table clocks in the database; the schema comes from migration ``0003_bots``.

Kept apart from ``app/persistence/models.py`` (same ``Base``): a bot seat is an ordinary ``seat`` row with
``is_bot`` set and no token, plus its level here; a table's ``turn_timer`` / ``stand_in`` settings live in
``table_clock`` (no row = timer off, no stand-in).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.persistence.models import Base


class BotSeat(Base):
    """The level (``easy`` / ``normal`` / ``hard``) of a bot seat."""

    __tablename__ = "bot_seat"

    seat_id: Mapped[int] = mapped_column(ForeignKey("seat.id", ondelete="CASCADE"), primary_key=True)
    level: Mapped[str] = mapped_column(String(16))


class TableClock(Base):
    """A table's ``turn_timer`` (``off``, ``relaxed``, ``fast`` or a correspondence length ``1h`` ... ``3d``) and
    ``stand_in`` options; ``timer_set_at``: when the mode was last set (migration ``0007_far_correspondence_clock``)."""

    __tablename__ = "table_clock"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True)
    turn_timer: Mapped[str] = mapped_column(String(16), default="off")
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False)
    timer_set_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
