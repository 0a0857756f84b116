"""Retention: what the prune deletes and keeps (settings in days), dry runs, the periodic prune and the command.

Tests age their own rows (timestamps moved into the past) and leave every other row of the shared database
younger than any retention period, so the prune only ever touches what a test aged.
"""

from __future__ import annotations

import contextlib
import json
import time
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.admin import main
from app.main import create_app
from app.persistence.db import Database
from app.persistence.models import ChatMessage, Game, GameCommand, GameTable, Seat, utcnow
from app.services.retention import Policy, prune
from app.settings import Settings
from tests.ops.conftest import PlayedTable
from tests.server_helpers import bearer, new_table, play

POLICY = Policy(unstarted=timedelta(days=30), idle=timedelta(days=90), finished=timedelta(days=730))


def age(url: str, table_id: str, days: float, finished_days: float | None = None) -> None:
    """Move a table, its games and their commands ``days`` into the past (a finished game's end to
    ``finished_days`` ago when given)."""
    then = utcnow() - timedelta(days=days)
    db = Database(url)
    with db.write() as s:
        s.execute(update(GameTable).where(GameTable.id == table_id).values(created_at=then))
        games = list(s.scalars(select(Game.id).where(Game.table_id == table_id)))
        s.execute(update(Game).where(Game.id.in_(games)).values(created_at=then))
        s.execute(update(GameCommand).where(GameCommand.game_id.in_(games)).values(created_at=then))
        if finished_days is not None:
            s.execute(update(Game).where(Game.id.in_(games), Game.status == "finished")
                      .values(finished_at=utcnow() - timedelta(days=finished_days)))
    db.dispose()


def contents(url: str, table_id: str) -> dict[str, Any]:
    db = Database(url)
    with db.read() as s:
        out = {"table": s.get(GameTable, table_id) is not None,
               "games": [n for (n,) in s.execute(select(Game.number).where(Game.table_id == table_id)
                                                 .order_by(Game.number))],
               "seats": len(list(s.scalars(select(Seat.id).where(Seat.table_id == table_id)))),
               "chat": len(list(s.scalars(select(ChatMessage.id).where(ChatMessage.table_id == table_id))))}
    db.dispose()
    return out


@pytest.fixture()
def tables(client: TestClient, played: PlayedTable, database_url: str) -> dict[str, str]:
    """One table of each kind, aged: what the default policy prunes and what it keeps."""
    old_waiting = new_table(client, players=2)
    r = client.post(f"/api/tables/{old_waiting.id}/chat", json={"text": "anyone?"},
                    headers=bearer(old_waiting.tokens[0]))
    assert r.status_code in (200, 201), r.text
    age(database_url, old_waiting.id, 31)
    young_waiting = new_table(client, players=2)
    age(database_url, young_waiting.id, 29)
    idle = new_table(client, players=2, start=True)
    play(client, idle, 3, seed=1)
    age(database_url, idle.id, 91)
    quiet = new_table(client, players=2, start=True)
    play(client, quiet, 3, seed=2)
    age(database_url, quiet.id, 89)
    # The played table: game 1 finished 731 days ago, the rematch (game 2) still running and recent.
    age(database_url, played.table.id, 0, finished_days=731)
    return {"old_waiting": old_waiting.id, "young_waiting": young_waiting.id, "idle": idle.id, "quiet": quiet.id,
            "finished": played.table.id}


def test_prune_deletes_exactly_what_the_policy_no_longer_keeps(tables: dict[str, str], database_url: str) -> None:
    db = Database(database_url)
    before = {name: contents(database_url, table_id) for name, table_id in tables.items()}
    dry = prune(db, POLICY, dry_run=True)
    assert {name: contents(database_url, table_id) for name, table_id in tables.items()} == before  # dry: unchanged
    report = prune(db, POLICY)
    db.dispose()
    assert dry.summary() | {"dry_run": False} == report.summary()
    assert set(report.tables) >= {tables["old_waiting"], tables["idle"]}
    assert not set(report.tables) & {tables["young_waiting"], tables["quiet"], tables["finished"]}
    after = {name: contents(database_url, table_id) for name, table_id in tables.items()}
    assert after["old_waiting"] == {"table": False, "games": [], "seats": 0, "chat": 0}  # with seats and chat
    assert after["idle"] == {"table": False, "games": [], "seats": 0, "chat": 0}
    assert after["young_waiting"] == before["young_waiting"]
    assert after["quiet"] == before["quiet"]
    # The finished game 1 went; the table and its running rematch stay.
    assert after["finished"] == dict(before["finished"], games=[2])
    assert before["finished"]["games"] == [1, 2]


