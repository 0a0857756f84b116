"""Group kinds, joker policies, and the validation of lay-downs and hits (C-2, C-3, C-4, C-6).

The three joker kinds of the three games are three values of one :class:`JokerPolicy`:

* Mattel wild (M-5): universal, every group needs one natural card;
* Master ranged joker (R-4): the card's own range and colour set, runs need two naturals;
* board-game turned card (B-6): universal, one real card per group, may be hit onto complete groups.

What a joker may stand for is carried by the card itself (``Card.low/high/colours``); the policy only
says how many natural cards each group kind needs and whether jokers may be hit onto complete groups.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import MAX_NUMBER, MIN_NUMBER, Card, Colour
from .errors import IllegalMove
from .records import replace


class GroupKind(StrEnum):
    """The four group kinds (C-2)."""

    SET = "set"
    RUN = "run"
    COLOUR = "colour"
    COLOUR_RUN = "colour_run"

    @property
    def is_run(self) -> bool:
        return self in (GroupKind.RUN, GroupKind.COLOUR_RUN)

    @property
    def has_number(self) -> bool:
        """Whether the kind constrains numbers (sets and runs)."""
        return self is not GroupKind.COLOUR

    @property
    def has_colour(self) -> bool:
        """Whether the kind constrains colours (colour groups and colour runs)."""
        return self in (GroupKind.COLOUR, GroupKind.COLOUR_RUN)


@dataclass(frozen=True, slots=True)
class JokerPolicy:
    """How jokers may be used (M-5, R-4, B-6) — data, not code."""

    min_naturals: Mapping[GroupKind, int]
    hit_on_complete: bool = False

    def naturals_needed(self, kind: GroupKind) -> int:
        return self.min_naturals.get(kind, 1)


@dataclass(frozen=True, slots=True)
class LaidGroup:
    """A group lying on the table (C-3).

    ``cards`` is in laid order; for runs position *i* stands for ``start + i`` (C-6). ``number`` is fixed
    for sets, ``colour`` for colour groups and colour runs. ``extra`` counts jokers hit onto a complete
    run under B-6, which stand for no number.
    """

    owner: int
    kind: GroupKind
    cards: tuple[Card, ...]
    number: int | None = None
    colour: Colour | None = None
    start: int | None = None
    extra: int = 0

    @property
    def end(self) -> int | None:
        """The number of the last run position (C-6)."""
        if self.start is None:
            return None
        return self.start + len(self.cards) - self.extra - 1


def _fail(code: str, message: str) -> IllegalMove:
    return IllegalMove(code, message)


def build_group(kind: GroupKind, min_size: int, cards: Sequence[Card], policy: JokerPolicy,
                owner: int = 0) -> LaidGroup:
    """Check one proposed group against its kind, minimum size and the joker policy (C-2, C-6, M-5, R-4, B-6).

    Returns the laid group or raises :class:`IllegalMove` with a precise code.
    """
    for card in cards:
        if not (card.is_natural or card.is_joker):
            raise _fail("not_a_group_card", f"{card.label()} cannot be part of a group")
    if len(cards) < min_size:
        raise _fail("group_too_small", f"a {kind.value} needs at least {min_size} cards, got {len(cards)}")
    naturals = [c for c in cards if c.is_natural]
    need = policy.naturals_needed(kind)
    if len(naturals) < need:
        raise _fail("too_few_naturals", f"a {kind.value} needs at least {need} natural card(s)")
    colour: Colour | None = None
    if kind.has_colour:
        colours = {c.colour for c in naturals}
        if len(colours) > 1:
            raise _fail("colour_mismatch", f"a {kind.value} must be all one colour")
        colour = next(iter(colours)) if colours else None
    if kind is GroupKind.SET:
        numbers = {c.number for c in naturals}
        if len(numbers) > 1:
            raise _fail("set_mixed_numbers", "a set must be cards of one number")
        number = next(iter(numbers)) if numbers else None
        for card in cards:
            if card.is_joker and not card.joker_fits(number, None):
                raise _fail("joker_out_of_range", f"{card.label()} cannot stand for {number}")
        return LaidGroup(owner, kind, tuple(cards), number=number)
    if kind is GroupKind.COLOUR:
        for card in cards:
            if card.is_joker and not card.joker_fits(None, colour):
                raise _fail("joker_colour_not_allowed", f"{card.label()} cannot stand for {colour}")
        return LaidGroup(owner, kind, tuple(cards), colour=colour)
    # Runs: position i stands for start + i (C-6).
    starts = {c.number - i for i, c in enumerate(cards) if c.is_natural and c.number is not None}
    if len(starts) > 1:
        raise _fail("run_not_consecutive", "the cards of a run must be consecutive numbers in order")
    start = next(iter(starts)) if starts else MIN_NUMBER
    if start < MIN_NUMBER or start + len(cards) - 1 > MAX_NUMBER:
        raise _fail("run_out_of_bounds", "a run must lie within 1..12 (12 and 1 are not adjacent)")
    for i, card in enumerate(cards):
        if card.is_joker:
            if not card.joker_fits(start + i, None):
                raise _fail("joker_out_of_range", f"{card.label()} cannot stand for {start + i}")
            if not card.joker_fits(None, colour):
                raise _fail("joker_colour_not_allowed", f"{card.label()} cannot stand for {colour}")
    return LaidGroup(owner, kind, tuple(cards), colour=colour, start=start)


def resolve_cards(hand: Sequence[Card], groups: Sequence[Sequence[int]]) -> list[list[Card]]:
    """Map the submitted card ids to cards of ``hand``; every id once at most (C-3)."""
    by_id = {c.id: c for c in hand}
    seen: set[int] = set()
    out: list[list[Card]] = []
    for group in groups:
        cards = []
        for cid in group:
            if cid in seen:
                raise _fail("duplicate_card", f"card {cid} is used twice")
            seen.add(cid)
            card = by_id.get(cid)
            if card is None:
                raise _fail("card_not_in_hand", f"card {cid} is not in your hand")
            cards.append(card)
        out.append(cards)
    return out


def validate_laydown(hand: Sequence[Card], requirement: Sequence[tuple[GroupKind, int]],
                     groups: Sequence[Sequence[int]], policy: JokerPolicy,
                     owner: int = 0) -> tuple[LaidGroup, ...]:
    """Validate a whole phase lay-down (C-3): exactly the required groups, all at once, from the hand.

    ``requirement`` is the phase as ``(kind, min_size)`` pairs. Groups may be submitted in any order; they
    are matched to the requirement, and if no matching works the error of the in-order matching is raised.
    """
    if len(groups) != len(requirement):
        raise _fail("wrong_group_count",
                    f"this phase needs exactly {len(requirement)} group(s), got {len(groups)}")
    cards = resolve_cards(hand, groups)
    first_error: IllegalMove | None = None
    for order in itertools.permutations(range(len(requirement))):
        try:
            return tuple(build_group(requirement[j][0], requirement[j][1], cards[i], policy, owner)
                         for i, j in enumerate(order))
        except IllegalMove as err:
            if first_error is None:
                first_error = err
    assert first_error is not None
    raise first_error


class End(StrEnum):
    """Which end of a run a card is hit onto (C-4)."""

    LOW = "low"
    HIGH = "high"


def extend_group(group: LaidGroup, card: Card, policy: JokerPolicy, end: End | None = None) -> LaidGroup:
    """Hit ``card`` onto ``group`` (C-4, C-6, M-5, R-4, B-6) and return the extended group.

    Runs grow at either end within 1..12; a joker goes to ``end`` (default: the high end if free, else the
    low end). Under a policy with ``hit_on_complete`` (B-6) a joker may join a run that spans 1..12.
    """
    if not (card.is_natural or card.is_joker):
        raise _fail("not_a_group_card", f"{card.label()} cannot be hit onto a group")
    if group.kind is GroupKind.SET:
        if card.is_natural and card.number != group.number:
            raise _fail("hit_does_not_fit", f"{card.label()} does not match a set of {group.number}s")
        if card.is_joker and not card.joker_fits(group.number, None):
            raise _fail("joker_out_of_range", f"{card.label()} cannot stand for {group.number}")
        return replace(group, cards=group.cards + (card,))
    if group.kind is GroupKind.COLOUR:
        if card.is_natural and card.colour != group.colour:
            raise _fail("hit_does_not_fit", f"{card.label()} is not {group.colour}")
        if card.is_joker and not card.joker_fits(None, group.colour):
            raise _fail("joker_colour_not_allowed", f"{card.label()} cannot stand for {group.colour}")
        return replace(group, cards=group.cards + (card,))
    assert group.start is not None and group.end is not None
    if group.kind is GroupKind.COLOUR_RUN:
        if card.is_natural and card.colour != group.colour:
            raise _fail("hit_does_not_fit", f"{card.label()} is not {group.colour}")
        if card.is_joker and not card.joker_fits(None, group.colour):
            raise _fail("joker_colour_not_allowed", f"{card.label()} cannot stand for {group.colour}")
    low_free = group.start > MIN_NUMBER
    high_free = group.end < MAX_NUMBER
    if card.is_natural:
        if card.number == group.end + 1 and high_free and end in (None, End.HIGH):
            return replace(group, cards=group.cards + (card,))
        if card.number == group.start - 1 and low_free and end in (None, End.LOW):
            return replace(group, cards=(card,) + group.cards, start=group.start - 1)
        raise _fail("hit_does_not_fit", f"{card.label()} does not extend the run {group.start}-{group.end}")
    if end is None:
        end = End.HIGH if high_free else End.LOW
    if end is End.HIGH and high_free:
        number = group.end + 1
        if not card.joker_fits(number, None):
            raise _fail("joker_out_of_range", f"{card.label()} cannot stand for {number}")
        return replace(group, cards=group.cards + (card,))
    if end is End.LOW and low_free:
        number = group.start - 1
        if not card.joker_fits(number, None):
            raise _fail("joker_out_of_range", f"{card.label()} cannot stand for {number}")
        return replace(group, cards=(card,) + group.cards, start=number)
    if policy.hit_on_complete and not low_free and not high_free:
        return replace(group, cards=group.cards + (card,), extra=group.extra + 1)
    raise _fail("run_full", f"the run {group.start}-{group.end} cannot be extended at that end")


def group_is_complete(group: LaidGroup, total_per_number: int = 8, total_per_colour: int = 24) -> bool:
    """Whether ``group`` is complete in the sense of B-6/B-7.

    The rulebook: "a set holding the eight 9s (with or without jokers) or a complete run (1 to 12, with or
    without jokers)". Jokers count as cards of the group: a set is complete once it holds
    ``total_per_number`` cards, a colour group once it holds ``total_per_colour`` cards (B-7: all 24 of its
    colour), a run once it spans 1..12.
    """
    if group.kind is GroupKind.SET:
        return len(group.cards) >= total_per_number
    if group.kind is GroupKind.COLOUR:
        return len(group.cards) >= total_per_colour
    return group.start == MIN_NUMBER and group.end == MAX_NUMBER
