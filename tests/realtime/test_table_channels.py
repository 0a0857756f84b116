"""Each table has its own NOTIFY channel, and a process LISTENs on it only while it has sockets at the table (and
for a grace period after the last one closed): a process is woken by the tables it serves, not by every command
of every process. The hub's first fan-out of a table waits until its channel is heard, so no commit after that
read goes unheard; a table no longer heard is dropped from the process's cache."""

from __future__ import annotations

import asyncio

import psycopg

from app.persistence.db import psycopg_dsn
from app.realtime.backends import APPLICATION_NAME, PgListener, PgNotifier, table_channel, table_payload
from app.realtime.hub import Connection, Hub
from app.services.base import Step
from app.services.games import FanoutData
from tests.realtime.processes import needs_postgres
from tests.realtime.test_hub import FastSink


class NoPresence:
    """The presence announcer's place in the listener (presence has tests of its own)."""

    remote = None

    def local_changed(self, table_id: str) -> None: ...
    def start(self) -> None: ...
    def listening(self) -> None: ...
    def receive(self, payload: str) -> None: ...
    async def stop(self) -> None: ...


class WakeLog:
    """The hub's place in the listener: records which tables a notification woke."""

    def __init__(self) -> None:
        self.woken: list[tuple[str, int | None]] = []

    def wake_local(self, table_id: str, version: int | None = None) -> None:
        self.woken.append((table_id, version))

    def wake_all(self) -> None: ...


def test_a_tables_notification_goes_to_its_own_channel() -> None:
    notifier = PgNotifier(Hub(lambda *_: None))  # type: ignore[arg-type, return-value]
    step = Step(3, 1, {"type": "draw", "pile": "draw"})
    assert notifier.notification("AbC-12_xyz9Q", 8, step) == (
        "phase10_t_AbC-12_xyz9Q", table_payload("AbC-12_xyz9Q", 8, step))
    assert table_channel("AbC-12_xyz9Q") != table_channel("abc-12_xyz9q")  # ids are case-sensitive, and so is this


@needs_postgres
def test_a_process_hears_a_table_only_while_it_has_sockets_there(database_url: str) -> None:
    async def scenario() -> None:
        hub, dropped = WakeLog(), []
        listener = PgListener(database_url, hub, presence=NoPresence(),  # type: ignore[arg-type]
                              on_unwatch=dropped.append, release_after=0.4)
        listener.start()
        await asyncio.wait_for(listener.ready.wait(), 10)
        sender = await psycopg.AsyncConnection.connect(psycopg_dsn(database_url), autocommit=True)

        async def notify(table_id: str, version: int) -> None:
            await sender.execute("SELECT pg_notify(%s, %s)", (table_channel(table_id), table_payload(table_id,
                                                                                                     version, None)))

        async def heard(expected: list[tuple[str, int | None]]) -> None:
            for _ in range(100):
                if hub.woken == expected:
                    return
                await asyncio.sleep(0.02)
            assert hub.woken == expected

        try:
            await notify("tblA", 1)  # no socket here: not heard
            await listener.watch("tblA")
            assert listener.watched == {"tblA"}
            await notify("tblB", 2)  # another table: not heard either
            await notify("tblA", 3)
            await heard([("tblA", 3)])

            listener.release("tblA")  # the last socket closed: still heard for the grace period
            await notify("tblA", 4)
            await heard([("tblA", 3), ("tblA", 4)])
            assert dropped == []
            for _ in range(100):
                if dropped:
                    break
                await asyncio.sleep(0.02)
            assert dropped == ["tblA"] and listener.watched == set()  # left, and its cached copy dropped
            await notify("tblA", 5)
            await asyncio.sleep(0.2)
            assert hub.woken == [("tblA", 3), ("tblA", 4)]

            await listener.watch("tblA")  # a socket came back: heard again
            await notify("tblA", 6)
            await heard([("tblA", 3), ("tblA", 4), ("tblA", 6)])
        finally:
            await sender.close()
            await listener.stop()

    asyncio.run(scenario())


@needs_postgres
def test_a_lost_listen_connection_comes_back_on_the_same_tables(database_url: str) -> None:
    """The LISTEN connection is ended (a database restart, an administrator): the listener reconnects, tells the
    service its copies may have missed notifications (``on_listening``, which drops them), and hears the tables
    it watched again."""
    async def scenario() -> None:
        hub, relistened = WakeLog(), []
        listener = PgListener(database_url, hub, presence=NoPresence(),  # type: ignore[arg-type]
                              on_listening=lambda: relistened.append(1))
        listener.start()
        await asyncio.wait_for(listener.ready.wait(), 10)
        dsn = psycopg_dsn(database_url)
        sender = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
        try:
            await listener.watch("tblC")
            await sender.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE application_name = %s", (APPLICATION_NAME,))
            for _ in range(250):
                if len(relistened) == 2 and listener.ready.is_set():
                    break
                await asyncio.sleep(0.02)
            assert len(relistened) == 2 and listener.watched == {"tblC"}
            await sender.execute("SELECT pg_notify(%s, %s)", (table_channel("tblC"), table_payload("tblC", 9, None)))
            for _ in range(100):
                if ("tblC", 9) in hub.woken:
                    break
                await asyncio.sleep(0.02)
            assert ("tblC", 9) in hub.woken
        finally:
            await sender.close()
            await listener.stop()

    asyncio.run(scenario())


def test_a_table_channel_is_heard_before_fan_out_and_freed_last() -> None:
    async def scenario() -> None:
        events: list[str] = []
        heard = asyncio.Event()

        async def fanout(table_id: str, seat_ids: set[int | None], since: int) -> FanoutData:
            events.append(f"fanout {table_id}")
            return FanoutData(table={"table_id": table_id}, seat_ids=[1], game_id=7, version=3,
                              engine_seat={1: 0}, views={0: {"v": 3}}, steps=[])

        async def watched(table_id: str) -> None:
            events.append(f"watch {table_id}")
            await heard.wait()
            events.append(f"heard {table_id}")

        class Heard:
            """The listener as the hub sees it (``Hearing``): a table is heard once ``heard`` is set."""

            watch = staticmethod(watched)

            @staticmethod
            def release(table_id: str) -> None:
                events.append(f"release {table_id}")

            def local_changed(self, table_id: str) -> None: ...
            def seats_elsewhere(self, table_id: str) -> set[int]: return set()
            def visible_elsewhere(self, table_id: str) -> set[int]: return set()

        hub = Hub(fanout, hearing=Heard())
        hub.bind(asyncio.get_running_loop())
        sinks = [FastSink(), FastSink()]
        conns = [Connection(sink, "t", 1, queue_size=4) for sink in sinks]
        for conn in conns:
            hub.attach(conn)
        await asyncio.sleep(0.05)
        assert events == ["watch t"] and sinks[0].sent == []  # nothing read before the table is heard
        heard.set()
        await asyncio.sleep(0.05)
        assert events == ["watch t", "heard t", "fanout t"]
        assert [m["type"] for m in sinks[0].sent] == ["snapshot"]
        hub.wake_local("t", 4)
        await asyncio.sleep(0.05)
        assert events[3:] == ["fanout t"]  # the channel is heard from then on: no second watch
        hub.detach(conns[0])
        await asyncio.sleep(0.05)
        assert not any(e.startswith("release") for e in events)  # one socket still open
        hub.detach(conns[1])
        assert events[-1] == "release t"

    asyncio.run(scenario())

