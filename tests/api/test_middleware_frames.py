"""The HTTP-only middlewares keep no frame on a websocket's stack: for a socket (and, for ``UrlGuard``, any clean
URL) calling one returns the app's own awaitable, so a socket held open for hours does not keep a suspended
coroutine of each middleware (memory per idle socket)."""

from __future__ import annotations

from typing import Any

from app.api.middleware import BodyLimit, SecurityHeaders, UrlGuard


class Inner:
    def __init__(self) -> None:
        self.awaitable = object()

    def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        return self.awaitable


def test_a_socket_goes_straight_to_the_app() -> None:
    scope = {"type": "websocket", "path": "/ws/tables/x", "query_string": b"token=t", "headers": []}
    for middleware in (BodyLimit(Inner(), limit=10), SecurityHeaders(Inner()), UrlGuard(Inner())):
        inner = middleware.app
        assert middleware(scope, None, None) is inner.awaitable  # type: ignore[arg-type, union-attr]


def test_a_socket_url_with_nul_is_still_refused() -> None:
    import asyncio

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "websocket", "path": "/ws/tables/x", "query_string": b"token=%00", "headers": []}
    asyncio.run(UrlGuard(Inner())(scope, None, send))  # type: ignore[arg-type, arg-type]
    assert sent == [{"type": "websocket.close", "code": 1008}]
