"""The game service's command path (docs/architecture.md, "The command path"), and ``GameService``, the one object
routes, sockets and extensions call.

Every accepted command goes load -> apply through the engine -> append the command and store the new
snapshot in one transaction guarded by the game's version -> commit -> publish ``(table_id, version)``.
The lobby (``lobby``), replays (``replays``) and the fan-out with its per-process table cache (``fanout``) have
modules of their own; routes and socket handlers only call this service; no rules logic lives anywhere else.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any, cast

import psycopg
from sqlalchemy import Table, and_, bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app import metrics
from app.persistence import append
from app.persistence.commands import pack_game, packed_command
from app.persistence.hot import HotUnavailable, UniqueViolation
from app.persistence.models import Game, GameCommand, GameTable, Seat, utcnow
from app.rules.core.errors import GameOver, RuleError, StaleVersion
from app.rules.core.ruleset import JSONDict

from .base import (
    SPECTATOR,
    GameRef,
    Notifier,
    NullNotifier,
    RulesetCatalog,
    StateCache,
    Step,
    TableExtension,
    Viewer,
    count_tables,
    first_row,
    key,
    pg_cursor,
    redact_all,
)
from .errors import ServiceError, bad_token
from .fanout import Fanout, FanoutData
from .lobby import Lobby
from .replays import Replays
from .security import digest

__all__ = ["SPECTATOR", "FanoutData", "GameRef", "GameService", "JSONDict", "Notifier", "NullNotifier",
           "RulesetCatalog", "StateCache", "Step", "TableExtension", "Viewer", "count_tables", "pg_cursor"]

log = logging.getLogger("phase10.games")

# The hot path's reads, built once (SQLAlchemy Core on the session's connection: no ORM instances, and the
# compiled form is cached): every command runs ``_LATEST_GAME`` (with the command id's earlier row, if any, in the
# same round trip), then the append (``app.persistence.append``).
_GAMES = cast(Table, Game.__table__)
_COMMANDS = cast(Table, GameCommand.__table__)
_GAME_COLUMNS = (_GAMES.c.id, _GAMES.c.version, _GAMES.c.snapshot_version, _GAMES.c.seats, _GAMES.c.ruleset,
                 _GAMES.c.players, _GAMES.c.status)
_LATEST_GAME = (select(*_GAME_COLUMNS).where(_GAMES.c.table_id == bindparam("table_id"))
                .order_by(_GAMES.c.number.desc()).limit(1))
_LATEST_GAME_AND_COMMAND = (
    select(*_GAME_COLUMNS, _COMMANDS.c.seat.label("dup_seat"), _COMMANDS.c.seq.label("dup_seq"))
    .select_from(_GAMES.outerjoin(_COMMANDS, and_(_COMMANDS.c.game_id == _GAMES.c.id,
                                                  _COMMANDS.c.command_id == bindparam("command_id"))))
    .where(_GAMES.c.table_id == bindparam("table_id")).order_by(_GAMES.c.number.desc()).limit(1))

# The same reads for Postgres, run on the session's own psycopg connection (same transaction): SQLAlchemy's
# per-statement overhead was the largest part of a command's CPU. Rows come back as named tuples with the same
# names.
_PG_GAME = "SELECT g.id, g.version, g.snapshot_version, g.seats, g.ruleset, g.players, g.status"
_PG_LATEST_GAME = f"{_PG_GAME} FROM game g WHERE g.table_id = %(table_id)s ORDER BY g.number DESC LIMIT 1"
_PG_LATEST_GAME_AND_COMMAND = (
    f"{_PG_GAME}, c.seat AS dup_seat, c.seq AS dup_seq FROM game g "
    "LEFT OUTER JOIN game_command c ON c.game_id = g.id AND c.command_id = %(command_id)s "
    "WHERE g.table_id = %(table_id)s ORDER BY g.number DESC LIMIT 1")
# The seat of a token at a table, on the loop's own connections (``seat_on_loop``).
_PG_SEAT_OF_TOKEN = "SELECT id, is_host FROM seat WHERE token_hash = $1::text AND table_id = $2::text"


class _Conflict(Exception):
    """Another writer moved the game on between our read and our write."""


@dataclass(frozen=True)
class _HotPlan:
    """A socket's command checked on this process's copy of its game, and the one statement that writes it."""

    table_id: str
    game_id: int
    ruleset: str
    version: int
    seat: int
    new_state: Any
    redacted: JSONDict
    snapshot: bool  # the statement stores the new state as the game's snapshot
    statement: str  # with Postgres's positional parameters ($1, ...)
    params: tuple[Any, ...]


# How long a socket's command waits for a free connection of the loop's own (``app.persistence.hot``) before it takes
# the ordinary path.
HOT_POOL_WAIT = 0.5


class GameService(Lobby, Replays, Fanout):
    """Tables, seats, games, commands, views, hints and replays over one database: the command path is here,
    the rest in the parts it inherits (``Lobby``, ``Replays``, ``Fanout``, sharing ``ServiceBase``)."""

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
            game = first_row(s, pg, _LATEST_GAME, _PG_LATEST_GAME, {"table_id": table_id})
        else:
            game = first_row(s, pg, _LATEST_GAME_AND_COMMAND, _PG_LATEST_GAME_AND_COMMAND,
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
            return self._view_of(s, table_id, self._viewer(s, table, token))

    def seat_view(self, table_id: str, viewer: Viewer) -> JSONDict:
        """``view`` for a seat already authenticated."""
        with self.db.read() as s:
            return self._view_of(s, table_id, viewer)

    def _view_of(self, s: Session, table_id: str, viewer: Viewer) -> JSONDict:
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
            steps = self._recent_steps(table_id, game.id, since, game.version)
            if steps is None:
                steps = self._steps(s, self._ruleset(game.ruleset), game, since, game.version)
            return {"game_id": game.id, "version": game.version, "since": since,
                    "events": [e for _, red in steps for e in red[key(seat)]]}

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
                  raw: Any, by: str | None = None) -> JSONDict:
        """``submit`` for a socket whose seat was authenticated when it connected (the view is not
        returned: the socket receives it with the update). ``by``: the seat's decision was made for it by its
        turn timer or a stand-in (``ATTRIBUTIONS``); its events say so."""
        return self._submit(table_id, None, Viewer(seat_id), command_id, expected_version, raw, False, by)

    def _submit(self, table_id: str, token: str | None, known: Viewer | None, command_id: str,
                expected_version: int | None, raw: Any, with_view: bool, by: str | None = None) -> JSONDict:
        # A lost write race is always read again: the winner may have been a copy of this very command (a client
        # retrying over a flaky link), and then this copy answers ``duplicate: true`` like a sequential resend.
        # With ``expected_version`` the second read answers that or ``stale_version``; without it the command
        # is retried on the new state.
        arrived = time.perf_counter()
        attempts = 2 if expected_version is not None else 5
        if known is not None and not with_view and self.db.is_psycopg:
            hot = self._submit_hot(table_id, known, command_id, expected_version, raw, by)
            if hot is not None:
                metrics.command_committed(table_id, hot[1], hot[2], arrived)
                self.after_commit(table_id, hot[1])
                return hot[0]
        try:
            for attempt in range(attempts):
                try:
                    result, version, ruleset = self._submit_once(table_id, token, known, command_id,
                                                                 expected_version, raw, with_view, by)
                except _Conflict:
                    if attempt == attempts - 1:
                        raise StaleVersion("stale_version", "another command was accepted first") from None
                    continue
                if not result["duplicate"]:
                    metrics.command_committed(table_id, version, ruleset, arrived)
                    self.after_commit(table_id, version)
                return result
        except (RuleError, ServiceError) as err:
            metrics.COMMANDS_REFUSED.labels(self._ruleset_of(table_id), err.code).inc()
            raise
        raise AssertionError("unreachable")

    def _submit_hot(self, table_id: str, viewer: Viewer, command_id: str, expected_version: int | None,
                    raw: Any, by: str | None = None) -> tuple[JSONDict, int, str] | None:
        """The usual socket command in one round trip (Postgres), from a worker thread: see ``_hot_plan``."""
        plan = self._hot_plan(table_id, viewer, command_id, expected_version, raw, by)
        if plan is None:
            return None
        with self.committing(table_id, plan.version):
            try:
                with self.db.autocommit_cursor() as cursor:
                    cursor.execute(plan.statement, plan.params)
                    moved = cursor.rowcount
            except psycopg.IntegrityError:
                return None  # this command id was used before: the ordinary path tells a resend from a reuse
            if moved != 1:
                return None
            return self._hot_written(plan)

    async def seat_on_loop(self, table_id: str, token: str | None) -> Viewer:
        """``check_seat`` on the event loop: one statement on the loop's own connections (Postgres) finds the
        token's seat; anything else (no such seat: which error; SQLite; no connection free) is ``check_seat`` in a
        worker thread."""
        pool = self.db.hot_pool_here()
        if pool is not None and token:
            try:
                async with pool.connection(timeout=HOT_POOL_WAIT) as conn:
                    row = await conn.fetchrow(_PG_SEAT_OF_TOKEN, digest(token), table_id)
            except HotUnavailable:
                row = None
            if row is not None:
                return Viewer(row[0], row[1])
        return await asyncio.to_thread(self.check_seat, table_id, token)

    async def submit_on_loop(self, table_id: str, seat_id: int | None, command_id: str,
                             expected_version: int | None, raw: Any, with_view: bool = False) -> JSONDict:
        """``submit_as`` for a socket or (``with_view``: the answer carries the seat's view) a REST request, called
        on the event loop. The usual command at a running table this process keeps current is checked here and
        written by one statement on the loop's own connections (``Database.hot_pool_here``): no worker thread, no
        wait for a pooled thread or connection of the ordinary path; the view, when asked for, is made from the
        same cached copy. Anything that needs the ordinary path's reads goes to it in a worker thread, like any
        other command."""
        pool = self.db.hot_pool_here()
        if pool is not None:
            arrived = time.perf_counter()
            plan = self._hot_plan(table_id, Viewer(seat_id), command_id, expected_version, raw)
            if plan is not None:
                with self.committing(table_id, plan.version):
                    try:
                        async with pool.connection(timeout=HOT_POOL_WAIT) as conn:
                            moved = len(await conn.fetch(plan.statement, *plan.params))
                    except (UniqueViolation, HotUnavailable):
                        # A command id used before, no connection free in time, or the connection was lost (the
                        # statement may even have committed): the ordinary path decides, a resend included.
                        moved = 0
                    written = self._hot_written(plan) if moved == 1 else None
                if written is not None:
                    metrics.command_committed(table_id, written[1], written[2], arrived)
                    self.after_commit(table_id, written[1])
                    if with_view:
                        written[0]["view"] = self.cached_view(table_id, seat_id, written[1]) \
                            or (await asyncio.to_thread(self.seat_view, table_id, Viewer(seat_id)))["view"]
                    return written[0]
        if with_view:
            return await asyncio.to_thread(self._submit, table_id, None, Viewer(seat_id), command_id,
                                           expected_version, raw, True)
        return await asyncio.to_thread(self.submit_as, table_id, seat_id, command_id, expected_version, raw)

    def _hot_plan(self, table_id: str, viewer: Viewer, command_id: str, expected_version: int | None,
                  raw: Any, by: str | None = None) -> _HotPlan | None:
        """A socket's command checked and applied on this process's current copy of the running game (the fan-out's
        hot cache and the state cache), with the one guarded statement that writes it (Postgres). ``None``
        whenever that cannot decide it alone -- no copy, a refusal (the copy may be behind), the end of the game:
        then the ordinary path reads the game and decides, exactly as without this attempt. The
        statement itself applies only on exactly the version the command was checked against, and fails on a
        command id seen before (the ordinary path then tells a resend from a reuse)."""
        hot = self.hot_game(table_id)
        # A decision made for the seat (``by``) is stored with its maker: the ordinary path's statement.
        if hot is None or viewer.seat_id is None or by is not None or expected_version not in (None, hot.version):
            return None
        seat = self._engine_seat_in(hot.seats, viewer.seat_id)
        version = hot.version + 1
        if seat is None:
            return None
        state = self.states.get(hot.game_id, hot.version)
        if state is None:
            return None
        ruleset = self._ruleset(hot.ruleset)
        try:
            command = ruleset.parse_command(raw)
            new_state, events = ruleset.apply(state, seat, command)
        except Exception:  # a refusal (or anything odd) is the ordinary path's to answer, exactly as it does
            return None
        if ruleset.is_over(new_state):
            return None
        redacted = redact_all(ruleset, len(hot.seats), events, by, seat)
        command_json = ruleset.command_to_json(command)
        snapshot = version - hot.snapshot_version >= self.settings.snapshot_every
        statement, params = append.postgres(append.Append(
            hot.game_id, hot.version, seat, command_id, command_json, utcnow(),
            snapshot=ruleset.state_to_json(new_state) if snapshot else None,
            notify=self.notifier.notification(table_id, version, Step(hot.game_id, seat, command_json, by))))
        return _HotPlan(table_id, hot.game_id, hot.ruleset, version, seat, new_state, redacted, snapshot,
                        statement, params)

    def _hot_written(self, plan: _HotPlan) -> tuple[JSONDict, int, str]:
        """``plan`` was written: this process's copy moves on (call inside ``committing``)."""
        self.states.put(plan.game_id, plan.version, plan.new_state)
        self._hot_step(plan.table_id, plan.game_id, plan.version, plan.redacted, False, snapshot=plan.snapshot)
        log.info("command accepted", extra={"table_id": plan.table_id, "game_id": plan.game_id,
                                            "version": plan.version, "seat": plan.seat})
        return ({"game_id": plan.game_id, "version": plan.version, "duplicate": False,
                 "events": plan.redacted[key(plan.seat)], "view": None}, plan.version, plan.ruleset)

    def _ruleset_of(self, table_id: str) -> str:
        """The table's rule set for the refused-commands metric (``unknown`` for a table that does not exist)."""
        with self.db.peek() as s:
            return s.scalar(select(GameTable.ruleset).where(GameTable.id == table_id)) or "unknown"

    def _submit_once(self, table_id: str, token: str | None, known: Viewer | None, command_id: str,
                     expected_version: int | None, raw: Any, with_view: bool,
                     by: str | None = None) -> tuple[JSONDict, int, str]:
        try:
            with self.db.write() as s:
                _, game, seat = self._running(s, table_id, token, seated=True, known=known, command_id=command_id)
                assert seat is not None
                ruleset = self._ruleset(game.ruleset)
                dup_seq, dup_seat = game.dup_seq, game.dup_seat
                if dup_seq is None and game.status == "finished":  # its commands are packed: a resend of the last?
                    packed = packed_command(s, game.id, command_id)
                    if packed is not None:
                        dup_seq, dup_seat = packed.seq, packed.seat
                if dup_seq is not None:  # this command id was accepted before (idempotent resend)
                    if dup_seat != seat:
                        raise ServiceError(409, "command_id_reused", "this command id belongs to another seat")
                    view = ruleset.player_view(self._state(s, ruleset, game), seat) if with_view else None
                    self._decorate(s, table_id, GameRef.of(game), [view])
                    # Its events, as this seat was given them, recomputed by the engine (C-10).
                    ((_, earlier),) = self._steps(s, ruleset, game, dup_seq - 1, dup_seq)
                    return ({"game_id": game.id, "version": dup_seq, "duplicate": True,
                             "events": earlier[key(seat)], "view": view}, dup_seq, game.ruleset)
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
                pg = self.db.is_psycopg
                snapshot = over or version - game.snapshot_version >= self.settings.snapshot_every
                redacted = redact_all(ruleset, game.players, events, by, seat)
                command_json = ruleset.command_to_json(command)
                step = Step(game.id, seat, command_json, by)
                entry = append.Append(
                    game.id, game.version, seat, command_id, command_json, utcnow(), by,
                    snapshot=ruleset.state_to_json(new_state) if snapshot else None,
                    finish=append.Finish(list(ruleset.winners(new_state)), utcnow()) if over else None,
                    notify=self.notifier.notification(table_id, version, step) if pg else None)
                if pg:
                    dbapi: Any = s.connection().connection.dbapi_connection
                    with psycopg.RawCursor(dbapi) as cursor:
                        cursor.execute(*append.postgres(entry))
                        moved = cursor.rowcount == 1
                else:
                    moved = append.sqlite(s.connection(), entry)
                if not moved:
                    raise _Conflict()
                if over:  # nothing is added to a finished game: its commands move into one packed record
                    pack_game(s, game.id)
                if entry.notify is None:  # the in-process hub's (the NOTIFY, if any, went with the append)
                    self._publish(s, table_id, version, step)
                new_state_to_cache = new_state
                view = ruleset.player_view(new_state, seat) if with_view else None
                # The command's row is in this transaction, so the extensions see the game at ``version``.
                self._decorate(s, table_id, GameRef(game.id, version, "finished" if over else game.status,
                                                    game.ruleset, list(game.seats)), [view])
                result = {"game_id": game.id, "version": version, "duplicate": False,
                          "events": redacted[key(seat)], "view": view}
        except (IntegrityError, psycopg.IntegrityError):
            raise _Conflict() from None
        self.states.put(result["game_id"], version, new_state_to_cache)
        self._hot_step(table_id, result["game_id"], version, redacted, over, snapshot)
        log.info("command accepted", extra={"table_id": table_id, "game_id": result["game_id"],
                                            "version": version, "seat": seat})
        return result, version, game.ruleset
