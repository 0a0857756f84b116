"""Turn timers and stand-ins as data (issue 7): the table's clock, deadlines and what views show.

A decision's clock starts when the game reaches its current version (the last accepted command, or the
start of the game) — derived from stored timestamps, so it survives a restart — but never before the timer
was switched on or the server (re)started: nobody loses a decision to a clock that was not running. When it runs out,
the ``easy`` bot makes that one decision for the seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.persistence.models import Game, GameCommand, Seat

from .models import BotSeat, TableClock
from .settings import BotSettings

TIMER_MODES = ("off", "relaxed", "fast")


@dataclass(frozen=True)
class Clock:
    turn_timer: str = "off"
    stand_in: bool = False


def timer_seconds(mode: str, settings: BotSettings) -> float | None:
    """The length of a decision under ``turn_timer = mode`` (``None`` = no timer)."""
    if mode == "relaxed":
        return settings.relaxed_seconds
    if mode == "fast":
        return settings.fast_seconds
    return None


def clock(s: Session, table_id: str) -> Clock:
    row = s.get(TableClock, table_id)
    return Clock() if row is None else Clock(row.turn_timer, row.stand_in)


def bot_levels(s: Session, table_id: str) -> dict[int, str]:
    """Seat id -> level of every bot seat at the table."""
    rows = s.execute(select(BotSeat.seat_id, BotSeat.level).join(Seat, Seat.id == BotSeat.seat_id)
                     .where(Seat.table_id == table_id)).all()
    return {seat_id: level for seat_id, level in rows}


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def since(s: Session, game: Game) -> datetime:
    """When the game reached its current version."""
    if game.version:
        at = s.scalar(select(GameCommand.created_at).where(GameCommand.game_id == game.id,
                                                           GameCommand.seq == game.version))
        if at is not None:
            return _utc(at)
    return _utc(game.created_at)


def deadline(s: Session, game: Game, mode: str, settings: BotSettings,
             floor: datetime | None = None) -> datetime | None:
    """When the current decision's time runs out. ``floor``: the clock never started before it (the
    moment this process saw the timer switched on, or started), so nobody loses a turn to a timer that
    was not running."""
    seconds = timer_seconds(mode, settings)
    if seconds is None:
        return None
    start = since(s, game)
    if floor is not None and floor > start:
        start = floor
    return start + timedelta(seconds=seconds)


def timer_json(s: Session, game: Game | None, mode: str, settings: BotSettings, seats: list[int],
               now: datetime | None = None, floor: datetime | None = None) -> dict[str, Any] | None:
    """What every view and the table info show: the timer mode, the seats on the clock and the time left."""
    if game is None or game.status != "playing":
        return None
    seconds = timer_seconds(mode, settings)
    if seconds is None:
        return None
    end = deadline(s, game, mode, settings, floor)
    assert end is not None
    now = now or datetime.now(UTC)
    return {"mode": mode, "seconds": seconds, "version": game.version, "seats": seats,
            "deadline": end.isoformat(), "remaining": max(0.0, round((end - now).total_seconds(), 1))}
