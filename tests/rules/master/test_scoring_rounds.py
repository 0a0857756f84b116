"""R-12 scoring, R-13 new round, R-14 winning (shared-win ruling), R-15 variants, C-8 / C-12 piles."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules.core.commands import Discard, Draw
from app.rules.core.errors import GameOver, InvalidOptions
from app.rules.core.events import DrawPileRebuilt, GameEnded, RoundEnded
from app.rules.core.table import Piles
from app.rules.master import RULESET
from app.rules.master.game import all_cards, phase_number, sequence
from app.rules.master.state import MasterOptions, MasterState, Stage
from tests.rules.master.helpers import crafted, dealt

TEN_B = "y1 y2 y3 y4 y5 y6 y7 y8 y9 y10"


def _go_out(state: MasterState, laid: tuple[bool, ...],
            scores: tuple[int, ...] = ()) -> tuple[MasterState, list[object]]:
    """Seat 0 (laid, one card left) discards its last card."""
    players = tuple(replace(p, laid=laid[i], score=scores[i] if scores else 0) for i, p in enumerate(state.players))
    state = replace(state, players=players)
    state, events = RULESET.apply(state, 0, Discard(state.players[0].hand[0].id))
    return state, list(events)


@pytest.mark.parametrize(("scoring", "hand", "expected"), [
    ("minus", "r1 r10 J1-6:ry skip give_me_five", 5),
    ("points", "r1 r10 J1-6:ry skip give_me_five", 5 + 10 + 20 + 20 + 20),
    ("points", "r9 y12", 15),
    ("minus", "r9", 1),
])
def test_R12_scoring(scoring: str, hand: str, expected: int) -> None:
    state = crafted(["r2", hand], options=RULESET.parse_options({"scoring": scoring}))
    state, events = _go_out(state, (True, False))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.points == (0, expected) and ended.totals == (0, expected)
    assert state.players[1].score == expected


def test_R12_C5_phase_down_moves_on() -> None:
    state = crafted(["r2", TEN_B, "g1 g2"])
    state, events = _go_out(state, (True, False, True))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.advanced == (0, 2)
    assert [p.phase for p in state.players] == [1, 0, 1]
    assert state.history[-1].made == (1, 0, 1)


def test_R13_new_round_gathers_everything() -> None:
    state = crafted(["r2", TEN_B, "g1 g2"], fronts=["take_two", "skip", ""])
    state = replace(state, blue=(), players=state.players)
    state, events = _go_out(state, (True, False, False))
    assert dealt(events) is not None
    assert state.table == () and state.blue == () and state.fronts == ((), (), ())
    assert [len(p.hand) for p in state.players] == [10, 10, 10]
    assert not any(p.laid for p in state.players)
    assert sorted(c.id for c in all_cards(state)) == list(range(128))


LAST = 9  # index of phase 10


@pytest.mark.parametrize(("laid", "scores", "winners"), [
    ((True, False), (0, 0), (0,)),            # the only one to make phase 10 wins even with more points
    ((True, True), (20, 5), (1,)),            # several made it: fewest minus points (5 + 10 = 15 < 20)
    ((True, True), (10, 0), (0, 1)),          # Ruling: a tie on minus points is a shared win
    ((False, False), (0, 0), None),           # nobody made phase 10: the game goes on
])
def test_R14_winning(laid: tuple[bool, bool], scores: tuple[int, int], winners: tuple[int, ...] | None) -> None:
    state = crafted(["r2", TEN_B], phases=[LAST, LAST])
    state, events = _go_out(state, laid, scores)
    if winners is None:
        assert state.stage is not Stage.OVER and not any(isinstance(e, GameEnded) for e in events)
        return
    assert state.stage is Stage.OVER and state.winners == winners
    assert RULESET.winners(state) == winners and RULESET.is_over(state)
    assert any(isinstance(e, GameEnded) and e.winners == winners for e in events)
    with pytest.raises(GameOver):
        RULESET.apply(state, 0, Draw())
    assert RULESET.awaited(state) == ()


def test_R14_only_players_who_made_phase_10_can_win() -> None:
    state = crafted(["r2", TEN_B, "g1"], phases=[LAST, LAST, 3])
    state, events = _go_out(state, (True, False, True), (30, 0, 0))
    assert state.winners == (0,)


@pytest.mark.parametrize(("options", "seq"), [
    ({}, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)),
    ({"phase_selection": "even"}, (2, 4, 6, 8, 10)),
    ({"phase_selection": "odd"}, (1, 3, 5, 7, 9)),
    ({"phases_to_win": 5}, (1, 2, 3, 4, 5)),
    ({"phase_selection": "even", "phases_to_win": 2}, (2, 4)),
])
def test_R15_phase_sequences(options: dict[str, object], seq: tuple[int, ...]) -> None:
    assert sequence(RULESET.parse_options(options)) == seq


def test_R15_phases_to_win_ends_the_game_early() -> None:
    state = crafted(["r2", TEN_B], phases=[4, 0], options=RULESET.parse_options({"phases_to_win": 5}))
    assert phase_number(state, 0) == 5
    state, _ = _go_out(state, (True, False))
    assert state.stage is Stage.OVER and state.winners == (0,)


def test_R15_even_selection_plays_even_phases() -> None:
    state = crafted(["r2", TEN_B], phases=[0, 1], options=RULESET.parse_options({"phase_selection": "even"}))
    assert (phase_number(state, 0), phase_number(state, 1)) == (2, 4)


def test_R15_fixed_rounds() -> None:
    options = RULESET.parse_options({"fixed_rounds": True, "phases_to_win": 3})
    state = crafted(["r2", TEN_B], phases=[0, 2], options=options)
    state = replace(state, round=2)
    assert (phase_number(state, 0), phase_number(state, 1)) == (2, 2)  # the round's phase, not their own
    after, _ = _go_out(state, (True, False))
    assert after.stage is not Stage.OVER and after.round == 3
    state = replace(state, round=3)
    after, _ = _go_out(state, (False, False), (12, 0))  # last round: lowest total wins, made or not
    assert after.stage is Stage.OVER and after.winners == (1,)
    after, _ = _go_out(state, (False, False), (10, 0))  # tie: shared win
    assert after.winners == (0, 1)


@pytest.mark.parametrize("raw", [
    {"phases_to_win": 0}, {"phases_to_win": 11}, {"phase_selection": "even", "phases_to_win": 6},
    {"scoring": "plus"}, {"colour": "red"}, {"fixed_rounds": "yes"},
])
def test_R15_C11_bad_options(raw: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions):
        RULESET.parse_options(raw)


def test_C11_defaults_match_the_rulebook() -> None:
    assert RULESET.options_to_json(RULESET.parse_options(None)) == {
        "scoring": "minus", "fixed_rounds": False, "phases_to_win": None, "phase_selection": "all"}
    assert {o["name"] for o in RULESET.options_schema()} == {"scoring", "fixed_rounds", "phases_to_win",
                                                              "phase_selection", "phases"}
    assert RULESET.parse_options(None).phases is None  # the ten Master phases


@pytest.mark.parametrize("players", [1, 7])
def test_R1_two_to_six_players(players: int) -> None:
    with pytest.raises(InvalidOptions):
        RULESET.new_game(1, players, MasterOptions())


def test_C8_empty_draw_pile_is_rebuilt_from_the_discard_pile() -> None:
    state = crafted(["r2 r3", TEN_B], stage=Stage.DRAW, discard="g1 g2 g3")
    everything = state.piles.draw + state.piles.discard
    state = replace(state, piles=Piles(draw=(), discard=everything))
    state, events = RULESET.apply(state, 0, Draw())
    assert isinstance(events[0], DrawPileRebuilt)
    assert state.piles.discard == everything[-1:] and state.piles.rebuilds == 1
    assert sorted(c.id for c in all_cards(state)) == list(range(128))


def test_C12_third_rebuild_ends_the_round_with_nobody_out() -> None:
    state = crafted(["r2 r3", TEN_B], stage=Stage.DRAW, discard="g1 g2 g3")
    everything = state.piles.draw + state.piles.discard
    state = replace(state, piles=Piles(draw=(), discard=everything, rebuilds=2))
    state = replace(state, players=(replace(state.players[0], laid=True), state.players[1]))
    state, events = RULESET.apply(state, 0, Draw())
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.went_out is None and ended.points == (2, 10) and ended.advanced == (0,)
    assert state.round == 2
    assert sorted(c.id for c in all_cards(state)) == list(range(128))
