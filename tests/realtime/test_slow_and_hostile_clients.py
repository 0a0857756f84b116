"""A real server process (``python -m app.serve``, the production command) against slow and hostile clients
on raw sockets: oversized bodies are refused before they are read (with or without Content-Length), slow
headers and slow bodies are cut off, the access log never shows a seat token or join code, and wrong join
codes from one loopback address never lock out an invitee on another."""

from __future__ import annotations

import json
import select
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.realtime.processes import Server

TIMEOUTS = {"PHASE10_HTTP_HEADER_TIMEOUT_SECONDS": "1", "PHASE10_HTTP_BODY_TIMEOUT_SECONDS": "1",
            "PHASE10_HTTP_BODY_TOTAL_SECONDS": "2", "PHASE10_LOG_LEVEL": "INFO"}


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    log = tmp_path_factory.mktemp("server") / "stderr.log"
    srv = Server(database_url, env=TIMEOUTS, stderr=log)
    try:
        srv.wait_ready(time.monotonic() + 60)
        yield srv, log
    finally:
        srv.stop()


def _raw(srv: Server) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
    return sock


def _response(sock: socket.socket) -> tuple[int, dict[str, Any]]:
    """Status and JSON body of the one response on ``sock`` (read until the server closes)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_huge_content_length_is_refused_before_any_body(server: tuple[Server, Path]) -> None:
    srv, _ = server
    with _raw(srv) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 52428800\r\n\r\n")
        status, body = _response(sock)  # answered (and closed) although the 50 MB never came
    assert status == 413 and body["error"]["code"] == "body_too_large"


def test_a_chunked_body_is_cut_off_at_the_limit(server: tuple[Server, Path]) -> None:
    """Chunks keep coming past the limit: the 413 arrives after about the limit, not after the 300 MB."""
    srv, _ = server
    chunk = b"x" * 16384
    sent = 0
    with _raw(srv) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        try:
            while sent < 300 * 2**20:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, body = _response(sock)
    assert status == 413 and body["error"]["code"] == "body_too_large"
    assert sent < 20 * 2**20, sent  # the server stopped reading long before the end


def test_slow_headers_are_cut_off(server: tuple[Server, Path]) -> None:
    srv, _ = server
    with _raw(srv) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # the blank line never comes
        assert sock.recv(1024) == b""  # closed by the server
        assert time.monotonic() - started < 4
    with _raw(srv) as sock:  # an idle connection that never sends anything is closed too
        started = time.monotonic()
        assert sock.recv(1024) == b""
        assert time.monotonic() - started < 4


def test_a_slow_body_is_408(server: tuple[Server, Path]) -> None:
    srv, _ = server
    with _raw(srv) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"ruleset\"")
        status, body = _response(sock)
    assert status == 408 and body["error"]["code"] == "request_timeout"


def test_a_body_trickling_byte_by_byte_is_cut_off_in_time(server: tuple[Server, Path]) -> None:
    """A byte every 0.7 s keeps each piece within the 1 s piece timeout: the whole body's bound (2 s here)
    answers 408 while the trickle goes on (uvicorn alone, and a piece timeout alone, would wait for ever)."""
    srv, _ = server
    with _raw(srv) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n")
        started = time.monotonic()
        answered = False
        while not answered and time.monotonic() - started < 6:
            sock.sendall(b" ")
            answered = bool(select.select([sock], [], [], 0.7)[0])
        elapsed = time.monotonic() - started
        assert answered, "the trickle went on for 6 s unanswered"
        status, body = _response(sock)
    assert status == 408 and body["error"]["code"] == "request_timeout", body
    assert elapsed < 3.5, elapsed


def test_wrong_codes_from_one_address_never_lock_out_another(server: tuple[Server, Path]) -> None:
    """Real source addresses: the attacker on 127.0.0.2, the invitee on 127.0.0.3."""
    srv, _ = server
    base = f"http://{srv.url}"
    attacker = httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
    invitee = httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address="127.0.0.3"))
    with attacker, invitee:
        created = attacker.post("/api/tables", json={"ruleset": "mattel", "seats": 3, "name": "Host"}).json()
        table_id, code = created["table_id"], created["join_code"]
        statuses = [attacker.post(f"/api/tables/{table_id}/join", json={"name": "X", "code": f"guess{i}"}).status_code
                    for i in range(12)]
        assert statuses[-1] == 429 and statuses[0] == 403
        assert attacker.post(f"/api/tables/{table_id}/join", json={"name": "X", "code": code}).status_code == 429
        r = invitee.post(f"/api/tables/{table_id}/join", json={"name": "Friend", "code": code})
        assert r.status_code == 200, r.text


def test_the_logs_never_show_a_token_a_join_code_or_a_share_link(server: tuple[Server, Path]) -> None:
    srv, log = server
    secret = f"S3CRET{uuid.uuid4().hex}"
    base = f"http://{srv.url}"
    created = httpx.post(f"{base}/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Host"}).json()
    table_id, token, code = created["table_id"], created["token"], created["join_code"]
    httpx.get(f"{base}/api/tables/{table_id}/view?token={secret}")
    httpx.get(f"{base}/join/{table_id}?code={code}")
    httpx.get(f"{base}/join/{table_id}?CODE={secret}&lang=en")
    httpx.get(f"{base}/api/tables/{table_id}/games/1/replay?share={secret}")
    httpx.get(f"{base}/shared/{secret}")
    httpx.get(f"{base}/api/shared/{secret}/replay")
    httpx.get(f"{base}/api/SHARED/{secret}x/replay/3")
    with connect(f"ws://{srv.url}/ws/tables/{table_id}?token={token}") as ws:
        assert json.loads(ws.recv(5))["type"] == "snapshot"
    with connect(f"ws://{srv.url}/ws/tables/{table_id}?since=0&token={secret}") as ws:
        assert json.loads(ws.recv(5))["code"] == "bad_token"
    # A percent-encoded key is the same key to the query parser (the socket signs in with it): redacted too.
    with connect(f"ws://{srv.url}/ws/tables/{table_id}?%74oken={token}") as ws:
        assert json.loads(ws.recv(5))["type"] == "snapshot"
    httpx.get(f"{base}/join/{table_id}?%63%4FDE={code}")
    time.sleep(0.5)
    text = log.read_text()
    assert f'"GET /join/{table_id}?code=[redacted] HTTP/1.1" 200' in text  # the access line is written
    assert "token=[redacted]" in text and "Logging error" not in text
    assert "replay?share=[redacted]" in text
    assert '"GET /shared/[redacted] HTTP/1.1" 200' in text and "/api/shared/[redacted]/replay" in text
    for value in (secret, token, code):
        assert value not in text
