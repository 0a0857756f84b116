"""Seat tokens, join codes (random, stored as SHA-256 hashes) and the wrong-join-code rate limiter."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import Table, bindparam, delete, func, insert, select, text
from sqlalchemy.orm import Session

from app.persistence.models import JoinFailure, utcnow


def new_token() -> str:
    """A seat token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def new_join_code() -> str:
    """A join code: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(secret), stored_digest)


_F = cast(Table, JoinFailure.__table__)
# Built once (compiled once): a successful join pays these two statements on its own connection, ~0.2 ms.
_PG_ADDRESS_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
_COUNTS = select(
    select(func.count()).select_from(_F)
    .where(_F.c.table_id == bindparam("table_id"), _F.c.failed_at > bindparam("cutoff")).scalar_subquery(),
    select(func.count()).select_from(_F)
    .where(_F.c.address == bindparam("address"), _F.c.failed_at > bindparam("cutoff")).scalar_subquery())
_INSERT = insert(_F)
_PRUNE = delete(_F).where(_F.c.failed_at <= bindparam("cutoff"))


class JoinLimiter:
    """Wrong join codes: at most ``per_table`` per table and ``per_address`` per client address within a
    sliding ``window`` of seconds, counted in the database (table ``join_failure``), so every server process
    sharing it enforces the same limit (N processes no longer allow N times the attempts).

    The game service calls ``blocked`` and, for a wrong code, ``hit`` inside the join's write transaction,
    after it has locked the table row, so the failure is committed before another attempt on that table can
    count: the per-table limit is exact however many processes race. On Postgres ``blocked`` also takes a
    transaction-scoped advisory lock on the address, which makes the per-address limit exact across tables
    too; on SQLite the write transaction already holds the database's write lock. A successful join pays
    two small statements (one on SQLite); the command path never touches this.

    Rows older than the window are deleted by ``hit``, at most once per window per process. Times come from
    ``clock`` (the server's wall clock; the processes' clocks are assumed to agree to well under a window).
    """

    def __init__(self, per_table: int, per_address: int, window: float,
                 clock: Callable[[], datetime] = utcnow) -> None:
        self.per_table = per_table
        self.per_address = per_address
        self.window = window
        self.clock = clock
        self._pruned: datetime | None = None

    @staticmethod
    def _address(address: str) -> str:
        return address[:255]

    @staticmethod
    def _lock_key(address: str) -> int:
        return int.from_bytes(hashlib.sha256(b"phase10.join:" + address.encode()).digest()[:8], "big",
                              signed=True)

    def blocked(self, s: Session, table_id: str, address: str) -> bool:
        """Whether ``table_id`` or ``address`` has used up its wrong codes for now (in ``s``'s transaction)."""
        address = self._address(address)
        conn = s.connection()
        if conn.dialect.name == "postgresql":
            conn.execute(_PG_ADDRESS_LOCK, {"key": self._lock_key(address)})
        cutoff = self.clock() - timedelta(seconds=self.window)
        on_table, from_address = conn.execute(
            _COUNTS, {"table_id": table_id, "address": address, "cutoff": cutoff}).one()
        return bool(on_table >= self.per_table or from_address >= self.per_address)

    def hit(self, s: Session, table_id: str, address: str) -> None:
        """Record one wrong code (committed with ``s``'s transaction) and prune expired rows now and then."""
        now = self.clock()
        conn = s.connection()
        conn.execute(_INSERT, {"table_id": table_id, "address": self._address(address), "failed_at": now})
        if self._pruned is None or now - self._pruned >= timedelta(seconds=self.window):
            self._pruned = now
            conn.execute(_PRUNE, {"cutoff": now - timedelta(seconds=self.window)})
