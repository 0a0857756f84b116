"""``python -m app.serve``: the uvicorn command line carries the slow-client limits from the settings, the
protocol classes it names are importable by uvicorn, options given later win (a host may override), and
websockets compress (with zlib-ng) without keeping zlib state between messages, and the protocol answers the
application heartbeat itself."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn
import websockets
from uvicorn.importer import import_from_string
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode
from zlib_ng import zlib_ng

from app import fastjson
from app.realtime.hub import HEARTBEAT, SEND_NOW
from app.rules import registry
from app.serve import GuardedHttpTools, LeanWebSockets, SmallMessagesPlain, uvicorn_args
from app.settings import Settings, get_settings
from tests.rules.playout import choose


@asynccontextmanager
async def lean_server(app: Any) -> AsyncIterator[tuple[int, uvicorn.Server]]:
    """A real uvicorn serving ``app`` on a free loopback port with ``LeanWebSockets``: (port, server)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws=LeanWebSockets, lifespan="off",
                                           log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield port, server
    finally:
        server.should_exit = True
        await task


def lean_protocol(server: uvicorn.Server) -> LeanWebSockets:
    """The one websocket connection ``server`` holds."""
    (protocol,) = [c for c in server.server_state.connections if isinstance(c, LeanWebSockets)]
    return protocol


def _option(args: list[str], name: str) -> str:
    """The value uvicorn will use: the last occurrence of ``name`` (click keeps the last)."""
    return args[len(args) - 1 - args[::-1].index(name) + 1]


def test_the_command_line_carries_the_limits() -> None:
    settings = get_settings()
    args = uvicorn_args(["--port", "9"])
    assert args[0] == "app.main:app"
    assert _option(args, "--limit-concurrency") == str(settings.http_limit_concurrency)
    assert _option(args, "--timeout-keep-alive") == str(settings.http_keep_alive_seconds)
    assert _option(args, "--ws-max-size") == str(settings.ws_max_frame_bytes)
    assert "--no-server-header" in args
    assert import_from_string(_option(args, "--http")) is GuardedHttpTools
    assert issubclass(GuardedHttpTools, HttpToolsProtocol)
    assert import_from_string(_option(args, "--ws")) is LeanWebSockets
    assert _option(uvicorn_args(["--limit-concurrency", "7"]), "--limit-concurrency") == "7"


def test_protocol_pings_off_app_heartbeat_drops_silent_sockets(
        monkeypatch: Any) -> None:
    """The application heartbeat (docs/protocol.md) already closes a silent socket: uvicorn's own keepalive pings
    are turned off then, and kept when the heartbeat is off."""
    assert get_settings().ws_heartbeat_seconds > 0 and get_settings().ws_idle_timeout_seconds > 0
    assert float(_option(uvicorn_args([]), "--ws-ping-interval")) == 0
    monkeypatch.setattr("app.serve.get_settings", lambda: Settings(ws_idle_timeout_seconds=0))
    assert "--ws-ping-interval" not in uvicorn_args([])


def test_websockets_compress_without_state_kept_between_messages() -> None:
    """permessage-deflate is negotiated without context takeover either way: a socket holds no zlib compressor
    or decompressor between messages (they cost ~44 KB per socket), and messages still go through compressed;
    the handshake's request and response are not kept either."""
    async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        await receive()
        await send({"type": "websocket.accept"})
        while (message := await receive())["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": message["text"] * 20})

    async def scenario() -> None:
        async with lean_server(echo) as (port, server), websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
            agreed = ws.response.headers["Sec-WebSocket-Extensions"]
            assert "permessage-deflate" in agreed
            assert "server_no_context_takeover" in agreed and "client_no_context_takeover" in agreed
            for text in ("hello", '{"type": "ping"}'):
                await ws.send(text)
                assert await ws.recv() == text * 20
            protocol = lean_protocol(server)
            (deflate,) = protocol.conn.extensions
            assert not hasattr(deflate, "encoder") and not hasattr(deflate, "decoder")
            # Short messages go uncompressed (RSV1 unset), longer ones compressed at level 1; the echo above
            # exchanged one of each with a real client (100 and 320 characters).
            assert isinstance(deflate, SmallMessagesPlain) and deflate.compress_settings["level"] == 1
            short, long = (deflate.encode(Frame(Opcode.TEXT, text.encode()))
                           for text in ("hello" * 20, '{"type": "ping"}' * 20))
            assert not short.rsv1 and short.data == b"hello" * 20
            assert long.rsv1 and len(long.data) < 100
            assert protocol.request is None and protocol.response is None  # the handshake is forgotten

    asyncio.run(scenario())


