"""Moving a seat to another device: the seat asks for a one-time link (with a QR code of it); opening it on
the other device and confirming gives that device a new seat token, and the old device's token stops working
(REST at once; its open sockets are closed with ``seat_moved`` on every server process).

The code is 128 random bits, stored hashed, valid for ``PHASE10_SEAT_TRANSFER_MINUTES`` and used once.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import segno
from sqlalchemy import delete, select

from app.persistence.models import Seat
from app.rules.core.ruleset import JSONDict

from .errors import ServiceError
from .games import GameService
from .models import SeatTransfer
from .security import digest, new_join_code, new_token

log = logging.getLogger("phase10.games")

SEAT_MOVED = "seat_moved"  # the hub message that closes the old device's sockets (app/realtime/hub.py)


def token_tag(token: str) -> str:
    """What a socket remembers of its token, to tell the old device's sockets from the new one's."""
    return digest(token)[:16]


def qr_svg(link: str) -> str:
    """The link as a QR code in SVG (segno; error correction M, as phone cameras read it well), with a viewBox and
    no fixed size, so the page draws it at the size its stylesheet gives."""
    svg: str = segno.make(link, error="m").svg_inline(scale=4, border=2, title="QR code", svgclass="qr",
                                                      omitsize=True)
    return svg


class SeatTransfers:
    """One-time seat transfer codes over a game service."""

    def __init__(self, service: GameService, minutes: float) -> None:
        self.service = service
        self.minutes = minutes

    def offer(self, table_id: str, token: str | None, base: str) -> JSONDict:
        """A new one-time link for the caller's seat (an earlier one stops working)."""
        code = new_join_code()
        expires = datetime.now(UTC) + timedelta(minutes=self.minutes)
        with self.service.db.write() as s:
            table = self.service.repo.table(s, table_id)
            viewer = self.service.repo.seated(s, table, token)
            assert viewer.seat_id is not None
            s.execute(delete(SeatTransfer).where(SeatTransfer.seat_id == viewer.seat_id))
            s.add(SeatTransfer(seat_id=viewer.seat_id, table_id=table_id, code_hash=digest(code), expires_at=expires))
        link = f"{base.rstrip('/')}/tables/{table_id}/move?code={code}"
        return {"link": link, "expires_at": expires.isoformat(), "qr_svg": qr_svg(link)}

    def claim(self, table_id: str, code: str, notifier: Any, device: str | None = None) -> JSONDict:
        """Take over the seat the code was made for: a new token; the old one and the code stop working.
        ``notifier``: the hub's notifier (``chat_in_transaction`` / ``chat_after_commit``) that reaches the
        table's sockets on every process. ``device``: the new device in words, told to the old one."""
        token = new_token()
        with self.service.db.write() as s:
            row = s.scalar(select(SeatTransfer).where(SeatTransfer.code_hash == digest(code),
                                                      SeatTransfer.table_id == table_id))
            if row is None:
                raise ServiceError(403, "bad_transfer_code", "this seat link is wrong or was used already")
            expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=UTC)
            s.delete(row)  # used once; an expired code goes too (committed below)
            expired = expires < datetime.now(UTC)
            if not expired:
                seat = s.get(Seat, row.seat_id)
                assert seat is not None
                seat.token_hash = digest(token)
                message = {"type": SEAT_MOVED, "seat_id": seat.id, "tag": token_tag(token), "device": device}
                notifier.chat_in_transaction(s, table_id, message)
                position, name = seat.position, seat.name
        if expired:
            raise ServiceError(410, "transfer_expired", "this seat link has expired; ask for a new one")
        notifier.chat_after_commit(table_id, message)
        log.info("seat moved to another device", extra={"table_id": table_id, "seat": position})
        return {"table_id": table_id, "seat": position, "name": name, "token": token}
