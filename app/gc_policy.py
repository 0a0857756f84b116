"""The cyclic garbage collector's policy for a serving process: collections stay short.

A full collection examines every object the collector tracks and stops every socket while it runs: in a server
holding hundreds of tables and sockets that is a pause of 100 ms and more (``phase10_gc_pause_seconds``,
``app.stalls``), the cause of the latency outliers. An object that has lived through two collections rarely
becomes garbage (a table's cached state, a socket's tasks), so the collector is kept away from old objects:

* at start, the start-up objects (modules, mappers, compiled statements) are collected once and frozen
  (``gc.freeze``: moved to the permanent generation, which no collection examines);
* after every collection of the middle (or old) generation, its survivors are frozen too: the old generation
  stays nearly empty and a full collection is as short as a young one;
* a frozen object is still freed by reference counting when its last reference goes; only a reference *cycle*
  among frozen objects outlives them, until the sweep: every ``gc_sweep_seconds`` (settings; 10 minutes) the
  frozen objects are given back to the collector and one full collection (the one long pause of the period)
  frees those cycles. The server avoids such cycles where it can (a closed socket's connection has none): a
  bench/load.py run left some 50 unreachable objects to a sweep;
* young objects are collected a little less often than by default (``GC_THRESHOLDS``): with the defaults
  (700, 10, 10) a busy server spent about a fifth of its CPU in collections; larger first thresholds (10,000
  and up) cost memory (~60 MB at 2,000 idle sockets) for no better latency.

Memory the process freed stays in the C allocator's heap (glibc keeps freed pages; a socket's message
compressors, request buffers and query results come and go): every ``TRIM_SECONDS`` the policy asks glibc to
give free pages back to the system (``malloc_trim``, in a worker thread: a few ms that do not hold the event
loop; 5-10 MB of a bench/load.py server's resident memory). Without glibc there is nothing to ask.

At stop the frozen objects are given back to the collector (a process that serves several apps in turn, as
the tests do, does not keep their garbage).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("phase10.gc")

GC_THRESHOLDS = (2_000, 10, 10)
GC_SWEEP_SECONDS = 600.0
TRIM_SECONDS = 10.0
_state = {"collected": False, "active": 0}


def _malloc_trim() -> Callable[[], int] | None:
    """glibc's ``malloc_trim(0)``, or None where the C library has none."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return lambda: int(trim(0))


TRIM = _malloc_trim()


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """``gc.callbacks``: after a collection of the middle or the old generation, freeze every object the
    collector tracks (the young generations are empty then: all of them survived two collections)."""
    if phase == "stop" and info["generation"] >= 1:
        gc.freeze()


class GcPolicy:
    """The policy of one serving app: ``start`` when it starts serving, ``stop`` when it stops."""

    def __init__(self, sweep_seconds: float = GC_SWEEP_SECONDS, trim_seconds: float = TRIM_SECONDS) -> None:
        self.sweep_seconds = sweep_seconds
        self.trim_seconds = trim_seconds
        self.task: asyncio.Task[None] | None = None
        self.trim_task: asyncio.Task[None] | None = None
        self.started = False

    def start(self) -> None:
        """On the serving loop: collect (once per process) and freeze the start-up objects, set the thresholds,
        freeze the survivors of each older collection from now on, and sweep every ``sweep_seconds``."""
        if self.started:
            return
        self.started = True
        if not _state["collected"]:
            _state["collected"] = True
            gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        _state["active"] += 1
        if _freeze_survivors not in gc.callbacks:
            gc.callbacks.append(_freeze_survivors)
        if self.sweep_seconds > 0:
            self.task = asyncio.get_running_loop().create_task(self._sweeps())
        if self.trim_seconds > 0:
            self.trim_task = asyncio.get_running_loop().create_task(self._trims())

    async def _sweeps(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            self.sweep()

    async def _trims(self) -> None:
        while True:
            await asyncio.sleep(self.trim_seconds)
            trim = TRIM
            if trim is not None:
                await asyncio.to_thread(trim)

    def sweep(self) -> int:
        """Give the frozen objects back to the collector, collect everything (the survivors are frozen again by
        the callback) and return how many unreachable objects were found."""
        frozen, started = gc.get_freeze_count(), time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        log.info("gc sweep: %d frozen objects examined, %d unreachable found, %.0f ms", frozen, found,
                 1000 * (time.perf_counter() - started))
        return found

    async def stop(self) -> None:
        """Stop sweeping; the last app of the process to stop gives every frozen object back to the collector."""
        if not self.started:
            return
        self.started = False
        for task in (self.task, self.trim_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.task = self.trim_task = None
        _state["active"] -= 1
        if _state["active"] <= 0:
            _state["active"] = 0
            with contextlib.suppress(ValueError):
                gc.callbacks.remove(_freeze_survivors)
            gc.unfreeze()
