"""The stored analysis of a finished game (migration ``0013_game_analysis``; same ``Base`` as
``app/persistence/models.py``, kept beside the analysis like the bot models beside the bots): one row per game,
deleted with it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from app.persistence.models import Base, utcnow


class GameAnalysis(Base):
    """``result`` is the analysis JSON (``Analysis.to_json``) in format ``version`` (``ANALYSIS_VERSION``);
    ``cpu_seconds`` the CPU time computing it took."""

    __tablename__ = "game_analysis"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    cpu_seconds: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
