"""Moving a seat to another device: a one-time link (with its QR code) that the other device confirms; the new
device plays on with a new token while the old device's token and open sockets are refused."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.api.devices import device_name
from app.main import create_app
from app.realtime.backends import MemoryNotifier
from tests.api.test_my_tables import play_until_awaited
from tests.server_helpers import bearer, command_body, new_table


def transfer(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    r = client.post(f"/api/tables/{table_id}/seat/transfer", headers=bearer(token))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 "
           "Mobile Safari/537.36")


def test_a_device_is_named_by_its_user_agent() -> None:
    assert device_name(ANDROID) == "Pixel 8 · Chrome Mobile"
    iphone = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
              "Version/17.4 Mobile/15E148 Safari/604.1")
    assert device_name(iphone) == "iPhone · Mobile Safari"
    linux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Firefox/126.0"
    assert device_name(linux) == "Linux · Firefox"
    assert device_name(None) is None and device_name("") is None and device_name("x" * 5000) is None


def code_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["code"][0]


def test_a_seat_moves_to_a_new_device_and_the_old_is_refused(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    offer = transfer(client, t.id, t.tokens[1])
    assert urlsplit(offer["link"]).path == f"/tables/{t.id}/move"
    assert offer["link"].startswith(f"/tables/{t.id}/move?code=")  # no page origin (no browser): relative
    assert offer["qr_svg"].startswith("<svg") and "<path" in offer["qr_svg"]
    with client.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[1]}") as old_socket:
        assert old_socket.receive_json()["type"] == "snapshot"
        phone = TestClient(client.app, headers={"User-Agent": ANDROID})
        r = phone.post(f"/api/tables/{t.id}/seat/claim", json={"code": code_of(offer["link"])})
        assert r.status_code == 200, r.text
        claimed = r.json()
        assert claimed["seat"] == 1 and claimed["name"] == "P1" and claimed["token"] != t.tokens[1]
        assert phone.cookies.get(f"p10_seat_{t.id}") == claimed["token"]
        # the old device's open socket is told and closed
        while True:
            msg = old_socket.receive_json()
            if msg["type"] == "error":
                break
        # ... with where the seat went (the new device in words, from its User-Agent), in a capitalised sentence
        assert msg["code"] == "seat_moved" and msg["device"] == "Pixel 8 · Chrome Mobile"
        assert msg["message"] == "Your seat was moved to another device (Pixel 8 · Chrome Mobile)"
        with pytest.raises(WebSocketDisconnect) as closed:
            old_socket.receive_json()
        assert closed.value.code == 4403
    # the old token is refused everywhere; the new device plays on
    r = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[1]))
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    assert phone.get(f"/api/tables/{t.id}/view").json()["seat"] == 1
    play_until_awaited(client, t, 1)
    r = client.post(f"/api/tables/{t.id}/commands", json=command_body({"type": "draw", "pile": "draw"}),
                    headers=bearer(t.tokens[1]))
    assert r.status_code == 401
    r = phone.post(f"/api/tables/{t.id}/commands", json=command_body({"type": "draw", "pile": "draw"}))
    assert r.status_code == 200, r.text
    with phone.websocket_connect(f"/ws/tables/{t.id}") as new_socket:
        assert new_socket.receive_json()["seat"] == 1
        new_socket.send_json({"type": "ping", "ref": "still-here"})
        while (msg := new_socket.receive_json())["type"] != "pong":
            pass
        assert msg["ref"] == "still-here"
    # the link works once
    r = TestClient(client.app).post(f"/api/tables/{t.id}/seat/claim", json={"code": code_of(offer["link"])})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_transfer_code"


def test_a_new_link_replaces_the_last_bad_ones_change_nothing(client: TestClient) -> None:
    t = new_table(client, players=2, spectators=True)
    first = transfer(client, t.id, t.tokens[0])
    second = transfer(client, t.id, t.tokens[0])
    r = client.post(f"/api/tables/{t.id}/seat/claim", json={"code": code_of(first["link"])})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_transfer_code"
    other = new_table(client, players=1)
    r = client.post(f"/api/tables/{other.id}/seat/claim", json={"code": code_of(second["link"])})
    assert r.status_code == 403  # a code moves a seat of its own table only
    r = client.post(f"/api/tables/{t.id}/seat/transfer")  # a spectator has no seat to move
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    r = client.post(f"/api/tables/{t.id}/seat/claim", json={})
    assert r.status_code == 422
    assert client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()["seat"] == 0


def test_an_expired_link_is_refused(settings: Any) -> None:
    stale = settings.model_copy(update={"seat_transfer_minutes": -1.0})
    with TestClient(create_app(stale)) as client:
        t = new_table(client, players=2)
        offer = transfer(client, t.id, t.tokens[1])
        r = client.post(f"/api/tables/{t.id}/seat/claim", json={"code": code_of(offer["link"])})
        assert r.status_code == 410 and r.json()["error"]["code"] == "transfer_expired"
        r = client.post(f"/api/tables/{t.id}/seat/claim", json={"code": code_of(offer["link"])})
        assert r.status_code == 403  # gone after the first try
        assert client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[1])).json()["seat"] == 1


def test_a_socket_with_the_old_token_mid_move_is_refused(client: TestClient,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The old device's socket signs in, then the seat moves before the socket has joined its seat (so the
    move's message finds no socket to close): the socket is refused all the same."""
    t = new_table(client, players=2, start=True)
    code = code_of(transfer(client, t.id, t.tokens[1])["link"])
    app: Any = client.app
    service, real = app.state.service, app.state.service.authenticate
    claimed: list[dict[str, Any]] = []

    def sign_in_then_move(table_id: str, token: str | None) -> Any:
        result = real(table_id, token)
        if token == t.tokens[1] and not claimed:  # the old token passed; now the phone claims the seat
            notifier = service.notifier  # as the claim route picks it (app/api/my_seats.py)
            if not isinstance(notifier, MemoryNotifier):
                notifier = MemoryNotifier(app.state.hub)
            claimed.append(app.state.seat_transfers.claim(t.id, code, notifier))
        return result

    monkeypatch.setattr(service, "authenticate", sign_in_then_move)
    with client.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[1]}") as old_socket:
        messages = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                messages.append(old_socket.receive_json())
    # Refused by the check after joining (4401 bad_token) or, where the move's message comes later (Postgres
    # NOTIFY), by that message (4403 seat_moved); before the check it stayed until the heartbeat dropped it.
    assert claimed and messages[-1]["type"] == "error"
    assert (closed.value.code, messages[-1]["code"]) in ((4401, "bad_token"), (4403, "seat_moved"))
