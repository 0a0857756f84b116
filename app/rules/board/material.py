"""Board-game material as data: the 96 cards (B-1), the ring (B-2), the phases (B-3), the joker policy (B-6)."""

from __future__ import annotations

from ..core.cards import Card, number_cards
from ..core.groups import GroupKind, JokerPolicy
from ..core.phases import Phase, phase, sets

HAND_SIZE = 10
DISCARD_START = 5  # B-4: five cards face up
KEEP_MAX = 5  # B-8
SWAP_MAX = 4  # B-5 swap
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MIN_RING = 8

DECK: tuple[Card, ...] = number_cards()
"""B-1: only the 96 number cards (1-12 twice in each colour)."""

CARD_BY_ID: dict[int, Card] = {c.id: c for c in DECK}

# Field types (B-2). ``+1``/``+2``/``+3`` are three fields of the one action type ``+N`` (B-5).
TAKE_FIELDS = ("+1", "+2", "+3")
ACTIONS = ("+N", "search", "again", "swap", "all", "joker", "ask", "choice")
FIELD_TYPES = (*TAKE_FIELDS, *ACTIONS[1:])

RING: tuple[str, ...] = (
    "choice", "+1", "+2", "search", "ask", "+1", "joker", "+2", "swap", "+1", "all", "again", "+3", "ask", "+1",
    "search",
    "+2", "joker", "swap", "again", "+1", "all", "ask", "+2", "+1", "search", "again", "+3", "joker", "swap", "ask",
    "all",
)
"""B-2 (reconstructed): the 32 fields clockwise from the start field 0."""

S, R, C = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR
PHASES: tuple[Phase, ...] = (
    phase((C, 5)),
    phase(*sets(4, 2)),
    phase((S, 3), (S, 3), (R, 3)),
    phase((R, 7)),
    phase((C, 6), (S, 2)),
    phase((R, 8)),
    phase(*sets(3, 3)),
    phase(*sets(2, 4)),
    phase((R, 9)),
    phase((S, 6), (R, 3)),
)
"""B-3: the ten phases (2, 6, 8, 9 and the colour counts of 1 and 5 confirmed; the rest reconstructed)."""

BOARD_KINDS = (GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR)
"""C-2: the group kinds of the board game (no colour runs)."""

TURNED = JokerPolicy(min_naturals={kind: 1 for kind in GroupKind}, hit_on_complete=True)
"""B-6: a turned card is a universal joker; one real card per group; jokers may join complete groups."""


def action_of(field: str) -> str:
    """The action type of a ring field (B-5): ``+1``..``+3`` are all ``+N``."""
    return "+N" if field.startswith("+") else field


def take_count(field: str) -> int:
    """How many cards a ``+N`` field gives (B-5)."""
    return int(field[1:])
