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
``python -m app.admin prune [--dry-run]``; it is idempotent, so processes pruning at once only repeat
work. It deletes in short transactions of ``PRUNE_BATCH`` games or tables, resting between them as long as each took
(``PRUNE_REST``), so a prune of thousands of games never holds the tables that play for long.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.orm import Session

from app import metrics
from app.persistence.db import Database
from app.persistence.models import Game, GameCommand, GameTable, utcnow
from app.settings import Settings

log = logging.getLogger("phase10.retention")

PRUNE_BATCH = 50  # games (or tables) deleted per transaction
# After each transaction the prune rests this many times as long as the transaction took: it takes at most half
# of the database's time (its deletes and their WAL flushes) from the tables that play meanwhile.
PRUNE_REST = 1.0


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


def _finished(cutoff: datetime) -> ColumnElement[bool]:
    return (Game.status == "finished") & (Game.finished_at < cutoff)


def _idle(cutoff: datetime) -> ColumnElement[bool]:
    last = (select(func.max(GameCommand.created_at)).where(GameCommand.game_id == Game.id)
            .correlate(Game).scalar_subquery())
    return (Game.status == "playing") & (func.coalesce(last, Game.created_at) < cutoff)


def _unstarted(cutoff: datetime) -> ColumnElement[bool]:
    return (GameTable.created_at < cutoff) & ~select(Game.id).where(Game.table_id == GameTable.id).exists()


def _empty_tables(s: Session, cutoff: datetime, without: set[int]) -> list[str]:
    """Tables made before ``cutoff`` with no game left once the games in ``without`` are gone."""
    remaining = select(Game.id).where(Game.table_id == GameTable.id)
    if without:
        remaining = remaining.where(Game.id.not_in(without))
    return list(s.scalars(select(GameTable.id).where(GameTable.created_at < cutoff, ~remaining.exists())
                          .order_by(GameTable.id)))


def _chunks(ids: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


def prune(db: Database, policy: Policy, now: datetime | None = None, dry_run: bool = False,
          batch: int = PRUNE_BATCH, rest: float = PRUNE_REST) -> PruneReport:
    """Delete (unless ``dry_run``) what ``policy`` no longer keeps: found in one read, deleted ``batch`` games or
    tables per transaction (each short, so the tables that play meanwhile never wait long), each delete checking
    its condition again (a game played or a table started since the read stays), resting ``rest`` times as long
    as each transaction took before the next."""

    def resting(statement: Any) -> None:
        began = time.perf_counter()
        with db.write() as s:
            s.execute(statement, execution_options={"synchronize_session": False})
        if rest > 0:
            time.sleep(rest * (time.perf_counter() - began))

    now = now or utcnow()
    with db.read() as s:
        finished = list(s.scalars(select(Game.id).where(_finished(now - policy.finished)).order_by(Game.id))) \
            if policy.finished else []
        idle = list(s.scalars(select(Game.id).where(_idle(now - policy.idle)).order_by(Game.id))) \
            if policy.idle else []
        games = set(finished) | set(idle)
        tables = _empty_tables(s, now - policy.unstarted, games) if policy.unstarted else []
        # Commands that go with the games: a game's commands are numbered 1 .. its version.
        commands = sum(int(s.scalar(select(func.coalesce(func.sum(Game.version), 0))
                                    .where(Game.id.in_(chunk))) or 0) for chunk in _chunks(sorted(games), 1000))
    report = PruneReport(tables, finished, idle, commands, dry_run)
    if dry_run:
        return report
    doomed: list[tuple[list[int], ColumnElement[bool]]] = []
    if policy.finished:
        doomed.append((finished, _finished(now - policy.finished)))
    if policy.idle:
        doomed.append((idle, _idle(now - policy.idle)))
    for ids, condition in doomed:
        for chunk in _chunks(ids, batch):
            resting(delete(Game).where(Game.id.in_(chunk), condition))
    if policy.unstarted:
        for chunk in _chunks(tables, batch):
            resting(delete(GameTable).where(GameTable.id.in_(chunk), _unstarted(now - policy.unstarted)))
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
