"""Run the server: uvicorn with the limits that bound what one process holds for slow or hostile clients.

``python -m app.serve [uvicorn options]`` is ``uvicorn app.main:app`` with these defaults first (options
given later win):

* ``--http app.serve:GuardedHttpTools``: httptools with a header timeout: a connection must finish its
  request line and headers within ``PHASE10_HTTP_HEADER_TIMEOUT_SECONDS`` (10 s) of opening or of starting
  the next request, or it is closed (uvicorn alone held half a request open indefinitely). Request bodies
  are bounded in size and time by ``app.api.middleware.BodyLimit``.
* ``--limit-concurrency PHASE10_HTTP_LIMIT_CONCURRENCY`` (4,096): connections (idle ones and websockets too:
  the load bench holds 2,000 idle sockets) plus running requests. Past it ``GuardedHttpTools`` answers a new
  request, and a websocket handshake (which uvicorn would upgrade before checking), with ``Busy``: a JSON 503
  ``server_busy``, ``Retry-After: 1``, the connection closed (uvicorn's own answer is plain text).
  ``/healthz`` and ``/readyz`` are still served: a probe must tell a busy process from a dead one.
* ``PHASE10_HTTP_LIMIT_PER_ADDRESS`` (256), so that one address cannot take that whole limit: a peer address
  (an IPv6 one by its /64 network) holds at most this many connections (websockets included); one more is
  closed at once, before anything is read. A trusted proxy's address (``FORWARDED_ALLOW_IPS``) is not capped
  here, since its connections carry every player's; ``app.api.middleware.AddressLimit`` counts each client
  address as the proxy names it (``X-Forwarded-For``, believed from ``FORWARDED_ALLOW_IPS`` only), else the
  peer's: at most this many running requests and open sockets, then 429 ``too_many_requests`` (a socket's
  handshake too). Health and readiness are not counted.
* ``--timeout-keep-alive PHASE10_HTTP_KEEP_ALIVE_SECONDS`` (5 s) between requests on one connection.
* ``--ws-max-size PHASE10_WS_MAX_FRAME_BYTES`` (64 KiB): a bigger websocket frame is refused by the
  protocol layer before it is assembled (uvicorn's default is 16 MiB); the app's own message limit
  (``PHASE10_WS_MAX_MESSAGE_BYTES``, 16 KiB) answers ``message_too_large`` below that.
* ``--ws app.serve:LeanWebSockets``: uvicorn's websockets (sans-I/O) protocol whose permessage-deflate keeps no
  compression state between messages (``server_no_context_takeover`` and ``client_no_context_takeover``): each
  message is compressed on its own and the zlib compressor and decompressor exist only while a message is
  encoded or decoded, instead of living as long as the socket (about 44 KB of memory per socket, idle or
  not, with uvicorn's settings). Frames are small JSON documents: they still shrink on their own (a 420-byte
  update to 160 bytes; a kept context does better on content repeated from earlier messages), and a fresh
  compressor per message costs ~4 µs. Messages are compressed at level 1 by zlib-ng (``SmallMessagesPlain``: a
  3.4 KB update in 14 µs instead of zlib's 32 µs, 1,140 bytes instead of 930), and one shorter than
  ``PLAIN_BELOW`` bytes (an ack, a ping, a pong) is sent uncompressed, as RFC 7692 allows per message
  (compressing it saves a few bytes at the cost of a compressor). The handshake's request and response (their
  headers) are dropped once it is done.
* ``--ws-ping-interval 0`` while the application heartbeat runs (``ws_heartbeat_seconds`` and
  ``ws_idle_timeout_seconds`` both set): it already drops a silent socket, so the protocol's own keepalive
  pings (uvicorn's default, every 20 s) would only double the work per idle socket.
* The application heartbeat's messages are answered by the protocol (``LeanWebSockets``): a ``pong`` is
  taken as a sign of life and dropped, a ``ping`` answered with its ``pong``, without an ASGI message, a task
  wake-up or the app's JSON parsing; any frame received counts as a sign of life, which the app reads through
  the ``HEARTBEAT`` scope extension. With 800 idle sockets the server's CPU at rest fell from 2.0–2.8 % to 1.4 %
  of a core (``docs/performance.md``).
* ``--no-server-header``.

A reverse proxy in front (``deploy/Caddyfile``) adds its own header and idle timeouts and body bound, and names
each player's address in ``X-Forwarded-For``; it does not bound connections per address (docs/security.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import uvicorn.main
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter
from zlib_ng import zlib_ng

from app import fastjson
from app.settings import get_settings

# Open connections per peer address (``GuardedHttpTools`` and the websockets it upgrades to; one event loop).
_PEERS: dict[str, int] = {}
_TRUSTED: dict[str, Any] = {}  # FORWARDED_ALLOW_IPS as uvicorn reads it, by its text


def _proxy(config: Config, host: str) -> bool:
    """Whether ``host`` is a trusted proxy (``FORWARDED_ALLOW_IPS``): its connections carry many clients'."""
    from uvicorn.middleware.proxy_headers import _TrustedHosts

    key = repr(config.forwarded_allow_ips)
    if key not in _TRUSTED:
        _TRUSTED[key] = _TrustedHosts(config.forwarded_allow_ips)
    return host in _TRUSTED[key]


