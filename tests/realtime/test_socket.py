"""Websocket: snapshot, per-seat updates and redaction, commands and errors to the sender only,
reconnect with since=N, guards (size, malformed JSON, unknown types), spectators and the lobby."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tests.server_helpers import bearer, command_body, new_table, pick, play, server_game


def recv(ws: WebSocketTestSession, skip: tuple[str, ...] = ("table", "ping")) -> dict[str, Any]:
    """The next message that is not a table-info refresh (connected flags change as sockets come and go) or a
    heartbeat ping."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] not in skip:
            return msg


def quiet(ws: WebSocketTestSession) -> None:
    """Assert nothing but table refreshes is pending: a ping's pong comes next."""
    ws.send_json({"type": "ping", "ref": "q"})
    assert recv(ws) == {"type": "pong", "ref": "q"}


def socket(client: TestClient, table_id: str, token: str | None = None, **params: Any) -> Any:
    if token:
        params["token"] = token
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return client.websocket_connect(f"/ws/tables/{table_id}" + (f"?{query}" if query else ""))


def test_snapshot_then_per_seat_updates(client: TestClient) -> None:
    t = new_table(client, players=2, spectators=True, start=True)
    with socket(client, t.id, t.tokens[0]) as ws0, socket(client, t.id, t.tokens[1]) as ws1, \
            socket(client, t.id) as spectator:
        snaps = [recv(ws) for ws in (ws0, ws1, spectator)]
        assert [s["type"] for s in snaps] == ["snapshot"] * 3
        assert [s["seat"] for s in snaps] == [0, 1, None]
        assert all(s["version"] == 0 and s["table"]["table_id"] == t.id for s in snaps)
        hands = [{c["id"] for c in s["view"]["hand"]} for s in snaps[:2]]
        assert not hands[0] & hands[1]
        ruleset, state, _ = server_game(client, t.id)
        turn = ruleset.awaited(state)[0]
        r = client.post(f"/api/tables/{t.id}/commands", json=command_body({"type": "draw", "pile": "draw"}),
                        headers=bearer(t.tokens[turn]))
        assert r.status_code == 200
        drawn = r.json()["events"][0]["card"]["id"]
        updates = [recv(ws) for ws in (ws0, ws1, spectator)]
        assert all(u["type"] == "update" and u["version"] == 1 and u["since"] == 0 for u in updates)
        for seat, u in enumerate(updates):
            event = u["events"][0]
            assert event["type"] == "card_drawn"
            if seat == turn:
                assert event["card"]["id"] == drawn
                assert drawn in {c["id"] for c in u["view"]["hand"]}
            else:  # never another seat's card, in the events or in the view
                assert event["card"] is None
                assert drawn not in {c["id"] for c in (u["view"].get("hand") or [])}


def test_a_socket_never_receives_another_seats_drawn_card(client: TestClient) -> None:
    t = new_table(client, players=3, start=True)
    with socket(client, t.id, t.tokens[0]) as ws0, socket(client, t.id, t.tokens[1]) as ws1:
        recv(ws0), recv(ws1)
        done = play(client, t, 40, seed=21)
        for seat, ws in enumerate((ws0, ws1)):
            version = 0
            while version < done:
                u = recv(ws)
                assert u["type"] == "update" and u["version"] > version
                version = u["version"]
                for event in u["events"]:
                    if event["type"] == "card_drawn" and event["seat"] != seat and event["pile"] == "draw":
                        assert event["card"] is None
                hand = [c["id"] for c in u["view"]["hand"]]
                assert all("hand" not in p for p in u["view"]["players"])
            ruleset, state, _ = server_game(client, t.id)
            own = {c["id"] for c in ruleset.player_view(state, seat)["hand"]}
            assert set(hand) == own


def test_commands_over_the_socket_and_errors_to_the_sender_only(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    ruleset, state, _ = server_game(client, t.id)
    turn = ruleset.awaited(state)[0]
    with socket(client, t.id, t.tokens[turn]) as mine, socket(client, t.id, t.tokens[1 - turn]) as theirs:
        recv(mine), recv(theirs)
        theirs.send_json({"type": "command", "command_id": "c-1", "command": {"type": "draw", "pile": "draw"}})
        err = recv(theirs)
        assert err == {"type": "error", "ref": "c-1", "code": "not_your_turn", "message": err["message"]}
        quiet(mine)  # the error went to the sender only
        mine.send_json({"type": "command", "command_id": "c-2", "expected_version": 0,
                        "command": {"type": "draw", "pile": "draw"}})
        got = [recv(mine), recv(mine)]
        assert {m["type"] for m in got} == {"ack", "update"}
        ack = next(m for m in got if m["type"] == "ack")
        assert ack == {"type": "ack", "ref": "c-2", "version": 1, "duplicate": False}
        assert recv(theirs)["version"] == 1
        # same id again: acknowledged as a duplicate, nothing new applied or broadcast
        mine.send_json({"type": "command", "command_id": "c-2", "command": {"type": "draw", "pile": "draw"}})
        assert recv(mine) == {"type": "ack", "ref": "c-2", "version": 1, "duplicate": True}
        mine.send_json({"type": "command", "command_id": "c-3", "expected_version": 0,
                        "command": {"type": "draw", "pile": "draw"}})
        assert recv(mine)["code"] == "stale_version"
        mine.send_json({"type": "command", "command_id": "c-4", "command": {"type": "nope"}})
        assert recv(mine)["code"] == "invalid_command"
        mine.send_json({"type": "command", "command": {"type": "draw"}})
        assert recv(mine)["code"] == "invalid_command"
        quiet(theirs)


def test_socket_guards_keep_the_connection_usable(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    with socket(client, t.id, t.tokens[0]) as ws:
        recv(ws)
        ws.send_text("{not json")
        assert recv(ws)["code"] == "malformed_json"
        ws.send_text(json.dumps([1, 2]))
        assert recv(ws)["code"] == "invalid_message"
        ws.send_json({"type": "dance"})
        assert recv(ws)["code"] == "unknown_type"
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 20_000}))
        assert recv(ws)["code"] == "message_too_large"
        ws.send_bytes(b'{"type": "ping", "ref": 1}')
        assert recv(ws) == {"type": "pong", "ref": 1}
        quiet(ws)


