"""A bot never receives hidden information (C-9): its inputs are the seat's view and legal commands only."""

from __future__ import annotations

import dataclasses
import inspect
import json
import random
from typing import Any

import pytest

import app.bots as bots
from app.bots import LEVELS, choose
from app.bots.driver import bot_command, bot_inputs, first_memory
from app.bots.memory import observe
from app.rules import registry

RULESETS = registry.ruleset_ids()


def test_the_checks_below_cover_every_level_hard_included() -> None:
    """The tests here are parametrised over ``LEVELS``: the hard bot's card counting must pass them too (C-9)."""
    assert {"easy", "normal", "hard"} <= set(LEVELS)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_bot_is_a_function_of_view_legal_rng_and_memory_only(level: str) -> None:
    params = list(inspect.signature(LEVELS[level]).parameters)
    assert params == ["ruleset_id", "view", "legal", "rng", "memory"]


def _midgame(ruleset_id: str, players: int = 3, steps: int = 40, seed: int = 11) -> Any:
    ruleset = registry.get(ruleset_id)
    state = ruleset.new_game(seed, players, ruleset.parse_options({}))
    rng = random.Random(seed)
    for _ in range(steps):
        seat = ruleset.awaited(state)[0]
        state, _ = ruleset.apply(state, seat, bot_command("normal", ruleset, state, seat, rng))
    return state


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_driver_hands_the_bot_only_view_and_legal_commands(ruleset_id: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = registry.get(ruleset_id)
    state = _midgame(ruleset_id)
    seat = ruleset.awaited(state)[0]
    seen: list[tuple[Any, ...]] = []

    def spy(level: str, rid: str, view: Any, legal: Any, rng: random.Random, memory: Any) -> Any:
        seen.append((level, rid, view, legal))
        return choose(level, rid, view, legal, rng, memory)

    monkeypatch.setattr("app.bots.driver.choose", spy)
    bot_command("normal", ruleset, state, seat, random.Random(1))
    (level, rid, view, legal), = seen
    assert rid == ruleset_id
    assert view == ruleset.player_view(state, seat)
    assert legal == tuple(ruleset.legal_commands(state, seat))
    assert json.loads(json.dumps(view)) == view, "the view is plain JSON"
    text = json.dumps(view)
    for key in ('"hands"', '"draw_pile"', '"discard_pile"', '"rng"'):
        assert key not in text


def _swap_hidden(state: Any, seat: int) -> Any:
    """The same game as ``seat`` sees it, but other hands and the draw pile hold different cards."""
    players = list(state.players)
    draw = list(state.piles.draw)
    public = getattr(state, "turned", frozenset())  # B-6: the faces of turned cards are public
    changed = False
    for other, player in enumerate(players):
        if other == seat:
            continue
        hand = list(player.hand)
        for i, card in enumerate(hand):
            if card.id not in public and draw:
                hand[i], draw[0] = draw[0], card
                draw = draw[1:] + draw[:1]
                changed = True
        players[other] = dataclasses.replace(player, hand=tuple(hand))
    assert changed
    random.Random(3).shuffle(draw)
    return dataclasses.replace(state, players=tuple(players), piles=dataclasses.replace(state.piles, draw=tuple(draw)))


@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_decisions_ignore_changes_of_hidden_information(ruleset_id: str, level: str) -> None:
    ruleset = registry.get(ruleset_id)
    for steps in (0, 7, 25, 60):
        state = _midgame(ruleset_id, steps=steps)
        if not (hasattr(state, "players") and hasattr(state, "piles")):
            pytest.skip("state shape unknown to this test")
        seat = ruleset.awaited(state)[0]
        other = _swap_hidden(state, seat)
        assert ruleset.player_view(other, seat) == ruleset.player_view(state, seat)
        assert other != state
        a = bot_command(level, ruleset, state, seat, random.Random(5))
        b = bot_command(level, ruleset, other, seat, random.Random(5))
        assert a == b


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_bot_decides_the_same_from_a_json_copy_of_its_view(ruleset_id: str) -> None:
    ruleset = registry.get(ruleset_id)
    state = _midgame(ruleset_id, steps=31)
    seat = ruleset.awaited(state)[0]
    view, legal = bot_inputs(ruleset, state, seat)
    for level in LEVELS:
        copy = json.loads(json.dumps(view))
        assert bots.choose(level, ruleset_id, copy, legal, random.Random(2)) == \
            bots.choose(level, ruleset_id, view, legal, random.Random(2))


@pytest.mark.parametrize("ruleset_id", ["mattel", "master"])
def test_a_seats_memory_is_what_a_spectator_could_remember_c9(ruleset_id: str) -> None:
    """The memory ``hard`` reads (the cards taken from and left on the discard pile, the cards under its top) is
    folded from the events as the seat was shown them, and it equals a spectator's at every step: nothing of
    the seat's own hand or draws, let alone another's, gets into it (C-9)."""
    ruleset = registry.get(ruleset_id)
    state = ruleset.new_game(21, 3, ruleset.parse_options({}))
    rngs = [random.Random(s) for s in range(3)]
    memories = {seat: first_memory(ruleset, state, seat) for seat in (0, 1, 2, None)}
    held = 0
    for _ in range(400):
        if ruleset.is_over(state):
            break
        seat = ruleset.awaited(state)[0]
        command = bot_command("hard", ruleset, state, seat, rngs[seat], memories[seat])
        state, events = ruleset.apply(state, seat, command)
        for who, memory in memories.items():
            memories[who] = observe(memory, [ruleset.redact_event(e, who) for e in events])
        assert memories[0] == memories[1] == memories[2] == memories[None]
        held = max(held, len(memories[None].held))
    assert held >= 1, "someone took a card from the discard pile"
