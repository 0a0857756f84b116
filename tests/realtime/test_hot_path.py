"""The per-command hot path stays cheap (Benchmark): a command at an ordinary table (no bot seat, timer
off, no stand-ins) makes the bot runner plan nothing and read nothing, a fan-out of a running table needs no query,
and a clock switched on later -- here or, as another process would, behind this process's back -- is still seen."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, select, update

from app.autoplay.runner import BotRunner
from app.autoplay.timers import store_clock
from app.persistence import reads
from app.persistence.db import psycopg_dsn
from app.persistence.hot import APPLICATION_NAME
from app.persistence.models import Game, GameTable, Seat
from app.rules.core.errors import RuleError
from app.services.errors import ServiceError
from app.services.games import GameService
from tests.persistence.test_hot_connections import terminate
from tests.server_helpers import bearer, command_body, new_table, pick


def service_of(client: TestClient) -> GameService:
    return client.app.state.service  # type: ignore[attr-defined, no-any-return]


def runner_of(client: TestClient) -> BotRunner:
    return client.app.state.bots  # type: ignore[attr-defined, no-any-return]


class RecordingCursor:
    def __init__(self, cursor: Any, seen: list[str]) -> None:
        self.cursor, self.seen = cursor, seen

    def execute(self, query: str, params: Any = None) -> Any:
        self.seen.append(query)
        return self.cursor.execute(query, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cursor, name)


@contextmanager
def statements(service: GameService) -> Iterator[list[str]]:
    """The SQL this thread runs while the block runs (queries only): through SQLAlchemy, and on Postgres the
    hot path's statements on the raw psycopg cursor (in the session's transaction, or in autocommit)."""
    seen: list[str] = []
    me = threading.get_ident()

    def listen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if threading.get_ident() == me and not statement.startswith("BEGIN"):  # SQLite's own BEGIN
            seen.append(statement)

    original = reads.pg_cursor
    users = (reads,)  # the module that runs the command path's reads on the raw cursor

    def recording(s: Any) -> Any:
        cursor = original(s)
        return RecordingCursor(cursor, seen) if threading.get_ident() == me else cursor

    db = service.db
    autocommit = db.autocommit_cursor

    @contextmanager
    def recording_autocommit() -> Iterator[Any]:
        with autocommit() as cursor:
            yield RecordingCursor(cursor, seen) if threading.get_ident() == me else cursor

    engines = {db.read_engine, db.write_engine}
    for engine in engines:
        event.listen(engine, "before_cursor_execute", listen)
    for module in users:
        module.pg_cursor = recording  # type: ignore[attr-defined]
    db.autocommit_cursor = recording_autocommit  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        del db.autocommit_cursor  # the class's method again
        for module in users:
            module.pg_cursor = original  # type: ignore[attr-defined]
        for engine in engines:
            event.remove(engine, "before_cursor_execute", listen)


def wait_for(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def seat_ids(service: GameService, table_id: str) -> set[int | None]:
    with service.db.read() as s:
        return set(s.scalars(select(Seat.id).where(Seat.table_id == table_id)))


def play_one(client: TestClient, table_id: str, tokens: list[str], rnd: random.Random) -> int:
    picked = pick(client, table_id, rnd)
    assert picked is not None
    seat, command = picked
    r = client.post(f"/api/tables/{table_id}/commands", json=command_body(command), headers=bearer(tokens[seat]))
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def test_an_ordinary_table_goes_quiet_and_plans_nothing(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    runner = runner_of(client)
    wait_for(lambda: t.id in runner.quiet)  # the start's plan found no bot, no timer, no stand-in
    assert runner.queue is not None
    rnd = random.Random(5)
    for _ in range(3):
        version = play_one(client, t.id, t.tokens, rnd)
        runner.after_commit(t.id, version)  # what the service calls after every command: O(1), no poke
        assert runner.queue.empty() and t.id not in runner.scheduled
    runner.after_commit(t.id, 0)  # any lobby change plans the table again
    assert t.id not in runner.quiet
    wait_for(lambda: t.id in runner.quiet)


def test_a_running_tables_fan_out_runs_on_the_loop_with_no_query(client: TestClient) -> None:
    """After one full read, the fan-out of a command this process accepted comes from the hot cache: no query
    (in a worker thread, or on the event loop with no session at all), the same data as a full read."""
    t = new_table(client, players=2, spectators=True, start=True)
    service = service_of(client)
    wait_for(lambda: t.id in runner_of(client).quiet)
    seats = seat_ids(service, t.id) | {None}
    assert service.fanout_cached(t.id, seats, 0) is None  # not cached yet: the hub reads in a worker thread
    first = service.fanout(t.id, seats, 0)  # a full read primes the fast path
    version = play_one(client, t.id, t.tokens, random.Random(2))
    with statements(service) as seen:
        data = service.fanout(t.id, seats, first.version)
        on_loop = service.fanout_cached(t.id, seats, first.version)
    assert seen == []
    assert on_loop is not None and on_loop.views == data.views and on_loop.steps == data.steps
    assert data.version == version == first.version + 1
    assert [seq for seq, _ in data.steps] == [version]
    assert set(data.views) == {0, 1, None}
    for seat, view in data.views.items():
        assert view is not None and view["seat"] == seat and view["timer"] is None
        assert view["hand"] is None if seat is None else isinstance(view["hand"], list)
    service.forget(t.id)  # what a lobby change does: the next fan-out reads the table
    assert service.fanout_cached(t.id, seats, first.version) is None
    with statements(service) as seen:
        again = service.fanout(t.id, seats, first.version)
    assert seen and again.views == data.views


def test_a_cached_table_behind_what_was_heard_is_read_again(client: TestClient) -> None:
    """A notification of a version the cache cannot follow (a command too large to carry, or one that is not
    the next) makes the next fan-out read the game: the cache never answers for an older version."""
    t = new_table(client, players=2, start=True)
    service = service_of(client)
    seats = seat_ids(service, t.id)
    # Cached once the runner has found the table quiet and the start's own notification (a lobby change) is in.
    wait_for(lambda: service.fanout(t.id, seats, 0) and service.fanout_cached(t.id, seats, 0) is not None)
    service.notified(t.id, 1, None)  # version 1 was accepted elsewhere; its command did not fit the payload
    assert service.fanout_cached(t.id, seats, 0) is None


def test_a_clock_switched_on_at_a_quiet_table_shows_and_runs(client: TestClient) -> None:
    t = new_table(client, players=2, start=True)
    runner = runner_of(client)
    wait_for(lambda: t.id in runner.quiet)
    try:
        r = client.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "relaxed"}, headers=bearer(t.tokens[0]))
        assert r.status_code == 200
        view = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[0])).json()["view"]
        assert view["timer"] is not None and view["timer"]["mode"] == "relaxed"
        wait_for(lambda: t.id in runner.scheduled)  # the runner planned the timer decision
        assert t.id not in runner.quiet
    finally:
        client.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "off"}, headers=bearer(t.tokens[0]))


def test_a_clock_set_by_another_process_is_seen_at_next_read(client: TestClient) -> None:
    """Another process changes the clock and bumps the revision; this process hears only the notification (a
    lobby change: version 0), so its next fan-out reads the table in full, and the runner stops treating the
    table as quiet."""
    t = new_table(client, players=2, start=True)
    service, runner = service_of(client), runner_of(client)
    wait_for(lambda: t.id in runner.quiet)
    seats = seat_ids(service, t.id)
    service.fanout(t.id, seats, 0)
    with service.db.write() as s:  # what the other process commits (no after_commit here)
        store_clock(s, t.id, turn_timer="relaxed")
        s.execute(update(GameTable).where(GameTable.id == t.id).values(revision=GameTable.revision + 1))
    service.notified(t.id, 0, None)  # what the LISTEN connection hears of it
    try:
        data = service.fanout(t.id, seats, 0)
        assert data.table["turn_timer"] == "relaxed"
        assert all(v is not None and v["timer"] is not None for v in data.views.values())
        assert t.id not in runner.quiet
        wait_for(lambda: t.id in runner.scheduled)
    finally:
        client.put(f"/api/tables/{t.id}/clock", json={"turn_timer": "off"}, headers=bearer(t.tokens[0]))


def test_a_resend_is_a_duplicate_and_a_reused_id_is_refused(client: TestClient) -> None:
    """The earlier row of a command id comes with the game row (one query); idempotency is unchanged."""
    t = new_table(client, players=2, start=True)
    service = service_of(client)
    picked = pick(client, t.id, random.Random(3))
    assert picked is not None
    seat, command = picked
    with service.db.read() as s:
        game_seats = s.scalar(select(Game.seats).where(Game.table_id == t.id))
    assert game_seats is not None
    seat_id = game_seats[seat]["seat_id"]
    other_id = game_seats[1 - seat]["seat_id"]
    first = service.submit_as(t.id, seat_id, "same-id", 0, command)
    again = service.submit_as(t.id, seat_id, "same-id", 0, command)
    assert (first["duplicate"], again["duplicate"]) == (False, True)
    assert again["version"] == first["version"] == 1 and again["events"] == first["events"]
    r = client.post(f"/api/tables/{t.id}/commands", json={"command_id": "same-id", "command": command},
                    headers=bearer(t.tokens[1 - seat]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "command_id_reused"
    assert other_id != seat_id


def test_a_socket_command_at_a_running_table_is_one_statement(client: TestClient) -> None:
    """Postgres: a socket's command at a table whose fan-out this process keeps current is checked on the cached
    state and written by one statement in autocommit (the version bump, the command row and the NOTIFY: one round
    trip, no read). A resend, a reused id, a stale version and a refused command fall back to the ordinary path:
    same answers, same error codes, nothing changed."""
    service = service_of(client)
    if not service.db.is_psycopg:
        pytest.skip("the one-statement command is Postgres only")
    t = new_table(client, players=2, start=True)
    with service.db.read() as s:
        game_seats = s.scalar(select(Game.seats).where(Game.table_id == t.id))
    assert game_seats is not None
    service.fanout(t.id, seat_ids(service, t.id), 0)  # the sockets' first fan-out primes the hot cache
    picked = pick(client, t.id, random.Random(3))
    assert picked is not None
    seat, command = picked
    seat_id, other_id = game_seats[seat]["seat_id"], game_seats[1 - seat]["seat_id"]
    with statements(service) as seen:
        first = service.submit_as(t.id, seat_id, "one-trip", 0, command)
    assert (first["version"], first["duplicate"]) == (1, False)
    assert len(seen) == 1 and seen[0].startswith("WITH bump") and "pg_notify" in seen[0], seen
    r = client.get(f"/api/tables/{t.id}/events", params={"since": 0}, headers=bearer(t.tokens[seat]))
    assert r.status_code == 200 and r.json()["version"] == 1 and r.json()["events"] == first["events"]
    for expected in (0, None):  # a resend (of a stale version, or of none) is answered by the ordinary read
        with statements(service) as seen:
            again = service.submit_as(t.id, seat_id, "one-trip", expected, command)
        assert (again["version"], again["duplicate"], again["events"]) == (1, True, first["events"])
        assert any(sql.startswith("SELECT game.id") for sql in seen), seen
    with pytest.raises(ServiceError) as reused:
        service.submit_as(t.id, other_id, "one-trip", None, command)
    assert reused.value.code == "command_id_reused"
    with pytest.raises(RuleError) as stale:
        service.submit_as(t.id, seat_id, "stale", 0, command)
    assert stale.value.code == "stale_version"
    with pytest.raises(RuleError) as refused:
        service.submit_as(t.id, seat_id, "refused", 1, {"type": "discard", "card": 10_000})
    assert refused.value.code in {"invalid_command", "not_your_turn", "wrong_stage", "card_not_in_hand"}
    with service.db.read() as s:
        assert s.scalar(select(Game.version).where(Game.table_id == t.id)) == 1


def test_a_table_planned_elsewhere_turns_quiet_at_first_read(
        client: TestClient) -> None:
    """A table whose start and commands all went through another process was never planned here: its first full
    fan-out read has the runner plan it, so it turns quiet and its fan-outs stop reading the clock."""
    t = new_table(client, players=2, start=True)
    runner, service = runner_of(client), service_of(client)
    wait_for(lambda: t.id in runner.quiet)
    runner.quiet.discard(t.id)  # as in a process that has not planned it
    seats = seat_ids(service, t.id)
    service.fanout(t.id, seats, 0)
    wait_for(lambda: t.id in runner.quiet)


def _answer(ws: Any, ref: str) -> dict[str, Any]:
    """The socket's answer to the command ``ref`` (its ack or its error), past the updates before it."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in ("ack", "error") and message.get("ref") == ref:
            return message


