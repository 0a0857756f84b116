"""A finished game's commands are stored as one packed record (``app.persistence.commands``), and every reader of
a game's commands -- the replay record, a resume with ``since``, a resend, the export, the import, the migration --
gets them exactly as they were stored as rows (C-10, C-9)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.main import create_app
from app.persistence.commands import StoredCommand, pack, read_commands, unpack
from app.persistence.models import Game, GameCommand, GameCommandPack
from app.services.archive import export_table, import_record
from app.services.games import GameService, StateCache
from app.services.history import StepCache
from app.settings import Settings
from tests.rules.playout import choose
from tests.server_helpers import bearer, command_body, new_table, server_game

ONE_PHASE = {"phases": [[{"kind": "set", "size": 3}]]}


def _cold(service: GameService) -> None:
    service.states = StateCache(service.settings.state_cache_size)
    service.step_cache = StepCache(64)
    service.forget()


def test_a_pack_gives_back_every_column_of_its_commands() -> None:
    start = datetime(2026, 11, 27, 10, 0, 0, 123456, tzinfo=UTC)
    commands = [StoredCommand(i, i % 3, f"id-{i}", {"type": "draw", "n": i}, start + timedelta(seconds=i * 7.5),
                              "timer" if i == 4 else None) for i in range(1, 9)]
    data = pack(commands)
    assert unpack(data) == commands
    naive = unpack(data, aware=False)
    assert [c.created_at for c in naive] == [c.created_at.replace(tzinfo=None) for c in commands]
    assert naive[3].made_by == "timer" and naive[2].made_by is None
    with pytest.raises(ValueError):
        pack(commands[1:])  # a pack holds 1 .. n


def _play_to_end(client: TestClient, t: Any, seed: int) -> tuple[list[dict[str, Any]], list[dict[int | None, Any]]]:
    """Play the table's game to its end through the API: each command's body and seat, and the events each seat and
    a spectator saw."""
    ruleset, state, _ = server_game(client, t.id)
    rnd = random.Random(seed)
    sent: list[dict[str, Any]] = []
    seen: list[dict[int | None, Any]] = []
    while not ruleset.is_over(state):
        seat = ruleset.awaited(state)[0]
        command = choose(ruleset.legal_commands(state, seat), rnd)
        body = command_body(ruleset.command_to_json(command), expected=len(sent))
        r = client.post(f"/api/tables/{t.id}/commands", json=body, headers=bearer(t.tokens[seat]))
        assert r.status_code == 200, r.text
        state, events = ruleset.apply(state, seat, command)
        sent.append({"body": body, "seat": seat, "events": r.json()["events"]})
        seen.append({viewer: [ruleset.redact_event(e, viewer) for e in events] for viewer in (0, 1, None)})
    return sent, seen


def test_a_packed_game_still_replays_resumes_and_answers_resends(settings: Settings) -> None:
    with TestClient(create_app(settings.model_copy(update={"snapshot_every": 5}))) as client:
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        t = new_table(client, players=2, options=ONE_PHASE, ruleset="master", start=True)
        _, _, game = server_game(client, t.id)
        sent, seen = _play_to_end(client, t, seed=3)
        n = len(sent)
        with service.db.read() as s:
            rows = s.scalar(select(func.count()).select_from(GameCommand).where(GameCommand.game_id == game.id))
            packed = s.get(GameCommandPack, game.id)
            assert rows == 0 and packed is not None and packed.commands == n
            stored = read_commands(s, game.id)
            assert [c.seq for c in stored] == list(range(1, n + 1))
            assert [(c.seat, c.command_id) for c in stored] == [(x["seat"], x["body"]["command_id"]) for x in sent]
            assert [c.seq for c in read_commands(s, game.id, n - 3, n - 1)] == [n - 2, n - 1]
        # The replay record: every command as it was made (the engine rebuilds the game from it).
        record = client.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
        assert [(c["seq"], c["seat"], c["command"]) for c in record["commands"]] == [
            (i, x["seat"], x["body"]["command"]) for i, x in enumerate(sent, start=1)]
        # A resume since any version: the events each seat was sent, recomputed from the pack.
        for since in (n - 1, n - 4, 0):
            for seat in (0, 1):
                _cold(service)
                r = client.get(f"/api/tables/{t.id}/events?since={since}", headers=bearer(t.tokens[seat]))
                assert r.status_code == 200, r.text
                assert r.json()["events"] == [e for step in seen[since:] for e in step[seat]], (since, seat)
        # A resend of the last command (its answer was lost) and of an earlier one: the same answer again.
        for i in (n - 1, 2):
            _cold(service)
            again = client.post(f"/api/tables/{t.id}/commands", json=sent[i]["body"],
                                headers=bearer(t.tokens[sent[i]["seat"]]))
            assert again.status_code == 200, again.text
            assert again.json()["duplicate"] and again.json()["version"] == i + 1
            assert again.json()["events"] == sent[i]["events"]
        # Another seat reusing that command id is refused; a new command is "game over".
        other = 1 - sent[-1]["seat"]
        r = client.post(f"/api/tables/{t.id}/commands", json=sent[-1]["body"], headers=bearer(t.tokens[other]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "command_id_reused", r.text
        fresh = dict(sent[-1]["body"], command_id="a-new-one", expected_version=None)
        r = client.post(f"/api/tables/{t.id}/commands", json=fresh, headers=bearer(t.tokens[0]))
        assert r.json()["error"]["code"] == "game_over", r.text
        # Export, then import: the imported finished game is packed too, with the same commands.
        exported = export_table(service.db, t.id)
        assert [c["command_id"] for c in exported["games"][0]["commands"]] == [x["body"]["command_id"] for x in sent]
        copy = import_record(service.db, exported)
        with service.db.read() as s:
            imported = s.scalar(select(Game).where(Game.table_id == copy))
            assert imported is not None
            assert s.scalar(select(func.count()).select_from(GameCommand)
                            .where(GameCommand.game_id == imported.id)) == 0
            assert [(c.seq, c.seat, c.command_id, c.command) for c in read_commands(s, imported.id)] == [
                (c.seq, c.seat, c.command_id, c.command) for c in stored]
        assert export_table(service.db, copy)["games"][0]["commands"] == exported["games"][0]["commands"]


def test_the_packing_migration_downgrades_to_rows_and_back(tmp_path: Any) -> None:
    """``0015_packed_history`` downgraded: the finished game's commands are rows again, as they were packed;
    upgraded again, they are packed and its replay is unchanged."""
    from alembic import command as alembic
    from sqlalchemy import create_engine, text

    from app.persistence.db import alembic_config, upgrade

    url = f"sqlite:///{tmp_path / 'pack.db'}"
    upgrade(url)
    with TestClient(create_app(Settings(database_url=url, log_level="WARNING"))) as client:
        t = new_table(client, players=2, options=ONE_PHASE, ruleset="master", start=True)
        sent, _ = _play_to_end(client, t, seed=8)
        running = new_table(client, players=2, start=True)
        r = client.get(f"/api/tables/{running.id}/view", headers=bearer(running.tokens[0]))
        assert r.status_code == 200
        before = client.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
    alembic.downgrade(alembic_config(url), "0014_history_storage")
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT seq, seat, command_id FROM game_command ORDER BY seq")).all()
    assert [(r.seq, r.seat, r.command_id) for r in rows] == [
        (i, x["seat"], x["body"]["command_id"]) for i, x in enumerate(sent, start=1)]
    alembic.upgrade(alembic_config(url), "head")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game_command")).scalar() == 0
        assert conn.execute(text("SELECT commands FROM game_command_pack")).scalar() == len(sent)
    engine.dispose()
    with TestClient(create_app(Settings(database_url=url, log_level="WARNING"))) as client:
        after = client.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
    assert after == before
