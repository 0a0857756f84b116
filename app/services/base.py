"""What every part of the game service shares (docs/architecture.md, "The command path"): the service's wiring
(database, settings, rule sets, notifier, extensions, state cache) and the small load helpers: a table, its seats,
its current game, who is asking, a game's state at its version, and the table info every answer and socket carries.

The parts that use it each have a module: ``games`` (the command path, and the ``GameService`` facade routes and
sockets call), ``lobby`` (tables, seats, joins, start), ``rematch`` (the next game by consent), ``replays`` and
``fanout``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from psycopg.rows import namedtuple_row
from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from app.persistence.commands import read_commands
from app.persistence.db import Database
from app.persistence.models import Game, GameTable, Seat
from app.rules import registry
from app.rules.core.ruleset import JSONDict
from app.settings import Settings

from .errors import ServiceError, bad_token, table_not_found
from .security import JoinLimiter, digest

AnyRuleset = registry.AnyRuleset
SPECTATOR = "spectator"


def pg_cursor(s: Session) -> Any:
    """A psycopg cursor on ``s``'s connection (inside its transaction), rows as named tuples."""
    return s.connection().connection.dbapi_connection.cursor(row_factory=namedtuple_row)  # type: ignore[union-attr]


def first_row(s: Session, pg: bool, core: Any, raw: str, params: JSONDict) -> Any:
    """The first row of a hot-path query: raw psycopg on Postgres, the Core statement elsewhere."""
    if pg:
        cur = pg_cursor(s)
        cur.execute(raw, params)
        return cur.fetchone()
    return s.connection().execute(core, params).first()


@dataclass(frozen=True)
class RulesetCatalog:
    """Where the server finds rule sets: the registry, or a fake in tests."""

    get: Callable[[str], AnyRuleset] = registry.get
    ids: Callable[[], tuple[str, ...]] = registry.ruleset_ids


@dataclass(frozen=True)
class Step:
    """An accepted command, as another server process needs it to bring its copy of the game from ``version - 1``
    to ``version`` with the deterministic engine (C-10) instead of reading the game back."""

    game_id: int
    seat: int
    command: JSONDict
    by: str | None = None  # who decided for the seat (``ATTRIBUTIONS``), ``None`` when the seat did


class Notifier(Protocol):
    """Publishes "table X changed, its game is at version N" (with the command that got it there, if any) to
    the realtime hub."""

    def in_transaction(self, session: Session, table_id: str, version: int, step: Step | None = None) -> None: ...
    def notification(self, table_id: str, version: int, step: Step) -> tuple[str, str] | None:
        """What ``in_transaction`` would publish, as the ``(channel, payload)`` of a Postgres NOTIFY for a writer
        that runs its own statement (``None``: this notifier publishes nothing in the database)."""
    def after_commit(self, table_id: str, version: int) -> None: ...


class NullNotifier:
    def in_transaction(self, session: Session, table_id: str, version: int, step: Step | None = None) -> None:
        pass

    def notification(self, table_id: str, version: int, step: Step) -> tuple[str, str] | None:
        return None

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
    """What a server extension (the bot runner, app/autoplay/runner.py) adds to the service, registered with
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




def key(seat: int | None) -> str:
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




# Who may make a seat's decision for it: its turn timer ran out ("timer") or a stand-in plays for an absent
# seat ("stand_in"). The events of such a command that tell of the seat's own move carry ``"by"`` in every
# redaction (docs/protocol.md).
ATTRIBUTIONS = ("timer", "stand_in")


def attributed(events: list[JSONDict], by: str | None, seat: int) -> list[JSONDict]:
    """``events`` with ``"by": by`` added to those that tell of ``seat``'s own move (their ``seat`` is it: not a
    turn it skipped for another seat, nor the round's end); new dicts, as stored redactions are shared read-only."""
    if by is None:
        return events
    return [{**e, "by": by} if e.get("seat") == seat else e for e in events]


