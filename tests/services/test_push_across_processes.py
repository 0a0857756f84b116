"""Web Push across server processes (needs Postgres): a seat's visible page on one process keeps the other
process, which commits the command that makes the seat awaited (R-6), from pushing; once that page reports
itself hidden, the other process pushes. Both processes sign with the one VAPID key kept in the database."""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from websockets.sync.client import connect

from app.persistence.db import Database
from app.persistence.models import Game
from app.services.games import GameService
from app.settings import Settings
from tests.realtime.processes import Server, needs_postgres
from tests.rules.playout import choose
from tests.services.push_receiver import PushReceiver


@pytest.fixture()
def push_servers(database_url: str) -> Iterator[list[Server]]:
    servers = [Server(database_url, env={"PHASE10_PUSH_ALLOW_HTTP": "true"}) for _ in range(2)]
    try:
        deadline = time.monotonic() + 30
        for server in servers:
            server.wait_ready(deadline)
        yield servers
    finally:
        for server in servers:
            server.stop()


def _game(database_url: str, table_id: str) -> tuple[Any, Any]:
    """(ruleset, state) of the table's game, read from the database as the servers hold it."""
    service = GameService(Database(database_url), Settings(database_url=database_url, log_level="WARNING"))
    try:
        with service.db.read() as s:
            game = s.scalar(select(Game).where(Game.table_id == table_id).order_by(Game.number.desc()))
            assert game is not None
            ruleset = service.catalog.get(game.ruleset)
            return ruleset, service.repo.state(s, ruleset, game)
    finally:
        service.db.dispose()


def _play_until_awaited(url: str, database_url: str, table_id: str, tokens: list[str], seat: int,
                        rnd: random.Random) -> None:
    for _ in range(60):
        ruleset, state = _game(database_url, table_id)
        awaited = list(ruleset.awaited(state))
        if seat in awaited:
            return
        who = awaited[0]
        command = ruleset.command_to_json(choose(ruleset.legal_commands(state, who), rnd))
        r = httpx.post(f"{url}/api/tables/{table_id}/commands", headers={"Authorization": f"Bearer {tokens[who]}"},
                       json={"command_id": str(uuid.uuid4()), "command": command})
        assert r.status_code == 200, r.text
    raise AssertionError(f"seat {seat} never became awaited")


@needs_postgres
def test_a_visible_page_on_one_process_stops_the_others_push(push_servers: list[Server],
                                                                    receiver: PushReceiver,
                                                                    database_url: str) -> None:
    one, two = (f"http://{s.url}" for s in push_servers)
    keys = {httpx.get(f"{url}/api/push/key").json()["public_key"] for url in (one, two)}
    assert len(keys) == 1  # one key pair, kept in the database
    receiver.server_key = keys.pop()
    created = httpx.post(f"{one}/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "A"}).json()
    table_id = created["table_id"]
    guest = httpx.post(f"{two}/api/tables/{table_id}/join", json={"name": "B", "code": created["join_code"]}).json()
    tokens = [created["token"], guest["token"]]
    assert httpx.post(f"{one}/api/tables/{table_id}/start",
                      headers={"Authorization": f"Bearer {tokens[0]}"}).status_code == 200
    ruleset, state = _game(database_url, table_id)
    watcher = 1 - list(ruleset.awaited(state))[0]
    r = httpx.put(f"{two}/api/tables/{table_id}/push", headers={"Authorization": f"Bearer {tokens[watcher]}"},
                  json=receiver.browser("watcher").subscription())
    assert r.status_code == 200, r.text
    rnd = random.Random(11)
    with connect(f"ws://{push_servers[0].url}/ws/tables/{table_id}?token={tokens[watcher]}") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        time.sleep(0.5)  # process two hears process one's presence announcement
        _play_until_awaited(two, database_url, table_id, tokens, watcher, rnd)  # visible on process one
        ws.send(json.dumps({"type": "visibility", "visible": False}))
        time.sleep(0.5)
        _play_until_awaited(two, database_url, table_id, tokens, 1 - watcher, rnd)
        _play_until_awaited(two, database_url, table_id, tokens, watcher, rnd)  # hidden: process two pushes
        [delivery] = receiver.wait(1)
        time.sleep(0.5)
    assert len(receiver.deliveries) == 1, receiver.deliveries
    assert delivery.problem is None and delivery.browser == "watcher"
    assert delivery.payload is not None and delivery.payload["type"] == "turn"
    assert delivery.payload["table_id"] == table_id