def _release(peer: str | None) -> None:
    if peer is not None:
        left = _PEERS.get(peer, 1) - 1
        if left > 0:
            _PEERS[peer] = left
        else:
            _PEERS.pop(peer, None)


class Busy:
    """What a request gets once the process holds ``--limit-concurrency`` connections or running requests:
    503 ``server_busy`` as a JSON error (uvicorn's own answer is plain text), ``Retry-After: 1``, the connection
    closed; ``/healthz`` and ``/readyz`` are still served (a probe must tell a busy process from a dead one)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        from app.api.middleware import HEALTH_PATHS

        if scope["path"] in HEALTH_PATHS:
            await self.app(scope, receive, send)
            return
        body = fastjson.dumps({"error": {"code": "server_busy",
                                         "message": "the server is busy; try again shortly"}}).encode()
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"retry-after", b"1"), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body, "more_body": False})


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for the request line and headers, the concurrency limit's
    answer ``Busy`` (to requests and websocket handshakes; health and readiness still served), and at most
    ``PHASE10_HTTP_LIMIT_PER_ADDRESS`` connections (websockets included) per peer address (IPv6: per /64): one
    more is closed at once, before anything is read. A trusted proxy's address (``FORWARDED_ALLOW_IPS``) is not
    capped here: its connections carry every player's; ``app.api.middleware.AddressLimit`` caps each player's
    address behind it."""

    _header_timer: asyncio.TimerHandle | None = None

    def __init__(self, config: Config, server_state: ServerState,
                 app_state: dict[str, Any], _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limit = self.limit_concurrency
        self.limit_concurrency = None  # checked here (``on_headers_complete``), with health exempt
        self.peer: str | None = None  # the peer address this connection counts for
        self.busy = False  # this connection's request is answered by ``Busy`` (then closed)

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
        from app.services.security import address_key  # an IPv6 peer counts by its /64 network

        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host is not None and not _proxy(self.config, host):
            host = address_key(host)
            if _PEERS.get(host, 0) >= get_settings().http_limit_per_address:
                transport.close()  # this address holds its share already
                return
            _PEERS[host] = _PEERS.get(host, 0) + 1
            self.peer = host
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        if self.limit is None or (len(self.connections) < self.limit and len(self.tasks) < self.limit):
            super().on_headers_complete()
            return
        # Busy: a websocket handshake too is answered as a request (uvicorn would upgrade it before checking).
        self.busy = True
        app, self.app = self.app, Busy(self.app)
        try:
            super().on_headers_complete()
        finally:
            self.app = app

    def _should_upgrade(self) -> bool:
        return not self.busy and super()._should_upgrade()

    def _unsupported_upgrade_warning(self) -> None:
        if not self.busy:  # a handshake refused by ``Busy`` is not an unsupported upgrade
            super()._unsupported_upgrade_warning()

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        protocol = self.transport.get_protocol()
        if isinstance(protocol, LeanWebSockets):  # the socket counts for the peer from now on
            protocol.peer, self.peer = self.peer, None

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        _release(self.peer)
        self.peer = None
        super().connection_lost(exc)


# A client message this long or shorter may be a heartbeat message, which the protocol answers itself.
HEARTBEAT_BYTES = 64

# A message shorter than this is sent uncompressed (RFC 7692: a sender may leave any message uncompressed).
PLAIN_BELOW = 200


class SmallMessagesPlain(PerMessageDeflate):
    """permessage-deflate that leaves short single-frame messages uncompressed (RSV1 unset) and compresses the
    other single-frame messages with zlib-ng: the same deflate format any peer's zlib inflates, made about 2.5
    times faster than zlib's level 1 (a 3.4 KB update: 14 µs instead of 32 µs, 1,140 bytes instead of 930).
    Fragmented messages (the server sends none) take websockets' own path."""

    def encode(self, frame: Frame) -> Frame:
        if not frame.fin or frame.opcode not in (Opcode.TEXT, Opcode.BINARY) or not self.local_no_context_takeover:
            return super().encode(frame)
        if len(frame.data) < PLAIN_BELOW:
            return frame
        encoder = zlib_ng.compressobj(self.compress_settings.get("level", 1), zlib_ng.DEFLATED,
                                      -self.local_max_window_bits, self.compress_settings.get("memLevel", 8))
        data = encoder.compress(frame.data) + encoder.flush(zlib_ng.Z_SYNC_FLUSH)
        # A sync flush ends with the empty stored block 00 00 ff ff, which the sender removes (RFC 7692, 7.2.1).
        return Frame(frame.opcode, data[:-4], True, True, frame.rsv2, frame.rsv3)


class LeanDeflateFactory(ServerPerMessageDeflateFactory):
    """The server side of the negotiation, agreeing on ``SmallMessagesPlain``."""

    def process_request_params(self, params: Sequence[ExtensionParameter],
                               accepted_extensions: Sequence[Extension]) -> tuple[list[ExtensionParameter],
                                                                                  PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, SmallMessagesPlain(agreed.remote_no_context_takeover, agreed.local_no_context_takeover,
                                            agreed.remote_max_window_bits, agreed.local_max_window_bits,
                                            agreed.compress_settings)


def lean_deflate() -> ServerPerMessageDeflateFactory:
    """permessage-deflate without context takeover either way (uvicorn's window and memory sizes), at zlib
    level 1, short messages uncompressed."""
    return LeanDeflateFactory(server_no_context_takeover=True, client_no_context_takeover=True,
                              server_max_window_bits=12, client_max_window_bits=12,
                              compress_settings={"memLevel": 5, "level": 1})


class LeanWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol with ``lean_deflate`` (when deflate is on: ``--ws-per-message-deflate``),
    which forgets the handshake's request and response (their headers) once the handshake is done, offers the
    app ``send_text_now`` as the ASGI scope extension ``SEND_NOW`` and answers the application heartbeat once the
    app hands it over (``HEARTBEAT``; both in app/realtime/hub.py)."""

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.heard_at = 0.0  # ``time.monotonic()`` when the peer last sent anything
        self.peer: str | None = None  # the peer address this socket counts for (``GuardedHttpTools``)
        self.heartbeat_here = False  # the app asked this protocol to answer the application heartbeat
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(extensions=[lean_deflate()], max_size=config.ws_max_size,
                                       logger=logging.getLogger("uvicorn.error"))

    def start_keepalive(self) -> None:
        """Called once the accepting response is sent: the handshake's objects are no longer used."""
        super().start_keepalive()
        self.request = self.response = None  # type: ignore[assignment]

    def handle_connect(self, event: Request) -> None:
        # Imported here: uvicorn's supervisor process (--workers) imports this module, and should not load the app.
        from app.realtime.hub import HEARTBEAT, SEND_NOW

        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_text_now
            scope["extensions"][HEARTBEAT] = self.take_heartbeat

    def connection_lost(self, exc: Exception | None) -> None:
        from app.realtime.hub import HEARTBEAT, SEND_NOW

        super().connection_lost(exc)
        _release(self.peer)
        self.peer = None
        scope = getattr(self, "scope", None)
        if scope is not None:  # no reference cycle outlives the socket
            scope["extensions"].pop(SEND_NOW, None)
            scope["extensions"].pop(HEARTBEAT, None)

    def take_heartbeat(self) -> Callable[[], float]:
        """The ``HEARTBEAT`` extension: from now on this protocol answers the application heartbeat's messages
        itself (``handle_text``); returns when the peer was last heard from (``time.monotonic()``)."""
        self.heartbeat_here = True
        return self.last_heard

    def last_heard(self) -> float:
        return self.heard_at

    def data_received(self, data: bytes) -> None:
        self.heard_at = time.monotonic()
        super().data_received(data)

    def handle_text(self, event: Frame) -> None:
        if self.heartbeat_here and event.fin and len(event.data) <= HEARTBEAT_BYTES and self.heartbeat(event.data):
            return
        super().handle_text(event)

    def heartbeat(self, data: bytes | bytearray | memoryview) -> bool:
        """Handle an application heartbeat message here (docs/protocol.md, Heartbeat): ``{"type": "pong"}`` is
        dropped (being heard was its point), ``{"type": "ping", "ref": …}`` answered with its ``pong``. Anything
        else (and a ping whose pong cannot be sent at once) goes to the app as usual: False."""
        try:
            message = json.loads(bytes(data))
        except ValueError:  # not JSON, not UTF-8: the app answers with its error
            return False
        if not isinstance(message, dict):
            return False
        kind = message.get("type")
        if kind == "pong" and len(message) == 1:
            return True
        if kind == "ping" and message.keys() <= {"type", "ref"}:
            return self.send_text_now(fastjson.dumps({"type": "pong", "ref": message.get("ref")}))
        return False

    def send_text_now(self, text: str) -> bool:
        """Send a text message at once, exactly as ``send`` would, when nothing could make ``send`` wait or
        refuse: the handshake done and accepted, no close sent or received, the transport not paused (a slow
        reader). False otherwise: the app then sends through ``send`` (an await: one task per message)."""
        if (not self.handshake_complete or self.initial_response is not None or self.close_sent or self.disconnected
                or not self.writable.is_set() or self.transport.is_closing()):
            return False
        try:
            self.conn.send_text(text.encode())
        except Exception:  # the protocol is closing (the peer's close frame came in): ``send`` decides
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


def uvicorn_args(extra: list[str]) -> list[str]:
    """The uvicorn command line: the app, the hardened defaults, then ``extra``."""
    settings = get_settings()
    # The application heartbeat drops silent sockets: the protocol's keepalive pings would repeat it.
    app_heartbeat = settings.ws_heartbeat_seconds > 0 and settings.ws_idle_timeout_seconds > 0
    heartbeat = ["--ws-ping-interval", "0"] if app_heartbeat else []
    return ["app.main:app", "--http", "app.serve:GuardedHttpTools", "--ws", "app.serve:LeanWebSockets",
            "--limit-concurrency", str(settings.http_limit_concurrency),
            "--timeout-keep-alive", str(settings.http_keep_alive_seconds),
            "--ws-max-size", str(settings.ws_max_frame_bytes), "--no-server-header", *heartbeat, *extra]


def main(argv: list[str] | None = None) -> None:
    uvicorn.main.main(args=uvicorn_args(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
