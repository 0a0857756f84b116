"""Card counting: what a seat can infer of the cards it cannot see, from its own view alone (C-9).

All three rule sets hold two copies of every number 1–12 in each of the four colours (M-1, R-1, B-1). The
number cards a seat can see — its own hand, every laid group, the discard pile's top card, the faces of turned
cards (B-6) — are in nobody's hidden hand; every other number card ("unseen") is in another hand, in the draw
pile or under the discard pile's top card. ``outs`` weighs the cards that would bring the phase one card closer
by how many of them are still unseen: a hand that waits for a number whose copies all lie on the table has no
outs, a hand that many cards can complete has many (C-3).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from app.rules.core.cards import MAX_NUMBER, MIN_NUMBER, Card, CardKind, Colour
from app.rules.core.groups import GroupKind

from . import view as v
from .evaluate import Requirement, feasible

COPIES = 2
"""Copies of each (number, colour) in every rule set's deck (M-1, R-1, B-1)."""

Shape = tuple[int, Colour]
SHAPES: tuple[Shape, ...] = tuple((n, c) for c in Colour for n in range(MIN_NUMBER, MAX_NUMBER + 1))
_COLOUR_KINDS = {GroupKind.COLOUR, GroupKind.COLOUR_RUN}
_NUMBER_KINDS = {GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR_RUN}


def _faces(items: Iterable[Mapping[str, object]] | None) -> Iterable[Shape]:
    for card in items or ():
        number, colour = card.get("number"), card.get("colour")
        if isinstance(number, int) and isinstance(colour, str):
            yield number, Colour(colour)


def unseen(view: v.View) -> dict[Shape, int]:
    """How many copies of each number card the seat cannot see (never below zero)."""
    left = dict.fromkeys(SHAPES, COPIES)
    seen: list[Shape] = [*_faces(view.get("hand"))]
    for group in view.get("table") or ():
        seen.extend(_faces(group.get("cards")))
    top = view.get("discard_top")
    if top is not None:
        seen.extend(_faces([top]))
    for player in view.get("players") or ():
        if player.get("seat") != view.get("seat"):
            seen.extend(_faces(player.get("turned")))
    for shape in seen:
        if shape in left and left[shape] > 0:
            left[shape] -= 1
    return left


def pool(left: Mapping[Shape, int]) -> list[Shape]:
    """The unseen number cards one by one, in a fixed order (for ``deal``)."""
    return [shape for shape, count in sorted(left.items()) for _ in range(count)]


def deal(cards: Sequence[Shape], size: int, rng: random.Random) -> list[Card]:
    """``size`` cards dealt at random from ``cards`` (a ``pool``; all of it when it holds fewer): stand-ins for
    cards this seat cannot see, for sampling a hidden hand or a new deal (C-9)."""
    return [Card(-300 - i, CardKind.NUMBER, number=n, colour=c)
            for i, (n, c) in enumerate(rng.sample(cards, min(max(0, size), len(cards))))]


def probes(requirement: Requirement, left: Mapping[Shape, int]) -> tuple[tuple[Card, int], ...]:
    """One probe card per class of cards the phase tells apart, with how many of that class are unseen: one per
    number when no group asks for a colour, one per colour when no group asks for a number, else one per
    (number, colour)."""
    kinds = {kind for kind, _ in requirement}
    by_colour = bool(kinds & _COLOUR_KINDS)
    by_number = bool(kinds & _NUMBER_KINDS)
    weights: dict[Shape, int] = {}
    for (number, colour), count in left.items():
        key = (number if by_number else MIN_NUMBER, colour if by_colour else Colour.RED)
        weights[key] = weights.get(key, 0) + count
    return tuple((Card(-200 - i, CardKind.NUMBER, number=n, colour=c), w)
                 for i, ((n, c), w) in enumerate(sorted(weights.items())) if w > 0)


def outs(hand: Sequence[Card], requirement: Requirement, dist: int, left: Mapping[Shape, int]) -> int:
    """How many unseen number cards would each bring ``hand`` (at ``dist`` cards from its phase) one card
    closer (C-3); 0 when the phase can be laid already."""
    if dist <= 0:
        return 0
    return sum(count for card, count in probes(requirement, left) if feasible([*hand, card], requirement, dist - 1))



def feed_risk(card: Card, requirement: Requirement, left: Mapping[Shape, int], hand_size: int) -> float:
    """How many cards of a hidden hand of ``hand_size`` cards ``card`` could join in a group of that hand's phase
    (C-2), expected from the unseen cards: a set wants its number, a colour group its colour, a run the numbers
    next to it. The next player takes a discard that helps (M-4, R-6), so a low figure feeds them least."""
    if not card.is_natural or card.number is None or card.colour is None:
        return 0.0
    total = sum(left.values())
    if total <= 0 or hand_size <= 0:
        return 0.0
    share = min(1.0, hand_size / total)
    kinds = {kind for kind, _ in requirement}
    number, colour = card.number, card.colour
    risk = 0.0
    if GroupKind.SET in kinds:
        risk += share * sum(left.get((number, c), 0) for c in Colour)
    if GroupKind.COLOUR in kinds:
        risk += share * sum(left.get((n, colour), 0) for n in range(MIN_NUMBER, MAX_NUMBER + 1)) / len(Colour)
    if GroupKind.RUN in kinds:
        risk += share * sum(left.get((n, c), 0) for n in (number - 1, number + 1) for c in Colour) / 2
    if GroupKind.COLOUR_RUN in kinds:
        risk += share * sum(left.get((n, colour), 0) for n in (number - 1, number + 1))
    return risk
