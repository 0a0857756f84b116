"""The append of one accepted command, one definition per dialect: the game's version bump, guarded by the version
the command was checked against; the command row; the new snapshot when one is due (the one before it kept as
``previous_snapshot``); the finish when the command ended the game; and, on Postgres, the table's NOTIFY.

Every writer calls it, whichever driver it holds: a socket's or REST request's command on the event loop (asyncpg,
``app.persistence.hot``), a bot's or timer's in a worker thread (psycopg in autocommit), and the ordinary path's
inside its transaction (psycopg on the session's connection, or SQLAlchemy Core on SQLite).

* ``postgres(append)`` is one statement with Postgres's own positional parameters (``$1`` ...), typed, so that
  asyncpg and psycopg's ``RawCursor`` run it as it is; it returns one row when it applied and none when the game
  was not at ``old_version`` (another writer was first). A command id seen before in this game fails the unique
  constraint (the whole statement is undone).
* ``sqlite(connection, append)`` runs the same append as two Core statements in the caller's transaction and
  says whether it applied (the same unique constraint raises ``IntegrityError``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, insert, update

from app import fastjson

from .models import Game, GameCommand

_GAMES = cast(Table, Game.__table__)
_COMMANDS = cast(Table, GameCommand.__table__)


@dataclass(frozen=True)
class Finish:
    """The command ended the game."""

    winners: list[int]
    finished_at: datetime


@dataclass(frozen=True)
class Append:
    """One accepted command of ``game_id``, moving it from ``old_version`` to ``old_version + 1``."""

    game_id: int
    old_version: int
    seat: int
    command_id: str
    command: Any  # the command's JSON value
    created_at: datetime
    made_by: str | None = None  # a decision made for the seat (its turn timer, a stand-in)
    snapshot: Any = None  # the new state's JSON value, when a snapshot is due (always when ``finish``)
    finish: Finish | None = None
    notify: tuple[str, str] | None = None  # Postgres: the NOTIFY's channel and payload

    @property
    def version(self) -> int:
        return self.old_version + 1


def postgres(append: Append) -> tuple[str, tuple[Any, ...]]:
    """The append as one Postgres statement (in autocommit it is its own transaction) and its parameters."""
    params: list[Any] = [append.game_id, append.old_version, append.version, append.seat, append.command_id,
                         fastjson.dumps(append.command), append.created_at, append.made_by]
    values = "version = $3"
    if append.snapshot is not None:
        params.append(fastjson.dumps(append.snapshot))
        values += (", previous_snapshot = snapshot, previous_snapshot_version = snapshot_version, "
                   f"snapshot = ${len(params)}::json, snapshot_version = $3")
    if append.finish is not None:
        params += [fastjson.dumps(append.finish.winners), append.finish.finished_at]
        values += (f", status = 'finished', winners = ${len(params) - 1}::json, "
                   f"finished_at = ${len(params)}::timestamptz")
    last = "SELECT seq FROM ins"
    if append.notify is not None:
        params += list(append.notify)
        last = f"SELECT pg_notify(${len(params) - 1}::text, ${len(params)}::text) FROM ins"
    statement = (
        f"WITH bump AS (UPDATE game SET {values} WHERE id = $1::integer AND version = $2::integer RETURNING id), "
        "ins AS (INSERT INTO game_command (game_id, seq, seat, command_id, command, created_at, made_by) "
        "SELECT id, $3::integer, $4::integer, $5::text, $6::json, $7::timestamptz, $8::text "
        f"FROM bump RETURNING seq) {last}")
    return statement, tuple(params)


def sqlite(connection: Connection, append: Append) -> bool:
    """The append on ``connection``, in its transaction (SQLAlchemy Core); whether the game was at
    ``old_version``."""
    values: dict[str, Any] = {"version": append.version}
    if append.snapshot is not None:
        values |= {"snapshot": append.snapshot, "snapshot_version": append.version,
                   "previous_snapshot": _GAMES.c.snapshot, "previous_snapshot_version": _GAMES.c.snapshot_version}
    if append.finish is not None:
        values |= {"status": "finished", "winners": append.finish.winners,
                   "finished_at": append.finish.finished_at}
    moved = connection.execute(update(_GAMES)
                               .where(_GAMES.c.id == append.game_id, _GAMES.c.version == append.old_version)
                               .values(**values))
    if moved.rowcount != 1:
        return False
    connection.execute(insert(_COMMANDS), {"game_id": append.game_id, "seq": append.version, "seat": append.seat,
                                    "command_id": append.command_id, "command": append.command,
                                    "created_at": append.created_at, "made_by": append.made_by})
    return True
