"""The hub: one channel per table, fanning "table X is at version N" out to every local socket.

A notification carries the table id and its version and, for an accepted command, the command itself
(``app.realtime.backends``: ``table_id:version:game_id:seat:command``). The listener first brings this process's
cached copy of the game one step forward with that command (``app.services.fanout``, the deterministic engine,
C-10) and then wakes the table here (``wake_local``). The channel's single worker asks the fan-out for what its
sockets need (the table, one view per seat, the per-seat redacted events each socket missed): from the cache when
it is current, else read from the database; and it queues one message per socket. Sends go through bounded per-socket
queues, each drained by a writer task that runs while its queue holds something (an idle socket has neither
a task nor a queue object), so a slow or dead client never blocks the others: a client whose queue
overflows is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app import fastjson, metrics
from app.persistence.db import database_unavailable
from app.rules.core.ruleset import JSONDict
from app.services.errors import sentence
from app.services.games import SPECTATOR, FanoutData

log = logging.getLogger("phase10.hub")

Fanout = Callable[[str, set[int | None], int], Awaitable[FanoutData]]

# How long a closing socket may take to send its last queued frames.
FLUSH_SECONDS = 2.0
# A fan-out that failed because the database was unreachable is tried again after this long (until it succeeds).
FANOUT_RETRY_SECONDS = 1.0
# The ASGI scope extension of a server that can send a text message at once, with no await (``python -m app.serve``:
# ``app.serve.LeanWebSockets``): a callable taking the text and returning whether it was sent; when it returns
# False (the transport is paused, the socket closing) the message goes through the send queue as usual.
SEND_NOW = "phase10.websocket.send_text_now"
# The ASGI scope extension of a server whose protocol answers the application heartbeat itself (``app.serve``): a
# callable that switches that on and returns a callable giving when the peer last sent anything
# (``time.monotonic()``). The heartbeat's ``ping`` and ``pong`` then never reach the app, which reads that time.
HEARTBEAT = "phase10.websocket.heartbeat"


class Sink(Protocol):
    """The transport under a connection (a Starlette WebSocket in production)."""

    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Connection:
    """One socket of one table: who it is, what it has seen, and its bounded send queue."""

    def __init__(self, sink: Sink, table_id: str, seat_id: int | None, queue_size: int,
                 since: int | None = None, game_id: int | None = None,
                 send_now: Callable[[str], bool] | None = None, patches: bool = False,
                 heard_at: Callable[[], float] | None = None) -> None:
        self.sink = sink
        self.send_now = send_now  # the server's ``SEND_NOW`` extension, if it has one
        self.heard_at = heard_at  # from the server's ``HEARTBEAT`` extension, if it has one
        self.table_id = table_id
        self.seat_id = seat_id
        self.queue: list[str] = []  # sent in order by ``writer``, a task that runs while this is not empty
        self.queue_size = queue_size
        self.game_id: int | None = None
        self.version = 0
        self.table_key: str | None = None
        self.started = False
        self.pending_since = since
        self.wanted_game = game_id
        self.closed = False
        self.writer: asyncio.Task[None] | None = None
        self.seat_changed: Callable[[], None] | None = None  # set by the hub (presence announcements)
        # Whether the page shows the table (it reports ``visibility`` over the socket; until then: yes). A seat
        # with no visible page gets its turn alerts by Web Push (app/services/push.py).
        self.visible = True
        self.last_heard = time.monotonic()  # the last message from the peer (any message is a sign of life)
        self.token_tag: str | None = None  # of the seat token it signed in with (a moved seat's old sockets close)
        # The client asked for view patches (``patch=1``, docs/protocol.md): an update after the first carries only
        # the view's top-level keys that changed since ``view_sent``, the last view this socket was sent.
        self.patches = patches
        self.view_sent: JSONDict | None = None

    def heard(self) -> None:
        """The peer sent something: it is alive (the heartbeat's idle clock starts again)."""
        self.last_heard = time.monotonic()

    def quiet_for(self, now: float) -> float:
        """Seconds since the peer last sent anything, a heartbeat message answered by the protocol included."""
        heard = self.last_heard if self.heard_at is None else max(self.last_heard, self.heard_at())
        return now - heard

    def reset(self, seat_id: int | None) -> None:
        """Re-authenticated as another seat: the next delivery sends a fresh snapshot."""
        changed, self.seat_id = seat_id != self.seat_id, seat_id
        if changed and self.seat_changed is not None:
            self.seat_changed()
        self.game_id, self.version, self.table_key, self.started = None, 0, None, False
        self.pending_since = None
        self.view_sent = None

    def send(self, message: JSONDict) -> None:
        if not self.closed:
            self.send_text(fastjson.dumps(message))

    def send_text(self, text: str) -> None:
        """Queue an encoded message (one fan-out encodes a message shared by several sockets once)."""
        if self.closed:
            return
        if self.writer is None and self.send_now is not None and self.send_now(text):
            return  # sent at once: nothing was queued before it, so the order holds
        if len(self.queue) >= self.queue_size:
            log.warning("socket lagging, closed", extra={"table_id": self.table_id})
            self.close(1013, "too slow")
            return
        self.queue.append(text)
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self.write_loop())

    def close(self, code: int = 1000, reason: str = "", flush: bool = False) -> None:
        """Close the socket. ``flush``: send what is queued first (a last error frame such as
        ``seat_removed``), for at most ``FLUSH_SECONDS``; otherwise drop it (a lagging client)."""
        if self.closed:
            return
        self.closed = True
        drain = self.writer if flush else None
        if self.writer is not None and drain is None:
            self.writer.cancel()
            self.queue.clear()
        task = asyncio.get_running_loop().create_task(self._close(code, reason, drain))
        task.add_done_callback(lambda _t: None)

    async def _close(self, code: int, reason: str, drain: asyncio.Task[None] | None) -> None:
        if drain is not None and not drain.done():  # nothing is queued after close: the writer ends by itself
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(drain, FLUSH_SECONDS)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.sink.close(code, reason), 2.0)

    async def write_loop(self) -> None:
        """Send the queue in order until it is empty (``send_text`` starts the next writer)."""
        try:
            while self.queue:
                await self.sink.send_text(self.queue.pop(0))
        except asyncio.CancelledError:
            raise
        except Exception:  # the peer went away; the reader side notices and detaches
            self.closed = True
            self.queue.clear()
        finally:
            if self.writer is asyncio.current_task():
                self.writer = None


