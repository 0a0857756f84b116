"""Golden Mattel playthroughs (M-1..M-9): seeded games compared line by line with tests/rules/mattel/golden/."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.rules.mattel import RULESET

from ..golden import check, render

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "two_players_two_phases": (7, 2, {"phases_to_win": 2}),
    "four_players_even_fixed_rounds": (11, 4, {"phase_selection": "even", "fixed_rounds": True}),
    "six_players_first_phase": (3, 6, {"phases_to_win": 1}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_M_golden_playthrough(name: str) -> None:
    seed, players, options = CASES[name]
    check(GOLDEN / f"{name}.txt", render(RULESET, seed, players, RULESET.parse_options(options)))
