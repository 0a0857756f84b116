"""Properties every rule set must have (C-1, C-9, C-10), run for every rule set in the registry.

Each rule set package exposes ``game.all_cards(state)`` and ``game.hidden_from(state, seat)``.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import registry
from app.rules.core.ruleset import replay
from tests.cards import card_ids, received

from .playout import playout

RULESETS = registry.ruleset_ids()
DECK_SIZE = {"mattel": 108, "master": 128, "board": 96}
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def game_module(ruleset_id: str) -> Any:
    module = importlib.import_module(f"app.rules.{ruleset_id}.game")
    for name in ("all_cards", "hidden_from"):
        assert hasattr(module, name), f"rule set {ruleset_id} must expose game.{name}"
    return module


def short_options(ruleset: Any, phases: int) -> Any:
    return ruleset.parse_options({"phases_to_win": phases})


games = st.tuples(st.sampled_from(RULESETS), st.integers(0, 2**32), st.integers(2, 6), st.integers(1, 2))


@FAST
@given(games)
def test_C1_every_card_is_always_accounted_for(game: tuple[str, int, int, int]) -> None:
    """C-1, M-1, R-1, B-1: hands + piles + table (+ anything else) always hold the whole deck, each card once."""
    rid, seed, players, phases = game
    ruleset, module = registry.get(rid), game_module(rid)
    state = ruleset.new_game(seed, players, short_options(ruleset, phases))
    deck = sorted(c.id for c in module.all_cards(state))
    assert len(deck) == DECK_SIZE[rid] == len(set(deck))
    for step in playout(ruleset, seed, players, short_options(ruleset, phases)):
        assert sorted(c.id for c in module.all_cards(step.after)) == deck


@FAST
@given(games)
def test_apply_never_mutates_its_input(game: tuple[str, int, int, int]) -> None:
    """docs/architecture.md (The engine): state is immutable; ``apply`` returns a new state."""
    rid, seed, players, phases = game
    ruleset = registry.get(rid)
    for step in playout(ruleset, seed, players, short_options(ruleset, phases)):
        before = ruleset.state_to_json(step.before)
        ruleset.apply(step.before, step.seat, step.command)
        assert ruleset.state_to_json(step.before) == before


@FAST
@given(games)
def test_C9_views_and_events_never_leak(game: tuple[str, int, int, int]) -> None:
    """C-9: no view or redacted event holds a card of another hand, of the draw pile or below the discard top."""
    rid, seed, players, phases = game
    ruleset, module = registry.get(rid), game_module(rid)
    viewers: list[int | None] = [*range(players), None]
    for step in playout(ruleset, seed, players, short_options(ruleset, phases)):
        for viewer in viewers:
            hidden_after = module.hidden_from(step.after, viewer)
            view = ruleset.player_view(step.after, viewer)
            assert not card_ids(view) & hidden_after, f"view of {viewer} leaks"
            assert "rng" not in str(view) and "draw_pile" not in view
            # A card hidden both before and after the step must not appear in its events, except the cards
            # the acting seat itself played out of its hand (a discard that ends the round is shown).
            played = module.hidden_from(step.before, None) - module.hidden_from(step.before, step.seat)
            # Nor the cards a seat itself receives, even if the same command stalls the round (C-12) and the
            # next deal shuffles them away.
            secret = (module.hidden_from(step.before, viewer) & hidden_after) - played - received(step.events, viewer)
            for event in step.events:
                assert not card_ids(ruleset.redact_event(event, viewer)) & secret, f"{event} leaks to {viewer}"


@FAST
@given(games)
def test_C9_player_views_are_each_seats_player_view(game: tuple[str, int, int, int]) -> None:
    """``player_views`` (the fan-out's: the public part made once) gives every seat exactly its ``player_view``,
    and a key added to one view shows in no other."""
    rid, seed, players, phases = game
    ruleset = registry.get(rid)
    viewers: list[int | None] = [*range(players), None]
    for step in playout(ruleset, seed, players, short_options(ruleset, phases)):
        views = ruleset.player_views(step.after, viewers)
        assert list(views) == viewers
        for viewer in viewers:
            alone = ruleset.player_view(step.after, viewer)
            assert views[viewer] == alone and list(views[viewer]) == list(alone)  # same keys, same order
        views[None]["timer"] = "mine"
        assert all("timer" not in views[v] for v in viewers if v is not None)


@FAST
@given(games)
def test_C10_replay_equals_live_and_json_round_trips(game: tuple[str, int, int, int]) -> None:
    """C-10: a game replays bit for bit from seed, options and commands; states and commands survive JSON."""
    rid, seed, players, phases = game
    ruleset = registry.get(rid)
    options = short_options(ruleset, phases)
    commands = []
    final = None
    for i, step in enumerate(playout(ruleset, seed, players, options)):
        wire = ruleset.command_to_json(step.command)
        assert ruleset.parse_command(wire) == step.command
        commands.append((step.seat, ruleset.parse_command(wire)))
        if i % 50 == 0:
            assert ruleset.state_from_json(ruleset.state_to_json(step.after)) == step.after
        final = step.after
    assert final is not None and ruleset.is_over(final)
    assert replay(ruleset, seed, players, options, commands) == final


@pytest.mark.parametrize("rid", RULESETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_full_games_terminate_with_a_winner(rid: str, players: int) -> None:
    """M-8, R-14, B-9, C-12: full games (every phase) with 2-6 players always end with a winner."""
    ruleset = registry.get(rid)
    last = None
    for step in playout(ruleset, 1000 + players, players, ruleset.parse_options({}), max_steps=60000):
        last = step.after
    assert last is not None and ruleset.is_over(last)
    assert ruleset.winners(last)
    assert set(ruleset.winners(last)) <= set(range(players))
