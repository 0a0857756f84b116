"""Bots play a host's own phase list (R-3 Master, B-11 board): they read their phase from the view's
``my_phase`` and the engine's solver, so a custom list (colour runs included in Master, C-2) needs nothing more."""

from __future__ import annotations

from typing import Any

import pytest

from app.bots.driver import play_game
from app.rules import registry

MASTER = [[{"kind": "colour_run", "size": 4}], [{"kind": "set", "size": 3}, {"kind": "colour", "size": 4}]]
BOARD = [[{"kind": "run", "size": 4}], [{"kind": "set", "size": 2}, {"kind": "colour", "size": 4}]]


@pytest.mark.parametrize(("ruleset_id", "options"), [
    ("master", {"phases": MASTER}),
    ("master", {"phases": MASTER, "fixed_rounds": True}),
    ("master", {"phases": MASTER + MASTER[:1], "phase_selection": "even"}),
    ("board", {"phases": BOARD}),
])
def test_bots_finish_a_game_on_a_custom_phase_list(ruleset_id: str, options: dict[str, Any]) -> None:
    ruleset = registry.get(ruleset_id)
    numbers = set(range(1, len(options["phases"]) + 1))
    for seed in range(2):
        record = play_game(ruleset, ["normal", "easy", "normal"], seed=seed, options=options)
        assert record.winners
        tried = {n for per_seat in record.first_try.values() for n in per_seat}
        assert tried and tried <= numbers, tried
        if options.get("phase_selection") == "even":
            assert tried == {2}
