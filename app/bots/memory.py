"""What a seat has seen happen at the discard pile this round: a fold of the events as that seat received them.

A player at the table sees every card thrown onto the discard pile and every card taken from it as it happens,
and remembers them; the view shows only the pile's top (C-9). ``Memory`` is that recollection, made from the
events exactly as they were redacted for the seat (``ruleset.redact_event(event, seat)``, what its socket
carried), so it can hold nothing the seat was not shown:

* ``held``: the cards each player took from the discard pile (M-4, R-6; with a Take two, the one kept of its
  two, R-8) and has not thrown again — they want them for their phase (laid ones show on the table) — and the
  cards they offered to a Give-me-five player and got back (R-11: the one taken is the taker's);
* ``passed``: the number cards each player left on top of the discard pile when they drew from the draw pile
  instead, or put back there with a Take two (R-8) — they did not want them then;
* ``thrown``: the cards each player threw onto the discard pile — they could spare them;
* ``buried``: the cards thrown this round that still lie under the top (C-8: a rebuilt draw pile takes them
  all but the top; a Mattel skip lies on top too, M-6), which are in nobody's hand.

A round's ``hands_dealt`` starts a new recollection; the game's first deal happens before any command, so the
first round's starts from the game's first view (``start``). A memory of an earlier round is ignored
(``for_round``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from app.rules.core.cards import Card

from .view import card_from_json

Seen = tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True)
class Memory:
    round: int = 1
    top: Card | None = None
    held: Seen = ()
    passed: Seen = ()
    thrown: Seen = ()
    buried: tuple[Card, ...] = ()

    def held_by(self, seat: int) -> list[Card]:
        return [card for who, card in self.held if who == seat]

    def passed_by(self, seat: int) -> list[Card]:
        return [card for who, card in self.passed if who == seat]

    def thrown_by(self, seat: int) -> list[Card]:
        return [card for who, card in self.thrown if who == seat]


def start(view: Mapping[str, Any]) -> Memory:
    """The recollection of a round seen so far only in ``view`` (the game's first deal): its discard pile's top."""
    top = view.get("discard_top")
    return Memory(round=int(view.get("round") or 1), top=card_from_json(top) if top else None)


def observe(memory: Memory, events: Iterable[Mapping[str, Any]]) -> Memory:
    """``memory`` after the events of one command, as redacted for the seat whose memory it is."""
    for event in events:
        kind = event.get("type")
        card = card_from_json(event["card"]) if isinstance(event.get("card"), Mapping) else None
        if kind == "hands_dealt":
            top = event.get("discard_top")
            memory = Memory(round=int(event.get("round", memory.round + 1)),
                            top=card_from_json(top) if top else None)
        elif kind == "card_drawn":
            memory = _drawn(memory, int(event["seat"]), str(event.get("pile")))
        elif kind == "card_discarded" and card is not None:
            memory = replace(_topped(memory, card), held=_without(memory.held, card),
                             thrown=memory.thrown + ((int(event["seat"]), card),))
        elif kind == "skip_played" and card is not None:  # M-6: a skip is discarded too
            memory = _topped(memory, card)
        elif kind == "draw_pile_rebuilt":
            memory = replace(memory, buried=())
        elif kind == "two_cards_drawn":
            memory = _drawn_two(memory, int(event["seat"]), str(event.get("pile")))
        elif kind == "take_two_chosen":
            memory = _chosen(memory, int(event["seat"]), card_from_json(event["returned"]), event.get("to_pile"))
        elif kind == "card_offered" and card is not None:  # face up, back to its owner unless taken
            memory = replace(memory, held=memory.held + ((int(event["seat"]), card),))
        elif kind == "offer_taken" and card is not None:
            memory = replace(memory, held=(*_without(memory.held, card), (int(event["seat"]), card)))
        elif kind == "action_played" and card is not None:  # an offered action card, played later
            memory = replace(memory, held=_without(memory.held, card))
    return memory


def _topped(memory: Memory, card: Card) -> Memory:
    """``card`` lies on the discard pile's top now; the old top is buried under it."""
    buried = memory.buried + (memory.top,) if memory.top is not None else memory.buried
    return replace(memory, top=card, buried=buried)


def _without(held: Seen, card: Card) -> Seen:
    return tuple((who, c) for who, c in held if c.id != card.id)


def _drawn_two(memory: Memory, seat: int, pile: str) -> Memory:
    """R-8: a Take-two owner drew two cards: from the discard pile its top and the card below (both in their hand
    until they choose), from the draw pile blind (the top stays, passed)."""
    memory = _drawn(memory, seat, pile)
    return _drawn(memory, seat, pile) if pile == "discard" and memory.top is not None else memory


def _chosen(memory: Memory, seat: int, returned: Card, to_pile: object) -> Memory:
    """R-8: the card not kept leaves the hand, face up: on the discard pile it is the new top, and the player did
    not want it (a card kept from the discard pile stays held)."""
    memory = replace(memory, held=_without(memory.held, returned))
    if to_pile != "discard":
        return memory
    passed = memory.passed + ((seat, returned),) if returned.is_natural else memory.passed
    return replace(_topped(memory, returned), passed=passed)


def _drawn(memory: Memory, seat: int, pile: str) -> Memory:
    top = memory.top
    if pile == "discard":
        if top is None:
            return memory
        below = memory.buried[-1] if memory.buried else None
        return replace(memory, held=memory.held + ((seat, top),), top=below, buried=memory.buried[:-1])
    if pile == "draw" and top is not None and top.is_natural:
        return replace(memory, passed=memory.passed + ((seat, top),))
    return memory


def for_round(memory: Memory | None, view: Mapping[str, Any]) -> Memory | None:
    """``memory`` if it is of the round ``view`` shows, else ``None`` (nothing remembered of this round)."""
    if memory is None or memory.round != view.get("round"):
        return None
    return memory
