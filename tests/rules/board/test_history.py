"""B-8 score sheet: each round's marker moves and laid phases are kept for the views (and the page's chart)."""

from __future__ import annotations

from app.rules.board import RULESET
from app.rules.board.state import BoardRoundEnded, MarkerMoved

from ..playout import playout


def test_B8_each_round_adds_a_score_row_matching_marker_moves() -> None:
    rounds = 0
    for step in playout(RULESET, 4, 3, RULESET.parse_options({})):
        ended = [e for e in step.events if isinstance(e, BoardRoundEnded)]
        if not ended:
            continue
        rounds += 1
        row = step.after.history[-1]
        assert row.round == ended[0].round and len(step.after.history) == rounds
        moves = {e.seat: e.fields for e in step.events if isinstance(e, MarkerMoved)}
        for seat in range(3):
            assert row.points[seat] == step.after.players[seat].phase - step.before.players[seat].phase
            assert (row.points[seat] > 0) == (seat in moves)
            assert (row.made[seat] > 0) == step.before.players[seat].laid
        view = RULESET.player_view(step.after, 0)
        assert view["history"][-1] == {"round": row.round, "points": list(row.points), "made": list(row.made)}
        assert [p["score"] for p in view["players"]] == [p.phase for p in step.after.players]
    assert rounds >= 2
