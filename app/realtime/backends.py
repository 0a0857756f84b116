"""Hub backends: in-memory (one process, SQLite) and Postgres LISTEN/NOTIFY (many processes).

A table notification carries ``table_id:version``, and for an accepted command also the command itself
(``table_id:version:game_id:seat:command``): each process brings its cached copy of the running game one step
forward with the deterministic engine (C-10) instead of reading it back; anything else it reads from the database.
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
from collections.abc import Callable
from typing import Any

import psycopg
from sqlalchemy import text
from sqlalchemy.orm import Session

from app import fastjson, metrics
from app.persistence.db import psycopg_dsn
from app.services.base import Step

from .hub import Hub
from .presence import PRESENCE_CHANNEL, PgPresence

log = logging.getLogger("phase10.hub")

CHANNEL = "phase10_tables"
CHAT_CHANNEL = "phase10_chat"
# A stopping process names the tables whose bots, stand-ins and timers it was running; the others plan them.
HANDOFF_CHANNEL = "phase10_handoff"
_PG_NOTIFY = "SELECT pg_notify(%s, %s)"  # on the session's psycopg connection, in its transaction
_PG_CHAT_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
MAX_PAYLOAD = 7999  # Postgres refuses a NOTIFY payload of 8000 bytes or more


class MemoryNotifier:
    """Wakes the local hub after each commit."""

    def __init__(self, hub: Hub) -> None:
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
        cursor.execute(_PG_NOTIFY, (CHANNEL, payload))

    def notification(self, table_id: str, version: int, step: Step) -> tuple[str, str] | None:
        """The NOTIFY of an accepted command, for the command's own statement to send (one round trip)."""
        payload = table_payload(table_id, version, step)
        metrics.ROUND_TRIPS.sent(payload)
        return CHANNEL, payload

    def chat_in_transaction(self, session: Session, table_id: str, message: dict[str, Any]) -> None:
        session.execute(_PG_CHAT_NOTIFY, {"channel": CHAT_CHANNEL, "payload": chat_payload(table_id, message)})

    def chat_after_commit(self, table_id: str, message: dict[str, Any]) -> None:
        pass


def table_payload(table_id: str, version: int, step: Step | None) -> str:
    """``table_id:version``, with the accepted command when it fits Postgres's 8000-byte payload limit (a larger
    one, never seen in practice, leaves the other processes to read the game)."""
    head = f"{table_id}:{version}"
    if step is None:
        return head
    payload = f"{head}:{step.game_id}:{step.seat}:{fastjson.dumps(step.command)}"
    return payload if len(payload.encode()) <= MAX_PAYLOAD else head


def parse_table_payload(payload: str) -> tuple[str, int | None, Step | None]:
    """(table id, version or None, the accepted command or None) of a table notification."""
    parts = payload.split(":", 4)
    table_id = parts[0]
    version = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    if len(parts) == 5 and version and parts[2].isdigit() and parts[3].isdigit():
        try:
            command = fastjson.loads(parts[4])
        except ValueError:
            return table_id, version, None
        if isinstance(command, dict):
            return table_id, version, Step(int(parts[2]), int(parts[3]), command)
    return table_id, version, None


class PgListener:
    """LISTENs on one connection per process and wakes the hub for each notified table; passes each chat
    message to the table's sockets here; runs this process's presence announcer (``presence``: the
    ``connected`` flags across processes) on the same LISTEN."""

    def __init__(self, url: str, hub: Hub, presence: PgPresence | None = None,
                 on_table: Callable[[str, int | None, Step | None], bool] | None = None,
                 on_listening: Callable[[], None] | None = None) -> None:
        self.dsn = psycopg_dsn(url)
        self.hub = hub
        # The service's ``notified`` (its cached copy of the table follows): run before the table's wake, in order;
        # true for a command this process is still writing, whose writer wakes the hub itself.
        self.on_table = on_table
        # The service's ``forget``: called on every (re)connection, after which notifications may have been missed.
        self.on_listening = on_listening
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.presence = presence or PgPresence(self.dsn, hub)
        hub.remote = self.presence.remote
        hub.on_local_change = self.presence.local_changed
        self.on_handoff: Callable[[list[str]], None] = lambda _tables: None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())
        self.presence.start()

    async def _run(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await conn.execute(f"LISTEN {PRESENCE_CHANNEL}")
                    await conn.execute(f"LISTEN {CHAT_CHANNEL}")
                    await conn.execute(f"LISTEN {HANDOFF_CHANNEL}")
                    self.ready.set()
                    if self.on_listening is not None:
                        self.on_listening()
                    self.hub.wake_all()  # we may have missed notifications while (re)connecting
                    self.presence.listening()
                    async for note in conn.notifies():
                        if note.channel == PRESENCE_CHANNEL:
                            self.presence.receive(note.payload)
                            continue
                        if note.channel == CHAT_CHANNEL:
                            self.chat(note.payload)
                            continue
                        if note.channel == HANDOFF_CHANNEL:
                            self.on_handoff([t for t in note.payload.split(",") if t])
                            continue
                        metrics.ROUND_TRIPS.received(note.payload)
                        self.table(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("LISTEN connection lost: %s", err)
                self.ready.clear()
                await asyncio.sleep(1.0)

    def table(self, payload: str) -> None:
        """One notification from ``phase10_tables``: bring this process's copy of the table up to date (apply its
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
            async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                for chunk in chunks:
                    await conn.execute("SELECT pg_notify(%s, %s)", (HANDOFF_CHANNEL, ",".join(chunk)))
        except Exception as err:  # the others resume these tables when a process starts
            log.warning("bot hand-off failed: %s", err)

    async def stop(self) -> None:
        await self.presence.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
