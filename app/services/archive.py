"""Game records in and out of the database: the game record of one game (docs/record.md), the download of a
finished game and the replay page's "open a file", and the table record of ``python -m app.admin export`` /
``import``, whose games are game records too.

A game record is one self-contained JSON document: the rule set and its rules version, the options, the seed,
the seat names, every accepted command with its seat and moment, and the result. That is enough to rebuild the
game bit for bit with the engine alone (``app.rules.core.ruleset.replay``, C-10). A table record adds the table
(rule set, options, seat names: no tokens, no join code) and holds each of its games as a game record whose
seats name their table seat. The seed of a running game reveals its whole deck: a table export is the
operator's; players download the records of finished games only.

Importing replays every game through the engine first (each command must be accepted, the game must end exactly
as recorded: status, winners, scores), then writes a new table (spectators allowed, seats without tokens: nobody
can act at it) with the games and their commands in one transaction (their events are the engine's to recompute,
``app.services.history``). Any problem raises ``RecordError`` (a stable ``code`` and a message) before anything
is written.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.persistence.commands import StoredCommand, read_commands, store_pack
from app.persistence.db import Database
from app.persistence.models import Game, GameCommand, GameTable, Seat, utcnow
from app.rules.core.ruleset import JSONDict

from .base import AnyRuleset, RulesetCatalog
from .notation import move_text
from .security import digest, new_join_code, new_table_id
from .text import clean_name, control_character

FORMAT = "phase10-table-record"
FORMAT_VERSION = 3  # 2: each game is a game record; 3: of version 2 (versions 1 and 2 are read as well)
GAME_FORMAT = "phase10-game-record"
GAME_FORMAT_VERSION = 2  # 2: the seed as a decimal string, each command's move (version 1 is read as well)
GAME_FORMAT_VERSIONS = (1, 2)
MAX_DEPTH = 32  # a record nests 7 deep; JSON deeper than this is refused before it is parsed
MAX_NAME = 40  # as a join name (app.api.schemas.Name)
YEARS = (2000, 2100)  # the years a record's times may name (in UTC)
CLOCK_TOLERANCE = timedelta(seconds=5)
"""How far a command's time may lie outside its game's span, or before the command before it: a game's commands
may be accepted by several server processes whose clocks differ slightly (``record_time_order``)."""
_SEED = re.compile(r"-?[0-9]{1,20}")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")


class RecordError(Exception):
    """A record that cannot be made or imported (nothing was changed). ``code`` is stable (docs/record.md,
    "Reading a record"): ``bad_record`` (not a record, a field missing or of the wrong type),
    ``record_not_utf8``, ``record_too_deep``, ``record_too_large``, ``record_version_unsupported``,
    ``record_version_mismatch``, ``record_bad_time``, ``record_time_order`` (the game finished before it began,
or a command's time lies outside the game's span or before the command before it, beyond ``CLOCK_TOLERANCE``),
``record_not_finished``,
    ``record_bad_name``, ``record_bad_text``, ``record_bad_capacity``, ``record_does_not_replay`` (the engine
    refuses a command or the game ends otherwise than recorded), ``table_not_found`` (export of an unknown
    table)."""

    def __init__(self, message: str, code: str = "bad_record") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def iso_utc(value: datetime | None) -> str | None:
    """A stored time in ISO 8601 with its offset: UTC (SQLite returns stored times without one; they are UTC)."""
    if value is None:
        return None
    return (value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)).isoformat()


def parse_record(raw: bytes, limit: int | None = None) -> Any:
    """The JSON value of a record file or upload, read strictly: at most ``limit`` bytes (``record_too_large``),
    UTF-8 without a byte order mark as RFC 8259 requires (``record_not_utf8``: UTF-16, UTF-32, a BOM, invalid
    bytes, a lone surrogate), nested at most ``MAX_DEPTH`` deep (``record_too_deep``, checked on the bytes
    before parsing), and JSON (``bad_record``)."""
    if limit is not None and len(raw) > limit:
        raise RecordError(f"a record is at most {limit} bytes", "record_too_large")
    if raw.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw:
        raise RecordError("a record is UTF-8 text without a byte order mark", "record_not_utf8")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(f"a record is UTF-8 text (byte {err.start} is not)", "record_not_utf8") from None
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b'""', raw)):
        depth += 1 if bracket.group() in (b"[", b"{") else -1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                raise RecordError(f"a record nests at most {MAX_DEPTH} deep", "record_too_deep")
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as err:
        if "surrogate" in str(err):
            raise RecordError("a record is UTF-8 text (it holds a lone surrogate)", "record_not_utf8") from None
        raise RecordError(f"the record is not JSON: {err}") from None


def rules_version(ruleset: AnyRuleset) -> int:
    """The version of the rules the engine plays for this rule set (a record names it)."""
    return int(getattr(ruleset, "rules_version", 1))


def result_of(ruleset: AnyRuleset, state: Any) -> JSONDict:
    """A game's result as a record states it: status, winners, each seat's score and phase, rounds played."""
    over = ruleset.is_over(state)
    view = ruleset.full_view(state)
    return {"status": "finished" if over else "playing",
            "winners": list(ruleset.winners(state)) if over else None,
            "scores": [p.get("score") for p in view["players"]],
            "phases": [p.get("phase") for p in view["players"]],
            "rounds": len(view.get("history") or [])}


def _game_commands(s: Session, game: Game) -> list[StoredCommand]:
    return read_commands(s, game.id, 0, game.version)


def game_record(s: Session, game: Game, catalog: RulesetCatalog | None = None,
                table_seats: dict[int, int] | None = None) -> JSONDict:
    """The game record of ``game`` (docs/record.md); ``table_seats`` (seat row id -> position) adds each seat's
    ``table_seat``, as a table record holds it."""
    ruleset = (catalog or RulesetCatalog()).get(game.ruleset)
    commands = _game_commands(s, game)
    state = ruleset.new_game(game.seed, game.players, ruleset.parse_options(game.options))
    names = [str(entry["name"]) for entry in game.seats]
    moves = []
    for c in commands:
        state, events = ruleset.apply(state, c.seat, ruleset.parse_command(c.command))
        moves.append(move_text(game.ruleset, c.seat, c.command, names, [ruleset.event_to_json(e) for e in events]))
    seats = []
    for i, entry in enumerate(game.seats):
        seat: JSONDict = {"seat": i, "name": entry["name"]}
        if table_seats is not None:
            seat["table_seat"] = table_seats.get(entry["seat_id"])
        seats.append(seat)
    return {
        "format": GAME_FORMAT, "format_version": GAME_FORMAT_VERSION,
        "ruleset": game.ruleset, "rules_version": rules_version(ruleset), "options": game.options,
        "seed": str(game.seed), "players": game.players, "seats": seats, "number": game.number,
        "status": game.status, "version": game.version, "winners": game.winners,
        "created_at": iso_utc(game.created_at), "finished_at": iso_utc(game.finished_at),
        "commands": [{"seq": c.seq, "seat": c.seat, "command_id": c.command_id, "command": c.command,
                      "move": move, "created_at": iso_utc(c.created_at)}
                     for c, move in zip(commands, moves, strict=True)],
        "result": result_of(ruleset, state),
    }


def export_table(db: Database, table_id: str) -> JSONDict:
    """The table's record: table, seats and every game as a game record (see the module docstring)."""
    with db.read() as s:
        table = s.get(GameTable, table_id)
        if table is None:
            raise RecordError(f"no table {table_id!r}", "table_not_found")
        seats = list(s.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.position)))
        index = {seat.id: i for i, seat in enumerate(seats)}
        games = [game_record(s, game, table_seats=index)
                 for game in s.scalars(select(Game).where(Game.table_id == table_id).order_by(Game.number))]
        return {
            "format": FORMAT, "format_version": FORMAT_VERSION, "exported_at": iso_utc(utcnow()),
            "table": {"id": table.id, "ruleset": table.ruleset, "options": table.options, "capacity": table.capacity,
                      "created_at": iso_utc(table.created_at),
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
    if isinstance(value, int) and kind is int and key != "seed" and not -(2**31) <= value < 2**31:
        raise RecordError(f"{where}: {key!r} is outside the 32-bit range")  # the database's integers
    return value


def _when(value: Any, where: str) -> datetime:
    """A record's time: ISO 8601 (without an offset: UTC), in UTC, within ``YEARS`` (``record_bad_time``)."""
    if value is None:
        return utcnow()
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        if moment is not None:
            moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):
        moment = None
    if moment is None or not YEARS[0] <= moment.year <= YEARS[1]:
        raise RecordError(f"{where}: {str(value)[:40]!r} is not an ISO 8601 time between the years {YEARS[0]} and "
                          f"{YEARS[1]}", "record_bad_time")
    return moment


def _check_order(moment: datetime, span: tuple[datetime | None, datetime | None], previous: datetime | None,
                 where: str) -> None:
    """A command's time ``moment`` lies within its game's ``span`` (created, finished; either absent: unbounded
    there) and is not before the ``previous`` command's, each within ``CLOCK_TOLERANCE`` (``record_time_order``).
    Times the record does not give are stored as the moment of the import and not checked."""
    tolerance = CLOCK_TOLERANCE.total_seconds()
    created, finished = span
    if created is not None and moment < created - CLOCK_TOLERANCE:
        raise RecordError(f"{where}: made before the game began (by more than {tolerance:g} s)",
                          "record_time_order")
    if finished is not None and moment > finished + CLOCK_TOLERANCE:
        raise RecordError(f"{where}: made after the game finished (by more than {tolerance:g} s)",
                          "record_time_order")
    if previous is not None and moment < previous - CLOCK_TOLERANCE:
        raise RecordError(f"{where}: made before the command before it (by more than {tolerance:g} s)",
                          "record_time_order")


def _seed(game: JSONDict, where: str) -> int:
    """The seed: a decimal string in a game record of version 2, a JSON number in version 1."""
    version = game.get("format_version", 1)
    raw = _field(game, "seed", str if version != 1 else int, where)
    if isinstance(raw, str):
        if not _SEED.fullmatch(raw):
            raise RecordError(f"{where}: the seed is not a decimal number")
        raw = int(raw)
    if not -(2**63) <= raw < 2**63:
        raise RecordError(f"{where}: the seed is outside the 64-bit range")
    return int(raw)


def clean_seat_name(value: Any, where: str) -> str:
    """A seat name of a record, cleaned exactly as a join name is (``app.services.text.clean_name``) and held to
    the same rules: 1-40 characters, no control character (``record_bad_name``)."""
    if not isinstance(value, str):
        raise RecordError(f"{where}: the name is not text", "record_bad_name")
    name: str = clean_name(value)
    bad = control_character(name)
    if bad is not None or not 1 <= len(name) <= MAX_NAME:
        why = f"holds U+{ord(bad):04X}" if bad is not None else f"is not 1-{MAX_NAME} characters once cleaned"
        raise RecordError(f"{where}: the name {why}", "record_bad_name")
    return name


def _check_texts(value: Any) -> None:
    """No text of the record (keys included) holds a control character or a lone surrogate
    (``record_bad_text``): no database text can hold NUL, and what no reader sees is not stored."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            bad = control_character(item)
            if bad is not None:
                raise RecordError(f"the record holds the character U+{ord(bad):04X}", "record_bad_text")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _replayed(game: JSONDict, catalog: RulesetCatalog, where: str,
              finished_only: bool = False) -> tuple[JSONDict, list[JSONDict]]:
    """The game's row values and command rows, computed by replaying it through its rule set (C-10)."""
    ruleset_id = _field(game, "ruleset", str, where)
    if ruleset_id not in catalog.ids():
        raise RecordError(f"{where}: unknown rule set {ruleset_id!r}")
    ruleset = catalog.get(ruleset_id)
    if "rules_version" in game and game["rules_version"] != rules_version(ruleset):
        raise RecordError(f"{where}: rules version {game['rules_version']!r} of {ruleset_id!r}; this server plays "
                          f"version {rules_version(ruleset)}", "record_version_unsupported")
    players = _field(game, "players", int, where)
    seed = _seed(game, where)
    options_raw = _field(game, "options", dict, where)
    commands = _field(game, "commands", list, where)
    version = _field(game, "version", int, where)
    if version != len(commands):
        raise RecordError(f"{where}: version {version} but {len(commands)} commands", "record_version_mismatch")
    status = _field(game, "status", str, where)
    if status not in ("finished", "playing"):
        raise RecordError(f"{where}: status {status[:20]!r} is neither \"finished\" nor \"playing\"")
    if finished_only and status != "finished":
        raise RecordError(f"{where}: only the record of a finished game can be opened", "record_not_finished")
    created_at = _when(game.get("created_at"), f"{where}, created_at")
    finished_at = _when(game.get("finished_at"), f"{where}, finished_at") if status == "finished" else None
    if finished_at is not None and finished_at < created_at:
        raise RecordError(f"{where}: it finished before it began", "record_time_order")
    if "winners" in game and game["winners"] is not None and (
            not isinstance(game["winners"], list) or not all(type(w) is int for w in game["winners"])):
        raise RecordError(f"{where}: 'winners' is not a list of seats")
    try:
        options = ruleset.parse_options(options_raw)
        ruleset.check_players(options, players)
        state = ruleset.new_game(seed, players, options)
    except Exception as err:
        raise RecordError(f"{where}: the engine refuses the game: {err}", "record_does_not_replay") from None
    span = (created_at if game.get("created_at") is not None else None,
            finished_at if game.get("finished_at") is not None else None)
    previous: datetime | None = None
    rows = []
    seen: set[str] = set()
    for i, entry in enumerate(commands, start=1):
        at = f"{where}, command {i}"
        if _field(entry, "seq", int, at) != i:
            raise RecordError(f"{at}: commands must be numbered 1, 2, 3 ... in order")
        seat = _field(entry, "seat", int, at)
        command_id = _field(entry, "command_id", str, at)
        if "move" in entry and not isinstance(entry["move"], str):
            raise RecordError(f"{at}: 'move' is not text")  # read by people; the command is what counts
        if command_id in seen or not 0 < len(command_id) <= 64:
            raise RecordError(f"{at}: command_id {command_id!r} is repeated or not 1-64 characters")
        seen.add(command_id)
        if ruleset.is_over(state):
            raise RecordError(f"{at}: the game was already over", "record_does_not_replay")
        try:
            command = ruleset.parse_command(entry.get("command"))
            state, _ = ruleset.apply(state, seat, command)
        except Exception as err:
            raise RecordError(f"{at}: the engine refuses it: {err}", "record_does_not_replay") from None
        moment = _when(entry.get("created_at"), f"{at}, created_at")
        if entry.get("created_at") is not None:
            _check_order(moment, span, previous, at)
            previous = moment
        rows.append({"seq": i, "seat": seat, "command_id": command_id, "command": ruleset.command_to_json(command),
                     "created_at": moment})
    over = ruleset.is_over(state)
    if status != ("finished" if over else "playing"):
        raise RecordError(f"{where}: recorded as {status!r} but the commands leave it "
                          f"{'finished' if over else 'running'}", "record_does_not_replay")
    winners = list(ruleset.winners(state)) if over else None
    if over and game.get("winners") is not None and list(game["winners"]) != winners:
        raise RecordError(f"{where}: recorded winners {game['winners']} but the engine finds {winners}",
                          "record_does_not_replay")
    recorded = game.get("result")
    if recorded is not None:
        found = result_of(ruleset, state)
        for key in ("status", "winners", "scores", "phases", "rounds"):
            if not isinstance(recorded, dict) or recorded.get(key) != found[key]:
                raise RecordError(f"{where}: the recorded result's {key} is {_get(recorded, key)!r} but the engine "
                                  f"finds {found[key]!r}", "record_does_not_replay")
    values = {"ruleset": ruleset_id, "options": options_raw, "seed": seed, "players": players, "status": status,
              "version": len(rows), "snapshot": ruleset.state_to_json(state), "snapshot_version": len(rows),
              "winners": winners, "created_at": created_at, "finished_at": finished_at}
    return values, rows


def _get(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


def import_record(db: Database, record: Any, catalog: RulesetCatalog | None = None) -> str:
    """Re-host a table record (``export_table``) or a single game record (``game_record``, as its only game)
    under a new table id, which is returned."""
    return import_records(db, record, catalog)[0]


def import_records(db: Database, record: Any, catalog: RulesetCatalog | None = None,
                   finished_only: bool = False) -> tuple[str, list[int]]:
    """``import_record`` returning the new table id and its game numbers; ``finished_only`` (a player's upload)
    refuses a game that has not finished (``record_not_finished``)."""
    catalog = catalog or RulesetCatalog()
    if isinstance(record, dict) and record.get("format") == GAME_FORMAT:
        record = _as_table_record(record)
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a table record (expected \"format\": \"{FORMAT}\" or \"{GAME_FORMAT}\")")
    if record.get("format_version") not in (1, 2, FORMAT_VERSION):
        raise RecordError(f"unsupported format_version {record.get('format_version')!r} (expected {FORMAT_VERSION})",
                          "record_version_unsupported")
    table = _field(record, "table", dict, "record")
    seats = _field(table, "seats", list, "table")
    games = _field(record, "games", list, "record")
    if not games:
        raise RecordError("the record holds no game")
    names = [clean_seat_name(_field(seat, "name", str, f"table seat {i}"), f"table seat {i}")
             for i, seat in enumerate(seats)]
    _check_texts(record)
    ruleset_id = _field(table, "ruleset", str, "table")
    if ruleset_id not in catalog.ids():
        raise RecordError(f"table: unknown rule set {ruleset_id!r}")
    table_rules = catalog.get(ruleset_id)
    capacity = table.get("capacity", len(names))
    if type(capacity) is not int or not max(1, len(names)) <= capacity <= table_rules.max_players:
        raise RecordError(f"table: the capacity {str(capacity)[:20]} is not a whole number of seats from "
                          f"{max(1, len(names))} to {table_rules.max_players}", "record_bad_capacity")
    built = []
    numbers: set[int] = set()
    for n, game in enumerate(games, start=1):
        where = f"game {n}"
        if not isinstance(game, dict):
            raise RecordError(f"{where}: not a game record")
        if record.get("format_version") == FORMAT_VERSION and game.get("format_version") not in GAME_FORMAT_VERSIONS:
            raise RecordError(f"{where}: unsupported format_version {game.get('format_version')!r}",
                              "record_version_unsupported")
        number = _field(game, "number", int, where)
        if number in numbers or number < 1:
            raise RecordError(f"{where}: game number {number} is repeated or not positive")
        numbers.add(number)
        values, rows = _replayed(game, catalog, where, finished_only)
        game_seats = _field(game, "seats", list, where)
        if len(game_seats) != values["players"]:
            raise RecordError(f"{where}: {len(game_seats)} seats for {values['players']} players")
        links = [_field(entry, "table_seat", int, f"{where}, seat {i}") for i, entry in enumerate(game_seats)]
        if any(not 0 <= link < len(names) for link in links):
            raise RecordError(f"{where}: a seat names a table seat the record does not have")
        built.append((number, values, rows, links))
    created_at = _when(table.get("created_at"), "table, created_at")
    new_id = new_table_id()
    with db.write() as s:
        s.add(GameTable(id=new_id, ruleset=ruleset_id, options=_field(table, "options", dict, "table"),
                        capacity=capacity, spectators=True,
                        join_code_hash=digest(new_join_code()), revision=0, created_at=created_at))
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
            if values["status"] == "finished":  # stored as the server stores a finished game's commands
                store_pack(s, row.id, [StoredCommand(**command) for command in rows])
            else:
                s.add_all(GameCommand(game_id=row.id, **command) for command in rows)
    return new_id, sorted(numbers)


def _as_table_record(game: JSONDict) -> JSONDict:
    """A single game record as the table record of a table holding just that game (its seats in seat order)."""
    if game.get("format_version") not in GAME_FORMAT_VERSIONS:
        raise RecordError(f"unsupported format_version {str(game.get('format_version'))[:20]!r} (expected "
                          f"{GAME_FORMAT_VERSION})", "record_version_unsupported")
    seats = _field(game, "seats", list, "record")
    names = [_field(seat, "name", str, f"record seat {i}") for i, seat in enumerate(seats)]
    copy = dict(game, seats=[{"seat": i, "name": name, "table_seat": i} for i, name in enumerate(names)])
    return {"format": FORMAT, "format_version": FORMAT_VERSION,
            "table": {"ruleset": _field(game, "ruleset", str, "record"), "options": _field(game, "options", dict,
                                                                                           "record"),
                      "seats": [{"name": name} for name in names]},
            "games": [copy]}
