"""The event loop's own Postgres connections: a fixed set of autocommit psycopg connections, lent one at a time.

The server writes the usual socket command with one statement on the event loop (``GameService.submit_on_loop``).
``psycopg_pool.AsyncConnectionPool`` did that job with a third of the statement's CPU spent in the pool (its
checkout, its checks and statistics, its return) and a new cursor per statement; measured alone (4 connections,
3,000 such statements, CPU per statement): pool 160-170 us, a queue of the same connections 130 us, a queue
lending each connection's one reused cursor 100-125 us. This set is that queue, and nothing the loop does not use:

* ``cursor(timeout)`` lends a free connection's cursor, or waits up to ``timeout`` seconds for one in the order
  the waiters came (``asyncio.Queue``), then raises ``TimeoutError``;
* a connection that comes back broken, closed or inside a transaction is closed and replaced in the background
  (retried every ``RECONNECT_SECONDS`` while the database is away), and the free ones are tried at once (a
  database restart breaks them all: found by the check rather than by the next commands); the set is whole
  again once the database answers;
* ``close()`` closes every connection and stops the reconnections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus

log = logging.getLogger("phase10.db")

RECONNECT_SECONDS = 1.0
CHECK_SECONDS = 2.0
APPLICATION_NAME = "phase10-hot"  # how these connections show in pg_stat_activity


class HotConnections:
    """``size`` autocommit connections to ``dsn`` for the loop that opens them (``open``)."""

    def __init__(self, dsn: str, size: int) -> None:
        self.dsn = dsn
        self.size = size
        self._free: asyncio.Queue[psycopg.AsyncConnection[Any]] = asyncio.Queue()
        self._cursors: dict[int, psycopg.AsyncCursor[Any]] = {}  # id(connection) -> its one cursor
        self._lent: set[psycopg.AsyncConnection[Any]] = set()
        self._tasks: set[asyncio.Task[None]] = set()  # reconnections and closes under way
        self._closed = False
        self._checking = False  # ``_check_free`` runs

    async def open(self, timeout: float) -> None:
        """Connect all of them (``TimeoutError`` or the driver's error if the database does not answer)."""
        conns = await asyncio.wait_for(asyncio.gather(*(self._connect() for _ in range(self.size))), timeout)
        for conn in conns:
            self._free.put_nowait(conn)

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True, application_name=APPLICATION_NAME)
        self._cursors[id(conn)] = conn.cursor()
        return conn

    @property
    def free(self) -> int:
        """Connections ready to lend now."""
        return self._free.qsize()

    @contextlib.asynccontextmanager
    async def cursor(self, timeout: float) -> AsyncIterator[psycopg.AsyncCursor[Any]]:
        """A free connection's cursor for one statement (autocommit: the statement is its transaction)."""
        if self._closed:
            raise psycopg.OperationalError("the hot connections are closed")
        conn = self._free.get_nowait() if self._free.qsize() else await asyncio.wait_for(self._free.get(), timeout)
        self._lent.add(conn)
        try:
            yield self._cursors[id(conn)]
        finally:
            self._lent.discard(conn)
            self._give_back(conn)

    def _give_back(self, conn: psycopg.AsyncConnection[Any]) -> None:
        if self._closed:
            self._discard(conn)
        elif conn.broken or conn.closed or conn.info.transaction_status != TransactionStatus.IDLE:
            log.warning("hot connection lost; reconnecting")
            self._discard(conn)
            self._background(self._replace())
            if not self._checking:  # a database restart breaks them all: find the others before a command does
                self._checking = True
                self._background(self._check_free())
        else:
            self._free.put_nowait(conn)

    def _discard(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self._cursors.pop(id(conn), None)
        if not conn.closed:
            self._background(conn.close())

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _replace(self) -> None:
        while not self._closed:
            try:
                conn = await self._connect()
            except psycopg.Error as err:
                log.warning("hot connection: %s; retrying", err)
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            if self._closed:
                await conn.close()
            else:
                self._free.put_nowait(conn)
            return

    async def _check_free(self) -> None:
        """Try each connection free now with one trivial statement; a broken one is replaced."""
        try:
            for _ in range(self._free.qsize()):
                try:
                    async with self.cursor(timeout=CHECK_SECONDS) as cursor:
                        await asyncio.wait_for(cursor.execute("SELECT 1"), CHECK_SECONDS)
                except (psycopg.Error, TimeoutError):
                    pass  # given back broken (replaced), or busy with the loop's commands: checked by its next use
        finally:
            self._checking = False

    async def close(self) -> None:
        """Close the free connections, stop the reconnections; a lent one is closed when it comes back."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        while self._free.qsize():
            conn = self._free.get_nowait()
            self._cursors.pop(id(conn), None)
            await conn.close()
