"""Analyses computed off the command path: read a finished game's record, analyse it (``review.analyse``), store
the result once (table ``game_analysis``).

Each server process has one worker thread for them: the first request for a game's analysis schedules it and is
answered "pending"; a game already scheduled or being computed is not scheduled twice. Two processes asked for
the same game at once may both compute it; the first row stored wins and the other is dropped (the analysis is
deterministic, so both are the same). A stored analysis of an older format ``version`` is computed again.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.persistence.commands import read_commands
from app.persistence.db import Database
from app.persistence.models import Game
from app.rules.core.ruleset import JSONDict
from app.rules.registry import AnyRuleset

from .marks import ANALYSIS_VERSION
from .models import GameAnalysis
from .review import analyse

log = logging.getLogger("phase10.analysis")



class NotFinished(Exception):
    """The game is not finished (or does not exist): it has no analysis."""


def stored(db: Database, game_id: int) -> JSONDict | None:
    """The stored analysis of ``game_id`` in the current format, if there is one."""
    with db.read() as s:
        row = s.get(GameAnalysis, game_id)
        return row.result if row is not None and row.version == ANALYSIS_VERSION else None


def compute(db: Database, rulesets: Any, game_id: int) -> JSONDict:
    """Analyse a finished game from its stored record and store the result (in this thread); returns it, or the
    analysis stored already. ``rulesets`` maps a rule set id to its rule set (``registry.get``)."""
    with db.read() as s:
        done = s.get(GameAnalysis, game_id)
        if done is not None and done.version == ANALYSIS_VERSION:
            return done.result
        game = s.get(Game, game_id)
        if game is None or game.status != "finished":
            raise NotFinished(game_id)
        rows = [(c.seat, c.command) for c in read_commands(s, game_id)]
        ruleset_id, seed, players, options = game.ruleset, game.seed, game.players, game.options
    ruleset: AnyRuleset = rulesets(ruleset_id)
    started = time.thread_time()
    analysis = analyse(ruleset, seed, players, ruleset.parse_options(options),
                       [(seat, ruleset.parse_command(command)) for seat, command in rows])
    result = analysis.to_json()
    cpu = time.thread_time() - started
    try:
        with db.write() as s:
            row = s.get(GameAnalysis, game_id)
            if row is None:
                s.add(GameAnalysis(game_id=game_id, version=ANALYSIS_VERSION, result=result, cpu_seconds=cpu))
            elif row.version != ANALYSIS_VERSION:
                row.version, row.result, row.cpu_seconds = ANALYSIS_VERSION, result, cpu
    except IntegrityError:
        pass  # another process stored the same analysis first
    log.info("analysed game %d (%s, %d commands) in %.3f s of CPU", game_id, ruleset_id, len(rows), cpu)
    return result


def unanalysed(db: Database, table_id: str | None = None) -> list[int]:
    """The finished games (of ``table_id``, or of every table) with no stored analysis in the current format."""
    with db.read() as s:
        current = select(GameAnalysis.game_id).where(GameAnalysis.version == ANALYSIS_VERSION)
        stmt = select(Game.id).where(Game.status == "finished", Game.id.not_in(current))
        if table_id is not None:
            stmt = stmt.where(Game.table_id == table_id)
        return list(s.scalars(stmt.order_by(Game.id)))


def analyse_finished(db: Database, rulesets: Any, table_id: str | None = None) -> JSONDict:
    """Compute and store, in this thread, the analysis of every finished game that has none (``python -m
    app.admin analyse``); a summary of what was done."""
    games = unanalysed(db, table_id)
    started = time.process_time()
    for game_id in games:
        compute(db, rulesets, game_id)
    return {"analysed": len(games), "cpu_seconds": round(time.process_time() - started, 3)}


class AnalysisWorker:
    """One worker thread per process that computes the analyses asked for (``request``)."""

    def __init__(self, db: Database, rulesets: Any) -> None:
        self.db = db
        self.rulesets = rulesets
        self.computed = 0
        """Analyses this worker computed (a stored one is never computed again)."""
        self._lock = threading.Lock()
        self._jobs: dict[int, Future[None]] = {}
        self._failed: set[int] = set()
        self._executor: ThreadPoolExecutor | None = None

    def request(self, game_id: int) -> bool:
        """Schedule ``game_id``'s analysis unless it is scheduled or running already; ``False`` if it failed
        before in this process (a record the engine refuses: asking again would fail again)."""
        with self._lock:
            if game_id in self._failed:
                return False
            if game_id not in self._jobs:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(1, thread_name_prefix="phase10-analysis")
                self._jobs[game_id] = self._executor.submit(self._run, game_id)
            return True

    def _run(self, game_id: int) -> None:
        try:
            if stored(self.db, game_id) is None:
                compute(self.db, self.rulesets, game_id)
                with self._lock:
                    self.computed += 1
        except Exception:
            log.exception("analysis of game %d failed", game_id)
            with self._lock:
                self._failed.add(game_id)
        finally:
            with self._lock:
                self._jobs.pop(game_id, None)

    def wait(self, timeout: float = 30.0) -> None:
        """Wait until every scheduled analysis is done (tests, shutdown)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                jobs = list(self._jobs.values())
            if not jobs:
                return
            for job in jobs:
                job.result(max(0.0, deadline - time.monotonic()))

    def close(self) -> None:
        """Stop the worker thread; analyses not started are dropped (a later request schedules them again)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
