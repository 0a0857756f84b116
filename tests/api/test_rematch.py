"""Rematch by consent: "Play again" is an offer every human player of the finished game accepts or declines in
their own page; the next game is dealt when all accepted, or by the host with those who accepted (a new
seating); nothing is dealt (and no turn timer runs) before."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server_helpers import Table, bearer, command_body, new_table, play_to_end

SHORT = {"phases_to_win": 1}


@pytest.fixture()
def finished(client: TestClient) -> Table:
    """A three-player Mattel table whose first game is over."""
    t = new_table(client, players=3, options=SHORT, start=True)
    play_to_end(client, t, seed=3)
    return t


def post(client: TestClient, t: Table, seat: int, path: str, body: Any = None) -> Any:
    r = client.post(f"/api/tables/{t.id}/rematch{path}", json=body, headers=bearer(t.tokens[seat]))
    return r


def answers(info: dict[str, Any]) -> list[str]:
    return [a["answer"] for a in info["rematch"]["answers"]]


def test_the_next_game_is_dealt_when_every_player_accepted(client: TestClient, finished: Table) -> None:
    t = finished
    r = post(client, t, 1, "")
    assert r.status_code == 200, r.text
    info = r.json()
    assert info["status"] == "finished" and info["game"]["number"] == 1  # an offer, not a deal
    assert info["rematch"]["by"] == 1 and info["rematch"]["after"] == 1
    assert info["rematch"]["choices"]["phase_selection"] == ["all", "even", "odd"]  # for the host's editor
    assert answers(info) == ["pending", "accepted", "pending"]
    assert client.get(f"/api/tables/{t.id}").json()["rematch"] == info["rematch"]  # public table info too
    info = post(client, t, 0, "/answer", {"accept": True}).json()
    assert info["status"] == "finished" and answers(info) == ["accepted", "accepted", "pending"]
    info = post(client, t, 2, "/answer", {"accept": True}).json()
    assert info["status"] == "playing" and info["game"]["number"] == 2 and info["rematch"] is None
    assert [s["name"] for s in client.get(f"/api/tables/{t.id}/games/2/replay",
                                          headers=bearer(t.tokens[0])).json()["seats"]] == ["Host", "P1", "P2"]
    assert post(client, t, 0, "").json()["error"]["code"] == "game_not_finished"


def test_a_decline_leaves_it_undealt_host_may_start_anyway(client: TestClient,
                                                                          finished: Table) -> None:
    t = finished
    post(client, t, 0, "")
    info = post(client, t, 2, "/answer", {"accept": False}).json()
    assert info["status"] == "finished" and answers(info) == ["accepted", "pending", "declined"]
    info = post(client, t, 1, "/answer", {"accept": True}).json()
    assert info["status"] == "finished" and answers(info) == ["accepted", "accepted", "declined"]
    r = post(client, t, 1, "/start")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    info = post(client, t, 0, "/start").json()
    assert info["status"] == "playing" and info["game"]["number"] == 2 and info["game"]["players"] == 2
    # the new seating: the one who declined watches, and may not play
    view = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[2])).json()
    assert view["number"] == 2 and view["seat"] is None
    r = client.post(f"/api/tables/{t.id}/commands", json=command_body({"type": "draw", "pile": "draw"}),
                    headers=bearer(t.tokens[2]))
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"


def test_the_host_changing_the_options_asks_everyone_again(client: TestClient, finished: Table) -> None:
    t = finished
    post(client, t, 1, "")
    post(client, t, 2, "/answer", {"accept": True})
    r = post(client, t, 1, "", {"options": {"phases_to_win": 2}})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = post(client, t, 0, "", {"options": {"phases_to_win": 0}})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_options"
    info = post(client, t, 0, "", {"options": {"phases_to_win": 2}}).json()
    assert info["rematch"]["options"]["phases_to_win"] == 2 and info["rematch"]["by"] == 0
    assert answers(info) == ["accepted", "pending", "pending"]  # new terms: asked again
    post(client, t, 1, "/answer", {"accept": True})
    info = post(client, t, 2, "", None).json()  # offering when an offer is open accepts it
    assert info["status"] == "playing" and info["options"]["phases_to_win"] == 2
    view = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()
    assert view["number"] == 2


def test_bad_rematch_requests_change_nothing(client: TestClient) -> None:
    t = new_table(client, players=2, options=SHORT, start=True)
    r = post(client, t, 0, "")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_finished"
    play_to_end(client, t, seed=5)
    r = post(client, t, 1, "/answer", {"accept": True})
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_rematch_offer"
    r = post(client, t, 0, "/start")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_rematch_offer"
    r = client.post(f"/api/tables/{t.id}/rematch", headers=bearer("not-a-token"))
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    r = post(client, t, 0, "/answer", {"accept": "maybe"})
    assert r.status_code == 422
    post(client, t, 0, "")
    r = post(client, t, 0, "/start")  # alone is not enough for Mattel
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_enough_players"
    info = client.get(f"/api/tables/{t.id}").json()
    assert info["status"] == "finished" and answers(info) == ["accepted", "pending"]


def test_bots_accept_at_once(client: TestClient) -> None:
    t = new_table(client, players=1, seats=2, options=SHORT)
    r = client.post(f"/api/tables/{t.id}/bots", json={"level": "easy"}, headers=bearer(t.tokens[0]))
    assert r.status_code == 201, r.text
    service = client.app.state.service  # type: ignore[attr-defined]
    from sqlalchemy import update

    from app.persistence.models import Game
    assert client.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0])).status_code == 200
    with service.db.write() as s:  # the bot runner is not the subject here: the game is over
        s.execute(update(Game).where(Game.table_id == t.id).values(status="finished"))
    info = post(client, t, 0, "").json()
    assert info["status"] == "playing" and info["game"]["number"] == 2
