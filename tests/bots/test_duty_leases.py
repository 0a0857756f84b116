"""A table's duties (bot, stand-in and timer decisions) are held by one process at a time through its duty lease
(``app.autoplay.leases``), and nothing of them lives only in that process: a failed decision is made again, a process
that stops renewing its leases (killed, frozen) is taken over by another, every process reports the same
``stand_ins`` and timer, and a timer runs from stored moments across a restart. Two apps on the test database
stand for two server processes (the real processes and a real Postgres: ``tests/faults``)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from app.autoplay.models import DutyLease, TableClock
from app.autoplay.runner import BotRunner
from app.autoplay.settings import BotSettings
from app.main import create_app
from app.persistence.db import Database
from app.services.games import GameService
from tests.bots.test_live import add_bot, commands, human_move, wait_for
from tests.server_helpers import bearer, new_table, server_game

QUICK = BotSettings(delay_seconds=0.0, fast_seconds=0.5, stand_in_grace_seconds=0.2, tick_seconds=0.05,
                    lease_seconds=0.6)
# A process that holds the lease but would not act for an hour (its delays and timers are long); its leases last
# long enough that a loaded machine never lets one expire between two ticks.
IDLE = BotSettings(delay_seconds=3600.0, relaxed_seconds=3600.0, fast_seconds=3600.0, stand_in_grace_seconds=0.2,
                   tick_seconds=0.05, lease_seconds=10.0)


def serve(settings: Any, bots: BotSettings) -> TestClient:
    return TestClient(create_app(settings, bot_settings=bots))


@pytest.fixture(autouse=True)
def clocks_off(settings: Any) -> Iterator[None]:
    yield
    db = Database(settings.database_url)
    with db.write() as s:  # leave no timer or stand-in running for later apps on the shared database
        s.execute(update(TableClock).values(turn_timer="off", stand_in=False))
    db.dispose()


def runner(client: TestClient) -> BotRunner:
    return client.app.state.bots  # type: ignore[attr-defined,no-any-return]


def freeze(client: TestClient) -> None:
    """The app's runner stops dead, as a killed process does: no renewal, no hand-over, its plans gone."""
    bots = runner(client)
    assert bots.task is not None
    bots.task.cancel()
    for _, handles in bots.scheduled.values():
        for handle in handles:
            handle.cancel()
    bots.scheduled.clear()
    bots.stopping = True


def fail_once(monkeypatch: pytest.MonkeyPatch, client: TestClient, prefix: str) -> list[str]:
    """The first decision whose command id starts with ``prefix`` fails as on a lost database connection."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    real = service.submit_as
    failed: list[str] = []

    def flaky(table_id: str, seat_id: int | None, command_id: str, expected: int | None, raw: Any,
              by: str | None = None) -> Any:
        if command_id.startswith(prefix) and not failed:
            failed.append(command_id)
            raise OperationalError("UPDATE game ...", {}, Exception("server closed the connection unexpectedly"))
        return real(table_id, seat_id, command_id, expected, raw, by)

    monkeypatch.setattr(service, "submit_as", flaky)
    return failed


@pytest.mark.parametrize("kind", ["bot", "timer"])
def test_a_decision_that_failed_on_the_database_is_made_again(settings: Any, monkeypatch: pytest.MonkeyPatch,
                                                              kind: str) -> None:
    with serve(settings, QUICK) as client:
        failed = fail_once(monkeypatch, client, f"{kind}:")
        t = new_table(client, players=1 if kind == "bot" else 2, seats=2)
        if kind == "bot":
            add_bot(client, t.id, t.tokens[0], "easy")
        else:
            client.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "fast"}, headers=bearer(t.tokens[0]))
        assert client.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0])).status_code == 200
        rng = random.Random(5)

        def made_again() -> bool:
            ruleset, state, _ = server_game(client, t.id)
            if kind == "bot" and 0 in ruleset.awaited(state):
                human_move(client, t.id, t.tokens[0], 0, rng)
            return any(r.command_id == failed[0] for r in commands(client, t.id)) if failed else False

        wait_for(made_again, timeout=15)  # the very decision that failed, with its command id


def test_a_process_that_stops_renewing_its_leases_is_taken_over(settings: Any) -> None:
    """B runs before the table exists and is never told of it; A plans it, then freezes on the bot's turn (it
    would have waited an hour): B finds A's lease expired and moves for the bot."""
    with serve(settings, QUICK) as b, serve(settings, IDLE.model_copy(update={"lease_seconds": 1.0})) as a:
        t = new_table(a, players=1, seats=2)
        add_bot(a, t.id, t.tokens[0], "easy")
        assert a.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0])).status_code == 200
        rng = random.Random(7)
        for _ in range(40):  # the host plays through A until the bot is awaited
            ruleset, state, game = server_game(a, t.id)
            if 1 in ruleset.awaited(state):
                break
            human_move(a, t.id, t.tokens[0], 0, rng)
        waiting_at = server_game(a, t.id)[2].version
        wait_for(lambda: t.id in runner(a).owned)
        assert t.id not in runner(b).owned
        freeze(a)
        wait_for(lambda: server_game(b, t.id)[2].version > waiting_at, timeout=10)
        row = commands(b, t.id)[waiting_at]
        assert row.seat == 1 and row.command_id.startswith("bot:")
        assert t.id in runner(b).owned


