"""``GameService``: the game service as a graph of collaborators with one job each, built here in one place
(docs/architecture.md, "The service"), and the thin facade routes, sockets and extensions call.

    repo     = GameRepo(db, catalog, states)                 storage: loads, the append, commands, packs
    tables   = Tables(repo, extensions, presence)            table info, the extensions' fields on views
    history  = History(repo, step_cache)                     past steps, recomputed by the engine (C-10)
    fan_out  = Fanout(repo, tables, history, notifier, ...)  what sockets get after a change; the running-table cache
    changes  = Changes(notifier, extensions, fan_out.forget) a change published in its transaction, told after it
    lobby    = Lobby(repo, tables, changes, ...)             tables, seats, joins, the start
    player   = Player(repo, tables, history, fan_out, changes, settings)   the command path, views, events, hints
    replays  = Replays(repo, history)                        replay records and steps

A command: a route (``app.api.routes``) or socket (``app.api.ws``) calls ``player.submit_on_loop`` (or
``submit``); the player reads through ``repo``, applies through the engine, appends through ``repo``, moves
``fan_out``'s cache on and tells ``changes``, whose notifier wakes the hub (``app.realtime.hub``), which fans out
through ``fan_out`` to the sockets.

The service's own cycles with the running server are broken at construction, not by callbacks set afterwards:
the hub (which fans out through this service) is reached through the ``notifier`` and ``presence`` given here,
both made on an ``app.realtime.hub.HubLink``; the extensions (the bot runner, rematches, push: they act through
this service) are a list given here that ``app.main.create_app`` fills before the app serves.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy.orm import Session

from app.persistence.db import Database
from app.rules.core.ruleset import JSONDict
from app.settings import Settings

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
)
from .fanout import Fanout, FanoutData
from .history import STEP_CACHE_SIZE, History, StepCache
from .lobby import Lobby
from .player import Player
from .replays import ReplayAccess, Replays
from .repo import GameRepo
from .security import JoinLimiter
from .tables import Changes, Presence, Tables, nobody

__all__ = [
    "SPECTATOR",
    "FanoutData",
    "GameRef",
    "GameService",
    "JSONDict",
    "Notifier",
    "NullNotifier",
    "RulesetCatalog",
    "StateCache",
    "Step",
    "TableExtension",
    "Viewer",
    "count_tables",
]


class GameService:
    """The collaborators, wired; the methods below only pass a call on to the one that does the job."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        catalog: RulesetCatalog | None = None,
        notifier: Notifier | None = None,
        presence: Presence = nobody,
        extensions: list[TableExtension] | None = None,
    ) -> None:
        self.db = db
        self.settings = settings
        self.catalog = catalog or RulesetCatalog()
        self.notifier: Notifier = notifier or NullNotifier()
        self.presence = presence
        self.extensions: list[TableExtension] = [] if extensions is None else extensions
        self.repo = GameRepo(db, self.catalog, StateCache(settings.state_cache_size))
        self.tables = Tables(self.repo, self.extensions, presence)
        self.history = History(self.repo, StepCache(STEP_CACHE_SIZE if settings.state_cache_size > 0 else 0))
        self.fan_out = Fanout(self.repo, self.tables, self.history, self.notifier, settings)
        self.changes = Changes(self.notifier, self.extensions, self.fan_out.forget)
        # Wrong join codes, counted in the database so the limits hold across server processes.
        self.join_limiter = JoinLimiter(
            settings.join_failures_per_table, settings.join_failures_per_address, settings.join_window_seconds
        )
        self.lobby = Lobby(self.repo, self.tables, self.changes, settings, self.join_limiter)
        self.player = Player(self.repo, self.tables, self.history, self.fan_out, self.changes, settings)
        self.replays = Replays(self.repo, self.history)

    # The facade: each method is its collaborator's.
    def invite_link(self, table_id: str, code: str, base: str | None = None) -> str:
        return self.lobby.invite_link(table_id, code, base)

    def create_table(
        self,
        ruleset_id: str,
        seats: int,
        options: JSONDict | None,
        spectators: bool,
        name: str,
        setup: Callable[[Session, str], Any] | None = None,
    ) -> JSONDict:
        return self.lobby.create_table(ruleset_id, seats, options, spectators, name, setup)

    def join(self, table_id: str, name: str, code: str, client: str) -> JSONDict:
        return self.lobby.join(table_id, name, code, client)

    def reorder(self, table_id: str, token: str | None, order: list[int]) -> JSONDict:
        return self.lobby.reorder(table_id, token, order)

    def remove_seat(self, table_id: str, token: str | None, position: int) -> JSONDict:
        return self.lobby.remove_seat(table_id, token, position)

    def start(self, table_id: str, token: str | None) -> JSONDict:
        return self.lobby.start(table_id, token)

    def table_info(self, table_id: str) -> JSONDict:
        return self.tables.table_info(table_id)

    def check_seat(self, table_id: str, token: str | None) -> Viewer:
        return self.player.check_seat(table_id, token)

    def authenticate(self, table_id: str, token: str | None) -> tuple[Viewer, JSONDict]:
        return self.player.authenticate(table_id, token)

    def view(self, table_id: str, token: str | None) -> JSONDict:
        return self.player.view(table_id, token)

    def seat_view(self, table_id: str, viewer: Viewer) -> JSONDict:
        return self.player.seat_view(table_id, viewer)

    def events_since(self, table_id: str, token: str | None, since: int) -> JSONDict:
        return self.player.events_since(table_id, token, since)

    def hint(self, table_id: str, token: str | None) -> JSONDict:
        return self.player.hint(table_id, token)

    def submit(
        self, table_id: str, token: str | None, command_id: str, expected_version: int | None, raw: Any
    ) -> JSONDict:
        return self.player.submit(table_id, token, command_id, expected_version, raw)

    def submit_as(
        self,
        table_id: str,
        seat_id: int | None,
        command_id: str,
        expected_version: int | None,
        raw: Any,
        by: str | None = None,
    ) -> JSONDict:
        return self.player.submit_as(table_id, seat_id, command_id, expected_version, raw, by)

    async def submit_on_loop(
        self,
        table_id: str,
        seat_id: int | None,
        command_id: str,
        expected_version: int | None,
        raw: Any,
        with_view: bool = False,
    ) -> JSONDict:
        return await self.player.submit_on_loop(table_id, seat_id, command_id, expected_version, raw, with_view)

    async def seat_on_loop(self, table_id: str, token: str | None) -> Viewer:
        return await self.player.seat_on_loop(table_id, token)

    def replay_access(self, table_id: str, number: int, token: str | None) -> ReplayAccess:
        return self.replays.replay_access(table_id, number, token)

    def share_access(self, share: str) -> ReplayAccess:
        return self.replays.share_access(share)

    def replay_record(self, access: ReplayAccess) -> JSONDict:
        return self.replays.replay_record(access)

    def replay_step(self, access: ReplayAccess, step: int, seat: int | None = None) -> JSONDict:
        return self.replays.replay_step(access, step, seat)

    def game_record(self, access: ReplayAccess) -> JSONDict:
        return self.replays.game_record(access)

    def fanout(self, table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
        return self.fan_out.fanout(table_id, seat_ids, since)

    def fanout_cached(self, table_id: str, seat_ids: set[int | None], since: int) -> FanoutData | None:
        return self.fan_out.fanout_cached(table_id, seat_ids, since)

    async def fanout_on_loop(self, table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
        return await self.fan_out.fanout_on_loop(table_id, seat_ids, since)

    def cached_view(self, table_id: str, seat_id: int | None, version: int) -> JSONDict | None:
        return self.fan_out.cached_view(table_id, seat_id, version)

    def notified(self, table_id: str, version: int | None, step: Step | None) -> bool:
        return self.fan_out.notified(table_id, version, step)

    def forget(self, table_id: str | None = None) -> None:
        return self.fan_out.forget(table_id)

    def apply_step(self, table_id: str, version: int, step: Step) -> None:
        return self.fan_out.apply_step(table_id, version, step)

    def committing(self, table_id: str, version: int) -> AbstractContextManager[None]:
        return self.fan_out.committing(table_id, version)

    def after_commit(self, table_id: str, version: int) -> None:
        return self.changes.committed(table_id, version)

    def rulesets(self) -> list[JSONDict]:
        out = []
        for rid in self.catalog.ids():
            rs = self.catalog.get(rid)
            out.append(
                {
                    "id": rid,
                    "title": rs.title,
                    "summary": rs.summary,
                    "min_players": rs.min_players,
                    "max_players": rs.max_players,
                    "options_schema": rs.options_schema(),
                }
            )
        return out

    def add_extension(self, extension: TableExtension) -> None:
        """Register a ``TableExtension`` (before the app starts serving)."""
        self.extensions.append(extension)

    @property
    def states(self) -> StateCache:
        """The decoded states this process holds (the repo's; a benchmark's cold process sets a new one)."""
        return self.repo.states

    @states.setter
    def states(self, states: StateCache) -> None:
        self.repo.states = states

    @property
    def step_cache(self) -> StepCache:
        return self.history.step_cache

    @step_cache.setter
    def step_cache(self, cache: StepCache) -> None:
        self.history.step_cache = cache
