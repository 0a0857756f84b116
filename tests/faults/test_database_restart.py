"""A Postgres restart under one server (a private cluster, ``tests.faults.postgres``): the first requests after
the database is back answer as usual (a pooled connection that the restart ended is found on checkout, not by
a request), and while the database is down every request gets a JSON 503 ``database_unavailable`` with
``Retry-After`` -- never a plain-text 500."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.faults.postgres import PrivatePostgres
from tests.server_helpers import bearer, command_body, new_table, pick


@pytest.fixture()
def client(private_pg: PrivatePostgres) -> Iterator[TestClient]:
    settings = Settings(database_url=private_pg.url, log_level="ERROR")
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def _warm_pool(client: TestClient, path: str, token: str, connections: int = 6) -> None:
    """Several requests at once, so the pool holds several connections (each one the restart will end)."""
    barrier = threading.Barrier(connections)

    def get() -> None:
        barrier.wait()
        assert client.get(path, headers=bearer(token)).status_code == 200

    threads = [threading.Thread(target=get) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _is_json_error(r: httpx.Response) -> bool:
    return r.headers.get("content-type", "").startswith("application/json") and "error" in r.json()


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_the_first_requests_after_a_db_restart_are_answered(client: TestClient, private_pg: PrivatePostgres,
                                                                  mode: str) -> None:
    t = new_table(client, players=2, start=True)
    view = f"/api/tables/{t.id}/view"
    _warm_pool(client, view, t.tokens[0])
    private_pg.restart(mode)
    answers = [client.get(view, headers=bearer(t.tokens[0])) for _ in range(8)]
    assert [r.status_code for r in answers] == [200] * 8, [(r.status_code, r.text[:80]) for r in answers]
    # A command too (writes take pooled connections as well).
    seat, command = pick(client, t.id, __import__("random").Random(1)) or (0, {})
    r = client.post(f"/api/tables/{t.id}/commands", json=command_body(command), headers=bearer(t.tokens[seat]))
    assert r.status_code == 200, r.text


def test_while_postgres_is_down_requests_get_503_retry_after(client: TestClient,
                                                                        private_pg: PrivatePostgres) -> None:
    t = new_table(client, players=2, start=True)
    _warm_pool(client, f"/api/tables/{t.id}/view", t.tokens[0])
    private_pg.stop("immediate")
    try:
        seat, command = 0, {"type": "draw", "source": "deck"}
        answers = [client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])),
                   client.get(f"/api/tables/{t.id}"),
                   client.post(f"/api/tables/{t.id}/commands", json=command_body(command),
                               headers=bearer(t.tokens[seat])),
                   client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "Host"})]
        for r in answers:
            assert r.status_code == 503, (r.status_code, r.text[:200])
            assert _is_json_error(r), r.text[:200]
            assert r.json()["error"]["code"] == "database_unavailable"
            assert int(r.headers["retry-after"]) >= 1
    finally:
        private_pg.start()
    started = time.monotonic()
    while client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).status_code != 200:
        assert time.monotonic() - started < 10, "not back 10 s after the database"
        time.sleep(0.1)
