"""The cards left in hand at a round's end (M-7, R-12, B-8) under C-9, for every rule set: each seat's round-end
frame (the step's redacted events and its view) says how many cards every seat had left and shows the seat its
own, never another seat's."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from app.rules import registry
from tests.cards import card_ids

from .playout import Step, playout

ROUND_ENDS = {"round_ended", "board_round_ended"}


def first_round_end(rid: str, seed: int, players: int) -> tuple[Any, Step, Any]:
    """The first step of a seeded game that ends a round and leaves the game running, with the round-end
    event, so the next round's deal hides the old hands again."""
    ruleset = registry.get(rid)
    for step in playout(ruleset, seed, players, ruleset.parse_options({"phases_to_win": 3})):
        for event in step.events:
            if type(event).__name__.endswith("RoundEnded") and not ruleset.is_over(step.after):
                return ruleset, step, event
    raise AssertionError("no round ended")


@pytest.mark.parametrize("rid", registry.ruleset_ids())
def test_C9_M7_R12_B8_round_end_shows_all_counts_only_own_cards(rid: str) -> None:
    """M-7, R-12, B-8: ``cards_left`` counts every seat's leftover cards; C-9: ``hand`` holds the viewer's own
    leftover cards only (``None`` for a spectator), and no other part of another seat's frame names a card
    left in a foreign hand that is still hidden from it."""
    players = 3
    ruleset, step, ended = first_round_end(rid, 11, players)
    module = importlib.import_module(f"app.rules.{rid}.game")
    left = [{c.id for c in hand} for hand in ended.hands]
    assert sum(map(len, left)) > 0, "the round should leave cards in some hand"
    for viewer in [*range(players), None]:
        frame = [ruleset.redact_event(e, viewer) for e in step.events]
        shown = next(e for e in frame if e["type"] in ROUND_ENDS)
        assert shown["cards_left"] == [len(hand) for hand in ended.hands]
        own = set() if viewer is None else left[viewer]
        if viewer is None:
            assert shown["hand"] is None
        else:
            assert {c["id"] for c in shown["hand"]} == own
        assert card_ids(shown) == own, f"the round end shows {viewer} a foreign card"
        foreign = set().union(*(cards for seat, cards in enumerate(left) if seat != viewer))
        still_hidden = foreign & module.hidden_from(step.after, viewer)
        assert still_hidden, "the test needs foreign leftover cards that stay hidden"
        view = ruleset.player_view(step.after, viewer)
        assert not card_ids([frame, view]) & still_hidden, f"the frame of {viewer} holds a foreign card"
