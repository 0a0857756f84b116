"""Bot players: ``easy``, ``normal`` and ``hard``, for every rule set.

A bot is a pure function ``choose(ruleset_id, view, legal, rng, memory) -> command`` of the seat's player view
(JSON, C-9), the seat's legal commands, a private random generator and, optionally, its ``memory`` of the round
(``app.bots.memory``: a fold of the events as that seat was shown them): it never sees the game state, so it
cannot use hidden information. ``app.bots.driver`` is the one place where a state is turned into those inputs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from . import easy, hard, normal
from .memory import Memory

BotFn = Callable[[str, Mapping[str, Any], Sequence[Any], random.Random, Memory | None], Any]

BotLevel = Literal["easy", "normal", "hard"]
"""The bot levels, weakest first: a bot seat's, a stand-in's and the table's stand-in default
(``tests/bots/test_levels.py`` checks that ``LEVELS`` names the same ones, in this order)."""

LEVELS: dict[str, BotFn] = {"easy": easy.choose, "normal": normal.choose, "hard": hard.choose}
"""Each level's decision function."""

REMEMBERING = frozenset({"hard"})
"""The levels that read a memory of the round; the others are given none (nothing need be kept for them)."""


def choose(level: str, ruleset_id: str, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random,
           memory: Memory | None = None) -> Any:
    """The command the bot of ``level`` plays given only its view, its legal commands and its memory."""
    try:
        bot = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; one of {sorted(LEVELS)}") from None
    return bot(ruleset_id, view, legal, rng, memory)
