"""Hub backends: in-memory (one process, SQLite) and Postgres LISTEN/NOTIFY (many processes).

Notifications carry only ``table_id:version``; every process reads the rest from the database. The Postgres
listener also carries the processes' socket presence (``app.realtime.presence``) on a second channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import psycopg
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from .hub import Hub
from .presence import PRESENCE_CHANNEL, PgPresence

log = logging.getLogger("phase10.hub")

CHANNEL = "phase10_tables"
_PG_NOTIFY = "SELECT pg_notify(%s, %s)"  # on the session's psycopg connection, in its transaction


class MemoryNotifier:
    """Wakes the local hub after each commit."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def in_transaction(self, session: Session, table_id: str, version: int) -> None:
        pass

    def after_commit(self, table_id: str, version: int) -> None:
        self.hub.wake(table_id, version)


class PgNotifier(MemoryNotifier):
    """NOTIFY inside the command's transaction (delivered only if it commits), plus a local fast path."""

    def in_transaction(self, session: Session, table_id: str, version: int) -> None:
        cursor = session.connection().connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        cursor.execute(_PG_NOTIFY, (CHANNEL, f"{table_id}:{version}"))


def psycopg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PgListener:
    """LISTENs on one connection per process and wakes the hub for each notified table; runs this process's
    presence announcer (``presence``: the ``connected`` flags across processes) on the same LISTEN."""

    def __init__(self, url: str, hub: Hub, presence: PgPresence | None = None) -> None:
        self.dsn = psycopg_dsn(url)
        self.hub = hub
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.presence = presence or PgPresence(self.dsn, hub)
        hub.remote = self.presence.remote
        hub.on_local_change = self.presence.local_changed

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())
        self.presence.start()

    async def _run(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await conn.execute(f"LISTEN {PRESENCE_CHANNEL}")
                    self.ready.set()
                    self.hub.wake_all()  # we may have missed notifications while (re)connecting
                    self.presence.listening()
                    async for note in conn.notifies():
                        if note.channel == PRESENCE_CHANNEL:
                            self.presence.receive(note.payload)
                            continue
                        table_id, _, version = note.payload.rpartition(":")
                        self.hub.wake_local(table_id, int(version) if version.isdigit() else None)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("LISTEN connection lost: %s", err)
                self.ready.clear()
                await asyncio.sleep(1.0)

    async def stop(self) -> None:
        await self.presence.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
