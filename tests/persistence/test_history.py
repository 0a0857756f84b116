"""A game's past events are recomputed by the engine from what is stored (``app.services.history``, C-10): a resume
with ``since`` gets exactly the events each seat was sent live (C-9), whether the replay starts from the latest
snapshot, the one before it or the seed."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.main import create_app
from app.persistence.models import Game, GameCommand
from app.services.games import GameService, StateCache
from app.services.history import StepCache
from app.settings import Settings
from tests.rules.playout import choose
from tests.server_helpers import Table, bearer, command_body, new_table, server_game


def _cold(service: GameService) -> None:
    """This process forgets every state, step and cached table: the next read recomputes from the database."""
    service.states = StateCache(service.settings.state_cache_size)
    service.step_cache = StepCache(64)
    service.forget()


@dataclass
class Step:
    """One accepted command: who sent it, its body and answer, and its events as each seat and a spectator see
    them (computed by the test's own engine)."""

    seat: int
    body: dict[str, Any]
    answer: dict[str, Any]
    seen: dict[int | None, list[Any]]


def _played(client: TestClient, steps: int, seed: int) -> tuple[GameService, Table, Game, list[Step]]:
    """A started 2-seat table and ``steps`` legal commands chosen with ``seed``, each sent through REST and
    answered with exactly the events its seat was to get (C-9)."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    t = new_table(client, players=2, start=True)
    ruleset, state, game = server_game(client, t.id)
    rnd = random.Random(seed)
    done: list[Step] = []
    for version in range(steps):
        seat = ruleset.awaited(state)[0]
        command = choose(ruleset.legal_commands(state, seat), rnd)
        body = command_body(ruleset.command_to_json(command), expected=version)
        r = client.post(f"/api/tables/{t.id}/commands", json=body, headers=bearer(t.tokens[seat]))
        assert r.status_code == 200, r.text
        state, events = ruleset.apply(state, seat, command)
        seen = {viewer: [ruleset.redact_event(e, viewer) for e in events] for viewer in (0, 1, None)}
        assert r.json()["events"] == seen[seat]
        done.append(Step(seat, body, r.json(), seen))
    return service, t, game, done


def test_C9_recomputed_events_are_what_each_seat_was_sent(settings: Settings) -> None:
    with TestClient(create_app(settings.model_copy(update={"snapshot_every": 4}))) as client:
        service, t, game, steps = _played(client, 14, seed=5)
        sent = [step.seen for step in steps]  # per version: the events as each seat and a spectator see them
        with service.db.read() as s:
            row = s.execute(select(Game.snapshot_version, Game.previous_snapshot_version)
                            .where(Game.id == game.id)).one()
            assert not hasattr(GameCommand, "redacted") and not hasattr(GameCommand, "events")
        assert (row.snapshot_version, row.previous_snapshot_version) == (12, 8)
        # From the latest snapshot (13, 12), the one before it (9, 8), the seed (5, 0); nothing missed (14).
        for since in (14, 13, 12, 9, 8, 5, 0):
            for seat in (0, 1):
                _cold(service)
                r = client.get(f"/api/tables/{t.id}/events?since={since}", headers=bearer(t.tokens[seat]))
                assert r.status_code == 200, r.text
                assert r.json()["events"] == [e for step in sent[since:] for e in step[seat]], (since, seat)
        # The public record of the running game: every command's events as a spectator saw them.
        _cold(service)
        record = client.get(f"/api/tables/{t.id}/games/1/replay", headers=bearer(t.tokens[0])).json()
        assert [c["events"] for c in record["commands"]] == [step[None] for step in sent]


def test_a_resent_command_gets_its_events_after_later_snapshots(settings: Settings) -> None:
    """A resend of an early command, after snapshots newer than it were stored, answers its own events again."""
    with TestClient(create_app(settings.model_copy(update={"snapshot_every": 3}))) as client:
        service, t, _, steps = _played(client, 10, seed=9)
        first = steps[1]
        _cold(service)
        again = client.post(f"/api/tables/{t.id}/commands", json=first.body,
                            headers=bearer(t.tokens[first.seat])).json()
        assert again["duplicate"] and again["version"] == 2
        assert again["events"] == first.answer["events"] and again["events"]


def test_the_storage_migration_downgrades_and_upgrades_again(tmp_path: Any) -> None:
    """``0014_history_storage`` downgraded: every command row gets back the events and per-seat redactions the engine
    computes (what the old revision stored); upgraded again, the commands are all still there."""
    from alembic import command as alembic
    from sqlalchemy import create_engine, text

    from app import fastjson
    from app.persistence.db import alembic_config, upgrade
    from app.rules import registry
    from tests.server_helpers import play

    url = f"sqlite:///{tmp_path / 'down.db'}"
    upgrade(url)
    with TestClient(create_app(Settings(database_url=url, log_level="WARNING"))) as client:
        t = new_table(client, players=2, start=True)
        assert play(client, t, 12, seed=2) == 12
        _, _, game = server_game(client, t.id)
    alembic.downgrade(alembic_config(url), "0010_push_subscriptions")
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT seq, seat, command, events, redacted FROM game_command ORDER BY seq")).all()
    ruleset = registry.get(game.ruleset)
    state = ruleset.new_game(game.seed, game.players, ruleset.parse_options(game.options))
    assert [row.seq for row in rows] == list(range(1, 13))
    for row in rows:
        state, events = ruleset.apply(state, row.seat, ruleset.parse_command(fastjson.loads(row.command)))
        assert fastjson.loads(row.events) == [ruleset.event_to_json(e) for e in events]
        redacted = fastjson.loads(row.redacted)
        assert set(redacted) == {"0", "1", "spectator"}
        assert redacted["1"] == [ruleset.redact_event(e, 1) for e in events]
        assert redacted["spectator"] == [ruleset.redact_event(e, None) for e in events]
    alembic.upgrade(alembic_config(url), "head")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM game_command")).scalar() == 12
    engine.dispose()