_MISSING = object()


def view_patch(old: JSONDict, new: JSONDict) -> JSONDict:
    """What turns view ``old`` into view ``new`` (top level): ``view_patch`` holds each key of ``new`` whose value
    is not that of ``old`` (a part a view reuses is the same object: it is skipped without a comparison), and
    ``view_unset`` (only when not empty) lists the keys of ``old`` that ``new`` lacks."""
    patch = {name: value for name, value in new.items()
             if (before := old.get(name, _MISSING)) is not value and before != value}
    message: JSONDict = {"view_patch": patch}
    unset = [name for name in old if name not in new]
    if unset:
        message["view_unset"] = unset
    return message


class Channel:
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.connections: set[Connection] = set()
        self.dirty = False
        self.worker: asyncio.Task[None] | None = None
        # The game version of the last fan-out read (any game: a new game always arrives with a
        # version-less lobby wake first, which resets this).
        self.loaded_version = -1
        # The highest version announced so far, and the one the running load is sure to include
        # (a version is announced only after its commit, so a load started later sees it).
        self.announced_version = -1
        self.covered_version = -1
        # The last table key (``Hub._table_key``) and what it was made from.
        self.table_key = ""
        self.key_base: JSONDict | None = None
        self.key_online: set[int] = set()
        # This process hears the table's commits (``Hub.watch`` returned): its first fan-out waits for that.
        self.watched = False


class Hearing(Protocol):
    """What the hub asks of the other server processes, with the Postgres hub (``app.realtime.backends.PgListener``,
    given to the hub when it is built). ``watch`` returns once every later commit of a table is heard here (awaited
    before the table's first fan-out here); ``release`` is told when the table's last socket here is gone;
    ``local_changed`` when a seat's sockets here open or close (the presence announcer tells the others);
    ``seats_elsewhere`` and ``visible_elsewhere`` are the seats other processes announced (``app.realtime.presence``).
    One process alone (the in-memory hub) has no hearing."""

    async def watch(self, table_id: str) -> None: ...
    def release(self, table_id: str) -> None: ...
    def local_changed(self, table_id: str) -> None: ...
    def seats_elsewhere(self, table_id: str) -> set[int]: ...
    def visible_elsewhere(self, table_id: str) -> set[int]: ...


