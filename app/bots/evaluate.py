"""How close a hand is to its phase, measured with the engine's exact solver (C-3).

``distance(hand, requirement)`` is the least number of extra cards that would complete the phase: the
smallest *k* such that the solver finds a lay-down of the hand plus *k* universal jokers. It is computed
under a relaxed joker policy (no natural card required), so it counts the missing cards and nothing else.
Removing one card raises the distance by at most one, so "is this card spare?" is one solver call.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from app.rules.core.cards import Card, CardKind, Colour
from app.rules.core.errors import IllegalMove
from app.rules.core.groups import GroupKind, JokerPolicy
from app.rules.core.solver import find_laydown

Requirement = Sequence[tuple[GroupKind, int]]

RELAXED = JokerPolicy(min_naturals={kind: 0 for kind in GroupKind})
"""No natural-card minimum: a virtual joker stands for exactly one missing card."""

_VIRTUAL = tuple(Card(-1 - i, CardKind.JOKER) for i in range(24))


def _usable(hand: Sequence[Card]) -> list[Card]:
    return [c for c in hand if c.is_natural or c.is_joker]


def feasible(hand: Sequence[Card], requirement: Requirement, missing: int) -> bool:
    """Whether ``hand`` plus ``missing`` wild cards completes the phase."""
    usable = _usable(hand)
    need = sum(size for _, size in requirement)
    if len(usable) + missing < need:
        return False
    return _feasible(tuple(sorted(_key(c) for c in usable)), tuple(requirement), missing)


def _key(card: Card) -> tuple[str, int, str, int, int, str]:
    """What the solver sees of a card (two red 7s are interchangeable)."""
    return _shape_key(card.kind, card.number, card.colour, card.low, card.high, card.colours)


@lru_cache(maxsize=1024)
def _shape_key(kind: CardKind, number: int | None, colour: Colour | None, low: int, high: int,
               colours: frozenset[Colour]) -> tuple[str, int, str, int, int, str]:
    return (kind.value, number or 0, colour.value if colour else "", low, high,
            ",".join(sorted(c.value for c in colours)))


@lru_cache(maxsize=4096)
def _card(index: int, key: tuple[str, int, str, int, int, str]) -> Card:
    """The solver's stand-in for the ``index``-th card of a hand key (built once per index and shape)."""
    kind, number, colour, low, high, colours = key
    return Card(index, CardKind(kind), number=number or None, colour=Colour(colour) if colour else None, low=low,
                high=high, colours=frozenset(Colour(c) for c in colours.split(",")) if colours else frozenset())


@lru_cache(maxsize=65536)
def _feasible(hand: tuple[tuple[str, int, str, int, int, str], ...], requirement: tuple[tuple[GroupKind, int], ...],
              missing: int) -> bool:
    cards = [_card(i, key) for i, key in enumerate(hand)]
    try:
        return find_laydown([*cards, *_VIRTUAL[:missing]], requirement, RELAXED) is not None
    except IllegalMove:
        # The solver found a lay-down; only the validator's reading of a run made of jokers alone (which a
        # real lay-down never has) disagrees with it, so the missing cards do suffice.
        return True


def distance(hand: Sequence[Card], requirement: Requirement, at_least: int = 0) -> int:
    """The least number of cards missing to lay the phase from ``hand`` (0 = it can be laid now)."""
    need = sum(size for _, size in requirement)
    k = max(at_least, need - len(_usable(hand)))
    while k < need and not feasible(hand, requirement, k):
        k += 1
    return k


def closer(hand: Sequence[Card], requirement: Requirement, card: Card, before: int | None = None) -> int | None:
    """The distance of ``hand`` (``before``, when already known) with ``card`` added when that card brings the
    phase one card closer (C-3), else ``None`` (also when the phase can be laid already)."""
    if before is None:
        before = distance(hand, requirement)
    if before == 0:
        return None
    # One card fills at most one missing place, so the distance can fall by one at most: one solver call.
    return before - 1 if feasible([*hand, card], requirement, before - 1) else None


def spare_cards(hand: Sequence[Card], requirement: Requirement, dist: int | None = None) -> list[Card]:
    """The cards whose loss would not raise the distance (one solver call per distinct card)."""
    if dist is None:
        dist = distance(hand, requirement)
    out: list[Card] = []
    verdict: dict[tuple[object, ...], bool] = {}
    for card in hand:
        key = _shape(card)
        if key not in verdict:
            rest = [c for c in hand if c.id != card.id]
            verdict[key] = feasible(rest, requirement, dist)
        if verdict[key]:
            out.append(card)
    return out


def _shape(card: Card) -> tuple[object, ...]:
    return (card.kind, card.number, card.colour, card.low, card.high, card.colours, card.action)


def synergy(card: Card, hand: Sequence[Card], requirement: Requirement | None) -> float:
    """A cheap count of how well ``card`` fits the rest of the hand for this phase (higher = keep)."""
    if card.is_joker:
        return 100.0
    if not card.is_natural or card.number is None:
        return 0.0
    kinds = {k for k, _ in requirement} if requirement else set(GroupKind)
    number = card.number
    others = [c for c in hand if c.id != card.id and c.is_natural and c.number is not None]
    score = 0.0
    if GroupKind.SET in kinds:
        score += 2.0 * sum(1 for c in others if c.number == card.number)
    if GroupKind.RUN in kinds or GroupKind.COLOUR_RUN in kinds:
        same_colour = GroupKind.RUN not in kinds
        near = {n for c in others if (n := c.number) is not None and n != number and abs(n - number) <= 2
                and (not same_colour or c.colour == card.colour)}
        score += sum(1.5 if abs(n - number) == 1 else 0.75 for n in near)
    if GroupKind.COLOUR in kinds:
        score += 1.0 * sum(1 for c in others if c.colour == card.colour)
    return score
