"""Durability: a real server process is killed with SIGKILL while commands are in flight on several tables,
then restarted on the same database (SQLite by default, Postgres with TEST_DATABASE_URL). After each crash:

* every acknowledged command (its ack seen by the client) is in the stored game record, and the replay
  endpoint rebuilds the game to at least its version;
* every command in doubt (sent, no answer) is resent with its command id and expected version, and is then
  stored exactly once, whether or not it had been applied before the crash (``duplicate`` tells);
* a socket resumed with ``since=N`` (the last version it saw) receives exactly the events it missed: what it
  saw before the crash plus the resumed update equal the seat's whole event list (REST ``events?since=0``).

Bounded: ``ROUNDS`` crashes of ``TABLES`` tables, each table sending commands one after another until the
kill, which comes after a random short delay (fixed seed)."""

from __future__ import annotations

import json
import random
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.persistence.db import Database
from app.persistence.models import Game, GameCommand
from app.services.games import GameService
from app.settings import Settings
from tests.realtime.processes import Server, _free_port
from tests.rules.playout import choose

ROUNDS = 3
TABLES = 3


@dataclass
class Table:
    id: str
    tokens: list[str]
    acked: list[str] = field(default_factory=list)  # command ids whose ack arrived
    in_doubt: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (seat token, request body)
    seen: list[dict[str, Any]] = field(default_factory=list)  # seat 0's socket: events received, in order
    seen_version: int = 0
    game_id: int | None = None


@pytest.fixture()
def reader(database_url: str) -> Iterator[GameService]:
    """An in-test game service on the same database, only to read states (to choose legal commands)."""
    service = GameService(Database(database_url), Settings(database_url=database_url, state_cache_size=0))
    yield service
    service.db.dispose()


def _next(reader: GameService, table: Table, rnd: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The awaited seat's token and a legal command body (with its expected version), from the database."""
    with reader.db.read() as s:
        game = s.scalar(select(Game).where(Game.table_id == table.id).order_by(Game.number.desc()))
        assert game is not None
        ruleset = reader.catalog.get(game.ruleset)
        state = reader.repo.state(s, ruleset, game)
        if ruleset.is_over(state):
            return None
        seat = rnd.choice(ruleset.awaited(state))
        command = ruleset.command_to_json(choose(ruleset.legal_commands(state, seat), rnd))
        return table.tokens[seat], {"command_id": uuid.uuid4().hex, "expected_version": game.version,
                                    "command": command}


def _send_until_killed(base: str, reader: GameService, table: Table, rnd: random.Random,
                       stop: threading.Event) -> None:
    with httpx.Client(base_url=base, timeout=10) as http:
        while not stop.is_set():
            chosen = _next(reader, table, rnd)
            if chosen is None:
                return
            token, body = chosen
            try:
                r = http.post(f"/api/tables/{table.id}/commands", json=body,
                              headers={"Authorization": f"Bearer {token}"})
            except httpx.HTTPError:
                table.in_doubt.append((token, body))  # the server died with it in flight
                return
            assert r.status_code == 200, r.text
            table.acked.append(body["command_id"])


def _watch(ws: ClientConnection, table: Table) -> None:
    """Seat 0's socket: collect every event in order until the connection drops."""
    try:
        while True:
            msg = json.loads(ws.recv())
            if msg["type"] in ("snapshot", "update"):
                table.game_id = msg["game_id"]
                if msg["type"] == "update":
                    assert msg["since"] == table.seen_version, (msg["since"], table.seen_version)
                    table.seen.extend(msg["events"])
                table.seen_version = msg["version"]
    except (ConnectionClosed, OSError):
        return


def _thread(errors: list[BaseException], target: Any, *args: Any) -> threading.Thread:
    """A thread whose failure (a wrong answer, a bad frame) fails the test instead of being only printed."""
    def run() -> None:
        try:
            target(*args)
        except BaseException as err:  # noqa: BLE001 - re-raised by the test after join
            errors.append(err)
    return threading.Thread(target=run)


def _setup(base: str) -> Table:
    with httpx.Client(base_url=base, timeout=10) as http:
        created = http.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "name": "A"}).json()
        table = Table(created["table_id"], [created["token"]])
        joined = http.post(f"/api/tables/{table.id}/join", json={"name": "B", "code": created["join_code"]})
        table.tokens.append(joined.json()["token"])
        r = http.post(f"/api/tables/{table.id}/start", headers={"Authorization": f"Bearer {table.tokens[0]}"})
        assert r.status_code == 200, r.text
    return table


