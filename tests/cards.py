"""Finding cards in JSON (views, events, replay answers) for the hidden-information tests (C-9)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.rules.board.state import CardGiven
from app.rules.core.cards import CardKind
from app.rules.core.events import CardDrawn
from app.rules.master.state import OfferTaken, ReplacementDrawn, TwoCardsDrawn

CARD_KINDS = frozenset(k.value for k in CardKind)


def card_ids(data: Any) -> set[int]:
    """Every card id anywhere in ``data``: a card is a dict with an integer ``id`` and a card ``kind``."""
    found: set[int] = set()
    if isinstance(data, dict):
        if isinstance(data.get("id"), int) and data.get("kind") in CARD_KINDS:
            found.add(data["id"])
        for value in data.values():
            found |= card_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= card_ids(value)
    return found


def received(events: Iterable[Any], viewer: int | None) -> set[int]:
    """The cards ``events`` put into ``viewer``'s own hand (drawn, given to it, taken by it). The viewer may
    know them even when the same command then ends the round (a stall, C-12) and the next deal shuffles them
    away, so they are not a leak of a card hidden before and after the command (C-9)."""
    out: set[int] = set()
    for event in events:
        if isinstance(event, CardGiven):
            to, cards = event.receiver, (event.card,)
        elif isinstance(event, CardDrawn | ReplacementDrawn | OfferTaken):
            to, cards = event.seat, (event.card,)
        elif isinstance(event, TwoCardsDrawn):
            to, cards = event.seat, event.cards
        else:
            continue
        if viewer is not None and to == viewer:
            out |= {card.id for card in cards if card is not None}
    return out
