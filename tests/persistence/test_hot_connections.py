"""The event loop's own connections (``app.persistence.hot``): each lent to one statement at a time, waiters served
in order or refused after their timeout, a lost connection replaced (and its statement's error turned into
``HotUnavailable``), all closed at the end. Postgres only."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg
import pytest

from app.persistence.db import psycopg_dsn
from app.persistence.hot import APPLICATION_NAME, HotConnections, HotUnavailable, asyncpg_target
from tests.realtime.processes import needs_postgres

pytestmark = needs_postgres


def backends(dsn: str) -> list[int]:
    """The process ids of the hot connections Postgres holds now."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s", (APPLICATION_NAME,))
        return [row[0] for row in rows.fetchall()]


def terminate(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                     (APPLICATION_NAME,))


@pytest.fixture
def dsn(database_url: str) -> str:
    url = psycopg_dsn(database_url)
    terminate(url)  # none left over by another test
    return url


def test_one_statement_per_connection_and_waiters_in_order(dsn: str) -> None:
    async def main() -> tuple[list[str], list[int]]:
        hot = HotConnections(dsn, 2)
        await hot.open(timeout=10)
        order: list[str] = []
        pids: list[int] = []
        release = asyncio.Event()

        async def hold(name: str) -> None:
            async with hot.connection(timeout=5) as conn:
                order.append(name)
                pids.append(await conn.fetchval("SELECT pg_backend_pid()"))
                await release.wait()

        holders = [asyncio.create_task(hold(name)) for name in ("a", "b", "c", "d")]
        await asyncio.sleep(0.3)
        assert order == ["a", "b"] and hot.free == 0  # two connections, both lent: c and d wait
        release.set()
        await asyncio.gather(*holders)
        assert order == ["a", "b", "c", "d"] and hot.free == 2
        await hot.close()
        return order, pids

    _, pids = asyncio.run(main())
    assert len(set(pids)) == 2  # the waiters got the same two connections back
    assert backends(dsn) == []  # closed


def test_a_waiter_gives_up_after_its_timeout(dsn: str) -> None:
    async def main() -> float:
        hot = HotConnections(dsn, 1)
        await hot.open(timeout=10)
        try:
            async with hot.connection(timeout=1):
                started = time.monotonic()
                with pytest.raises(HotUnavailable):
                    async with hot.connection(timeout=0.2):
                        pass
                return time.monotonic() - started
        finally:
            await hot.close()

    assert 0.15 < asyncio.run(main()) < 1.0


def test_broken_or_mid_transaction_connections_are_not_lent(dsn: str) -> None:
    async def main() -> None:
        hot = HotConnections(dsn, 2)
        await hot.open(timeout=10)
        try:
            first = set(backends(dsn))
            assert len(first) == 2
            terminate(dsn)  # as a database restart would
            with pytest.raises(HotUnavailable):
                async with hot.connection(timeout=1) as conn:
                    await conn.execute("SELECT 1")
            await until(lambda: hot.free == 2)  # that one replaced, the other found broken by the check
            second = set(backends(dsn))
            assert len(second) == 2 and not second & first
            async with hot.connection(timeout=1) as conn:
                await conn.execute("BEGIN")  # a caller's mistake: the connection comes back in a transaction
            await until(lambda: hot.free == 2)
            for _ in range(2):
                async with hot.connection(timeout=1) as conn:
                    assert await conn.fetchval("SELECT 1") == 1 and not conn.is_in_transaction()
            assert len(set(backends(dsn)) & second) == 1
        finally:
            await hot.close()

    asyncio.run(main())


async def until(check: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.05)


def test_libpq_only_url_options_still_open_the_loop_connections(dsn: str) -> None:
    """psycopg reads libpq's own options from the URL (``connect_timeout``, ``keepalives``, ``gssencmode``); asyncpg
    would send them to the server as settings, which it refuses. They are left out, ``connect_timeout`` becomes
    asyncpg's timeout, and ``options`` still reaches the server."""
    url = dsn + ("&" if "?" in dsn else "?") + ("connect_timeout=7&keepalives=1&gssencmode=disable"
                                                 "&options=-c%20statement_timeout%3D4321")
    with psycopg.connect(url) as conn:  # the URL is a good one for libpq
        assert conn.execute("SHOW statement_timeout").fetchone() == ("4321ms",)

    async def main() -> tuple[str, str]:
        hot = HotConnections(url, 1)
        await hot.open(timeout=10)
        try:
            async with hot.connection(timeout=5) as conn:
                return (await conn.fetchval("SHOW statement_timeout"),
                        await conn.fetchval("SHOW application_name"))
        finally:
            await hot.close()

    assert asyncio.run(main()) == ("4321ms", APPLICATION_NAME)
    target, timeout = asyncpg_target(url)
    assert timeout == 7.0 and "keepalives" not in target and "connect_timeout" not in target
