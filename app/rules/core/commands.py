"""Commands shared by the card games and the board game (imperatives; closed unions per rule set)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .groups import End


class Pile(StrEnum):
    """The pile a card is drawn from: the draw pile or the top of the discard pile (M-4, R-6, B-5); the Master
    blue pile is never drawn from (R-6)."""

    DRAW = "draw"
    DISCARD = "discard"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of a pile (M-4, R-6, B-5)."""

    pile: Pile = Pile.DRAW


@dataclass(frozen=True, slots=True)
class LayPhase:
    """Lay the whole current phase: groups as ordered lists of card ids, runs in position order (C-3, C-6)."""

    groups: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Hit:
    """Add a card to a laid group (index into the table's groups), at a run's chosen end (C-4)."""

    card: int
    group: int
    end: End | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card; ``target`` names the player a Mattel skip is played on (M-4, M-6)."""

    card: int
    target: int | None = None


def card_moves(legal: Iterable[object]) -> dict[str, list[Any]]:
    """Where the seat's hand cards may go now, read from its legal commands (C-4, C-8): ``hits`` lists each
    legal hit as ``{"card", "group", "end"}`` and ``discards`` the ids of the cards it may discard. Clients
    highlight drop targets from this instead of knowing the rules; it names only the seat's own cards and
    the public table (C-9)."""
    hits: list[Any] = []
    discards: list[Any] = []
    for command in legal:
        if isinstance(command, Hit):
            hits.append({"card": command.card, "group": command.group,
                         "end": None if command.end is None else command.end.value})
        elif isinstance(command, Discard) and command.card not in discards:
            discards.append(command.card)
    return {"hits": hits, "discards": discards}
