"""Scale-out: a table notification carries the accepted command, and a process that holds the running table applies
it to its cached copy with the deterministic engine (C-10) instead of reading the game back; the fan-out that follows
needs no query and sends what a full read sends."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.persistence.db import Database
from app.realtime.backends import MAX_PAYLOAD, PgListener, parse_table_payload, table_payload
from app.rules import registry
from app.services.base import SPECTATOR, LazyRedaction, Step, redact_all
from app.services.games import GameService
from app.settings import Settings
from tests.realtime.test_hot_path import runner_of, service_of, statements, wait_for
from tests.realtime.test_table_channels import WakeLog
from tests.rules.playout import playout
from tests.server_helpers import new_table, pick, play, server_game


@pytest.fixture()
def other(settings: Settings) -> Iterator[GameService]:
    """A second service on the same database, like a second server process."""
    service = GameService(Database(settings.database_url), settings)
    yield service
    service.db.dispose()


def test_a_notification_carries_the_command_when_it_fits() -> None:
    step = Step(12, 3, {"type": "discard", "card": 57})
    assert parse_table_payload(table_payload("tbl_x-Y", 41, step)) == ("tbl_x-Y", 41, step)
    assert parse_table_payload(table_payload("tbl", 0, None)) == ("tbl", 0, None)
    huge = Step(12, 3, {"type": "meld", "cards": list(range(3000))})
    assert len(table_payload("tbl", 9, huge).encode()) <= MAX_PAYLOAD
    assert parse_table_payload(table_payload("tbl", 9, huge)) == ("tbl", 9, None)  # too big: the version only
    assert parse_table_payload("tbl:7:1:0:{not json") == ("tbl", 7, None)


def test_a_notification_carries_who_decided_for_the_seat() -> None:
    """A timer's or a stand-in's decision reaches the other processes with its attribution, so the events they
    redact for their sockets say it too; an unknown attribution is no step (the process reads the game)."""
    for by in ("timer", "stand_in"):
        step = Step(12, 3, {"type": "draw", "pile": "draw"}, by)
        assert parse_table_payload(table_payload("tbl", 41, step)) == ("tbl", 41, step)
    assert parse_table_payload('tbl:41:12:3.wizard:{"type":"draw","pile":"draw"}') == ("tbl", 41, None)


def test_a_step_from_another_process_keeps_the_hot_table_current(client: TestClient, other: GameService,
                                                                   settings: Settings) -> None:
    """Commands accepted by another process, applied here from their notification: each fan-out needs no query
    (no snapshot, no command rows read) and equals a full read by a process with no cache."""
    service = service_of(client)
    t = new_table(client, players=3, start=True)
    play(client, t, 2, seed=4)
    game = server_game(client, t.id)[2]
    seat_ids: set[int | None] = {None, *(entry["seat_id"] for entry in game.seats)}
    wait_for(lambda: t.id in runner_of(client).quiet)  # no bot, no timer: the views need no clock read
    service.fanout(t.id, seat_ids, game.version)  # primes this process's hot table
    assert t.id in service.fan_out._hot
    rnd = random.Random(8)
    for move in range(12):
        chosen = pick(client, t.id, rnd)  # reads the state at the current version: already cached here
        assert chosen is not None
        seat, command = chosen
        by = "timer" if move % 2 else None  # every other one made by the seat's timer: its events say so here too
        result = other.submit_as(t.id, game.seats[seat]["seat_id"], str(uuid.uuid4()), None, command, by)
        version = result["version"]
        service.apply_step(t.id, version, Step(game.id, seat, command, by))
        with statements(service) as seen:
            data = service.fanout(t.id, seat_ids, version - 1)
        assert seen == []  # no query at all
        reference = GameService(Database(settings.database_url), settings)
        try:
            full = reference.fanout(t.id, seat_ids, version - 1)
        finally:
            reference.db.dispose()
        assert (data.version, data.steps) == (full.version, full.steps) and data.version == version
        assert any(e.get("by") == "timer" for _, red in data.steps for events in red.values() for e in events) == \
            (by is not None)
        assert {k: {f: v for f, v in view.items() if f != "timer"} for k, view in data.views.items() if view} == \
            {k: view for k, view in full.views.items() if view}


def test_a_step_it_cannot_apply_falls_back_to_a_full_read(client: TestClient, other: GameService) -> None:
    """A process that missed a notification (its copy is two behind) drops the table from its hot cache; the next
    fan-out reads the game and carries every step once."""
    service = service_of(client)
    t = new_table(client, players=2, start=True)
    play(client, t, 2, seed=9)
    game = server_game(client, t.id)[2]
    service.fanout(t.id, {None}, game.version)
    rnd = random.Random(2)
    steps = []
    for _ in range(2):
        seat, command = pick(client, t.id, rnd) or (0, {})
        result = other.submit_as(t.id, game.seats[seat]["seat_id"], str(uuid.uuid4()), None, command)
        steps.append((result["version"], Step(game.id, seat, command)))
    service.apply_step(t.id, *steps[1])  # the first one was missed
    assert t.id not in service.fan_out._hot
    data = service.fanout(t.id, {None}, game.version)
    assert [seq for seq, _ in data.steps] == [game.version + 1, game.version + 2] == [v for v, _ in steps]


def test_a_notified_command_still_being_written_is_left_to_it(client: TestClient) -> None:
    """This process's own NOTIFY may come back before the writer has updated the cache: it is neither applied a
    second time nor a wake of its own (the writer wakes the hub after its commit); once written, it is ordinary."""
    service = service_of(client)
    t = new_table(client, players=2, start=True)
    step = Step(1, 0, {"type": "draw", "pile": "draw"})
    hub = WakeLog()
    listener = PgListener("postgresql://localhost/unused", hub, on_table=service.notified)  # type: ignore[arg-type]
    with service.committing(t.id, 1):
        assert service.notified(t.id, 1, step) is True
        listener.table(table_payload(t.id, 1, step))
    assert hub.woken == []
    assert service.notified(t.id, 1, step) is False
    listener.table(table_payload(t.id, 1, step))
    assert hub.woken == [(t.id, 1)]


def test_a_lazy_redaction_is_the_full_redaction() -> None:
    """A step applied from another process's notification is redacted seat by seat as sockets need it; read key
    by key or as a whole it is exactly ``redact_all`` (C-9), and a key outside the table is missing."""
    ruleset = registry.get("mattel")
    options = ruleset.parse_options({})
    for number, step in enumerate(playout(ruleset, 5, 3, options)):
        if number > 40:
            break
        full = redact_all(ruleset, 3, step.events)
        lazy = LazyRedaction(ruleset, 3, step.events)
        assert lazy["1"] == full["1"] and lazy[SPECTATOR] == full[SPECTATOR]
        assert "2" in lazy and "3" not in lazy and lazy.get("3") is None and len(lazy) == 4
        with pytest.raises(KeyError):
            lazy["3"]  # noqa: B018
        assert lazy == full and dict(lazy.items()) == full and sorted(lazy) == sorted(full)
