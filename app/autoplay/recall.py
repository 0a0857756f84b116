"""A live server's bot memories: a seat's ``Memory`` of the round at a game's version (C-9).

The runner asks for it before a decision of a level that remembers (``app.bots.REMEMBERING``). It is made from
the game's stored commands with the deterministic engine (C-10): the events of each command, redacted for that
seat exactly as its socket carried them (``app.services.history``: the same steps a resume replays), folded
into the memory from the game's first view. Each (game, seat) keeps its last memory, so the next decision
folds only the commands since; the oldest are dropped past ``size``. A process that took a table over, or
restarted, rebuilds it from the database alone.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.bots.driver import first_memory
from app.bots.memory import Memory, observe
from app.persistence.models import Game
from app.rules.registry import AnyRuleset
from app.services.base import key
from app.services.games import GameService


class Recall:
    def __init__(self, service: GameService, size: int = 256) -> None:
        self.service = service
        self.size = size
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[int, int], tuple[int, Memory]] = OrderedDict()

    def memory(self, s: Session, ruleset: AnyRuleset, game: Game, seat: int) -> Memory:
        """What ``seat`` remembers of the round at ``game``'s version (the decisions are made in threads)."""
        with self._lock:
            kept = self._kept.get((game.id, seat))
        if kept is not None and kept[0] <= game.version:
            since, memory = kept
        else:
            row: Any = s.execute(select(Game.seed, Game.players, Game.options).where(Game.id == game.id)).one()
            first = ruleset.new_game(row.seed, row.players, ruleset.parse_options(row.options))
            since, memory = 0, first_memory(ruleset, first, seat)
        for _version, redacted in self.service.history.steps(s, ruleset, game, since, game.version):
            memory = observe(memory, redacted[key(seat)])
        with self._lock:
            self._kept[(game.id, seat)] = (game.version, memory)
            self._kept.move_to_end((game.id, seat))
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return memory
