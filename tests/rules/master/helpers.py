"""Builders of crafted Master states for the table-driven tests (cards by their faces, from the real deck)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules.core.cards import Card, CardKind, Colour
from app.rules.core.events import HandsDealt
from app.rules.core.table import Piles, Player
from app.rules.master import RULESET
from app.rules.master.deck import DECK
from app.rules.master.state import MasterOptions, MasterState, Stage

COLOURS = {"r": Colour.RED, "y": Colour.YELLOW, "g": Colour.GREEN, "b": Colour.BLUE}


def cards(spec: str) -> tuple[Card, ...]:
    """Distinct deck cards from a compact spec: ``r7`` red 7, ``J1-6:ry`` ranged joker (``J7-12:all``),
    ``take_two`` / ``all_mine`` / ``skip`` / ``give_me_five``. Repeated faces take the next copy."""
    used: set[int] = set()
    out = []
    for token in spec.split():
        out.append(_find(token, used))
    return tuple(out)


def _find(token: str, used: set[int]) -> Card:
    def ok(c: Card) -> bool:
        return c.id not in used

    if token.startswith("J"):
        rng, _, cols = token[1:].partition(":")
        low, high = (int(x) for x in rng.split("-"))
        wanted = frozenset(Colour) if cols == "all" else frozenset(COLOURS[c] for c in cols)
        match = [c for c in DECK if c.is_joker and (c.low, c.high) == (low, high) and c.colours == wanted and ok(c)]
    elif token[0] in COLOURS and token[1:].isdigit():
        colour, number = COLOURS[token[0]], int(token[1:])
        match = [c for c in DECK if c.is_natural and c.colour is colour and c.number == number and ok(c)]
    else:
        match = [c for c in DECK if c.kind is CardKind.ACTION and c.action == token and ok(c)]
    if not match:
        raise ValueError(f"no card left for {token!r}")
    used.add(match[0].id)
    return match[0]


def ids(cs: Sequence[Card]) -> tuple[int, ...]:
    return tuple(c.id for c in cs)


def crafted(hands: Sequence[str], *, turn: int = 0, stage: Stage = Stage.PLAY, discard: str = "",
            options: MasterOptions | None = None, phases: Sequence[int] | None = None,
            fronts: Sequence[str] | None = None, seed: int = 1) -> MasterState:
    """A state whose hands, discard pile and fronts hold exactly the given cards; every other card of the
    deck is in the draw pile (in deck order, so the top is the highest id left), keeping all 128 cards."""
    n = len(hands)
    used: set[int] = set()
    hand_cards = [tuple(_find(t, used) for t in h.split()) for h in hands]
    discard_cards = tuple(_find(t, used) for t in discard.split())
    front_cards = [tuple(_find(t, used) for t in f.split()) for f in (fronts or [""] * n)]
    draw = tuple(c for c in DECK if c.id not in used)
    state = RULESET.new_game(seed, n, options or MasterOptions())
    players = tuple(Player(hand=h, phase=(phases[i] if phases else 0)) for i, h in enumerate(hand_cards))
    return replace(state, players=players, piles=Piles(draw=draw, discard=discard_cards), blue=(), table=(),
                   fronts=tuple(front_cards), turn=turn, stage=stage, dealer=(turn - 1) % n)


def apply_all(state: MasterState, *moves: tuple[int, object]) -> tuple[MasterState, list[object]]:
    """Apply ``(seat, command)`` pairs in order; returns the final state and all events."""
    events: list[object] = []
    for seat, command in moves:
        state, evs = RULESET.apply(state, seat, command)  # type: ignore[arg-type]
        events.extend(evs)
    return state, events


def dealt(events: Sequence[object]) -> HandsDealt | None:
    return next((e for e in events if isinstance(e, HandsDealt)), None)
