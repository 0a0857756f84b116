"""Fixtures of the operations tests: a table with a finished game and a running rematch (real database)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

from tests.server_helpers import Table, bearer, new_table, play, play_to_end

# One short Master phase (R-3: a host's own phase list), so a whole game is a few dozen commands.
ONE_PHASE = [[{"kind": "set", "size": 3}]]


@dataclass
class PlayedTable:
    table: Table
    finished_commands: int  # game 1, finished
    running_commands: int  # game 2, the rematch, still running


def played_table(client: TestClient, seed: int = 3) -> PlayedTable:
    """A Master table whose game 1 was played to the end and whose rematch (game 2) is a few commands in."""
    t = new_table(client, players=2, ruleset="master", options={"phases": ONE_PHASE}, start=True)
    finished = play_to_end(client, t, seed=seed)
    r = client.post(f"/api/tables/{t.id}/rematch", headers=bearer(t.tokens[0]))  # offered by the host ...
    assert r.status_code == 200, r.text
    r = client.post(f"/api/tables/{t.id}/rematch/answer", json={"accept": True}, headers=bearer(t.tokens[1]))
    assert r.status_code == 200 and r.json()["game"]["number"] == 2, r.text  # ... accepted: game 2 is dealt
    running = play(client, t, 5, seed=seed)
    assert running == 5
    return PlayedTable(t, finished, running)


@pytest.fixture(scope="module")
def played(database_url: str) -> PlayedTable:
    """One played table per test module (playing it is the slow part); tests only read it."""
    from app.main import create_app
    from app.settings import Settings

    settings = Settings(database_url=database_url, log_level="WARNING")
    with TestClient(create_app(settings)) as client:
        return played_table(client)
