"""The application heartbeat (docs/protocol.md, Heartbeat): the server pings every socket, any message from the
client counts as a sign of life, and a socket silent for the idle timeout is dropped so that its seat shows
disconnected (a phone that lost its network sends no close frame)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.realtime.hub import Connection, Hub
from app.services.games import FanoutData
from app.settings import Settings
from tests.server_helpers import new_table


class Sink:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None

    async def send_text(self, data: str) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code


async def _no_fanout(table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
    return FanoutData(table={"seats": [{"seat": 0}, {"seat": 1}]}, seat_ids=[1, 2], game_id=None, version=0,
                      engine_seat={1: 0, 2: 1}, views={})


def test_beat_pings_the_living_and_drops_the_silent() -> None:
    async def run() -> None:
        hub = Hub(_no_fanout)
        hub.bind(asyncio.get_running_loop())
        alive, silent = Sink(), Sink()
        a = Connection(alive, "t1", 1, 16)
        b = Connection(silent, "t1", 2, 16)
        hub.attach(a)
        hub.attach(b)
        assert hub.presence("t1") == {1, 2}
        now = time.monotonic()
        a.last_heard, b.last_heard = now - 1.0, now - 13.0
        hub.beat(12.0, now)
        assert b.closed and hub.presence("t1") == {1}
        await asyncio.sleep(0.05)
        assert '{"type": "ping"}' in alive.sent
        assert silent.closed == 4408
        assert not a.closed
        await hub.close()

    asyncio.run(run())


def test_a_socket_heard_only_by_the_protocol_is_alive() -> None:
    """Behind ``app.serve`` the protocol answers the heartbeat's messages itself (the ``HEARTBEAT`` extension): the
    beat reads when it last heard the peer, so a socket whose pongs never reached the app is neither dropped nor
    pinged before its time, while one the protocol has not heard from either is dropped."""
    async def run() -> None:
        hub = Hub(_no_fanout)
        hub.bind(asyncio.get_running_loop())
        now = time.monotonic()
        answered, silent = Sink(), Sink()
        a = Connection(answered, "t1", 1, 16, heard_at=lambda: now - 1.0)
        b = Connection(silent, "t1", 2, 16, heard_at=lambda: now - 13.0)
        hub.attach(a)
        hub.attach(b)
        a.last_heard = b.last_heard = now - 13.0
        hub.beat(12.0, now, quiet=4.0)
        await asyncio.sleep(0.05)
        assert not a.closed and '{"type": "ping"}' not in answered.sent
        assert b.closed and silent.closed == 4408
        await hub.close()

    asyncio.run(run())


def test_beat_with_idle_timeout_zero_only_pings() -> None:
    async def run() -> None:
        hub = Hub(_no_fanout)
        hub.bind(asyncio.get_running_loop())
        sink = Sink()
        conn = Connection(sink, "t1", 1, 16)
        hub.attach(conn)
        conn.last_heard = time.monotonic() - 3600
        hub.beat(0.0)
        await asyncio.sleep(0.05)
        assert not conn.closed and '{"type": "ping"}' in sink.sent
        await hub.close()

    asyncio.run(run())


@pytest.fixture()
def quick(settings: Settings) -> Iterator[TestClient]:
    from app.main import create_app

    fast = settings.model_copy(update={"ws_heartbeat_seconds": 0.2, "ws_idle_timeout_seconds": 0.8})
    with TestClient(create_app(fast)) as test_client:
        yield test_client


def _next(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg


def _connected(client: TestClient, table_id: str) -> list[bool]:
    return [seat["connected"] for seat in client.get(f"/api/tables/{table_id}").json()["seats"]]


def test_a_socket_that_answers_stays_and_a_silent_one_is_dropped(quick: TestClient) -> None:
    t = new_table(quick, players=2)
    with quick.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}") as host, \
            quick.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[1]}") as guest:
        _next(host, "snapshot")
        _next(guest, "snapshot")
        assert _connected(quick, t.id) == [True, True]
        seen: list[list[bool]] = []  # the connected flags of every table info the host's socket received
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:  # the host answers every ping; the guest says nothing
            msg = host.receive_json()
            if msg["type"] == "ping":
                host.send_json({"type": "pong"})
            elif msg["type"] == "table":
                seen.append([seat["connected"] for seat in msg["table"]["seats"]])
        assert _connected(quick, t.id) == [True, False]
        assert seen and seen[-1] == [True, False]  # the host's page was told
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                guest.receive_json()
        assert closed.value.code == 4408


def test_beat_pings_only_sockets_silent_for_the_interval() -> None:
    """A socket heard from within the last interval (a page pings every few seconds itself, and gets a pong) is
    not pinged; one quiet for the interval is."""
    async def run() -> None:
        hub = Hub(_no_fanout)
        hub.bind(asyncio.get_running_loop())
        recent_sink, quiet_sink = Sink(), Sink()
        recent = Connection(recent_sink, "t1", 1, 16)
        quiet = Connection(quiet_sink, "t1", 2, 16)
        hub.attach(recent)
        hub.attach(quiet)
        await asyncio.sleep(0.05)
        recent_sink.sent.clear()
        quiet_sink.sent.clear()
        now = time.monotonic()
        recent.last_heard, quiet.last_heard = now - 1.0, now - 4.5
        hub.beat(10.0, now, quiet=4.0)
        await asyncio.sleep(0.05)
        assert recent_sink.sent == [] and quiet_sink.sent == ['{"type": "ping"}']
        assert not recent.closed and not quiet.closed
        await hub.close()

    asyncio.run(run())
