"""``python -m app.serve``'s ``--limit-concurrency`` (``PHASE10_HTTP_LIMIT_CONCURRENCY``) on a real process: once
that many connections are open (idle ones and sockets count), a new request is answered 503 instead of being
taken on, and the server serves again as soon as connections close."""

from __future__ import annotations

import socket
import time

import httpx

from tests.realtime.processes import Server, wait_until_answers

LIMIT = 4


def test_past_the_concurrency_limit_a_request_gets_503_and_the_server_recovers(database_url: str) -> None:
    server = Server(database_url, env={"PHASE10_HTTP_LIMIT_CONCURRENCY": str(LIMIT)})
    try:
        server.wait_ready(time.monotonic() + 60)
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(LIMIT)]
        try:
            time.sleep(0.3)  # the server has accepted them all
            assert httpx.get(f"http://{server.url}/healthz", timeout=5).status_code == 503
        finally:
            for s in held:
                s.close()
        wait_until_answers(f"http://{server.url}/healthz", time.monotonic() + 10)
    finally:
        server.stop()
