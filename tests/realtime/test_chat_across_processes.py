"""Table chat across real server processes (uvicorn on loopback, one database): the seat limit and the history
are the database's, so they hold across processes and a restart (SQLite and Postgres); with the Postgres hub
a message posted to one process reaches the table's sockets on every process, each exactly once and in the
same order (NOTIFY on ``phase10_chat``). (No rules paragraph covers chat: it is outside the game record.)"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.realtime.processes import Server, needs_postgres


def _table(one: Server, two: Server) -> tuple[str, str, str]:
    """A two-seat table made on ``one``; Anna's token (host) and Ben's (joined on ``two``)."""
    created = httpx.post(f"http://{one.url}/api/tables", json={"ruleset": "mattel", "seats": 2,
                                                               "name": "Anna"}).json()
    table_id = created["table_id"]
    ben = httpx.post(f"http://{two.url}/api/tables/{table_id}/join",
                     json={"name": "Ben", "code": created["join_code"]}).json()["token"]
    return table_id, created["token"], ben


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _say(server: Server, table_id: str, token: str, text: str) -> httpx.Response:
    return httpx.post(f"http://{server.url}/api/tables/{table_id}/chat", json={"text": text}, headers=_auth(token))


def _log(server: Server, table_id: str, token: str) -> list[dict[str, Any]]:
    response = httpx.get(f"http://{server.url}/api/tables/{table_id}/chat", headers=_auth(token))
    assert response.status_code == 200, response.text
    messages: list[dict[str, Any]] = response.json()["messages"]
    return messages


def _next_chat(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        if msg["type"] == "chat":
            return msg


def test_the_seat_limit_and_history_hold_across_processes(
        servers: list[Server], database_url: str) -> None:
    one, two = servers
    table_id, anna, ben = _table(one, two)
    codes = [_say(by, table_id, anna, str(i)).status_code for i, by in enumerate((one, two, one, two, one, two))]
    assert codes == [201] * 5 + [429]  # one limit for both processes (each allowed 5 with memory counters)
    assert _say(one, table_id, anna, "still too soon").json()["error"]["code"] == "chat_rate"
    assert _say(two, table_id, ben, "hi").status_code == 201  # per seat
    history = _log(one, table_id, ben)
    assert [m["text"] for m in history] == ["0", "1", "2", "3", "4", "hi"]
    assert _log(two, table_id, anna) == history  # messages posted to either process, ids from the database
    one.stop()
    two.stop()
    again = Server(database_url)  # a restart: a fresh process on the same database
    try:
        again.wait_ready(time.monotonic() + 60)
        assert _log(again, table_id, anna) == history
    finally:
        again.stop()


@needs_postgres
def test_a_message_to_one_process_reaches_both_once_in_order(servers: list[Server]) -> None:
    one, two = servers
    table_id, anna, ben = _table(one, two)
    with connect(f"ws://{one.url}/ws/tables/{table_id}?token={ben}") as ben_ws, \
            connect(f"ws://{two.url}/ws/tables/{table_id}?token={anna}") as anna_ws:
        for ws in (ben_ws, anna_ws):
            while json.loads(ws.recv(timeout=10))["type"] != "snapshot":
                pass
        sent = _say(two, table_id, anna, "hello from two").json()
        assert _next_chat(ben_ws) == sent  # the socket on the other process
        assert _next_chat(anna_ws) == sent  # and the one on the posting process
        posts = [(one, ben), (two, anna), (one, ben), (two, anna), (one, ben)]
        for n, (by, token) in enumerate(posts):
            assert _say(by, table_id, token, f"m{n}").status_code == 201
        ids = [m["id"] for m in _log(one, table_id, anna)]
        assert len(ids) == 6
        for ws in (ben_ws, anna_ws):  # every message once (no second copy of the first), in commit order
            assert [_next_chat(ws)["id"] for _ in range(5)] == ids[1:]
        with pytest.raises(TimeoutError):
            _next_chat(ben_ws, timeout=0.5)
