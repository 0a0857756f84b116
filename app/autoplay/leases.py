"""Duty leases: which server process makes a table's bot, stand-in and turn-timer decisions and sends its push
reminders (docs/architecture.md, "The bots' runtime": one process at a time, through a lease in the database).

A lease is a ``duty_lease`` row per table with an owner (a process id made at start) and an expiry. A process
takes a table's lease when it is free, expired or already its own (one conditional UPDATE, or the INSERT of the
row: two processes racing for it get one winner), renews every lease it holds on each tick of its runner, and
releases them when it stops. A lease that is not renewed in time -- the process was killed, its machine is gone,
it lost the database for longer than a lease -- expires, and the next tick of any other process finds it and
takes the table over. Expiries are compared on the processes' wall clocks (kept in step by NTP across machines);
the lease (5 s by default) is far longer than their drift. On SQLite (one process) the lease is simply always
its own. Nothing here is a failure detector of its own: a lease expires because its holder stopped renewing it.
"""

from __future__ import annotations

import os
import secrets
import socket
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from app.persistence.db import Database
from app.persistence.models import Game

from .models import DutyLease

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # the expiry of a released lease: free at once
ORPHANS_PER_TICK = 200  # expired leases one tick takes over at most (the next ticks take the rest)


def utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC time (SQLite gives back naive ones)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def process_id() -> str:
    """An id for this process's leases: host, pid and a random part (a restarted process is a new owner)."""
    return f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"


class Leases:
    """This process's side of the duty leases: take, renew, release, and find the ones left to expire."""

    def __init__(self, db: Database, seconds: float, owner: str | None = None) -> None:
        self.db = db
        self.seconds = seconds
        self.owner = owner or process_id()

    @staticmethod
    def now() -> datetime:
        return datetime.now(UTC)

    def held_elsewhere(self, lease: DutyLease | None, now: datetime | None = None) -> bool:
        """Whether ``lease`` (a row read in the caller's session) belongs to another process that is still live."""
        if lease is None or lease.owner is None or lease.owner == self.owner:
            return False
        return utc(lease.expires_at) > (now or self.now())

    def claim(self, table_id: str) -> bool:
        """Take (or keep) the lease of ``table_id``: true when it is this process's until ``seconds`` from now."""
        now = self.now()
        until = now + timedelta(seconds=self.seconds)
        try:
            with self.db.write() as s:
                moved: Any = s.execute(update(DutyLease).where(
                    DutyLease.table_id == table_id,
                    or_(DutyLease.owner == self.owner, DutyLease.owner.is_(None), DutyLease.expires_at < now))
                    .values(owner=self.owner, expires_at=until))
                if moved.rowcount == 1:
                    return True
                if s.get(DutyLease, table_id) is not None:
                    return False  # another process holds it
                s.add(DutyLease(table_id=table_id, owner=self.owner, expires_at=until, absent={}, stand_ins=[]))
        except IntegrityError:
            return False  # another process made the row first (or the table is gone)
        return True

    def tend(self) -> tuple[dict[str, tuple[int, int] | None], list[str]]:
        """One tick: renew every lease of this process; return them, each with its table's running game (id,
        version; ``None`` when none runs), and the tables whose lease expired (taken over by ``claim``)."""
        now = self.now()
        with self.db.write() as s:
            s.execute(update(DutyLease).where(DutyLease.owner == self.owner)
                      .values(expires_at=now + timedelta(seconds=self.seconds)))
            rows = s.execute(select(DutyLease.table_id, Game.id, Game.version)
                             .outerjoin(Game, (Game.table_id == DutyLease.table_id) & (Game.status == "playing"))
                             .where(DutyLease.owner == self.owner)).all()
            orphans = list(s.scalars(select(DutyLease.table_id).where(DutyLease.expires_at < now)
                                     .order_by(DutyLease.expires_at).limit(ORPHANS_PER_TICK)))
        mine: dict[str, tuple[int, int] | None] = {}
        for table_id, game_id, version in rows:
            mine[table_id] = None if game_id is None else (game_id, version)
        return mine, orphans

    def release(self, table_ids: list[str]) -> None:
        """Give these leases up (this process stops): another process may take them at once."""
        if table_ids:
            with self.db.write() as s:
                s.execute(update(DutyLease).where(DutyLease.owner == self.owner, DutyLease.table_id.in_(table_ids))
                          .values(owner=None, expires_at=EPOCH))

    def drop(self, table_id: str) -> None:
        """The table has no duties any more (its game ended, bots and timer are off): forget its lease, if it is this
        process's or nobody's (released, expired)."""
        with self.db.write() as s:
            s.execute(delete(DutyLease).where(
                DutyLease.table_id == table_id,
                or_(DutyLease.owner == self.owner, DutyLease.owner.is_(None), DutyLease.expires_at < self.now())))
