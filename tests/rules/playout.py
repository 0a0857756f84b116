"""Seeded playouts of any registered rule set, shared by the property tests and the benchmark."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.rules.core.commands import Hit, LayPhase


@dataclass
class Step:
    before: Any
    seat: int
    command: Any
    after: Any
    events: tuple[Any, ...]


def choose(legal: tuple[Any, ...], rnd: random.Random, greed: float = 0.9) -> Any:
    """Greedy-random policy: lay when the solver finds a lay-down, hit when possible, else random legal."""
    lays = [c for c in legal if isinstance(c, LayPhase)]
    if lays and rnd.random() < greed:
        return lays[0]
    hits = [c for c in legal if isinstance(c, Hit)]
    if hits and rnd.random() < greed:
        return rnd.choice(hits)
    return rnd.choice(legal)


def playout(ruleset: Any, seed: int, players: int, options: Any, max_steps: int = 20000,
            greed: float = 0.9) -> Iterator[Step]:
    """Play one game with :func:`choose` for every awaited seat, yielding every step."""
    rnd = random.Random(seed)
    state = ruleset.new_game(seed, players, options)
    for _ in range(max_steps):
        if ruleset.is_over(state):
            return
        awaited = ruleset.awaited(state)
        assert awaited, "a running game must await someone"
        seat = rnd.choice(awaited)
        legal = ruleset.legal_commands(state, seat)
        assert legal, f"awaited seat {seat} has no legal command"
        command = choose(legal, rnd, greed)
        after, events = ruleset.apply(state, seat, command)
        yield Step(state, seat, command, after, events)
        state = after
    raise AssertionError(f"game did not finish within {max_steps} steps")