def test_two_processes_report_the_same_stand_ins_and_timer(settings: Any) -> None:
    """A holds the table (seat 1 never connects: a stand-in plays for it after the grace period); B only answers
    requests about it. Both report the same stand-ins, seats on the clock and deadline."""
    with serve(settings, IDLE) as a:
        t = new_table(a, players=2)
        a.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "relaxed", "stand_in": True},
              headers=bearer(t.tokens[0]))
        with a.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}"):
            assert a.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0])).status_code == 200
            wait_for(lambda: a.get(f"/api/tables/{t.id}/bots").json()["stand_ins"] == [1])
            with serve(settings, IDLE) as b:  # started later: it first saw the timer later
                for client in (a, b):
                    wait_for(lambda client=client: client.get(f"/api/tables/{t.id}/bots").json()["stand_ins"]
                             == [1])
                got = [client.get(f"/api/tables/{t.id}/bots").json() for client in (a, b)]
                assert got[0]["stand_ins"] == got[1]["stand_ins"] == [1]
                assert got[0]["timer"]["version"] == got[1]["timer"]["version"]
                assert got[0]["timer"]["seats"] == got[1]["timer"]["seats"]
                assert got[0]["timer"]["deadline"] == got[1]["timer"]["deadline"]
                views = [client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()["view"]["timer"]
                         for client in (a, b)]
                assert views[0]["seats"] == views[1]["seats"] and views[0]["deadline"] == views[1]["deadline"]
                assert t.id in runner(a).owned and t.id not in runner(b).owned


def test_a_short_timer_keeps_its_deadline_across_a_restart(settings: Any) -> None:
    """The deadline comes from stored moments: a restarted server (or another process) does not start the
    decision's clock again, so a crash loop cannot hold a turn forever."""
    with serve(settings, IDLE) as first:
        t = new_table(first, players=2)
        first.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "fast"}, headers=bearer(t.tokens[0]))
        assert first.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0])).status_code == 200
        before = first.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()["view"]["timer"]
    time.sleep(0.3)
    with serve(settings, IDLE) as second:
        after = second.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()["view"]["timer"]
    assert after["version"] == before["version"] and after["deadline"] == before["deadline"]


def test_the_lease_of_a_table_is_one_row_held_by_one_process(settings: Any) -> None:
    with serve(settings, IDLE) as a, serve(settings, IDLE) as b:
        t = new_table(a, players=1, seats=2)
        add_bot(a, t.id, t.tokens[0], "easy")
        assert a.post(f"/api/tables/{t.id}/start", headers=bearer(t.tokens[0])).status_code == 200
        wait_for(lambda: t.id in runner(a).owned)
        assert not runner(b).leases.claim(t.id)  # A renews it: B cannot take it
        service: GameService = a.app.state.service  # type: ignore[attr-defined]
        with service.db.read() as s:
            row = s.get(DutyLease, t.id)
            assert row is not None and row.owner == runner(a).leases.owner
    with service.db.read() as s:  # A stopped: it gave the lease up
        row = s.get(DutyLease, t.id)
        assert row is None or row.owner is None
