"""Build exact Mattel positions for table-driven tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules.core.cards import Card, Colour
from app.rules.core.groups import LaidGroup
from app.rules.core.table import Piles, Player
from app.rules.mattel import RULESET
from app.rules.mattel.deck import DECK
from app.rules.mattel.state import MattelOptions, MattelState, Stage

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE
WILDS = [c for c in DECK if c.is_joker]
SKIPS = [c for c in DECK if c.action == "skip"]
_used: set[int] = set()


def num(number: int, colour: Colour = R, copy: int = 0) -> Card:
    """The ``copy``-th physical card of that number and colour (C-1: two of each)."""
    matches = [c for c in DECK if c.number == number and c.colour == colour and c.is_natural]
    return matches[copy]


def hand(*spec: int | str) -> tuple[Card, ...]:
    """Cards from a compact spec: ints are numbers (colours cycle), 'W' a wild, 'S' a skip."""
    out: list[Card] = []
    wild = skip = 0
    seen: dict[int, int] = {}
    colours = [R, Y, G, B]
    for item in spec:
        if item == "W":
            out.append(WILDS[wild])
            wild += 1
        elif item == "S":
            out.append(SKIPS[skip])
            skip += 1
        else:
            assert isinstance(item, int)
            k = seen.get(item, 0)
            seen[item] = k + 1
            out.append(num(item, colours[k % 4], k // 4))
    return tuple(out)


def position(hands: Sequence[Sequence[Card]], *, turn: int = 0, stage: Stage = Stage.PLAY,
             discard: Sequence[Card] = (), draw: Sequence[Card] | None = None,
             table: Sequence[LaidGroup] = (), laid: Sequence[bool] | None = None,
             phases: Sequence[int] | None = None, options: MattelOptions | None = None,
             skipped: Sequence[bool] | None = None) -> MattelState:
    """A state with exactly these hands and piles; the draw pile defaults to the unused cards."""
    n = len(hands)
    base = RULESET.new_game(1, n, options or MattelOptions())
    used = {c.id for h in hands for c in h} | {c.id for c in discard} | {c.id for g in table for c in g.cards}
    if draw is None:
        draw = [c for c in DECK if c.id not in used]
    players = tuple(Player(hand=tuple(h), laid=bool(laid[i]) if laid else False,
                           phase=phases[i] if phases else 0) for i, h in enumerate(hands))
    return replace(base, players=players, piles=Piles(draw=tuple(draw), discard=tuple(discard)),
                   table=tuple(table), turn=turn, stage=stage, dealer=(turn - 1) % n,
                   skipped=tuple(skipped) if skipped else (False,) * n)


def ids(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(c.id for c in cards)
