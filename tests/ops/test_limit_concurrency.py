"""``python -m app.serve``'s ``--limit-concurrency`` (``PHASE10_HTTP_LIMIT_CONCURRENCY``) on a real process: once
that many connections are open (idle ones and sockets count), a new request or websocket handshake is answered a
JSON 503 ``server_busy`` instead of being taken on (health and readiness still answer), and the server serves again
as soon as connections close; one address holds at most ``PHASE10_HTTP_LIMIT_PER_ADDRESS`` connections."""

from __future__ import annotations

import contextlib
import json
import socket
import time

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.realtime.processes import Server, wait_until_answers

LIMIT = 4


def test_past_the_limit_a_request_gets_503_then_recovers(database_url: str) -> None:
    server = Server(database_url, env={"PHASE10_HTTP_LIMIT_CONCURRENCY": str(LIMIT)})
    try:
        server.wait_ready(time.monotonic() + 60)
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(LIMIT)]
        try:
            time.sleep(0.3)  # the server has accepted them all
            busy = httpx.get(f"http://{server.url}/api/tables/nowhere", timeout=5)
            assert busy.status_code == 503 and busy.json()["error"]["code"] == "server_busy"
            with pytest.raises(InvalidStatus) as refused:  # a websocket handshake is not upgraded past it
                connect(f"ws://{server.url}/ws/tables/nowhere", open_timeout=5).close()
            assert refused.value.response.status_code == 503
            assert json.loads(refused.value.response.body)["error"]["code"] == "server_busy"
            assert httpx.get(f"http://{server.url}/healthz", timeout=5).status_code == 200
        finally:
            for s in held:
                s.close()
        wait_until_answers(f"http://{server.url}/healthz", time.monotonic() + 10)
    finally:
        server.stop()


def _trickling(port: int, source: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``source`` that start a POST and send one byte of its 1,000-byte body."""
    held = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        with contextlib.suppress(OSError):
            s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 1000\r\n\r\n{")
        held.append(s)
    return held


def _cut(s: socket.socket) -> bool:
    """Whether the server closed ``s`` (at once, without an answer) within a moment."""
    s.settimeout(0.5)
    try:
        return s.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_health_answers_at_the_limit_one_address_cant_take_it(database_url: str) -> None:
    """Limit 40, 10 per address. One address opening 45 connections that trickle a body keeps 10 (the others
    are closed at once): everyone else is served. Five addresses holding 10 idle connections each take the whole
    limit: ``/healthz`` and ``/readyz`` still answer 200, any other request a JSON 503 ``server_busy``."""
    server = Server(database_url, env={"PHASE10_HTTP_LIMIT_CONCURRENCY": "40",
                                       "PHASE10_HTTP_LIMIT_PER_ADDRESS": "10"})
    held: list[socket.socket] = []
    try:
        server.wait_ready(time.monotonic() + 60)
        base = f"http://{server.url}"
        trickling = _trickling(server.port, "127.0.0.2", 45)
        held += trickling
        time.sleep(0.3)
        assert sum(_cut(s) for s in trickling) >= 35
        with httpx.Client(timeout=5) as c:
            for _ in range(10):
                assert c.get(f"{base}/healthz").status_code == 200
                assert c.get(f"{base}/api/tables/nowhere").status_code == 404  # served: the app's own answer
        for i in range(3, 8):  # 50 more connections, 10 from each of five addresses: the limit is taken
            for _ in range(10):
                held.append(socket.create_connection(("127.0.0.1", server.port), source_address=(f"127.0.0.{i}", 0)))
        time.sleep(0.3)
        with httpx.Client(timeout=5) as c:
            answers = [c.get(f"{base}{path}", headers={"Connection": "close"}) for _ in range(10)
                       for path in ("/healthz", "/readyz")]
            assert [r.status_code for r in answers] == [200] * 20
            busy = c.get(f"{base}/api/tables/nowhere")
        assert busy.status_code == 503, busy.text
        assert busy.headers["content-type"].startswith("application/json")
        assert busy.json()["error"]["code"] == "server_busy"
    finally:
        for s in held:
            s.close()
        server.stop()
