"""What stalls a serving process: the cyclic garbage collector's pauses and the event loop's lag.

``watch_gc`` (once per process) times every collection through ``gc.callbacks``; ``LoopLag`` is a task that
sleeps a fixed interval and records how late it wakes up (a collection, a slow callback on the loop or a
starved CPU all show there). Both are Prometheus histograms of the process's registry (``app.metrics``):

* ``phase10_gc_pause_seconds{generation}`` (with ``phase10_gc_pause_max_seconds{generation}`` and
  ``phase10_gc_cpu_seconds_total{generation}``),
* ``phase10_loop_lag_seconds`` (with ``phase10_loop_lag_max_seconds``).

A collection may run in any thread (the one whose allocation triggered it) and takes no lock: the callback
only does arithmetic on plain numbers (``Pauses``), which the registry reads when it is scraped.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

# From half a millisecond (a young collection) to a second (a full one of a few million objects).
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class Pauses:
    """A histogram of durations kept in plain numbers (no lock: safe to update from a ``gc`` callback)."""

    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)  # per bucket (not cumulative); the last one is +Inf
        self.total = 0.0
        self.max = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.total += seconds
        self.max = max(self.max, seconds)

    @property
    def count(self) -> int:
        return sum(self.counts)

    def buckets(self) -> list[tuple[str, float]]:
        """Cumulative Prometheus buckets."""
        out: list[tuple[str, float]] = []
        running = 0
        for bound, count in zip([*BUCKETS, float("inf")], self.counts, strict=True):
            running += count
            out.append(("+Inf" if bound == float("inf") else repr(bound), running))
        return out


GC_PAUSES = {generation: Pauses() for generation in range(3)}
GC_CPU_SECONDS = [0.0, 0.0, 0.0]  # CPU time of the collections, by generation (their pauses are wall time)
LOOP_LAG = Pauses()
_gc_started = [0.0, 0.0]  # when the running collection started: wall clock, thread CPU (collections do not nest)


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_started[0], _gc_started[1] = time.perf_counter(), time.thread_time()
    else:
        generation = int(info["generation"])
        GC_PAUSES[generation].observe(time.perf_counter() - _gc_started[0])
        GC_CPU_SECONDS[generation] += time.thread_time() - _gc_started[1]


def watch_gc() -> None:
    """Time every collection of this process (idempotent)."""
    if _on_gc not in gc.callbacks:
        gc.callbacks.append(_on_gc)


class LoopLag:
    """Every ``interval`` seconds, how late the loop woke a sleeping task (``LOOP_LAG``)."""

    def __init__(self, interval: float = 0.05) -> None:
        self.interval = interval
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(self.interval)
            LOOP_LAG.observe(max(0.0, time.perf_counter() - before - self.interval))

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None


class StallCollector(Collector):
    """Renders ``GC_PAUSES`` and ``LOOP_LAG`` for the registry."""

    def collect(self) -> Iterator[Any]:
        pauses = HistogramMetricFamily("phase10_gc_pause_seconds", "Garbage collections of this process and how "
                                       "long each stopped it, by generation (2: a full collection).",
                                       labels=["generation"])
        worst = GaugeMetricFamily("phase10_gc_pause_max_seconds", "The longest collection so far, by generation.",
                                  labels=["generation"])
        cpu = CounterMetricFamily("phase10_gc_cpu_seconds", "CPU time spent in garbage collections, by generation "
                                  "(a pause is wall time: on a busy machine it also counts time without the CPU).",
                                  labels=["generation"])
        for generation, p in GC_PAUSES.items():
            pauses.add_metric([str(generation)], p.buckets(), p.total)
            worst.add_metric([str(generation)], p.max)
            cpu.add_metric([str(generation)], GC_CPU_SECONDS[generation])
        lag = HistogramMetricFamily("phase10_loop_lag_seconds", "How late the event loop woke a task sleeping a "
                                    "fixed interval (any stall of the loop: collections, slow callbacks, CPU).")
        lag.add_metric([], LOOP_LAG.buckets(), LOOP_LAG.total)
        yield from (pauses, worst, cpu, lag,
                    GaugeMetricFamily("phase10_loop_lag_max_seconds", "The longest loop lag so far.",
                                      value=LOOP_LAG.max))
