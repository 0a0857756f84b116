"""Game records out of and into the database: ``python -m app.admin export`` / ``import``.

An export is one self-contained JSON document per table: the table's rule set and options, its seats (names
only: no tokens, no join code), and every game with its rule set, options, seed, players, seat names and the
accepted commands in order. That is enough to rebuild every game bit for bit with the engine alone
(``app.rules.core.ruleset.replay``, C-10). The seed of a running game reveals its whole deck: an export is
the operator's, not a player's.

``import_record`` re-hosts an export for replay under a new table id: it replays every game through the engine
first (each command must be accepted, the game must end exactly as recorded), then writes the table, its seats
(without tokens: nobody can act at it) and the games with their commands in one transaction (their events are
the engine's to recompute, ``app.services.history``). The table admits spectators, so anyone with its link can
watch the replays. Any problem raises ``RecordError`` before anything is written.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select

from app.persistence.db import Database
from app.persistence.models import Game, GameCommand, GameTable, Seat, utcnow

from .base import RulesetCatalog
from .security import digest, new_join_code, new_table_id

FORMAT = "phase10-table-record"
FORMAT_VERSION = 1

JSONDict = dict[str, Any]


class RecordError(Exception):
    """An export that cannot be made or a record that cannot be imported (nothing was changed)."""


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_table(db: Database, table_id: str) -> JSONDict:
    """The table's record: table, seats and every game with its commands (see the module docstring)."""
    with db.read() as s:
        table = s.get(GameTable, table_id)
        if table is None:
            raise RecordError(f"no table {table_id!r}")
        seats = list(s.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.position)))
        index = {seat.id: i for i, seat in enumerate(seats)}
        games = []
        for game in s.scalars(select(Game).where(Game.table_id == table_id).order_by(Game.number)):
            commands = s.scalars(select(GameCommand).where(GameCommand.game_id == game.id,
                                                           GameCommand.seq <= game.version)
                                 .order_by(GameCommand.seq))
            games.append({
                "number": game.number, "ruleset": game.ruleset, "options": game.options, "seed": game.seed,
                "players": game.players,
                "seats": [{"seat": i, "name": entry["name"], "table_seat": index.get(entry["seat_id"])}
                          for i, entry in enumerate(game.seats)],
                "status": game.status, "version": game.version, "winners": game.winners,
                "created_at": _iso(game.created_at), "finished_at": _iso(game.finished_at),
                "commands": [{"seq": c.seq, "seat": c.seat, "command_id": c.command_id, "command": c.command,
                              "created_at": _iso(c.created_at)} for c in commands],
            })
        return {
            "format": FORMAT, "format_version": FORMAT_VERSION, "exported_at": _iso(utcnow()),
            "table": {"id": table.id, "ruleset": table.ruleset, "options": table.options, "capacity": table.capacity,
                      "created_at": _iso(table.created_at),
                      "seats": [{"position": x.position, "name": x.name, "is_host": x.is_host, "is_bot": x.is_bot}
                                for x in seats]},
            "games": games,
        }


