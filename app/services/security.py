"""Seat tokens, join codes (random, stored as SHA-256 hashes) and the wrong-join-code rate limiter."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from collections import deque
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
    """12 URL-safe characters (72 random bits), never starting with "-" (a command line would take it for an
    option: ``python -m app.admin export TABLE_ID``)."""
    while (table_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return table_id


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(secret), stored_digest)


_FAILURES = cast(Table, JoinFailure.__table__)
# Built once (compiled once): a successful join pays these two statements on its own connection, ~0.2 ms.
_PG_ADDRESS_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
_COUNTS = select(
    select(func.count()).select_from(_FAILURES)
    .where(_FAILURES.c.table_id == bindparam("table_id"), _FAILURES.c.address == bindparam("address"),
           _FAILURES.c.failed_at > bindparam("cutoff")).scalar_subquery(),
    select(func.count()).select_from(_FAILURES)
    .where(_FAILURES.c.address == bindparam("address"), _FAILURES.c.failed_at > bindparam("cutoff")).scalar_subquery())
_INSERT = insert(_FAILURES)
_PRUNE = delete(_FAILURES).where(_FAILURES.c.failed_at <= bindparam("cutoff"))


def address_key(address: str) -> str:
    """The key an address counts under: an IPv6 address's /64 network, anything else as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:255]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class JoinLimiter:
    """Wrong join codes: at most ``per_table`` per table and ``per_address`` in all from one client address
    within a sliding ``window`` of seconds. Only the address that sent the wrong codes is refused (429, even
    with the right code, until the window has passed); every other address keeps joining. So knowing a table
    id never locks its invitees out, while a guesser gets ``per_address`` tries a window against 128-bit
    codes. IPv6 addresses count by their /64 network (what one host usually holds), IPv4 by the address.

    The counts live in the database (table ``join_failure``), so every server process sharing it enforces
    the same limit (N processes do not allow N times the attempts). The game service calls ``blocked`` and,
    for a wrong code, ``hit`` inside the join's write transaction, after it has locked the table row, so the
    failure is committed before another attempt on that table can count. On Postgres ``blocked`` also takes
    a transaction-scoped advisory lock on the address, which makes the per-address limit exact across tables
    too; on SQLite the write transaction already holds the database's write lock. A successful join pays two
    small statements (one on SQLite); the command path never touches this.

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
        return address_key(address)

    @staticmethod
    def _lock_key(address: str) -> int:
        return int.from_bytes(hashlib.sha256(b"phase10.join:" + address.encode()).digest()[:8], "big",
                              signed=True)

    def blocked(self, s: Session, table_id: str, address: str) -> bool:
        """Whether ``address`` has used up its wrong codes, on ``table_id`` or in all, for now (in ``s``'s
        transaction). Other addresses' wrong codes never count here."""
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


class AttemptCounter:
    """Failed attempts per key (a client address) in a sliding ``window`` of seconds, in this process's
    memory: ``blocked(key)`` once ``limit`` failures are in the window. For cheap, non-stored checks such
    as socket authentications (seat tokens carry 256 bits; this only bounds the work one address causes)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 100_000) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.max_keys = max_keys
        self._hits: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float] | None:
        hits = self._hits.get(key)
        if hits is None:
            return None
        cutoff = self.clock() - self.window
        while hits and hits[0] <= cutoff:
            hits.popleft()
        if not hits:
            del self._hits[key]
            return None
        return hits

    def blocked(self, key: str) -> bool:
        hits = self._recent(address_key(key))
        return hits is not None and len(hits) >= self.limit

    def hit(self, key: str) -> None:
        key = address_key(key)
        hits = self._recent(key)
        if hits is None:
            if len(self._hits) >= self.max_keys:  # bounded memory: forget the oldest key
                self._hits.pop(next(iter(self._hits)))
            hits = self._hits[key] = deque()
        hits.append(self.clock())
