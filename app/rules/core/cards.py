"""Cards with identity (C-1).

Every physical card has its own integer ``id``; two red 7s are two cards. A card is a number card, a joker
(Mattel wild M-5, Master ranged joker R-2, or a board-game card turned into a joker B-6), or an action card
(Mattel skip M-6, Master blue cards R-7..R-11).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from . import codec


class Colour(StrEnum):
    """The four card colours (C-1). The fourth is printed violet or blue; the name is cosmetic."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"


ALL_COLOURS: frozenset[Colour] = frozenset(Colour)
MIN_NUMBER = 1
MAX_NUMBER = 12


class CardKind(StrEnum):
    """The three kinds of card: number cards (C-1), jokers (M-5 wilds, R-2 ranged jokers, B-6 turned cards) and
    action cards (M-6 skips, R-1 blue action cards)."""

    NUMBER = "number"
    JOKER = "joker"
    ACTION = "action"


@codec.encode_once
@dataclass(frozen=True, slots=True)
class Card:
    """One physical card (C-1).

    * number cards: ``number`` 1..12 and ``colour``;
    * jokers: may stand for any number in ``low..high`` and any colour in ``colours`` (R-2). A board-game
      turned card (B-6) is a joker that keeps its printed ``number``/``colour`` as its visible face;
    * action cards: ``action`` names it (``skip``, ``take_two``, ``all_mine``, ``give_me_five``).
    """

    id: int
    kind: CardKind
    number: int | None = None
    colour: Colour | None = None
    low: int = MIN_NUMBER
    high: int = MAX_NUMBER
    colours: frozenset[Colour] = ALL_COLOURS
    action: str | None = None

    def __hash__(self) -> int:
        """The id alone (a card turned into a joker, B-6, keeps its id: equal hash, unequal cards): the generated
        hash of all fields calls ``Enum.__hash__`` in Python, and cards are hashed for every view (their JSON is
        cached per card) and throughout the solver."""
        return self.id

    @property
    def is_natural(self) -> bool:
        return self.kind is CardKind.NUMBER

    @property
    def is_joker(self) -> bool:
        return self.kind is CardKind.JOKER

    def joker_fits(self, number: int | None, colour: Colour | None) -> bool:
        """Whether this joker may stand for ``number`` and ``colour`` (``None`` = unconstrained) (R-4)."""
        if number is not None and not self.low <= number <= self.high:
            return False
        return colour is None or colour in self.colours

    def label(self) -> str:
        """A short human label, e.g. ``red 7``, ``joker 1-6 red/blue``, ``skip``."""
        if self.kind is CardKind.NUMBER:
            return f"{self.colour} {self.number}"
        if self.kind is CardKind.ACTION:
            return str(self.action).replace("_", " ")
        parts = ["joker"]
        if (self.low, self.high) != (MIN_NUMBER, MAX_NUMBER):
            parts.append(f"{self.low}-{self.high}")
        if self.colours != ALL_COLOURS:
            parts.append("/".join(c.value for c in Colour if c in self.colours))
        return " ".join(parts)


def number_cards(first_id: int = 0, copies: int = 2) -> tuple[Card, ...]:
    """The 96 number cards shared by all three games: 1..12, ``copies`` of each in each colour (C-1)."""
    out: list[Card] = []
    next_id = first_id
    for colour in Colour:
        for number in range(MIN_NUMBER, MAX_NUMBER + 1):
            for _ in range(copies):
                out.append(Card(next_id, CardKind.NUMBER, number=number, colour=colour))
                next_id += 1
    return tuple(out)


def as_joker(card: Card) -> Card:
    """A number card turned into a universal joker that keeps its printed face (B-6)."""
    return Card(card.id, CardKind.JOKER, number=card.number, colour=card.colour)


def card_to_json(card: Card) -> dict[str, object]:
    """The public JSON shape of a card (used in views and events): a new dict each time, made from the shape
    built once per card (cards are immutable values; a view shows dozens of them)."""
    out = dict(_card_json(card))
    colours = out.get("colours")
    if isinstance(colours, list):
        out["colours"] = list(colours)
    return out


@cache
def _card_json(card: Card) -> dict[str, object]:
    out: dict[str, object] = {"id": card.id, "kind": card.kind.value}
    if card.number is not None:
        out["number"] = card.number
    if card.colour is not None:
        out["colour"] = card.colour.value
    if card.kind is CardKind.JOKER:
        out["low"] = card.low
        out["high"] = card.high
        out["colours"] = [c.value for c in Colour if c in card.colours]
    if card.action is not None:
        out["action"] = card.action
    out["label"] = card.label()
    return out
