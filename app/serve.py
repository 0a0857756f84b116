"""Run the server: uvicorn with the limits that bound what one process holds for slow or hostile clients.

``python -m app.serve [uvicorn options]`` is ``uvicorn app.main:app`` with these defaults first (options
given later win):

* ``--http app.serve:GuardedHttpTools``: httptools with a header timeout: a connection must finish its
  request line and headers within ``PHASE10_HTTP_HEADER_TIMEOUT_SECONDS`` (10 s) of opening or of starting
  the next request, or it is closed (uvicorn alone held half a request open indefinitely). Request bodies
  are bounded in size and time by ``app.api.middleware.BodyLimit``.
* ``--limit-concurrency PHASE10_HTTP_LIMIT_CONCURRENCY`` (4,096): connections plus running requests; past
  it new requests get 503 (sockets count too: the load bench holds 2,000 idle ones).
* ``--timeout-keep-alive PHASE10_HTTP_KEEP_ALIVE_SECONDS`` (5 s) between requests on one connection.
* ``--ws-max-size PHASE10_WS_MAX_FRAME_BYTES`` (64 KiB): a bigger websocket frame is refused by the
  protocol layer before it is assembled (uvicorn's default is 16 MiB); the app's own message limit
  (``PHASE10_WS_MAX_MESSAGE_BYTES``, 16 KiB) answers ``message_too_large`` below that.
* ``--no-server-header``.

A reverse proxy in front (``deploy/Caddyfile``) adds its own header, body and idle timeouts.
"""

from __future__ import annotations

import asyncio
import sys

import uvicorn.main
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.settings import get_settings


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for the request line and headers."""

    _header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(get_settings().http_header_timeout_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def uvicorn_args(extra: list[str]) -> list[str]:
    """The uvicorn command line: the app, the hardened defaults, then ``extra``."""
    settings = get_settings()
    return ["app.main:app", "--http", "app.serve:GuardedHttpTools",
            "--limit-concurrency", str(settings.http_limit_concurrency),
            "--timeout-keep-alive", str(settings.http_keep_alive_seconds),
            "--ws-max-size", str(settings.ws_max_frame_bytes), "--no-server-header", *extra]


def main(argv: list[str] | None = None) -> None:
    uvicorn.main.main(args=uvicorn_args(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
