"""Where a game's commands are stored: one row each while it runs, one packed record once it has finished.

A running game's commands are rows of ``game_command`` (the command path appends one per command; a resend is
told by the unique (game, command id) index). When the game finishes, its commands move, in the transaction of
its last command, into one ``game_command_pack`` row: the commands' columns (seat, command id, command, time,
maker) as one compressed value, a few tens of bytes a command where a row with its two index entries took about
two hundred. Nothing is added to a finished game, so the pack is written once; every reader of a game's
commands goes through ``read_commands``, which reads the rows and, when there are none, the pack.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.orm import Session

from app import fastjson
from app.persistence.models import GameCommand, GameCommandPack

PACK_FORMAT = 1
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_COMMANDS = cast(Table, GameCommand.__table__)
_PACKS = cast(Table, GameCommandPack.__table__)


@dataclass(frozen=True)
class StoredCommand:
    """One accepted command as stored: ``seq`` is the version it made."""

    seq: int
    seat: int
    command_id: str
    command: Any
    created_at: datetime
    made_by: str | None = None


def _micros(value: datetime) -> int:
    """Microseconds since the epoch (a naive time, as SQLite returns them, is UTC)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    delta = value - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def pack(commands: list[StoredCommand]) -> bytes:
    """The commands (numbered 1 .. n, in order) as one compressed value: each column a list (the times as
    differences in microseconds), JSON, deflated."""
    if [c.seq for c in commands] != list(range(1, len(commands) + 1)):
        raise ValueError("a pack holds a game's commands 1 .. n, in order")
    times = [_micros(c.created_at) for c in commands]
    body = {"format": PACK_FORMAT, "seat": [c.seat for c in commands],
            "command_id": [c.command_id for c in commands], "command": [c.command for c in commands],
            "at": [t - prev for t, prev in zip(times, [0, *times], strict=False)],
            "made_by": {str(c.seq): c.made_by for c in commands if c.made_by is not None}}
    return zlib.compress(fastjson.dumps(body).encode(), 9)


def unpack(data: bytes, aware: bool = True) -> list[StoredCommand]:
    """The commands of a pack, numbered from 1 (``aware``: times with their time zone, UTC; else naive UTC, as
    SQLite returns stored times)."""
    body = fastjson.loads(zlib.decompress(data))
    if body.get("format") != PACK_FORMAT:
        raise ValueError(f"unknown command pack format {body.get('format')!r}")
    at, out = 0, []
    made_by = body["made_by"]
    for i, (seat, command_id, command, step) in enumerate(zip(body["seat"], body["command_id"], body["command"],
                                                              body["at"], strict=True), start=1):
        at += step
        when = _EPOCH + timedelta(microseconds=at)
        out.append(StoredCommand(i, seat, command_id, command, when if aware else when.replace(tzinfo=None),
                                 made_by.get(str(i))))
    return out


def _aware(s: Session) -> bool:
    return s.get_bind().dialect.name != "sqlite"


def read_pack(s: Session, game_id: int) -> list[StoredCommand] | None:
    """The packed commands of a finished game (``None``: it has no pack)."""
    data = s.scalar(select(_PACKS.c.data).where(_PACKS.c.game_id == game_id))
    return None if data is None else unpack(bytes(data), _aware(s))


def read_commands(s: Session, game_id: int, after: int = 0, upto: int | None = None) -> list[StoredCommand]:
    """The game's commands ``after + 1 .. upto`` (every one after ``after`` when ``upto`` is ``None``), in order:
    its rows, or when it has none in that range, its pack."""
    if upto is not None and upto <= after:
        return []
    c = _COMMANDS.c
    stmt = select(c.seq, c.seat, c.command_id, c.command, c.created_at, c.made_by).where(
        _COMMANDS.c.game_id == game_id, _COMMANDS.c.seq > after)
    if upto is not None:
        stmt = stmt.where(_COMMANDS.c.seq <= upto)
    rows = s.execute(stmt.order_by(_COMMANDS.c.seq)).all()
    if rows:
        return [StoredCommand(*row) for row in rows]
    packed = read_pack(s, game_id)
    if packed is None:
        return []
    return [c for c in packed if c.seq > after and (upto is None or c.seq <= upto)]


def packed_command(s: Session, game_id: int, command_id: str) -> StoredCommand | None:
    """The command of a finished (packed) game with this command id, if there is one (a resend after the end)."""
    return next((c for c in read_pack(s, game_id) or [] if c.command_id == command_id), None)


def store_pack(s: Session, game_id: int, commands: list[StoredCommand]) -> None:
    """Store a finished game's commands as its pack (a game imported finished)."""
    s.execute(insert(_PACKS).values(game_id=game_id, commands=len(commands), data=pack(commands)))


def pack_game(s: Session, game_id: int) -> int:
    """Move a finished game's command rows into its pack, in the caller's transaction; the commands packed."""
    commands = read_commands(s, game_id)
    if not commands or s.scalar(select(_PACKS.c.game_id).where(_PACKS.c.game_id == game_id)) is not None:
        return 0
    store_pack(s, game_id, commands)
    s.execute(delete(_COMMANDS).where(_COMMANDS.c.game_id == game_id))
    return len(commands)
