"""Bot players: ``easy``, ``normal`` and ``hard``, for every rule set.

A bot is a pure function ``choose(ruleset_id, view, legal, rng) -> command`` of the seat's player view (JSON,
C-9), the seat's legal commands and a private random generator: it never sees the game state, so it cannot
use hidden information. ``app.bots.driver.bot_command`` is the one place where a state is turned into those
inputs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import easy, hard, normal

BotFn = Callable[[str, Mapping[str, Any], Sequence[Any], random.Random], Any]

LEVELS: dict[str, BotFn] = {"easy": easy.choose, "normal": normal.choose, "hard": hard.choose}


def choose(level: str, ruleset_id: str, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    """The command the bot of ``level`` plays given only its view and its legal commands."""
    try:
        bot = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; one of {sorted(LEVELS)}") from None
    return bot(ruleset_id, view, legal, rng)