def test_a_socket_command_is_written_on_the_loop_with_no_thread(client: TestClient) -> None:
    """Postgres: the usual socket command is checked on the loop and written by one statement on the loop's own
    connection: the worker-thread path (``submit_as``) is not called. A command the copy cannot decide alone (a stale
    version) goes to that path and gets its usual answer."""
    service = service_of(client)
    if not service.db.is_psycopg:
        pytest.skip("the loop's connections are Postgres only")
    t = new_table(client, players=2, start=True)
    picked = pick(client, t.id, random.Random(3))
    assert picked is not None
    seat, command = picked
    threaded: list[tuple[Any, ...]] = []
    player = service.player
    submit_as = player.submit_as

    def recording(*args: Any) -> dict[str, Any]:
        threaded.append(args)
        return submit_as(*args)

    player.submit_as = recording  # type: ignore[method-assign]
    try:
        with client.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[seat]}") as ws:
            assert ws.receive_json()["type"] == "snapshot"  # the socket's first fan-out keeps the table current
            ws.send_json({"type": "command", "command_id": "on-loop", "expected_version": 0, "command": command})
            ack = _answer(ws, "on-loop")
            assert (ack["type"], ack["version"], ack["duplicate"]) == ("ack", 1, False)
            assert threaded == []
            ws.send_json({"type": "command", "command_id": "stale", "expected_version": 0, "command": command})
            refused = _answer(ws, "stale")
            assert (refused["type"], refused["code"]) == ("error", "stale_version")
            assert [args[2] for args in threaded] == ["stale"]
    finally:
        del player.submit_as  # the class's method again
    with service.db.read() as s:
        assert s.scalar(select(Game.version).where(Game.table_id == t.id)) == 1