class HubLink:
    """The hub's cycles in the server's graph, broken: the hub fans out through the game service
    (``GameService.fanout``), and the game service wakes the hub after a commit (its notifier), asks it who is
    connected (table info's ``connected`` flags) and sends chat through it; with the Postgres hub the hub waits on
    its listener to hear a table (``Hearing``), and the listener wakes the hub for each notification and reads its
    local seats for the presence announcements. The link is made first; the game service, its notifier and the
    listener are built on it; the hub is built on the finished service and the listener and given to the link
    (``connect``), once, in ``app.main.create_app``, before anything serves. Until then a wake or a chat line
    goes nowhere (no socket is open) and nobody is connected."""

    def __init__(self) -> None:
        self._hub: Hub | None = None

    def connect(self, hub: Hub) -> Hub:
        if self._hub is not None:
            raise RuntimeError("the hub link is connected already")
        self._hub = hub
        return hub

    def wake(self, table_id: str, version: int | None = None) -> None:
        if self._hub is not None:
            self._hub.wake(table_id, version)

    def broadcast(self, table_id: str, message: JSONDict) -> None:
        if self._hub is not None:
            self._hub.broadcast(table_id, message)

    def presence(self, table_id: str) -> set[int]:
        return set() if self._hub is None else self._hub.presence(table_id)

    # What the listener and the presence announcer call (``app.realtime.backends``, ``app.realtime.presence``).
    def wake_local(self, table_id: str, version: int | None = None) -> None:
        if self._hub is not None:
            self._hub.wake_local(table_id, version)

    def wake_all(self) -> None:
        if self._hub is not None:
            self._hub.wake_all()

    def broadcast_local(self, table_id: str, message: JSONDict) -> None:
        if self._hub is not None:
            self._hub.broadcast_local(table_id, message)

    def local_presence(self, table_id: str) -> set[int]:
        return set() if self._hub is None else self._hub.local_presence(table_id)

    def local_visible(self, table_id: str) -> set[int]:
        return set() if self._hub is None else self._hub.local_visible(table_id)

    def local_tables(self) -> list[str]:
        return [] if self._hub is None else self._hub.local_tables()


