"""bench/denial.py measures what knowing the next player's takes would be worth; the bot itself stays public (C-9)."""

from __future__ import annotations

from app.bots import hard
from app.rules import registry
from bench import denial


def test_the_denial_bench_plays_whole_games_and_gives_hard_back_its_public_estimate_c9_m4() -> None:
    ruleset = registry.get("mattel")
    public = hard.take_chance
    for oracle in ("both", "none"):
        assert denial.play(ruleset, 3, 0, oracle) in (True, False)
        assert hard.take_chance is public
