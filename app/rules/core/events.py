"""Events shared by the rule sets (past tense) and their per-seat redaction (C-9).

An event may hide some of its content from some seats; ``redact`` returns the JSON that a given seat
(``None`` = spectator) may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import codec
from .cards import Card, card_to_json
from .groups import LaidGroup


@dataclass(frozen=True, slots=True)
class HandsDealt:
    """A round was dealt; every seat sees only its own hand (C-9)."""

    round: int
    dealer: int | None
    first: int
    hands: tuple[tuple[Card, ...], ...]
    discard_top: Card | None


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A card was taken from a pile; from the draw pile only its taker sees it (C-9)."""

    seat: int
    pile: str
    card: Card


@dataclass(frozen=True, slots=True)
class DrawPileRebuilt:
    """The discard pile but its top card was shuffled into a new draw pile (C-8)."""

    size: int
    rebuilds: int


@dataclass(frozen=True, slots=True)
class DrawFailed:
    """No card could be drawn: both piles were exhausted (C-8)."""

    seat: int


@dataclass(frozen=True, slots=True)
class PhaseLaid:
    """A player laid their phase (C-3); ``first_group`` is the index of its first group on the table."""

    seat: int
    groups: tuple[LaidGroup, ...]
    first_group: int


@dataclass(frozen=True, slots=True)
class CardHit:
    """A card was hit onto a laid group (C-4)."""

    seat: int
    card: Card
    group: int
    result: LaidGroup


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """``seat`` ended its turn by putting ``card`` face up on the discard pile (M-4, R-6, B-5 step 3)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round was scored (M-7, R-12); ``went_out`` is ``None`` for a stalled round (C-12). ``hands`` are the
    cards each seat had left in hand: every seat learns how many, only their holder which (C-9)."""

    round: int
    went_out: int | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
    advanced: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over (M-8, R-14, B-9): ``winners`` (several on a shared win) and each seat's final
    ``totals`` — penalty points in the card games, phase-marker positions in the board game."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]


def group_to_json(group: LaidGroup) -> dict[str, Any]:
    """Public JSON of a laid group (C-9: laid groups are public)."""
    out: dict[str, Any] = {"owner": group.owner, "kind": group.kind.value,
                           "cards": [card_to_json(c) for c in group.cards]}
    if group.number is not None:
        out["number"] = group.number
    if group.colour is not None:
        out["colour"] = group.colour.value
    if group.start is not None:
        out["start"] = group.start
        out["end"] = group.end
    if group.extra:
        out["extra"] = group.extra
    return out


def hands_left_json(hands: tuple[tuple[Card, ...], ...], viewer: int | None) -> dict[str, Any]:
    """The cards left in hand at a round's end (M-7, R-12, B-8) as ``viewer`` may see them (C-9): every seat's
    count (hand sizes are public) and the viewer's own cards; a spectator gets ``hand`` ``None``."""
    return {"cards_left": [len(h) for h in hands],
            "hand": None if viewer is None else [card_to_json(c) for c in hands[viewer]]}


# The shared events whose JSON depends on the viewer (C-9): every other one is the same for every seat and a
# spectator, so it is redacted once for all of them (``redact_all`` in app/services/base.py).
VIEWER_DEPENDENT: tuple[type, ...] = (HandsDealt, CardDrawn, RoundEnded)


def redact(event: object, viewer: int | None) -> dict[str, Any]:
    """The JSON of ``event`` as seat ``viewer`` may see it (C-9)."""
    match event:
        case HandsDealt(round=rnd, dealer=dealer, first=first, hands=hands, discard_top=top):
            return {"type": "hands_dealt", "round": rnd, "dealer": dealer, "first": first,
                    "hand_sizes": [len(h) for h in hands],
                    "hand": None if viewer is None else [card_to_json(c) for c in hands[viewer]],
                    "discard_top": None if top is None else card_to_json(top)}
        case CardDrawn(seat=seat, pile=pile, card=card):
            visible = pile != "draw" or viewer == seat
            return {"type": "card_drawn", "seat": seat, "pile": pile,
                    "card": card_to_json(card) if visible else None}
        case PhaseLaid(seat=seat, groups=groups, first_group=first):
            return {"type": "phase_laid", "seat": seat, "first_group": first,
                    "groups": [group_to_json(g) for g in groups]}
        case CardHit(seat=seat, card=card, group=index, result=result):
            return {"type": "card_hit", "seat": seat, "card": card_to_json(card), "group": index,
                    "result": group_to_json(result)}
        case RoundEnded(round=rnd, went_out=went_out, points=points, totals=totals, advanced=advanced,
                        hands=hands):
            return {"type": "round_ended", "round": rnd, "went_out": went_out, "points": list(points),
                    "totals": list(totals), "advanced": list(advanced), **hands_left_json(hands, viewer)}
    data: dict[str, Any] = public_json(event)
    return data


def public_json(value: object) -> Any:
    """JSON of a public engine value, cards and groups in their public shapes (``card_to_json``)."""
    if isinstance(value, Card):
        return card_to_json(value)
    if isinstance(value, LaidGroup):
        return group_to_json(value)
    known = codec.shape(type(value))
    if known is not None:
        tag, names = known
        out: dict[str, Any] = {"type": tag}
        for name in names:
            out[name] = public_json(getattr(value, name))
        return out
    if isinstance(value, tuple | list):
        return [public_json(v) for v in value]
    return codec.to_json(value)