def test_a_rest_command_takes_the_socket_path_and_same_view(
        client: TestClient) -> None:
    """Postgres: a REST command at a table this process keeps current is checked on the loop (its seat token by one
    statement on the loop's connection) and written by the socket's one statement: no worker thread. Its answer's
    view is the seat's view as ``GET /view`` gives it; a stale one and a bad token get their usual answers."""
    service = service_of(client)
    if not service.db.is_psycopg:
        pytest.skip("the loop's connections are Postgres only")
    t = new_table(client, players=2, start=True)
    picked = pick(client, t.id, random.Random(3))
    assert picked is not None
    seat, command = picked
    threaded: list[str] = []
    player = service.player
    for name in ("_submit", "check_seat"):
        original = getattr(player, name)

        def recording(*args: Any, _name: str = name, _original: Any = original) -> Any:
            threaded.append(_name)
            return _original(*args)

        setattr(player, name, recording)
    try:
        with client.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[seat]}") as ws:
            assert ws.receive_json()["type"] == "snapshot"  # the socket's first fan-out keeps the table current
            r = client.post(f"/api/tables/{t.id}/commands", headers=bearer(t.tokens[seat]),
                            json={"command_id": "rest-on-loop", "expected_version": 0, "command": command})
            assert r.status_code == 200, r.text
            answer = r.json()
            assert (answer["version"], answer["duplicate"]) == (1, False)
            assert threaded == []
            view = client.get(f"/api/tables/{t.id}/view", headers=bearer(t.tokens[seat])).json()
            assert view["version"] == 1 and answer["view"] == view["view"]
            r = client.post(f"/api/tables/{t.id}/commands", headers=bearer(t.tokens[seat]),
                            json={"command_id": "stale", "expected_version": 0, "command": command})
            assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
            assert threaded == ["_submit"]
            r = client.post(f"/api/tables/{t.id}/commands", headers=bearer("not-a-token"),
                            json={"command_id": "bad", "expected_version": 1, "command": command})
            assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    finally:
        del player._submit, player.check_seat  # the class's methods again
    with service.db.read() as s:
        assert s.scalar(select(Game.version).where(Game.table_id == t.id)) == 1


