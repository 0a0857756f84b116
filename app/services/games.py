"""The game service: the only orchestrator (ARCHITECTURE.md, Persistence).

Every accepted command goes load -> apply through the engine -> append the command and store the new
snapshot in one transaction guarded by the game's version -> commit -> publish ``(table_id, version)``.
Lobby changes (join, reorder, removal, start, rematch) bump the table's ``revision`` and publish too.
Routes and socket handlers only call this module; no rules logic lives anywhere else in the server.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, cast

import psycopg
from psycopg.rows import namedtuple_row
from psycopg.types.json import Json
from sqlalchemy import Table, and_, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, defer

from app.persistence.db import Database
from app.persistence.models import Game, GameCommand, GameTable, Seat, utcnow
from app.rules import registry
from app.rules.core.errors import GameOver, InvalidOptions, StaleVersion
from app.settings import Settings

from .errors import ServiceError, bad_token, table_not_found
from .security import JoinLimiter, digest, matches, new_join_code, new_table_id, new_token

log = logging.getLogger("phase10.games")

AnyRuleset = registry.AnyRuleset
JSONDict = dict[str, Any]
SPECTATOR = "spectator"

# The hot path's statements, built once (SQLAlchemy Core on the session's connection: no ORM instances, and the
# compiled form is cached): every command runs ``_LATEST_GAME`` (with the command id's earlier row, if any, in the
# same round trip), ``_BUMP_VERSION`` and ``_INSERT_COMMAND``; every fan-out of a running table ``_HOT_CHECK``.
_G = cast(Table, Game.__table__)
_C = cast(Table, GameCommand.__table__)
_T = cast(Table, GameTable.__table__)
_GAME_COLUMNS = (_G.c.id, _G.c.version, _G.c.snapshot_version, _G.c.seats, _G.c.ruleset, _G.c.players, _G.c.status)
_LATEST_GAME = (select(*_GAME_COLUMNS).where(_G.c.table_id == bindparam("table_id"))
                .order_by(_G.c.number.desc()).limit(1))
_LATEST_GAME_AND_COMMAND = (
    select(*_GAME_COLUMNS, _C.c.seat.label("dup_seat"), _C.c.seq.label("dup_seq"),
           _C.c.redacted.label("dup_redacted"))
    .select_from(_G.outerjoin(_C, and_(_C.c.game_id == _G.c.id, _C.c.command_id == bindparam("command_id"))))
    .where(_G.c.table_id == bindparam("table_id")).order_by(_G.c.number.desc()).limit(1))
_BUMP_VERSION = (update(_G).where(_G.c.id == bindparam("b_id"), _G.c.version == bindparam("b_old"))
                 .values(version=bindparam("b_new")))
_INSERT_COMMAND = insert(_C)
_HOT_CHECK = (select(_T.c.revision, _G.c.id, _G.c.version).select_from(_T.join(_G, _G.c.table_id == _T.c.id))
              .where(_T.c.id == bindparam("table_id")).order_by(_G.c.number.desc()).limit(1))

# The same statements for Postgres, run on the session's own psycopg connection (same transaction): SQLAlchemy's
# per-statement overhead was the largest part of a command's CPU. Rows come back as named tuples with the same
# names; JSON parameters are dumped as SQLAlchemy dumps them (``json.dumps``).
_PG_GAME = "SELECT g.id, g.version, g.snapshot_version, g.seats, g.ruleset, g.players, g.status"
_PG_LATEST_GAME = f"{_PG_GAME} FROM game g WHERE g.table_id = %(table_id)s ORDER BY g.number DESC LIMIT 1"
_PG_LATEST_GAME_AND_COMMAND = (
    f"{_PG_GAME}, c.seat AS dup_seat, c.seq AS dup_seq, c.redacted AS dup_redacted FROM game g "
    "LEFT OUTER JOIN game_command c ON c.game_id = g.id AND c.command_id = %(command_id)s "
    "WHERE g.table_id = %(table_id)s ORDER BY g.number DESC LIMIT 1")
_PG_BUMP_VERSION = "UPDATE game SET version = %(b_new)s WHERE game.id = %(b_id)s AND game.version = %(b_old)s"
_PG_INSERT_COMMAND = (
    "INSERT INTO game_command (game_id, seq, seat, command_id, command, events, redacted, created_at) "
    "VALUES (%(game_id)s, %(seq)s, %(seat)s, %(command_id)s, %(command)s, %(events)s, %(redacted)s, %(created_at)s)")
_PG_HOT_CHECK = ("SELECT t.revision, g.id, g.version FROM game_table t JOIN game g ON g.table_id = t.id "
                 "WHERE t.id = %(table_id)s ORDER BY g.number DESC LIMIT 1")
_PG_JSON = ("command", "events", "redacted")


def pg_cursor(s: Session) -> Any:
    """A psycopg cursor on ``s``'s connection (inside its transaction), rows as named tuples."""
    return s.connection().connection.dbapi_connection.cursor(row_factory=namedtuple_row)  # type: ignore[union-attr]


