"""Bot tactics for the Mattel card game: wild cards (M-5), skips (M-6) and penalty points (M-7)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.rules.core.cards import Card
from app.rules.core.commands import Discard
from app.rules.mattel.deck import WILDS, card_points

from .evaluate import spare_cards
from .tactics import Command, Tactics
from .view import View, hand, me, opponent_near_out, opponents, requirement

CLOSE = 3
"""An opponent whose phase is down and who holds this many cards or fewer may go out within a turn or two."""


def threat(player: Mapping[str, Any]) -> tuple[int, int, int]:
    """How close an opponent is to winning: phases done, phase down this round, few cards in hand."""
    return (int(player.get("phases_done", 0)), int(bool(player.get("laid"))), -int(player.get("hand_size", 0)))


class MattelTactics(Tactics):
    policy = WILDS

    def card_cost(self, card: Card, view: View) -> float:
        """M-7 penalty points."""
        return float(card_points(card))

    def end_turn(self, level: str, view: View, legal: Sequence[Command], rng: random.Random) -> Command | None:
        """M-6: play a skip as the discard. ``easy`` names anyone; ``normal`` names the biggest threat at once;
        ``hard`` keeps it (``keeps_skip``) until an opponent may soon go out, it has no other card to spare or the
        biggest threat is ahead of it with their phase not down, then names the biggest threat."""
        skips = [c for c in legal if isinstance(c, Discard) and _is_skip(view, c.card)]
        if not skips:
            return None
        if level == "easy":
            return rng.choice(skips)
        if level == "hard" and keeps_skip(view):
            return None
        rank = {p["seat"]: threat(p) for p in opponents(view)}
        return max(skips, key=lambda c: rank.get(c.target, (-1, 0, 0)))


def keeps_skip(view: View) -> bool:
    """M-6 (a skip may be kept in hand): while its phase is not down, no opponent with their phase down holds
    ``CLOSE`` cards or fewer, and a natural card of its hand is spare, ``hard`` throws that card and keeps the
    skip for the turn a skip matters: an opponent about to go out loses a turn, and the seat that holds it
    gets one more draw at its own phase before the round ends (M-7, C-5). It does not keep it while the
    biggest threat is ahead of it on phases and has not laid this round's phase: a turn lost now may cost
    that player the phase (C-3), which a turn lost once it is down cannot."""
    req = requirement(view)
    if req is None:
        return False
    if opponent_near_out(view, CLOSE):
        return False
    others = opponents(view)
    leader = max(others, key=threat) if others else None
    if leader is not None and not leader.get("laid") and \
            int(leader.get("phases_done", 0)) > int(me(view).get("phases_done", 0)):
        return False
    return any(c.is_natural for c in spare_cards(hand(view), req))


def _is_skip(view: View, card_id: int) -> bool:
    return any(c["id"] == card_id and c.get("action") == "skip" for c in view.get("hand") or ())


TACTICS = MattelTactics()
