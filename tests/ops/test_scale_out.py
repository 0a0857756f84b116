"""Scale-out as docker-compose.yml runs it, without Docker: three app processes on one Postgres behind the real
Caddy proxy (deploy/Caddyfile: a table's sockets routed by a hash of its table id). Every socket of a table lands
on one process while the tables spread over the processes (each process's ``phase10_open_sockets`` and
``phase10_live_tables``), a command sent through the proxy (REST, on any process) reaches every socket, and when
one process stops (SIGTERM) its pages get 1012, reconnect through the proxy at once, land together on the others
and catch up with ``since=N``. Needs TEST_DATABASE_URL (Postgres) and caddy."""

from __future__ import annotations

import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.ops.caddy import caddy_in_front_of, needs_caddy
from tests.realtime.pages import Page
from tests.realtime.processes import Server, needs_postgres

pytestmark = [needs_postgres, needs_caddy]
APPS = 3
# Caddy 2.6.2 hashes with 32-bit FNV-1a, which splits tables unevenly between loopback ports (up to about
# 45/35/20 %): with 18 tables the chance that all land on one process is below 1e-6 for the most uneven of 300
# sampled port triples (4e-8 on average), so "more than one process" never fails by chance.
TABLES = 18
PAGES_PER_TABLE = 2  # one page per seat


@pytest.fixture()
def cluster(database_url: str, tmp_path: Path) -> Iterator[tuple[str, list[Server]]]:
    """The proxy's host:port and the app processes behind it (on the migrated test database)."""
    # The test reads each page's socket only between its steps, and setting up 18 tables takes longer than the
    # heartbeat's idle timeout (10 s) on a slow machine: a page it has not read for that long is not a lost one.
    env = {"FORWARDED_ALLOW_IPS": "127.0.0.1", "PHASE10_METRICS_ALLOW": "127.0.0.1",
           "PHASE10_WS_IDLE_TIMEOUT_SECONDS": "300"}
    apps = [Server(database_url, env=env, args=("--proxy-headers",)) for _ in range(APPS)]
    with caddy_in_front_of(apps, tmp_path, ready_path="/readyz", seconds=40) as proxy:
        yield proxy, apps


def gauges(app: Server) -> tuple[int, int]:
    """The process's open table sockets and its tables with at least one of them."""
    text = httpx.get(f"http://{app.url}/metrics", timeout=5).text
    values = {s.name: int(s.value) for f in text_string_to_metric_families(text) for s in f.samples
              if s.name in ("phase10_open_sockets", "phase10_live_tables")}
    return values["phase10_open_sockets"], values["phase10_live_tables"]


