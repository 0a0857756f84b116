"""Scale-out as docker-compose.yml runs it, without Docker: three app processes on one Postgres behind the real
Caddy proxy (deploy/Caddyfile, ``least_conn``). Sockets spread over the processes (each process's
``phase10_open_sockets``), a command sent through the proxy reaches every socket whichever process holds it,
and when one process stops (SIGTERM) its pages get 1012, reconnect through the proxy at once, land on the
others and catch up with ``since=N``. Needs TEST_DATABASE_URL (Postgres) and caddy."""

from __future__ import annotations

import signal
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.ops.caddy import caddy_in_front_of, needs_caddy
from tests.realtime.pages import Page
from tests.realtime.processes import Server, needs_postgres

pytestmark = [needs_postgres, needs_caddy]
APPS = 3
PAGES = 6


@pytest.fixture()
def cluster(database_url: str, tmp_path: Path) -> Iterator[tuple[str, list[Server]]]:
    """The proxy's host:port and the app processes behind it (on the migrated test database)."""
    env = {"FORWARDED_ALLOW_IPS": "127.0.0.1", "PHASE10_METRICS_ALLOW": "127.0.0.1"}
    apps = [Server(database_url, env=env, args=("--proxy-headers",)) for _ in range(APPS)]
    with caddy_in_front_of(apps, tmp_path, ready_path="/readyz", seconds=40) as proxy:
        yield proxy, apps


def open_sockets(app: Server) -> float:
    text = httpx.get(f"http://{app.url}/metrics", timeout=5).text
    return next(s.value for f in text_string_to_metric_families(text) for s in f.samples
                if s.name == "phase10_open_sockets")


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
        r = http.post(f"/api/tables/{table_id}/commands", headers={"Authorization": f"Bearer {token}"},
                      json={"command_id": uuid.uuid4().hex, "expected_version": version, "command": command})
        assert r.status_code == 200, r.text
        return int(r.json()["version"])
    raise AssertionError("nobody is awaited")


def test_sockets_spread_over_the_processes_and_survive_one_stopping(cluster: tuple[str, list[Server]]) -> None:
    proxy, apps = cluster
    with httpx.Client(base_url=f"http://{proxy}", timeout=10) as http:
        created = http.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Host",
                                                 "spectators": True}).json()
        table_id, host = created["table_id"], created["token"]
        guest = http.post(f"/api/tables/{table_id}/join", json={"name": "Guest", "code": created["join_code"]})
        tokens = [host, guest.json()["token"]]
        started = http.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"})
        assert started.status_code == 200
        pages = [Page(f"page {i}", table_id, tokens[i % 2], proxy, lambda _: [proxy]) for i in range(PAGES)]
        for page in pages:
            while page.game_id is None:
                page.recv(5)
        counts = [open_sockets(app) for app in apps]
        assert sum(counts) == PAGES and all(n >= 1 for n in counts), counts  # least_conn spread them
        version = 0
        for _ in range(4):  # commands through the proxy reach the sockets of every process
            version = play(http, table_id, tokens, version)
        for page in pages:
            page.catch_up(version)

        victim = max(apps, key=open_sockets)
        held = int(open_sockets(victim))
        victim.proc.send_signal(signal.SIGTERM)
        assert victim.proc.wait(20) in (0, -signal.SIGTERM)
        for _ in range(2):  # the game goes on through the proxy while the pages move
            version = play(http, table_id, tokens, version)
        for page in pages:
            page.catch_up(version)
        moved = [page for page in pages if page.closes]
        assert len(moved) == held and all(page.closes == [1012] for page in moved)
        survivors = [app for app in apps if app is not victim]
        assert sum(open_sockets(app) for app in survivors) == PAGES
        for page in pages:
            page.close()
