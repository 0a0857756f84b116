"""Web Push in the database: the server's VAPID key pair and the seats' push subscriptions.

The schema comes from migration ``0010_push_subscriptions``. Kept apart from ``models.py`` (same ``Base``), like
the bot models: a subscription belongs to one seat (deleted with it); one browser may subscribe several seats.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, utcnow


class PushKey(Base):
    """The server's VAPID key pair (one row, ``id`` 1), made on first start unless given in settings."""

    __tablename__ = "push_key"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_key: Mapped[str] = mapped_column(Text)  # PEM (PKCS#8)
    public_key: Mapped[str] = mapped_column(String(128))  # uncompressed P-256 point, base64url
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushSubscription(Base):
    """A browser's push subscription for one seat. ``turn_key`` / ``reminder_key`` name the last turn
    (``game:version``) this subscription was alerted for, so two processes never send the same alert twice."""

    __tablename__ = "push_subscription"
    __table_args__ = (UniqueConstraint("seat_id", "endpoint", name="uq_push_subscription_seat_endpoint"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seat.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024))
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    lang: Mapped[str] = mapped_column(String(8), default="en")
    turn_key: Mapped[str | None] = mapped_column(String(48), nullable=True)
    reminder_key: Mapped[str | None] = mapped_column(String(48), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
