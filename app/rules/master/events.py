"""Per-seat redaction of Master events (C-9): Take-two and replacement cards drawn from the draw pile are
seen by their drawer only; offered cards, played action cards and returned cards lie face up (R-7, R-11)."""

from __future__ import annotations

from typing import Any

from ..core import events as core_events
from ..core.cards import card_to_json
from ..core.events import CardDiscarded, GameEnded
from .state import (
    ActionPlayed,
    CardOffered,
    HandKept,
    KeepChoicesAsked,
    MasterEvent,
    OffersAsked,
    OfferTaken,
    ReplacementDrawn,
    StarterReturned,
    TakeTwoChosen,
    TurnSkipped,
    TurnStarted,
    TwoCardsDrawn,
)

# Master's events whose JSON depends on the viewer (C-9), the shared ones included.
VIEWER_DEPENDENT: tuple[type, ...] = (TwoCardsDrawn, TakeTwoChosen, ReplacementDrawn, *core_events.VIEWER_DEPENDENT)


def redact_event(event: MasterEvent, viewer: int | None) -> dict[str, Any]:
    """The JSON of ``event`` as seat ``viewer`` (``None`` = spectator) may see it (C-9)."""
    match event:
        case TwoCardsDrawn(seat=seat, pile=pile, cards=cards):
            visible = pile != "draw" or viewer == seat
            return {"type": "two_cards_drawn", "seat": seat, "pile": pile, "count": len(cards),
                    "cards": [card_to_json(c) for c in cards] if visible else None}
        case TakeTwoChosen(seat=seat, pile=pile, kept=kept, returned=returned, to_pile=to_pile):
            visible = pile != "draw" or viewer == seat
            return {"type": "take_two_chosen", "seat": seat, "pile": pile,
                    "kept": card_to_json(kept) if visible else None, "returned": card_to_json(returned),
                    "to_pile": to_pile}
        case ReplacementDrawn(seat=seat, card=card):
            return {"type": "replacement_drawn", "seat": seat,
                    "card": card_to_json(card) if card is not None and viewer == seat else None,
                    "drawn": card is not None}
        case StarterReturned(card=card):
            # Its face was shown, but it now lies at the bottom of the draw pile: no card identity (C-9).
            return {"type": "starter_returned", "card_kind": card.kind.value, "card_label": card.label()}
        case TurnStarted(seat=seat):
            return {"type": "turn_started", "seat": seat}
        case ActionPlayed(seat=seat, card=card, target=target, effect=effect):
            return {"type": "action_played", "seat": seat, "card": card_to_json(card), "target": target,
                    "effect": effect}
        case OffersAsked(seat=seat, slots=slots):
            return {"type": "offers_asked", "seat": seat, "slots": list(slots)}
        case CardOffered(seat=seat, card=card):
            return {"type": "card_offered", "seat": seat, "card": card_to_json(card)}
        case OfferTaken(seat=seat, card=card, owner=owner):
            return {"type": "offer_taken", "seat": seat, "card": card_to_json(card), "owner": owner}
        case TurnSkipped(seat=seat, card=card):
            return {"type": "turn_skipped", "seat": seat, "card": card_to_json(card)}
        case KeepChoicesAsked(seats=seats):
            return {"type": "keep_choices_asked", "seats": list(seats)}
        case HandKept(seat=seat, keep=keep, size=size):
            return {"type": "hand_kept", "seat": seat, "keep": keep, "size": size}
        case CardDiscarded(seat=seat, card=card):
            return {"type": "card_discarded", "seat": seat, "card": card_to_json(card)}
        case GameEnded(winners=winners, totals=totals):
            return {"type": "game_ended", "winners": list(winners), "totals": list(totals)}
    return core_events.redact(event, viewer)
