"""The fan-out: what the realtime hub sends every socket of a table after a change (the table, one view per seat,
the redacted events since a version), and the per-process cache of running tables that lets most fan-outs run
with no query at all.

The cache is kept current by what this process hears: its own commits, and every table notification (another
process's command is applied with the deterministic engine, C-10; a lobby change drops the table, and so does a
lost LISTEN connection for every table). A fan-out uses it only if it holds the latest version this process has
heard of; a full read begun before a drop is not cached.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy.orm import Session

from app import metrics
from app.rules.core.ruleset import JSONDict
from app.settings import Settings

from .base import GameRef, LazyRedaction, Notifier, Step
from .history import History, Steps
from .repo import GameRepo
from .tables import Tables


class _NeedsDatabase(Exception):
    """An extension asked for the database during a fan-out made on the event loop."""


class _NoDatabase:
    """The session of a fan-out made on the event loop (``fanout_cached``): any use raises ``_NeedsDatabase``, and
    the fan-out is made in a worker thread instead."""

    def __getattr__(self, name: str) -> Any:
        raise _NeedsDatabase(name)


_NO_DATABASE = cast(Session, _NoDatabase())


@dataclass
class FanoutData:
    """What the hub needs to update every socket of one table after a change."""

    table: JSONDict
    seat_ids: list[int]
    game_id: int | None
    version: int
    engine_seat: dict[int, int]
    views: dict[int | None, JSONDict | None]
    steps: list[tuple[int, JSONDict]] = field(default_factory=list)
    # The cached table info ``table`` was made from (a fan-out from the hot cache; ``None`` after a read): the same
    # object for as long as the table's lobby has not changed, so the hub can tell an unchanged table cheaply.
    table_base: JSONDict | None = None


@dataclass
class _Hot:
    """What the last full fan-out read of a running table found, kept up to date by this process's own
    commands and by the notifications of the others, so a fan-out usually needs no query."""

    game_id: int
    version: int
    ruleset: str
    seats: list[Any]
    table: JSONDict
    seat_ids: list[int]
    steps: deque[tuple[int, JSONDict]]
    # The version of the game's latest stored snapshot, as far as this process knows (a step from another process
    # is assumed to have stored one when it was due: ``snapshot_every``).
    snapshot_version: int = 0


@dataclass(frozen=True)
class HotGame:
    """What the command path's one-round-trip attempt needs of a running table this process keeps current."""

    game_id: int
    version: int
    snapshot_version: int
    ruleset: str
    seats: list[Any]


