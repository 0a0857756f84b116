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
from .replays import Replays
from .repo import GameRepo
from .security import JoinLimiter
from .tables import Changes, Presence, Tables, nobody

__all__ = ["SPECTATOR", "FanoutData", "GameRef", "GameService", "JSONDict", "Notifier", "NullNotifier",
           "RulesetCatalog", "StateCache", "Step", "TableExtension", "Viewer", "count_tables"]


class GameService:
    """The collaborators, wired; the methods below only pass a call on to the one that does the job."""

    def __init__(self, db: Database, settings: Settings, catalog: RulesetCatalog | None = None,
                 notifier: Notifier | None = None, presence: Presence = nobody,
                 extensions: list[TableExtension] | None = None) -> None:
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
        self.join_limiter = JoinLimiter(settings.join_failures_per_table, settings.join_failures_per_address,
                                        settings.join_window_seconds)
        self.lobby = Lobby(self.repo, self.tables, self.changes, settings, self.join_limiter)
        self.player = Player(self.repo, self.tables, self.history, self.fan_out, self.changes, settings)
        self.replays = Replays(self.repo, self.history)

        # The facade: each name is its collaborator's method.
        self.invite_link = self.lobby.invite_link
        self.create_table = self.lobby.create_table
        self.join = self.lobby.join
        self.reorder = self.lobby.reorder
        self.remove_seat = self.lobby.remove_seat
        self.start = self.lobby.start
        self.table_info = self.tables.table_info
        self.check_seat = self.player.check_seat
        self.authenticate = self.player.authenticate
        self.view = self.player.view
        self.seat_view = self.player.seat_view
        self.events_since = self.player.events_since
        self.hint = self.player.hint
        self.submit = self.player.submit
        self.submit_as = self.player.submit_as
        self.submit_on_loop = self.player.submit_on_loop
        self.seat_on_loop = self.player.seat_on_loop
        self.replay_access = self.replays.replay_access
        self.share_access = self.replays.share_access
        self.replay_record = self.replays.replay_record
        self.replay_step = self.replays.replay_step
        self.game_record = self.replays.game_record
        self.fanout = self.fan_out.fanout
        self.fanout_cached = self.fan_out.fanout_cached
        self.fanout_on_loop = self.fan_out.fanout_on_loop
        self.cached_view = self.fan_out.cached_view
        self.notified = self.fan_out.notified
        self.forget = self.fan_out.forget
        self.apply_step = self.fan_out.apply_step
        self.committing = self.fan_out.committing
        self.after_commit = self.changes.committed

    def rulesets(self) -> list[JSONDict]:
        out = []
        for rid in self.catalog.ids():
            rs = self.catalog.get(rid)
            out.append({"id": rid, "title": rs.title, "summary": rs.summary,
                        "min_players": rs.min_players, "max_players": rs.max_players,
                        "options_schema": rs.options_schema()})
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