def test_a_command_due_a_snapshot_stores_it_in_its_one_statement(client: TestClient) -> None:
    """Postgres: when a command is due a snapshot (every ``snapshot_every`` commands), the one statement stores the
    new state with the version bump; a process with no cached state (a restart) loads that snapshot and reaches
    the same state (C-10)."""
    service = service_of(client)
    if not service.db.is_psycopg:
        pytest.skip("the one-statement command is Postgres only")
    t = new_table(client, players=2, start=True)
    with service.db.read() as s:
        game_id, game_seats = s.execute(select(Game.id, Game.seats).where(Game.table_id == t.id)).one()
    service.fanout(t.id, seat_ids(service, t.id), 0)
    picked = pick(client, t.id, random.Random(4))
    assert picked is not None
    seat, command = picked
    settings = service.player.settings
    service.player.settings = settings.model_copy(update={"snapshot_every": 1})
    try:
        with statements(service) as seen:
            result = service.submit_as(t.id, game_seats[seat]["seat_id"], "with-snapshot", 0, command)
    finally:
        service.player.settings = settings
    assert (result["version"], result["duplicate"]) == (1, False)
    assert len(seen) == 1 and "snapshot = " in seen[0] and "pg_notify" in seen[0], seen
    ruleset = service.repo.ruleset("mattel")
    cached = service.states.get(game_id, 1)
    assert cached is not None
    with service.db.read() as s:
        stored, at = s.execute(select(Game.snapshot, Game.snapshot_version).where(Game.id == game_id)).one()
    assert at == 1 and stored == ruleset.state_to_json(cached)
    cold = GameService(service.db, settings)
    with cold.db.read() as s:
        game = s.execute(select(Game).where(Game.id == game_id)).scalar_one()
        assert ruleset.state_to_json(cold.repo.state(s, ruleset, game)) == stored


