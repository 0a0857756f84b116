"""My tables: the tables this browser holds seats at, found from its seat cookies (no accounts).

Each entry is public table data plus what the seat itself may know: whether its game awaits it (``your_turn``),
runs or waits for players (``waiting``) or is over (``finished``), and the table's series (``app.services.series``):
every game with its winners, scores and replay link, and the standings across the finished games. Newest table
first.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.persistence.models import Game, GameTable, Seat

from .games import GameService
from .security import digest
from .series import table_series

JSONDict = dict[str, Any]
MAX_TABLES = 50


def my_tables(service: GameService, tokens: dict[str, str]) -> list[JSONDict]:
    """``tokens``: table id -> seat token (the browser's ``p10_seat_<table>`` cookies). Unknown, removed or
    moved seats are left out."""
    if not tokens:
        return []
    hashes = {digest(token): table_id for table_id, token in list(tokens.items())[:200]}
    out: list[JSONDict] = []
    with service.db.read() as s:
        rows = s.execute(select(Seat, GameTable).join(GameTable, GameTable.id == Seat.table_id)
                         .where(Seat.token_hash.in_(list(hashes)))
                         .order_by(GameTable.created_at.desc()).limit(MAX_TABLES)).all()
        for seat, table in rows:
            if hashes.get(seat.token_hash or "") != table.id:
                continue  # a cookie of one table holding another table's token: not this seat
            games = list(s.scalars(select(Game).where(Game.table_id == table.id).order_by(Game.number)))
            names = [x.name for x in service._seats(s, table.id)]
            latest = games[-1] if games else None
            badge = "waiting"
            if latest is not None and latest.status == "finished":
                badge = "finished"
            elif latest is not None:
                engine_seat = service._engine_seat(latest, seat.id)
                ruleset = service._ruleset(latest.ruleset)
                if engine_seat is not None and engine_seat in ruleset.awaited(service._state(s, ruleset, latest)):
                    badge = "your_turn"
            story = table_series(service, s, table.id)
            out.append({
                "table_id": table.id, "ruleset": table.ruleset, "created_at": table.created_at.isoformat(),
                "seat": seat.position, "name": seat.name, "players": names, "badge": badge,
                "status": "waiting" if latest is None else latest.status,
                "link": f"/tables/{table.id}",
                "games": story["games"], "standings": story["standings"],
            })
    return out
