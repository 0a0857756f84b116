"""``Player``: the command path (docs/architecture.md, "The service"), and the reads of a running game.

A command goes: route or socket -> ``Player.submit*`` -> the game's current row (``GameRepo.latest_game``) and
state (``GameRepo.state``) -> the engine (``app.rules``) -> ``GameRepo.append`` (the version bump guarded by the
version checked against, the command, the snapshot when due, the NOTIFY on Postgres: one statement) -> commit ->
the fan-out's cache moves on (``Fanout.hot_step``) -> ``Changes.committed`` (the notifier wakes the sockets'
hub, which fans out through ``Fanout``; the extensions hear of it).

The usual socket or REST command at a running table this process keeps current skips the read: it is checked on
the fan-out's cached copy and written by the one statement on the event loop's own connection
(``submit_on_loop``) or, from a worker thread (a bot), in autocommit (``_submit_hot``). Anything that copy cannot
decide alone takes the ordinary path, which reads and decides. No rules logic lives here: the engine decides.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app import metrics
from app.persistence.append import Append, Finish
from app.persistence.hot import HotUnavailable, UniqueViolation
from app.persistence.models import Seat, utcnow
from app.rules.core.errors import GameOver, RuleError, StaleVersion
from app.rules.core.ruleset import JSONDict
from app.settings import Settings

from .base import GameRef, Step, Viewer, key, redact_all
from .errors import ServiceError, bad_token
from .fanout import Fanout
from .history import History
from .repo import GameRepo
from .tables import Changes, Tables

log = logging.getLogger("phase10.games")


class _Conflict(Exception):
    """Another writer moved the game on between our read and our write."""


@dataclass(frozen=True)
class _HotPlan:
    """A socket's command checked on this process's copy of its game, and the append that writes it."""

    table_id: str
    game_id: int
    ruleset: str
    version: int
    seat: int
    new_state: Any
    redacted: JSONDict
    snapshot: bool  # the append stores the new state as the game's snapshot
    entry: Append


# How long a socket's command waits for a free connection of the loop's own (``app.persistence.hot``) before it takes
# the ordinary path.
HOT_POOL_WAIT = 0.5


class Player:
    """The command path and the reads of a running game (views, events, hints), over the repo (storage), the table
    info and view decoration (``tables``), the recomputed history (``history``), the fan-out with its cache of
    running tables (``fanout``) and the changes' publisher (``changes``)."""

    def __init__(self, repo: GameRepo, tables: Tables, history: History, fanout: Fanout, changes: Changes,
                 settings: Settings) -> None:
        self.repo = repo
        self.tables = tables
        self.history = history
        self.fanout = fanout
        self.changes = changes
        self.settings = settings
        self.db = repo.db

    def check_seat(self, table_id: str, token: str | None) -> Viewer:
        """404 ``table_not_found``, else 401 ``bad_token`` unless ``token`` is a seat's at this table: the check
        a request that changes something passes before its body is looked at. Returns that seat."""
        with self.db.read() as s:
            seat = self.repo.seat_of_token(s, table_id, token)
            if seat is None:
                self.repo.table(s, table_id)
                raise bad_token("a seat token is required" if not token else "unknown seat token")
            return seat

    def authenticate(self, table_id: str, token: str | None) -> tuple[Viewer, JSONDict]:
        with self.db.read() as s:
            table = self.repo.table(s, table_id)
            return self.repo.viewer(s, table, token), self.tables.info(s, table)

    def _running(self, s: Session, table_id: str, token: str | None, seated: bool = False,
                 known: Viewer | None = None, command_id: str | None = None) -> tuple[Viewer, Any, int | None]:
        if known is not None:  # an authenticated socket: no need to read the table row
            viewer = known
            if seated and viewer.seat_id is None:
                raise bad_token("a seat token is required")
        else:
            table = self.repo.table(s, table_id)
            viewer = self.repo.seated(s, table, token) if seated else self.repo.viewer(s, table, token)
        # A plain row (no ORM instance): this is the hot path of every command. With ``command_id``, the row
        # also carries that command's earlier row in this game (``dup_seq`` is ``None`` if there is none).
        game = self.repo.latest_game(s, table_id, command_id)
        if game is None:
            self.repo.table(s, table_id)  # 404 for an unknown table
            raise ServiceError(409, "game_not_started", "the game has not started yet")
        seat = self.repo.engine_seat(game, viewer.seat_id)
        if seated and seat is None:
            raise ServiceError(403, "not_seated", "this seat does not play in the current game")
        return viewer, game, seat

    def view(self, table_id: str, token: str | None) -> JSONDict:
        with self.db.read() as s:
            table = self.repo.table(s, table_id)
            return self._view_of(s, table_id, self.repo.viewer(s, table, token))

    def seat_view(self, table_id: str, viewer: Viewer) -> JSONDict:
        """``view`` for a seat already authenticated."""
        with self.db.read() as s:
            return self._view_of(s, table_id, viewer)

    def _view_of(self, s: Session, table_id: str, viewer: Viewer) -> JSONDict:
        game = self.repo.game(s, table_id)
        if game is None:
            seat = s.get(Seat, viewer.seat_id) if viewer.seat_id is not None else None
            return {"game_id": None, "number": None, "version": 0,
                    "seat": None if seat is None else seat.position, "view": None}
        seat_index = self.repo.engine_seat(game, viewer.seat_id)
        ruleset = self.repo.ruleset(game.ruleset)
        state = self.repo.state(s, ruleset, game)
        view = ruleset.player_view(state, seat_index)
        self.tables.decorate(s, table_id, game, [view])
        return {"game_id": game.id, "number": game.number, "version": game.version, "seat": seat_index,
                "view": view}

    def events_since(self, table_id: str, token: str | None, since: int) -> JSONDict:
        with self.db.read() as s:
            _, game, seat = self._running(s, table_id, token)
            if not 0 <= since <= game.version:
                raise ServiceError(422, "invalid_since", f"since must be between 0 and {game.version}",
                                   field="since")
            steps = self.fanout.recent_steps(table_id, game.id, since, game.version)
            if steps is None:
                steps = self.history.steps(s, self.repo.ruleset(game.ruleset), game, since, game.version)
            return {"game_id": game.id, "version": game.version, "since": since,
                    "events": [e for _, red in steps for e in red[key(seat)]]}

    def hint(self, table_id: str, token: str | None) -> JSONDict:
        with self.db.read() as s:
            _, game, seat = self._running(s, table_id, token, seated=True)
            assert seat is not None
            ruleset = self.repo.ruleset(game.ruleset)
            groups = ruleset.hint(self.repo.state(s, ruleset, game), seat)
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
                self.changes.committed(table_id, hot[1])
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
                    self.changes.committed(table_id, version)
                return result
        except (RuleError, ServiceError) as err:
            metrics.COMMANDS_REFUSED.labels(self.repo.ruleset_of(table_id), err.code).inc()
            raise
        raise AssertionError("unreachable")

    def _submit_hot(self, table_id: str, viewer: Viewer, command_id: str, expected_version: int | None,
                    raw: Any, by: str | None = None) -> tuple[JSONDict, int, str] | None:
        """The usual socket command in one round trip (Postgres), from a worker thread: see ``_hot_plan``."""
        plan = self._hot_plan(table_id, viewer, command_id, expected_version, raw, by)
        if plan is None:
            return None
        with self.fanout.committing(table_id, plan.version):
            try:
                moved = self.repo.append_autocommit(plan.entry)
            except psycopg.IntegrityError:
                return None  # this command id was used before: the ordinary path tells a resend from a reuse
            if not moved:
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
                    seat = await self.repo.seat_of_token_on(conn, table_id, token)
            except HotUnavailable:
                seat = None
            if seat is not None:
                return seat
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
                with self.fanout.committing(table_id, plan.version):
                    try:
                        async with pool.connection(timeout=HOT_POOL_WAIT) as conn:
                            moved = await self.repo.append_on(conn, plan.entry)
                    except (UniqueViolation, HotUnavailable):
                        # A command id used before, no connection free in time, or the connection was lost (the
                        # statement may even have committed): the ordinary path decides, a resend included.
                        moved = False
                    written = self._hot_written(plan) if moved else None
                if written is not None:
                    metrics.command_committed(table_id, written[1], written[2], arrived)
                    self.changes.committed(table_id, written[1])
                    if with_view:
                        written[0]["view"] = self.fanout.cached_view(table_id, seat_id, written[1]) \
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
        hot = self.fanout.hot_game(table_id)
        # A decision made for the seat (``by``) is stored with its maker: the ordinary path's statement.
        if hot is None or viewer.seat_id is None or by is not None or expected_version not in (None, hot.version):
            return None
        seat = self.repo.engine_seat(hot, viewer.seat_id)
        version = hot.version + 1
        if seat is None:
            return None
        state = self.repo.states.get(hot.game_id, hot.version)
        if state is None:
            return None
        ruleset = self.repo.ruleset(hot.ruleset)
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
        entry = Append(hot.game_id, hot.version, seat, command_id, command_json, utcnow(),
                       snapshot=ruleset.state_to_json(new_state) if snapshot else None,
                       notify=self.changes.notification(table_id, version, Step(hot.game_id, seat, command_json, by)))
        return _HotPlan(table_id, hot.game_id, hot.ruleset, version, seat, new_state, redacted, snapshot, entry)

    def _hot_written(self, plan: _HotPlan) -> tuple[JSONDict, int, str]:
        """``plan`` was written: this process's copy moves on (call inside ``committing``)."""
        self.repo.states.put(plan.game_id, plan.version, plan.new_state)
        self.fanout.hot_step(plan.table_id, plan.game_id, plan.version, plan.redacted, False, snapshot=plan.snapshot)
        log.info("command accepted", extra={"table_id": plan.table_id, "game_id": plan.game_id,
                                            "version": plan.version, "seat": plan.seat})
        return ({"game_id": plan.game_id, "version": plan.version, "duplicate": False,
                 "events": plan.redacted[key(plan.seat)], "view": None}, plan.version, plan.ruleset)

    def _submit_once(self, table_id: str, token: str | None, known: Viewer | None, command_id: str,
                     expected_version: int | None, raw: Any, with_view: bool,
                     by: str | None = None) -> tuple[JSONDict, int, str]:
        try:
            with self.db.write() as s:
                _, game, seat = self._running(s, table_id, token, seated=True, known=known, command_id=command_id)
                assert seat is not None
                ruleset = self.repo.ruleset(game.ruleset)
                dup_seq, dup_seat = game.dup_seq, game.dup_seat
                if dup_seq is None and game.status == "finished":  # its commands are packed: a resend of the last?
                    packed = self.repo.packed_command(s, game.id, command_id)
                    if packed is not None:
                        dup_seq, dup_seat = packed.seq, packed.seat
                if dup_seq is not None:  # this command id was accepted before (idempotent resend)
                    if dup_seat != seat:
                        raise ServiceError(409, "command_id_reused", "this command id belongs to another seat")
                    view = ruleset.player_view(self.repo.state(s, ruleset, game), seat) if with_view else None
                    self.tables.decorate(s, table_id, GameRef.of(game), [view])
                    # Its events, as this seat was given them, recomputed by the engine (C-10).
                    ((_, earlier),) = self.history.steps(s, ruleset, game, dup_seq - 1, dup_seq)
                    return ({"game_id": game.id, "version": dup_seq, "duplicate": True,
                             "events": earlier[key(seat)], "view": view}, dup_seq, game.ruleset)
                if expected_version is not None and expected_version != game.version:
                    raise StaleVersion("stale_version",
                                       f"the game is at version {game.version}, not {expected_version}")
                if game.status == "finished":
                    raise GameOver("game_over", "the game has finished")
                command = ruleset.parse_command(raw)
                state = self.repo.state(s, ruleset, game)
                new_state, events = ruleset.apply(state, seat, command)
                version = game.version + 1
                over = ruleset.is_over(new_state)
                pg = self.db.is_psycopg
                snapshot = over or version - game.snapshot_version >= self.settings.snapshot_every
                redacted = redact_all(ruleset, game.players, events, by, seat)
                command_json = ruleset.command_to_json(command)
                step = Step(game.id, seat, command_json, by)
                entry = Append(
                    game.id, game.version, seat, command_id, command_json, utcnow(), by,
                    snapshot=ruleset.state_to_json(new_state) if snapshot else None,
                    finish=Finish(list(ruleset.winners(new_state)), utcnow()) if over else None,
                    notify=self.changes.notification(table_id, version, step) if pg else None)
                if not self.repo.append(s, entry):
                    raise _Conflict()
                if over:  # nothing is added to a finished game: its commands move into one packed record
                    self.repo.finish(s, game.id)
                if entry.notify is None:  # the in-process hub's (the NOTIFY, if any, went with the append)
                    self.changes.publish(s, table_id, version, step)
                new_state_to_cache = new_state
                view = ruleset.player_view(new_state, seat) if with_view else None
                # The command's row is in this transaction, so the extensions see the game at ``version``.
                self.tables.decorate(s, table_id, GameRef(game.id, version, "finished" if over else game.status,
                                                    game.ruleset, list(game.seats)), [view])
                result = {"game_id": game.id, "version": version, "duplicate": False,
                          "events": redacted[key(seat)], "view": view}
        except (IntegrityError, psycopg.IntegrityError):
            raise _Conflict() from None
        self.repo.states.put(result["game_id"], version, new_state_to_cache)
        self.fanout.hot_step(table_id, result["game_id"], version, redacted, over, snapshot)
        log.info("command accepted", extra={"table_id": table_id, "game_id": result["game_id"],
                                            "version": version, "seat": seat})
        return result, version, game.ruleset
