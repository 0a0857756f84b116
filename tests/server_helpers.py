"""Helpers for the server tests: make tables, read the server-side state, play legal commands."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.persistence.models import Game
from app.services.games import GameService
from tests.rules.playout import choose


@dataclass
class Table:
    id: str
    code: str
    link: str
    tokens: list[str] = field(default_factory=list)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: TestClient, players: int = 2, seats: int | None = None, options: dict[str, Any] | None = None,
              spectators: bool = False, ruleset: str = "mattel", start: bool = False) -> Table:
    body = {"ruleset": ruleset, "seats": seats or max(players, 2), "options": options or {},
            "spectators": spectators, "name": "Host"}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    client.cookies.clear()
    table = Table(data["table_id"], data["join_code"], data["invite_link"], [data["token"]])
    for i in range(1, players):
        r = client.post(f"/api/tables/{table.id}/join", json={"name": f"P{i}", "code": table.code})
        assert r.status_code == 200, r.text
        client.cookies.clear()
        table.tokens.append(r.json()["token"])
    if start:
        r = client.post(f"/api/tables/{table.id}/start", headers=bearer(table.tokens[0]))
        assert r.status_code == 200, r.text
    return table


def server_game(client: TestClient, table_id: str) -> tuple[Any, Any, Game]:
    """(ruleset, state, game row) as the server holds them -- for choosing legal commands in tests."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        game = s.scalar(select(Game).where(Game.table_id == table_id).order_by(Game.number.desc()))
        assert game is not None
        ruleset = service.catalog.get(game.ruleset)
        return ruleset, service.repo.state(s, ruleset, game), game


def pick(client: TestClient, table_id: str, rnd: random.Random) -> tuple[int, dict[str, Any]] | None:
    """An awaited seat and one legal command for it (JSON), or None when the game is over."""
    ruleset, state, _ = server_game(client, table_id)
    if ruleset.is_over(state):
        return None
    seat = rnd.choice(ruleset.awaited(state))
    command = choose(ruleset.legal_commands(state, seat), rnd)
    return seat, ruleset.command_to_json(command)


def command_body(command: dict[str, Any], expected: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"command_id": str(uuid.uuid4()), "command": command}
    if expected is not None:
        body["expected_version"] = expected
    return body


def play(client: TestClient, table: Table, steps: int, seed: int = 0) -> int:
    """Play up to ``steps`` legal commands through the REST API; returns how many were accepted."""
    rnd = random.Random(seed)
    done = 0
    for _ in range(steps):
        chosen = pick(client, table.id, rnd)
        if chosen is None:
            break
        seat, command = chosen
        r = client.post(f"/api/tables/{table.id}/commands", json=command_body(command),
                        headers=bearer(table.tokens[seat]))
        assert r.status_code == 200, r.text
        done += 1
    return done


def play_to_end(client: TestClient, table: Table, seed: int = 0, limit: int = 3000) -> int:
    done = play(client, table, limit, seed)
    ruleset, state, _ = server_game(client, table.id)
    assert ruleset.is_over(state), "game did not finish"
    return done
