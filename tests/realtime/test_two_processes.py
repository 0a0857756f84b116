"""Two real server processes on loopback behind one Postgres: a command accepted by one reaches the
sockets held by the other (LISTEN/NOTIFY carrying only table id and version). Needs TEST_DATABASE_URL."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.realtime.processes import Server, needs_postgres

pytestmark = needs_postgres


def _next(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if msg["type"] == kind:
            return msg


def test_command_on_one_process_reaches_sockets_on_the_other(servers: list[Server]) -> None:
    one, two = (server.url for server in servers)
    created = httpx.post(f"http://{one}/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "A"}).json()
    table_id, host = created["table_id"], created["token"]
    guest = httpx.post(f"http://{two}/api/tables/{table_id}/join",
                       json={"name": "B", "code": created["join_code"]}).json()["token"]
    with connect(f"ws://{two}/ws/tables/{table_id}?token={guest}") as guest_ws, \
            connect(f"ws://{one}/ws/tables/{table_id}?token={host}") as host_ws:
        assert _next(guest_ws, "snapshot")["game_id"] is None
        _next(host_ws, "snapshot")
        r = httpx.post(f"http://{one}/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"})
        assert r.status_code == 200
        guest_snap = _next(guest_ws, "snapshot")  # the start on process 1 reached process 2
        host_snap = _next(host_ws, "snapshot")
        turn = guest_snap["view"]["awaited"][0]
        actor_ws, other_ws = (host_ws, guest_ws) if turn == host_snap["seat"] else (guest_ws, host_ws)
        actor_ws.send(json.dumps({"type": "command", "command_id": "x1", "expected_version": 0,
                                  "command": {"type": "draw", "pile": "draw"}}))
        got: dict[str, dict[str, Any]] = {}
        while not {"ack", "update"} <= set(got):  # the ack and the update may come in either order
            msg = json.loads(actor_ws.recv(timeout=10))
            got.setdefault(msg["type"], msg)
        assert got["ack"]["version"] == 1
        update = _next(other_ws, "update")
        assert update["version"] == 1 and update["events"][0]["card"] is None
        mine = got["update"]
        assert mine["events"][0]["card"] is not None
