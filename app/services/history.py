"""A game's past steps, recomputed: the events of the commands after a version, as each seat and a spectator may see
them, rebuilt by the deterministic engine (C-10) from what is stored.

The database keeps a command's seat, id, command and maker (``made_by``), not its events: a row each while the
game runs, one pack once it has finished (``app.persistence.commands``). Who
needs events it missed -- a socket resuming with ``since=N`` whose table this process does not keep current, a
``GET .../events``, a resend of an accepted command, the public record of a running game -- gets them here: the
engine starts from the game's latest stored snapshot when it is not newer than ``N``, or else from the one before
it (``previous_snapshot``: the usual resume is within ``2 * snapshot_every`` commands), otherwise from its seed, and
applies the stored commands; the events after ``N`` are redacted per seat on demand (``LazyRedaction``, with the
maker's ``by``). The steps computed are kept in a small
per-process cache (``StepCache``), so the sockets of one table resuming together replay it once. A process keeps the
recent steps of the tables it keeps current in its fan-out cache (``app.services.fanout``) and needs none of this
for them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import case, null, select
from sqlalchemy.orm import Session

from app.persistence.models import Game
from app.rules.core.ruleset import JSONDict

from .base import AnyRuleset, LazyRedaction
from .repo import GameRepo

Steps = list[tuple[int, JSONDict]]  # (version, the command's events redacted per key: ``LazyRedaction``)

STEP_CACHE_SIZE = 4096  # steps (a few thousand events' worth: a step is one command's events)


class StepCache:
    """Recomputed steps per (game id, version), least recently used first out."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, int], JSONDict] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget every entry (a test's cold process)."""
        with self._lock:
            self._items.clear()

    def get(self, game_id: int, since: int, upto: int) -> Steps | None:
        """Every step ``since + 1 .. upto`` of the game, or ``None`` if one of them is not cached."""
        with self._lock:
            out = []
            for version in range(since + 1, upto + 1):
                step = self._items.get((game_id, version))
                if step is None:
                    return None
                self._items.move_to_end((game_id, version))
                out.append((version, step))
            return out

    def put(self, game_id: int, steps: Iterable[tuple[int, JSONDict]]) -> None:
        if self.size <= 0:
            return
        with self._lock:
            for version, step in steps:
                self._items[(game_id, version)] = step
                self._items.move_to_end((game_id, version))
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class History:
    """The steps of a game after a version, from the step cache or recomputed by the engine from what the repo
    stores."""

    def __init__(self, repo: GameRepo, step_cache: StepCache) -> None:
        self.repo = repo
        self.step_cache = step_cache

    def steps(self, s: Session, ruleset: AnyRuleset, game: Any, since: int, upto: int) -> Steps:
        """The steps ``since + 1 .. upto`` of ``game`` (a ``Game`` or a row with its id, players and version), each
        command's events redacted per seat and for a spectator (C-9) on demand. The state at ``upto``, computed on
        the way, goes into the state cache when ``upto`` is the game's version."""
        if since >= upto:
            return []
        cached = self.step_cache.get(game.id, since, upto)
        if cached is not None:
            return cached
        state, version = self.repo.states.get(game.id, since), since
        if state is None:
            # The latest snapshot not newer than ``since`` with its version, in one statement (a command may store
            # a newer one meanwhile): the latest one, the one before it, or none (from the seed).
            latest, previous = Game.snapshot_version <= since, Game.previous_snapshot_version <= since
            row = s.execute(select(
                Game.seed, Game.options,
                case((latest, Game.snapshot), (previous, Game.previous_snapshot), else_=null()).label("start"),
                case((latest, Game.snapshot_version), (previous, Game.previous_snapshot_version),
                     else_=0).label("start_version"),
            ).where(Game.id == game.id)).one()
            if row.start is not None:
                state, version = ruleset.state_from_json(row.start), row.start_version
            else:
                state, version = ruleset.new_game(row.seed, game.players, ruleset.parse_options(row.options)), 0
        steps: Steps = []
        for c in self.repo.commands(s, game.id, version, upto):
            state, events = ruleset.apply(state, c.seat, ruleset.parse_command(c.command))
            if c.seq > since:
                steps.append((c.seq, LazyRedaction(ruleset, game.players, events, c.made_by, c.seat)))
        if len(steps) != upto - since:
            raise RuntimeError(f"game {game.id}: commands {since + 1}..{upto} are not all stored")
        if upto == game.version:
            self.repo.states.put(game.id, upto, state)
        self.step_cache.put(game.id, steps)
        return steps
