"""Error messages reach the pages as sentences: the engine's and the services' messages, which are written in lower
case for the log lines, start with a capital in every REST answer and websocket error."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.services.errors import sentence
from tests.server_helpers import bearer, command_body, new_table


def test_a_message_becomes_a_sentence() -> None:
    assert sentence("the game is at version 3") == "The game is at version 3"
    assert sentence("Already one") == "Already one" and sentence("") == ""
    assert sentence("ärger") == "Ärger"


def test_rest_errors_start_with_a_capital(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    answers = [
        client.get("/api/tables/nope"),  # the service's table_not_found
        client.post(f"/api/tables/{t.id}/commands", json=command_body({"type": "draw", "pile": "draw"}, 99),
                    headers=bearer(t.tokens[0])),  # the engine's stale_version
        client.post(f"/api/tables/{t.id}/commands", json=command_body({"type": "fly"}),
                    headers=bearer(t.tokens[0])),  # the engine's invalid_command
        client.post("/api/tables", json={"ruleset": "mattel", "seats": 99}),  # request validation
        client.get(f"/api/tables/{t.id}/view", headers=bearer("wrong")),  # bad_token
    ]
    for r in answers:
        error = r.json()["error"]
        assert r.status_code >= 400 and error["message"][0].isupper(), (r.status_code, error)


def test_websocket_errors_start_with_a_capital(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    with client.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "command", "ref": "c-1", "command_id": "c-1", "command": {"type": "fly"}})
        while (msg := ws.receive_json())["type"] != "error":
            pass
        assert msg["ref"] == "c-1" and msg["message"][0].isupper(), msg
