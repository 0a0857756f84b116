"""Rule-set-specific bot knowledge behind one small interface; the generic bots dispatch on command types.

Each rule set has a ``Tactics`` object in its own module (``app/bots/mattel.py`` ...). It knows the
rule set's joker policy (to check hits on the public table), what a card costs when left in hand, and how to
answer the commands that only that rule set has (action cards, offers, dice, fields, keep choices). The
generic ``easy``/``normal`` bots handle the shared commands (``Draw``, ``LayPhase``, ``Hit``, ``Discard``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from importlib import import_module
from typing import Any

from app.rules.core.cards import Card
from app.rules.core.errors import IllegalMove
from app.rules.core.groups import GroupKind, JokerPolicy, LaidGroup, extend_group

from .view import View

Command = Any

UNIVERSAL = JokerPolicy(min_naturals={kind: 1 for kind in GroupKind})


class Tactics:
    """Defaults that suit any rule set; a rule set overrides what it needs."""

    policy: JokerPolicy = UNIVERSAL

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
