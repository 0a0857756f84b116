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
from .tactics import Command, tactics_for

LEVEL = "easy"


def choose(ruleset_id: str, view: v.View, legal: Sequence[Command], rng: random.Random) -> Command:
    """One legal command for the seat whose ``view`` this is."""
    tactics = tactics_for(ruleset_id)
    found = tactics.prompt(LEVEL, view, legal, rng)
    if found is not None:
        return found
    draws = [c for c in legal if isinstance(c, Draw)]
    if draws:
        return next((c for c in draws if c.pile is Pile.DRAW), draws[0])
    lays = [c for c in legal if isinstance(c, LayPhase)]
    if lays:
        return lays[0]
    hits = [c for c in legal if isinstance(c, Hit)]
    if hits:
        return rng.choice(hits)
    found = tactics.end_turn(LEVEL, view, legal, rng)
    if found is not None:
        return found
    discards = plain_discards(view, legal)
    if discards:
        hand = v.hand(view)
        req = v.requirement(view)
        by_id = {c.id: c for c in hand}
        rng.shuffle(discards)
        return min(discards, key=lambda d: synergy(by_id[d.card], hand, req) if d.card in by_id else 0.0)
    return tactics.fallback(LEVEL, view, legal, rng)


def plain_discards(view: v.View, legal: Sequence[Command]) -> list[Discard]:
    """Discards of number cards and jokers (action cards are the tactics' business)."""
    playable = {c["id"] for c in view.get("hand") or () if c.get("kind") in ("number", "joker")}
    return [c for c in legal if isinstance(c, Discard) and c.target is None and c.card in playable]
