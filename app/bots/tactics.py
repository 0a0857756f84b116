"""Rule-set-specific bot knowledge behind one small interface; the generic bots dispatch on command types.

Each rule set has a ``Tactics`` object in its own module (``app/bots/mattel.py`` ...). It knows the
rule set's joker policy (to check hits on the public table), what a card costs when left in hand, and how to
answer the commands that only that rule set has (action cards, offers, dice, fields, keep choices). The
levels (``easy``, ``normal``, ``hard``) differ only in how they pick among the shared commands (``Draw``,
``LayPhase``, ``Hit``, ``Discard``): each is a ``Policy``, and ``play`` is the one decision skeleton they share.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from app.rules.core.cards import Card
from app.rules.core.commands import Discard, Draw, Hit, LayPhase
from app.rules.core.errors import IllegalMove
from app.rules.core.groups import GroupKind, JokerPolicy, LaidGroup, extend_group

from .view import View

Command = Any

UNIVERSAL = JokerPolicy(min_naturals={kind: 1 for kind in GroupKind})


class Tactics:
    """Defaults that suit any rule set; a rule set overrides what it needs."""

    policy: JokerPolicy = UNIVERSAL
    draw_is_a_choice: bool = True
    """Whether a player chooses between the draw pile and the discard pile's top (M-4, R-6): then what they take
    and leave there tells what they collect (``app.bots.memory``)."""

    totals_decide: bool = True
    """Whether, when several players make the last phase in the same round, the lowest total of penalty points
    wins (M-8, R-14): then what is left in hand counts in the last round too."""

    def card_cost(self, card: Card, view: View) -> float:
        """What ``card`` costs if it is still in hand when the round ends (for discard tie-breaks)."""
        if card.is_joker:
            return 25.0
        if card.number is None:
            return 15.0
        return 5.0 if card.number <= 9 else 10.0

    def fits_table(self, card: Card, groups: Sequence[LaidGroup]) -> bool:
        """Whether ``card`` could be hit onto any laid group (C-4) — a hit for whoever has laid."""
        if not (card.is_natural or card.is_joker):
            return False
        for group in groups:
            try:
                extend_group(group, card, self.policy)
            except IllegalMove:
                continue
            return True
        return False

    def prompt(self, level: str, view: View, legal: Sequence[Command], rng: random.Random) -> Command | None:
        """Answer a rule-set-specific prompt (offers, keep choices, dice, fields ...), or ``None``."""
        return None

    def end_turn(self, level: str, view: View, legal: Sequence[Command], rng: random.Random) -> Command | None:
        """End the turn with a rule-set-specific play (an action card) instead of a plain discard, or ``None``."""
        return None

    def fallback(self, level: str, view: View, legal: Sequence[Command], rng: random.Random) -> Command:
        """Any command the generic bots did not recognise: a random legal one."""
        return rng.choice(list(legal))


_MODULES = {"mattel": "app.bots.mattel", "master": "app.bots.master", "board": "app.bots.board"}
_CACHE: dict[str, Tactics] = {}


def tactics_for(ruleset_id: str) -> Tactics:
    """The tactics of a rule set (generic defaults for a rule set without its own module)."""
    found = _CACHE.get(ruleset_id)
    if found is None:
        module = _MODULES.get(ruleset_id)
        try:
            found = import_module(module).TACTICS if module else Tactics()
        except ImportError:  # a rule set without bot tactics yet, or one whose module is changing
            found = Tactics()
        _CACHE[ruleset_id] = found
    return found


@dataclass(frozen=True)
class Policy:
    """How one bot level picks among the shared commands; the rule set's prompts and action cards go to its
    ``Tactics`` with the level's name."""

    level: str
    draw: Callable[[Tactics, View, Sequence[Draw], random.Random], Draw]
    lay: Callable[[View, Sequence[LayPhase]], LayPhase]
    hit: Callable[[View, Sequence[Hit], random.Random], Hit]
    discard: Callable[[Tactics, View, list[Discard], random.Random], Discard]


def play(policy: Policy, ruleset_id: str, view: View, legal: Sequence[Command], rng: random.Random) -> Command:
    """One legal command for the seat whose ``view`` this is (C-9: the view and the legal commands are all a
    bot sees): the rule set's prompt if one is open, else draw (M-4, R-6), lay the phase (C-3), hit (C-4), end
    the turn with an action card if the tactics choose one, else discard."""
    tactics = tactics_for(ruleset_id)
    found = tactics.prompt(policy.level, view, legal, rng)
    if found is not None:
        return found
    draws = [c for c in legal if isinstance(c, Draw)]
    if draws:
        return policy.draw(tactics, view, draws, rng)
    lays = [c for c in legal if isinstance(c, LayPhase)]
    if lays:
        return policy.lay(view, lays)
    hits = [c for c in legal if isinstance(c, Hit)]
    if hits:
        return policy.hit(view, hits, rng)
    found = tactics.end_turn(policy.level, view, legal, rng)
    if found is not None:
        return found
    discards = plain_discards(view, legal)
    if discards:
        return policy.discard(tactics, view, discards, rng)
    return tactics.fallback(policy.level, view, legal, rng)


def plain_discards(view: View, legal: Sequence[Command]) -> list[Discard]:
    """Discards of number cards and jokers (action cards are the tactics' business)."""
    playable = {c["id"] for c in view.get("hand") or () if c.get("kind") in ("number", "joker")}
    return [c for c in legal if isinstance(c, Discard) and c.target is None and c.card in playable]
