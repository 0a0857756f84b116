"""Pure ASGI middleware: the request body limit, NUL-free URLs, the security headers of every response and the
requests one client address may have running at once.

Both sit outside the routes, so they hold for every path (pages, REST, static files, errors) and cost one
header look-up a request. Websockets pass through untouched (their frames are limited by uvicorn's
``ws_max_size`` and ``PHASE10_WS_MAX_MESSAGE_BYTES``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.services.security import address_key

from .errors import error_body

# Pages may load scripts, styles, images and manifests only from this origin, open sockets to it, and may not
# be framed by anyone; no inline script or style attribute runs.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # Invite links carry the join code in their query: other sites see at most this origin.
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class _BodyRefused(Exception):
    """Raised into the app when its request body passes the size or time limit (the middleware answers)."""


async def _send_error(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps(error_body(code, message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


# A refused body up to this size is read and thrown away before the answer (the reverse proxy lets bodies up to
# 1 MB through: deploy/Caddyfile). Closing a connection with unread data in it resets it, and a proxy still
# sending the body then loses the 413 and answers 502 (and takes the process out of its pool for a while).
DRAIN_LIMIT = 1 << 20


class BodyLimit:
    """Refuse every request body over ``limit`` bytes with 413 ``body_too_large``, chunked or not, without
    keeping it in memory: a ``Content-Length`` over the limit is answered before the app sees the request; a
    body without one (chunked) is counted as the app reads it, and the first chunk past the limit stops it.
    A body whose next piece takes longer than ``timeout`` seconds, or that is not whole ``total`` seconds after
    the request began, is refused with 408 ``request_timeout``: a body trickling a byte now and then holds its
    connection for ``total`` seconds at most. A refused body of at most ``drain`` bytes is first read to its end
    and discarded chunk by chunk (within the same bounds), so the client (or proxy) reads the answer instead of
    a reset; the connection is closed after every refusal, so a larger rest is never read. ``paths`` gives single
    paths a limit of their own (a game record upload)."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 30.0, total: float = 5.0,
                 drain: int = DRAIN_LIMIT, paths: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.paths = dict(paths or {})
        self.timeout = timeout
        self.total = total
        self.drain = drain

    async def _discard(self, receive: Receive, received: int, deadline: float) -> None:
        """Read and drop the rest of a refused body while the total stays within ``drain`` bytes (and time)."""
        loop = asyncio.get_running_loop()
        while received <= self.drain:
            left = deadline - loop.time()
            if left <= 0:
                return
            try:
                message = await asyncio.wait_for(receive(), min(self.timeout, left))
            except TimeoutError:
                return
            if message["type"] != "http.request":
                return
            received += len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """HTTP only; anything else is the app's own call (no frame of this one stays on a socket's stack)."""
        return self._http(scope, receive, send) if scope["type"] == "http" else self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.total
        limit = self.paths.get(scope.get("path", ""), self.limit)
        for name, value in scope["headers"]:
            if name == b"content-length":
                if not value.isdigit():
                    await _send_error(send, 422, "invalid_request", "Content-Length is not a number")
                    return
                if int(value) > limit:
                    if int(value) <= self.drain:
                        await self._discard(receive, 0, deadline)
                    await _send_error(send, 413, "body_too_large",
                                      f"request bodies are limited to {limit} bytes")
                    return
        received = 0
        exceeded: tuple[int, str, str] | None = None
        complete = False
        started = False

        async def limited_receive() -> Message:
            nonlocal received, exceeded, complete
            if exceeded:
                return {"type": "http.disconnect"}
            if complete:  # after the body: waiting for a disconnect is not bounded here
                return await receive()
            left = deadline - loop.time()
            try:
                if left <= 0:
                    raise TimeoutError
                message = await asyncio.wait_for(receive(), min(self.timeout, left))
            except TimeoutError:
                within = f"{self.timeout:g} s of its previous piece" if left > self.timeout else f"{self.total:g} s"
                exceeded = (408, "request_timeout", f"the request body did not arrive within {within}")
                raise _BodyRefused from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if received > limit:
                    exceeded = (413, "body_too_large", f"request bodies are limited to {limit} bytes")
                    raise _BodyRefused
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if exceeded:
                return  # whatever the app makes of the interrupted body, the answer is the 413 below
            started = True
            await send(message)

        with contextlib.suppress(_BodyRefused):
            await self.app(scope, limited_receive, guarded_send)
        if exceeded and not started:
            if exceeded[0] == 413 and not complete:
                await self._discard(receive, received, deadline)
            await _send_error(send, *exceeded)


