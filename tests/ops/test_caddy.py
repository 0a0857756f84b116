"""deploy/Caddyfile with the real proxy (Debian's ``caddy``, installed by ``.ci/run``) in front of a real app
process started like docker-compose.yml's (``--proxy-headers``, FORWARDED_ALLOW_IPS = the proxy): pages,
REST, the table websocket, and the client address the join limit counts (players on 127.0.0.2 and
127.0.0.3 reach the app through the proxy on 127.0.0.1); the adapted config routes a table's sockets by its
table id (tests/ops/test_scale_out.py runs that with three app processes)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, select
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from app.persistence.models import JoinFailure
from tests.ops.caddy import CADDY, caddy_in_front_of, needs_caddy
from tests.realtime.processes import ROOT, Server

pytestmark = needs_caddy


@pytest.fixture(scope="module")
def proxied(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The proxy's base URL (host:port), the app behind it."""
    app = Server(database_url, env={"FORWARDED_ALLOW_IPS": "127.0.0.1"}, args=("--proxy-headers",))
    with caddy_in_front_of([app], tmp_path_factory.mktemp("caddy")) as proxy:
        yield proxy


def _client(base: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=f"http://{base}", transport=httpx.HTTPTransport(local_address=address), timeout=10)


def test_pages_rest_and_the_websocket_through_the_proxy(proxied: str) -> None:
    with _client(proxied, "127.0.0.1") as http:
        page = http.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert http.get("/static/js/common.js").status_code == 200
        created = http.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Host"})
        assert created.status_code == 201, created.text
        table_id, token, code = (created.json()[k] for k in ("table_id", "token", "join_code"))
        joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Guest", "code": code})
        assert joined.status_code == 200
        big = http.post("/api/tables", content=b"x" * 200_000, headers={"content-type": "application/json"})
        assert big.status_code == 413 and big.json()["error"]["code"] == "body_too_large"  # the app's JSON 413
    # The browser's socket: same origin as the page it came from (the proxy's address).
    with connect(f"ws://{proxied}/ws/tables/{table_id}?token={token}", origin=f"http://{proxied}") as ws:
        first = json.loads(ws.recv(10))
        assert first["type"] == "snapshot" and first["seat"] == 0
        ws.send(json.dumps({"type": "ping", "ref": "through"}))
        while (msg := json.loads(ws.recv(10)))["type"] == "table":
            pass
        assert msg == {"type": "pong", "ref": "through"}
        with _client(proxied, "127.0.0.1") as http:
            assert http.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"}
                             ).status_code == 200
        while (msg := json.loads(ws.recv(10)))["type"] != "snapshot":
            pass
        assert msg["view"]["hand"]  # the game started: pushed through the proxy


