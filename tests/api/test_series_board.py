"""REST: the series of a board game table (B-8): a player's ``score`` is the field of their marker (higher is
better; the cards carry no points), so the standings total the fields gained and average no penalty points."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server_helpers import bearer, new_table, play_to_end


def test_B8_board_standings_count_fields_not_penalty_points(client: TestClient) -> None:
    t = new_table(client, players=2, ruleset="board", options={"phases_to_win": 2}, start=True)
    play_to_end(client, t, seed=3)
    data = client.get(f"/api/tables/{t.id}/series", headers=bearer(t.tokens[0])).json()
    game = data["games"][0]
    assert game["ruleset"] == "board" and game["status"] == "finished"
    by_name = {p["name"]: p["score"] for p in game["players"]}
    for row in data["standings"]:
        assert row["average_score"] is None
        assert row["fields"] == by_name[row["name"]]
    # the card games keep their average of penalty points, and have no fields
    m = new_table(client, players=2, options={"phases_to_win": 2}, start=True)
    play_to_end(client, m, seed=3)
    rows = client.get(f"/api/tables/{m.id}/series", headers=bearer(m.tokens[0])).json()["standings"]
    assert all(r["fields"] is None and r["average_score"] is not None for r in rows)
