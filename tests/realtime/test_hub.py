"""The hub on its own: a slow or dead client is dropped and never blocks the others."""

from __future__ import annotations

import asyncio
import json

from app import fastjson
from app.realtime.hub import Connection, Hub
from app.services.games import FanoutData


class FastSink:
    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []
        self.closed_with: int | None = None

    async def send_text(self, data: str) -> None:
        self.sent.append(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code


class StuckSink(FastSink):
    async def send_text(self, data: str) -> None:
        await asyncio.Event().wait()  # the peer stopped reading: this send never completes


def test_slow_client_is_closed_and_others_keep_receiving() -> None:
    async def scenario() -> tuple[FastSink, StuckSink, Connection]:
        version = 0

        async def fanout(table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
            steps = [(v, {"0": [{"type": "tick", "v": v}], "spectator": []}) for v in range(since + 1, version + 1)]
            return FanoutData(table={"table_id": table_id}, seat_ids=[1], game_id=7,
                              version=version, engine_seat={1: 0}, views={0: {"v": version}, None: {}},
                              steps=steps)

        hub = Hub(fanout)
        hub.bind(asyncio.get_running_loop())
        fast_sink, stuck_sink = FastSink(), StuckSink()
        fast = Connection(fast_sink, "t", 1, queue_size=4)
        stuck = Connection(stuck_sink, "t", 1, queue_size=4)
        hub.attach(fast)
        hub.attach(stuck)
        for _ in range(30):
            version += 1
            hub.wake("t")
            for _ in range(5):
                await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        hub.detach(fast)
        return fast_sink, stuck_sink, stuck

    fast_sink, stuck_sink, stuck = asyncio.run(scenario())
    assert stuck.closed and stuck_sink.closed_with == 1013
    assert fast_sink.sent[0]["type"] == "snapshot"
    versions = [m["version"] for m in fast_sink.sent if m["type"] == "update"]
    assert versions[-1] == 30 and versions == sorted(versions)
    ticks = [e["v"] for m in fast_sink.sent if m["type"] == "update" for e in m["events"]]  # type: ignore[union-attr]
    assert ticks == list(range(fast_sink.sent[0]["version"] + 1, 31))  # type: ignore[operator]


class TextSink(FastSink):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    async def send_text(self, data: str) -> None:
        self.texts.append(data)
        await super().send_text(data)


def test_a_fan_out_encodes_the_shared_message_once_and_seats_own() -> None:
    """Two sockets of seat 0 at the same version share one encoded update; seat 1's update is its own (C-9)."""
    encodes: list[int] = []

    async def scenario() -> tuple[TextSink, TextSink, TextSink]:
        version = 0

        async def fanout(table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
            steps = [(v, {"0": [{"hand": "zero", "v": v}], "1": [{"hand": "one", "v": v}], "spectator": []})
                     for v in range(since + 1, version + 1)]
            return FanoutData(table={"table_id": table_id}, seat_ids=[10, 11], game_id=7, version=version,
                              engine_seat={10: 0, 11: 1}, views={0: {"mine": 0}, 1: {"mine": 1}}, steps=steps)

        hub = Hub(fanout)
        hub.bind(asyncio.get_running_loop())
        sinks = (TextSink(), TextSink(), TextSink())
        for sink, seat_id in zip(sinks, (10, 10, 11), strict=True):
            hub.attach(Connection(sink, "t", seat_id, queue_size=8))
        await asyncio.sleep(0.02)
        original = fastjson.dumps

        def counting(obj: object) -> str:
            if isinstance(obj, dict) and obj.get("type") == "update":
                encodes.append(1)
            return original(obj)

        fastjson.dumps = counting
        try:
            version = 1
            hub.wake("t", 1)
            await asyncio.sleep(0.02)
        finally:
            fastjson.dumps = original
        return sinks

    a, b, other = asyncio.run(scenario())
    assert len(encodes) == 2, "one encoding for seat 0's two sockets, one for seat 1"
    assert a.texts[-1] == b.texts[-1] != other.texts[-1]
    assert a.sent[-1]["view"] == {"mine": 0} and other.sent[-1]["view"] == {"mine": 1}
    assert "one" not in a.texts[-1] and "zero" not in other.texts[-1]


def test_a_detached_connection_is_freed_without_cycle_collection() -> None:
    """A server freezes its long-lived objects out of the collector's sight (app/gc_policy.py): a closed socket's
    connection must not sit in a reference cycle, or it would wait for the next sweep."""
    import gc
    import weakref

    async def scenario() -> weakref.ref[Connection]:
        async def fanout(table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
            return FanoutData(table={"table_id": table_id}, seat_ids=[1], game_id=7, version=1, engine_seat={1: 0},
                              views={0: {}, None: {}}, steps=[])

        hub = Hub(fanout)
        hub.bind(asyncio.get_running_loop())
        conn = Connection(FastSink(), "t", 1, queue_size=4)
        hub.attach(conn)
        await asyncio.sleep(0.05)
        hub.detach(conn)
        await asyncio.sleep(0.05)
        return weakref.ref(conn)

    gc.disable()
    try:
        ref = asyncio.run(scenario())
        assert ref() is None
    finally:
        gc.enable()


def test_an_idle_socket_holds_no_writer_task() -> None:
    """A socket's writer task runs only while its queue holds something (an idle socket costs less memory), and
    messages still go out in order."""

    async def scenario() -> tuple[FastSink, list[bool]]:
        sink = FastSink()
        conn = Connection(sink, "t", 1, queue_size=8)
        seen = [conn.writer is None]
        for i in range(3):
            conn.send({"type": "n", "i": i})
        seen.append(conn.writer is not None)
        await asyncio.sleep(0.01)
        seen.append(conn.writer is None and conn.queue == [])
        conn.send({"type": "n", "i": 3})
        await asyncio.sleep(0.01)
        seen.append(conn.writer is None)
        return sink, seen

    sink, seen = asyncio.run(scenario())
    assert seen == [True, True, True, True]
    assert [m["i"] for m in sink.sent] == [0, 1, 2, 3]


def test_the_table_key_is_remade_only_on_info_or_presence() -> None:
    """Fan-outs from the same cached table info with the same sockets online reuse the table key (no JSON made);
    a seat coming online changes it, and the sockets get one ``table`` message with the new flag."""
    sorted_dumps: list[int] = []
    dumps_sorted = fastjson.dumps_sorted

    def counting(value: object) -> str:
        sorted_dumps.append(1)
        return dumps_sorted(value)

    base = {"table_id": "t", "seats": [{"name": "A"}, {"name": "B"}], "game": {"version": 0}}

    async def scenario() -> list[dict[str, object]]:
        version = 0

        async def fanout(table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
            return FanoutData(table=dict(base, game={"version": version}), seat_ids=[1, 2], game_id=7,
                              version=version, engine_seat={1: 0, 2: 1}, views={0: {"v": version}, 1: {}},
                              table_base=base)

        hub = Hub(fanout)
        hub.bind(asyncio.get_running_loop())
        sink = FastSink()
        hub.attach(Connection(sink, "t", 1, queue_size=16))
        await asyncio.sleep(0.02)
        made = len(sorted_dumps)
        for _ in range(3):
            version += 1
            hub.wake("t", version)
            await asyncio.sleep(0.02)
        assert len(sorted_dumps) == made  # same info, same sockets online: the key is reused
        hub.attach(Connection(FastSink(), "t", 2, queue_size=16))  # seat B comes online
        await asyncio.sleep(0.02)
        assert len(sorted_dumps) == made + 1
        return sink.sent

    fastjson.dumps_sorted = counting  # type: ignore[assignment]
    try:
        sent = asyncio.run(scenario())
    finally:
        fastjson.dumps_sorted = dumps_sorted  # type: ignore[assignment]
    assert [m["type"] for m in sent] == ["snapshot", "update", "update", "update", "table"]
    table = sent[-1]["table"]
    assert [seat["connected"] for seat in table["seats"]] == [True, True]  # type: ignore[index]


def test_a_message_is_sent_at_once_or_else_queued_in_order() -> None:
    """With the server's ``SEND_NOW`` extension a message goes out at once (no writer task); when it refuses (a
    paused transport) the message is queued, and the ones after it wait in the queue behind it, in order."""
    now: list[str] = []
    accept = [True]

    def send_now(text: str) -> bool:
        if accept[0]:
            now.append(text)
        return accept[0]

    async def scenario() -> TextSink:
        sink = TextSink()
        conn = Connection(sink, "t", 1, queue_size=8, send_now=send_now)
        conn.send_text("1")
        assert conn.writer is None and now == ["1"]
        accept[0] = False
        conn.send_text("2")
        accept[0] = True
        conn.send_text("3")  # behind "2": queued, not sent at once
        assert now == ["1"] and conn.writer is not None
        await asyncio.sleep(0.01)
        assert conn.writer is None
        conn.send_text("4")
        return sink

    sink = asyncio.run(scenario())
    assert sink.texts == ["2", "3"] and now == ["1", "4"]
