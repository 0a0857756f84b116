"""``GameRepo``: the one owner of a game's storage. Every read of the command path and the append of an accepted
command go through it, whichever driver the caller holds (docs/architecture.md, "The service").

* loads: a table, its seats, its current game (``latest_game``: a plain row, with the earlier row of a command id
  in the same round trip), a game by number, the seat of a token, a game's state at its version (C-10);
* the append (``app.persistence.append``, one definition per dialect): ``append`` inside the caller's
  transaction (psycopg on Postgres, SQLAlchemy Core on SQLite), ``append_autocommit`` as its own transaction on
  a pooled psycopg connection (a worker thread), ``append_on`` on one of the event loop's asyncpg connections;
* a game's commands (``commands``), a finished game's pack (``finish``).

Each read is defined once (``app.persistence.reads.Read``): Core on SQLite, the same statement's one Postgres text
on psycopg and asyncpg.
"""

from __future__ import annotations

from typing import Any, cast

import psycopg
from sqlalchemy import Table, and_, bindparam, select
from sqlalchemy.orm import Session, defer

from app.persistence import append as appends
from app.persistence.commands import StoredCommand, pack_game, packed_command, read_commands
from app.persistence.db import Database
from app.persistence.models import Game, GameCommand, GameTable, Seat
from app.persistence.reads import Read

from .base import AnyRuleset, RulesetCatalog, StateCache, Viewer
from .errors import ServiceError, bad_token, table_not_found
from .security import digest

_GAMES = cast(Table, Game.__table__)
_COMMANDS = cast(Table, GameCommand.__table__)
_SEATS = cast(Table, Seat.__table__)
_TABLES = cast(Table, GameTable.__table__)
_GAME_COLUMNS = (_GAMES.c.id, _GAMES.c.version, _GAMES.c.snapshot_version, _GAMES.c.seats, _GAMES.c.ruleset,
                 _GAMES.c.players, _GAMES.c.status)

# The running game of a table, as a plain row (no ORM instance: the read of every command on the ordinary path).
LATEST_GAME = Read(select(*_GAME_COLUMNS).where(_GAMES.c.table_id == bindparam("table_id"))
                   .order_by(_GAMES.c.number.desc()).limit(1))
# The same, with the earlier row of the command id in this game (``dup_seq`` is ``None`` when there is none).
LATEST_GAME_AND_COMMAND = Read(
    select(*_GAME_COLUMNS, _COMMANDS.c.seat.label("dup_seat"), _COMMANDS.c.seq.label("dup_seq"))
    .select_from(_GAMES.outerjoin(_COMMANDS, and_(_COMMANDS.c.game_id == _GAMES.c.id,
                                                  _COMMANDS.c.command_id == bindparam("command_id"))))
    .where(_GAMES.c.table_id == bindparam("table_id")).order_by(_GAMES.c.number.desc()).limit(1))
# The seat of a token at a table (a worker thread's session, or the event loop's own connection).
SEAT_OF_TOKEN = Read(select(_SEATS.c.id, _SEATS.c.is_host).where(_SEATS.c.token_hash == bindparam("token_hash"),
                                                                 _SEATS.c.table_id == bindparam("table_id")))
RULESET_OF = Read(select(_TABLES.c.ruleset).where(_TABLES.c.id == bindparam("table_id")))