class Hub:
    """Channels of this process. ``wake`` may be called from any thread.

    ``presence`` (the ``connected`` flags of table info) is this process's open seat sockets plus, with the
    Postgres hub, the seats other processes announced (``hearing``).

    With the Postgres hub a process hears only the tables it has sockets for (``hearing``, the listener of
    ``app.realtime.backends``): a table's first fan-out here waits for ``hearing.watch`` (from then on every commit
    of the table wakes this process), and ``hearing.release`` is told when the table's last socket here is gone.
    """

    def __init__(self, fanout: Fanout, hearing: Hearing | None = None) -> None:
        self.fanout = fanout
        self.hearing = hearing
        self.channels: dict[str, Channel] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.heartbeat_task: asyncio.Task[None] | None = None

    # -- heartbeat -----------------------------------------------------------------------------------------
    def start_heartbeat(self, interval: float, idle_timeout: float) -> None:
        """On the hub's loop: every ``interval`` seconds ping the sockets here not heard from for ``interval``
        seconds and drop the sockets not heard from for ``idle_timeout`` seconds (a silent drop: a phone that lost
        its network sends no close frame), so their seats show disconnected and stand-ins start on time."""
        if interval > 0 and self.heartbeat_task is None:
            self.heartbeat_task = asyncio.get_running_loop().create_task(self._heartbeat(interval, idle_timeout))

    async def _heartbeat(self, interval: float, idle_timeout: float) -> None:
        while True:
            await asyncio.sleep(interval)
            self.beat(idle_timeout, quiet=interval)

    def beat(self, idle_timeout: float, now: float | None = None, quiet: float = 0.0) -> None:
        """One heartbeat: drop the silent sockets (``idle_timeout`` 0: never) and ping the others not heard from
        for ``quiet`` seconds. A socket heard from more recently is alive, and it hears from us too: a page pings
        every few seconds itself, and each ping is answered with a pong."""
        now = time.monotonic() if now is None else now
        ping = json.dumps({"type": "ping"})
        for channel in list(self.channels.values()):
            for conn in list(channel.connections):
                if conn.closed:
                    continue
                quiet_for = conn.quiet_for(now)
                if idle_timeout > 0 and quiet_for > idle_timeout:
                    log.info("socket silent, dropped", extra={"table_id": conn.table_id})
                    conn.close(4408, "heartbeat timeout")
                    self.detach(conn)  # at once: the reader may wait for a close that never comes
                elif quiet_for >= quiet:
                    conn.send_text(ping)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's loop (called once when the app starts serving)."""
        self.loop = loop

    def presence(self, table_id: str) -> set[int]:
        """Seat ids with an open socket at ``table_id``, on this process or (Postgres hub) any other."""
        local = self.local_presence(table_id)
        return local if self.hearing is None else local | self.hearing.seats_elsewhere(table_id)

    def visible(self, table_id: str) -> set[int]:
        """Seat ids with a visible page at ``table_id`` (a socket whose page did not report itself hidden), on
        this process or (Postgres hub) any other."""
        local = self.local_visible(table_id)
        return local if self.hearing is None else local | self.hearing.visible_elsewhere(table_id)

    def local_visible(self, table_id: str) -> set[int]:
        """Seat ids with a visible page on this process."""
        return self._local_seats(table_id, visible_only=True)

    def set_visible(self, conn: Connection, visible: bool) -> None:
        """The page of ``conn`` was shown or hidden (other processes learn it with the presence)."""
        if conn.visible != visible:
            conn.visible = visible
            if conn.seat_id is not None:
                self._local_changed(conn.table_id)

    def local_tables(self) -> list[str]:
        return list(self.channels)

    def _local_changed(self, table_id: str) -> None:
        if self.hearing is not None:
            self.hearing.local_changed(table_id)

    def local_presence(self, table_id: str) -> set[int]:
        """Seat ids with an open socket on this process."""
        return self._local_seats(table_id, visible_only=False)

    def _local_seats(self, table_id: str, visible_only: bool) -> set[int]:
        channel = self.channels.get(table_id)
        if channel is None:
            return set()
        for _ in range(3):  # may be read from a worker thread while the loop changes the set
            try:
                return {c.seat_id for c in list(channel.connections)
                        if c.seat_id is not None and not c.closed and (c.visible or not visible_only)}
            except RuntimeError:
                continue
        return set()

    def attach(self, conn: Connection) -> None:
        channel = self.channels.setdefault(conn.table_id, Channel(conn.table_id))
        channel.connections.add(conn)
        conn.seat_changed = lambda: self._local_changed(conn.table_id)
        if conn.seat_id is not None:
            self._local_changed(conn.table_id)
        self.wake_local(conn.table_id)

    def detach(self, conn: Connection) -> None:
        conn.closed = True
        # No reference cycle outlives the socket (its closure refers to conn, and so does the cancelled writer's
        # traceback): conn is freed by its reference count, even when the collector no longer examines it.
        conn.seat_changed = None
        if conn.writer is not None:
            conn.writer.cancel()
            conn.writer = None
        if conn.seat_id is not None:
            self._local_changed(conn.table_id)
        channel = self.channels.get(conn.table_id)
        if channel is None:
            return
        channel.connections.discard(conn)
        if channel.connections:
            self.wake_local(conn.table_id)  # the others see the connected flag change
        elif channel.worker is None:
            self._drop(channel)

    def _drop(self, channel: Channel) -> None:
        """The table's last socket here is gone (and no fan-out runs): forget the channel."""
        if self.channels.get(channel.table_id) is channel:
            del self.channels[channel.table_id]
            if self.hearing is not None:
                self.hearing.release(channel.table_id)

    def wake(self, table_id: str, version: int | None = None) -> None:
        """Thread-safe: schedule a fan-out of ``table_id`` (now at ``version``) on the hub's loop."""
        self._on_loop(self.wake_local, table_id, version)

    def broadcast(self, table_id: str, message: JSONDict) -> None:
        """Thread-safe: queue ``message`` (a table chat line) on every open socket of ``table_id`` in this
        process, on the hub's loop."""
        self._on_loop(self.broadcast_local, table_id, message)

    def _on_loop(self, call: Callable[..., None], *args: Any) -> None:
        """Run ``call(*args)`` on the hub's loop: at once from the loop itself, else scheduled thread-safely."""
        if self.loop is None or self.loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            call(*args)
        else:
            self.loop.call_soon_threadsafe(call, *args)

    def broadcast_local(self, table_id: str, message: JSONDict) -> None:
        """On the hub's loop: ``message``, encoded once, to every open socket of ``table_id`` here. A
        ``seat_moved`` message is for the hub itself: it closes the moved seat's sockets of its old token."""
        channel = self.channels.get(table_id)
        if channel is None:
            return
        if message.get("type") == "seat_moved":
            self.seat_moved_local(channel, message.get("seat_id"), message.get("tag"), message.get("device"))
            return
        text = fastjson.dumps(message)
        for conn in list(channel.connections):
            if not conn.closed:
                conn.send_text(text)

    def seat_moved_local(self, channel: Channel, seat_id: Any, tag: Any, device: Any = None) -> None:
        """The seat moved to another device (``tag``: its new token's; ``device``: it in words, or ``None``): its
        other sockets here are refused, and told where the seat went."""
        device = device if isinstance(device, str) else None
        for conn in list(channel.connections):
            if conn.seat_id == seat_id and conn.token_tag != tag and not conn.closed:
                conn.send({"type": "error", "ref": None, "code": "seat_moved", "device": device,
                           "message": "Your seat was moved to another device" + (f" ({device})" if device else "")})
                conn.close(4403, "seat moved", flush=True)  # the reader detaches it once the close is sent

    def wake_all(self) -> None:
        for table_id in list(self.channels):
            self.wake_local(table_id)

    def wake_local(self, table_id: str, version: int | None = None) -> None:
        channel = self.channels.get(table_id)
        if channel is None:
            return
        if version:
            if version <= max(channel.loaded_version, channel.covered_version if channel.worker else -1):
                return  # already loaded or being loaded: the local fast path and the NOTIFY both arrive
            channel.announced_version = max(channel.announced_version, version)
        channel.dirty = True
        if channel.worker is None:
            channel.worker = asyncio.get_running_loop().create_task(self._run(channel))

    async def _run(self, channel: Channel) -> None:
        try:
            if not channel.watched and self.hearing is not None:
                await self.hearing.watch(channel.table_id)  # before the first read: no commit after it goes unheard
            channel.watched = True
            while channel.dirty:
                channel.dirty = False
                conns = [c for c in channel.connections if not c.closed]
                if not conns:
                    continue
                since = min(self._since(c) for c in conns)
                channel.covered_version = channel.announced_version
                try:
                    data = await self.fanout(channel.table_id, {c.seat_id for c in conns}, since)
                except Exception as err:
                    log.warning("fan-out failed: %s", err, extra={"table_id": channel.table_id})
                    unavailable = database_unavailable(err)
                    code = "database_unavailable" if unavailable else getattr(err, "code", "server_error")
                    for c in conns:
                        c.send({"type": "error", "ref": None, "code": code,
                                "message": sentence(getattr(err, "message", "could not load the table"))})
                    if unavailable:  # no later commit may come to wake the table: try again
                        asyncio.get_running_loop().call_later(FANOUT_RETRY_SECONDS, self.wake_local,
                                                              channel.table_id)
                    continue
                channel.loaded_version = data.version
                online = self.presence(channel.table_id)  # this loop's view of who is connected
                data.table = dict(data.table, seats=[
                    dict(seat, connected=seat_id in online)
                    for seat, seat_id in zip(data.table.get("seats", []), data.seat_ids, strict=False)])
                table_key = self._table_key(channel, data, online)
                encoded: dict[tuple[Any, ...], str] = {}
                for c in conns:
                    if not c.closed:
                        self._deliver(c, data, table_key, encoded)
                metrics.ARRIVALS.settle(channel.table_id, data.version)  # arrival -> last socket here
        finally:
            channel.worker = None
            if channel.dirty and channel.connections:
                self.wake_local(channel.table_id)
            elif not channel.connections:
                self._drop(channel)

    @staticmethod
    def _table_key(channel: Channel, data: FanoutData, online: set[int]) -> str:
        """What a socket compares to know whether the table info changed: the info as sorted JSON, without its
        game version (only as fresh as the last table read; updates carry the version). Made again only when the
        info it comes from (``data.table_base``) or who is online changed."""
        base = data.table_base
        if base is not None and base is channel.key_base and online == channel.key_online:
            return channel.table_key
        volatile = dict(data.table, game={**(data.table.get("game") or {}), "version": None})
        channel.key_base, channel.key_online = base, online
        channel.table_key = fastjson.dumps_sorted(volatile)
        return channel.table_key

    @staticmethod
    def _since(c: Connection) -> int:
        if c.game_id is not None:
            return c.version
        if c.pending_since is not None:
            return c.pending_since
        return 1 << 30

    @staticmethod
    def _encoded(encoded: dict[tuple[Any, ...], str], key: tuple[Any, ...], message: Callable[[], JSONDict]) -> str:
        text = encoded.get(key)
        if text is None:
            text = encoded[key] = fastjson.dumps(message())
        return text

    @classmethod
    def _deliver(cls, c: Connection, data: FanoutData, table_key: str,
                 encoded: dict[tuple[Any, ...], str] | None = None) -> None:
        """Bring one socket up to ``data``. ``encoded``: the messages this fan-out encoded so far, by what they
        depend on (sockets of one seat, or spectators, that are at the same version get the same text)."""
        encoded = {} if encoded is None else encoded
        if c.seat_id is not None and c.seat_id not in data.seat_ids:
            c.send({"type": "error", "ref": None, "code": "seat_removed", "message": "Your seat was removed"})
            c.close(4403, "seat removed", flush=True)
            return
        seat = data.engine_seat.get(c.seat_id) if c.seat_id is not None else None
        key = SPECTATOR if seat is None else str(seat)
        if not c.started or c.game_id != data.game_id:
            since = c.pending_since
            resumable = (c.game_id is None and data.game_id is not None and since is not None
                         and c.wanted_game in (None, data.game_id) and 0 <= since <= data.version)
            if resumable:
                events = [e for seq, red in data.steps if seq > (since or 0) for e in red[key]]
                c.send({"type": "update", "game_id": data.game_id, "since": since, "version": data.version,
                        "events": events, "view": data.views.get(seat), "table": data.table})
            else:
                c.send({"type": "snapshot", "game_id": data.game_id, "seat": seat, "version": data.version,
                        "view": data.views.get(seat), "table": data.table})
            c.started, c.game_id, c.version, c.table_key = True, data.game_id, data.version, table_key
            c.pending_since = None
            c.view_sent = data.views.get(seat) if c.patches else None
            return
        if c.table_key != table_key:
            c.table_key = table_key
            c.send_text(cls._encoded(encoded, ("table",), lambda: {"type": "table", "table": data.table}))
        if data.game_id is not None and c.version < data.version:
            since, view, sent = c.version, data.views.get(seat), c.view_sent

            def update() -> JSONDict:
                events = [e for seq, red in data.steps if seq > since for e in red[key]]
                message: JSONDict = {"type": "update", "game_id": data.game_id, "since": since,
                                     "version": data.version, "events": events}
                if sent is None or view is None:
                    message["view"] = view
                else:
                    message.update(view_patch(sent, view))
                return message

            # Sockets of one seat at one version share the text (with patches: made from the same view sent).
            c.send_text(cls._encoded(encoded, ("update", key, since, id(sent)), update))
            c.version = data.version
            if c.patches:
                c.view_sent = view

    async def close(self) -> None:
        """Graceful shutdown: tell every socket the server is going away."""
        if self.heartbeat_task is not None:
            self.heartbeat_task.cancel()
            self.heartbeat_task = None
        for channel in list(self.channels.values()):
            if channel.worker is not None:
                channel.worker.cancel()
            for c in list(channel.connections):
                c.close(1012, "service restart")
        await asyncio.sleep(0)
        self.channels.clear()
