"""bench/denial.py measures what knowing the next player's takes would be worth; the bot itself stays public (C-9)."""

from __future__ import annotations

import random

from app.bots import hard
from app.bots.driver import bot_inputs
from app.bots.tactics import tactics_for
from app.rules import registry
from app.rules.core.commands import Discard
from bench import denial


def test_the_denial_bench_plays_whole_games_with_and_without_the_oracle_c9_m4() -> None:
    ruleset = registry.get("mattel")
    for oracle in ("both", "none"):
        assert denial.play(ruleset, 3, 0, oracle) in (True, False)
    assert denial.play(ruleset, 3, 2, "both", players=4) in (True, False)  # four seats, hard in the third


def test_hard_discards_by_the_estimate_it_is_given_c9_m4() -> None:
    """The same position: an estimate that says one card will be taken keeps it from the pile."""
    ruleset = registry.get("mattel")
    state = ruleset.new_game(5, 2, ruleset.parse_options({}))
    while True:
        seat = ruleset.awaited(state)[0]
        view, legal = bot_inputs(ruleset, state, seat)
        discards = [c for c in legal if isinstance(c, Discard) and c.target is None]
        if discards and len(discards) == len(legal):
            break
        state, _ = ruleset.apply(state, seat, legal[0])
    tactics = tactics_for("mattel")
    chosen = hard.choose_discard(tactics, view, discards, random.Random(0))
    avoid = hard.discard_by(lambda card, *_: 1.0 if card.id == chosen.card else 0.0)
    assert avoid(tactics, view, discards, random.Random(0)).card != chosen.card
