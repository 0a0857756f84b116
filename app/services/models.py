"""The service's own tables beyond the core schema (same ``Base`` as ``app/persistence/models.py``, like the bot
runner's models):

* rematch offers (migration ``0008_far_rematch_offer``): "Play again" is an offer the players of the finished game
  accept or decline; the next game is dealt only when they did (``app/services/rematch.py``);
* seat transfers (migration ``0009_far_seat_transfer``): a one-time code that moves a seat to another device
  (``app/services/seat_transfer.py``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.persistence.models import Base, utcnow


class RematchOffer(Base):
    """The open offer of a table: the next game after game ``after`` with ``options`` (the host may change them)."""

    __tablename__ = "rematch_offer"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"), primary_key=True)
    after: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    by_seat_id: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RematchAnswer(Base):
    """One human seat's answer to its table's open offer (no row: not answered yet)."""

    __tablename__ = "rematch_answer"

    table_id: Mapped[str] = mapped_column(ForeignKey("rematch_offer.table_id", ondelete="CASCADE"), primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seat.id", ondelete="CASCADE"), primary_key=True)
    accepted: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatTransfer(Base):
    """A seat's open transfer: the hash of its one-time code, valid until ``expires_at``."""

    __tablename__ = "seat_transfer"

    seat_id: Mapped[int] = mapped_column(ForeignKey("seat.id", ondelete="CASCADE"), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_table.id", ondelete="CASCADE"))
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
