"""Table chat and emoji reactions: seated players only, validated, rate-limited, pushed to every socket."""

from __future__ import annotations

from typing import Any


def _table(client: Any, spectators: bool = False) -> tuple[str, str, str]:
    created = client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Anna",
                                               "spectators": spectators}).json()
    joined = client.post(f"/api/tables/{created['table_id']}/join",
                         json={"name": "Ben", "code": created["join_code"]}).json()
    return created["table_id"], created["token"], joined["token"]


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_message_reaches_the_other_seat_over_its_socket(client: Any) -> None:
    table_id, anna, ben = _table(client)
    client.cookies.clear()
    with client.websocket_connect(f"/ws/tables/{table_id}?token={ben}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        sent = client.post(f"/api/tables/{table_id}/chat", json={"text": "  hello  "}, headers=_auth(anna))
        assert sent.status_code == 201
        message = ws.receive_json()
        while message["type"] != "chat":
            message = ws.receive_json()
        assert message["name"] == "Anna" and message["seat"] == 0 and message["text"] == "hello"
        client.post(f"/api/tables/{table_id}/chat", json={"emoji": "🎉"}, headers=_auth(ben))
        message = ws.receive_json()
        while message["type"] != "chat":
            message = ws.receive_json()
        assert message["emoji"] == "🎉" and message["name"] == "Ben"
    log = client.get(f"/api/tables/{table_id}/chat", headers=_auth(ben)).json()["messages"]
    assert [m.get("text") or m.get("emoji") for m in log] == ["hello", "🎉"]


def test_chat_needs_a_seat_and_valid_content(client: Any) -> None:
    table_id, anna, _ = _table(client, spectators=True)
    client.cookies.clear()
    assert client.post(f"/api/tables/{table_id}/chat", json={"text": "hi"}).json()["error"]["code"] == "bad_token"
    assert client.post(f"/api/tables/{table_id}/chat", json={"text": "hi"},
                       headers=_auth("nope")).status_code == 401
    for body in ({}, {"text": "a", "emoji": "🎉"}, {"emoji": "💩"}, {"text": " "}, {"text": "x" * 301}):
        response = client.post(f"/api/tables/{table_id}/chat", json=body, headers=_auth(anna))
        assert response.status_code == 422, body
    # Spectators may read the chat of a table that allows them.
    assert client.get(f"/api/tables/{table_id}/chat").status_code == 200


def test_chat_is_rate_limited_per_seat(client: Any) -> None:
    table_id, anna, ben = _table(client)
    client.cookies.clear()
    codes = [client.post(f"/api/tables/{table_id}/chat", json={"text": str(i)}, headers=_auth(anna)).status_code
             for i in range(7)]
    assert codes[:5] == [201] * 5 and codes[5:] == [429, 429]
    assert client.post(f"/api/tables/{table_id}/chat", json={"text": "me too"}, headers=_auth(ben)).status_code == 201


def test_chat_of_a_private_table_is_for_its_seats(client: Any) -> None:
    table_id, _, ben = _table(client)
    client.cookies.clear()
    assert client.get(f"/api/tables/{table_id}/chat").status_code == 401
    assert client.get(f"/api/tables/{table_id}/chat", headers=_auth(ben)).status_code == 200
