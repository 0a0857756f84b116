"""The hub on its own: a slow or dead client is dropped and never blocks the others."""

from __future__ import annotations

import asyncio
import json

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