def _stored(reader: GameService, command_id: str) -> int:
    with reader.db.read() as s:
        return int(s.scalar(select(func.count()).select_from(GameCommand)
                            .where(GameCommand.command_id == command_id)) or 0)


def _start(database_url: str, port: int, log: Path) -> Server:
    server = Server(database_url, port=port, stderr=log)
    server.wait_ready(time.monotonic() + 60)
    return server


def test_sigkill_mid_commands_loses_none_and_applies_none_twice(
        database_url: str, reader: GameService, tmp_path: Path) -> None:
    rnd = random.Random(20261126)
    port = _free_port()
    server = _start(database_url, port, tmp_path / "server0.log")
    base = f"http://{server.url}"
    tables = [_setup(base) for _ in range(TABLES)]
    totals = {"acked": 0, "in_doubt": 0, "applied_before_crash": 0, "resumed_events": 0}
    stack = ExitStack()
    try:
        for round_ in range(ROUNDS):
            sockets = [stack.enter_context(connect(f"ws://{server.url}/ws/tables/{t.id}?token={t.tokens[0]}" + (
                f"&since={t.seen_version}&game={t.game_id}" if t.game_id else ""))) for t in tables]
            errors: list[BaseException] = []
            watchers = [_thread(errors, _watch, ws, t) for ws, t in zip(sockets, tables, strict=True)]
            for w in watchers:
                w.start()
            stop = threading.Event()
            senders = [_thread(errors, _send_until_killed, base, reader, t, random.Random(rnd.random()), stop)
                       for t in tables]
            for t in tables:
                t.acked.clear()
                t.in_doubt.clear()
            for sender in senders:
                sender.start()
            deadline = time.monotonic() + 30  # some acks first (a loaded machine may be slow), then at random
            while not all(t.acked for t in tables) and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rnd.uniform(0.0, 0.4))
            server.proc.send_signal(signal.SIGKILL)  # no shutdown, no goodbye: mid-request
            server.proc.wait(10)
            server.stop()  # already dead: closes its log
            stop.set()
            for thread in senders + watchers:
                thread.join(30)
            assert not errors, errors
            stack.close()

            server = _start(database_url, port, tmp_path / f"server{round_ + 1}.log")
            with httpx.Client(base_url=base, timeout=10) as http:
                for t in tables:
                    for command_id in t.acked:
                        assert _stored(reader, command_id) == 1, command_id
                    totals["acked"] += len(t.acked)
                    for token, body in t.in_doubt:
                        before = _stored(reader, body["command_id"])
                        r = http.post(f"/api/tables/{t.id}/commands", json=body,
                                      headers={"Authorization": f"Bearer {token}"})
                        assert r.status_code == 200, r.text
                        assert r.json()["duplicate"] is (before == 1)
                        assert _stored(reader, body["command_id"]) == 1
                        totals["in_doubt"] += 1
                        totals["applied_before_crash"] += before
                    # Resume the socket where it stopped: exactly the missed events.
                    with connect(f"ws://{server.url}/ws/tables/{t.id}?token={t.tokens[0]}"
                                 f"&since={t.seen_version}&game={t.game_id}") as ws:
                        first = json.loads(ws.recv(10))
                    everything = http.get(f"/api/tables/{t.id}/events", params={"since": 0},
                                          headers={"Authorization": f"Bearer {t.tokens[0]}"}).json()
                    assert first["type"] == "update" and first["since"] == t.seen_version, first["type"]
                    assert first["version"] == everything["version"]
                    assert t.seen + first["events"] == everything["events"]
                    totals["resumed_events"] += len(first["events"])
                    t.seen.extend(first["events"])
                    t.seen_version = first["version"]
                    replay = http.get(f"/api/tables/{t.id}/games/1/replay",
                                      headers={"Authorization": f"Bearer {t.tokens[0]}"})
                    assert replay.status_code == 200, replay.text
    finally:
        stack.close()
        server.stop()
    print(f"\ncrash test: {ROUNDS} SIGKILLs x {TABLES} tables: {totals}")
    assert totals["acked"] >= ROUNDS * TABLES and totals["in_doubt"] > 0
