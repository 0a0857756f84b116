"""Two real server processes on loopback behind one Postgres: a command accepted by one reaches the
sockets held by the other (LISTEN/NOTIFY carrying only table id and version). Needs TEST_DATABASE_URL."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.conftest import TEST_DATABASE_URL

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not TEST_DATABASE_URL.startswith("postgresql"),
                                reason="needs Postgres (TEST_DATABASE_URL)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def servers(database_url: str) -> Iterator[list[str]]:
    env = {**os.environ, "DATABASE_URL": database_url, "PHASE10_LOG_LEVEL": "WARNING"}
    procs, urls = [], []
    for _ in range(2):
        port = _free_port()
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        urls.append(f"127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + 20
        for url in urls:
            while True:
                try:
                    if httpx.get(f"http://{url}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.1)
        yield urls
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


def _next(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if msg["type"] == kind:
            return msg


def test_command_on_one_process_reaches_sockets_on_the_other(servers: list[str]) -> None:
    one, two = servers
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