def test_a_table_whose_games_were_all_pruned_goes_once_it_is_old(client: TestClient, database_url: str) -> None:
    """Retention 0 keeps forever; a recent table whose last game was pruned stays until it is itself old."""
    t = new_table(client, players=2, start=True)
    play(client, t, 2, seed=3)
    age(database_url, t.id, 100)
    db = Database(database_url)
    keep_tables = Policy(unstarted=None, idle=timedelta(days=90), finished=None)
    report = prune(db, keep_tables)
    assert t.id not in report.tables and len(report.idle_games) >= 1
    assert contents(database_url, t.id) == {"table": True, "games": [], "seats": 2, "chat": 0}
    report = prune(db, Policy(unstarted=timedelta(days=30), idle=None, finished=None))
    db.dispose()
    assert t.id in report.tables and not contents(database_url, t.id)["table"]


def test_retention_settings_read_days_and_zero_keeps_forever() -> None:
    policy = Policy.of(Settings(retention_unstarted_days=1.5, retention_idle_days=0, retention_finished_days=365))
    assert policy == Policy(timedelta(days=1.5), None, timedelta(days=365))
    defaults = Policy.of(Settings())
    assert defaults.finished is not None and defaults.finished >= timedelta(days=365)  # replays kept long


def test_prune_command_dry_run_then_prune(client: TestClient, database_url: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    t = new_table(client, players=2)
    age(database_url, t.id, 365)
    assert main(["--database-url", database_url, "prune", "--dry-run"]) == 0
    dry = json.loads(capsys.readouterr().out)
    assert dry["dry_run"] is True and dry["tables"] >= 1 and contents(database_url, t.id)["table"]
    assert main(["--database-url", database_url, "prune"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["dry_run"] is False and done["tables"] == dry["tables"]
    assert not contents(database_url, t.id)["table"]


def test_each_server_process_prunes_periodically(settings: Settings, database_url: str) -> None:
    periodic = settings.model_copy(update={"prune_every_hours": 0.5 / 3600})  # every half second
    with TestClient(create_app(periodic)) as client:
        t = new_table(client, players=2)
        age(database_url, t.id, 31)
        deadline = time.monotonic() + 20
        while contents(database_url, t.id)["table"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not contents(database_url, t.id)["table"]


def test_the_prune_rests_as_long_as_each_transaction_took(client: TestClient, database_url: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Each transaction of a prune is followed by a rest as long as it took (``rest`` times that), so a long prune
    takes at most about half of the database's time from the tables that play meanwhile."""
    from app.services import retention

    doomed = []
    for seed in (3, 4, 5):
        t = new_table(client, players=2, start=True)
        play(client, t, 2, seed=seed)
        age(database_url, t.id, 400)
        doomed.append(t.id)
    rests: list[float] = []
    monkeypatch.setattr(retention.time, "sleep", rests.append)
    spans: list[float] = []
    db = Database(database_url)
    real_write = db.write

    @contextlib.contextmanager
    def timed_write() -> Any:
        began = time.perf_counter()
        try:
            with real_write() as session:
                yield session
        finally:
            spans.append(time.perf_counter() - began)

    # Only the prune's own database is timed: the app's background work writes through its own meanwhile.
    monkeypatch.setattr(db, "write", timed_write)
    report = prune(db, Policy(unstarted=None, idle=timedelta(days=300), finished=None), batch=1, rest=2.0)
    db.dispose()
    assert len(report.idle_games) >= 3 and len(rests) == len(report.idle_games) == len(spans)
    # at least twice the transaction (the prune's own clock also holds the session's opening and closing)
    assert all(0 < 2.0 * span <= r < 2.0 * span + 0.5 for r, span in zip(rests, spans, strict=True))
    assert all(contents(database_url, table_id)["games"] == [] for table_id in doomed)
    rests.clear()
    db = Database(database_url)
    prune(db, Policy(unstarted=None, idle=timedelta(days=300), finished=None), rest=0)  # nothing left, no rest
    db.dispose()
    assert rests == []
