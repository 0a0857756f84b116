"""The event loop's own Postgres connections: a fixed set of asyncpg connections, lent one at a time.

The server writes the usual socket command with one statement on the event loop (``GameService.submit_on_loop``).
Measured alone (4 connections, 3,000 such statements, process CPU per statement, two runs):
psycopg through ``psycopg_pool`` 160-170 us, psycopg connections in a queue 130 us, with one reused cursor each
100-125 us, asyncpg connections in a queue 69-85 us (asyncpg keeps each socket registered with the loop and
prepares the statement once; psycopg registers and unregisters the socket for every wait). This set is that
queue, and nothing the loop does not use:

* ``connection(timeout)`` lends a free connection, or waits up to ``timeout`` seconds for one in the order the
  waiters came (``asyncio.Queue``); no connection in time, or a lent one lost on the way (the database restarted,
  an administrator ended it), raises ``HotUnavailable``: the caller takes its ordinary path;
* a connection that comes back closed or inside a transaction is closed and replaced in the background (retried
  every ``RECONNECT_SECONDS`` while the database is away), and the free ones are tried at once (a database
  restart breaks them all: found by the check rather than by the next commands); so are they when the server
  closes any of them while it is free (asyncpg's termination listener: the socket stays registered with the
  loop, so a restart or ``pg_terminate_backend`` is noticed as it happens, with no command needed); the set is
  whole again once the database answers;
* ``close()`` closes every connection and stops the reconnections.

Each connection runs in autocommit (asyncpg's default outside ``transaction()``): a statement is its own
transaction. The worker threads keep SQLAlchemy over psycopg (``app.persistence.db``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

log = logging.getLogger("phase10.db")

RECONNECT_SECONDS = 1.0
CHECK_SECONDS = 2.0
APPLICATION_NAME = "phase10-hot"  # how these connections show in pg_stat_activity

# What a lost connection raises: the server's end of it is gone (08xxx), it was ended by an administrator or a
# shutdown (57xxx), the client side found it closed, or the driver's protocol state is broken (seen when the
# server ended the connection while it was idle).
LOST = (asyncpg.PostgresConnectionError, asyncpg.OperatorInterventionError, asyncpg.InterfaceError,
        asyncpg.InternalClientError, OSError)
# What a statement violating a unique constraint raises (a command id used before).
UniqueViolation = asyncpg.UniqueViolationError


# The query options of a connection URL that asyncpg reads itself. It sends any other one to the server as a
# setting, and the server refuses libpq's own (``connect_timeout``, ``keepalives``, ``gssencmode``, ...), which
# psycopg reads from the same ``DATABASE_URL``.
ASYNCPG_OPTIONS = frozenset({
    "host", "port", "user", "password", "passfile", "database", "dbname", "service", "sslmode", "sslcert", "sslkey",
    "sslrootcert", "sslnegotiation", "sslcrl", "sslpassword", "ssl_min_protocol_version", "ssl_max_protocol_version",
    "target_session_attrs", "krbsrvname", "gsslib",
    "options",  # a startup parameter the server itself reads (``-c name=value``)
})
DEFAULT_CONNECT_TIMEOUT = 60.0  # asyncpg's own


def asyncpg_target(dsn: str) -> tuple[str, float]:
    """asyncpg's URL for the libpq URL ``dsn``, and its connect timeout: libpq's ``connect_timeout`` (seconds, 0
    for none: asyncpg's default then), the other options asyncpg does not read left out."""
    url = make_url(dsn)
    raw = url.query.get("connect_timeout", "")
    last = raw if isinstance(raw, str) else raw[-1]  # a repeated option: libpq takes the last
    timeout = float(last) if last.strip() else 0.0
    kept = {key: value for key, value in url.query.items() if key in ASYNCPG_OPTIONS}
    return (url.set(query=kept).render_as_string(hide_password=False),
            timeout if timeout > 0 else DEFAULT_CONNECT_TIMEOUT)


async def connect(dsn: str, application_name: str | None = None) -> asyncpg.Connection:
    """An asyncpg connection to the libpq URL ``dsn`` (``asyncpg_target``), shown in ``pg_stat_activity`` under
    ``application_name``."""
    target, timeout = asyncpg_target(dsn)
    settings = None if application_name is None else {"application_name": application_name}
    return await asyncpg.connect(target, timeout=timeout, server_settings=settings)


class HotUnavailable(Exception):
    """No connection was free in time, or the one lent was lost: the statement did not run, or its outcome is
    unknown (it may have committed)."""


class HotConnections:
    """``size`` connections to ``dsn`` (a libpq URL) for the loop that opens them (``open``)."""

    def __init__(self, dsn: str, size: int) -> None:
        self.dsn = dsn
        self.size = size
        self._free: asyncio.Queue[asyncpg.Connection] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()  # reconnections, checks and closes under way
        self._closed = False
        self._checking = False  # ``_check_free`` runs

    async def open(self, timeout: float) -> None:
        """Connect all of them (``TimeoutError`` or the driver's error if the database does not answer)."""
        conns = await asyncio.wait_for(asyncio.gather(*(self._connect() for _ in range(self.size))), timeout)
        for conn in conns:
            self._free.put_nowait(conn)

    async def _connect(self) -> asyncpg.Connection:
        conn = await connect(self.dsn, APPLICATION_NAME)
        conn.add_termination_listener(self._ended)
        return conn

    def _ended(self, _conn: Any) -> None:
        """A connection was closed (the server restarted or ended it, or we closed it): the free ones are tried now,
        so a lost one is replaced before a command finds it."""
        if not self._closed and not self._checking:
            self._checking = True
            self._background(self._check_free())

    @property
    def free(self) -> int:
        """Connections ready to lend now."""
        return self._free.qsize()

    @contextlib.asynccontextmanager
    async def connection(self, timeout: float) -> AsyncIterator[asyncpg.Connection]:
        """A free connection for one statement (``HotUnavailable``: none in time, or it was lost)."""
        if self._closed:
            raise HotUnavailable("the hot connections are closed")
        try:
            conn = self._free.get_nowait() if self._free.qsize() else await asyncio.wait_for(self._free.get(), timeout)
        except TimeoutError:
            raise HotUnavailable("no connection free in time") from None
        lost = False
        try:
            yield conn
        except LOST as err:
            lost = True
            raise HotUnavailable(f"connection lost: {err}") from err
        finally:
            self._give_back(conn, lost)

    def _give_back(self, conn: asyncpg.Connection, lost: bool) -> None:
        if self._closed:
            self._discard(conn)
        elif lost or conn.is_closed() or conn.is_in_transaction():
            log.warning("hot connection lost; reconnecting")
            self._discard(conn)
            self._background(self._replace())
            if not self._checking:  # a database restart breaks them all: find the others before a command does
                self._checking = True
                self._background(self._check_free())
        else:
            self._free.put_nowait(conn)

    def _discard(self, conn: asyncpg.Connection) -> None:
        if not conn.is_closed():
            self._background(self._close(conn))

    @staticmethod
    async def _close(conn: asyncpg.Connection) -> None:
        try:
            await asyncio.wait_for(conn.close(), CHECK_SECONDS)
        except Exception:  # the server is gone or slow: drop our end
            conn.terminate()

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _replace(self) -> None:
        while not self._closed:
            try:
                conn = await asyncio.wait_for(self._connect(), CHECK_SECONDS * 5)
            except (asyncpg.PostgresError, *LOST, TimeoutError) as err:
                log.warning("hot connection: %s; retrying", err)
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            if self._closed:
                await self._close(conn)
            else:
                self._free.put_nowait(conn)
            return

    async def _check_free(self) -> None:
        """Try each connection free now with one trivial statement; a lost one is replaced."""
        try:
            for _ in range(self._free.qsize()):
                try:
                    async with self.connection(timeout=CHECK_SECONDS) as conn:
                        await conn.execute("SELECT 1", timeout=CHECK_SECONDS)
                except (HotUnavailable, asyncpg.PostgresError, TimeoutError):
                    pass  # given back lost (replaced), or all busy with the loop's commands: checked by their use
        finally:
            self._checking = False

    async def close(self) -> None:
        """Close the free connections, stop the reconnections; a lent one is closed when it comes back."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        while self._free.qsize():
            await self._close(self._free.get_nowait())
