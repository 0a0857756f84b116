"""``app.gc_policy``: a serving app freezes its start-up objects and the survivors of every collection of the
middle or old generation (so full collections stay short), the sweep frees cycles among frozen objects, and
stopping gives every frozen object back to the collector."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

from fastapi.testclient import TestClient

from app.gc_policy import GC_THRESHOLDS, GcPolicy, _freeze_survivors
from app.main import create_app
from app.settings import Settings


class Node:
    """An object that can sit in a reference cycle."""

    other: Any = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_gc_survivors_are_frozen_and_the_sweep_frees_cycles() -> None:
    async def scenario() -> None:
        policy = GcPolicy(sweep_seconds=0)
        policy.start()
        try:
            assert gc.get_threshold() == GC_THRESHOLDS and GC_THRESHOLDS[0] > 700  # the default
            assert gc.get_freeze_count() > 0  # start-up objects are out of the collector's sight
            holder = [cycle()]
            ref = holder[0]
            strong = ref()
            gc.collect()  # a full collection: the live cycle survives and is frozen
            assert gc.get_objects(generation=2) == []  # the next full collection starts from nothing
            del strong, holder
            gc.collect()
            assert ref() is not None, "a frozen cycle waits for the sweep"
            assert policy.sweep() > 0
            assert ref() is None
            assert gc.get_freeze_count() > 0  # the sweep's survivors are frozen again
        finally:
            await policy.stop()
        assert gc.get_freeze_count() == 0 and _freeze_survivors not in gc.callbacks

    asyncio.run(scenario())


def test_survivors_of_a_middle_collection_are_frozen() -> None:
    async def scenario() -> None:
        policy = GcPolicy(sweep_seconds=0)
        policy.start()
        try:
            frozen = gc.get_freeze_count()
            keep = [[i] for i in range(1000)]
            gc.collect(1)
            assert gc.get_freeze_count() >= frozen + 1000 and gc.get_objects(generation=2) == []
            del keep
        finally:
            await policy.stop()

    asyncio.run(scenario())


def test_a_frozen_object_outside_a_cycle_is_still_freed() -> None:
    async def scenario() -> None:
        policy = GcPolicy(sweep_seconds=0)
        policy.start()
        try:
            node = Node()
            ref = weakref.ref(node)
            gc.collect()  # frozen
            del node
            assert ref() is None  # reference counting does not need the collector
        finally:
            await policy.stop()

    asyncio.run(scenario())


def test_the_sweep_runs_on_its_own() -> None:
    async def scenario() -> None:
        policy = GcPolicy(sweep_seconds=0.05)
        policy.start()
        try:
            holder = [cycle()]
            ref = holder[0]
            strong = ref()
            gc.collect()
            del strong, holder
            await asyncio.sleep(0.3)
            assert ref() is None
        finally:
            await policy.stop()

    asyncio.run(scenario())


def test_a_serving_app_applies_the_policy_until_it_stops(settings: Settings) -> None:
    with TestClient(create_app(settings)):
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 0 and _freeze_survivors in gc.callbacks
    assert gc.get_freeze_count() == 0 and _freeze_survivors not in gc.callbacks


def test_freed_memory_is_given_back_to_the_system(monkeypatch: Any) -> None:
    from app import gc_policy

    calls: list[int] = []
    monkeypatch.setattr(gc_policy, "TRIM", lambda: calls.append(1) or 1)

    async def scenario() -> None:
        policy = GcPolicy(sweep_seconds=0, trim_seconds=0.02)
        policy.start()
        await asyncio.sleep(0.3)
        await policy.stop()
        done = len(calls)
        await asyncio.sleep(0.1)
        assert len(calls) == done  # no trim after stop

    asyncio.run(scenario())
    assert len(calls) >= 2
    trim = gc_policy._malloc_trim()  # glibc, here as in the image (python:3.11-slim)
    assert trim is not None and trim() in (0, 1)
