"""Seat tokens, join codes (random, stored as SHA-256 hashes) and the wrong-join-code rate limiter."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable


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


class SlidingWindowLimiter:
    """At most ``limit`` failures per key within ``window`` seconds (in-memory, per process)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._hits: dict[Hashable, deque[float]] = {}
        self._lock = threading.Lock()

    def _trim(self, key: Hashable, now: float) -> deque[float]:
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if not hits:
            del self._hits[key]
            return deque()
        return hits

    def blocked(self, key: Hashable) -> bool:
        with self._lock:
            return len(self._trim(key, self.clock())) >= self.limit

    def hit(self, key: Hashable) -> None:
        with self._lock:
            now = self.clock()
            self._trim(key, now)
            self._hits.setdefault(key, deque()).append(now)
