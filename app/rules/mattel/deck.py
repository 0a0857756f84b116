"""Mattel material as data: deck (M-1), phases (M-3), wild policy (M-5), card points (M-7)."""

from __future__ import annotations

from ..core.cards import Card, CardKind, number_cards
from ..core.groups import GroupKind, JokerPolicy
from ..core.phases import Phase, phase, sets

SKIP = "skip"
HAND_SIZE = 10
MIN_PLAYERS, MAX_PLAYERS = 2, 6


def _deck() -> tuple[Card, ...]:
    numbers = number_cards()
    wilds = tuple(Card(96 + i, CardKind.JOKER) for i in range(8))
    skips = tuple(Card(104 + i, CardKind.ACTION, action=SKIP) for i in range(4))
    return numbers + wilds + skips


DECK: tuple[Card, ...] = _deck()
"""M-1: 96 number cards (1-12 twice per colour), 8 wilds, 4 skips = 108 cards."""

S, R, C = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR
PHASES: tuple[Phase, ...] = (
    phase(*sets(2, 3)),
    phase((S, 3), (R, 4)),
    phase((S, 4), (R, 4)),
    phase((R, 7)),
    phase((R, 8)),
    phase((R, 9)),
    phase(*sets(2, 4)),
    phase((C, 7)),
    phase((S, 5), (S, 2)),
    phase((S, 5), (S, 3)),
)
"""M-3: the ten Mattel phases."""

WILDS = JokerPolicy(min_naturals={kind: 1 for kind in GroupKind})
"""M-5: a wild stands for anything; every group holds at least one natural card."""


def is_skip(card: Card) -> bool:
    """Whether ``card`` is one of the four skips (M-1, M-6)."""
    return card.kind is CardKind.ACTION and card.action == SKIP


def card_points(card: Card) -> int:
    """M-7: 5 for 1-9, 10 for 10-12, 15 for a skip, 25 for a wild."""
    if card.is_joker:
        return 25
    if is_skip(card):
        return 15
    assert card.number is not None
    return 5 if card.number <= 9 else 10
