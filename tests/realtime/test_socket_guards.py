"""Websocket hardening: the Origin check (own origin plus a configured list), failed authentications limited
per connection and per address, and bad input (deep JSON, NUL, numbers out of range) answered with an error
frame on a socket that stays usable."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from app.settings import Settings
from tests.server_helpers import new_table


def recv(ws: WebSocketTestSession) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] != "table":
            return msg


def test_a_socket_from_another_sites_page_is_refused(settings: Settings) -> None:
    allowed = settings.model_copy(update={"ws_allowed_origins": "https://friends.example, https://b.example"})
    with TestClient(create_app(allowed)) as client:
        t = new_table(client, players=2, start=True)
        url = f"/ws/tables/{t.id}?token={t.tokens[0]}"
        for origin in ("https://evil.example", "http://testserver.evil.example", "null", "https://friends.example.org"):
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect(url, headers={"origin": origin}) as ws:
                ws.receive_json()
            assert refused.value.code == 4403, origin
        for origin in ("http://testserver", "https://friends.example", "https://B.example"):
            with client.websocket_connect(url, headers={"origin": origin}) as ws:
                assert recv(ws)["type"] == "snapshot", origin
        with client.websocket_connect(url) as ws:  # no Origin: not a browser
            assert recv(ws)["type"] == "snapshot"


def test_failed_authentications_close_then_refuse_the_address(settings: Settings) -> None:
    limited = settings.model_copy(update={"ws_auth_failures_per_connection": 3, "ws_auth_failures_per_address": 5})
    app = create_app(limited)
    with TestClient(app, client=(f"10.9.{uuid.uuid4().hex[:6]}", 1)) as guesser, \
            TestClient(app, client=(f"10.8.{uuid.uuid4().hex[:6]}", 1)) as player:
        t = new_table(guesser, players=2, start=True)
        with guesser.websocket_connect(f"/ws/tables/{t.id}") as ws:  # no token: must send auth
            assert recv(ws)["code"] == "bad_token"
            for i in range(3):
                ws.send_json({"type": "auth", "token": f"guess{i}"})
                assert recv(ws)["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
        for i in range(2):  # failures 4 and 5, a token in the URL
            with guesser.websocket_connect(f"/ws/tables/{t.id}?token=guess-url{i}") as ws:
                assert recv(ws)["code"] == "bad_token"
        with guesser.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}") as ws:
            assert recv(ws)["code"] == "rate_limited"  # even the right token, from this address, for now
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
        with player.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}") as ws:
            assert recv(ws)["type"] == "snapshot"  # another address is not affected
            ws.send_json({"type": "auth", "token": "wrong"})  # a seated socket's wrong re-auth counts too
            assert recv(ws)["code"] == "bad_token"
            ws.send_json({"type": "ping", "ref": 1})
            assert recv(ws) == {"type": "pong", "ref": 1}


@pytest.mark.parametrize("since", ["abc", "-1", "1.5", "", "%E2%91%A0", str(2**31)])
def test_a_bad_since_gets_an_error_frame_then_a_snapshot(client: TestClient, since: str) -> None:
    """Not a handshake refusal (403): the socket opens, says ``invalid_since`` and sends a snapshot."""
    t = new_table(client, players=2, start=True)
    with client.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}&since={since}") as ws:
        error = recv(ws)
        assert error["type"] == "error" and error["code"] == "invalid_since" and error["ref"] is None, error
        assert recv(ws)["type"] == "snapshot"
        ws.send_json({"type": "ping", "ref": 1})
        assert recv(ws) == {"type": "pong", "ref": 1}


def test_bad_socket_input_gets_error_frames_and_the_socket_stays(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    with client.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}&since={2**63}&game={10**30}") as ws:
        assert [recv(ws)["code"], recv(ws)["code"]] == ["invalid_since", "invalid_since"]  # since, then game
        assert recv(ws)["type"] == "snapshot"  # numbers out of range: as if absent
        ws.send_text('{"type": "ping", "x": ' + "[" * 5000 + "]" * 5000 + "}")
        assert recv(ws)["code"] == "malformed_json"
        ws.send_json({"type": "command", "command_id": "a\u0000b", "command": {"type": "draw", "pile": "draw"}})
        assert recv(ws)["code"] == "invalid_command"
        ws.send_json({"type": "command", "command_id": "big", "expected_version": 2**63,
                      "command": {"type": "draw", "pile": "draw"}})
        assert recv(ws)["code"] == "invalid_command"
        ws.send_text(json.dumps({"type": "ping", "ref": "still here"}))
        assert recv(ws) == {"type": "pong", "ref": "still here"}
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/tables/{t.id}%00") as ws:
        ws.receive_json()
