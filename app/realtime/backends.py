"""Hub backends: in-memory (one process, SQLite) and Postgres LISTEN/NOTIFY (many processes).

A table notification goes to the table's own channel (``table_channel``) and carries ``table_id:version``, and for
an accepted command also the command itself (``table_id:version:game_id:seat:command``): each process that has
sockets at the table LISTENs on its channel (only those: a process is not woken for the other tables) and brings
its cached copy of the running game one step forward with the deterministic engine (C-10) instead of reading it
back; anything else it reads from the database.
The command is server-internal (the hub never forwards a notification to a client): hidden information stays in
the server and its database, as with the stored command rows. The Postgres
listener also carries the processes' socket presence (``app.realtime.presence``) on a second channel, and
table chat (``app.services.chat``) on a third: a chat message is public to its table and small, so its
NOTIFY carries the whole message and no process reads it back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

import asyncpg
from sqlalchemy import text
from sqlalchemy.orm import Session

from app import fastjson, metrics
from app.persistence import hot
from app.persistence.db import psycopg_dsn
from app.services.base import ATTRIBUTIONS, Step

from .presence import PRESENCE_CHANNEL, LocalSeats, PgPresence

log = logging.getLogger("phase10.hub")

TABLE_CHANNEL_PREFIX = "phase10_t_"
CHAT_CHANNEL = "phase10_chat"
# A stopping process names the tables whose bots, stand-ins and timers it was running; the others plan them.
HANDOFF_CHANNEL = "phase10_handoff"
# A process that accepted a command at a table whose duties another process holds (``app.autoplay.leases``) tells it:
# ``'<owner> <table_id>'``; only the named process plans the table.
DUTY_CHANNEL = "phase10_duty"
_PG_NOTIFY = "SELECT pg_notify(%s, %s)"  # on the session's psycopg connection, in its transaction
_PG_CHAT_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
MAX_PAYLOAD = 7999  # Postgres refuses a NOTIFY payload of 8000 bytes or more
# A table whose last socket here closed is still heard for this long (a page reloading comes back to a current
# copy), then its channel is left and its cached copy dropped.
RELEASE_AFTER_SECONDS = 30.0
# A table's first fan-out waits at most this long for its LISTEN (the connection may be down): it then reads the
# table anyway, and the reconnection wakes every table.
WATCH_TIMEOUT_SECONDS = 5.0
APPLICATION_NAME = "phase10-listen"  # how the LISTEN connection shows in pg_stat_activity


def table_channel(table_id: str) -> str:
    """The NOTIFY channel of one table (table ids are 12 URL-safe characters: well under Postgres's 63)."""
    return TABLE_CHANNEL_PREFIX + table_id


class Wakes(Protocol):
    """What a notifier needs of the hub (``Hub``, or the ``HubLink`` the game service is built on)."""

    def wake(self, table_id: str, version: int | None = None) -> None: ...
    def broadcast(self, table_id: str, message: dict[str, Any]) -> None: ...


class MemoryNotifier:
    """Wakes the local hub after each commit."""

    def __init__(self, hub: Wakes) -> None:
        self.hub = hub

    def in_transaction(self, session: Session, table_id: str, version: int, step: Step | None = None) -> None:
        pass

    def notification(self, table_id: str, version: int, step: Step) -> tuple[str, str] | None:
        return None

    def after_commit(self, table_id: str, version: int) -> None:
        self.hub.wake(table_id, version)

    def chat_in_transaction(self, session: Session, table_id: str, message: dict[str, Any]) -> None:
        pass

    def chat_after_commit(self, table_id: str, message: dict[str, Any]) -> None:
        """A chat message was stored: every socket of the table here gets it."""
        self.hub.broadcast(table_id, message)


def chat_payload(table_id: str, message: dict[str, Any]) -> str:
    """The NOTIFY payload of a chat message (at most ~5 KB: 300 characters of text, a 40-character name, well
    under Postgres's 8000 bytes)."""
    return json.dumps({"t": table_id, "m": message}, separators=(",", ":"))


class PgNotifier(MemoryNotifier):
    """NOTIFY inside the command's transaction (delivered only if it commits), plus a local fast path.

    Chat has no local fast path: this process gets its own chat NOTIFY back on its LISTEN connection like
    every other process, so each socket receives a message once and every process delivers a table's messages
    in the same (commit) order."""

    def in_transaction(self, session: Session, table_id: str, version: int, step: Step | None = None) -> None:
        cursor = session.connection().connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        payload = table_payload(table_id, version, step)
        metrics.ROUND_TRIPS.sent(payload)
        cursor.execute(_PG_NOTIFY, (table_channel(table_id), payload))

    def notification(self, table_id: str, version: int, step: Step) -> tuple[str, str] | None:
        """The NOTIFY of an accepted command, for the command's own statement to send (one round trip)."""
        payload = table_payload(table_id, version, step)
        metrics.ROUND_TRIPS.sent(payload)
        return table_channel(table_id), payload

    def chat_in_transaction(self, session: Session, table_id: str, message: dict[str, Any]) -> None:
        session.execute(_PG_CHAT_NOTIFY, {"channel": CHAT_CHANNEL, "payload": chat_payload(table_id, message)})

    def chat_after_commit(self, table_id: str, message: dict[str, Any]) -> None:
        pass


def tell_owner(session: Session, owner: str, table_id: str) -> None:
    """Tell the process ``owner`` (a duty lease holder) that ``table_id`` changed: a NOTIFY sent when ``session``
    commits."""
    session.execute(_PG_CHAT_NOTIFY, {"channel": DUTY_CHANNEL, "payload": f"{owner} {table_id}"})


def table_payload(table_id: str, version: int, step: Step | None) -> str:
    """``table_id:version``, with the accepted command when it fits Postgres's 8000-byte payload limit (a larger
    one, never seen in practice, leaves the other processes to read the game)."""
    head = f"{table_id}:{version}"
    if step is None:
        return head
    # a decision made for the seat (its timer, a stand-in) travels as ``seat.by``, e.g. ``2.timer``
    seat = str(step.seat) if step.by is None else f"{step.seat}.{step.by}"
    payload = f"{head}:{step.game_id}:{seat}:{fastjson.dumps(step.command)}"
    return payload if len(payload.encode()) <= MAX_PAYLOAD else head


def parse_table_payload(payload: str) -> tuple[str, int | None, Step | None]:
    """(table id, version or None, the accepted command or None) of a table notification."""
    parts = payload.split(":", 4)
    table_id = parts[0]
    version = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    seat, _, by = parts[3].partition(".") if len(parts) == 5 else ("", "", "")
    if len(parts) == 5 and version and parts[2].isdigit() and seat.isdigit() and (not by or by in ATTRIBUTIONS):
        try:
            command = fastjson.loads(parts[4])
        except ValueError:
            return table_id, version, None
        if isinstance(command, dict):
            return table_id, version, Step(int(parts[2]), int(seat), command, by or None)
    return table_id, version, None


class LocalHub(LocalSeats, Protocol):
    """What the listener needs of this process's hub (the ``HubLink`` it is built on): to wake a table's sockets
    here, all of them after a reconnection, and to pass a chat message to them."""

    def wake_all(self) -> None: ...
    def broadcast_local(self, table_id: str, message: dict[str, Any]) -> None: ...


class PgListener:
    """LISTENs on one connection per process and wakes the hub for each notified table; passes each chat
    message to the table's sockets here; runs this process's presence announcer (``presence``: the
    ``connected`` flags across processes) on the same LISTEN.

    It is the hub's ``Hearing`` (``app.realtime.hub``). It LISTENs on a table's channel while the hub has sockets
    at that table (``watch``, ``release``; a released
    table for ``release_after`` seconds more), so a process is woken only by the tables it serves: behind a proxy
    that sends a table's sockets to one process (deploy/Caddyfile), by no other process's tables. A table this
    process stops hearing is dropped from its cache (``on_unwatch``): a copy that no notification keeps current
    must not be used when the table comes back.

    The connection is asyncpg's: its socket stays registered with the event loop and each notification is
    dispatched as it arrives (``_notified``), where psycopg's async ``notifies()`` registered and unregistered the
    socket for every notification."""

    def __init__(self, url: str, hub: LocalHub, presence: PgPresence | None = None,
                 on_table: Callable[[str, int | None, Step | None], bool] | None = None,
                 on_listening: Callable[[], None] | None = None,
                 on_unwatch: Callable[[str], None] | None = None,
                 release_after: float = RELEASE_AFTER_SECONDS,
                 on_handoff: Callable[[list[str]], None] = lambda _tables: None,
                 on_duty: Callable[[str, str], None] = lambda _owner, _table: None) -> None:
        self.dsn = psycopg_dsn(url)
        self.hub = hub
        # The service's ``notified`` (its cached copy of the table follows): run before the table's wake, in order;
        # true for a command this process is still writing, whose writer wakes the hub itself.
        self.on_table = on_table
        # The service's ``forget``: called on every (re)connection, after which notifications may have been missed,
        # and (with the table) when this process stops hearing a table.
        self.on_listening = on_listening
        self.on_unwatch = on_unwatch
        self.release_after = release_after
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.presence = presence or PgPresence(self.dsn, hub)
        # Another process stopped and handed its tables off (``handoff``): this one plans their bots and timers.
        self.on_handoff = on_handoff
        # A process told the holder of a table's duties (``tell_owner``) that the table changed.
        self.on_duty = on_duty
        # Tables wanted: None while the hub has sockets there, else when it released them (monotonic seconds).
        self.wanted: dict[str, float | None] = {}
        self.watched: set[str] = set()  # the tables LISTENed on the current connection
        self._waiting: dict[str, asyncio.Future[None]] = {}
        self._changed = False  # ``wanted`` changed since the last ``_sync``
        self._wakeup = asyncio.Event()  # ``wanted`` changed, or the connection was lost

    def start(self) -> None:
        """On the server's loop, each time the app starts serving: from a fresh state (asyncio's events belong to
        the loop that first waits on them)."""
        self.ready, self._wakeup = asyncio.Event(), asyncio.Event()
        self.wanted.clear()
        self.watched.clear()
        self._waiting.clear()
        self._changed = False
        self.task = asyncio.get_running_loop().create_task(self._run())
        self.presence.start()

    # -- the hub's hearing -----------------------------------------------------------------------------------
    def seats_elsewhere(self, table_id: str) -> set[int]:
        return self.presence.remote.seats(table_id)

    def visible_elsewhere(self, table_id: str) -> set[int]:
        return self.presence.remote.visible(table_id)

    def local_changed(self, table_id: str) -> None:
        self.presence.local_changed(table_id)

    async def watch(self, table_id: str) -> None:
        """Return once this process hears every later commit of ``table_id`` (or after ``WATCH_TIMEOUT_SECONDS``
        if the LISTEN connection is down: the table is read anyway, and the reconnection wakes it again)."""
        self.wanted[table_id] = None
        if table_id in self.watched:
            return
        waiter = self._waiting.get(table_id)
        if waiter is None:
            waiter = self._waiting[table_id] = asyncio.get_running_loop().create_future()
        self._change()
        try:
            await asyncio.wait_for(asyncio.shield(waiter), WATCH_TIMEOUT_SECONDS)
        except TimeoutError:
            log.warning("no LISTEN for a table yet", extra={"table_id": table_id})

    def release(self, table_id: str) -> None:
        """The hub has no socket at ``table_id`` any more: stop hearing it after ``release_after`` seconds."""
        if table_id in self.wanted:
            self.wanted[table_id] = time.monotonic()
            self._change()

    def _change(self) -> None:
        self._changed = True
        self._wakeup.set()

    async def _sync(self, conn: asyncpg.Connection) -> float | None:
        """LISTEN on the wanted tables not heard yet and UNLISTEN the released ones past ``release_after`` (a round
        trip each), drop those from the cache, wake the waiters; return when the next release falls due."""
        self._changed = False
        now = time.monotonic()
        for table_id, since in list(self.wanted.items()):
            if since is not None and now - since >= self.release_after:
                del self.wanted[table_id]
        add = [t for t in self.wanted if t not in self.watched]
        drop = [t for t in self.watched if t not in self.wanted]
        self.watched.difference_update(drop)  # a ``watch`` meanwhile waits for the next round
        for table_id in add:
            await conn.add_listener(table_channel(table_id), self._notified)
        for table_id in drop:
            await conn.remove_listener(table_channel(table_id), self._notified)
        self.watched.update(add)
        for table_id in drop:
            if self.on_unwatch is not None:
                self.on_unwatch(table_id)
        for table_id in [t for t in self._waiting if t in self.watched]:
            waiter = self._waiting.pop(table_id)
            if not waiter.done():
                waiter.set_result(None)
        due = [since + self.release_after for since in self.wanted.values() if since is not None]
        return min(due) if due else None

    async def _run(self) -> None:
        while True:
            conn: asyncpg.Connection | None = None
            try:
                conn = await hot.connect(self.dsn, APPLICATION_NAME)
                conn.add_termination_listener(lambda _conn: self._wakeup.set())
                for channel in (PRESENCE_CHANNEL, CHAT_CHANNEL, HANDOFF_CHANNEL, DUTY_CHANNEL):
                    await conn.add_listener(channel, self._notified)
                self.watched.clear()
                due = await self._sync(conn)
                self.ready.set()
                if self.on_listening is not None:
                    self.on_listening()
                self.hub.wake_all()  # we may have missed notifications while (re)connecting
                self.presence.listening()
                while True:
                    await self._idle(due)
                    if conn.is_closed():
                        raise ConnectionError("the LISTEN connection was closed")
                    due = await self._sync(conn)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("LISTEN connection lost: %s", err)
                self.ready.clear()
                self.watched.clear()
            finally:
                if conn is not None and not conn.is_closed():
                    conn.terminate()
            await asyncio.sleep(1.0)

    async def _idle(self, due: float | None) -> None:
        """Wait until ``due`` (monotonic seconds), the wanted tables change, or the connection is lost;
        notifications are dispatched meanwhile as they come (``_notified``)."""
        if self._changed:
            return
        self._wakeup.clear()
        timeout = None if due is None else max(0.0, due - time.monotonic())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wakeup.wait(), timeout)

    def _notified(self, _conn: Any, _pid: int, channel: str, payload: object) -> None:
        """asyncpg's listener callback, for each notification in the order they came."""
        self._dispatch(channel, str(payload))

    def _dispatch(self, channel: str, payload: str) -> None:
        if channel == PRESENCE_CHANNEL:
            self.presence.receive(payload)
        elif channel == CHAT_CHANNEL:
            self.chat(payload)
        elif channel == HANDOFF_CHANNEL:
            self.on_handoff([t for t in payload.split(",") if t])
        elif channel == DUTY_CHANNEL:
            owner, _, table_id = payload.rpartition(" ")
            if owner and table_id:
                self.on_duty(owner, table_id)
        else:
            metrics.ROUND_TRIPS.received(payload)
            self.table(payload)

    def table(self, payload: str) -> None:
        """One notification from a table's channel: bring this process's copy of the table up to date (apply its
        command, or drop the copy), then wake the table's sockets here."""
        table_id, version, step = parse_table_payload(payload)
        if self.on_table is not None:
            try:
                if self.on_table(table_id, version, step):
                    return  # this process's own command, still being written: its writer wakes the hub
            except Exception:  # the wake below reads the table from the database instead
                log.exception("could not apply a notified step", extra={"table_id": table_id})
        self.hub.wake_local(table_id, version)

    def chat(self, payload: str) -> None:
        """One notification from ``phase10_chat``: the message to the table's sockets in this process."""
        try:
            data = json.loads(payload)
            table_id, message = str(data["t"]), dict(data["m"])
        except (ValueError, KeyError, TypeError):
            log.warning("bad chat notification: %r", payload[:200])
            return
        self.hub.broadcast_local(table_id, message)

    async def handoff(self, table_ids: list[str]) -> None:
        """Ask the other processes to plan these tables' bots, stand-ins and timers (this one is stopping)."""
        chunks: list[list[str]] = [[]]
        for table_id in table_ids:
            if sum(len(t) + 1 for t in chunks[-1]) + len(table_id) > 7000:  # NOTIFY payloads stay under 8000 B
                chunks.append([])
            chunks[-1].append(table_id)
        if not table_ids:
            return
        try:
            conn = await hot.connect(self.dsn)
            try:
                for chunk in chunks:
                    await conn.execute("SELECT pg_notify($1, $2)", HANDOFF_CHANNEL, ",".join(chunk))
            finally:
                await conn.close()
        except Exception as err:  # the others resume these tables when a process starts
            log.warning("bot hand-off failed: %s", err)

    async def stop(self) -> None:
        await self.presence.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
