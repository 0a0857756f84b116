"""A seat's memory of the round (``app.bots.memory``) against the game it was folded from: what it remembers
is true. Only a test may hold the state beside the memory; the bots never see it (C-9)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from app.bots.driver import bot_command, bot_inputs, first_memory, remember
from app.bots.memory import Memory
from app.rules import registry


def _played(ruleset_id: str, seeds: range, players: int = 3) -> Iterator[tuple[Any, Any, Memory, list[Any]]]:
    """Every step of bot games (``normal`` in every seat), with seat 0's memory and the events as seat 0 saw
    them."""
    ruleset = registry.get(ruleset_id)
    for seed in seeds:
        state = ruleset.new_game(seed, players, ruleset.parse_options({}))
        rngs = [random.Random(seed * 31 + s) for s in range(players)]
        memory = first_memory(ruleset, state, 0)
        while not ruleset.is_over(state):
            seat = ruleset.awaited(state)[0]
            command = bot_command("normal", ruleset, state, seat, rngs[seat])
            state, events = ruleset.apply(state, seat, command)
            memory = remember(ruleset, memory, 0, events)
            yield ruleset, state, memory, [ruleset.redact_event(e, 0) for e in events]


def _check(ruleset: Any, state: Any, memory: Memory) -> tuple[bool, bool]:
    """Whether the remembered top is the discard pile's top, and every remembered held card is in its holder's
    hand or on the table."""
    view, _ = bot_inputs(ruleset, state, 0)
    if memory.round != view.get("round"):
        return True, True
    top = view.get("discard_top")
    top_ok = (top or {}).get("id") == (memory.top.id if memory.top is not None else None)
    # on the table, or between hands for a moment: drawn by a Take-two owner, offered to a Give-me-five player
    about = {c.id for group in state.table for c in group.cards} | {c.id for c in getattr(state, "drawn", ())}
    give = getattr(state, "give", None)
    about |= {c.id for c in give.offered if c is not None} if give is not None else set()
    held_ok = all(card.id in {c.id for c in state.players[who].hand} | about for who, card in memory.held)
    return top_ok, held_ok


@pytest.mark.parametrize("ruleset_id", ["mattel", "master"])
def test_the_remembered_top_and_held_cards_hold_at_every_step(ruleset_id: str) -> None:
    """M-4, R-6: cards taken from and thrown onto the discard pile; M-6: a skip lies on the pile's top; R-8: a
    Take-two owner draws two cards from one pile (from the discard pile its top and the card below) and puts the
    one not kept face up onto the discard pile; R-11: the offered cards lie face up, the one taken goes to the
    taker, the others back to their owners. The remembered top is the pile's top and every remembered held card
    is where the memory says; a card taken from an offer is remembered in its taker's hand."""
    kinds: Counter[str] = Counter()
    steps = wrong_top = wrong_held = offers_remembered = 0
    for ruleset, state, memory, events in _played(ruleset_id, range(1, 7)):
        if ruleset.is_over(state):
            continue
        kinds.update(e["type"] for e in events)
        top_ok, held_ok = _check(ruleset, state, memory)
        steps += 1
        wrong_top += not top_ok
        wrong_held += not held_ok
        offers_remembered += sum(1 for e in events if e["type"] == "offer_taken"
                                 and e["card"]["id"] in {c.id for c in memory.held_by(e["seat"])})
    expected = ("take_two_chosen", "offer_taken") if ruleset_id == "master" else ("skip_played",)
    assert all(kinds[kind] >= 5 for kind in expected), kinds  # the games did what the test is about
    assert steps > 1000
    assert (wrong_top, wrong_held) == (0, 0)
    assert offers_remembered == kinds["offer_taken"]
