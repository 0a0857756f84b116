"""The play prompt's ``hits`` and ``discards`` (what clients highlight as drop targets) are exactly the hits
and discards the engine accepts (C-4, C-9; M-4, R-6, B-7): checked against ``apply`` itself, card by card,
group by group and end by end, on seeded games of every rule set."""

from __future__ import annotations

from itertools import islice
from typing import Any

import pytest

from app.rules import registry
from app.rules.core.commands import Discard, Hit, card_moves
from app.rules.core.errors import RuleError
from app.rules.core.groups import End
from tests.rules.playout import playout

PLAY_STAGES = {"play", "discard2"}


def accepted(ruleset: Any, state: Any, seat: int, command: Any) -> bool:
    try:
        ruleset.apply(state, seat, command)
    except RuleError:
        return False
    return True


def brute_force(ruleset: Any, state: Any, seat: int, view: dict[str, Any]) -> tuple[set[Any], set[int]]:
    """Every hit and discard ``apply`` accepts from ``seat``'s hand, tried one by one."""
    hand = [c["id"] for c in view["hand"]]
    targets = view["prompt"].get("skip_targets") or [None]
    ends = [("low", "high") if g["kind"] in ("run", "colour_run") else (None,) for g in view["table"]]
    hits = {(card, group, end)
            for card in hand for group in range(len(view["table"])) for end in ends[group]
            if accepted(ruleset, state, seat, Hit(card, group, None if end is None else End(end)))}
    discards = {card for card in hand
                if any(accepted(ruleset, state, seat, Discard(card, target)) for target in (*targets, None))}
    return hits, discards


@pytest.mark.parametrize("rid", registry.ruleset_ids())
def test_C4_prompt_hits_and_discards_are_what_the_engine_accepts(rid: str) -> None:
    ruleset = registry.get(rid)
    options = ruleset.parse_options({})
    checked = with_hits = 0
    for seed in (3, 4):
        steps = (s for s in playout(ruleset, seed, 3, options) if s.seat in ruleset.awaited(s.before))
        for step in islice(steps, 400):
            view = ruleset.player_view(step.before, step.seat)
            prompt = view["prompt"]
            if not prompt or prompt["action"] not in PLAY_STAGES:
                continue
            hits, discards = brute_force(ruleset, step.before, step.seat, view)
            listed = {(h["card"], h["group"], h["end"]) for h in prompt["hits"]}
            assert listed == hits, (rid, seed, prompt)
            assert set(prompt["discards"]) == discards, (rid, seed, prompt)
            assert len(prompt["discards"]) == len(discards)  # each card once (a skip has several targets)
            checked += 1
            with_hits += bool(hits)
    assert checked >= 20 and with_hits >= 3, (checked, with_hits)  # the games reached play with hits


def test_C9_card_moves_name_the_commands_cards_only() -> None:
    moves = card_moves([Hit(5, 1, End.LOW), Hit(5, 2), Discard(5), Discard(9, 2), Discard(9, 3), "draw"])
    assert moves == {"hits": [{"card": 5, "group": 1, "end": "low"}, {"card": 5, "group": 2, "end": None}],
                     "discards": [5, 9]}
