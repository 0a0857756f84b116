"""Persistence: Alembic and the models agree; optimistic concurrency; a restart loses nothing."""

from __future__ import annotations

import random
import threading
import uuid
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.main import create_app
from app.persistence.commands import read_commands
from app.persistence.db import Database
from app.persistence.models import Base, GameCommand
from app.rules.core.errors import StaleVersion
from app.services.games import GameService, StateCache
from app.settings import Settings
from tests.server_helpers import bearer, command_body, new_table, pick, play, server_game


def test_migrations_match_models(database_url: str) -> None:
    """``alembic upgrade head`` (run by the fixture) produces exactly the models' schema."""
    db = Database(database_url)
    with db.read_engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    db.dispose()
    assert diff == []


def _race(service: GameService, table_id: str, seat_id: int, command: dict[str, Any],
          expected: int | None, other: GameService | None = None) -> list[Any]:
    """Two submissions at once, from two services (two engines and pools, like two processes)."""
    barrier = threading.Barrier(2)
    results: list[Any] = []

    def submit(by: GameService) -> None:
        barrier.wait()
        try:
            results.append(by.submit_as(table_id, seat_id, str(uuid.uuid4()), expected, command))
        except Exception as err:  # noqa: BLE001 - collected for the assertion
            results.append(err)

    threads = [threading.Thread(target=submit, args=(by,)) for by in (service, other or service)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    return results


def test_race_on_expected_version_has_one_winner(client: TestClient, settings: Settings) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    other = GameService(Database(settings.database_url), settings)
    rnd = random.Random(7)
    for _ in range(5):
        t = new_table(client, players=2, start=True)
        play(client, t, 3, seed=rnd.randrange(1000))
        _, _, game = server_game(client, t.id)
        seat, command = pick(client, t.id, rnd) or (0, {})
        seat_id = game.seats[seat]["seat_id"]
        results = _race(service, t.id, seat_id, command, expected=game.version, other=other)
        wins = [r for r in results if isinstance(r, dict)]
        losses = [r for r in results if isinstance(r, StaleVersion)]
        assert len(wins) == 1 and len(losses) == 1, results
        assert losses[0].code == "stale_version"
        _, _, after = server_game(client, t.id)
        assert after.version == game.version + 1
        with service.db.read() as s:
            count = s.scalar(select(func.count()).select_from(GameCommand).where(GameCommand.game_id == game.id))
        assert count == after.version
    other.db.dispose()


def test_race_without_expected_version_never_doubles(client: TestClient) -> None:
    """Two identical draws without expected_version: one is applied, the retry of the other meets the
    new state and fails by the rules (a second draw), nothing is applied twice."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    t = new_table(client, players=2, start=True)
    ruleset, state, game = server_game(client, t.id)
    seat = ruleset.awaited(state)[0]
    results = _race(service, t.id, game.seats[seat]["seat_id"], {"type": "draw", "pile": "draw"}, None)
    assert sum(isinstance(r, dict) for r in results) == 1, results
    assert server_game(client, t.id)[2].version == 1


def test_restart_continues_at_the_same_version(settings: Settings) -> None:
    with TestClient(create_app(settings)) as first:
        t = new_table(first, players=2, start=True)
        play(first, t, 5, seed=11)
        before = first.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()
    with TestClient(create_app(settings)) as second:
        after = second.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()
        assert after == before and after["version"] == 5
        seat, command = pick(second, t.id, random.Random(1)) or (0, {})
        r = second.post(f"/api/tables/{t.id}/commands", json=command_body(command, expected=5),
                        headers=bearer(t.tokens[seat]))
        assert r.status_code == 200 and r.json()["version"] == 6


def test_snapshots_every_few_commands_rebuild_the_same_state(settings: Settings) -> None:
    """With a snapshot every 3 commands and no state cache, every load replays the commands after the
    last snapshot; views match a server that keeps every state in memory (C-10)."""
    sparse = settings.model_copy(update={"snapshot_every": 3, "state_cache_size": 0})
    with TestClient(create_app(settings)) as cached, TestClient(create_app(sparse)) as replaying:
        t = new_table(cached, players=3, start=True)
        for round_ in range(4):
            play(replaying if round_ % 2 else cached, t, 4, seed=round_)
            for seat, token in enumerate(t.tokens):
                a = cached.get(f"/api/tables/{t.id}/view", headers=bearer(token)).json()
                b = replaying.get(f"/api/tables/{t.id}/view", headers=bearer(token)).json()
                assert a == b and a["seat"] == seat
        _, _, game = server_game(replaying, t.id)
        assert game.version == 16 and game.snapshot_version == 16  # 5, 8, 13, 16 by the sparse server


def test_the_hot_path_stores_a_command_row_the_orm_reads_back(client: TestClient) -> None:
    """A command's row (raw driver statements on Postgres, Core on SQLite) holds the command as a JSON object, not a
    string, and no events (C-10: the engine recomputes them); a resend is given the same events as the submitter
    was; the version moved by exactly one."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    t = new_table(client, players=2, start=True)
    ruleset, _, game = server_game(client, t.id)
    seat, command = pick(client, t.id, random.Random(11)) or (0, {})
    result = service.submit_as(t.id, game.seats[seat]["seat_id"], "stored-1", game.version, command)
    with service.db.read() as s:
        row = s.scalar(select(GameCommand).where(GameCommand.game_id == game.id, GameCommand.command_id == "stored-1"))
    assert row is not None and row.seq == result["version"] == game.version + 1 and row.seat == seat
    assert row.command == command and not hasattr(row, "events") and not hasattr(row, "redacted")
    assert row.created_at is not None
    service.states = StateCache(0)  # the resend's events are recomputed from the stored game, not a cached copy
    again = service.submit_as(t.id, game.seats[seat]["seat_id"], "stored-1", game.version, command)
    assert again["duplicate"] and again["events"] == result["events"] and result["events"]
    assert server_game(client, t.id)[2].version == result["version"]
    assert ruleset.parse_command(row.command) is not None


def test_a_state_asked_for_after_a_newer_snapshot_is_still_exact(settings: Settings) -> None:
    """C-10: a reader that read the game row at version v and loads the state after another command stored a
    snapshot newer than v (the fan-out's slow path under READ COMMITTED) gets the state at exactly v."""
    every3 = settings.model_copy(update={"snapshot_every": 3})
    with TestClient(create_app(every3)) as client:
        t = new_table(client, players=2, start=True)
        play(client, t, 4, seed=11)
        ruleset, _, old = server_game(client, t.id)
        assert old.snapshot_version < old.version == 4
        play(client, t, 4, seed=12)
        _, _, now = server_game(client, t.id)
        assert now.snapshot_version > old.version  # a newer snapshot than the version read above
        expected = replay_to(ruleset, client, t.id, old.version)
    with TestClient(create_app(every3)) as fresh:  # another process: nothing cached
        service: GameService = fresh.app.state.service  # type: ignore[attr-defined]
        with service.db.read() as s:
            state = service.repo.state(s, ruleset, old)
        assert ruleset.state_to_json(state) == expected


def replay_to(ruleset: Any, client: TestClient, table_id: str, version: int) -> Any:
    """The state after the first ``version`` commands, replayed from the seed with the engine alone."""
    from app.persistence.models import Game

    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        game = s.scalar(select(Game).where(Game.table_id == table_id))
        assert game is not None
        rows = [(c.seat, c.command) for c in read_commands(s, game.id, 0, version)]
        state = ruleset.new_game(game.seed, game.players, ruleset.parse_options(game.options))
    for seat, command in rows:
        state, _ = ruleset.apply(state, seat, ruleset.parse_command(command))
    return ruleset.state_to_json(state)
