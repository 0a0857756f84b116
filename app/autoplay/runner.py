"""The bot runner: bots, stand-ins and turn timers in a live server, off the request path.

The runner is a ``TableExtension`` of the game service (app/services/games.py), wired by ``app.main.create_app``
(``GameService.add_extension``; ``start``/``stop`` in the app's lifespan). The service calls its hooks itself:

* ``after_commit``: every accepted command and lobby change (REST or websocket) pokes the runner for that table;
* ``table_extras``: table info gains ``bots``, ``turn_timer``, ``stand_in``, ``stand_in_level``, ``stand_ins`` and
  ``timer``;
* ``decorate_views``: every view gains ``timer`` (the time left for the seats on the clock); the table's clock,
  bot seats and stand-ins are read once per batch of views (one fan-out), not once per view.

A table's duties are held by one process at a time through its duty lease (``app.autoplay.leases``): the process that
plans a table first takes the lease, renews it on every tick while it lives, and gives it up when it stops; any
other process that accepts a command there tells the holder at once (``tell_owner``: a NOTIFY on Postgres), and the
holder also notices every new version of its tables on its next tick. A lease left to expire (a process killed
without handing over, a machine gone) is taken over by the next tick of any other process, which plans the table
from the database alone: the timer's deadline and the stand-in state are stored, nothing of it lived only in the
process that died. At start the runner pokes every running game with bots, timers or stand-ins, so after a
restart a game whose turn is a bot's (or whose timer ran out) goes on by itself.

For each table it holds the runner reads the game and, for every awaited seat, schedules one decision: a bot
seat after ``delay_seconds``; a seat disconnected longer than the grace period at a ``stand_in`` table
after ``delay_seconds`` (until it reconnects); any other seat at its ``turn_timer`` deadline, with the
``easy`` logic. A decision is the bot's choice from the seat's view and legal commands only
(``app.bots.driver.bot_inputs``) and, for a level that remembers, the seat's memory of the round
(``app.autoplay.recall``: the events its socket was shown), submitted through ``GameService.submit_as`` —
validated, persisted, published and replayable exactly like a human's — with a deterministic ``command_id`` and
the expected version, so a decision that lost a race (or that two processes both made) is applied at most once.
A decision or a plan that failed (the database was unreachable) is tried again after ``RETRY_SECONDS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from app import metrics
from app.bots import REMEMBERING, choose
from app.bots.driver import bot_inputs
from app.persistence.models import Game, Seat
from app.rules.core.errors import RuleError
from app.rules.core.ruleset import JSONDict
from app.services.base import ATTRIBUTIONS
from app.services.errors import ServiceError
from app.services.games import GameRef, GameService

from .leases import Leases, utc
from .models import BotSeat, DutyLease, TableClock
from .recall import Recall
from .settings import BotSettings
from .timers import (
    Clock,
    bot_levels,
    clock,
    deadline,
    session_clock,
    session_levels,
    session_stand_ins,
    since,
    timer_seconds,
)

log = logging.getLogger("phase10.bots")

# A decision, a plan or a lease tick that failed (the database was unreachable) is tried again after this long.
RETRY_SECONDS = 1.0
# Every this many seconds a process also looks for running games with duties that no live lease covers (a game
# started by a process that died before it planned it).
RESCAN_SECONDS = 30.0
TellOwner = Callable[[Session, str, str], None]


class DutySignal:
    """"This process took a table's duties": the one event the bot runner tells a collaborator built after it.

    It breaks a cycle of the server's graph: the push service reads the runner's turn timers (``table_timer``), so
    it is built on the finished runner, and the runner, when it takes a table's lease, must have the push service
    plan that table's reminders. The signal is made first and given to the runner at construction; the push
    service, once built, is its one listener (``listen``, in ``app.main.create_app``, before anything serves).
    A table taken before that is planned by the push service's own start, which reads every running table with a
    subscription."""

    def __init__(self) -> None:
        self._listener: Callable[[str], None] | None = None

    def listen(self, listener: Callable[[str], None]) -> None:
        if self._listener is not None:
            raise RuntimeError("the duty signal has its listener already")
        self._listener = listener

    def __call__(self, table_id: str) -> None:
        if self._listener is not None:
            self._listener(table_id)


@dataclass(frozen=True)
class Decision:
    """One decision the runner will make for ``seat`` (engine index) at ``version`` of ``game_id``."""

    game_id: int
    version: int
    seat: int
    seat_id: int
    level: str
    kind: str  # "bot" | "stand_in" | "timer"
    wait: float  # seconds from the plan


@dataclass
class Plan:
    game_id: int
    version: int
    decisions: list[Decision] = field(default_factory=list)
    humans: list[int] = field(default_factory=list)  # seat ids of the human players of the game
    stand_in: bool = False
    stand_ins: set[int] = field(default_factory=set)  # seat ids a stand-in plays for now


_ORDINARY = Plan(0, 0)  # what ``_plan`` returns for a table without bots, timer or stand-ins
_ELSEWHERE = Plan(0, 0)  # what ``_plan`` returns for a table whose duties another live process holds


@dataclass(frozen=True)
class TableTimer:
    """A table's running turn timer, read once for a batch of views: each view's ``timer`` differs only in the
    seats on the clock (its awaited seats that are neither bots nor played by a stand-in)."""

    mode: str
    seconds: float
    version: int
    end: datetime
    now: datetime
    seat_ids: list[int]  # engine seat -> seat id
    off_clock: frozenset[int]  # seat ids of bots and of seats a stand-in plays for

    def for_view(self, view: JSONDict) -> JSONDict:
        seats = [seat for seat in view.get("awaited") or ()
                 if 0 <= seat < len(self.seat_ids) and self.seat_ids[seat] not in self.off_clock]
        remaining = max(0.0, round((self.end - self.now).total_seconds(), 1))
        return {"mode": self.mode, "seconds": self.seconds, "version": self.version, "seats": seats,
                "deadline": self.end.isoformat(), "remaining": remaining}


class BotRunner:
    """Schedules and makes bot, stand-in and timer decisions for the tables of this process; the game
    service's ``TableExtension`` for bot seats, clocks and timers."""

    def __init__(self, service: GameService, settings: BotSettings,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC), owner: str | None = None,
                 tell_owner: TellOwner | None = None,
                 on_acquire: Callable[[str], None] = lambda _table_id: None) -> None:
        self.service = service
        self.settings = settings
        self.now = now  # the wall clock of deadlines (tests set it forward by hours or days)
        self.leases = Leases(service.db, settings.lease_seconds, owner)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queue: asyncio.Queue[str] | None = None
        self.task: asyncio.Task[None] | None = None
        self.scheduled: dict[str, tuple[tuple[Any, ...], list[asyncio.TimerHandle]]] = {}
        self.watched: set[str] = set()
        self.acting: set[asyncio.Task[Any]] = set()
        self.stopping = False
        # table id -> (game id, version, when the game reached that version): immutable once known.
        self.reached: dict[str, tuple[int, int, datetime]] = {}
        # Tables seen "ordinary" (no bot seat, timer off, no stand-ins) since their last lobby change: a command
        # there needs no planning and a view no clock read (a clock or bot change always bumps the table's
        # revision, which a local lobby change or the hub's next full table read reports: ``forget_quiet``).
        self.quiet: set[str] = set()
        self.lobby_epoch = 0  # bumped by every lobby change this process sees (a plan started before it is stale)
        # The tables whose lease this process holds -> until when (monotonic) it knows the lease to be its own.
        self.owned: dict[str, float] = {}
        self.planned: dict[str, tuple[int, int]] = {}  # table id -> (game id, version) of its last plan here
        self.committed: set[str] = set()  # tables with a command accepted here since their last plan
        # Tell the process holding a table's lease that the table changed (given by the app with the Postgres hub).
        self.tell_owner = tell_owner
        # Called (from any thread) when this process takes a table's lease: the push reminders are planned again.
        self.on_acquire = on_acquire
        self.recall = Recall(service)  # the memories of the seats whose level remembers the round

    # -- lifecycle -------------------------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.stopping = False  # started again after a stop (an app served twice, as the tests do)
        self.queue = asyncio.Queue()
        self.task = self.loop.create_task(self._main())
        for table_id in await asyncio.to_thread(self._running_tables):
            self.poke(table_id)
        log.info("bot runner started")

    async def stop(self) -> list[str]:
        """Stop planning; decisions already being made finish (bounded); give the leases up. Returns the tables this
        runner held or had decisions scheduled for: another process takes them over (``app.main``'s hand-off)."""
        self.stopping = True
        tables = sorted(set(self.scheduled) | self.watched | set(self.owned))
        for _, handles in self.scheduled.values():
            for handle in handles:
                handle.cancel()
        self.scheduled.clear()
        if self.task is not None:
            self.task.cancel()
        acting = [t for t in self.acting if not t.done()]
        if acting:  # a decision in flight is a command in flight: let it commit, bounded (never hang)
            await asyncio.wait(acting, timeout=5)
            for task in acting:
                task.cancel()
        if self.task is not None:
            await asyncio.wait([self.task], timeout=1)
        self.task = None
        try:
            await asyncio.to_thread(self.leases.release, sorted(self.owned))
        except Exception as err:  # the database is away: the leases expire instead
            log.warning("duty leases not released: %s", err)
        self.owned.clear()
        return tables

    def _running_tables(self, unleased: bool = False) -> list[str]:
        """Running games at tables with a bot seat, a turn timer or stand-ins (the only ones to resume);
        ``unleased``: only those no live lease covers."""
        with self.service.db.read() as s:
            with_bots = select(Seat.table_id).join(BotSeat, BotSeat.seat_id == Seat.id)
            with_clock = select(TableClock.table_id).where(
                or_(TableClock.turn_timer != "off", TableClock.stand_in.is_(True)))
            query = select(Game.table_id).where(
                Game.status == "playing", or_(Game.table_id.in_(with_bots), Game.table_id.in_(with_clock)))
            if unleased:
                live = select(DutyLease.table_id).where(DutyLease.expires_at >= self.leases.now())
                query = query.where(Game.table_id.not_in(live))
            return list(s.scalars(query.distinct()))

    # -- pokes ------------------------------------------------------------------------------------------

    def poke(self, table_id: str) -> None:
        """Thread-safe: re-plan ``table_id`` soon."""
        loop, queue = self.loop, self.queue
        if loop is None or queue is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            queue.put_nowait(table_id)
        else:
            loop.call_soon_threadsafe(queue.put_nowait, table_id)

    def owner_told(self, owner: str, table_id: str) -> None:
        """Another process accepted a command at ``table_id`` and names ``owner`` as its lease holder: plan the
        table at once if that is this process (thread-safe)."""
        if owner == self.leases.owner:
            self.poke(table_id)

    def _later(self, table_id: str) -> None:
        """Plan ``table_id`` again after ``RETRY_SECONDS`` (something failed), from scratch."""
        if self.loop is not None and not self.stopping:
            self._cancel(table_id)
            self.loop.call_later(RETRY_SECONDS, self.poke, table_id)

    async def _main(self) -> None:
        queue = self.queue  # this task's own: a later ``start`` (on another loop) makes a new one
        assert queue is not None
        # The leases are renewed (and expired ones looked for) three times per lease, at most once per tick.
        tend_every = max(self.settings.tick_seconds, self.settings.lease_seconds / 3)
        next_tick = next_tend = time.monotonic() + self.settings.tick_seconds
        next_rescan = time.monotonic() + RESCAN_SECONDS
        while not self.stopping:
            tables: set[str] = set()
            timeout = max(0.0, min(next_tick, next_tend) - time.monotonic())
            with contextlib.suppress(TimeoutError):
                tables.add(await asyncio.wait_for(queue.get(), timeout))
            if self.stopping:
                return
            while not queue.empty():
                tables.add(queue.get_nowait())
            if time.monotonic() >= next_tick:
                next_tick = time.monotonic() + self.settings.tick_seconds
                tables |= self.watched
            if time.monotonic() >= next_tend:
                next_tend = time.monotonic() + tend_every
                tables |= await self._tend()
                if time.monotonic() >= next_rescan:
                    next_rescan = time.monotonic() + RESCAN_SECONDS
                    with contextlib.suppress(Exception):
                        tables |= set(await asyncio.to_thread(self._running_tables, True))
            for table_id in tables:
                try:
                    await self._replan(table_id)
                except asyncio.CancelledError:
                    raise
                except Exception as err:
                    log.warning("bot planning failed (tried again): %s", err, extra={"table_id": table_id})
                    self._later(table_id)

    async def _tend(self) -> set[str]:
        """Renew this process's leases, drop the plans of those another process took meanwhile, and return the
        tables to plan now: those whose game moved on since their last plan here (a command accepted by another
        process; a game that ended), and those whose lease expired (to take over)."""
        try:
            mine, orphans = await asyncio.to_thread(self.leases.tend)
        except Exception as err:  # the database is away: the scheduled decisions stand, the leases may expire
            log.warning("duty leases not renewed: %s", err)
            return set()
        until = time.monotonic() + self.settings.lease_seconds
        for table_id in [t for t in self.owned if t not in mine]:
            log.info("duty lease taken over by another process", extra={"table_id": table_id})
            self._release_here(table_id)
        for table_id in mine:
            self.owned[table_id] = until
        moved = {t for t, game in mine.items() if game is None or game != self.planned.get(t)}
        return moved | set(orphans)

    def _release_here(self, table_id: str) -> None:
        """This process no longer holds the table's duties: nothing of it stays scheduled here."""
        self.owned.pop(table_id, None)
        self.planned.pop(table_id, None)
        self.watched.discard(table_id)
        self._cancel(table_id)

    # -- planning ---------------------------------------------------------------------------------------

    async def _replan(self, table_id: str) -> None:
        if table_id in self.quiet:
            return  # an ordinary table since its last lobby change: nothing to plan (and nothing scheduled)
        present = set(self.service.presence(table_id))
        epoch = self.lobby_epoch
        tell = table_id in self.committed
        self.committed.discard(table_id)
        plan = await asyncio.to_thread(self._plan, table_id, present, tell)
        if plan is _ELSEWHERE:
            self._release_here(table_id)
            return
        if plan is _ORDINARY:
            if epoch == self.lobby_epoch:
                self.quiet.add(table_id)
            held = table_id in self.owned
            self._release_here(table_id)
            if held:  # its timer, stand-ins and bots went (a new table has no lease: no write for it)
                await asyncio.to_thread(self.leases.drop, table_id)
            return
        if plan is None:
            self._release_here(table_id)
            await asyncio.to_thread(self.leases.drop, table_id)  # no duties left: no lease to keep or take over
            return
        self.planned[table_id] = (plan.game_id, plan.version)
        if plan.stand_in:
            self.watched.add(table_id)
        else:
            self.watched.discard(table_id)
        key = (plan.game_id, plan.version, tuple((d.seat, d.kind, d.level) for d in plan.decisions))
        current = self.scheduled.get(table_id)
        if current is not None and current[0] == key:
            return  # the same decisions are already scheduled (keep their clocks running)
        self._cancel(table_id)
        assert self.loop is not None
        handles = [self.loop.call_later(max(0.0, d.wait), self._spawn, table_id, d) for d in plan.decisions]
        self.scheduled[table_id] = (key, handles)

    def _cancel(self, table_id: str) -> None:
        current = self.scheduled.pop(table_id, None)
        if current is not None:
            for handle in current[1]:
                handle.cancel()

    def _hold(self, table_id: str) -> bool:
        """Whether this process holds the table's lease, taking it if it is free or expired (a worker thread)."""
        until = self.owned.get(table_id)
        if until is not None and until - time.monotonic() > self.settings.lease_seconds / 2:
            return True  # known to be ours for a while yet (the ticks renew it)
        if not self.leases.claim(table_id):
            self.owned.pop(table_id, None)
            return False
        self.owned[table_id] = time.monotonic() + self.settings.lease_seconds
        if until is None:
            log.info("duty lease taken", extra={"table_id": table_id})
            self.on_acquire(table_id)
        return True

    def _store_absence(self, table_id: str, absent: dict[str, str], stand_ins: set[int], announce: bool) -> None:
        """Store the table's stand-in state with its lease (only while this process holds it); a change of the
        seats played by stand-ins is a lobby-style change (new table revision, published), so every socket gets
        the table info that names them."""
        service = self.service
        try:
            with service.db.write() as s:
                moved: Any = s.execute(update(DutyLease).where(DutyLease.table_id == table_id,
                                                              DutyLease.owner == self.leases.owner)
                                       .values(absent=absent, stand_ins=sorted(stand_ins)))
                if moved.rowcount != 1 or not announce:
                    return
                table = service.repo.table(s, table_id, lock=True)
                service.repo.bump(table)
                service.changes.publish(s, table_id, 0)
        except ServiceError:
            return
        if announce:
            service.after_commit(table_id, 0)

    def _plan(self, table_id: str, present: set[int], tell: bool = False) -> Plan | None:
        """What to decide for ``table_id`` now (runs in a worker thread). ``tell``: a command was accepted here;
        if another process holds the table, it is told."""
        service = self.service
        with service.db.read() as s:
            table_clock = clock(s, table_id)
            levels = bot_levels(s, table_id)
            if not levels and table_clock.ordinary:
                return _ORDINARY  # an ordinary table: nothing for the runner to do
            game = service.repo.game(s, table_id)
            if game is None or game.status != "playing":
                return None
            lease = s.get(DutyLease, table_id)
            if self.leases.held_elsewhere(lease):
                assert lease is not None and lease.owner is not None
                if tell and self.tell_owner is not None:
                    self.tell_owner(s, lease.owner, table_id)
                return _ELSEWHERE
            ruleset = service.repo.ruleset(game.ruleset)
            state = service.repo.state(s, ruleset, game)
            if ruleset.is_over(state):
                return None
            end = deadline(s, game, table_clock.turn_timer, self.settings, table_clock.set_at,
                           self.since(s, table_id, game))
            absent: dict[str, str] = dict(lease.absent) if lease is not None else {}
            stood_in = {int(x) for x in lease.stand_ins} if lease is not None else set()
        if not self._hold(table_id):
            return _ELSEWHERE
        seat_ids = [entry["seat_id"] for entry in game.seats]
        plan = Plan(game.id, game.version, humans=[x for x in seat_ids if x not in levels],
                    stand_in=table_clock.stand_in)
        now = self.leases.now()
        gone_since: dict[str, str] = {}
        for seat_id in plan.humans:
            if table_clock.stand_in and seat_id not in present:
                first = absent.get(str(seat_id)) or now.isoformat()
                gone_since[str(seat_id)] = first
                if (now - utc(datetime.fromisoformat(first))).total_seconds() >= self.settings.stand_in_grace_seconds:
                    plan.stand_ins.add(seat_id)
        if gone_since != absent or plan.stand_ins != stood_in:
            self._store_absence(table_id, gone_since, plan.stand_ins, plan.stand_ins != stood_in)
        for seat in ruleset.awaited(state):
            seat_id = seat_ids[seat]
            if any(d.kind != "timer" for d in plan.decisions) and (seat_id in levels or seat_id in plan.stand_ins):
                continue  # one bot decision at a time: the next follows from the new version (no lost races)
            if seat_id in levels:
                plan.decisions.append(Decision(game.id, game.version, seat, seat_id, levels[seat_id], "bot",
                                               self.settings.delay_seconds))
            elif seat_id in plan.stand_ins:
                plan.decisions.append(Decision(game.id, game.version, seat, seat_id,
                                               table_clock.level(self.settings), "stand_in",
                                               self.settings.delay_seconds))
            elif end is not None:
                wait = (end - self.now()).total_seconds()
                plan.decisions.append(Decision(game.id, game.version, seat, seat_id, "easy", "timer", wait))
        return plan

    # -- deciding ---------------------------------------------------------------------------------------

    def _spawn(self, table_id: str, decision: Decision) -> None:
        assert self.loop is not None
        if self.stopping:
            return
        task = self.loop.create_task(self._act(table_id, decision))
        self.acting.add(task)
        task.add_done_callback(self.acting.discard)

    async def _act(self, table_id: str, decision: Decision) -> None:
        try:
            result = await asyncio.to_thread(self.decide, table_id, decision)
            if result is not None and not result["duplicate"]:
                metrics.BOT_DECISIONS.labels(decision.kind, "accepted").inc()
        except (ServiceError, RuleError) as err:
            # A lost race (someone moved first) or a game that moved on: plan again from the new state.
            metrics.BOT_DECISIONS.labels(decision.kind, "refused").inc()
            log.info("bot decision not applied: %s", err, extra={"table_id": table_id})
            self.poke(table_id)
        except Exception as err:  # the database was unreachable, say: the same decision is made again shortly
            metrics.BOT_DECISIONS.labels(decision.kind, "failed").inc()
            log.warning("bot decision failed (tried again): %s", err, extra={"table_id": table_id})
            self._later(table_id)

    def decide(self, table_id: str, decision: Decision) -> JSONDict | None:
        """Make one decision through the game service, from the seat's view and legal commands only."""
        service = self.service
        with service.db.read() as s:
            game = service.repo.game(s, table_id)
            if game is None or game.id != decision.game_id or game.version != decision.version:
                return None
            ruleset = service.repo.ruleset(game.ruleset)
            state = service.repo.state(s, ruleset, game)
            view, legal = bot_inputs(ruleset, state, decision.seat)
            if not legal:
                return None
            memory = self.recall.memory(s, ruleset, game, decision.seat) if decision.level in REMEMBERING else None
        rng = random.Random(f"{decision.game_id}:{decision.version}:{decision.seat}")
        command = choose(decision.level, ruleset.id, view, legal, rng, memory)
        command_id = f"{decision.kind}:{decision.game_id}:{decision.version}:{decision.seat}"
        # a bot seat plays as itself; a timer's or a stand-in's decision is attributed to it in the events
        by = decision.kind if decision.kind in ATTRIBUTIONS else None
        result = service.submit_as(table_id, decision.seat_id, command_id, decision.version,
                                   ruleset.command_to_json(command), by)
        log.info("bot decision applied", extra={"table_id": table_id, "game_id": decision.game_id,
                                                "version": result["version"], "seat": decision.seat})
        return result

    # -- the service's TableExtension hooks -----------------------------------------------------------------

    def after_commit(self, table_id: str, version: int) -> None:
        if version and table_id in self.quiet:
            return  # O(1) for a command at an ordinary table
        if not version:
            self.forget_quiet(table_id)
        else:
            self.committed.add(table_id)
        self.poke(table_id)

    def forget_quiet(self, table_id: str) -> None:
        """The table's lobby changed (its clock or bot seats may have): plan it and read its clock again."""
        self.lobby_epoch += 1
        self.quiet.discard(table_id)

    def table_extras(self, s: Session, table_id: str, positions: dict[int, int],
                     game: Game | None) -> JSONDict:
        """Bot levels (in seat order), the clock options, the seats played by stand-ins, and the running timer."""
        levels = session_levels(s, table_id)
        table_clock = session_clock(s, table_id)
        if table_id in self.quiet and (levels or not table_clock.ordinary):
            self.forget_quiet(table_id)  # changed by another process: its revision bump brought us here
            self.poke(table_id)
        elif table_id not in self.quiet and not levels and table_clock.ordinary:
            # Ordinary, but not planned here yet (its commands came through another process): the plan makes it
            # quiet, and its views need no clock read from then on.
            self.poke(table_id)
        stand_ins = session_stand_ins(s, table_id, table_clock)
        timer = None
        table_timer = None if game is None else self.table_timer(s, table_id, GameRef.of(game), table_clock, levels)
        if table_timer is not None and game is not None:
            ruleset = self.service.repo.ruleset(game.ruleset)
            awaited = ruleset.awaited(self.service.repo.state(s, ruleset, game))
            timer = table_timer.for_view({"awaited": list(awaited)})
        bots = sorted((positions[seat_id], level) for seat_id, level in levels.items() if seat_id in positions)
        return {"bots": [{"seat": seat, "level": level} for seat, level in bots],
                "turn_timer": table_clock.turn_timer, "stand_in": table_clock.stand_in,
                "stand_in_level": table_clock.level(self.settings),
                "stand_ins": sorted(positions[x] for x in stand_ins if x in positions), "timer": timer}

    def decorate_views(self, s: Session, table_id: str, game: GameRef, views: list[JSONDict]) -> None:
        """Every view's ``timer`` (``None`` without a running timer); the table is read once for all views."""
        table_timer = self.table_timer(s, table_id, game)
        for view in views:
            view["timer"] = None if table_timer is None else table_timer.for_view(view)

    # -- what tables and views show ---------------------------------------------------------------------

    def table_timer(self, s: Session, table_id: str, game: GameRef, table_clock: Clock | None = None,
                    levels: dict[int, str] | None = None) -> TableTimer | None:
        """The running timer of ``table_id`` at ``game``'s version (``None``: timer off or game not playing)."""
        if game.status != "playing" or (table_clock is None and table_id in self.quiet):
            return None  # a quiet table has no timer (no clock read needed)
        table_clock = session_clock(s, table_id) if table_clock is None else table_clock
        seconds = timer_seconds(table_clock.turn_timer, self.settings)
        if seconds is None:
            return None
        levels = session_levels(s, table_id) if levels is None else levels
        start = self.since(s, table_id, game)
        floor = table_clock.set_at
        end = (start if floor is None else max(start, floor)) + timedelta(seconds=seconds)
        return TableTimer(table_clock.turn_timer, seconds, game.version, end, self.now(),
                          [entry["seat_id"] for entry in game.seats],
                          frozenset(levels) | session_stand_ins(s, table_id, table_clock))

    def since(self, s: Session, table_id: str, game: Game | GameRef) -> datetime:
        """When ``game`` reached its current version (read once per version, then remembered)."""
        known = self.reached.get(table_id)
        if known is not None and known[:2] == (game.id, game.version):
            return known[2]
        moment = since(s, game)
        self.reached[table_id] = (game.id, game.version, moment)
        return moment


__all__ = ["BotRunner", "Clock", "TableTimer"]
