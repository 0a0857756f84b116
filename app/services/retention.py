"""Retention: what the database keeps, and the prune that deletes the rest.

Three settings (days; 0 keeps forever), applied in this order:

* ``retention_finished_days``: a finished game (its record and replay) goes this long after it ended;
* ``retention_idle_days``: a running game nobody has played (no accepted command, or none since it started)
  for this long goes;
* ``retention_unstarted_days``: a table without any game (never started, or every game pruned) goes this long
  after it was made, with its seats, bot seats, clock and chat.

A table keeps its other games when one of them goes (a finished game 1 stays replayable after an abandoned
rematch is pruned). Deletes rely on the schema's ``ON DELETE CASCADE`` (commands with their game; seats, chat
and clock with their table). The same prune runs periodically in each server process (``PruneTask``) and as
``python -m app.admin prune [--dry-run]``; it is idempotent, so processes pruning at once only repeat work.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app import metrics
from app.persistence.db import Database
from app.persistence.models import Game, GameCommand, GameTable, utcnow
from app.settings import Settings

log = logging.getLogger("phase10.retention")


@dataclass(frozen=True)
class Policy:
    """How long each kind of data is kept (``None``: forever)."""

    unstarted: timedelta | None
    idle: timedelta | None
    finished: timedelta | None

    @classmethod
    def of(cls, settings: Settings) -> Policy:
        def days(value: float) -> timedelta | None:
            return timedelta(days=value) if value > 0 else None

        return cls(days(settings.retention_unstarted_days), days(settings.retention_idle_days),
                   days(settings.retention_finished_days))


@dataclass(frozen=True)
class PruneReport:
    """What a prune deleted (or, dry, would delete): ids of whole tables, ids of games, commands with them."""

    tables: list[str]
    finished_games: list[int]
    idle_games: list[int]
    commands: int
    dry_run: bool

    def summary(self) -> dict[str, int | bool]:
        return {"tables": len(self.tables), "finished_games": len(self.finished_games),
                "idle_games": len(self.idle_games), "commands": self.commands, "dry_run": self.dry_run}


def _finished_games(s: Session, cutoff: datetime) -> list[int]:
    return list(s.scalars(select(Game.id).where(Game.status == "finished", Game.finished_at < cutoff)
                          .order_by(Game.id)))


def _idle_games(s: Session, cutoff: datetime) -> list[int]:
    last = (select(func.max(GameCommand.created_at)).where(GameCommand.game_id == Game.id)
            .correlate(Game).scalar_subquery())
    return list(s.scalars(select(Game.id).where(Game.status == "playing",
                                                func.coalesce(last, Game.created_at) < cutoff)
                          .order_by(Game.id)))


def _empty_tables(s: Session, cutoff: datetime, without: set[int]) -> list[str]:
    """Tables made before ``cutoff`` with no game left once the games in ``without`` are gone."""
    remaining = select(Game.id).where(Game.table_id == GameTable.id)
    if without:
        remaining = remaining.where(Game.id.not_in(without))
    return list(s.scalars(select(GameTable.id).where(GameTable.created_at < cutoff, ~remaining.exists())
                          .order_by(GameTable.id)))


def prune(db: Database, policy: Policy, now: datetime | None = None, dry_run: bool = False) -> PruneReport:
    """Delete (unless ``dry_run``) what ``policy`` no longer keeps, in one transaction."""
    now = now or utcnow()
    with db.write() as s:
        finished = _finished_games(s, now - policy.finished) if policy.finished else []
        idle = _idle_games(s, now - policy.idle) if policy.idle else []
        games = set(finished) | set(idle)
        tables = _empty_tables(s, now - policy.unstarted, games) if policy.unstarted else []
        # Commands that go: those of the pruned games and of every game of a pruned table.
        doomed = select(Game.id).where(Game.id.in_(games) | Game.table_id.in_(tables))
        commands = int(s.scalar(select(func.count()).select_from(GameCommand)
                                .where(GameCommand.game_id.in_(doomed))) or 0)
        report = PruneReport(tables, finished, idle, commands, dry_run)
        if dry_run:
            return report
        if games:
            s.execute(delete(Game).where(Game.id.in_(games)))
        if tables:
            s.execute(delete(GameTable).where(GameTable.id.in_(tables)))
    metrics.PRUNED.labels("tables").inc(len(tables))
    metrics.PRUNED.labels("games").inc(len(games))
    if tables or games:
        log.info("pruned %d tables, %d finished and %d idle games, %d commands", len(tables), len(finished),
                 len(idle), commands)
    return report


class PruneTask:
    """Runs ``prune`` every ``settings.prune_every_hours`` in a server process (first run one period after the
    start, so a fleet restarting together does not prune at once)."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.policy = Policy.of(settings)
        self.period = settings.prune_every_hours * 3600
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.period > 0:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            try:
                await asyncio.to_thread(prune, self.db, self.policy)
            except Exception:
                log.exception("prune failed")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None
