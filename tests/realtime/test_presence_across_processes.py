"""``connected`` flags across server processes (app/realtime/presence.py).

Two real server processes on loopback behind one Postgres (needs TEST_DATABASE_URL): a seat whose socket is
open on one process is shown connected by the other, over REST and in the other's socket messages, and
disconnected again when the socket closes or its process stops. The announcement rules themselves (whole
sets, goodbye, heartbeat expiry of a vanished process, re-announcing on request) are checked without a
database below.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from app.realtime.presence import EXPIRE_AFTER_SECONDS, HEARTBEAT_SECONDS, PgPresence
from tests.realtime.processes import Server, needs_postgres


def _connected(server: Server, table_id: str) -> list[bool]:
    table = httpx.get(f"http://{server.url}/api/tables/{table_id}").json()
    return [seat["connected"] for seat in table["seats"]]


def _eventually(check: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time limit"
        time.sleep(0.05)


def _next_table(ws: ClientConnection, wanted: list[bool]) -> dict[str, Any]:
    """The next table info (snapshot or table message) whose connected flags are ``wanted``."""
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
        table = msg.get("table")
        if table and [seat["connected"] for seat in table["seats"]] == wanted:
            return msg


@needs_postgres
def test_a_socket_on_one_process_is_connected_on_the_other(servers: list[Server]) -> None:
    one, two = servers
    created = httpx.post(f"http://{one.url}/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "A"}).json()
    table_id, host = created["table_id"], created["token"]
    guest = httpx.post(f"http://{two.url}/api/tables/{table_id}/join",
                       json={"name": "B", "code": created["join_code"]}).json()["token"]
    assert _connected(two, table_id) == [False, False]
    with connect(f"ws://{one.url}/ws/tables/{table_id}?token={host}") as host_ws:
        _next_table(host_ws, [True, False])
        _eventually(lambda: _connected(two, table_id) == [True, False])  # REST on the other process
        with connect(f"ws://{two.url}/ws/tables/{table_id}?token={guest}") as guest_ws:
            snapshot = _next_table(guest_ws, [True, True])  # its own socket and the host's on process one
            assert snapshot["type"] == "snapshot"
            _next_table(host_ws, [True, True])  # process one learns of the guest's socket on process two
            assert _connected(one, table_id) == [True, True]
        _next_table(host_ws, [True, False])  # the guest's socket closed on process two
        assert _connected(one, table_id) == [True, False]
        with connect(f"ws://{two.url}/ws/tables/{table_id}?token={guest}") as guest_ws:
            _next_table(guest_ws, [True, True])
            host_ws.close()
            msg = _next_table(guest_ws, [False, True])  # the host's socket closed on process one
            assert msg["type"] == "table"
            assert _connected(two, table_id) == [False, True]
            with connect(f"ws://{one.url}/ws/tables/{table_id}?token={host}") as again:
                _next_table(again, [True, True])
                _next_table(guest_ws, [True, True])
                one.stop()  # process one stops with the host's socket open: it says goodbye
                _next_table(guest_ws, [False, True])
                assert _connected(two, table_id) == [False, True]


@needs_postgres
@pytest.mark.slow
def test_a_killed_process_is_forgotten_when_its_heartbeats_stop(servers: list[Server]) -> None:
    """No goodbye from a killed process: its seats stay connected until its heartbeat expires (15 s)."""
    one, two = servers
    created = httpx.post(f"http://{two.url}/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "A"}).json()
    table_id = created["table_id"]
    host_ws = connect(f"ws://{one.url}/ws/tables/{table_id}?token={created['token']}", legacy=True)
    try:
        _next_table(host_ws, [True])
        _eventually(lambda: _connected(two, table_id) == [True])
        one.proc.kill()
        one.proc.wait(10)
        killed = time.monotonic()
        assert _connected(two, table_id) == [True]  # nobody said goodbye
        _eventually(lambda: _connected(two, table_id) == [False], EXPIRE_AFTER_SECONDS + HEARTBEAT_SECONDS + 5)
        assert time.monotonic() - killed > EXPIRE_AFTER_SECONDS - HEARTBEAT_SECONDS - 1
    finally:
        with contextlib.suppress(Exception):
            host_ws.close()


class FakeHub:
    """The hub as the announcer sees it: local seats per table, and the tables it was asked to refresh."""

    def __init__(self) -> None:
        self.local: dict[str, set[int]] = {}
        self.hidden: dict[str, set[int]] = {}  # seats whose pages all reported themselves hidden
        self.woken: list[str] = []

    def local_presence(self, table_id: str) -> set[int]:
        return set(self.local.get(table_id, set()))

    def local_visible(self, table_id: str) -> set[int]:
        return self.local_presence(table_id) - self.hidden.get(table_id, set())

    def local_tables(self) -> list[str]:
        return list(self.local)

    def wake_local(self, table_id: str, version: int | None = None) -> None:
        self.woken.append(table_id)


def _message(kind: str, process: str, **rest: Any) -> str:
    return json.dumps({"k": kind, "p": process, **rest})


def test_announcements_are_whole_sets_and_goodbye_forgets() -> None:
    hub, now = FakeHub(), [100.0]
    presence = PgPresence("", hub, heartbeat=1.0, expire_after=3.0, clock=lambda: now[0])
    presence.receive(_message("hello", "p1"))
    presence.receive(_message("seats", "p1", t={"T": [1, 2], "U": [5]}))
    presence.receive(_message("seats", "p2", t={"T": [2, 3]}))
    assert presence.remote.seats("T") == {1, 2, 3} and presence.remote.seats("U") == {5}
    assert hub.woken == ["T", "U", "T"]
    presence.receive(_message("seats", "p1", t={"T": [2]}))
    presence.receive(_message("seats", "p1", t={"T": [2]}))  # the same set again changes nothing
    assert presence.remote.seats("T") == {2, 3} and hub.woken[-1] == "T" and len(hub.woken) == 4
    presence.receive(_message("seats", presence.process_id, t={"T": [9]}))  # our own announcement
    assert presence.remote.seats("T") == {2, 3}
    presence.receive(_message("bye", "p2"))
    assert presence.remote.seats("T") == {2}
    presence.receive(_message("seats", "p1", t={"T": [], "U": []}))
    assert presence.remote.seats("T") == set() and presence.remote.seats("U") == set()
    presence.receive("not json")  # ignored (logged)


def test_a_process_not_heard_from_expires_with_its_seats() -> None:
    hub, now = FakeHub(), [100.0]
    presence = PgPresence("", hub, heartbeat=1.0, expire_after=3.0, clock=lambda: now[0])
    presence.receive(_message("hello", "alive"))
    presence.receive(_message("hello", "killed"))
    presence.receive(_message("seats", "alive", t={"T": [1]}))
    presence.receive(_message("seats", "killed", t={"T": [2], "U": [4]}))
    for _ in range(3):
        now[0] += 1.5
        presence.receive(_message("hb", "alive"))
        presence.expire()
    assert presence.remote.seats("T") == {1} and presence.remote.seats("U") == set()
    assert {"T", "U"} <= set(hub.woken[-2:])


def test_unknown_processes_are_asked_and_a_hello_is_answered() -> None:
    hub, now = FakeHub(), [100.0]
    hub.local = {"T": {7}}
    presence = PgPresence("", hub, heartbeat=1.0, expire_after=3.0, clock=lambda: now[0])
    presence.receive(_message("hb", "stranger"))  # we forgot it, or missed its hello: ask it to announce
    assert presence._control == [{"k": "want", "of": "stranger"}]
    presence._control.clear()
    presence.receive(_message("want", "stranger", of=presence.process_id))  # asked of us: all our tables
    presence.receive(_message("hello", "newcomer"))
    messages = presence._messages()
    assert messages == [{"k": "seats", "t": {"T": [7]}, "v": {"T": [7]}}]
    presence.local_changed("T")
    hub.local = {}
    assert presence._messages() == [{"k": "seats", "t": {"T": []}, "v": {"T": []}}]  # the last socket went


def test_visible_pages_are_announced_with_the_seats() -> None:
    """Web Push goes to seats with no visible page on any process: each announcement carries the seats whose
    page is visible (``v``); one without ``v`` (an older process) counts every seat visible; a goodbye or an
    expiry forgets them with the seats."""
    hub, now = FakeHub(), [100.0]
    hub.local, hub.hidden = {"T": {1, 2}}, {"T": {2}}
    presence = PgPresence("", hub, heartbeat=1.0, expire_after=3.0, clock=lambda: now[0])
    presence.local_changed("T")
    assert presence._messages() == [{"k": "seats", "t": {"T": [1, 2]}, "v": {"T": [1]}}]
    presence.receive(_message("hello", "p1"))
    presence.receive(_message("seats", "p1", t={"T": [3, 4]}, v={"T": [4]}))
    presence.receive(_message("hello", "old"))
    presence.receive(_message("seats", "old", t={"T": [5]}))
    assert presence.remote.seats("T") == {3, 4, 5} and presence.remote.visible("T") == {4, 5}
    presence.receive(_message("seats", "p1", t={"T": [3, 4]}, v={"T": [3, 4]}))  # seat 3's page shown again
    assert presence.remote.visible("T") == {3, 4, 5}
    presence.receive(_message("bye", "p1"))
    assert presence.remote.visible("T") == {5}
    for _ in range(3):
        now[0] += 1.5
        presence.expire()
    assert presence.remote.visible("T") == set() and presence.remote.seats("T") == set()


def test_a_process_that_missed_the_others_learns_by_its_hello() -> None:
    """After a database restart the two processes' LISTEN connections come back one after the other. Here:
    ``one``'s socket seats go out while ``two`` is deaf; ``two`` comes back (it forgets ``one``) and says hello while
    ``one`` is deaf; then ``one`` comes back and says hello. ``two`` must know ``one``'s seats again, or a connected
    player is taken for gone and a stand-in plays their turns for as long as nothing changes at the table."""
    hubs = FakeHub(), FakeHub()
    hubs[0].local = {"T": {7}}
    one, two = (PgPresence("", hub, heartbeat=1.0, expire_after=30.0, clock=lambda: 100.0) for hub in hubs)

    def deliver(sender: PgPresence, to: list[PgPresence]) -> None:
        """What ``sender`` has to say, heard by ``to`` (the processes whose LISTEN is up)."""
        for message in sender._messages():
            for receiver in to:
                receiver.receive(json.dumps({**message, "p": sender.process_id}))

    one.listening()
    two.listening()
    deliver(one, [two])
    deliver(two, [one])
    deliver(one, [two])
    assert two.remote.seats("T") == {7}  # both up: known

    one._announce_all()  # one's connection to send on came back first: its seats, while two is deaf
    deliver(one, [])
    two.listening()  # two's LISTEN is back: it forgets one, and its hello is lost (one is deaf)
    deliver(two, [])
    assert two.remote.seats("T") == set()
    one.listening()  # one's LISTEN is back: its hello reaches two
    deliver(one, [two])
    deliver(two, [one])
    deliver(one, [two])
    assert two.remote.seats("T") == {7}
    for _ in range(3):  # and it stays so: nothing more is asked or said
        deliver(two, [one])
        deliver(one, [two])
    assert two.remote.seats("T") == {7}
