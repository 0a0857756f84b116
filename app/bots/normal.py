"""The ``normal`` bot: plays to win with the engine's solver on its own hand (C-3, C-4).

* draw: takes the discard pile's top card when it is a joker, brings the phase closer (solver distance), or —
  once the phase is down — can be hit onto the table;
* lays its phase as soon as it can and hits every card that fits, naturals first;
* discards a spare card (one whose loss keeps the phase as close), preferring cards the next player could
  not hit onto the table, then cards that fit the hand least, then the costliest in penalty points;
* action cards, targets and other prompts: the rule set's tactics (``app/bots/<ruleset>.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rules.core.cards import Card
from app.rules.core.commands import Discard, Draw, Hit, LayPhase, Pile

from . import view as v
from .evaluate import closer, spare_cards, synergy
from .memory import Memory
from .tactics import Command, Policy, Tactics, play

LEVEL = "normal"


def wants(tactics: Tactics, view: v.View, card: Card, hand: Sequence[Card] | None = None) -> bool:
    """Whether taking ``card`` leaves the hand better off *after* the turn's discard: it brings the phase
    closer and another card can still go, or — once the phase is down — it can be hit onto the table.

    Checking the discard too keeps two bots from passing the same card back and forth forever.
    """
    if not (card.is_natural or card.is_joker):
        return False
    hand = v.hand(view) if hand is None else hand
    req = v.requirement(view)
    if req is None:
        return tactics.fits_table(card, v.table(view))
    reach = closer(hand, req, card)
    if reach is None:
        return False
    if any(not (c.is_natural or c.is_joker) for c in hand):
        return True  # an action card can end the turn
    return any(c.id != card.id and not c.is_joker for c in spare_cards([*hand, card], req, reach))


def choose_draw(tactics: Tactics, view: v.View, draws: Sequence[Draw], rng: random.Random | None = None) -> Draw:
    top = v.discard_top(view)
    take = next((c for c in draws if c.pile is Pile.DISCARD), None)
    if take is not None and top is not None and wants(tactics, view, top):
        return take
    return next((c for c in draws if c.pile is Pile.DRAW), draws[0])


def choose_lay(view: v.View, lays: Sequence[LayPhase]) -> LayPhase:
    """The lay-down that puts the most cards on the table (C-3): fewer left to hit or to score."""
    return max(lays, key=lambda c: sum(len(g) for g in c.groups))


def choose_hit(view: v.View, hits: Sequence[Hit], rng: random.Random | None = None) -> Hit:
    """Naturals before jokers (a joker may be needed for a later, harder hit)."""
    jokers = {c["id"] for c in view.get("hand") or () if c.get("kind") == "joker"}
    return min(hits, key=lambda h: (h.card in jokers, h.group))


def choose_discard(tactics: Tactics, view: v.View, discards: Sequence[Discard],
                   rng: random.Random | None = None) -> Discard:
    hand = v.hand(view)
    by_id = {c.id: c for c in hand}
    req = v.requirement(view)
    groups = v.table(view)
    nxt = v.next_player(view)
    next_can_hit = bool(nxt and nxt.get("laid"))
    spare = {c.id for c in spare_cards(hand, req)} if req is not None else set(by_id)

    def key(command: Discard) -> tuple[bool, bool, bool, float, float]:
        card = by_id[command.card]
        return (card.is_joker, card.id not in spare, next_can_hit and tactics.fits_table(card, groups),
                synergy(card, hand, req) if req is not None else 0.0, -tactics.card_cost(card, view))

    return min(discards, key=key)


POLICY = Policy(LEVEL, choose_draw, choose_lay, choose_hit, choose_discard)


def choose(ruleset_id: str, view: v.View, legal: Sequence[Command], rng: random.Random,
           memory: Memory | None = None) -> Command:
    """One legal command for the seat whose ``view`` this is (this level remembers nothing: ``memory`` unused)."""
    return play(POLICY, ruleset_id, view, legal, rng)