def test_a_command_on_a_lost_connection_goes_the_ordinary_way(
        client: TestClient) -> None:
    """Postgres: the loop's connections are cut (a database restart, an administrator): the socket's command is
    still accepted, once -- by the ordinary path if it meets a cut connection, by a replaced one if the cut was
    noticed first --; the loop's connections come back for the commands after it."""
    service = service_of(client)
    if not service.db.is_psycopg:
        pytest.skip("the loop's connections are Postgres only")
    dsn = psycopg_dsn(service.db.url)
    t = new_table(client, players=2, start=True)
    threaded: list[str] = []
    player = service.player
    submit_as = player.submit_as

    def recording(*args: Any) -> dict[str, Any]:
        threaded.append(args[2])
        return submit_as(*args)

    player.submit_as = recording  # type: ignore[method-assign]
    hot = service.db.hot_pool
    assert hot is not None
    try:
        for version in range(3):
            picked = pick(client, t.id, random.Random(version))
            assert picked is not None
            seat, command = picked
            if version == 1:
                terminate(dsn)
            with client.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[seat]}") as ws:
                assert ws.receive_json()["type"] == "snapshot"
                ws.send_json({"type": "command", "command_id": f"c{version}", "expected_version": version,
                              "command": command})
                ack = _answer(ws, f"c{version}")
            assert (ack["type"], ack["version"], ack["duplicate"]) == ("ack", version + 1, False), ack
            if version == 1:
                wait_for(lambda: hot.free == service.settings.hot_pool_size)  # replaced, and checked
    finally:
        del player.submit_as
    assert threaded in ([], ["c1"])  # only the command sent as the connections were cut may take the ordinary path
    with service.db.read() as s:
        assert s.scalar(select(Game.version).where(Game.table_id == t.id)) == 3


def _loop_backends(dsn: str, end: bool = False) -> set[int]:
    """The server process ids of this database's loop connections (``end``: ended, as a restart does)."""
    query = ("SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity" if end else
             "SELECT pid, true FROM pg_stat_activity") + " WHERE application_name = %s AND datname = current_database()"
    with psycopg.connect(dsn, autocommit=True) as conn:
        return {row[0] for row in conn.execute(query, (APPLICATION_NAME,)).fetchall()}


def test_loop_connections_the_server_ends_are_replaced_at_once(client: TestClient) -> None:
    """Postgres: ``pg_terminate_backend`` (as a database restart does) on the free loop connections: they are
    replaced at once, with no command needed to find them lost."""
    service = service_of(client)
    if not service.db.is_psycopg:
        pytest.skip("the loop's connections are Postgres only")
    dsn = psycopg_dsn(service.db.url)
    hot = service.db.hot_pool
    assert hot is not None
    size = service.settings.hot_pool_size
    wait_for(lambda: hot.free == size)
    before = _loop_backends(dsn, end=True)
    assert len(before) >= size
    wait_for(lambda: len(after := _loop_backends(dsn)) >= size and not after & before)
    wait_for(lambda: hot.free == size)