def _field(data: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(data, dict) or key not in data:
        raise RecordError(f"{where}: missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RecordError(f"{where}: {key!r} has the wrong type")
    return value


def _when(value: Any, where: str) -> datetime:
    if value is None:
        return utcnow()
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        raise RecordError(f"{where}: {value!r} is not an ISO date") from None


def _replayed(game: JSONDict, catalog: RulesetCatalog, where: str) -> tuple[JSONDict, list[JSONDict]]:
    """The game's row values and command rows, computed by replaying it through its rule set (C-10)."""
    ruleset_id = _field(game, "ruleset", str, where)
    if ruleset_id not in catalog.ids():
        raise RecordError(f"{where}: unknown rule set {ruleset_id!r}")
    ruleset = catalog.get(ruleset_id)
    players = _field(game, "players", int, where)
    seed = _field(game, "seed", int, where)
    options_raw = _field(game, "options", dict, where)
    commands = _field(game, "commands", list, where)
    try:
        options = ruleset.parse_options(options_raw)
        state = ruleset.new_game(seed, players, options)
    except Exception as err:
        raise RecordError(f"{where}: the engine refuses the game: {err}") from None
    rows = []
    seen: set[str] = set()
    for i, entry in enumerate(commands, start=1):
        at = f"{where}, command {i}"
        if _field(entry, "seq", int, at) != i:
            raise RecordError(f"{at}: commands must be numbered 1, 2, 3 ... in order")
        seat = _field(entry, "seat", int, at)
        command_id = _field(entry, "command_id", str, at)
        if command_id in seen or not 0 < len(command_id) <= 64:
            raise RecordError(f"{at}: command_id {command_id!r} is repeated or not 1-64 characters")
        seen.add(command_id)
        if ruleset.is_over(state):
            raise RecordError(f"{at}: the game was already over")
        try:
            command = ruleset.parse_command(entry.get("command"))
            state, events = ruleset.apply(state, seat, command)
        except Exception as err:
            raise RecordError(f"{at}: the engine refuses it: {err}") from None
        rows.append({"seq": i, "seat": seat, "command_id": command_id, "command": ruleset.command_to_json(command),
                     "created_at": _when(entry.get("created_at"), at)})
    over = ruleset.is_over(state)
    status = _field(game, "status", str, where)
    if status != ("finished" if over else "playing"):
        raise RecordError(f"{where}: recorded as {status!r} but the commands leave it "
                          f"{'finished' if over else 'running'}")
    winners = list(ruleset.winners(state)) if over else None
    if over and game.get("winners") is not None and list(game["winners"]) != winners:
        raise RecordError(f"{where}: recorded winners {game['winners']} but the engine finds {winners}")
    values = {"ruleset": ruleset_id, "options": options_raw, "seed": seed, "players": players, "status": status,
              "version": len(rows), "snapshot": ruleset.state_to_json(state), "snapshot_version": len(rows),
              "winners": winners, "created_at": _when(game.get("created_at"), where),
              "finished_at": _when(game.get("finished_at"), where) if over else None}
    return values, rows


def import_record(db: Database, record: Any, catalog: RulesetCatalog | None = None) -> str:
    """Re-host an export (``export_table``) under a new table id, which is returned."""
    catalog = catalog or RulesetCatalog()
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a table record (expected \"format\": \"{FORMAT}\")")
    if record.get("format_version") != FORMAT_VERSION:
        raise RecordError(f"unsupported format_version {record.get('format_version')!r} (expected {FORMAT_VERSION})")
    table = _field(record, "table", dict, "record")
    seats = _field(table, "seats", list, "table")
    games = _field(record, "games", list, "record")
    if not games:
        raise RecordError("the record holds no game")
    names = [str(_field(seat, "name", str, f"table seat {i}"))[:40] for i, seat in enumerate(seats)]
    built = []
    numbers: set[int] = set()
    for n, game in enumerate(games, start=1):
        where = f"game {n}"
        number = _field(game, "number", int, where)
        if number in numbers or number < 1:
            raise RecordError(f"{where}: game number {number} is repeated or not positive")
        numbers.add(number)
        values, rows = _replayed(game, catalog, where)
        game_seats = _field(game, "seats", list, where)
        if len(game_seats) != values["players"]:
            raise RecordError(f"{where}: {len(game_seats)} seats for {values['players']} players")
        links = [_field(entry, "table_seat", int, f"{where}, seat {i}") for i, entry in enumerate(game_seats)]
        if any(not 0 <= link < len(names) for link in links):
            raise RecordError(f"{where}: a seat names a table seat the record does not have")
        built.append((number, values, rows, links))
    ruleset_id = _field(table, "ruleset", str, "table")
    if ruleset_id not in catalog.ids():
        raise RecordError(f"table: unknown rule set {ruleset_id!r}")
    new_id = new_table_id()
    with db.write() as s:
        s.add(GameTable(id=new_id, ruleset=ruleset_id, options=_field(table, "options", dict, "table"),
                        capacity=max(len(names), int(table.get("capacity") or 0)), spectators=True,
                        join_code_hash=digest(new_join_code()), revision=0,
                        created_at=_when(table.get("created_at"), "table")))
        seat_rows = [Seat(table_id=new_id, position=i, name=name, is_host=bool(seats[i].get("is_host")),
                          is_bot=bool(seats[i].get("is_bot")), token_hash=None) for i, name in enumerate(names)]
        s.add_all(seat_rows)
        s.flush()
        for number, values, rows, links in built:
            row = Game(table_id=new_id, number=number,
                       seats=[{"seat_id": seat_rows[link].id, "name": seat_rows[link].name} for link in links],
                       **values)
            s.add(row)
            s.flush()
            s.add_all(GameCommand(game_id=row.id, **command) for command in rows)
    return new_id
