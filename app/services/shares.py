"""Share links: a read-only link to one finished game's replay, for friends who hold no seat at the table.

A seat of the table makes one once the game has finished; the link carries a random token (256 bits) of which
only the SHA-256 is stored, so it is shown once, to its maker. Its address is ``/shared/{token}``: the server
finds the game from the token (``Replays.share_access``), and the answers through it (``/api/shared/{token}/...``:
the replay, its steps, the record and the analysis) name no table, so the holder learns nothing else of it: no
table id, hence no table info, no other game, no socket, no chat, no view. The host revokes any link of the
table, the seat that made one its own; a revoked link answers 401 ``bad_share`` at once, on every route it
opened. At most ``MAX_SHARES_PER_GAME`` links a game: the game row is locked while one is counted and made. A
running game's public replay is not concerned (it follows the spectator rule).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from app.persistence.models import Game, ReplayShare, Seat
from app.rules.core.ruleset import JSONDict

from .errors import ServiceError
from .games import GameService
from .security import digest, new_token

MAX_SHARES_PER_GAME = 20


def share_url(base: str, token: str) -> str:
    """A share link's address: the token alone (the server finds its game), no table id."""
    return f"{base.rstrip('/')}/shared/{token}"


def _finished_game(service: GameService, s: Any, table_id: str, number: int) -> Game:
    game = service.repo.game_number(s, table_id, number)
    if game.status != "finished":
        raise ServiceError(409, "game_not_finished", "a game can be shared once it has finished")
    return game


def create_share(service: GameService, table_id: str, token: str | None, number: int, base: str) -> JSONDict:
    """A new share link of finished game ``number``, made by the seat of ``token`` (C-9: the record of a
    finished game is public to its table; this hands it to one more reader)."""
    with service.db.write() as s:
        table = service.repo.table(s, table_id)
        viewer = service.repo.seated(s, table, token)
        game = _finished_game(service, s, table_id, number)
        # the game row locked until the commit (Postgres; SQLite writes one at a time): two requests at once
        # cannot both count 19 and both insert
        s.execute(select(Game.id).where(Game.id == game.id).with_for_update())
        count = s.scalar(select(func.count()).select_from(ReplayShare).where(ReplayShare.game_id == game.id)) or 0
        if count >= MAX_SHARES_PER_GAME:
            raise ServiceError(409, "too_many_shares",
                               f"a game has at most {MAX_SHARES_PER_GAME} share links; revoke one first")
        secret = new_token()
        assert viewer.seat_id is not None
        row = ReplayShare(game_id=game.id, token_hash=digest(secret), created_by=viewer.seat_id)
        s.add(row)
        s.flush()
        maker = s.get(Seat, viewer.seat_id)
        return {"id": row.id, "token": secret, "url": share_url(base, secret),
                "created_at": row.created_at.isoformat(), "by": maker.name if maker else None, "revocable": True}


def list_shares(service: GameService, table_id: str, token: str | None, number: int) -> list[JSONDict]:
    """The share links of game ``number`` (never their tokens), each saying whether the asking seat may revoke
    it (the host: all of them; another seat: its own)."""
    with service.db.read() as s:
        table = service.repo.table(s, table_id)
        viewer = service.repo.seated(s, table, token)
        game = service.repo.game_number(s, table_id, number)
        rows = s.execute(select(ReplayShare, Seat.name).outerjoin(Seat, Seat.id == ReplayShare.created_by)
                         .where(ReplayShare.game_id == game.id).order_by(ReplayShare.id)).all()
        return [{"id": row.id, "created_at": row.created_at.isoformat(), "by": name,
                 "revocable": viewer.is_host or row.created_by == viewer.seat_id} for row, name in rows]


def revoke_share(service: GameService, table_id: str, token: str | None, number: int, share_id: int) -> None:
    """Delete a share link: the host any of the table's, another seat only its own (403 ``not_host``)."""
    with service.db.write() as s:
        table = service.repo.table(s, table_id)
        viewer = service.repo.seated(s, table, token)
        game = service.repo.game_number(s, table_id, number)
        row = s.scalar(select(ReplayShare).where(ReplayShare.id == share_id, ReplayShare.game_id == game.id))
        if row is None:
            raise ServiceError(404, "share_not_found", f"no share link {share_id} of this game")
        if not viewer.is_host and row.created_by != viewer.seat_id:
            raise ServiceError(403, "not_host", "only the host (or the seat that made it) may revoke a share link")
        s.delete(row)
