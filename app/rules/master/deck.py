"""Master material as data: deck (R-1), ranged jokers (R-2), phases (R-3), joker policy (R-4), points (R-12)."""

from __future__ import annotations

from itertools import combinations

from ..core.cards import ALL_COLOURS, Card, CardKind, Colour, number_cards
from ..core.groups import GroupKind, JokerPolicy
from ..core.phases import Phase, phase, sets

TAKE_TWO = "take_two"
ALL_MINE = "all_mine"
SKIP = "skip"
GIVE_ME_FIVE = "give_me_five"
ACTIONS: tuple[tuple[str, int], ...] = ((TAKE_TWO, 4), (ALL_MINE, 4), (SKIP, 6), (GIVE_ME_FIVE, 4))
"""R-1: the 18 blue action cards in play (the 3 blank cards of the box are not)."""

IN_FRONT_OF_SELF = frozenset({TAKE_TWO, ALL_MINE})
"""R-7: action cards a player lays face up in front of themselves."""

HAND_SIZE = 10
OFFER_SIZE = 5
MIN_PLAYERS, MAX_PLAYERS = 2, 6

JOKER_RANGES: tuple[tuple[int, int], ...] = ((1, 6), (7, 12))
JOKER_COLOUR_SETS: tuple[frozenset[Colour], ...] = (
    *(frozenset(pair) for pair in combinations(Colour, 2)),
    ALL_COLOURS,
)
"""R-2: the six pairs of colours and the set of all four."""


def _deck() -> tuple[Card, ...]:
    numbers = number_cards()
    next_id = len(numbers)
    jokers = []
    for low, high in JOKER_RANGES:
        for colours in JOKER_COLOUR_SETS:
            jokers.append(Card(next_id, CardKind.JOKER, low=low, high=high, colours=colours))
            next_id += 1
    actions = []
    for action, count in ACTIONS:
        for _ in range(count):
            actions.append(Card(next_id, CardKind.ACTION, action=action))
            next_id += 1
    return numbers + tuple(jokers) + tuple(actions)


DECK: tuple[Card, ...] = _deck()
"""R-1: 96 number cards + 14 ranged jokers (R-2) + 18 action cards = 128 cards, ids 0..127."""

S, R, C, CR = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR, GroupKind.COLOUR_RUN
PHASES: tuple[Phase, ...] = (
    phase(*sets(4, 2)),
    phase((C, 6)),
    phase((S, 4), (R, 4)),
    phase((R, 8)),
    phase((C, 7)),
    phase((R, 9)),
    phase(*sets(2, 4)),
    phase((CR, 4), (S, 3)),
    phase((S, 5), (S, 3)),
    phase((S, 5), (CR, 3)),
)
"""R-3: the ten Master phases (9 and 10 Reconstructed: plain data)."""

MASTER_KINDS: tuple[GroupKind, ...] = (S, R, C, CR)
"""C-2: every group kind, colour runs included, may appear in a Master phase list (R-3)."""

RANGED_JOKERS = JokerPolicy(min_naturals={S: 1, C: 1, R: 2, CR: 2})
"""R-4: one natural card per set and colour group, two per run and colour run; the card carries its range."""


def is_action(card: Card, action: str | None = None) -> bool:
    """Whether ``card`` is a blue action card (of kind ``action`` if given) (R-1)."""
    return card.kind is CardKind.ACTION and (action is None or card.action == action)


def minus_points(card: Card) -> int:
    """R-12: one minus point per card, whatever the card."""
    return 1


def card_points(card: Card) -> int:
    """R-12 option ``scoring = points``: 5 per card 1-9, 10 per card 10-12, 20 per joker or action card."""
    if card.kind is not CardKind.NUMBER:
        return 20
    assert card.number is not None
    return 5 if card.number <= 9 else 10
