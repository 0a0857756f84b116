"""C-9 for the board game, with its two explicit exceptions: the searching player alone sees the whole
discard pile while searching (B-5), and the face of a turned card is visible to everyone (B-6).

The secrets are computed here from the state itself, independently of ``game.hidden_from``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.rules.board import RULESET
from app.rules.board.game import hidden_from, legal_commands
from app.rules.board.state import BoardState, CardSearched, CardsSwapped, Stage
from app.rules.core.commands import Hit, LayPhase
from app.rules.core.errors import RuleError
from app.rules.core.events import CardDiscarded
from tests.cards import card_ids, received


def secrets(state: BoardState, viewer: int | None) -> set[int]:
    """C-9: other hands (but their turned cards, B-6), the draw pile, the discard pile below its top (but for
    the player searching it, B-5)."""
    out = {c.id for c in state.piles.draw}
    if not (state.stage is Stage.SEARCH and viewer == state.turn):
        out |= {c.id for c in state.piles.discard[:-1]}
    for seat, p in enumerate(state.players):
        if seat != viewer:
            out |= {c.id for c in p.hand if c.id not in state.turned}
    return out


def steps(seed: int, players: int, limit: int = 700) -> Any:
    rnd = random.Random(seed)
    state = RULESET.new_game(seed, players, RULESET.parse_options({"phases_to_win": 2}))
    for _ in range(limit):
        if RULESET.is_over(state):
            return
        seat = rnd.choice(RULESET.awaited(state))
        legal = legal_commands(state, seat)
        lays = [c for c in legal if isinstance(c, LayPhase | Hit)]
        command = lays[0] if lays and rnd.random() < 0.8 else rnd.choice(legal)
        after, events = RULESET.apply(state, seat, command)
        yield state, seat, command, after, events
        state = after


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 3), (3, 5), (4, 6)])
def test_C9_B5_B6_views_and_events_show_exactly_what_they_may(seed: int, players: int) -> None:
    searched = turned_seen = 0
    for before, _, _, after, events in steps(seed, players):
        for viewer in [*range(players), None]:
            view = RULESET.player_view(after, viewer)
            json.dumps(view)
            shown = card_ids(view)
            assert not shown & secrets(after, viewer), f"view of {viewer} leaks"
            assert hidden_from(after, viewer) == secrets(after, viewer)
            # B-6: every turned card in another hand is shown with its face
            for other, p in enumerate(after.players):
                faces = {c.id for c in p.hand if c.id in after.turned}
                if other != viewer and faces:
                    assert faces <= shown
                    turned_seen += 1
            # B-5: the searcher's view holds the whole discard pile
            if after.stage is Stage.SEARCH and viewer == after.turn:
                assert {c.id for c in after.piles.discard} <= shown
            # A card discarded face up is public at that moment even if the same command then ends the
            # round and shuffles it away (B-8, B-10).
            public = {e.card.id for e in events if isinstance(e, CardDiscarded)}
            public |= {e.cards[-1].id for e in events if isinstance(e, CardsSwapped)}  # the new top, face up
            # Likewise the cards a player receives are theirs to see, even if the same command stalls the
            # round (C-12) and the next deal shuffles them away.
            secret = (secrets(before, viewer) & secrets(after, viewer)) - public - received(events, viewer)
            for event in events:
                redacted = RULESET.redact_event(event, viewer)
                json.dumps(redacted)
                assert not card_ids(redacted) & secret, f"{event} leaks to {viewer}"
                if isinstance(event, CardSearched) and viewer != event.seat:
                    assert redacted["card"] is None
                    searched += 1
            if viewer is not None and viewer in RULESET.awaited(after):
                assert view["prompt"] is not None and view["prompt"]["action"] == after.stage.value
    assert turned_seen and searched


@pytest.mark.parametrize("seed, players", [(5, 2), (6, 4)])
def test_every_listed_command_is_accepted(seed: int, players: int) -> None:
    """``legal_commands`` lists only commands ``apply`` accepts, for every awaited seat."""
    for before, _, _, _, _ in steps(seed, players, limit=250):
        for seat in RULESET.awaited(before):
            for command in legal_commands(before, seat):
                try:
                    RULESET.apply(before, seat, command)
                except RuleError as err:  # pragma: no cover - the assertion explains
                    raise AssertionError(f"{command} listed but refused: {err}") from err
        for seat in set(range(players)) - set(RULESET.awaited(before)):
            assert legal_commands(before, seat) == ()


def _card_dicts(data: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(data, dict):
        if "id" in data and "kind" in data:
            out.append(data)
        for v in data.values():
            out.extend(_card_dicts(v))
    elif isinstance(data, list):
        for v in data:
            out.extend(_card_dicts(v))
    return out


def test_cards_leave_the_engine_only_in_the_public_card_shape() -> None:
    """Views and redacted events show cards exactly as ``card_to_json`` does."""
    from app.rules.board.material import CARD_BY_ID
    from app.rules.core.cards import as_joker, card_to_json

    for _, _, _, after, events in steps(8, 4, limit=400):
        outputs = [RULESET.player_view(after, s) for s in (0, 1, None)]
        outputs += [RULESET.redact_event(e, s) for e in events for s in (0, 2, None)]
        for data in outputs:
            for card in _card_dicts(data):
                printed = CARD_BY_ID[card["id"]]
                assert card in (card_to_json(printed), card_to_json(as_joker(printed)))