def test_the_join_limit_sees_each_address_through_the_proxy(proxied: str, database_url: str) -> None:
    with _client(proxied, "127.0.0.2") as attacker, _client(proxied, "127.0.0.3") as invitee:
        created = attacker.post("/api/tables", json={"ruleset": "mattel", "seats": 3, "name": "Host"}).json()
        table_id, code = created["table_id"], created["join_code"]
        # A forged X-Forwarded-For from the player is not believed: the proxy names the real address.
        statuses = [attacker.post(f"/api/tables/{table_id}/join", json={"name": "X", "code": f"guess{i}"},
                                  headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code for i in range(11)]
        assert statuses == [403] * 10 + [429]
        r = invitee.post(f"/api/tables/{table_id}/join", json={"name": "Friend", "code": code})
        assert r.status_code == 200, r.text
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            addresses = set(conn.scalars(select(JoinFailure.address).where(JoinFailure.table_id == table_id)))
    finally:
        engine.dispose()
    assert addresses == {"127.0.0.2"}


def test_the_caddyfile_keeps_its_timeouts(tmp_path: Path) -> None:
    """The adapted JSON config holds the header timeout, the body bound, no admin endpoint and Caddy's own
    X-Forwarded-For."""
    assert CADDY is not None
    env = {**os.environ, "PHASE10_SITE": ":8000", "PHASE10_UPSTREAMS": "to app:8000", "HOME": str(tmp_path)}
    out = subprocess.run([CADDY, "adapt", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
                         env=env, capture_output=True, text=True, timeout=30, check=True).stdout
    config = json.loads(out)
    assert config["admin"]["disabled"] is True
    server = next(iter(config["apps"]["http"]["servers"].values()))
    assert server["read_header_timeout"] == 10_000_000_000 and server["idle_timeout"] == 120_000_000_000
    assert "max_size" in out and "app:8000" in out
    # X-Forwarded-For is Caddy's own (the connecting address): no client is trusted to name another, and no
    # header rule changes it (the app's per-address limits count it).
    assert "trusted_proxies" not in server and "x-forwarded-for" not in out.lower()
    # The proxy lets go of an idle upstream connection before the app closes it, so no request is sent on a
    # connection the app is closing (a 502 for the player).
    from app.settings import Settings

    proxy = next(h for route in server["routes"] for h in route["handle"] if h["handler"] == "reverse_proxy")
    idle = proxy["transport"]["keep_alive"]["idle_timeout"] / 1e9
    assert 0 < idle < Settings().http_keep_alive_seconds


def test_the_compose_proxy_routes_each_table_to_one_app_replica(tmp_path: Path) -> None:
    """With docker-compose.yml's PHASE10_UPSTREAMS the proxy looks up every address of the `app` service again
    every few seconds, sends a table's sockets to the replica its table id hashes to (the route header, set on
    table socket paths only and removed from every other request), and retries another while one restarts."""
    assert CADDY is not None
    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    env = {**os.environ, **compose["services"]["proxy"]["environment"], "HOME": str(tmp_path)}
    out = subprocess.run([CADDY, "adapt", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
                         env=env, capture_output=True, text=True, timeout=30, check=True).stdout
    routes = json.loads(out)["apps"]["http"]["servers"]["srv0"]["routes"]
    handles = [h for route in routes for h in route["handle"]]
    handler = next(h for h in handles if h["handler"] == "reverse_proxy")
    assert handler["dynamic_upstreams"] == {"source": "a", "name": "app", "port": "8000", "refresh": 5_000_000_000}
    assert handler["load_balancing"]["selection_policy"] == {"policy": "header", "field": "X-Phase10-Route"}
    assert handler["load_balancing"]["try_duration"] > 0 and handler["health_checks"]["passive"]["fail_duration"] > 0
    headers = [(route.get("match"), h["request"]) for route in routes for h in route["handle"]
               if h["handler"] == "headers"]
    table = {"path_regexp": {"name": "table", "pattern": "^/ws/tables/([^/]+)"}}
    assert headers == [([table], {"set": {"X-Phase10-Route": ["{http.regexp.table.1}"]}}),
                       ([{"not": [{"path_regexp": {"pattern": "^/ws/tables/"}}]}], {"delete": ["X-Phase10-Route"]})]
    assert routes.index(next(r for r in routes if handler in r["handle"])) == len(routes) - 1  # set, then proxied


def _socket(held: ExitStack, base: str, address: str, table_id: str, token: str) -> None:
    """A table socket from ``address`` through the proxy, held open by ``held`` once its snapshot came (the app
    counts it for ``address`` from then on)."""
    host, port = base.split(":")
    sock = socket.create_connection((host, int(port)), timeout=10, source_address=(address, 0))
    ws = held.enter_context(connect(f"ws://{base}/ws/tables/{table_id}?token={token}", sock=sock,
                                    origin=f"http://{base}", open_timeout=10))
    assert json.loads(ws.recv(10))["type"] == "snapshot"


def _seat(http: httpx.Client) -> tuple[str, str]:
    created = http.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Host"})
    assert created.status_code == 201, created.text
    return created.json()["table_id"], created.json()["token"]


def _healthy(http: httpx.Client) -> None:
    for path in ("/healthz", "/readyz"):
        r = http.get(path)
        assert r.status_code == 200, (path, r.status_code, r.text)


PER_ADDRESS = 4


def test_the_address_cap_counts_each_player_through_the_proxy(
        database_url: str, tmp_path: Path) -> None:
    """``PHASE10_HTTP_LIMIT_PER_ADDRESS`` 4 behind the proxy: the player on 127.0.0.2 holding 4 table sockets gets
    a JSON 429 ``too_many_requests`` for a fifth socket's handshake and for its next request (a forged
    X-Forwarded-For does not help), while the player on 127.0.0.3 is served and opens its own 4 (the proxy, one
    peer with 8 sockets and more, is not capped as one client); health and readiness answer both. Once sockets
    take the whole ``PHASE10_HTTP_LIMIT_CONCURRENCY`` (16), a request or a socket through the proxy gets the
    app's JSON 503 ``server_busy`` and health and readiness still answer 200. Fails when the proxy does not
    pass the player's address (every player then counts as the proxy) or the app does not trust the proxy."""
    app = Server(database_url, args=("--proxy-headers",),
                 env={"FORWARDED_ALLOW_IPS": "127.0.0.1", "PHASE10_HTTP_LIMIT_PER_ADDRESS": str(PER_ADDRESS),
                      "PHASE10_HTTP_LIMIT_CONCURRENCY": str(4 * PER_ADDRESS),
                      "PHASE10_HTTP_KEEP_ALIVE_SECONDS": "1",
                      "PHASE10_WS_IDLE_TIMEOUT_SECONDS": "0"})  # the test's sockets need not answer pings
    with caddy_in_front_of([app], tmp_path) as proxy, _client(proxy, "127.0.0.2") as first, \
            _client(proxy, "127.0.0.3") as second, ExitStack() as held:
        table_id, token = _seat(first)
        for _ in range(PER_ADDRESS):
            _socket(held, proxy, "127.0.0.2", table_id, token)
        with pytest.raises(InvalidStatus) as refused, ExitStack() as extra:
            _socket(extra, proxy, "127.0.0.2", table_id, token)
        assert refused.value.response.status_code == 429
        assert json.loads(refused.value.response.body)["error"]["code"] == "too_many_requests"
        busy = first.get("/api/tables/nowhere", headers={"X-Forwarded-For": "203.0.113.9"})
        assert busy.status_code == 429, busy.text
        assert busy.headers["content-type"].startswith("application/json")
        assert busy.json()["error"]["code"] == "too_many_requests"
        _healthy(first)
        served = second.get("/api/tables/nowhere")
        assert served.status_code == 404 and served.json()["error"]["code"] == "table_not_found", served.text
        other_table, other_token = _seat(second)
        for _ in range(PER_ADDRESS):
            _socket(held, proxy, "127.0.0.3", other_table, other_token)
        _healthy(second)
        # Two more players' sockets, until the process holds one connection short of its concurrency limit (16):
        # the connection carrying any further request makes it whole. Until the proxy's idle connections to the
        # app are closed (keep-alive, 1 s here) they count too, and a handshake may be refused: it is tried again.
        for address, count in (("127.0.0.4", PER_ADDRESS), ("127.0.0.5", PER_ADDRESS - 1)):
            with _client(proxy, address) as player:
                table, seat_token = _seat(player)
            for _ in range(count):
                deadline = time.monotonic() + 15
                while True:
                    try:
                        _socket(held, proxy, address, table, seat_token)
                        break
                    except InvalidStatus as refusal:
                        assert refusal.response.status_code == 503 and time.monotonic() < deadline
                        time.sleep(0.5)
        with _client(proxy, "127.0.0.6") as late:
            answer = late.get("/api/tables/nowhere")
            assert answer.status_code == 503, answer.text
            assert answer.headers["content-type"].startswith("application/json")
            assert answer.json()["error"]["code"] == "server_busy"
            _healthy(late)
            with pytest.raises(InvalidStatus) as turned_away, ExitStack() as extra:
                _socket(extra, proxy, "127.0.0.6", table, seat_token)
            assert turned_away.value.response.status_code == 503
            assert json.loads(turned_away.value.response.body)["error"]["code"] == "server_busy"
