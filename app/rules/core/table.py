"""Shared turn pieces of the card games and the board game: players, piles, laying, hitting (C-3..C-8).

Pure functions over immutable values; every rule set composes its own state from these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, card_to_json
from .errors import IllegalMove, InvalidOptions
from .events import CardHit, DrawPileRebuilt, PhaseLaid
from .groups import End, GroupKind, JokerPolicy, LaidGroup, extend_group, validate_laydown
from .phases import Phase
from .records import replace
from .rng import Rng


@dataclass(frozen=True, slots=True)
class Player:
    """One seat's hand and progress. ``phase`` indexes the game's phase sequence (C-5)."""

    hand: tuple[Card, ...] = ()
    phase: int = 0
    laid: bool = False
    score: int = 0


@dataclass(frozen=True, slots=True)
class Piles:
    """Draw and discard piles; the last element is the top card."""

    draw: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    rebuilds: int = 0

    def discarded(self, card: Card) -> Piles:
        """``card`` put on top of the discard pile."""
        return Piles(self.draw, self.discard + (card,), self.rebuilds)

    def without_discard_top(self) -> Piles:
        """The discard pile's top card taken away."""
        return Piles(self.draw, self.discard[:-1], self.rebuilds)


@dataclass(frozen=True, slots=True)
class RoundScore:
    """One row of a score sheet: each seat's points this round (Mattel penalty points M-7, Master minus points
    R-12, board marker fields B-8) and the phase it made (0 = none)."""

    round: int
    points: tuple[int, ...]
    made: tuple[int, ...]


def history_json(history: Sequence[RoundScore]) -> list[dict[str, Any]]:
    """The score sheet as the views show it."""
    return [{"round": r.round, "points": list(r.points), "made": list(r.made)} for r in history]


def take_card(hand: Sequence[Card], card_id: int) -> tuple[Card, tuple[Card, ...]]:
    """Remove ``card_id`` from ``hand``; ``card_not_in_hand`` if it is not there."""
    for i, card in enumerate(hand):
        if card.id == card_id:
            return card, tuple(hand[:i]) + tuple(hand[i + 1:])
    raise IllegalMove("card_not_in_hand", f"card {card_id} is not in your hand")


def rebuild_draw_pile(piles: Piles, rng: Rng) -> tuple[Piles, Rng, DrawPileRebuilt | None]:
    """C-8: shuffle every discard but the top card into a new draw pile (only when the draw pile is empty)."""
    if piles.draw or len(piles.discard) <= 1:
        return piles, rng, None
    fresh, rng = rng.shuffled(piles.discard[:-1])
    piles = Piles(draw=fresh, discard=piles.discard[-1:], rebuilds=piles.rebuilds + 1)
    return piles, rng, DrawPileRebuilt(len(fresh), piles.rebuilds)


def pop_draw(piles: Piles, rng: Rng) -> tuple[Card | None, Piles, Rng, tuple[DrawPileRebuilt, ...]]:
    """Take the top of the draw pile, rebuilding it first if it is empty (C-8). ``None`` if no card is left."""
    events: tuple[DrawPileRebuilt, ...] = ()
    if not piles.draw:
        piles, rng, rebuilt = rebuild_draw_pile(piles, rng)
        if rebuilt is not None:
            events = (rebuilt,)
    if not piles.draw:
        return None, piles, rng, events
    return piles.draw[-1], Piles(piles.draw[:-1], piles.discard, piles.rebuilds), rng, events


def lay_phase(player: Player, seat: int, phase: Phase, groups: Sequence[Sequence[int]],
              table: tuple[LaidGroup, ...], policy: JokerPolicy) -> tuple[Player, tuple[LaidGroup, ...], PhaseLaid]:
    """Lay the player's phase (C-3): validate, move the cards from the hand to the table."""
    if player.laid:
        raise IllegalMove("phase_already_laid", "your phase is already down this round")
    laid = validate_laydown(player.hand, phase.requirement, groups, policy, owner=seat)
    used = {cid for g in groups for cid in g}
    hand = tuple(c for c in player.hand if c.id not in used)
    event = PhaseLaid(seat, laid, len(table))
    return replace(player, hand=hand, laid=True), table + laid, event


