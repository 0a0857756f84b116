"""The play prompt's ``plays`` (R-6..R-11): where each legal action-card play ends, as the engine then does it."""

from __future__ import annotations

import pytest

from app.rules import registry
from app.rules.master.state import ActionPlayed, PlayAction, Stage
from tests.rules.playout import playout

RULESET = registry.get("master")


@pytest.mark.parametrize("seed", [3, 11, 21, 40])
@pytest.mark.parametrize("players", [2, 4])
def test_R6_R11_prompt_plays_say_where_each_action_play_ends(seed: int, players: int) -> None:
    """R-7..R-11: every legal ``play_action`` is listed once per card and target, and its ``to`` is the seat
    the card then lies in front of (``None``: the blue pile), as the ``action_played`` event says."""
    options = RULESET.parse_options({"phases_to_win": 2})
    checked = 0
    for step in playout(RULESET, seed, players, options):
        state, seat = step.before, step.seat
        if state.stage is not Stage.PLAY:
            continue
        plays = RULESET.player_view(state, seat)["prompt"]["plays"]
        legal = [c for c in RULESET.legal_commands(state, seat) if isinstance(c, PlayAction)]
        assert sorted((p["card"], p["target"] if p["target"] is not None else -1) for p in plays) == \
            sorted({(c.card, c.target if c.target is not None else -1) for c in legal})
        hand = {c.id for c in state.players[seat].hand}
        for play in plays:
            assert play["card"] in hand  # only the seat's own cards (C-9)
            _, events = RULESET.apply(state, seat, PlayAction(play["card"], play["target"]))
            played = next(e for e in events if isinstance(e, ActionPlayed))
            assert play["to"] == played.target, (play, played)
            checked += 1
    assert checked > 0
