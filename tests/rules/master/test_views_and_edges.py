"""C-9 views and prompts of the Master game (R-7 cards in front, blue pile top, R-11 offers) and edge cases
of R-9 / R-11 (C-8 no replacement left)."""

from __future__ import annotations

from dataclasses import replace

from app.rules.core.commands import Discard
from app.rules.core.events import RoundEnded
from app.rules.core.table import Piles
from app.rules.master import RULESET
from app.rules.master.game import all_cards
from app.rules.master.state import OfferCard, PlayAction, ReplacementDrawn, Stage, TakeOffer
from tests.rules.master.helpers import apply_all, crafted

TEN_B = "y1 y2 y3 y4 y5 y6 y7 y8 y9 y10"
TEN_C = "g1 g2 g3 g4 g5 g6 g7 g8 g9 g10"


def test_C9_views_show_own_hand_fronts_and_blue_top_only() -> None:
    state = crafted(["skip take_two r1 r2", TEN_B, TEN_C], discard="b1 b2")
    state, _ = RULESET.apply(state, 0, PlayAction(state.players[0].hand[1].id))  # take two in front
    view = RULESET.player_view(state, 2)
    assert [c["id"] for c in view["hand"]] == [c.id for c in state.players[2].hand]
    assert [p["hand_size"] for p in view["players"]] == [3, 10, 10]
    assert [c["action"] for c in view["players"][0]["in_front"]] == ["take_two"]
    assert view["discard_top"]["label"] == "blue 2" and view["discard_size"] == 2
    assert view["blue_size"] == 0 and view["blue_top"] is None
    assert "draw_pile" not in view and "hands" not in view and "rng" not in str(view)
    assert view["prompt"] == {"action": "wait", "waiting_for": {"stage": "draw", "seats": [1]}}
    assert view["my_phase"] == [{"kind": "set", "size": 2}] * 4
    assert RULESET.player_view(state, 1)["prompt"] == {"action": "draw", "piles": ["draw", "discard"],
                                                       "take_two": False, "discard_fits": False}
    spectator = RULESET.player_view(state, None)
    assert spectator["hand"] is None and spectator["prompt"]["action"] == "wait"
    full = RULESET.full_view(state)
    assert len(full["hands"]) == 3 and len(full["draw_pile"]) == len(state.piles.draw)


def test_C9_play_prompt() -> None:
    state = crafted(["skip r1", TEN_B, TEN_C], fronts=["", "skip", ""])
    natural = state.players[0].hand[1].id  # r1: discarded; the skip is played, not discarded
    skip = state.players[0].hand[0].id  # only in front of seat 2: seat 1 has a Skip already
    assert RULESET.player_view(state, 0)["prompt"] == {
        "action": "play", "can_lay": True, "can_hit": False, "then": "discard_or_action", "skip_targets": [2],
        "hits": [], "discards": [natural], "plays": [{"card": skip, "target": 2, "to": 2}]}


def test_R11_no_replacement_when_no_card_is_left() -> None:
    state = crafted(["give_me_five r1 r2", TEN_B], discard="g1")
    everything = state.piles.draw
    state = replace(state, players=(state.players[0], replace(state.players[1], hand=state.players[1].hand
                                                                 + everything)),
                    piles=Piles(draw=(), discard=state.piles.discard))
    state, _ = RULESET.apply(state, 0, PlayAction(state.players[0].hand[0].id))
    offered = [c.id for c in state.players[1].hand[:5]]
    state, _ = apply_all(state, *((1, OfferCard(cid)) for cid in offered))
    assert state.stage is Stage.TAKE
    state, events = RULESET.apply(state, 0, TakeOffer(offered[2]))
    assert ReplacementDrawn(1, None) in events
    assert sorted(c.id for c in all_cards(state)) == list(range(128))


def test_R9_all_mine_owner_who_went_out_is_not_asked() -> None:
    state = crafted(["r1", TEN_B], fronts=["all_mine", ""])
    state = replace(state, players=(replace(state.players[0], laid=True), state.players[1]))
    state, events = RULESET.apply(state, 0, Discard(state.players[0].hand[0].id))
    assert any(isinstance(e, RoundEnded) for e in events)
    assert state.stage is Stage.DRAW and state.round == 2
