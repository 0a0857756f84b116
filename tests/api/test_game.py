"""REST: commands (idempotency, versions, engine errors), events since N, hints, replays and rematch,
played with real ``mattel`` commands chosen from the server-side legal commands."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from tests.server_helpers import bearer, command_body, new_table, pick, play, play_to_end, server_game

SHORT = {"phases_to_win": 1}


def test_command_is_applied_and_versioned(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    seat, command = pick(client, t.id, random.Random(1)) or (0, {})
    body = command_body(command, expected=0)
    r = client.post(f"/api/tables/{t.id}/commands", json=body, headers=bearer(t.tokens[seat]))
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["version"] == 1 and data["duplicate"] is False and data["events"]
    assert data["view"]["seat"] == seat
    # the same command id again: same result, applied once
    again = client.post(f"/api/tables/{t.id}/commands", json=body, headers=bearer(t.tokens[seat])).json()
    assert again["version"] == 1 and again["duplicate"] is True and again["events"] == data["events"]
    assert server_game(client, t.id)[2].version == 1
    # the other seat cannot reuse that id
    r = client.post(f"/api/tables/{t.id}/commands", json=body, headers=bearer(t.tokens[1 - seat]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "command_id_reused"


def test_stale_expected_version_applies_nothing(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    play(client, t, 2)
    seat, command = pick(client, t.id, random.Random(2)) or (0, {})
    r = client.post(f"/api/tables/{t.id}/commands", json=command_body(command, expected=1),
                    headers=bearer(t.tokens[seat]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    assert server_game(client, t.id)[2].version == 2
    r = client.post(f"/api/tables/{t.id}/commands", json=command_body(command, expected=2),
                    headers=bearer(t.tokens[seat]))
    assert r.status_code == 200 and r.json()["version"] == 3


def test_engine_errors_keep_their_codes(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    ruleset, state, _ = server_game(client, t.id)
    turn = ruleset.awaited(state)[0]
    other = bearer(t.tokens[1 - turn])
    mine = bearer(t.tokens[turn])
    url = f"/api/tables/{t.id}/commands"
    r = client.post(url, json=command_body({"type": "draw", "pile": "draw"}), headers=other)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_turn"
    r = client.post(url, json=command_body({"type": "fly"}), headers=mine)
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_command"
    r = client.post(url, json=command_body({"type": "discard", "card": 1}), headers=mine)
    assert r.status_code == 409 and r.json()["error"]["code"] not in ("", None)
    r = client.post(url, json={"command_id": "x"}, headers=mine)
    assert r.status_code == 422 and r.json()["error"]["field"] == "command"
    r = client.post(url, json=command_body({"type": "draw", "pile": "draw"}))
    assert r.status_code == 401
    assert server_game(client, t.id)[2].version == 0
    waiting = new_table(client, players=2)
    r = client.post(f"/api/tables/{waiting.id}/commands", json=command_body({"type": "draw"}),
                    headers=bearer(waiting.tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_started"


def test_spectators_cannot_play(client: TestClient) -> None:
    t = new_table(client, players=2, spectators=True, start=True)
    r = client.post(f"/api/tables/{t.id}/commands", json=command_body({"type": "draw", "pile": "draw"}))
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"


def test_events_since_are_redacted_per_seat(client: TestClient) -> None:
    t = new_table(client, players=2, spectators=True, start=True)
    play(client, t, 6, seed=3)
    record = {}
    for who, headers in [("0", bearer(t.tokens[0])), ("1", bearer(t.tokens[1])), ("spectator", {})]:
        r = client.get(f"/api/tables/{t.id}/events", params={"since": 2}, headers=headers)
        assert r.status_code == 200, r.text
        assert r.json()["version"] == 6 and r.json()["since"] == 2
        record[who] = r.json()["events"]
    drawn = [e for e in record["0"] if e["type"] == "card_drawn"]
    assert drawn
    for e0, e1, es in zip(record["0"], record["1"], record["spectator"], strict=True):
        if e0["type"] == "card_drawn" and e0["pile"] == "draw":
            assert (e0["card"] is None) != (e1["card"] is None)  # only the drawer sees it
            assert es["card"] is None
    r = client.get(f"/api/tables/{t.id}/events", params={"since": 7}, headers=bearer(t.tokens[0]))
    assert r.status_code == 422 and r.json()["error"]["field"] == "since"


def test_hint(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    r = client.get(f"/api/tables/{t.id}/hint", headers=bearer(t.tokens[0]))
    assert r.status_code == 200
    groups = r.json()["groups"]
    hand = {c["id"] for c in client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()
            ["view"]["hand"]}
    assert groups is None or all(set(g) <= hand for g in groups)
    assert client.get(f"/api/tables/{t.id}/hint").status_code == 401


def test_finished_game_replay_and_rematch(client: TestClient) -> None:
    t = new_table(client, players=2, options=SHORT, start=True)
    url = f"/api/tables/{t.id}"
    host = bearer(t.tokens[0])
    # before the end only the public record (tests/api/test_public_replay.py)
    r = client.get(f"{url}/games/1/replay", headers=host)
    assert r.status_code == 200 and r.json()["public"] is True and "seed" not in r.json()
    assert client.get(f"{url}/games/1/replay/0", headers=host).json()["public"] is True
    r = client.post(f"{url}/rematch", headers=host)
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_finished"
    steps = play_to_end(client, t, seed=5)
    info = client.get(url).json()
    assert info["status"] == "finished" and info["game"]["winners"]
    r = client.post(f"{url}/commands", json=command_body({"type": "draw", "pile": "draw"}), headers=host)
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    record = client.get(f"{url}/games/1/replay", headers=host).json()
    assert record["public"] is False
    assert record["version"] == steps == len(record["commands"])
    assert [c["seq"] for c in record["commands"]] == list(range(1, steps + 1))
    assert record["ruleset"] == "mattel" and record["options"]["phases_to_win"] == 1
    assert [s["name"] for s in record["seats"]] == ["Host", "P1"] and record["seed"] >= 0
    ruleset, final, _ = server_game(client, t.id)
    last = client.get(f"{url}/games/1/replay/{steps}", headers=host).json()
    assert last["state"] == ruleset.full_view(final) and last["command"]["seq"] == steps
    first = client.get(f"{url}/games/1/replay/0", headers=host).json()
    assert first["command"] is None and first["events"] == []
    middle = client.get(f"{url}/games/1/replay/3", headers=host).json()
    assert middle["step"] == 3 and middle["events"]
    r = client.get(f"{url}/games/1/replay/{steps + 1}", headers=host)
    assert r.status_code == 422 and r.json()["error"]["field"] == "step"
    assert client.get(f"{url}/games/9/replay", headers=host).status_code == 404
    # rematch: offered by one, accepted by the other: the same seats, the next game (tests/api/test_rematch.py)
    r = client.post(f"{url}/rematch", headers=bearer(t.tokens[1]))
    assert r.status_code == 200 and r.json()["status"] == "finished" and r.json()["rematch"]["by"] == 1
    r = client.post(f"{url}/rematch/answer", json={"accept": True}, headers=host)
    assert r.status_code == 200 and r.json()["game"]["number"] == 2 and r.json()["status"] == "playing"
    assert client.post(f"{url}/rematch", headers=host).json()["error"]["code"] == "game_not_finished"
    view = client.get(f"{url}/view", headers=host).json()
    assert view["number"] == 2 and view["version"] == 0
    assert client.get(f"{url}/games/1/replay", headers=host).status_code == 200