def hit(player: Player, seat: int, card_id: int, group_index: int, end: End | None,
        table: tuple[LaidGroup, ...], policy: JokerPolicy) -> tuple[Player, tuple[LaidGroup, ...], CardHit]:
    """Hit one card onto a laid group (C-4): only after laying one's own phase this round."""
    if not player.laid:
        raise IllegalMove("phase_not_laid", "you may hit only after laying your phase this round")
    if not 0 <= group_index < len(table):
        raise IllegalMove("no_such_group", f"there is no group {group_index} on the table")
    card, hand = take_card(player.hand, card_id)
    extended = extend_group(table[group_index], card, policy, end)
    table = table[:group_index] + (extended,) + table[group_index + 1:]
    return replace(player, hand=hand), table, CardHit(seat, card, group_index, extended)


def legal_hits(hand: Sequence[Card], table: Sequence[LaidGroup],
               policy: JokerPolicy) -> list[tuple[int, int, End | None]]:
    """Every ``(card id, group index, end)`` hit that ``extend_group`` accepts (C-4)."""
    out: list[tuple[int, int, End | None]] = []
    for card in hand:
        if not (card.is_natural or card.is_joker):
            continue
        for index, group in enumerate(table):
            if card.is_natural and not _may_fit(group, card):
                continue
            ends: tuple[End | None, ...] = (End.LOW, End.HIGH) if group.kind.is_run else (None,)
            for end in ends:
                try:
                    extend_group(group, card, policy, end)
                except IllegalMove:
                    continue
                out.append((card.id, index, end))
    return out


def _may_fit(group: LaidGroup, card: Card) -> bool:
    """A cheap necessary condition for a natural card to extend ``group`` (saves raising in ``legal_hits``)."""
    if group.kind.has_colour and card.colour != group.colour:
        return False
    if group.kind is GroupKind.SET:
        return card.number == group.number
    if group.kind.is_run:
        return card.number in (group.start - 1 if group.start else None, (group.end or 0) + 1)
    return True


def phase_sequence(phases: Sequence[Phase], selection: str, phases_to_win: int | None) -> tuple[int, ...]:
    """The phase numbers (1-based) a game plays, in order (M-9, R-15, B-11).

    ``selection`` is ``all``, ``even`` or ``odd``; ``phases_to_win = N`` ends the sequence at its N-th phase.
    """
    numbers = tuple(range(1, len(phases) + 1))
    if selection == "even":
        numbers = numbers[1::2]
    elif selection == "odd":
        numbers = numbers[0::2]
    if phases_to_win is not None:
        numbers = numbers[:phases_to_win]
    return numbers


def check_phases_to_win(phases: Sequence[Phase], selection: str, phases_to_win: int | None) -> None:
    """C-11, M-9, R-15, B-11: the selection must leave a phase to play (a custom list of one phase has no even
    phase), and ``phases_to_win`` must name a phase of the selected list."""
    most = len(phase_sequence(phases, selection, None))
    if not most:
        raise InvalidOptions("phase_selection", f"a list of {len(phases)} phase(s) has no {selection} phase")
    if phases_to_win is not None and not 1 <= phases_to_win <= most:
        raise InvalidOptions("phases_to_win", f"must be between 1 and {most}")


def seat_phase(sequence: Sequence[int], marker: int, fixed_round: int | None = None) -> int:
    """The phase number a seat plays: its own next phase (C-5), or the round's under ``fixed_rounds`` (M-9)."""
    if fixed_round is not None:
        return sequence[min(fixed_round, len(sequence)) - 1]
    return sequence[min(marker, len(sequence) - 1)]


def hand_json(hand: Sequence[Card]) -> list[dict[str, Any]]:
    """The JSON of a hand or of any other cards in order (a pile, the cards in front of a player); the caller
    decides who may see them (C-9)."""
    return [card_to_json(c) for c in hand]


def next_seat(seat: int, players: int) -> int:
    """Clockwise neighbour (C-7)."""
    return (seat + 1) % players
