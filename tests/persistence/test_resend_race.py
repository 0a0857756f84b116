"""A command resent while its first copy is still committing (a page reconnected to another process during a
restart and sent the same ``command_id`` again) is answered as a duplicate of the accepted command, never
``stale_version``: the first copy was accepted, so the sender must learn so."""

from __future__ import annotations

import random
import threading
import uuid
from typing import Any

from fastapi.testclient import TestClient

from app.persistence.db import Database
from app.services.games import GameService
from app.settings import Settings
from tests.server_helpers import new_table, pick, play, server_game


def _same_command_twice(services: tuple[GameService, GameService], table_id: str, seat_id: int,
                        command: dict[str, Any], expected: int) -> list[Any]:
    barrier = threading.Barrier(2)
    command_id = str(uuid.uuid4())
    results: list[Any] = []

    def submit(by: GameService) -> None:
        barrier.wait()
        try:
            results.append(by.submit_as(table_id, seat_id, command_id, expected, command))
        except Exception as err:  # noqa: BLE001 - collected for the assertion
            results.append(err)

    threads = [threading.Thread(target=submit, args=(by,)) for by in services]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    return results


def test_a_resent_command_racing_its_first_copy_is_a_duplicate(client: TestClient, settings: Settings) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    other = GameService(Database(settings.database_url), settings)  # another process's pool and engine
    rnd = random.Random(11)
    try:
        for round_ in range(8):
            t = new_table(client, players=2, start=True)
            play(client, t, 2, seed=round_)
            _, _, game = server_game(client, t.id)
            seat, command = pick(client, t.id, rnd) or (0, {})
            results = _same_command_twice((service, other), t.id, game.seats[seat]["seat_id"], command,
                                          game.version)
            assert all(isinstance(r, dict) for r in results), results
            assert sorted(r["duplicate"] for r in results) == [False, True]
            assert {r["version"] for r in results} == {game.version + 1}
            assert server_game(client, t.id)[2].version == game.version + 1
    finally:
        other.db.dispose()
