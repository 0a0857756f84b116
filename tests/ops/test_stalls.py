"""``app.stalls``: every garbage collection is timed by generation, the event loop's lag is measured, and both
reach ``/metrics`` (the serving app starts the watch and the lag task itself)."""

from __future__ import annotations

import asyncio
import gc
import time

from fastapi.testclient import TestClient

from app import metrics, stalls
from app.main import create_app
from app.settings import Settings
from tests.ops.test_metrics import TOKEN, sample, scrape


def test_a_collection_is_timed_by_generation() -> None:
    stalls.watch_gc()
    stalls.watch_gc()
    assert gc.callbacks.count(stalls._on_gc) == 1  # once per process
    before = [p.count for p in stalls.GC_PAUSES.values()], stalls.GC_CPU_SECONDS[2]
    junk = [[i] for i in range(100_000)]
    for item in junk:
        item.append(item)  # cycles: the collection has work to do
    del junk
    gc.collect(1)
    gc.collect()
    counts = [p.count for p in stalls.GC_PAUSES.values()]
    assert counts[1] >= before[0][1] + 1 and counts[2] >= before[0][2] + 1
    assert stalls.GC_PAUSES[2].max > 0 and stalls.GC_CPU_SECONDS[2] > before[1]
    text = metrics.render().decode()
    assert sample(text, "phase10_gc_pause_seconds_count", generation="2") == counts[2]
    assert sample(text, "phase10_gc_pause_seconds_bucket", generation="2", le="+Inf") == counts[2]
    assert sample(text, "phase10_gc_pause_max_seconds", generation="2") == stalls.GC_PAUSES[2].max


def test_pauses_fall_in_their_buckets() -> None:
    p = stalls.Pauses()
    for seconds in (0.0001, 0.003, 0.003, 0.2, 5.0):
        p.observe(seconds)
    assert dict(p.buckets()) == {"0.0005": 1, "0.001": 1, "0.0025": 1, "0.005": 3, "0.01": 3, "0.025": 3,
                                 "0.05": 3, "0.1": 3, "0.25": 4, "0.5": 4, "1.0": 4, "+Inf": 5}
    assert p.count == 5 and p.max == 5.0 and abs(p.total - 5.2061) < 1e-9


def test_a_blocked_loop_shows_as_lag() -> None:
    async def blocked() -> float:
        lag = stalls.LoopLag(interval=0.01)
        lag.start()
        await asyncio.sleep(0.03)
        time.sleep(0.15)  # a stall: nothing else runs on the loop
        await asyncio.sleep(0.03)
        await lag.stop()
        return stalls.LOOP_LAG.max

    assert asyncio.run(blocked()) >= 0.1


def test_the_server_reports_its_stalls(settings: Settings) -> None:
    with TestClient(create_app(settings.model_copy(update={"metrics_token": TOKEN}))) as client:
        assert stalls._on_gc in gc.callbacks
        time.sleep(0.2)  # the lag task wakes a few times
        text = scrape(client)
    assert sample(text, "phase10_loop_lag_seconds_count") > 0
    assert "phase10_gc_pause_seconds_bucket" in text and "phase10_gc_cpu_seconds_total" in text
