"""The database handle: engines and session factories, and ``alembic upgrade head`` from code."""

from __future__ import annotations

import asyncio
import select
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import asyncpg
import psycopg
from sqlalchemy import Engine, create_engine, event, exc, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from app import fastjson
from app.persistence.hot import HotConnections, HotUnavailable

ROOT = Path(__file__).resolve().parents[2]


def psycopg_dsn(url: str) -> str:
    """The libpq connection string of a SQLAlchemy ``postgresql+psycopg://`` URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _sqlite_engine(url: str, immediate: bool) -> Engine:
    parsed = make_url(url)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                           json_serializer=fastjson.dumps, json_deserializer=fastjson.loads)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # let the "begin" hook below issue BEGIN itself
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Writers take the write lock up front so a read-then-write never fails with SQLITE_BUSY;
        # the version check then decides the race cleanly (stale_version).
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def connection_ended(dbapi_conn: Any) -> bool:
    """Whether the server ended this idle pooled psycopg connection, checked without a round trip: an idle
    connection is sent nothing unasked, so a socket with something to read (the server's goodbye and end of file
    after a restart or ``pg_terminate_backend``) or an error is one to throw away. Costs one ``poll`` system call
    where a ping costs a round trip to the server."""
    if dbapi_conn.closed:
        return True
    try:
        fd = dbapi_conn.pgconn.socket
    except psycopg.OperationalError:
        return True
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))


def _check_on_checkout(engine: Engine) -> None:
    """A pooled connection the server ended is replaced on checkout (SQLAlchemy reconnects on a
    ``DisconnectionError``), so the first requests after a database restart do not fail on it."""

    @event.listens_for(engine, "checkout")
    def _on_checkout(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
        if connection_ended(dbapi_conn):
            raise exc.DisconnectionError("the server ended this pooled connection")


def database_unavailable(err: BaseException) -> bool:
    """Whether ``err`` means the database cannot be reached or its connection was lost (a restart, a shutdown, an
    administrator ending sessions, too many clients): the request may be tried again shortly (HTTP 503
    ``database_unavailable``), unlike a bug. SQLite's "database is locked" counts too."""
    if isinstance(err, exc.DBAPIError) and err.connection_invalidated:
        return True
    return isinstance(err, exc.OperationalError | exc.InterfaceError | exc.DisconnectionError
                      | psycopg.OperationalError | psycopg.InterfaceError | HotUnavailable
                      | asyncpg.PostgresConnectionError | asyncpg.OperatorInterventionError)


class Database:
    """Read and write session factories on one database URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            self.write_engine = _sqlite_engine(url, immediate=True)
            self.read_engine = _sqlite_engine(url, immediate=False)
        else:
            # No pre-ping (a round trip per checkout on the hot path): a connection the server ended is found on
            # checkout by a look at its socket (``connection_ended``) and replaced.
            self.write_engine = create_engine(url, pool_size=20, max_overflow=20, pool_recycle=1800,
                                              json_serializer=fastjson.dumps, json_deserializer=fastjson.loads)
            if self.write_engine.dialect.driver == "psycopg":
                _check_on_checkout(self.write_engine)
            self.read_engine = self.write_engine
        dialect = self.write_engine.dialect
        # Postgres through psycopg 3: the hot path may run its few statements on the raw driver connection.
        self.is_psycopg = dialect.name == "postgresql" and dialect.driver == "psycopg"
        self._write = sessionmaker(self.write_engine, expire_on_commit=False)
        self._read = sessionmaker(self.read_engine, expire_on_commit=False)
        # Postgres: reads of independent facts with no BEGIN/COMMIT round trips (each statement sees the latest
        # commit); SQLite keeps its ordinary read transaction (no round trips to save).
        self._peek = self._read if self.is_sqlite else sessionmaker(
            self.read_engine.execution_options(isolation_level="AUTOCOMMIT"), expire_on_commit=False)
        # Postgres, while the server runs: a few asyncpg connections for the event loop (``open_hot_pool``), which
        # writes the usual socket command with one statement and no worker thread.
        self.hot_pool: HotConnections | None = None
        self._hot_loop: asyncio.AbstractEventLoop | None = None

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction: committed on success, rolled back on any exception."""
        with self._write() as session, session.begin():
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._read() as session, session.begin():
            yield session

    @contextmanager
    def peek(self) -> Iterator[Session]:
        """A read session for callers whose statements need not share one snapshot (the fan-out's fast path:
        one query, then only data that version-keyed caches already hold)."""
        with self._peek() as session, session.begin():
            yield session

    @contextmanager
    def autocommit_cursor(self) -> Iterator[Any]:
        """Postgres through psycopg only: a raw cursor (Postgres's own ``$1`` parameters) on a pooled connection in
        autocommit mode, for a hot path whose one statement is its whole transaction (no BEGIN or COMMIT round
        trip)."""
        fairy = self.write_engine.raw_connection()
        try:
            conn: Any = fairy.driver_connection
            conn.autocommit = True
            try:
                with psycopg.RawCursor(conn) as cursor:
                    yield cursor
            finally:
                if not conn.closed:
                    conn.autocommit = False
        except Exception:
            if fairy.driver_connection is not None and fairy.driver_connection.closed:
                fairy.invalidate()  # a broken connection is not handed out again
            raise
        finally:
            fairy.close()

    async def open_hot_pool(self, size: int) -> None:
        """On the server's event loop: open ``hot_pool`` with ``size`` asyncpg connections (Postgres only; nothing
        on SQLite, with ``size`` 0, or when they are open already: they serve the loop that opened them)."""
        if not self.is_psycopg or size <= 0 or self.hot_pool is not None:
            return
        pool = HotConnections(psycopg_dsn(self.url), size)
        await pool.open(timeout=10)
        self.hot_pool, self._hot_loop = pool, asyncio.get_running_loop()

    def hot_pool_here(self) -> HotConnections | None:
        """``hot_pool``, if it was opened on the running event loop."""
        if self.hot_pool is None or self._hot_loop is not asyncio.get_running_loop():
            return None
        return self.hot_pool

    async def close_hot_pool(self) -> None:
        """Close ``hot_pool`` (on the loop that opened it)."""
        pool = self.hot_pool_here()
        if pool is not None:
            self.hot_pool = self._hot_loop = None
            await pool.close()

    def ping(self) -> None:
        with self.read_engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def dispose(self) -> None:
        self.write_engine.dispose()
        if self.read_engine is not self.write_engine:
            self.read_engine.dispose()


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str) -> None:
    """``alembic upgrade head`` on ``url`` (the only way the schema is made)."""
    from alembic import command

    command.upgrade(alembic_config(url), "head")


@cache
def head_revisions() -> frozenset[str]:
    """The Alembic head revision(s) of ``migrations/`` (what ``upgrade head`` reaches)."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


def current_revisions(db: Database) -> set[str]:
    """The revision(s) stamped in the database (empty before the first ``upgrade``); raises when it is down."""
    from alembic.migration import MigrationContext

    with db.read_engine.connect() as conn:
        return set(MigrationContext.configure(conn).get_current_heads())
