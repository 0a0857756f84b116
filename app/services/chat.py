"""Table chat and quick reactions in the database (table ``chat_message``), shared by every server process.

Kept out of the engine, out of the game record and off the command path: the chat route
(``app/web/chat.py``) calls ``ChatStore`` and nothing else touches these rows. One post is one write
transaction: the seat is authenticated by its token, the table's chat is locked (Postgres: a
transaction-scoped advisory lock on the table; SQLite: the write transaction already holds the database's
write lock), the seat's messages of the last ``burst_seconds`` are counted (so N server processes do not allow
N times the burst), the message is inserted (its id comes from the database, unique across processes), the
table's older messages beyond ``keep`` are deleted, and the notifier's ``chat_in_transaction`` runs (the
Postgres hub's NOTIFY, delivered only if the transaction commits). The caller then calls
``chat_after_commit`` (the in-memory hub's delivery).

The per-seat limit counts only stored messages, and pruning never reaches them: a table has at most 6
seats, so at most 30 messages fall in one window, fewer than ``keep``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Protocol, cast

from sqlalchemy import Table, bindparam, delete, func, select, text
from sqlalchemy.orm import Session

from app import metrics
from app.persistence.db import Database
from app.persistence.models import ChatMessage, Game, GameTable, Seat
from app.rules.core.ruleset import JSONDict

from .errors import ServiceError, bad_token, table_not_found
from .security import digest

KEEP = 50  # messages kept per table
BURST = 5  # messages ...
BURST_SECONDS = 5.0  # ... per this many seconds and seat

_MESSAGES = cast(Table, ChatMessage.__table__)
_PG_TABLE_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
_RECENT = (select(func.count()).select_from(_MESSAGES)
           .where(_MESSAGES.c.table_id == bindparam("table_id"), _MESSAGES.c.seat_id == bindparam("seat_id"),
                  _MESSAGES.c.at > bindparam("cutoff")))
# The id of the ``keep``-th newest message; everything older goes (nothing while there are fewer).
_PRUNE = delete(_MESSAGES).where(
    _MESSAGES.c.table_id == bindparam("table_id"),
    _MESSAGES.c.id < (select(_MESSAGES.c.id).where(_MESSAGES.c.table_id == bindparam("table_id"))
               .order_by(_MESSAGES.c.id.desc()).offset(bindparam("skip")).limit(1).scalar_subquery()))
_LATEST_SEATS = select(Game.seats).where(Game.table_id == bindparam("table_id")).order_by(
    Game.number.desc()).limit(1)


class ChatNotifier(Protocol):
    """Delivers a stored message to the table's sockets (``app.realtime.backends``)."""

    def chat_in_transaction(self, session: Session, table_id: str, message: JSONDict) -> None: ...
    def chat_after_commit(self, table_id: str, message: JSONDict) -> None: ...


def message_json(row: ChatMessage) -> JSONDict:
    """A stored message as the wire's ``{"type": "chat", ...}``."""
    return {"type": "chat", "id": row.id, "seat": row.seat, "name": row.name, "text": row.text,
            "emoji": row.emoji, "at": row.at}


class ChatStore:
    """Post and read a table's chat (see the module docstring). ``clock``: seconds since the epoch (the
    server's wall clock; the processes' clocks are assumed to agree to well under a window)."""

    def __init__(self, db: Database, keep: int = KEEP, burst: int = BURST, burst_seconds: float = BURST_SECONDS,
                 clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.keep = keep
        self.burst = burst
        self.burst_seconds = burst_seconds
        self.clock = clock

    @staticmethod
    def _lock_key(table_id: str) -> int:
        return int.from_bytes(hashlib.sha256(b"phase10.chat:" + table_id.encode()).digest()[:8], "big",
                              signed=True)

    @staticmethod
    def _table(s: Session, table_id: str) -> GameTable:
        table = s.get(GameTable, table_id)
        if table is None:
            raise table_not_found(table_id)
        return table

    @staticmethod
    def _seat(s: Session, table: GameTable, token: str | None) -> Seat | None:
        """The token's seat at ``table``; ``None`` for a spectator (no token, a table with spectators)."""
        if token:
            seat = s.scalar(select(Seat).where(Seat.token_hash == digest(token), Seat.table_id == table.id))
            if seat is None:
                raise bad_token()
            return seat
        if table.spectators:
            return None
        raise bad_token("a seat token is required (this table has no spectators)")

    def post(self, table_id: str, token: str | None, text: str | None, emoji: str | None,
             notifier: ChatNotifier | None = None) -> JSONDict:
        """Store one message (``text`` or ``emoji``, already validated) from the token's seat; the message.
        Errors: 404 ``table_not_found``, 401 ``bad_token``, 403 ``not_seated``, 429 ``chat_rate``."""
        with self.db.write() as s:
            table = self._table(s, table_id)
            seat = self._seat(s, table, token)
            if seat is None:
                raise ServiceError(403, "not_seated", "only seated players may chat")
            conn = s.connection()
            if conn.dialect.name == "postgresql":
                conn.execute(_PG_TABLE_LOCK, {"key": self._lock_key(table_id)})
            now = self.clock()
            recent = conn.execute(_RECENT, {"table_id": table_id, "seat_id": seat.id,
                                            "cutoff": now - self.burst_seconds}).scalar_one()
            if recent >= self.burst:
                raise ServiceError(429, "chat_rate", "too many messages; wait a moment")
            seats = conn.execute(_LATEST_SEATS, {"table_id": table_id}).scalar()
            # The engine's seat number once a game runs (the seat order frozen at its start), else the lobby's.
            position = next((i for i, entry in enumerate(seats or []) if entry.get("seat_id") == seat.id),
                            seat.position)
            row = ChatMessage(table_id=table_id, seat_id=seat.id, seat=position, name=seat.name, text=text,
                              emoji=emoji, at=now)
            s.add(row)
            s.flush()
            conn.execute(_PRUNE, {"table_id": table_id, "skip": self.keep - 1})
            message = message_json(row)
            if notifier is not None:
                notifier.chat_in_transaction(s, table_id, message)
        metrics.CHAT_MESSAGES.labels("text" if text is not None else "emoji").inc()
        return message

    def history(self, table_id: str, token: str | None) -> list[JSONDict]:
        """The table's last ``keep`` messages, oldest first: for its seats, and anyone when it has spectators.
        Errors: 404 ``table_not_found``, 401 ``bad_token``."""
        with self.db.read() as s:
            table = self._table(s, table_id)
            if not table.spectators:
                self._seat(s, table, token)
            rows = s.scalars(select(ChatMessage).where(ChatMessage.table_id == table_id)
                             .order_by(ChatMessage.id.desc()).limit(self.keep))
            return [message_json(row) for row in reversed(list(rows))]