def _first(s: Session, pg: bool, core: Any, raw: str, params: JSONDict) -> Any:
    """The first row of a hot-path query: raw psycopg on Postgres, the Core statement elsewhere."""
    if pg:
        cur = pg_cursor(s)
        cur.execute(raw, params)
        return cur.fetchone()
    return s.connection().execute(core, params).first()


def same_name(a: str, b: str) -> bool:
    """Two seat names a player could not tell apart: equal ignoring case and spaces around or between words."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


@dataclass(frozen=True)
class RulesetCatalog:
    """Where the server finds rule sets: the registry, or a fake in tests."""

    get: Callable[[str], AnyRuleset] = registry.get
    ids: Callable[[], tuple[str, ...]] = registry.ruleset_ids


class Notifier(Protocol):
    """Publishes "table X changed, its game is at version N" to the realtime hub."""

    def in_transaction(self, session: Session, table_id: str, version: int) -> None: ...
    def after_commit(self, table_id: str, version: int) -> None: ...


class NullNotifier:
    def in_transaction(self, session: Session, table_id: str, version: int) -> None:
        pass

    def after_commit(self, table_id: str, version: int) -> None:
        pass


@dataclass(frozen=True)
class GameRef:
    """The game a ``TableExtension`` hook is about, as plain values (the same attributes as a ``Game`` row:
    the fan-out's fast path has no ORM instance). ``created_at`` is ``None`` when the caller did not read it."""

    id: int
    version: int
    status: str
    ruleset: str
    seats: list[Any]
    created_at: datetime | None = None

    @classmethod
    def of(cls, game: Any) -> GameRef:
        return cls(game.id, game.version, game.status, game.ruleset, list(game.seats),
                   getattr(game, "created_at", None))


class TableExtension(Protocol):
    """What a server extension (the bot runner, app/bots/runner.py) adds to the service, registered with
    ``GameService.add_extension``. The service calls the hooks itself; they only read (inside the caller's
    session) or schedule work: loading, applying, persisting and publishing stay in this module.

    * ``table_extras``: extra fields of every table info (REST and socket); ``positions`` maps seat id ->
      seat number, ``game`` is the table's current game (``None`` before the first start).
    * ``decorate_views``: add fields to views of ``game`` made together (every view of one fan-out, or the
      view a REST call returns); called once per batch, so per-table data is read once, not once per view.
    * ``after_commit``: a table changed (a command at ``version``, or a lobby change with ``version`` 0);
      called after the commit, after the notifier.
    """

    def table_extras(self, s: Session, table_id: str, positions: dict[int, int], game: Game | None) -> JSONDict: ...
    def decorate_views(self, s: Session, table_id: str, game: GameRef, views: list[JSONDict]) -> None: ...
    def after_commit(self, table_id: str, version: int) -> None: ...


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a seat (``seat_id``) or a spectator (``seat_id is None``)."""

    seat_id: int | None
    is_host: bool = False


@dataclass
class FanoutData:
    """What the hub needs to update every socket of one table after a change."""

    table: JSONDict
    seat_ids: list[int]
    game_id: int | None
    version: int
    engine_seat: dict[int, int]
    views: dict[int | None, JSONDict | None]
    steps: list[tuple[int, JSONDict]] = field(default_factory=list)


def _key(seat: int | None) -> str:
    return SPECTATOR if seat is None else str(seat)


class StateCache:
    """The latest decoded state per game, keyed by version (states are immutable, so sharing is safe).

    Decoding a snapshot is the costliest step of a command; a process usually holds the state of the
    version it just wrote or fanned out, so it rarely decodes twice.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> Any | None:
        with self._lock:
            item = self._items.get(game_id)
            if item is None or item[0] != version:
                return None
            self._items.move_to_end(game_id)
            return item[1]

    def put(self, game_id: int, version: int, state: Any) -> None:
        if self.size <= 0:
            return
        with self._lock:
            current = self._items.get(game_id)
            if current is not None and current[0] > version:
                return
            self._items[game_id] = (version, state)
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


@dataclass
class _Hot:
    """What the last full fan-out read of a running table found, kept up to date by this process's own
    commands, so a fan-out usually needs one small query (is the table still at this version?)."""

    revision: int
    game_id: int
    version: int
    ruleset: str
    seats: list[Any]
    table: JSONDict
    seat_ids: list[int]
    steps: deque[tuple[int, JSONDict]]


class _Conflict(Exception):
    """Another writer moved the game on between our read and our write."""


class GameService:
    """Tables, seats, games, commands, views, hints and replays over one database."""

    def __init__(self, db: Database, settings: Settings, catalog: RulesetCatalog | None = None,
                 notifier: Notifier | None = None, extensions: Iterable[TableExtension] = ()) -> None:
        self.db = db
        self.settings = settings
        self.catalog = catalog or RulesetCatalog()
        self.notifier: Notifier = notifier or NullNotifier()
        self.extensions: list[TableExtension] = list(extensions)
        # Wrong join codes, counted in the database so the limits hold across server processes.
        self.join_limiter = JoinLimiter(settings.join_failures_per_table, settings.join_failures_per_address,
                                        settings.join_window_seconds)
        self.presence: Callable[[str], set[int]] = lambda _table_id: set()
        self.states = StateCache(settings.state_cache_size)
        self._hot: OrderedDict[str, _Hot] = OrderedDict()
        self._hot_lock = threading.Lock()

    def _state(self, s: Session, ruleset: AnyRuleset, game: Any) -> Any:
        """The game's state at its current version: from this process's cache, or the stored snapshot
        (taken every ``snapshot_every`` commands) plus the commands accepted since, replayed (C-10).
        ``game`` is a ``Game`` or a row with its id and version."""
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
                rows = s.execute(select(GameCommand.seat, GameCommand.command)
                                 .where(GameCommand.game_id == game.id, GameCommand.seq > since,
                                        GameCommand.seq <= game.version)
                                 .order_by(GameCommand.seq)).all()
                for seat, command in rows:
                    state, _ = ruleset.apply(state, seat, ruleset.parse_command(command))
            self.states.put(game.id, game.version, state)
        return state

    # ----------------------------------------------------------------- rule sets
    def rulesets(self) -> list[JSONDict]:
        out = []
        for rid in self.catalog.ids():
            rs = self.catalog.get(rid)
            out.append({"id": rid, "title": rs.title, "summary": rs.summary,
                        "min_players": rs.min_players, "max_players": rs.max_players,
                        "options_schema": rs.options_schema()})
        return out

    def _ruleset(self, ruleset_id: str) -> AnyRuleset:
        return self.catalog.get(ruleset_id)

    # ----------------------------------------------------------------- loading helpers
    def _table(self, s: Session, table_id: str, lock: bool = False) -> GameTable:
        stmt = select(GameTable).where(GameTable.id == table_id)
        if lock and not self.db.is_sqlite:
            stmt = stmt.with_for_update()
        table = s.scalar(stmt)
        if table is None:
            raise table_not_found(table_id)
        return table

    def _seats(self, s: Session, table_id: str) -> list[Seat]:
        return list(s.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.position)))

    def _game(self, s: Session, table_id: str) -> Game | None:
        # The snapshot is loaded only when the state cache misses.
        return s.scalar(select(Game).options(defer(Game.snapshot)).where(Game.table_id == table_id)
                        .order_by(Game.number.desc()).limit(1))

    def _game_number(self, s: Session, table_id: str, number: int) -> Game:
        game = s.scalar(select(Game).where(Game.table_id == table_id, Game.number == number))
        if game is None:
            raise ServiceError(404, "game_not_found", f"no game {number} at this table")
        return game

    def _viewer(self, s: Session, table: GameTable, token: str | None) -> Viewer:
        if token:
            seat = s.scalar(select(Seat).where(Seat.token_hash == digest(token), Seat.table_id == table.id))
            if seat is None:
                raise bad_token()
            return Viewer(seat.id, seat.is_host)
        if table.spectators:
            return Viewer(None)
        raise bad_token("a seat token is required (this table has no spectators)")

    def _seated(self, s: Session, table: GameTable, token: str | None) -> Viewer:
        viewer = self._viewer(s, table, token)
        if viewer.seat_id is None:
            raise bad_token("a seat token is required")
        return viewer

    @staticmethod
    def _engine_seat(game: Any, seat_id: int | None) -> int | None:
        if seat_id is None:
            return None
        for index, entry in enumerate(game.seats):
            if entry["seat_id"] == seat_id:
                return index
        return None

    def _publish(self, s: Session, table_id: str, version: int) -> None:
        self.notifier.in_transaction(s, table_id, version)

    # ----------------------------------------------------------------- extensions
    def add_extension(self, extension: TableExtension) -> None:
        """Register a ``TableExtension`` (before the app starts serving)."""
        self.extensions.append(extension)

    def after_commit(self, table_id: str, version: int) -> None:
        """After a commit that ``_publish``-ed: tell the notifier, then every extension."""
        self.notifier.after_commit(table_id, version)
        for extension in self.extensions:
            extension.after_commit(table_id, version)

    def _decorate(self, s: Session, table_id: str, game: Any, views: Iterable[JSONDict | None]) -> None:
        """Let the extensions add their fields to the views of ``game`` (one call per batch of views)."""
        batch = [view for view in views if view is not None]
        if not batch or not self.extensions:
            return
        ref = game if isinstance(game, GameRef) else GameRef.of(game)
        for extension in self.extensions:
            extension.decorate_views(s, table_id, ref, batch)

    def _bump(self, s: Session, table: GameTable) -> None:
        table.revision = table.revision + 1

    # ----------------------------------------------------------------- table info
    def _table_info(self, s: Session, table: GameTable, seats: list[Seat] | None = None,
                    game: Game | None = None, with_game: bool = True) -> JSONDict:
        seats = self._seats(s, table.id) if seats is None else seats
        if with_game and game is None:
            game = self._game(s, table.id)
        online = self.presence(table.id)
        status = "waiting" if game is None else game.status
        host = next((seat.position for seat in seats if seat.is_host), None)
        info: JSONDict = {
            "table_id": table.id,
            "ruleset": table.ruleset,
            "options": table.options,
            "capacity": table.capacity,
            "spectators": table.spectators,
            "status": status,
            "host_seat": host,
            "revision": table.revision,
            "seats": [{"seat": seat.position, "name": seat.name, "is_host": seat.is_host,
                       "is_bot": seat.is_bot, "connected": seat.id in online} for seat in seats],
            "game": None if game is None else {
                "game_id": game.id, "number": game.number, "status": game.status,
                "version": game.version, "players": game.players, "winners": game.winners,
            },
        }
        if self.extensions:
            positions = {seat.id: seat.position for seat in seats}
            for extension in self.extensions:
                info.update(extension.table_extras(s, table.id, positions, game))
        return info

    def table_info(self, table_id: str) -> JSONDict:
        with self.db.read() as s:
            return self._table_info(s, self._table(s, table_id))

    def invite_link(self, table_id: str, code: str) -> str:
        return f"{self.settings.public_base_url}/join/{table_id}?code={code}"

    # ----------------------------------------------------------------- lobby
    def create_table(self, ruleset_id: str, seats: int, options: JSONDict | None, spectators: bool,
                     name: str, setup: Callable[[Session, str], Any] | None = None) -> JSONDict:
        """A new table with the host in seat 0. ``setup(session, table_id)`` stores extra table settings
        (the bot runner's clock) in the same transaction, before the table info is made."""
        ruleset = self._ruleset(ruleset_id)
        if not ruleset.min_players <= seats <= ruleset.max_players or not 2 <= seats <= 6:
            lo, hi = max(2, ruleset.min_players), min(6, ruleset.max_players)
            raise InvalidOptions("seats", f"must be between {lo} and {hi} for {ruleset_id}")
        parsed = ruleset.parse_options(options or {})
        ruleset.check_players(parsed, seats)
        token, code = new_token(), new_join_code()
        with self.db.write() as s:
            table = GameTable(id=new_table_id(), ruleset=ruleset_id, options=ruleset.options_to_json(parsed),
                              capacity=seats, spectators=spectators, join_code_hash=digest(code), revision=0)
            s.add(table)
            s.flush()
            seat = Seat(table_id=table.id, position=0, name=name, is_host=True, is_bot=False,
                        token_hash=digest(token))
            s.add(seat)
            s.flush()
            if setup is not None:
                setup(s, table.id)
            info = self._table_info(s, table, [seat], with_game=False)
        log.info("table created", extra={"table_id": table.id, "ruleset": ruleset_id})
        return {"table_id": table.id, "seat": 0, "token": token, "join_code": code,
                "invite_link": self.invite_link(table.id, code), "table": info}

    def join(self, table_id: str, name: str, code: str, client: str) -> JSONDict:
        token = new_token()
        with self.db.write() as s:
            table = self._table(s, table_id, lock=True)
            # Counted after the table lock, so racing attempts on one table (from any process) count one by one.
            if self.join_limiter.blocked(s, table_id, client):
                raise ServiceError(429, "rate_limited", "too many wrong join codes; try again later")
            right_code = matches(code, table.join_code_hash)
            if right_code:
                seat, info = self._take_seat(s, table, name, token)
            else:
                self.join_limiter.hit(s, table_id, client)  # committed with this transaction, then the 403
        if not right_code:
            raise ServiceError(403, "wrong_join_code", "the join code is wrong")
        self.after_commit(table_id, 0)
        log.info("seat joined", extra={"table_id": table_id, "seat": seat.position})
        return {"table_id": table_id, "seat": seat.position, "token": token, "table": info}

    def _take_seat(self, s: Session, table: GameTable, name: str, token: str) -> tuple[Seat, JSONDict]:
        """The next seat of a waiting table with room, for a joiner whose code was right."""
        if self._game(s, table.id) is not None:
            raise ServiceError(409, "game_started", "the game has already started")
        seats = self._seats(s, table.id)
        if len(seats) >= table.capacity:
            raise ServiceError(409, "table_full", "every seat is taken")
        if any(same_name(other.name, name) for other in seats):
            raise ServiceError(409, "name_taken", f"someone at this table is already called {name.strip()}; "
                               "choose another name", field="name")
        seat = Seat(table_id=table.id, position=len(seats), name=name, is_host=False, is_bot=False,
                    token_hash=digest(token))
        s.add(seat)
        self._bump(s, table)
        s.flush()
        info = self._table_info(s, table, [*seats, seat], with_game=False)
        self._publish(s, table.id, 0)
        return seat, info

    def _host_lobby(self, s: Session, table_id: str, token: str | None) -> tuple[GameTable, list[Seat]]:
        table = self._table(s, table_id, lock=True)
        viewer = self._seated(s, table, token)
        if not viewer.is_host:
            raise ServiceError(403, "not_host", "only the host may do this")
        if self._game(s, table_id) is not None:
            raise ServiceError(409, "game_started", "the game has already started")
        return table, self._seats(s, table_id)

    def reorder(self, table_id: str, token: str | None, order: list[int]) -> JSONDict:
        with self.db.write() as s:
            table, seats = self._host_lobby(s, table_id, token)
            if sorted(order) != list(range(len(seats))):
                raise ServiceError(422, "invalid_order", "order must list every current seat exactly once",
                                   field="order")
            for new_position, old_position in enumerate(order):
                seats[old_position].position = new_position
            self._bump(s, table)
            s.flush()
            info = self._table_info(s, table, sorted(seats, key=lambda x: x.position), with_game=False)
            self._publish(s, table_id, 0)
        self.after_commit(table_id, 0)
        return info

    def remove_seat(self, table_id: str, token: str | None, position: int) -> JSONDict:
        with self.db.write() as s:
            table, seats = self._host_lobby(s, table_id, token)
            if not 0 <= position < len(seats):
                raise ServiceError(404, "seat_not_found", f"no seat {position}")
            if seats[position].is_host:
                raise ServiceError(409, "cannot_remove_host", "the host cannot remove their own seat")
            s.delete(seats.pop(position))
            for index, seat in enumerate(seats):
                seat.position = index
            self._bump(s, table)
            s.flush()
            info = self._table_info(s, table, seats, with_game=False)
            self._publish(s, table_id, 0)
        self.after_commit(table_id, 0)
        return info

    def _seed(self) -> int:
        if self.settings.fixed_seed is not None:
            return self.settings.fixed_seed
        return secrets.randbits(63)

    def _new_game(self, s: Session, table: GameTable, seats: list[JSONDict], number: int) -> tuple[Game, Any]:
        ruleset = self._ruleset(table.ruleset)
        if not ruleset.min_players <= len(seats) <= ruleset.max_players:
            raise ServiceError(409, "not_enough_players",
                               f"{table.ruleset} needs {ruleset.min_players}-{ruleset.max_players} players")
        options = ruleset.parse_options(table.options)
        seed = self._seed()
        state = ruleset.new_game(seed, len(seats), options)
        game = Game(table_id=table.id, number=number, ruleset=table.ruleset, options=table.options, seed=seed,
                    players=len(seats), seats=seats, status="playing", version=0,
                    snapshot=ruleset.state_to_json(state), snapshot_version=0, winners=None)
        s.add(game)
        self._bump(s, table)
        try:
            s.flush()
        except IntegrityError:
            raise ServiceError(409, "game_started", "the game has already started") from None
        self._publish(s, table.id, 0)
        return game, state

    def start(self, table_id: str, token: str | None) -> JSONDict:
        with self.db.write() as s:
            table, seats = self._host_lobby(s, table_id, token)
            game, state = self._new_game(s, table, [{"seat_id": x.id, "name": x.name} for x in seats], 1)
            info = self._table_info(s, table, seats, game)
        self.states.put(game.id, 0, state)
        self.after_commit(table_id, 0)
        log.info("game started", extra={"table_id": table_id, "game_id": game.id})
        return info

    def rematch(self, table_id: str, token: str | None) -> JSONDict:
        with self.db.write() as s:
            table = self._table(s, table_id, lock=True)
            self._seated(s, table, token)
            previous = self._game(s, table_id)
            if previous is None:
                raise ServiceError(409, "game_not_started", "no game has been played yet")
            if previous.status != "finished":
                raise ServiceError(409, "game_not_finished", "the current game is still running")
            game, state = self._new_game(s, table, list(previous.seats), previous.number + 1)
            info = self._table_info(s, table, None, game)
        self.states.put(game.id, 0, state)
        self.after_commit(table_id, 0)
        log.info("rematch started", extra={"table_id": table_id, "game_id": game.id})
        return info

    # ----------------------------------------------------------------- playing
    def _running(self, s: Session, table_id: str, token: str | None, seated: bool = False,
                 known: Viewer | None = None, command_id: str | None = None) -> tuple[Viewer, Any, int | None]:
        if known is not None:  # an authenticated socket: no need to read the table row
            viewer = known
            if seated and viewer.seat_id is None:
                raise bad_token("a seat token is required")
        else:
            table = self._table(s, table_id)
            viewer = self._seated(s, table, token) if seated else self._viewer(s, table, token)
        # A plain row (no ORM instance): this is the hot path of every command. With ``command_id``, the row
        # also carries that command's earlier row in this game (``dup_seq`` is ``None`` if there is none).
        pg = self.db.is_psycopg
        if command_id is None:
            game = _first(s, pg, _LATEST_GAME, _PG_LATEST_GAME, {"table_id": table_id})
        else:
            game = _first(s, pg, _LATEST_GAME_AND_COMMAND, _PG_LATEST_GAME_AND_COMMAND,
                          {"table_id": table_id, "command_id": command_id})
        if game is None:
            self._table(s, table_id)  # 404 for an unknown table
            raise ServiceError(409, "game_not_started", "the game has not started yet")
        seat = self._engine_seat(game, viewer.seat_id)
        if seated and seat is None:
            raise ServiceError(403, "not_seated", "this seat does not play in the current game")
        return viewer, game, seat

    def view(self, table_id: str, token: str | None) -> JSONDict:
        with self.db.read() as s:
            table = self._table(s, table_id)
            viewer = self._viewer(s, table, token)
            game = self._game(s, table_id)
            if game is None:
                seat = s.get(Seat, viewer.seat_id) if viewer.seat_id is not None else None
                return {"game_id": None, "number": None, "version": 0,
                        "seat": None if seat is None else seat.position, "view": None}
            seat_index = self._engine_seat(game, viewer.seat_id)
            ruleset = self._ruleset(game.ruleset)
            state = self._state(s, ruleset, game)
            view = ruleset.player_view(state, seat_index)
            self._decorate(s, table_id, game, [view])
            return {"game_id": game.id, "number": game.number, "version": game.version, "seat": seat_index,
                    "view": view}

    def events_since(self, table_id: str, token: str | None, since: int) -> JSONDict:
        with self.db.read() as s:
            _, game, seat = self._running(s, table_id, token)
            if not 0 <= since <= game.version:
                raise ServiceError(422, "invalid_since", f"since must be between 0 and {game.version}",
                                   field="since")
            rows = s.execute(select(GameCommand.seq, GameCommand.redacted)
                             .where(GameCommand.game_id == game.id, GameCommand.seq > since)
                             .order_by(GameCommand.seq)).all()
            return {"game_id": game.id, "version": game.version, "since": since,
                    "events": [e for _, red in rows for e in red[_key(seat)]]}

    def hint(self, table_id: str, token: str | None) -> JSONDict:
        with self.db.read() as s:
            _, game, seat = self._running(s, table_id, token, seated=True)
            assert seat is not None
            ruleset = self._ruleset(game.ruleset)
            groups = ruleset.hint(self._state(s, ruleset, game), seat)
            return {"version": game.version,
                    "groups": None if groups is None else [list(g) for g in groups]}

    def submit(self, table_id: str, token: str | None, command_id: str, expected_version: int | None,
               raw: Any) -> JSONDict:
        """Apply one command (idempotent by ``command_id``; ``expected_version`` guards staleness).

        Without ``expected_version`` a lost race is retried on the new state (the command was meant for
        "now"); with it, a lost race is ``stale_version`` and nothing is applied.
        """
        return self._submit(table_id, token, None, command_id, expected_version, raw, True)

    def submit_as(self, table_id: str, seat_id: int | None, command_id: str, expected_version: int | None,
                  raw: Any) -> JSONDict:
        """``submit`` for a socket whose seat was authenticated when it connected (the view is not
        returned: the socket receives it with the update)."""
        return self._submit(table_id, None, Viewer(seat_id), command_id, expected_version, raw, False)

    def _submit(self, table_id: str, token: str | None, known: Viewer | None, command_id: str,
                expected_version: int | None, raw: Any, with_view: bool) -> JSONDict:
        attempts = 1 if expected_version is not None else 5
        for attempt in range(attempts):
            try:
                result, version = self._submit_once(table_id, token, known, command_id, expected_version, raw,
                                                    with_view)
            except _Conflict:
                if attempt == attempts - 1:
                    raise StaleVersion("stale_version", "another command was accepted first") from None
                continue
            if not result["duplicate"]:
                self.after_commit(table_id, version)
            return result
        raise AssertionError("unreachable")

    def _submit_once(self, table_id: str, token: str | None, known: Viewer | None, command_id: str,
                     expected_version: int | None, raw: Any, with_view: bool) -> tuple[JSONDict, int]:
        try:
            with self.db.write() as s:
                _, game, seat = self._running(s, table_id, token, seated=True, known=known, command_id=command_id)
                assert seat is not None
                ruleset = self._ruleset(game.ruleset)
                if game.dup_seq is not None:  # this command id was accepted before (idempotent resend)
                    if game.dup_seat != seat:
                        raise ServiceError(409, "command_id_reused", "this command id belongs to another seat")
                    view = ruleset.player_view(self._state(s, ruleset, game), seat) if with_view else None
                    self._decorate(s, table_id, GameRef.of(game), [view])
                    return ({"game_id": game.id, "version": game.dup_seq, "duplicate": True,
                             "events": game.dup_redacted[_key(seat)], "view": view}, game.dup_seq)
                if expected_version is not None and expected_version != game.version:
                    raise StaleVersion("stale_version",
                                       f"the game is at version {game.version}, not {expected_version}")
                if game.status == "finished":
                    raise GameOver("game_over", "the game has finished")
                command = ruleset.parse_command(raw)
                state = self._state(s, ruleset, game)
                new_state, events = ruleset.apply(state, seat, command)
                version = game.version + 1
                over = ruleset.is_over(new_state)
                conn = s.connection()
                pg = self.db.is_psycopg
                if over or version - game.snapshot_version >= self.settings.snapshot_every:
                    values: JSONDict = {"version": version, "snapshot": ruleset.state_to_json(new_state),
                                        "snapshot_version": version}
                    if over:
                        values |= {"status": "finished", "winners": list(ruleset.winners(new_state)),
                                   "finished_at": utcnow()}
                    moved = conn.execute(update(_G).where(_G.c.id == game.id, _G.c.version == game.version)
                                         .values(**values))
                else:  # the usual case: one conditional UPDATE of the version
                    bump = {"b_id": game.id, "b_old": game.version, "b_new": version}
                    if pg:
                        moved = pg_cursor(s)
                        moved.execute(_PG_BUMP_VERSION, bump)
                    else:
                        moved = conn.execute(_BUMP_VERSION, bump)
                if moved.rowcount != 1:
                    raise _Conflict()
                redacted = {_key(i): [ruleset.redact_event(e, i) for e in events] for i in range(game.players)}
                redacted[SPECTATOR] = [ruleset.redact_event(e, None) for e in events]
                row: JSONDict = {
                    "game_id": game.id, "seq": version, "seat": seat, "command_id": command_id,
                    "command": ruleset.command_to_json(command), "events": [ruleset.event_to_json(e) for e in events],
                    "redacted": redacted, "created_at": utcnow()}
                if pg:
                    pg_cursor(s).execute(_PG_INSERT_COMMAND, row | {k: Json(row[k]) for k in _PG_JSON})
                else:
                    conn.execute(_INSERT_COMMAND, row)
                self._publish(s, table_id, version)
                new_state_to_cache = new_state
                view = ruleset.player_view(new_state, seat) if with_view else None
                # The command's row is in this transaction, so the extensions see the game at ``version``.
                self._decorate(s, table_id, GameRef(game.id, version, "finished" if over else game.status,
                                                    game.ruleset, list(game.seats)), [view])
                result = {"game_id": game.id, "version": version, "duplicate": False,
                          "events": redacted[_key(seat)], "view": view}
        except (IntegrityError, psycopg.IntegrityError):
            raise _Conflict() from None
        self.states.put(result["game_id"], version, new_state_to_cache)
        self._hot_step(table_id, result["game_id"], version, redacted, over)
        log.info("command accepted", extra={"table_id": table_id, "game_id": result["game_id"],
                                            "version": version, "seat": seat})
        return result, version

    # ----------------------------------------------------------------- replays
    def _replayable(self, s: Session, table_id: str, token: str | None, number: int) -> tuple[Game, bool]:
        """The game and whether only its public part may be shown: the whole record once it has finished,
        before that what a spectator sees (C-9), to the table's seats or to anyone at a spectators' table."""
        table = self._table(s, table_id)
        self._viewer(s, table, token)
        game = self._game_number(s, table_id, number)
        return game, game.status != "finished"

    def _commands(self, s: Session, game: Game, upto: int | None = None) -> list[GameCommand]:
        stmt = select(GameCommand).where(GameCommand.game_id == game.id)
        if upto is not None:
            stmt = stmt.where(GameCommand.seq <= upto)
        return list(s.scalars(stmt.order_by(GameCommand.seq)))

    def replay_record(self, table_id: str, token: str | None, number: int) -> JSONDict:
        """A finished game's full record (C-10); a running game's public record: no seed, each command
        reduced to its type (its fields may name hidden cards) with the events a spectator received (C-9)."""
        with self.db.read() as s:
            game, public = self._replayable(s, table_id, token, number)
            record: JSONDict = {
                "public": public,
                "table_id": table_id, "game_id": game.id, "number": game.number, "ruleset": game.ruleset,
                "options": game.options, "seed": game.seed, "players": game.players,
                "seats": [{"seat": i, "name": x["name"]} for i, x in enumerate(game.seats)],
                "status": game.status, "version": game.version, "winners": game.winners,
                "created_at": game.created_at.isoformat(),
                "finished_at": game.finished_at.isoformat() if game.finished_at else None,
            }
            commands = self._commands(s, game, game.version)
            if not public:
                record["commands"] = [{"seq": c.seq, "seat": c.seat, "command": c.command,
                                       "created_at": c.created_at.isoformat()} for c in commands]
                return record
            del record["seed"]
            record["commands"] = [{"seq": c.seq, "seat": c.seat, "command": {"type": c.command["type"]},
                                   "created_at": c.created_at.isoformat(), "events": c.redacted[SPECTATOR]}
                                  for c in commands]
            return record

    def replay_step(self, table_id: str, token: str | None, number: int, step: int) -> JSONDict:
        """The full state (every hand) after ``step`` commands of a finished game, rebuilt by the engine from
        the record (C-10); of a running game the spectator's view and events at that step only (C-9)."""
        with self.db.read() as s:
            game, public = self._replayable(s, table_id, token, number)
            if not 0 <= step <= game.version:
                raise ServiceError(422, "invalid_step", f"step must be between 0 and {game.version}",
                                   field="step")
            commands = self._commands(s, game, step)
        ruleset = self._ruleset(game.ruleset)
        state = ruleset.new_game(game.seed, game.players, ruleset.parse_options(game.options))
        events: Iterable[Any] = ()
        for c in commands:
            state, events = ruleset.apply(state, c.seat, ruleset.parse_command(c.command))
        last = commands[-1] if commands else None
        if public:
            return {"public": True, "step": step, "version": game.version,
                    "command": None if last is None else {"seq": last.seq, "seat": last.seat,
                                                          "command": {"type": last.command["type"]}},
                    "events": [ruleset.redact_event(e, None) for e in events],
                    "view": ruleset.player_view(state, None)}
        return {"public": False, "step": step, "version": game.version,
                "command": None if last is None else {"seq": last.seq, "seat": last.seat, "command": last.command},
                "events": [ruleset.event_to_json(e) for e in events],
                "state": ruleset.full_view(state)}

    # ----------------------------------------------------------------- realtime
    def authenticate(self, table_id: str, token: str | None) -> tuple[Viewer, JSONDict]:
        with self.db.read() as s:
            table = self._table(s, table_id)
            return self._viewer(s, table, token), self._table_info(s, table)

    def _hot_step(self, table_id: str, game_id: int, version: int, redacted: JSONDict, over: bool) -> None:
        with self._hot_lock:
            hot = self._hot.get(table_id)
            if hot is None:
                return
            if over or hot.game_id != game_id or hot.version != version - 1:
                del self._hot[table_id]  # the next fan-out reads everything
                return
            hot.steps.append((version, redacted))
            hot.version = version

    def _hot_fanout(self, s: Session, table_id: str, seat_ids: set[int | None], since: int) -> FanoutData | None:
        with self._hot_lock:
            hot = self._hot.get(table_id)
            if hot is None:
                return None
            revision, game_id, version = hot.revision, hot.game_id, hot.version
            steps = [step for step in hot.steps if step[0] > since]
            oldest = hot.steps[0][0] if hot.steps else version + 1
        if since < oldest - 1 or since > version:
            return None
        row = _first(s, self.db.is_psycopg, _HOT_CHECK, _PG_HOT_CHECK, {"table_id": table_id})
        if row is None or tuple(row) != (revision, game_id, version):
            return None
        state = self.states.get(game_id, version)
        if state is None:
            return None
        ruleset = self._ruleset(hot.ruleset)
        table = dict(hot.table, game={**hot.table["game"], "version": version})
        data = FanoutData(table=table, seat_ids=hot.seat_ids, game_id=game_id, version=version,
                          engine_seat={entry["seat_id"]: i for i, entry in enumerate(hot.seats)}, views={},
                          steps=steps)
        for seat_id in seat_ids:
            seat = self._engine_seat_in(hot.seats, seat_id)
            if seat not in data.views:
                data.views[seat] = ruleset.player_view(state, seat)
        self._decorate(s, table_id, GameRef(game_id, version, "playing", hot.ruleset, hot.seats), data.views.values())
        return data

    @staticmethod
    def _engine_seat_in(seats: list[Any], seat_id: int | None) -> int | None:
        if seat_id is None:
            return None
        return next((i for i, entry in enumerate(seats) if entry["seat_id"] == seat_id), None)

    def fanout(self, table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
        """The table, its game's version, one view per seat asked for, and the stored redacted events
        after ``since`` (connected flags are the hub's to fill in)."""
        if table_id in self._hot:
            with self.db.peek() as s:
                fast = self._hot_fanout(s, table_id, seat_ids, since)
            if fast is not None:
                return fast
        with self.db.read() as s:
            table = self._table(s, table_id)
            game = self._game(s, table_id)
            seats = self._seats(s, table_id)
            data = FanoutData(table=self._table_info(s, table, seats, game, with_game=game is not None),
                              seat_ids=[x.id for x in seats], game_id=None, version=0,
                              engine_seat={x.id: x.position for x in seats}, views={})
            if game is None:
                return data
            data.game_id, data.version = game.id, game.version
            data.engine_seat = {entry["seat_id"]: i for i, entry in enumerate(game.seats)}
            ruleset = self._ruleset(game.ruleset)
            state = self._state(s, ruleset, game)
            for seat_id in seat_ids:
                seat = self._engine_seat(game, seat_id)
                if seat not in data.views:
                    data.views[seat] = ruleset.player_view(state, seat)
            self._decorate(s, table_id, game, data.views.values())
            if since < game.version:
                data.steps = [(seq, red) for seq, red in s.execute(
                    select(GameCommand.seq, GameCommand.redacted)
                    .where(GameCommand.game_id == game.id, GameCommand.seq > since)
                    .order_by(GameCommand.seq)).all()]
            if game.status == "playing" and self.settings.state_cache_size > 0:
                with self._hot_lock:
                    self._hot[table_id] = _Hot(table.revision, game.id, game.version, game.ruleset,
                                               list(game.seats), data.table, list(data.seat_ids),
                                               deque(data.steps, maxlen=64))
                    self._hot.move_to_end(table_id)
                    while len(self._hot) > self.settings.state_cache_size:
                        self._hot.popitem(last=False)
            return data


def count_tables(db: Database) -> int:
    with db.read() as s:
        return int(s.scalar(select(func.count()).select_from(GameTable)) or 0)