class Fanout:
    """Fan-out data per table change, with the hot cache of running tables: over the repo, the table info
    (``tables``), recomputed history (``history``) and the notifier (a write lost in an unknown state wakes the
    sockets to read the table)."""

    def __init__(self, repo: GameRepo, tables: Tables, history: History, notifier: Notifier,
                 settings: Settings) -> None:
        self.repo = repo
        self.tables = tables
        self.history = history
        self.notifier = notifier
        self.settings = settings
        self._hot: OrderedDict[str, _Hot] = OrderedDict()
        self._hot_lock = threading.Lock()
        # The highest version of each table this process has heard of (its commits, notifications): a cached
        # table behind it is not used. Bounded; a table forgotten here is dropped from the cache too.
        self._heard: OrderedDict[str, int] = OrderedDict()
        # Bumped whenever cached tables are dropped for a change they cannot follow (``forget``).
        self._epoch = 0
        # (table id, version) of the commands this process is writing right now (``committing``): their own
        # notification may come back before the writer has updated the cache and woken the hub itself.
        self._committing: set[tuple[str, int]] = set()

    @contextmanager
    def committing(self, table_id: str, version: int) -> Iterator[None]:
        """Around the write of ``version`` of ``table_id`` by this process: its notification, if it arrives
        meanwhile, is left to the writer (which updates the cache and wakes the hub after the commit). A write that
        fails in an unknown state (the connection broke) drops the table and wakes the hub to read it."""
        with self._hot_lock:
            self._committing.add((table_id, version))
        ok = False
        try:
            yield
            ok = True
        finally:
            with self._hot_lock:
                self._committing.discard((table_id, version))
            if not ok:
                self.forget(table_id)
                self.notifier.after_commit(table_id, 0)

    def _hear(self, table_id: str, version: int) -> None:
        """``table_id`` is at ``version`` at least (call with ``_hot_lock`` held)."""
        if version > self._heard.get(table_id, 0):
            self._heard[table_id] = version
            self._heard.move_to_end(table_id)
            while len(self._heard) > 2 * max(self.settings.state_cache_size, 1000):
                self._hot.pop(self._heard.popitem(last=False)[0], None)

    def forget(self, table_id: str | None = None) -> None:
        """Drop ``table_id`` (``None``: every table) from the hot cache: it changed in a way only a full read
        follows (a lobby change), or this process may have missed notifications (its LISTEN connection was
        lost). A full read already under way does not cache what it read."""
        with self._hot_lock:
            self._epoch += 1
            if table_id is None:
                self._hot.clear()
            else:
                self._hot.pop(table_id, None)

    def notified(self, table_id: str, version: int | None, step: Step | None) -> bool:
        """A table notification (``app.realtime.backends``): a command with its step is applied to the cached copy
        (``apply_step``); a command without one (too large to carry) makes the next fan-out read; a lobby change
        (no version) drops the table. True: a command this process is still writing (``committing``), whose
        writer updates the cache and wakes the hub itself."""
        if not version:
            self.forget(table_id)
            return False
        with self._hot_lock:
            if (table_id, version) in self._committing:
                return True
            if step is None:
                self._hear(table_id, version)
                return False
        self.apply_step(table_id, version, step)
        return False

    def hot_step(self, table_id: str, game_id: int, version: int, redacted: JSONDict, over: bool,
                  snapshot: bool | None = None) -> None:
        """``version`` of the game was accepted (``snapshot``: with a stored snapshot; ``None``: another process's
        step, assumed to have stored one when it was due)."""
        with self._hot_lock:
            self._hear(table_id, version)
            hot = self._hot.get(table_id)
            if hot is None or (hot.game_id == game_id and hot.version == version):
                return  # nothing cached, or this step is in already (the notification came first)
            if over or hot.game_id != game_id or hot.version != version - 1:
                del self._hot[table_id]  # the next fan-out reads everything
                return
            hot.steps.append((version, redacted))
            hot.version = version
            if snapshot is None:
                snapshot = version - hot.snapshot_version >= self.settings.snapshot_every
            if snapshot:
                hot.snapshot_version = version

    def recent_steps(self, table_id: str, game_id: int, since: int, upto: int) -> Steps | None:
        """The steps ``since + 1 .. upto`` of the game from the hot cache, or ``None`` if it lacks one."""
        with self._hot_lock:
            hot = self._hot.get(table_id)
            if hot is None or hot.game_id != game_id:
                return None
            steps = [step for step in hot.steps if since < step[0] <= upto]
        return steps if len(steps) == upto - since else None

    def hot_game(self, table_id: str) -> HotGame | None:
        """The running game of ``table_id`` as this process's hot cache has it (``None`` if not cached). It may be
        behind the database: a writer must guard on its version."""
        with self._hot_lock:
            hot = self._hot.get(table_id)
            if hot is None:
                return None
            return HotGame(hot.game_id, hot.version, hot.snapshot_version, hot.ruleset, hot.seats)

    def apply_step(self, table_id: str, version: int, step: Step) -> None:
        """Another process accepted ``step`` at ``version``: bring this process's copy of the running table (hot
        cache and state) from ``version - 1`` to ``version`` with the deterministic engine (C-10), so its fan-out
        and its next command need no read of the game. A copy that is not exactly one behind is left to the
        next fan-out's full read (it drops the table from the hot cache)."""
        with self._hot_lock:
            self._hear(table_id, version)
            hot = self._hot.get(table_id)
            if hot is None or hot.game_id != step.game_id or hot.version >= version:
                return
            ruleset_id, players = hot.ruleset, len(hot.seats)
        state = self.repo.states.get(step.game_id, version - 1)
        if state is None:
            self.hot_step(table_id, step.game_id, version, {}, True)  # forget: behind, the next read catches up
            return
        ruleset = self.repo.ruleset(ruleset_id)
        new_state, events = ruleset.apply(state, step.seat, ruleset.parse_command(step.command))
        self.repo.states.put(step.game_id, version, new_state)
        self.hot_step(table_id, step.game_id, version, LazyRedaction(ruleset, players, events, step.by, step.seat),
                       ruleset.is_over(new_state))

    def _hot_fanout(self, s: Session, table_id: str, seat_ids: set[int | None], since: int) -> FanoutData | None:
        with self._hot_lock:
            hot = self._hot.get(table_id)
            if hot is None or hot.version < self._heard.get(table_id, 0):
                return None
            game_id, version = hot.game_id, hot.version
            steps = [step for step in hot.steps if step[0] > since]
            oldest = hot.steps[0][0] if hot.steps else version + 1
        if since < oldest - 1 or since > version:
            return None
        state = self.repo.states.get(game_id, version)
        if state is None:
            return None
        ruleset = self.repo.ruleset(hot.ruleset)
        table = dict(hot.table, game={**hot.table["game"], "version": version})
        data = FanoutData(table=table, seat_ids=hot.seat_ids, game_id=game_id, version=version,
                          engine_seat={entry["seat_id"]: i for i, entry in enumerate(hot.seats)}, views={},
                          steps=steps, table_base=hot.table)
        seats = {self.engine_seat_in(hot.seats, seat_id) for seat_id in seat_ids}
        data.views.update(ruleset.player_views(state, seats))  # one view per distinct seat
        self.tables.decorate(s, table_id, GameRef(game_id, version, "playing", hot.ruleset, hot.seats),
                             data.views.values())
        return data

    @staticmethod
    def engine_seat_in(seats: list[Any], seat_id: int | None) -> int | None:
        if seat_id is None:
            return None
        return next((i for i, entry in enumerate(seats) if entry["seat_id"] == seat_id), None)

    def fanout_cached(self, table_id: str, seat_ids: set[int | None], since: int) -> FanoutData | None:
        """``fanout`` from the hot cache alone, with no I/O (for the event loop); ``None`` when that needs the
        database (the table is not cached or is behind, or an extension reads for its views)."""
        if table_id not in self._hot:
            return None
        try:
            data = self._hot_fanout(_NO_DATABASE, table_id, seat_ids, since)
        except _NeedsDatabase:
            return None
        if data is not None:
            metrics.FANOUT_WAKEUPS.inc()
        return data

    def cached_view(self, table_id: str, seat_id: int | None, version: int) -> JSONDict | None:
        """The view of ``seat_id`` at ``version`` from the hot cache alone, with no I/O (for the event loop); ``None``
        when that needs the database or the cached copy is at another version."""
        try:
            data = self._hot_fanout(_NO_DATABASE, table_id, {seat_id}, version)
        except _NeedsDatabase:
            return None
        if data is None or data.version != version:
            return None
        return data.views.get(data.engine_seat.get(seat_id) if seat_id is not None else None)

    async def fanout_on_loop(self, table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
        """The hub's fan-out, on the event loop: a running table this process keeps current is fanned out there
        (no I/O, no thread hop), anything else in a worker thread."""
        cached = self.fanout_cached(table_id, seat_ids, since)
        if cached is not None:
            return cached
        return await asyncio.to_thread(self.fanout, table_id, seat_ids, since)

    def fanout(self, table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
        """The table, its game's version, one view per seat asked for, and the stored redacted events
        after ``since`` (connected flags are the hub's to fill in)."""
        metrics.FANOUT_WAKEUPS.inc()
        if table_id in self._hot:
            with self.repo.db.peek() as s:  # for the extensions (no connection is taken unless one reads)
                fast = self._hot_fanout(s, table_id, seat_ids, since)
            if fast is not None:
                return fast
        metrics.FANOUT_SLOW.inc()
        epoch = self._epoch
        with self.repo.db.read() as s:
            table = self.repo.table(s, table_id)
            game = self.repo.game(s, table_id)
            seats = self.repo.seats(s, table_id)
            data = FanoutData(table=self.tables.info(s, table, seats, game, with_game=game is not None),
                              seat_ids=[x.id for x in seats], game_id=None, version=0,
                              engine_seat={x.id: x.position for x in seats}, views={})
            if game is None:
                return data
            data.game_id, data.version = game.id, game.version
            data.engine_seat = {entry["seat_id"]: i for i, entry in enumerate(game.seats)}
            ruleset = self.repo.ruleset(game.ruleset)
            if since < game.version:
                # Bounded by the version read above: under READ COMMITTED a command committed since is in the
                # next frame, never in this one (nor, through the hot cache, in both). Recomputed by the engine,
                # which leaves the state at that version in the state cache for the views.
                data.steps = self.history.steps(s, ruleset, game, since, game.version)
            state = self.repo.state(s, ruleset, game)
            engine_seats = {self.repo.engine_seat(game, seat_id) for seat_id in seat_ids}
            data.views.update(ruleset.player_views(state, engine_seats))  # one view per distinct seat
            self.tables.decorate(s, table_id, game, data.views.values())
            if game.status == "playing" and self.settings.state_cache_size > 0:
                with self._hot_lock:
                    if epoch != self._epoch:
                        return data  # a change this read may have missed dropped cached tables meanwhile
                    self._hot[table_id] = _Hot(game.id, game.version, game.ruleset,
                                               list(game.seats), data.table, list(data.seat_ids),
                                               deque(data.steps, maxlen=64), game.snapshot_version)
                    self._hot.move_to_end(table_id)
                    while len(self._hot) > self.settings.state_cache_size:
                        self._hot.popitem(last=False)
            return data

