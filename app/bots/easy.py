"""The ``easy`` bot: always legal, simple and quick (also the turn timer's stand-in for one decision).

It draws from the draw pile, lays its phase as soon as the engine lists a lay-down, hits whatever fits, and
discards the card that fits its hand least by a simple count — no solver, no look at the discard pile or at
the other players.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile

from . import view as v
from .evaluate import synergy
from .memory import Memory
from .tactics import Command, Policy, Tactics, play

LEVEL = "easy"


def draw(tactics: Tactics, view: v.View, draws: Sequence[Draw], rng: random.Random) -> Draw:
    """Always the draw pile (M-4, R-6)."""
    return next((c for c in draws if c.pile is Pile.DRAW), draws[0])


def lay(view: v.View, lays: Sequence[LayPhase]) -> LayPhase:
    """The first lay-down the engine lists (C-3)."""
    return lays[0]


def hit(view: v.View, hits: Sequence[Hit], rng: random.Random) -> Hit:
    """Any card that fits (C-4)."""
    return rng.choice(hits)


def discard(tactics: Tactics, view: v.View, discards: list[Discard], rng: random.Random) -> Discard:
    """The card that fits the hand least by a simple count, ties at random."""
    hand = v.hand(view)
    req = v.requirement(view)
    by_id = {c.id: c for c in hand}
    rng.shuffle(discards)
    return min(discards, key=lambda d: synergy(by_id[d.card], hand, req) if d.card in by_id else 0.0)


POLICY = Policy(LEVEL, draw, lay, hit, discard)


def choose(ruleset_id: str, view: v.View, legal: Sequence[Command], rng: random.Random,
           memory: Memory | None = None) -> Command:
    """One legal command for the seat whose ``view`` this is (this level remembers nothing: ``memory`` unused)."""
    return play(POLICY, ruleset_id, view, legal, rng)
