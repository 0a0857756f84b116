"""Races between writers and readers of one game (most telling on Postgres, READ COMMITTED, set TEST_DATABASE_URL):
a fan-out reading while commands commit gives each socket every event exactly once, in order, and never an event
past its frame's version; concurrent copies of one command (a client retrying over a flaky link) are applied once
and every copy answers like a sequential resend (``duplicate: true``), never ``stale_version``."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.persistence.db import Database
from app.services.games import GameService
from app.settings import Settings
from tests.server_helpers import new_table, pick, play, server_game


@pytest.fixture()
def other(settings: Settings) -> Iterator[GameService]:
    """A second service on the same database: its own engine and pool, like a second server process."""
    service = GameService(Database(settings.database_url), settings)
    yield service
    service.db.dispose()


def service_of(client: TestClient) -> GameService:
    return client.app.state.service  # type: ignore[attr-defined, no-any-return]


def submit_next(client: TestClient, by: GameService, table_id: str, rnd: random.Random) -> int | None:
    """One legal command for an awaited seat, submitted through ``by``; its version (None: the game is over)."""
    chosen = pick(client, table_id, rnd)
    if chosen is None:
        return None
    seat, command = chosen
    game = server_game(client, table_id)[2]
    result = by.submit_as(table_id, game.seats[seat]["seat_id"], str(uuid.uuid4()), None, command)
    return int(result["version"])


def assert_exact(steps: list[tuple[int, Any]], since: int, version: int) -> None:
    """A frame from ``since`` to ``version`` carries the steps ``since+1 .. version``, each once, in order."""
    assert [seq for seq, _ in steps] == list(range(since + 1, version + 1)), (since, version, [s for s, _ in steps])


def test_a_commit_during_a_fanout_read_is_not_in_that_frame(client: TestClient,
                                                                       other: GameService) -> None:
    """The fan-out reads the game's version, then the steps after ``since``: a command another process commits in
    between belongs to the next frame, not to this one (frames never carry events past their version), and the
    next frame carries it exactly once."""
    service = service_of(client)
    t = new_table(client, players=2, start=True)
    play(client, t, 3, seed=5)
    rnd = random.Random(3)
    engine = service.db.read_engine
    me = threading.get_ident()
    read_game: list[int] = []
    fired: list[int] = []

    def commit_in_between(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        """Right after the fan-out read the table's current game, another process commits a command."""
        if threading.get_ident() != me or fired:
            return
        if read_game:
            fired.append(1)
            version = submit_next(client, other, t.id, rnd)
            assert version is not None
            service.notified(t.id, version, None)  # what this process's LISTEN connection hears of it
        elif "game.number DESC" in statement:
            read_game.append(1)

    before = server_game(client, t.id)[2].version
    submit_next(client, other, t.id, rnd)  # this process's caches are now behind: the slow path runs
    event.listen(engine, "before_cursor_execute", commit_in_between)
    try:
        data = service.fanout(t.id, {None}, before)
    finally:
        event.remove(engine, "before_cursor_execute", commit_in_between)
    assert fired, "the interleaving hook never ran"
    assert data.version == before + 1
    assert_exact(data.steps, before, data.version)
    after = service.fanout(t.id, {None}, data.version)
    assert after.version == before + 2
    assert_exact(after.steps, data.version, after.version)


def test_fanouts_racing_two_processes_commits_get_each_step_once(client: TestClient,
                                                                      other: GameService) -> None:
    """Commands commit from this process and from another one while fan-outs read, over many iterations: every
    frame carries exactly the steps between its ``since`` and its version, and all frames together carry every
    step once (the hot cache is never seeded past its version, nor appended twice)."""
    service = service_of(client)
    t = new_table(client, players=3, start=True)
    commands = 90
    done = threading.Event()
    errors: list[BaseException] = []

    def writer() -> None:
        rnd = random.Random(21)
        try:
            for i in range(commands):
                if submit_next(client, service if i % 2 else other, t.id, rnd) is None:
                    break
        except BaseException as err:  # noqa: BLE001 - reported by the main thread
            errors.append(err)
        finally:
            done.set()

    thread = threading.Thread(target=writer)
    thread.start()
    since, seen, frames = 0, [], 0
    try:
        while not done.is_set() or since < server_game(client, t.id)[2].version:
            data = service.fanout(t.id, {None}, since)
            assert_exact(data.steps, since, data.version)
            seen += [seq for seq, _ in data.steps]
            since, frames = data.version, frames + 1
    finally:
        thread.join(60)
    assert not errors, errors
    final = server_game(client, t.id)[2].version
    assert seen == list(range(1, final + 1)) and final > 10 and frames > 10, (final, frames)


def test_concurrent_copies_of_one_command_answer_duplicate(client: TestClient, other: GameService) -> None:
    """The same command id and expected version sent twice at once, from one process and from two: one copy is
    applied, the other answers ``duplicate: true`` with the same version and events -- exactly what a sequential
    resend answers -- and never ``stale_version``."""
    service = service_of(client)
    rnd = random.Random(13)
    t = new_table(client, players=2, start=True)
    play(client, t, 2, seed=1)
    for i in range(20):
        seat, command = pick(client, t.id, rnd) or (0, {})
        game = server_game(client, t.id)[2]
        seat_id, command_id = game.seats[seat]["seat_id"], str(uuid.uuid4())
        barrier = threading.Barrier(2)
        results: list[Any] = []

        def send(by: GameService, barrier: threading.Barrier = barrier, results: list[Any] = results) -> None:
            barrier.wait()
            try:
                results.append(by.submit_as(t.id, seat_id, command_id, game.version, command))  # noqa: B023
            except Exception as err:  # noqa: BLE001 - collected for the assertion
                results.append(err)

        pair = (service, service) if i % 2 else (service, other)
        threads = [threading.Thread(target=send, args=(by,)) for by in pair]
        for th in threads:
            th.start()
        for th in threads:
            th.join(30)
        assert all(isinstance(r, dict) for r in results), results
        assert sorted(r["duplicate"] for r in results) == [False, True], results
        assert {r["version"] for r in results} == {game.version + 1}
        assert results[0]["events"] == results[1]["events"]
        assert server_game(client, t.id)[2].version == game.version + 1
