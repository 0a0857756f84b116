"""Master-specific properties over seeded random playouts with 2-6 players: 128 cards conserved (R-1), input
never mutated, playouts terminate, views and events never leak hidden cards (C-9), replay equals live (C-10),
state JSON round-trips, every awaited seat has a legal command and no other seat has one."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules.core.cards import CardKind
from app.rules.core.commands import Discard, Hit, LayPhase
from app.rules.core.errors import NotYourTurn
from app.rules.core.events import CardDiscarded, CardDrawn, CardHit, HandsDealt, PhaseLaid
from app.rules.core.ruleset import replay
from app.rules.master import RULESET
from app.rules.master.game import all_cards
from app.rules.master.state import (
    ActionPlayed,
    CardOffered,
    MasterCommand,
    MasterState,
    OfferTaken,
    TakeTwoChosen,
    TurnSkipped,
    TwoCardsDrawn,
)
from tests.cards import card_ids


def _public_ids(state: MasterState) -> set[int]:
    """Cards lying face up now: the discard pile (every card of it was face up once), the blue pile, laid
    groups, cards in front of players, offered cards."""
    out = {c.id for c in state.piles.discard} | {c.id for c in state.blue}
    out |= {c.id for g in state.table for c in g.cards}
    out |= {c.id for f in state.fronts for c in f}
    if state.give is not None:
        out |= {c.id for c in state.give.offered if c is not None}
    return out


def _shown(event: object) -> set[int]:
    """Cards an event shows face up to everybody by the rules (R-6..R-11, C-3, C-4)."""
    match event:
        case CardDiscarded(card=card) | ActionPlayed(card=card) | TurnSkipped(card=card) \
                | CardOffered(card=card) | OfferTaken(card=card):
            return {card.id}
        case TakeTwoChosen(pile=pile, kept=kept, returned=returned):
            return {returned.id} | ({kept.id} if pile == "discard" else set())
        case TwoCardsDrawn(pile="discard", cards=cards):
            return {c.id for c in cards}
        case CardDrawn(pile="discard", card=card):
            return {card.id}
        case PhaseLaid(groups=groups):
            return {c.id for g in groups for c in g.cards}
        case CardHit(card=card):
            return {card.id}
        case HandsDealt(discard_top=top):
            return set() if top is None else {top.id}
    return set()


def _choose(rnd: random.Random, commands: tuple[MasterCommand, ...]) -> MasterCommand:
    """Greedy-ish: lay and hit when possible (so games progress), otherwise a random legal command."""
    lay = [c for c in commands if isinstance(c, LayPhase | Hit)]
    if lay and rnd.random() < 0.9:
        return lay[0]
    return rnd.choice(commands)


def _playout(seed: int, players: int, options: dict[str, Any], max_steps: int) -> None:
    rnd = random.Random(seed)
    opts = RULESET.parse_options(options)
    state = RULESET.new_game(seed, players, opts)
    history: list[tuple[int, MasterCommand]] = []
    known: list[set[int]] = [set(c.id for c in p.hand) for p in state.players]
    public: set[int] = _public_ids(state)
    for _ in range(max_steps):
        if RULESET.is_over(state):
            break
        waiting = RULESET.awaited(state)
        assert waiting
        for seat in range(players):
            legal = RULESET.legal_commands(state, seat)
            assert bool(legal) == (seat in waiting), (seat, waiting, state.stage)
        seat = rnd.choice(waiting)
        command = _choose(rnd, RULESET.legal_commands(state, seat))
        idle = next((s for s in range(players) if s not in waiting), None)
        if idle is not None:
            with pytest.raises(NotYourTurn):
                RULESET.apply(state, idle, command)
        before = RULESET.state_to_json(state)
        after, events = RULESET.apply(state, seat, command)
        assert RULESET.state_to_json(state) == before  # the input state is not mutated
        assert sorted(c.id for c in all_cards(after)) == list(range(128))
        public |= _public_ids(after)
        for event in events:
            public |= _shown(event)
        for s in range(players):
            known[s] |= {c.id for c in after.players[s].hand}
        known[after.turn] |= {c.id for c in after.drawn}  # the drawer sees its two Take-two cards
        for viewer in [None, *range(players)]:
            allowed = public | (known[viewer] if viewer is not None else set())
            view = RULESET.player_view(after, viewer)
            assert card_ids(view) <= allowed, ("view", viewer, card_ids(view) - allowed)
            for event in events:
                seen = card_ids(RULESET.redact_event(event, viewer))
                assert seen <= allowed, ("event", type(event).__name__, viewer, seen - allowed)
        history.append((seat, command))
        state = after
    else:
        pytest.fail(f"no end after {max_steps} steps")
    assert RULESET.winners(state)
    assert RULESET.state_from_json(RULESET.state_to_json(state)) == state
    commands = [(s, RULESET.parse_command(RULESET.command_to_json(c))) for s, c in history]
    assert replay(RULESET, seed, players, opts, commands) == state


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("seed", [1, 2])
def test_properties_short_games(players: int, seed: int) -> None:
    _playout(seed * 100 + players, players, {"phases_to_win": 1}, 3000)


@pytest.mark.parametrize(("players", "options"), [
    (3, {"phases_to_win": 2, "scoring": "points"}),
    (4, {"fixed_rounds": True, "phases_to_win": 2}),
    (2, {"phase_selection": "even", "phases_to_win": 1}),
])
def test_properties_variants(players: int, options: dict[str, Any]) -> None:
    _playout(7, players, options, 4000)


def test_discard_commands_never_name_action_cards() -> None:
    state = RULESET.new_game(3, 4, RULESET.parse_options({}))
    rnd = random.Random(3)
    for _ in range(300):
        if RULESET.is_over(state):
            break
        seat = rnd.choice(RULESET.awaited(state))
        legal = RULESET.legal_commands(state, seat)
        hand = {c.id: c for c in state.players[seat].hand}
        for c in legal:
            if isinstance(c, Discard):
                assert hand[c.card].kind is not CardKind.ACTION
        state, _ = RULESET.apply(state, seat, rnd.choice(legal))
