"""Which seats have an open socket, across server processes (the table info's ``connected`` flags).

With the Postgres hub several processes serve one table, each holding some of its sockets. Each process keeps,
in memory, the seats connected to every other live process, learnt from announcements on the Postgres channel
``phase10_presence`` (LISTENed on the hub's listener connection, sent on one connection of its own):

* ``seats``: "process P now holds sockets of these seats of these tables" -- the whole set per table (an empty
  list when the last one went), sent when a seat's first socket on P opens or its last one closes, or a page
  is shown or hidden (changes are coalesced per table); ``v`` gives the seats among them with a visible page
  (turn alerts by Web Push go to seats without one; a message without ``v`` counts every seat visible). A whole
  set, not a +1/-1, so a repeated or re-sent announcement changes nothing; P's announcements go out one by one
  on one connection, so they arrive in order.
* ``hb``: P is alive, every ``heartbeat`` seconds (5 s). A process not heard from for ``expire_after``
  seconds (15 s: a killed process, a lost network) is forgotten with all its seats.
* ``bye``: P is stopping; forget it now.
* ``hello``: P (re)started listening and knows nothing: every process announces all its tables again. P's own
  tables go out just before its hello.
* ``want``: a message came from a process we do not know (we forgot it after a pause): it announces again.

``Hub.presence`` = this process's own sockets (exact, in memory) plus the seats of the other live processes.
Nothing here reads the database, and a command's fan-out only looks these sets up. A process that vanishes is
shown connected for at most ``expire_after`` seconds; with the in-memory hub (SQLite, one process) only
local sockets count, which is the whole truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import psycopg

log = logging.getLogger("phase10.hub")

PRESENCE_CHANNEL = "phase10_presence"
HEARTBEAT_SECONDS = 5.0
EXPIRE_AFTER_SECONDS = 15.0
_TABLES_PER_MESSAGE = 40  # NOTIFY payloads are limited to 8000 bytes (each table twice: seats and visible)


class LocalSeats(Protocol):
    """What the announcer needs from the hub."""

    def local_presence(self, table_id: str) -> set[int]: ...
    def local_visible(self, table_id: str) -> set[int]: ...
    def local_tables(self) -> list[str]: ...
    def wake_local(self, table_id: str, version: int | None = None) -> None: ...


class RemotePresence:
    """The seats connected to other processes, by table. Changed on the hub's loop only; ``seats`` may be
    read from any thread (each table's mapping is replaced, never changed in place)."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[str, frozenset[int]]] = {}  # table -> process -> seat ids
        self._visible: dict[str, dict[str, frozenset[int]]] = {}  # table -> process -> seat ids with a visible page
        self._of_process: dict[str, set[str]] = {}  # process -> its tables with seats
        self.last_seen: dict[str, float] = {}

    def seats(self, table_id: str) -> set[int]:
        out: set[int] = set()
        for seats in (self._tables.get(table_id) or {}).values():
            out |= seats
        return out

    def visible(self, table_id: str) -> set[int]:
        out: set[int] = set()
        for seats in (self._visible.get(table_id) or {}).values():
            out |= seats
        return out

    def set_visible(self, process_id: str, table_id: str, seats: frozenset[int]) -> None:
        """``process_id``'s seats at ``table_id`` with a visible page (replaced as a whole)."""
        updated = {pid: s for pid, s in (self._visible.get(table_id) or {}).items() if pid != process_id}
        if seats:
            updated[process_id] = seats
        if updated:
            self._visible[table_id] = updated
        else:
            self._visible.pop(table_id, None)

    def knows(self, process_id: str) -> bool:
        return process_id in self.last_seen

    def seen(self, process_id: str, now: float) -> None:
        self.last_seen[process_id] = now

    def set(self, process_id: str, table_id: str, seats: frozenset[int]) -> bool:
        """``process_id`` holds sockets of ``seats`` at ``table_id``; whether that changed anything."""
        current = self._tables.get(table_id) or {}
        if current.get(process_id, frozenset()) == seats:
            return False
        updated = {pid: s for pid, s in current.items() if pid != process_id}
        if seats:
            updated[process_id] = seats
            self._of_process.setdefault(process_id, set()).add(table_id)
        else:
            self._of_process.get(process_id, set()).discard(table_id)
        if updated:
            self._tables[table_id] = updated
        else:
            self._tables.pop(table_id, None)
        return True

    def forget(self, process_id: str) -> list[str]:
        """Drop a process; the tables whose seats changed."""
        self.last_seen.pop(process_id, None)
        tables = sorted(self._of_process.pop(process_id, set()))
        for table_id in tables:
            self.set(process_id, table_id, frozenset())
            self.set_visible(process_id, table_id, frozenset())
        self._of_process.pop(process_id, None)
        return tables

    def expired(self, now: float, after: float) -> list[str]:
        return [pid for pid, seen in self.last_seen.items() if now - seen > after]

    def processes(self) -> list[str]:
        return list(set(self.last_seen) | set(self._of_process))


class PgPresence:
    """This process's presence announcer and the other processes' presence (see the module docstring)."""

    def __init__(self, dsn: str, hub: LocalSeats, heartbeat: float = HEARTBEAT_SECONDS,
                 expire_after: float = EXPIRE_AFTER_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.dsn = dsn
        self.hub = hub
        self.heartbeat = heartbeat
        self.expire_after = expire_after
        self.clock = clock
        self.process_id = secrets.token_hex(8)
        self.remote = RemotePresence()
        self._dirty: set[str] = set()  # tables whose local seats are to be announced
        self._control: list[dict[str, Any]] = []  # hello / hb / want / bye, in order
        self._pending: list[dict[str, Any]] = []  # taken from the two above, not yet sent
        self._wakeup = asyncio.Event()
        self._said_bye = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._conn: psycopg.AsyncConnection[Any] | None = None

    # -- called on the hub's loop ------------------------------------------------------------------------
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._wakeup, self._said_bye = asyncio.Event(), asyncio.Event()  # this loop's (an app may serve again)
        self._tasks = [loop.create_task(self._send_loop()), loop.create_task(self._tick_loop())]

    def local_changed(self, table_id: str) -> None:
        """A seat's socket on this process opened or closed (or signed in as another seat)."""
        self._dirty.add(table_id)
        self._wakeup.set()

    def listening(self) -> None:
        """Our LISTEN connection is (again) up: whatever we knew may be stale; ask everyone to announce, and
        announce our own seats with the hello. A process that hears our hello knows us from then on (it asks
        nothing more of us), and it may have forgotten our seats while its own LISTEN was down, when our last
        announcement and its own hello were lost on the way."""
        for process_id in self.remote.processes():
            self._wake(self.remote.forget(process_id))
        self._announce_all()
        self._queue({"k": "hello"})

    def receive(self, payload: str) -> None:
        """One notification from ``phase10_presence``."""
        try:
            message = json.loads(payload)
            kind, process_id = message["k"], str(message["p"])
        except (ValueError, KeyError, TypeError):
            log.warning("bad presence message: %r", payload[:200])
            return
        if process_id == self.process_id:
            return
        if kind == "bye":
            self._wake(self.remote.forget(process_id))
            return
        if not self.remote.knows(process_id) and kind != "hello":
            self._queue({"k": "want", "of": process_id})  # we forgot it (or never heard its hello)
        self.remote.seen(process_id, self.clock())
        if kind == "seats":
            visible = message.get("v")
            for table_id, seats in dict(message.get("t") or {}).items():
                shown = visible.get(table_id, seats) if isinstance(visible, dict) else seats
                self.remote.set_visible(process_id, str(table_id), frozenset(int(s) for s in shown or ()))
                if self.remote.set(process_id, str(table_id), frozenset(int(s) for s in seats)):
                    self.hub.wake_local(str(table_id))
        elif kind == "hello" or (kind == "want" and message.get("of") == self.process_id):
            self._announce_all()

    def expire(self) -> None:
        now = self.clock()
        for process_id in self.remote.expired(now, self.expire_after):
            log.warning("presence of process %s expired", process_id)
            self._wake(self.remote.forget(process_id))

    async def stop(self) -> None:
        """Say goodbye after whatever is still queued (best effort: at most 2 s) and stop."""
        for task in self._tasks[1:]:
            task.cancel()  # no heartbeat after the goodbye
        if self._tasks:
            self._queue({"k": "bye"})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._said_bye.wait(), 2.0)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()

    # -- internals ---------------------------------------------------------------------------------------
    def _wake(self, tables: Iterable[str]) -> None:
        for table_id in tables:
            self.hub.wake_local(table_id)

    def _queue(self, message: dict[str, Any]) -> None:
        self._control.append(message)
        self._wakeup.set()

    def _announce_all(self) -> None:
        self._dirty.update(self.hub.local_tables())
        self._wakeup.set()

    def _messages(self) -> list[dict[str, Any]]:
        """What to send now: the dirty tables' current seats, then the queued control messages (a goodbye is
        the last thing a stopping process sends)."""
        out: list[dict[str, Any]] = []
        tables, self._dirty = sorted(self._dirty), set()
        for i in range(0, len(tables), _TABLES_PER_MESSAGE):
            chunk = tables[i:i + _TABLES_PER_MESSAGE]
            out.append({"k": "seats", "t": {t: sorted(self.hub.local_presence(t)) for t in chunk},
                        "v": {t: sorted(self.hub.local_visible(t)) for t in chunk}})
        out, self._control = out + self._control, []
        return out

    async def _notify(self, message: dict[str, Any]) -> None:
        assert self._conn is not None
        payload = json.dumps({**message, "p": self.process_id}, separators=(",", ":"))
        await self._conn.execute("SELECT pg_notify(%s, %s)", (PRESENCE_CHANNEL, payload))

    async def _send_loop(self) -> None:
        while True:
            try:
                self._conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                self._announce_all()  # after a lost connection the others may have forgotten us
                while True:
                    if not self._pending:
                        await self._wakeup.wait()
                        self._wakeup.clear()
                        self._pending = self._messages()
                    while self._pending:  # unsent messages survive a lost connection, in order
                        await self._notify(self._pending[0])
                        if self._pending.pop(0)["k"] == "bye":
                            self._said_bye.set()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("presence connection lost: %s", err)
                if self._conn is not None:
                    with contextlib.suppress(Exception):
                        await self._conn.close()
                    self._conn = None
                await asyncio.sleep(1.0)

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            self._queue({"k": "hb"})
            self.expire()
