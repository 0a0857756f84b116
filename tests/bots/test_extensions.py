"""The bot runner as an explicit ``TableExtension`` of the game service: no monkeypatching, and the
timer data of a table is read once per fan-out, not once per view."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, select

from app.autoplay.runner import BotRunner
from app.autoplay.settings import BotSettings
from app.main import create_app
from app.persistence.models import Seat
from app.services.games import GameService
from tests.server_helpers import bearer, new_table

# Nothing moves by itself during these tests: bots wait an hour, and so does the "fast" timer.
STILL = BotSettings(delay_seconds=3600.0, relaxed_seconds=7200.0, fast_seconds=3600.0, tick_seconds=0.05)


@pytest.fixture()
def still(settings: Any) -> Iterator[TestClient]:
    with TestClient(create_app(settings, bot_settings=STILL)) as client:
        yield client


def service_of(client: TestClient) -> GameService:
    return client.app.state.service  # type: ignore[attr-defined, no-any-return]


@contextmanager
def statements(service: GameService) -> Iterator[list[str]]:
    """The SQL run by this thread (the runner's own planning runs in other threads) while the block runs."""
    seen: list[str] = []
    me = threading.get_ident()

    def listen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if threading.get_ident() == me:
            seen.append(statement)

    engines = {service.db.read_engine, service.db.write_engine}
    for engine in engines:
        event.listen(engine, "before_cursor_execute", listen)
    try:
        yield seen
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", listen)


def clock_reads(seen: list[str]) -> int:
    return sum(1 for sql in seen if "FROM table_clock" in sql)


def test_the_runner_is_a_registered_extension_not_a_patch(still: TestClient) -> None:
    service = service_of(still)
    runner = still.app.state.bots  # type: ignore[attr-defined]
    rematches = still.app.state.rematches  # type: ignore[attr-defined]  (the rematch offers: another extension)
    push = still.app.state.push  # type: ignore[attr-defined]  (turn alerts: one more)
    assert isinstance(runner, BotRunner) and service.extensions == [runner, rematches, push]
    for name in ("_table_info", "fanout", "view", "submit", "submit_as"):
        assert name not in vars(service), f"GameService.{name} is replaced on the instance"
    assert type(service.notifier).__module__.startswith("app.realtime")


def test_one_fan_out_reads_the_table_clock_once(still: TestClient) -> None:
    """Four seats (one a bot) and a spectator: five views, one read of the clock, whether the fan-out reads
    everything or takes the fast path of a running table."""
    t = new_table(still, players=3, seats=4)
    r = still.post(f"/api/tables/{t.id}/bots", json={"level": "easy"}, headers=bearer(t.tokens[0]))
    assert r.status_code == 201
    r = still.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "fast"}, headers=bearer(t.tokens[0]))
    assert r.status_code == 200
    assert still.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0])).status_code == 200
    service = service_of(still)
    with service.db.read() as s:
        seat_ids: set[int | None] = set(s.scalars(select(Seat.id).where(Seat.table_id == t.id)))
    seat_ids.add(None)
    for attempt in ("full read", "fast path"):
        with statements(service) as seen:
            data = service.fanout(t.id, seat_ids, 0)
        assert len(data.views) == 5
        assert clock_reads(seen) == 1, f"{attempt}: {clock_reads(seen)} clock reads for one fan-out"
        for view in data.views.values():
            assert view is not None
            timer = view["timer"]
            assert timer["mode"] == "fast" and timer["version"] == data.version
            assert timer["seats"] == [x for x in view["awaited"] if x != 3]  # the bot (seat 3) is not on the clock
        assert t.id in service.fan_out._hot, "the first fan-out primes the fast path"


def test_views_without_a_timer_get_null_from_one_clock_read(still: TestClient) -> None:
    t = new_table(still, players=2, start=True)
    service = service_of(still)
    with service.db.read() as s:
        seat_ids: set[int | None] = set(s.scalars(select(Seat.id).where(Seat.table_id == t.id)))
    with statements(service) as seen:
        data = service.fanout(t.id, seat_ids | {None}, 0)
    assert len(data.views) == 3 and all(v is not None and v["timer"] is None for v in data.views.values())
    assert clock_reads(seen) == 1


def test_rest_and_socket_table_info_carry_the_same_bot_fields(still: TestClient) -> None:
    t = new_table(still, players=1, seats=3)
    r = still.post(f"/api/tables/{t.id}/bots", json={"level": "normal"}, headers=bearer(t.tokens[0]))
    assert r.json()["table"]["bots"] == [{"seat": 1, "level": "normal"}]
    still.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "relaxed", "stand_in": True},
              headers=bearer(t.tokens[0]))
    rest = still.get(f"/api/tables/{t.id}").json()
    assert rest["bots"] == [{"seat": 1, "level": "normal"}]
    assert (rest["turn_timer"], rest["stand_in"], rest["stand_ins"], rest["timer"]) == ("relaxed", True, [], None)
    with still.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}") as ws:
        table = ws.receive_json()["table"]
    fields = ("bots", "turn_timer", "stand_in", "stand_ins", "timer", "revision", "status")
    assert {k: table[k] for k in fields} == {k: rest[k] for k in fields}
    # Cleanup: the database is shared by the whole session; leave no clock on for later apps.
    still.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "off", "stand_in": False}, headers=bearer(t.tokens[0]))