def test_updates_compressed_by_zlib_ng_inflate_with_zlib() -> None:
    """Every message of a played game's fan-out (the views of 300 commands) is compressed by zlib-ng at level 1 --
    byte for byte what ``zlib_ng`` makes, which zlib's level 1 does not -- and the client side of the negotiated
    extension (websockets' own decoder on Python's zlib, a fresh decompressor per message as agreed) gets every
    message back exactly; fragmented messages still go through websockets' path."""
    ruleset = registry.get("mattel")
    state = ruleset.new_game(7, 4, ruleset.parse_options({}))
    rnd = random.Random(7)
    server = SmallMessagesPlain(True, True, 12, 12, {"level": 1, "memLevel": 5})
    client = PerMessageDeflate(True, True, 12, 12)  # the client's side of the same agreement
    differs_from_zlib = 0
    for _ in range(300):
        seat = rnd.choice(ruleset.awaited(state))
        state, _events = ruleset.apply(state, seat, choose(ruleset.legal_commands(state, seat), rnd))
        text = fastjson.dumps({"type": "update", "view": ruleset.player_view(state, seat)}).encode()
        sent = server.encode(Frame(Opcode.TEXT, text))
        assert sent.rsv1 and len(sent.data) < len(text) / 2
        ng = zlib_ng.compressobj(1, zlib_ng.DEFLATED, -12, 5)
        assert sent.data == (ng.compress(text) + ng.flush(zlib_ng.Z_SYNC_FLUSH))[:-4]
        plain = zlib.compressobj(1, zlib.DEFLATED, -12, 5)
        differs_from_zlib += sent.data != (plain.compress(text) + plain.flush(zlib.Z_SYNC_FLUSH))[:-4]
        assert client.decode(sent).data == text
    assert differs_from_zlib == 300
    first = server.encode(Frame(Opcode.TEXT, b"x" * 300, fin=False))
    last = server.encode(Frame(Opcode.CONT, b"y" * 300))
    assert first.rsv1 and not last.rsv1
    assert client.decode(first).data == b"x" * 300
    assert client.decode(last).data == b"y" * 300


def test_the_app_sends_text_at_once_unless_transport_paused() -> None:
    """``LeanWebSockets`` offers the app the ``SEND_NOW`` scope extension: a message is written at once (no await)
    and arrives like any other; while the transport is paused (a slow reader) it refuses, so the app queues; once
    the connection is gone the scope no longer holds it (no reference cycle outlives the socket)."""
    scopes: list[dict[str, Any]] = []
    answers: list[bool] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        scopes.append(scope)
        await receive()
        await send({"type": "websocket.accept"})
        send_now = scope["extensions"][SEND_NOW]
        while (message := await receive())["type"] == "websocket.receive":
            answers.append(send_now("now:" + message["text"]))

    async def scenario() -> None:
        async with lean_server(app) as (port, server):
            async with websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
                await ws.send("a" * 500)  # compressed on the way (long enough)
                assert await ws.recv() == "now:" + "a" * 500
                protocol = lean_protocol(server)
                protocol.pause_writing()
                await ws.send("b")
                while len(answers) < 2:
                    await asyncio.sleep(0.01)
                protocol.resume_writing()
                await ws.send("c")
                assert await ws.recv() == "now:c"
            assert answers == [True, False, True]
            for _ in range(100):
                if SEND_NOW not in scopes[0]["extensions"]:
                    break
                await asyncio.sleep(0.01)
            assert SEND_NOW not in scopes[0]["extensions"]

    asyncio.run(scenario())


def test_the_protocol_answers_the_heartbeat_the_app_hands_over() -> None:
    """Before the app takes the ``HEARTBEAT`` extension a ``ping`` reaches it like any message. After: a ``ping``
    is answered with its ``pong`` (its ``ref`` echoed) and a ``pong`` dropped by the protocol, neither reaching the
    app; any other message, a look-alike with more keys or a malformed one still does; every frame received moves
    the time the app reads forward."""
    received: list[str] = []
    heard: list[Any] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        while (message := await receive())["type"] == "websocket.receive":
            received.append(message["text"])
            if message["text"] == "hand over":
                heard.append(scope["extensions"][HEARTBEAT]())
            await send({"type": "websocket.send", "text": "got " + message["text"]})

    async def scenario() -> None:
        async with lean_server(app) as (port, _):
            async with websockets.connect(f"ws://127.0.0.1:{port}/", ping_interval=None) as ws:
                await ws.send('{"type": "ping", "ref": 1}')
                assert await ws.recv() == 'got {"type": "ping", "ref": 1}'  # the app's, before the hand-over
                await ws.send("hand over")
                assert await ws.recv() == "got hand over"
                (last_heard,) = heard
                before = last_heard()
                await asyncio.sleep(0.05)
                await ws.send('{"type":"pong"}')
                await ws.send('{"type": "ping", "ref": 7}')
                assert json.loads(await ws.recv()) == {"type": "pong", "ref": 7}
                await ws.send('{"type":"ping"}')
                assert json.loads(await ws.recv()) == {"type": "pong", "ref": None}
                assert last_heard() > before
                for other in ('{"type": "ping", "ref": 2, "x": 1}', '{"type": "pong", "x": 1}', '{"type": "ping"',
                              '["ping"]', '{"type": "visibility", "visible": false}'):
                    await ws.send(other)
                    assert await ws.recv() == "got " + other
            assert received == ['{"type": "ping", "ref": 1}', "hand over", '{"type": "ping", "ref": 2, "x": 1}',
                                '{"type": "pong", "x": 1}', '{"type": "ping"', '["ping"]',
                                '{"type": "visibility", "visible": false}']

    asyncio.run(scenario())