def test_reconnect_with_since_gets_exactly_what_was_missed(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    play(client, t, 2, seed=4)
    with socket(client, t.id, t.tokens[1], since=2) as ws:
        first = recv(ws)
        assert first["type"] == "update" and first["since"] == 2 and first["version"] == 2
        assert first["events"] == []
    play(client, t, 5, seed=9)
    version = server_game(client, t.id)[2].version
    with socket(client, t.id, t.tokens[1], since=2) as ws:
        missed = recv(ws)
    rest = client.get(f"/api/tables/{t.id}/events", params={"since": 2}, headers=bearer(t.tokens[1])).json()
    assert missed["type"] == "update" and missed["version"] == version
    assert missed["events"] == rest["events"] and missed["events"]
    view = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[1])).json()["view"]
    assert missed["view"] == view
    # a since from the future or from another game gets a fresh snapshot
    with socket(client, t.id, t.tokens[1], since=version + 5) as ws:
        assert recv(ws)["type"] == "snapshot"
    with socket(client, t.id, t.tokens[1], since=1, game=999999) as ws:
        assert recv(ws)["type"] == "snapshot"


def test_authentication_paths(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    with client.websocket_connect(f"/ws/tables/{t.id}", headers=bearer(t.tokens[1])) as ws:
        assert recv(ws)["seat"] == 1
    client.cookies.set(f"p10_seat_{t.id}", t.tokens[0])
    with client.websocket_connect(f"/ws/tables/{t.id}") as ws:
        assert recv(ws)["seat"] == 0
    client.cookies.clear()
    with client.websocket_connect(f"/ws/tables/{t.id}") as ws:  # no spectators: must authenticate first
        assert recv(ws)["code"] == "bad_token"
        ws.send_json({"type": "ping"})
        assert recv(ws)["code"] == "bad_token"
        ws.send_json({"type": "auth", "token": t.tokens[1]})
        assert recv(ws)["seat"] == 1
    with socket(client, t.id, "forged") as ws:
        assert recv(ws)["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with socket(client, "missing") as ws:
        assert recv(ws)["code"] == "table_not_found"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_spectator_upgrades_to_a_seat_with_auth(client: TestClient) -> None:
    t = new_table(client, players=2, spectators=True, start=True)
    with socket(client, t.id) as ws:
        snap = recv(ws)
        assert snap["seat"] is None and not snap["view"].get("hand")
        ws.send_json({"type": "command", "command_id": "s", "command": {"type": "draw", "pile": "draw"}})
        assert recv(ws)["code"] == "bad_token"
        ws.send_json({"type": "auth", "token": t.tokens[0]})
        snap = recv(ws)
        assert snap["type"] == "snapshot" and snap["seat"] == 0 and snap["view"]["hand"]


def test_lobby_sockets_follow_joins_and_the_start(client: TestClient) -> None:
    t = new_table(client, players=1, seats=3)
    with socket(client, t.id, t.tokens[0]) as host:
        snap = recv(host)
        assert snap["type"] == "snapshot" and snap["view"] is None and snap["game_id"] is None
        assert snap["table"]["seats"][0]["connected"] is True
        r = client.post(f"/api/tables/{t.id}/join", json={"name": "Zed", "code": t.code})
        client.cookies.clear()
        token = r.json()["token"]
        table = recv(host, skip=())
        assert table["type"] == "table" and [s["name"] for s in table["table"]["seats"]] == ["Host", "Zed"]
        client.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0]))
        started = recv(host)
        assert started["type"] == "snapshot" and started["view"]["hand"] and started["game_id"]
        with socket(client, t.id, token) as zed:
            assert recv(zed)["seat"] == 1
        seat, command = pick(client, t.id, random.Random(0)) or (0, {})
        client.post(f"/api/tables/{t.id}/commands", json=command_body(command),
                    headers=bearer([t.tokens[0], token][seat]))
        assert recv(host)["version"] == 1


def test_a_removed_seat_receives_seat_removed_before_the_close(client: TestClient) -> None:
    """The documented error frame arrives before the 4403 close (closing used to cancel the writer first)."""
    for _ in range(3):
        t = new_table(client, players=2, seats=3)
        with socket(client, t.id, t.tokens[1]) as ws:
            assert recv(ws)["type"] == "snapshot"
            r = client.delete(f"/api/tables/{t.id}/seats/1", headers=bearer(t.tokens[0]))
            assert r.status_code == 200, r.text
            assert recv(ws) == {"type": "error", "ref": None, "code": "seat_removed",
                                "message": "Your seat was removed"}
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
