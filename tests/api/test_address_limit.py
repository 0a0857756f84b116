"""``AddressLimit`` on its own (ASGI): running requests and open sockets counted per client address, an IPv6
address by its /64 network; one past the limit is a JSON 429 ``too_many_requests`` (a socket's handshake too),
health and readiness are never counted, and a finished request gives its place back. Through the real proxy:
tests/ops/test_caddy.py."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from app.api.middleware import AddressLimit


def _scope(address: str, path: str = "/api/tables/x", kind: str = "http", **extra: Any) -> dict[str, Any]:
    return {"type": kind, "path": path, "client": (address, 40000), "headers": [], **extra}


class Answers:
    """What each call sent, by its name."""

    def __init__(self) -> None:
        self.sent: dict[str, list[dict[str, Any]]] = {}

    def send_for(self, name: str) -> Any:
        async def send(message: dict[str, Any]) -> None:
            self.sent.setdefault(name, []).append(message)
        return send

    def status(self, name: str) -> int | None:
        starts = [m for m in self.sent.get(name, []) if m["type"].endswith("response.start")]
        return starts[0]["status"] if starts else None

    def code(self, name: str) -> str:
        body = b"".join(m.get("body", b"") for m in self.sent[name] if m["type"].endswith("response.body"))
        return str(json.loads(body)["error"]["code"])


def test_requests_and_sockets_count_per_address_ipv6_per_64() -> None:
    async def run() -> Answers:
        release = asyncio.Event()
        answers = Answers()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            if scope["path"] == "/hold":
                await release.wait()
            if scope["type"] == "http":
                await send({"type": "http.response.start", "status": 200, "headers": []})
                await send({"type": "http.response.body", "body": b"{}"})

        limit = AddressLimit(app, limit=2)

        def call(name: str, scope: dict[str, Any]) -> Any:
            return limit(scope, None, answers.send_for(name))  # type: ignore[arg-type]

        held = [asyncio.create_task(call(f"held{i}", _scope(f"2001:db8::{i + 1}", "/hold"))) for i in range(2)]
        await asyncio.sleep(0)
        await call("same_64", _scope("2001:db8::ff"))  # another address of the same /64: its place is taken
        await call("socket", _scope("2001:db8::fe", kind="websocket", extensions={"websocket.http.response": {}}))
        await call("socket_plain", _scope("2001:db8::fd", kind="websocket"))
        await call("health", _scope("2001:db8::ff", "/healthz"))
        await call("ready", _scope("2001:db8::ff", "/readyz"))
        await call("other_64", _scope("2001:db8:0:1::1"))
        await call("ipv4", _scope("192.0.2.1"))
        release.set()
        await asyncio.gather(*held)
        await call("after", _scope("2001:db8::ff"))
        assert limit.running == {}
        return answers

    answers = asyncio.run(run())
    assert answers.status("same_64") == 429 and answers.code("same_64") == "too_many_requests"
    assert answers.status("socket") == 429 and answers.code("socket") == "too_many_requests"
    assert answers.sent["socket_plain"] == [{"type": "websocket.close", "code": 1013}]
    for served in ("health", "ready", "other_64", "ipv4", "held0", "held1", "after"):
        assert answers.status(served) == 200, served
