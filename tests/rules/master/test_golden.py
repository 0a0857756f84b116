"""Golden Master playthroughs (R-1..R-15): seeded games compared line by line with tests/rules/master/golden/.

Regenerate with ``UPDATE_GOLDEN=1`` after an intended change of behaviour. Every case must exercise every
action card: Take two (placed, two cards drawn, one kept), All mine (placed, keep choice at round end), Skip
(placed, turn skipped), Give me five (asked: offers, a card taken, replacement drawn; and declined), and an
action card without effect (R-7 second card, R-6 last card or R-10 ruling).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.rules.master import RULESET

from ..golden import check, render

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "two_players_three_phases": (21, 2, {"phases_to_win": 3}),
    "three_players_points_scoring": (13, 3, {"phases_to_win": 3, "scoring": "points"}),
    "four_players_odd_phases": (34, 4, {"phase_selection": "odd", "phases_to_win": 2}),
    "six_players_two_phases": (1, 6, {"phases_to_win": 2}),
}
EVERY_ACTION = ["take two#", "all mine#", "skip#", "give me five#",
                '"effect": "placed"', '"effect": "no_effect"', '"effect": "asked"', '"effect": "declined"',
                "two_cards_drawn", "take_two_chosen", "turn_skipped", "offers_asked", "card_offered",
                "offer_taken", "replacement_drawn", "keep_choices_asked", "hand_kept", "game_ended"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_R6_R11_golden_playthrough(name: str) -> None:
    seed, players, options = CASES[name]
    lines = render(RULESET, seed, players, RULESET.parse_options(options))
    text = "\n".join(lines)
    assert [need for need in EVERY_ACTION if need not in text] == []
    check(GOLDEN / f"{name}.txt", lines)
