"""R-3 / R-15 / C-2 / C-11: a Master table host may replace the phase list (phases 9 and 10 are Reconstructed,
so the list is data a host can change), like the board game's custom list (B-11).

The default is the ten R-3 phases (the golden playthroughs stay as they are); a custom list is validated by the
core parser (C-2 kinds with colour runs, minimum sizes, at most 10 cards a phase) and then drives the turn, the
phase a seat plays, ``phases_to_win``, ``phase_selection``, ``fixed_rounds``, the views and the solver's hints.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.rules.core.commands import Discard, LayPhase
from app.rules.core.errors import IllegalMove, InvalidOptions
from app.rules.core.events import PhaseLaid, RoundEnded
from app.rules.core.groups import GroupKind
from app.rules.core.phases import phase
from app.rules.master import RULESET
from app.rules.master.deck import PHASES
from app.rules.master.game import current_phase, hint, phase_number, phases, sequence
from app.rules.master.state import MasterState, Stage
from tests.rules.master.helpers import crafted, ids
from tests.rules.playout import playout

S, R, C, CR = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR, GroupKind.COLOUR_RUN

TWO = [[{"kind": "set", "size": 3}], [{"kind": "colour_run", "size": 4}, {"kind": "set", "size": 2}]]
"""A two-phase custom list: 1 set of 3, then 1 colour run of 4 + 1 set of 2 (colour runs: Master only, C-2)."""


def _options(**raw: Any) -> Any:
    return RULESET.parse_options(raw)


# -- default unchanged ----------------------------------------------------------------------------------


def test_R3_default_is_the_ten_master_phases_and_is_not_recorded() -> None:
    """R-3 / C-11: without the option a table plays the ten Master phases; the recorded options of such a
    table are what they were before the option existed (stored tables and golden playthroughs unchanged)."""
    options = _options()
    assert options.phases is None and phases(options) == PHASES and sequence(options) == tuple(range(1, 11))
    assert "phases" not in RULESET.options_to_json(options)
    written = [[{"kind": g.kind.value, "size": g.size} for g in p.groups] for p in PHASES]
    explicit = _options(phases=written)
    assert phases(explicit) == PHASES  # the R-3 list written out is the same list


def test_R3_C11_custom_list_round_trips_as_the_host_wrote_it() -> None:
    options = _options(phases=TWO, phases_to_win=2)
    assert RULESET.options_to_json(options)["phases"] == TWO  # plain data, no codec tags
    assert RULESET.parse_options(RULESET.options_to_json(options)) == options
    assert phases(options) == (phase((S, 3)), phase((CR, 4), (S, 2)))


# -- malformed lists are refused, naming the field ------------------------------------------------------


@pytest.mark.parametrize(("raw", "field"), [
    ([], "phases"),
    ("4 sets of 2", "phases"),
    ({"kind": "set", "size": 3}, "phases"),
    ([[{"kind": "set", "size": 2}]] * 21, "phases"),
    ([[]], "phases[0]"),
    ([[{"kind": "set", "size": 2}], "set"], "phases[1]"),
    ([[{"kind": "set", "size": 2}] * 7], "phases[0]"),  # at most 6 groups
    ([[{"kind": "set", "size": 2}], [{"kind": "set", "size": 6}, {"kind": "colour_run", "size": 5}]],
     "phases[1]"),  # 11 cards: could not be laid from a hand of 11 with a card left to end the turn
    ([[{"kind": "set", "size": 1}]], "phases[0][0]"),  # C-2: a set has at least 2 cards
    ([[{"kind": "colour", "size": 1}]], "phases[0][0]"),
    ([[{"kind": "run", "size": 2}]], "phases[0][0]"),  # a run at least 3
    ([[{"kind": "colour_run", "size": 2}]], "phases[0][0]"),
    ([[{"kind": "run", "size": 13}]], "phases[0][0]"),  # C-1: numbers 1..12
    ([[{"kind": "set", "size": 11}]], "phases[0][0]"),
    ([[{"kind": "pair", "size": 2}]], "phases[0][0]"),
    ([[{"kind": "set"}]], "phases[0][0]"),
    ([[{"kind": "set", "size": "3"}]], "phases[0][0]"),
    ([[{"kind": "set", "size": True}]], "phases[0][0]"),
    ([[{"kind": "set", "size": 2, "extra": 1}]], "phases[0][0]"),
    ([[{"kind": "set", "size": 2}], [{"kind": "set", "size": 2}, "run"]], "phases[1][1]"),
])
def test_R3_C2_malformed_phase_lists_are_refused_with_the_field(raw: Any, field: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        RULESET.parse_options({"phases": raw})
    assert err.value.code == "invalid_options"
    assert err.value.field == field, err.value.message


@pytest.mark.parametrize(("raw", "field"), [
    ({"phases": TWO, "phases_to_win": 3}, "phases_to_win"),  # the N-th phase of the custom list
    ({"phases": TWO, "phase_selection": "even", "phases_to_win": 2}, "phases_to_win"),
    ({"phases": TWO[:1], "phase_selection": "even"}, "phase_selection"),  # one phase: no even phase to play
])
def test_R15_variants_are_checked_against_the_custom_list(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        RULESET.parse_options(raw)
    assert err.value.field == field


# -- the custom list drives the game --------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "seq"), [
    ({"phases": TWO}, (1, 2)),
    ({"phases": TWO, "phases_to_win": 1}, (1,)),
    ({"phases": TWO * 2, "phase_selection": "even"}, (2, 4)),
    ({"phases": TWO * 2 + TWO[:1], "phase_selection": "odd", "phases_to_win": 2}, (1, 3)),
])
def test_R15_sequences_of_a_custom_list(raw: dict[str, Any], seq: tuple[int, ...]) -> None:
    assert sequence(RULESET.parse_options(raw)) == seq


def test_R3_C3_custom_phase_is_laid_and_shown_in_the_views() -> None:
    """The seat's phase, its description in every view, ``my_phase``, the hint and the lay-down all follow the
    custom list (C-3 validation with R-4 jokers: the colour run takes a ranged joker of its colour)."""
    options = _options(phases=TWO)
    state = crafted(["g3 g4 J1-6:gb g6 r9 y9 b1", "r1 r2 r3 r4"], phases=[1, 0], options=options)
    assert (phase_number(state, 0), phase_number(state, 1)) == (2, 1)
    assert current_phase(state, 0) == phase((CR, 4), (S, 2))
    view = RULESET.player_view(state, 0)
    assert [p["phase_description"] for p in view["players"]] == ["1 colour run of 4 + 1 set of 2", "1 set of 3"]
    assert view["my_phase"] == TWO[1]
    assert view["phases"] == [{"number": 1, "description": "1 set of 3", "groups": TWO[0]},
                              {"number": 2, "description": "1 colour run of 4 + 1 set of 2", "groups": TWO[1]}]
    spectator = RULESET.player_view(state, None)
    assert spectator["players"][1]["phase_description"] == "1 set of 3" and "my_phase" not in spectator
    laid = hint(state, 0)
    assert laid is not None and sorted(len(g) for g in laid) == [2, 4]
    assert any(isinstance(c, LayPhase) for c in RULESET.legal_commands(state, 0))
    after, events = RULESET.apply(state, 0, LayPhase(laid))
    assert any(isinstance(e, PhaseLaid) for e in events) and after.players[0].laid
    assert {g.kind for g in after.table} == {CR, S}


def test_R3_C3_a_custom_table_refuses_that_numbers_default_phase() -> None:
    """C-3: on a custom table phase 1 is the host's 1 set of 3, not R-3's 4 sets of 2."""
    state = crafted(["r1 y1 r2 y2 r3 y3 r4 y4 b9", "g1"], options=_options(phases=TWO))
    four_pairs = state.players[0].hand[:8]
    with pytest.raises(IllegalMove):
        RULESET.apply(state, 0, LayPhase(tuple(ids(four_pairs[i:i + 2]) for i in range(0, 8, 2))))
    assert hint(state, 0) is None  # no three of a kind in that hand


def _finish(state: MasterState, laid: tuple[bool, ...]) -> tuple[MasterState, list[object]]:
    """Seat 0 (one card left) discards its last card; ``laid`` says whose phase is down."""
    players = tuple(replace(p, laid=laid[i]) for i, p in enumerate(state.players))
    state, events = RULESET.apply(replace(state, players=players), 0, Discard(state.players[0].hand[0].id))
    return state, list(events)


def test_R14_the_game_ends_with_the_last_phase_of_a_custom_list() -> None:
    """R-14 with a custom list of two: whoever lays phase 2 ends the game; a seat on phase 1 moves on."""
    state = crafted(["r2", "y1 y2 y3"], phases=[1, 0], options=_options(phases=TWO))
    after, events = _finish(state, (True, True))
    assert after.stage is Stage.OVER and after.winners == (0,)
    assert next(e for e in events if isinstance(e, RoundEnded)).advanced == (0, 1)
    assert after.history[-1].made == (2, 1)
    state = crafted(["r2", "y1 y2 y3"], phases=[0, 0], options=_options(phases=TWO))
    after, _ = _finish(state, (True, False))
    assert after.stage is not Stage.OVER and after.round == 2 and after.players[0].phase == 1


def test_R15_a_custom_list_of_two_fixed_rounds_plays_two() -> None:
    """R-15 ``fixed_rounds``: one round per phase of the (shorter) custom list; then the lowest total wins."""
    options = _options(phases=TWO, fixed_rounds=True)
    state = crafted(["r2", "y1 y2 y3"], options=options)
    after, _ = _finish(state, (False, False))
    assert after.round == 2 and phase_number(after, 0) == phase_number(after, 1) == 2
    after, _ = _finish(replace(state, round=2), (False, False))
    assert after.stage is Stage.OVER and after.winners == (0,)


@pytest.mark.parametrize(("seed", "players", "raw"), [
    (3, 2, {"phases": TWO}),
    (8, 3, {"phases": TWO, "scoring": "points"}),
    (5, 4, {"phases": TWO, "fixed_rounds": True}),
    (2, 2, {"phases": [[{"kind": "colour", "size": 5}], [{"kind": "run", "size": 5}], [{"kind": "set", "size": 4}]],
            "phase_selection": "odd"}),
])
def test_R3_a_whole_game_on_a_custom_list_ends(seed: int, players: int, raw: dict[str, Any]) -> None:
    """A seeded game on a short custom list is played to its end: every seat's phase and its description in
    the views come from the custom list, and only its phases are ever made."""
    options = RULESET.parse_options(raw)
    listed = phases(options)
    allowed = {listed[n - 1].describe() for n in sequence(options)}
    state = None
    seen: set[str] = set()
    for step in playout(RULESET, seed, players, options, max_steps=6000):
        state = step.after
        if step.after.stage is not Stage.OVER:
            view = RULESET.player_view(step.after, step.seat)
            described = {p["phase_description"] for p in view["players"]}
            assert described <= allowed, described
            seen |= described
    assert state is not None and state.stage is Stage.OVER and state.winners
    assert {n for r in state.history for n in r.made} <= {0, *sequence(options)}
    assert len(seen) >= 1
    if options.fixed_rounds:
        assert state.round == len(sequence(options))
    else:
        assert any(state.players[s].phase >= len(sequence(options)) for s in state.winners)
