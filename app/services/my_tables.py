"""My tables: the tables this browser holds seats at, found from its seat cookies (no accounts).

Each entry is public table data plus what the seat itself may know: whether its game awaits it (``your_turn``),
runs or waits for players (``waiting``) or is over (``finished``), and the table's series (``app.services.series``):
every game with its winners, scores and replay link, and the standings across the finished games. Newest table
first.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import defer

from app.persistence.models import Game, GameTable, Seat
from app.rules.core.ruleset import JSONDict

from .games import GameService
from .security import digest
from .series import table_series

MAX_TABLES = 50


def my_tables(service: GameService, tokens: dict[str, str]) -> list[JSONDict]:
    """``tokens``: table id -> seat token (the browser's ``p10_seat_<table>`` cookies). Unknown, removed or
    moved seats are left out."""
    if not tokens:
        return []
    hashes = {digest(token): table_id for table_id, token in list(tokens.items())[:200]}
    out: list[JSONDict] = []
    with service.db.read() as s:
        found = s.execute(select(Seat, GameTable).join(GameTable, GameTable.id == Seat.table_id)
                          .where(Seat.token_hash.in_(list(hashes)))
                          .order_by(GameTable.created_at.desc()).limit(MAX_TABLES)).all()
        rows = [(seat, table) for seat, table in found if hashes.get(seat.token_hash or "") == table.id]
        ids = [table.id for _, table in rows]  # (a cookie of one table holding another table's token is left out)
        # Every game and seat name of these tables in two statements; the snapshots stay unread (a running game's
        # state comes from the state cache or its own read).
        games_of: dict[str, list[Game]] = defaultdict(list)
        for game in s.scalars(select(Game).options(defer(Game.snapshot), defer(Game.previous_snapshot))
                              .where(Game.table_id.in_(ids)).order_by(Game.table_id, Game.number)):
            games_of[game.table_id].append(game)
        names_of: dict[str, list[str]] = defaultdict(list)
        for table_id, name in s.execute(select(Seat.table_id, Seat.name).where(Seat.table_id.in_(ids))
                                        .order_by(Seat.table_id, Seat.position)):
            names_of[table_id].append(name)
        for seat, table in rows:
            games = games_of[table.id]
            names = names_of[table.id]
            latest = games[-1] if games else None
            badge = "waiting"
            if latest is not None and latest.status == "finished":
                badge = "finished"
            elif latest is not None:
                engine_seat = service.repo.engine_seat(latest, seat.id)
                ruleset = service.repo.ruleset(latest.ruleset)
                if engine_seat is not None and engine_seat in ruleset.awaited(service.repo.state(s, ruleset, latest)):
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
