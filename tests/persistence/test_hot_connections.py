"""The event loop's hot connections (``app.persistence.db.HotConnections``, Postgres): a statement borrows a
connection from a free list, not from the pool, and only a connection in doubt goes back to the pool."""

from __future__ import annotations

import asyncio

import pytest
from psycopg_pool import PoolTimeout

from app.persistence.db import Database
from tests.conftest import TEST_DATABASE_URL

pytestmark = pytest.mark.skipif(not TEST_DATABASE_URL.startswith("postgresql"), reason="Postgres only")


def test_statements_reuse_a_kept_connection_and_a_doubtful_one_goes_back_to_the_pool(database_url: str) -> None:
    async def scenario() -> None:
        db = Database(database_url)
        await db.open_hot_pool(2)
        hot = db.hot_pool_here()
        assert hot is not None
        try:
            first = await hot.take(1.0)
            assert (await (await first.execute("SELECT 1")).fetchone()) == (1,)
            await hot.give_back(first)
            for _ in range(20):
                conn = await hot.take(1.0)
                assert conn is first  # kept on the free list: no pool round
                await conn.execute("SELECT 1")
                await hot.give_back(conn)
            assert hot.pool.get_stats().get("requests_num", 0) == 1

            # Two lent at once: the second comes from the pool; with both out the pool times out.
            a, b = await hot.take(1.0), await hot.take(1.0)
            assert a is not b
            with pytest.raises(PoolTimeout):
                await hot.take(0.2)

            # A connection left inside a transaction is in doubt: it returns to the pool, not to the free list.
            await a.execute("BEGIN")
            await hot.give_back(a)
            assert a not in hot.free
            await hot.give_back(b)
            assert hot.free == [b]
            again = await hot.take(1.0)
            assert again is b
            other = await hot.take(1.0)  # from the pool: reset (rolled back) or replaced
            assert (await (await other.execute("SELECT 2")).fetchone()) == (2,)
            await hot.give_back(again)
            await hot.give_back(other)
        finally:
            await db.close_hot_pool()
            db.dispose()
        assert hot.pool.closed and hot.free == []
        assert db.hot_pool_here() is None

    asyncio.run(scenario())