class GameRepo:
    """Tables, seats, games and their commands in one database, and the decoded states this process holds
    (``states``)."""

    def __init__(self, db: Database, catalog: RulesetCatalog, states: StateCache) -> None:
        self.db = db
        self.catalog = catalog
        self.states = states

    def ruleset(self, ruleset_id: str) -> AnyRuleset:
        return self.catalog.get(ruleset_id)

    # ----------------------------------------------------------------- tables and seats
    def table(self, s: Session, table_id: str, lock: bool = False) -> GameTable:
        """The table (404 ``table_not_found``); ``lock``: its row locked until the commit (Postgres)."""
        stmt = select(GameTable).where(GameTable.id == table_id)
        if lock and not self.db.is_sqlite:
            stmt = stmt.with_for_update()
        table = s.scalar(stmt)
        if table is None:
            raise table_not_found(table_id)
        return table

    def seats(self, s: Session, table_id: str) -> list[Seat]:
        return list(s.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.position)))

    @staticmethod
    def bump(table: GameTable) -> None:
        """A lobby change: the table's ``revision`` moves on."""
        table.revision = table.revision + 1

    def ruleset_of(self, table_id: str) -> str:
        """The table's rule set (``unknown`` for a table that does not exist)."""
        with self.db.peek() as s:
            row = RULESET_OF.first(s, {"table_id": table_id})
        return "unknown" if row is None else str(row.ruleset)

    # ----------------------------------------------------------------- who is asking
    def seat_of_token(self, s: Session, table_id: str, token: str | None) -> Viewer | None:
        """The seat of ``token`` at ``table_id`` (``None``: no token, or not a seat's here)."""
        if not token:
            return None
        row = SEAT_OF_TOKEN.first(s, {"token_hash": digest(token), "table_id": table_id})
        return None if row is None else Viewer(row.id, row.is_host)

    async def seat_of_token_on(self, conn: Any, table_id: str, token: str) -> Viewer | None:
        """``seat_of_token`` on one of the event loop's connections."""
        row = await SEAT_OF_TOKEN.first_on(conn, {"token_hash": digest(token), "table_id": table_id})
        return None if row is None else Viewer(row[0], row[1])

    def viewer(self, s: Session, table: GameTable, token: str | None) -> Viewer:
        """A seat (401 ``bad_token`` for a token that is no seat's here) or, at a table with spectators and with no
        token, a spectator."""
        if token:
            seat = self.seat_of_token(s, table.id, token)
            if seat is None:
                raise bad_token()
            return seat
        if table.spectators:
            return Viewer(None)
        raise bad_token("a seat token is required (this table has no spectators)")

    def seated(self, s: Session, table: GameTable, token: str | None) -> Viewer:
        viewer = self.viewer(s, table, token)
        if viewer.seat_id is None:
            raise bad_token("a seat token is required")
        return viewer

    @staticmethod
    def engine_seat(game: Any, seat_id: int | None) -> int | None:
        """The engine's seat number of ``seat_id`` in ``game`` (a ``Game`` or a row with its ``seats``)."""
        if seat_id is None:
            return None
        return next((i for i, entry in enumerate(game.seats) if entry["seat_id"] == seat_id), None)

    # ----------------------------------------------------------------- games
    def game(self, s: Session, table_id: str) -> Game | None:
        """The table's current game (the snapshot is loaded only when the state cache misses)."""
        return s.scalar(select(Game).options(defer(Game.snapshot), defer(Game.previous_snapshot))
                        .where(Game.table_id == table_id)
                        .order_by(Game.number.desc()).limit(1))

    def game_number(self, s: Session, table_id: str, number: int) -> Game:
        """Game ``number`` of the table (404 ``game_not_found``; the snapshots are loaded only if read)."""
        game = s.scalar(select(Game).options(defer(Game.snapshot), defer(Game.previous_snapshot))
                        .where(Game.table_id == table_id, Game.number == number))
        if game is None:
            raise ServiceError(404, "game_not_found", f"no game {number} at this table")
        return game

    def latest_game(self, s: Session, table_id: str, command_id: str | None = None) -> Any:
        """The table's current game as a plain row (``None``: none yet); with ``command_id``, also that command's
        earlier row in this game, if any (``dup_seq``, ``dup_seat``)."""
        if command_id is None:
            return LATEST_GAME.first(s, {"table_id": table_id})
        return LATEST_GAME_AND_COMMAND.first(s, {"table_id": table_id, "command_id": command_id})

    def state(self, s: Session, ruleset: AnyRuleset, game: Any) -> Any:
        """The game's state at its current version: from this process's cache, or the stored snapshot (taken
        every ``snapshot_every`` commands) plus the commands accepted since, replayed (C-10). ``game`` is a
        ``Game`` or a row with its id and version."""
        state = self.states.get(game.id, game.version)
        if state is None:
            # The snapshot and its version in one statement: a command committed since ``game`` was read may
            # have stored a newer snapshot. One newer than the version asked for cannot be wound back: then
            # the game is replayed from its seed (C-10), which is always possible.
            row = s.execute(select(Game.snapshot, Game.snapshot_version, Game.seed, Game.players, Game.options)
                            .where(Game.id == game.id)).one_or_none()
            if row is None or row.snapshot is None:  # every game row is written with its first snapshot
                raise RuntimeError(f"game {game.id} has no snapshot")
            if row.snapshot_version <= game.version:
                state, since = ruleset.state_from_json(row.snapshot), row.snapshot_version
            else:
                state, since = ruleset.new_game(row.seed, row.players, ruleset.parse_options(row.options)), 0
            if since < game.version:
                for c in read_commands(s, game.id, since, game.version):
                    state, _ = ruleset.apply(state, c.seat, ruleset.parse_command(c.command))
            self.states.put(game.id, game.version, state)
        return state

    # ----------------------------------------------------------------- commands
    def commands(self, s: Session, game_id: int, after: int = 0, upto: int | None = None) -> list[StoredCommand]:
        """The game's commands ``after + 1 .. upto`` (rows, or the pack of a finished game)."""
        return read_commands(s, game_id, after, upto)

    def packed_command(self, s: Session, game_id: int, command_id: str) -> StoredCommand | None:
        """A finished game's command with this id (a resend after the end), from its pack."""
        return packed_command(s, game_id, command_id)

    def append(self, s: Session, entry: appends.Append) -> bool:
        """The append in ``s``'s transaction: whether the game was at ``entry.old_version`` (a command id used
        before in the game raises the driver's ``IntegrityError``)."""
        if self.db.is_psycopg:
            dbapi: Any = s.connection().connection.dbapi_connection
            with psycopg.RawCursor(dbapi) as cursor:
                cursor.execute(*appends.postgres(entry))
                return bool(cursor.rowcount == 1)
        return appends.sqlite(s.connection(), entry)

    def append_autocommit(self, entry: appends.Append) -> bool:
        """Postgres: the append as its own transaction on a pooled psycopg connection (a worker thread)."""
        with self.db.autocommit_cursor() as cursor:
            cursor.execute(*appends.postgres(entry))
            return bool(cursor.rowcount == 1)

    async def append_on(self, conn: Any, entry: appends.Append) -> bool:
        """Postgres: the append as its own transaction on one of the event loop's asyncpg connections."""
        statement, params = appends.postgres(entry)
        return len(await conn.fetch(statement, *params)) == 1

    def finish(self, s: Session, game_id: int) -> None:
        """The game finished: nothing is added to it, its commands move into one packed record."""
        pack_game(s, game_id)
