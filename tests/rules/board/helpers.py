"""Build exact board-game positions for table-driven tests (B-1..B-11)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from app.rules.board import RULESET
from app.rules.board.material import DECK
from app.rules.board.state import BoardOptions, BoardState, Stage
from app.rules.core.cards import Card, Colour
from app.rules.core.groups import LaidGroup
from app.rules.core.table import Piles, Player

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def num(number: int, colour: Colour = R, copy: int = 0) -> Card:
    """The ``copy``-th physical card of that number and colour (C-1: two of each)."""
    return [c for c in DECK if c.number == number and c.colour == colour][copy]


def cards(*numbers: int) -> tuple[Card, ...]:
    """Distinct physical cards of these numbers (colours cycle red, yellow, green, blue, then second copies)."""
    out: list[Card] = []
    seen: dict[int, int] = {}
    colours = [R, Y, G, B]
    for n in numbers:
        k = seen.get(n, 0)
        seen[n] = k + 1
        out.append(num(n, colours[k % 4], k // 4))
    return tuple(out)


def ids(cs: Sequence[Card]) -> tuple[int, ...]:
    return tuple(c.id for c in cs)


def position(hands: Sequence[Sequence[Card]], *, turn: int = 0, stage: Stage = Stage.PLAY,
             discard: Sequence[Card] = (), draw_top: Sequence[Card] = (), draw: Sequence[Card] | None = None,
             table: Sequence[LaidGroup] = (), laid: Sequence[bool] | None = None,
             markers: Sequence[int] | None = None, pawns: Sequence[int] | None = None,
             turned: Sequence[Card] = (), dice: Sequence[int] = (), options: BoardOptions | None = None,
             **extra: Any) -> BoardState:
    """A state with exactly these hands and piles. The draw pile is every unused card with ``draw_top`` on
    top (its last card is the top), unless ``draw`` gives it exactly."""
    n = len(hands)
    base = RULESET.new_game(1, n, options or BoardOptions())
    used = ({c.id for h in hands for c in h} | {c.id for c in discard} | {c.id for g in table for c in g.cards}
            | {c.id for c in draw_top})
    if draw is None:
        draw = [c for c in DECK if c.id not in used] + list(draw_top)
    players = tuple(Player(hand=tuple(h), laid=bool(laid[i]) if laid else False,
                           phase=markers[i] if markers else 0) for i, h in enumerate(hands))
    return replace(base, players=players, piles=Piles(draw=tuple(draw), discard=tuple(discard)),
                   table=tuple(table), turn=turn, stage=stage, pawns=tuple(pawns) if pawns else (0,) * n,
                   turned=frozenset(c.id for c in turned), dice=tuple(dice), **extra)