class UrlGuard:
    """Refuse a NUL character in the path or query (raw or ``%00``) with 422 ``invalid_request``, for HTTP
    and websockets: no route, page or database query ever sees one (Postgres text cannot hold it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """A refusal, or the app's own call (no frame of this one stays on a socket's stack)."""
        if scope["type"] in ("http", "websocket"):
            query = scope.get("query_string", b"")
            if "\x00" in scope["path"] or b"%00" in query or b"\x00" in query:
                return self._refuse(scope, send)
        return self.app(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Scope, send: Send) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
        else:
            await _send_error(send, 422, "invalid_request", "NUL characters are not allowed in the URL")


# FastAPI's interactive API pages load their scripts from a CDN with an inline bootstrap: a developer tool
# with no game data, served without the page policy (the other headers still apply).
CSP_EXEMPT = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})


class SecurityHeaders:
    """Add ``SECURITY_HEADERS`` to every HTTP response that does not set them itself (the CSP not on
    ``CSP_EXEMPT``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """HTTP only; anything else is the app's own call (no frame of this one stays on a socket's stack)."""
        return self._http(scope, receive, send) if scope["type"] == "http" else self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        exempt = scope["path"] in CSP_EXEMPT

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                if exempt:
                    present.add(b"content-security-policy")
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


# Liveness and readiness answer whatever the load: a probe must tell a busy process from a dead one.
HEALTH_PATHS = frozenset({"/healthz", "/readyz"})


class AddressLimit:
    """At most ``limit`` running requests and open sockets per client address (the address the trusted proxy
    names, ``FORWARDED_ALLOW_IPS``, else the peer's): one more request is 429 ``too_many_requests`` (its body
    unread, the connection closed), one more socket's handshake is answered the same 429 (close 1013, try again
    later, where the server lacks the ``websocket.http.response`` extension). Behind the bundled proxy every
    player's connection comes from the proxy's address, which ``app.serve``'s per-peer connection cap does not
    count; this bounds what one player's address holds of the process's ``PHASE10_HTTP_LIMIT_CONCURRENCY``.
    ``/healthz`` and ``/readyz`` are not counted. An IPv6 address counts by its /64 network, what one host usually
    holds (``address_key``, as the join limit counts)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.running: dict[str, int] = {}

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        client = scope.get("client")
        if scope["type"] not in ("http", "websocket") or not client or scope["path"] in HEALTH_PATHS:
            return self.app(scope, receive, send)
        address = address_key(str(client[0]))
        if self.running.get(address, 0) >= self.limit:
            return self._refuse(scope, send)
        return self._counted(address, scope, receive, send)

    async def _counted(self, address: str, scope: Scope, receive: Receive, send: Send) -> None:
        self.running[address] = self.running.get(address, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.running[address] - 1
            if left:
                self.running[address] = left
            else:
                del self.running[address]

    @staticmethod
    async def _refuse(scope: Scope, send: Send) -> None:
        message = "too many requests from this address at once; try again shortly"
        if scope["type"] == "http":
            await _send_error(send, 429, "too_many_requests", message)
        elif "websocket.http.response" in scope.get("extensions", {}):  # the handshake's answer: the same 429
            body = json.dumps(error_body("too_many_requests", message)).encode()
            await send({"type": "websocket.http.response.start", "status": 429,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1013})

