"""Bad input of every shape gets a JSON 4xx with a stable code and changes nothing: oversized bodies (with or
without Content-Length), NUL characters, integers past the database's range, deeply nested JSON. Every
response carries the security headers, and pages run no inline script (the Content-Security-Policy)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.server_helpers import bearer, new_table


def _json_error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json"), r.headers
    error: dict[str, Any] = r.json()["error"]
    assert error["code"] == code, error
    return error


def test_a_body_over_the_limit_is_413_with_or_without_length(settings: Settings) -> None:
    small = settings.model_copy(update={"max_body_bytes": 1000})
    with TestClient(create_app(small)) as client:
        body = b'{"ruleset": "mattel", "seats": 2, "name": "' + b"x" * 2000 + b'"}'
        r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        _json_error(r, 413, "body_too_large")

        def chunks() -> Iterator[bytes]:  # no Content-Length: the body arrives in pieces
            yield b'{"ruleset": "mattel", "seats": 2, "name": "'
            for _ in range(10):
                yield b"x" * 500
            yield b'"}'

        r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert "content-length" not in r.request.headers
        _json_error(r, 413, "body_too_large")
        r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Host"})
        assert r.status_code == 201, r.text  # under the limit nothing changes


def _refuse(content_length: int | None, chunks: int, chunk: int = 10_000) -> tuple[int, int]:
    """Send a body of ``chunks`` pieces through BodyLimit (limit 1,000, drain 100,000) in front of an app
    that reads its body; the answer's status and how many pieces the middleware took off the connection."""
    import asyncio

    from app.api.middleware import BodyLimit

    async def app(scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 201, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    pieces = [{"type": "http.request", "body": b"x" * chunk, "more_body": i < chunks - 1} for i in range(chunks)]
    taken = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal taken
        taken += 1
        return pieces[taken - 1]

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    headers = [] if content_length is None else [(b"content-length", str(content_length).encode())]
    scope = {"type": "http", "method": "POST", "path": "/api/tables", "headers": headers}
    asyncio.run(BodyLimit(app, limit=1000, drain=100_000)(scope, receive, send))
    return sent[0]["status"], taken


def test_a_refused_body_within_the_bound_is_drained_first() -> None:
    """A proxy still sending the body must read the 413, not a reset connection (a 502 for the player)."""
    assert _refuse(content_length=50_000, chunks=5) == (413, 5)  # declared length: drained, app never called
    assert _refuse(content_length=None, chunks=5) == (413, 5)  # chunked: the app stopped, the rest drained
    status, taken = _refuse(content_length=None, chunks=50)  # past the bound: not read on
    assert status == 413 and taken <= 11
    assert _refuse(content_length=500_000, chunks=50) == (413, 0)  # declared past the bound: not read at all


def test_nul_characters_are_invalid_requests(client: TestClient) -> None:
    """Postgres text cannot hold NUL: it was a plain-text 500 there (and stored as is on SQLite)."""
    r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Ho\u0000st"})
    assert _json_error(r, 422, "invalid_request")["field"] == "name"
    t = new_table(client, players=1, seats=3)
    r = client.post(f"/api/tables/{t.id}/join", json={"name": "a\u0000b", "code": t.code})
    assert _json_error(r, 422, "invalid_request")["field"] == "name"
    r = client.post(f"/api/tables/{t.id}/chat", json={"text": "hi\u0000"}, headers=bearer(t.tokens[0]))
    assert _json_error(r, 422, "invalid_request")["field"] == "text"
    for path in (f"/api/tables/{t.id}%00", f"/api/tables/{t.id}/view?x=%00", "/join/a%00b?code=c"):
        _json_error(client.get(path, headers=bearer(t.tokens[0])), 422, "invalid_request")
    info = client.get(f"/api/tables/{t.id}").json()
    assert [s["name"] for s in info["seats"]] == ["Host"]


def test_nul_in_a_command_id_is_refused(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    for seat in (0, 1):
        r = client.post(f"/api/tables/{t.id}/commands", headers=bearer(t.tokens[seat]),
                        json={"command_id": "a\u0000", "command": {"type": "draw", "pile": "draw"}})
        _json_error(r, 422, "invalid_request")


@pytest.mark.parametrize("big", [2**31, 2**63, 10**30])
def test_integers_past_the_database_range_are_invalid_requests(client: TestClient, big: int) -> None:
    t = new_table(client, players=2, start=True)
    host = bearer(t.tokens[0])
    for method, path in [("GET", f"/api/tables/{t.id}/games/{big}/replay"),
                         ("GET", f"/api/tables/{t.id}/games/1/replay/{big}"),
                         ("GET", f"/api/tables/{t.id}/events?since={big}"),
                         ("DELETE", f"/api/tables/{t.id}/bots/{big}"),
                         ("DELETE", f"/api/tables/{t.id}/seats/{big}")]:
        _json_error(client.request(method, path, headers=host), 422, "invalid_request")
    r = client.post(f"/api/tables/{t.id}/commands", headers=host,
                    json={"command_id": "big", "expected_version": big, "command": {"type": "draw", "pile": "draw"}})
    _json_error(r, 422, "invalid_request")


@pytest.mark.parametrize("number", ["1.0", "1e0", "+1", "01x", " 1", "1_0", "\u0661"])
def test_a_path_number_is_digits_only(client: TestClient, number: str) -> None:
    """A game number, step or seat in a path is an optional minus and ASCII digits: ``1.0`` is not game 1."""
    t = new_table(client, players=2, start=True)
    host = bearer(t.tokens[0])
    for method, path in [("GET", f"/api/tables/{t.id}/games/{number}/replay"),
                         ("GET", f"/api/tables/{t.id}/games/1/replay/{number}"),
                         ("DELETE", f"/api/tables/{t.id}/seats/{number}")]:
        _json_error(client.request(method, path, headers=host), 422, "invalid_request")
    assert client.get(f"/api/tables/{t.id}/games/1/replay/0", headers=host).status_code == 200


def test_the_push_body_refuses_unknown_keys(client: TestClient) -> None:
    """``PushSubscription.toJSON()``'s fields only (``expirationTime`` a number or null): any other key, at the
    top or in ``keys`` (one with a NUL in its name too), is 422 ``invalid_request`` and stores nothing."""
    from tests.services.push_receiver import PushReceiver

    t = new_table(client, players=2, start=True)
    client.cookies.clear()
    sub = PushReceiver().browser("x").subscription()
    sub["endpoint"] = "https://fcm.googleapis.com/fcm/send/x"
    for body in ({**sub, "extra": 1}, {**sub, "a\u0000b": 1}, {**sub, "keys": {**sub["keys"], "more": "x"}},
                 {**sub, "expirationTime": "soon"}):
        r = client.put(f"/api/tables/{t.id}/push", json=body, headers=bearer(t.tokens[0]))
        _json_error(r, 422, "invalid_request")
    for body in ({**sub, "expirationTime": None}, {**sub, "expirationTime": 1733500000000.5, "lang": "de"}):
        r = client.put(f"/api/tables/{t.id}/push", json=body, headers=bearer(t.tokens[0]))
        assert r.status_code == 200, r.text


def test_deeply_nested_json_is_an_invalid_request(client: TestClient) -> None:
    deep = "[" * 20_000 + "]" * 20_000  # 40 kB, under the body limit; Python's parser gives up at ~1,000
    body = '{"ruleset": "mattel", "seats": 2, "name": "Host", "options": {"x": ' + deep + "}}"
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    _json_error(r, 422, "invalid_request")


SECURITY = {"x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "same-origin"}


def test_every_response_has_the_security_headers(client: TestClient) -> None:
    t = new_table(client, players=1, seats=2)
    for path in ("/", f"/join/{t.id}?code={t.code}", f"/tables/{t.id}", "/api/rulesets", "/static/js/common.js",
                 "/api/tables/missing", "/healthz", "/nowhere"):
        r = client.get(path, headers=bearer(t.tokens[0]))
        for name, value in SECURITY.items():
            assert r.headers.get(name) == value, (path, name, r.headers)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp


def test_the_interactive_api_docs_still_load_their_scripts(client: TestClient) -> None:
    """/docs (Swagger UI from a CDN, an inline bootstrap) is exempt from the page CSP, not from the rest."""
    r = client.get("/docs")
    assert r.status_code == 200 and "content-security-policy" not in r.headers
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def test_pages_run_no_inline_script(client: TestClient) -> None:
    """What the CSP would block must not be there: no inline <script> (JSON data blocks do not run), no on*=
    handler attributes, no javascript: URLs, no style attributes."""
    t = new_table(client, players=2, start=True)
    client.cookies.set(f"p10_seat_{t.id}", t.tokens[0])
    for path in ("/", f"/join/{t.id}?code={t.code}", f"/tables/{t.id}", f"/tables/{t.id}/games/1/replay"):
        r = client.get(path)
        assert r.status_code == 200, (path, r.status_code)
        html = r.text
        assert not INLINE_SCRIPT.search(html), (path, INLINE_SCRIPT.search(html))
        assert not INLINE_HANDLER.search(html), path
        assert "javascript:" not in html and " style=" not in html, path


def test_secrets_are_stored_hashed_and_cookies_are_httponly(client: TestClient) -> None:
    """The database holds SHA-256 digests of seat tokens and join codes, never the secrets; the seat cookie
    is HttpOnly and SameSite=Lax (scripts and other sites' requests cannot read or send it)."""
    from sqlalchemy import select

    from app.persistence.models import GameTable, Seat
    from app.services.security import digest

    r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Host"})
    created = r.json()
    cookie = r.headers["set-cookie"].lower()
    assert f"p10_seat_{created['table_id']}=".lower() in cookie
    assert "httponly" in cookie and "samesite=lax" in cookie
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        table = s.get(GameTable, created["table_id"])
        seat = s.scalar(select(Seat).where(Seat.table_id == created["table_id"]))
        assert table is not None and seat is not None
        assert table.join_code_hash == digest(created["join_code"]) != created["join_code"]
        assert seat.token_hash == digest(created["token"]) != created["token"]
        stored = " ".join(str(v) for row in (table, seat) for v in vars(row).values())
    assert created["token"] not in stored and created["join_code"] not in stored


def test_every_stored_text_refuses_control_characters(client: TestClient) -> None:
    """One check for every text a body carries (nested keys and values too): a NUL, another control character
    or a lone surrogate is 422 ``invalid_request`` naming the field, on SQLite and Postgres alike (Postgres
    answered a plain 500 to a NUL in a push endpoint; SQLite stored it), and nothing is stored."""
    t = new_table(client, players=2, seats=3, start=False)
    host = bearer(t.tokens[0])
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    cases = [
        ("PUT", f"/api/tables/{t.id}/push", {"endpoint": "https://fcm.googleapis.com/x\u0000", "keys": keys},
         "endpoint"),
        ("PUT", f"/api/tables/{t.id}/push", {"endpoint": "https://fcm.googleapis.com/x", "keys": keys,
                                              "lang": "e\u0001"}, "lang"),
        ("DELETE", f"/api/tables/{t.id}/push", {"endpoint": "https://fcm.googleapis.com/\u0000"}, "endpoint"),
        ("POST", f"/api/tables/{t.id}/join", {"name": "Tab\tby", "code": t.code}, "name"),
        ("POST", f"/api/tables/{t.id}/join", {"name": "Ben", "code": "x\u0000"}, "code"),
        ("POST", f"/api/tables/{t.id}/chat", {"text": "\u001b[31mred"}, "text"),
        ("POST", f"/api/tables/{t.id}/bots", {"name": "Bot\u0007"}, "name"),
        ("POST", f"/api/tables/{t.id}/seat/claim", {"code": "c\u0085"}, "code"),
        ("POST", "/api/tables", {"ruleset": "mattel", "seats": 2, "name": "Ho", "options": {"k\u0000": 1}},
         "options"),
        ("POST", f"/api/tables/{t.id}/commands", {"command_id": "c\u007f", "command": {"type": "draw"}},
         "command_id"),
        ("POST", f"/api/tables/{t.id}/commands", {"command_id": "c1", "command": {"type": "draw",
                                                                                 "pile": ["d\u0000"]}}, "command"),
    ]
    for method, path, body, field in cases:
        r = client.request(method, path, json=body, headers=host)
        assert _json_error(r, 422, "invalid_request")["field"] == field, (path, body)
    surrogate = b'{"ruleset": "mattel", "seats": 2, "name": "Ho\\ud800st"}'
    r = client.post("/api/tables", content=surrogate, headers={"content-type": "application/json"})
    assert _json_error(r, 422, "invalid_request")["field"] == "name"
    assert [s["name"] for s in client.get(f"/api/tables/{t.id}", headers=host).json()["seats"]] == ["Host", "P1"]
    assert client.get(f"/api/tables/{t.id}/chat", headers=host).json()["messages"] == []
    service = client.app.state.service  # type: ignore[attr-defined]
    from sqlalchemy import select

    from app.persistence.push import PushSubscription
    with service.db.read() as s:
        assert s.scalar(select(PushSubscription).where(PushSubscription.endpoint.like("%fcm.googleapis.com/x%"))) \
            is None


def test_request_bodies_are_strict_about_types(client: TestClient) -> None:
    """A boolean is a JSON boolean, a number a JSON number: ``{"accept": "yes"}`` was taken as true."""
    t = new_table(client, players=2, seats=3)
    host = bearer(t.tokens[0])
    cases = [
        ("POST", f"/api/tables/{t.id}/rematch/answer", {"accept": "yes"}, "accept"),
        ("POST", f"/api/tables/{t.id}/rematch/answer", {"accept": 1}, "accept"),
        ("POST", "/api/tables", {"ruleset": "mattel", "seats": "2", "name": "Ho"}, "seats"),
        ("POST", "/api/tables", {"ruleset": "mattel", "seats": 2, "name": "Ho", "spectators": "true"}, "spectators"),
        ("POST", "/api/tables", {"ruleset": "mattel", "seats": 2.0, "name": "Ho"}, "seats"),
        ("PUT", f"/api/tables/{t.id}/clock", {"stand_in": "on"}, "stand_in"),
        ("POST", f"/api/tables/{t.id}/seats/order", {"order": ["1", "0"]}, "order.0"),
        ("POST", f"/api/tables/{t.id}/commands", {"command_id": "c", "expected_version": "3",
                                                  "command": {"type": "draw"}}, "expected_version"),
        ("POST", f"/api/tables/{t.id}/join", {"name": 5, "code": t.code}, "name"),
    ]
    for method, path, body, field in cases:
        r = client.request(method, path, json=body, headers=host)
        assert _json_error(r, 422, "invalid_request")["field"] == field, (path, body, r.text)
    assert client.get(f"/api/tables/{t.id}").json()["stand_in"] is False
