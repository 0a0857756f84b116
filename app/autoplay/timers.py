"""Turn timers and stand-ins as data: the table's clock, deadlines and what views show.

A decision's clock starts when the game reaches its current version (the last accepted command, or the
start of the game: a game is dealt only once every seat accepted it), but never before the timer's mode was set
(``table_clock.timer_set_at``: switching a timer on, or to another length, starts a full decision). Both moments
are stored, so the deadline is the same whichever server process computes it, before or after a restart or a
takeover: a crash does not start a turn's clock again (a crash loop cannot hold a turn forever), and a deadline
that passed while no process could act (a database outage, every process down) is acted on as soon as one can.
Correspondence timers (``1h``, ``12h``, ``1d``, ``3d``: friends in other time zones) work the same way. When a
decision's time runs out, the ``easy`` bot makes that one decision for the seat.

The seats a stand-in plays for are stored with the table's duty lease (``app.autoplay.leases``), so every process
reports the same ``stand_ins`` and the same seats on the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, get_args

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.bots import LEVELS
from app.persistence.models import Game, GameCommand, Seat
from app.services.games import GameRef

from .models import BotSeat, DutyLease, TableClock
from .settings import BotSettings

TimerMode = Literal["off", "relaxed", "fast", "1h", "12h", "1d", "3d"]
TIMER_MODES: tuple[str, ...] = get_args(TimerMode)
# Correspondence play: hours and days per decision.
CORRESPONDENCE_SECONDS = {"1h": 3600.0, "12h": 12 * 3600.0, "1d": 24 * 3600.0, "3d": 3 * 24 * 3600.0}


@dataclass(frozen=True)
class Clock:
    turn_timer: str = "off"
    stand_in: bool = False
    set_at: datetime | None = None  # when ``turn_timer`` was last set (unknown for tables of older versions)
    stand_in_level: str | None = None  # the stand-in's level chosen for the table (``None``: the server's default)

    def level(self, settings: BotSettings) -> str:
        """The level of the bot that stands in at this table."""
        return self.stand_in_level or settings.stand_in_level

    @property
    def ordinary(self) -> bool:
        """No timer and no stand-ins: nothing for the runner to do at this table."""
        return self.turn_timer == "off" and not self.stand_in


def timer_seconds(mode: str, settings: BotSettings) -> float | None:
    """The length of a decision under ``turn_timer = mode`` (``None`` = no timer)."""
    if mode == "relaxed":
        return settings.relaxed_seconds
    if mode == "fast":
        return settings.fast_seconds
    return CORRESPONDENCE_SECONDS.get(mode)


def is_correspondence(mode: str) -> bool:
    """A timer of hours or days, which runs from its stored start across restarts."""
    return mode in CORRESPONDENCE_SECONDS


def clock(s: Session, table_id: str) -> Clock:
    row = s.get(TableClock, table_id)
    if row is None:
        return Clock()
    return Clock(row.turn_timer, row.stand_in, _utc_or_none(row.timer_set_at), row.stand_in_level)


def _utc_or_none(moment: datetime | None) -> datetime | None:
    return None if moment is None else _utc(moment)


def _memo(s: Session, table_id: str) -> dict[str, Any]:
    memo: dict[str, Any] = s.info.setdefault(("phase10.bots", table_id), {})
    return memo


def session_clock(s: Session, table_id: str) -> Clock:
    """``clock``, read at most once per session: one fan-out's table info and views share one read."""
    memo = _memo(s, table_id)
    if "clock" not in memo:
        memo["clock"] = clock(s, table_id)
    result: Clock = memo["clock"]
    return result


def session_levels(s: Session, table_id: str) -> dict[int, str]:
    """``bot_levels``, read at most once per session."""
    memo = _memo(s, table_id)
    if "levels" not in memo:
        memo["levels"] = bot_levels(s, table_id)
    return dict(memo["levels"])


def session_stand_ins(s: Session, table_id: str, table_clock: Clock) -> frozenset[int]:
    """The seat ids a stand-in plays for now, as stored by the table's lease holder (none without ``stand_in``);
    read at most once per session."""
    if not table_clock.stand_in:
        return frozenset()
    memo = _memo(s, table_id)
    if "stand_ins" not in memo:
        lease = s.get(DutyLease, table_id)
        memo["stand_ins"] = frozenset() if lease is None else frozenset(int(x) for x in lease.stand_ins)
    result: frozenset[int] = memo["stand_ins"]
    return result


def forget(s: Session, table_id: str) -> None:
    """Drop what this session remembers of the table's clock and bot seats (after changing them)."""
    s.info.pop(("phase10.bots", table_id), None)


def store_clock(s: Session, table_id: str, turn_timer: str | None = None, stand_in: bool | None = None,
                stand_in_level: str | None = None) -> TableClock:
    """Set a table's clock options (``None`` leaves one as it is); the caller bumps the revision if needed."""
    row = s.get(TableClock, table_id)
    if row is None:
        row = TableClock(table_id=table_id, turn_timer="off", stand_in=False)
        s.add(row)
    if turn_timer is not None:
        if turn_timer not in TIMER_MODES:
            raise ValueError(f"unknown turn_timer {turn_timer!r}")
        if row.turn_timer != turn_timer or row.timer_set_at is None:
            row.timer_set_at = datetime.now(UTC)
        row.turn_timer = turn_timer
    if stand_in is not None:
        row.stand_in = stand_in
    if stand_in_level is not None:
        if stand_in_level not in LEVELS:
            raise ValueError(f"unknown stand_in_level {stand_in_level!r}")
        row.stand_in_level = stand_in_level
    s.flush()
    forget(s, table_id)
    return row


def bot_levels(s: Session, table_id: str) -> dict[int, str]:
    """Seat id -> level of every bot seat at the table."""
    rows = s.execute(select(BotSeat.seat_id, BotSeat.level).join(Seat, Seat.id == BotSeat.seat_id)
                     .where(Seat.table_id == table_id)).all()
    return {seat_id: level for seat_id, level in rows}


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def since(s: Session, game: Game | GameRef) -> datetime:
    """When the game reached its current version (the game's ``created_at`` is read when not known)."""
    if game.version:
        at = s.scalar(select(GameCommand.created_at).where(GameCommand.game_id == game.id,
                                                           GameCommand.seq == game.version))
        if at is not None:
            return _utc(at)
    created = game.created_at
    if created is None:
        created = s.scalar(select(Game.created_at).where(Game.id == game.id))
        assert created is not None
    return _utc(created)


def deadline(s: Session, game: Game | GameRef, mode: str, settings: BotSettings,
             floor: datetime | None = None, start: datetime | None = None) -> datetime | None:
    """When the current decision's time runs out. ``floor``: the clock never started before it (the stored moment
    the timer's mode was set), so nobody loses a turn to a timer that was not running. ``start``: ``since(s,
    game)`` when the caller already knows it."""
    seconds = timer_seconds(mode, settings)
    if seconds is None:
        return None
    start = since(s, game) if start is None else start
    if floor is not None and floor > start:
        start = floor
    return start + timedelta(seconds=seconds)