def growth(apps: list[Server], before: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Each process's gauges now less ``before``."""
    return [(a[0] - b[0], a[1] - b[1]) for a, b in zip([gauges(app) for app in apps], before, strict=True)]


def settled(read: Callable[[], list[tuple[int, int]]], sockets: int, seconds: float = 10) -> list[tuple[int, int]]:
    """``read()`` (per process: sockets, live tables) once its sockets add up to ``sockets``, or at the deadline: a
    socket can count a moment after its first frame reached the test."""
    limit = time.monotonic() + seconds
    while True:
        reading = read()
        if sum(s for s, _ in reading) == sockets or time.monotonic() > limit:
            return reading
        time.sleep(0.1)


def play(http: httpx.Client, table_id: str, tokens: list[str], version: int) -> int:
    """One legal command of the awaited seat through the proxy (a draw, or a discard of the first number card: a
    Skip would need a target, M-7)."""
    for token in tokens:
        view = http.get(f"/api/tables/{table_id}/view", headers={"Authorization": f"Bearer {token}"}).json()
        v = view["view"]
        if v["seat"] not in v["awaited"]:
            continue
        hand = v["hand"]
        number = next(c["id"] for c in hand if c["kind"] == "number")
        command = {"type": "draw", "pile": "draw"} if len(hand) == 10 else {"type": "discard", "card": number}
        body = {"command_id": uuid.uuid4().hex, "expected_version": version, "command": command}
        r = http.post(f"/api/tables/{table_id}/commands", headers={"Authorization": f"Bearer {token}"}, json=body)
        if r.status_code == 502:  # caddy 2.6.2 cannot resend a POST's body to another process after the first
            # one it picked refused the connection (it stopped): the same command_id again is applied at most once
            r = http.post(f"/api/tables/{table_id}/commands", headers={"Authorization": f"Bearer {token}"}, json=body)
        assert r.status_code == 200, r.text
        return int(r.json()["version"])
    raise AssertionError("nobody is awaited")


def started_table(http: httpx.Client) -> tuple[str, list[str]]:
    """A started 2-seat table created through the proxy: its id and the two seats' tokens."""
    created = http.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Host"}).json()
    table_id, host = created["table_id"], created["token"]
    guest = http.post(f"/api/tables/{table_id}/join", json={"name": "Guest", "code": created["join_code"]})
    started = http.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"})
    assert started.status_code == 200, started.text
    return table_id, [host, guest.json()["token"]]


def test_a_tables_sockets_share_a_process_and_move_together(
        cluster: tuple[str, list[Server]]) -> None:
    proxy, apps = cluster
    tables: dict[str, list[str]] = {}  # table id -> seat tokens
    pages: dict[str, list[Page]] = {}  # table id -> its pages
    home: dict[str, Server] = {}  # table id -> the process holding its sockets
    with httpx.Client(base_url=f"http://{proxy}", timeout=10) as http:
        for _ in range(TABLES):
            table_id, tokens = started_table(http)
            tables[table_id] = tokens
            # One table's pages at a time: exactly one process gains all of its sockets and one live table.
            before = [gauges(app) for app in apps]
            pages[table_id] = [Page(f"{table_id} seat {i}", table_id, tokens[i], proxy, lambda _: [proxy])
                               for i in range(PAGES_PER_TABLE)]
            for page in pages[table_id]:
                while page.game_id is None:
                    page.recv(5)
            grown = settled(lambda since=before: growth(apps, since), PAGES_PER_TABLE)
            assert sorted(grown) == [(0, 0)] * (APPS - 1) + [(PAGES_PER_TABLE, 1)], (table_id, grown)
            home[table_id] = apps[grown.index((PAGES_PER_TABLE, 1))]
        used = {id(app) for app in home.values()}
        assert len(used) > 1, "every table hashed to one process"  # below 1e-6 by chance (TABLES)
        everyone = [page for table_pages in pages.values() for page in table_pages]

        versions = dict.fromkeys(tables, 0)
        for table_id, tokens in tables.items():  # accepted by any process, pushed by the table's own
            for _ in range(2):
                versions[table_id] = play(http, table_id, tokens, versions[table_id])
        for table_id, table_pages in pages.items():
            for page in table_pages:
                page.catch_up(versions[table_id])

        victim = max(apps, key=lambda app: gauges(app)[0])
        moving = {table_id for table_id, app in home.items() if app is victim}
        assert moving
        victim.proc.send_signal(signal.SIGTERM)
        assert victim.proc.wait(20) in (0, -signal.SIGTERM)
        deadline = time.monotonic() + 20
        for page in everyone:  # on 1012 the pages reconnect through the proxy at once, to a live process
            while page.table_id in moving and not page.closes:
                assert time.monotonic() < deadline, f"{page.name} was not closed"
                page.recv(0.5)
        for table_id, tokens in tables.items():  # the games go on through the proxy
            for _ in range(2):
                versions[table_id] = play(http, table_id, tokens, versions[table_id])
        for table_id, table_pages in pages.items():
            for page in table_pages:
                page.catch_up(versions[table_id])
        moved = {page.table_id for page in everyone if page.closes}
        assert moved == moving and all(page.closes == [1012] for page in everyone if page.closes)
        assert all(not page.closes for page in everyone if page.table_id not in moving)
        # Every table has sockets on the survivors, so live tables summing to TABLES means no table is split.
        survivors = [app for app in apps if app is not victim]
        after = settled(lambda: [gauges(app) for app in survivors], TABLES * PAGES_PER_TABLE)
        assert sum(s for s, _ in after) == TABLES * PAGES_PER_TABLE and sum(t for _, t in after) == TABLES, after
        for page in everyone:
            page.close()
