"""What the database holds, counted: ``python -m app.admin stats`` prints it, ``/metrics`` exposes a part."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from app.persistence.db import Database
from app.persistence.models import ChatMessage, Game, GameTable, Seat


def game_counts(db: Database) -> tuple[dict[str, int], int]:
    """Games by status (``playing``, ``finished``) and the number of tables without any game yet."""
    with db.read() as s:
        games = {str(status): int(n) for status, n in s.execute(
            select(Game.status, func.count()).group_by(Game.status)).all()}
        waiting = int(s.scalar(select(func.count()).select_from(GameTable)
                               .where(~select(Game.id).where(Game.table_id == GameTable.id).exists())) or 0)
    return games, waiting


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def database_stats(db: Database) -> dict[str, Any]:
    """Counts of tables, games (by status and rule set), commands, seats and chat messages, and the oldest and
    newest table."""
    games, waiting = game_counts(db)
    with db.read() as s:
        by_ruleset = {str(r): int(n) for r, n in s.execute(
            select(Game.ruleset, func.count()).group_by(Game.ruleset).order_by(Game.ruleset)).all()}
        oldest, newest = s.execute(select(func.min(GameTable.created_at), func.max(GameTable.created_at))).one()
        return {
            "tables": int(s.scalar(select(func.count()).select_from(GameTable)) or 0),
            "tables_waiting": waiting,
            "games": {"playing": games.get("playing", 0), "finished": games.get("finished", 0)},
            "games_by_ruleset": by_ruleset,
            # A game's commands are numbered 1 .. its version: summed from the game rows, not counted row by row
            # over the whole history.
            "commands": int(s.scalar(select(func.coalesce(func.sum(Game.version), 0))) or 0),
            "seats": int(s.scalar(select(func.count()).select_from(Seat)) or 0),
            "bot_seats": int(s.scalar(select(func.count()).select_from(Seat).where(Seat.is_bot.is_(True))) or 0),
            "chat_messages": int(s.scalar(select(func.count()).select_from(ChatMessage)) or 0),
            "oldest_table": _iso(oldest),
            "newest_table": _iso(newest),
        }