class LazyRedaction(dict[str, Any]):
    """``redact_all`` made on demand: each key (a seat's, or ``spectator``) is redacted when first read. For a
    step another process accepted (it stored the full redaction): this process needs only its sockets' seats."""

    def __init__(self, ruleset: AnyRuleset, players: int, events: Iterable[Any], by: str | None = None,
                 seat: int = -1) -> None:
        super().__init__()
        self._ruleset, self._events, self._by, self._seat = ruleset, tuple(events), by, seat
        self._keys = frozenset([*(key(i) for i in range(players)), SPECTATOR])

    def __missing__(self, name: str) -> list[JSONDict]:
        if name not in self._keys:
            raise KeyError(name)
        seat = None if name == SPECTATOR else int(name)
        value = self[name] = attributed([self._ruleset.redact_event(e, seat) for e in self._events], self._by,
                                        self._seat)
        return value

    def _whole(self) -> dict[str, Any]:
        """Every key redacted (for the whole-mapping reads below, so this is a ``redact_all`` in every respect)."""
        for name in self._keys:
            self[name]  # noqa: B018 - computes and stores the key
        return self

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self._keys else default

    def __contains__(self, name: object) -> bool:
        return name in self._keys

    def __iter__(self) -> Iterator[str]:
        return dict.__iter__(self._whole())

    def __len__(self) -> int:
        return len(self._keys)

    def keys(self) -> Any:
        return dict.keys(self._whole())

    def values(self) -> Any:
        return dict.values(self._whole())

    def items(self) -> Any:
        return dict.items(self._whole())

    def __eq__(self, other: object) -> bool:
        return dict.__eq__(self._whole(), other._whole() if isinstance(other, LazyRedaction) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other


def redact_all(ruleset: AnyRuleset, players: int, events: Iterable[Any], by: str | None = None,
               seat: int = -1) -> JSONDict:
    """A command's events as each seat and a spectator may see them (C-9), keyed by ``key``. An event whose JSON
    does not depend on the viewer (not in the rule set's ``viewer_dependent_events``) is redacted once, as a
    spectator sees it, and that JSON is shared by every key (read-only, like every stored redaction). ``by``: who
    made ``seat``'s decision for it (``ATTRIBUTIONS``), added to the events of its own move (``attributed``)."""
    events = list(events)
    dependent = ruleset.viewer_dependent_events
    spectator = [ruleset.redact_event(e, None) for e in events]
    redacted: JSONDict = {key(i): [ruleset.redact_event(e, i) if isinstance(e, dependent) else alike
                                   for e, alike in zip(events, spectator, strict=True)] for i in range(players)}
    redacted[SPECTATOR] = spectator
    if by is not None:
        redacted = {name: attributed(value, by, seat) for name, value in redacted.items()}
    return redacted


class ServiceBase:
    """The service's wiring and the load helpers its parts share."""

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
                for c in read_commands(s, game.id, since, game.version):
                    state, _ = ruleset.apply(state, c.seat, ruleset.parse_command(c.command))
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
        return s.scalar(select(Game).options(defer(Game.snapshot), defer(Game.previous_snapshot))
                        .where(Game.table_id == table_id)
                        .order_by(Game.number.desc()).limit(1))

    def _game_number(self, s: Session, table_id: str, number: int) -> Game:
        # The snapshots are loaded only if asked for (a replay rebuilds its states from the seed).
        game = s.scalar(select(Game).options(defer(Game.snapshot), defer(Game.previous_snapshot))
                        .where(Game.table_id == table_id, Game.number == number))
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

    def _publish(self, s: Session, table_id: str, version: int, step: Step | None = None) -> None:
        self.notifier.in_transaction(s, table_id, version, step)

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
            "practice": table.practice,
            "practice_from": table.practice_from,
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

    def check_seat(self, table_id: str, token: str | None) -> Viewer:
        """404 ``table_not_found``, else 401 ``bad_token`` unless ``token`` is a seat's at this table: the check
        a request that changes something passes before its body is looked at. Returns that seat."""
        with self.db.read() as s:
            seat = None if not token else s.execute(
                select(Seat.id, Seat.is_host).where(Seat.token_hash == digest(token), Seat.table_id == table_id)
            ).first()
            if seat is None:
                self._table(s, table_id)
                raise bad_token("a seat token is required" if not token else "unknown seat token")
            return Viewer(seat.id, seat.is_host)

    def authenticate(self, table_id: str, token: str | None) -> tuple[Viewer, JSONDict]:
        with self.db.read() as s:
            table = self._table(s, table_id)
            return self._viewer(s, table, token), self._table_info(s, table)



def count_tables(db: Database) -> int:
    with db.read() as s:
        return int(s.scalar(select(func.count()).select_from(GameTable)) or 0)
