"""Graceful restarts with real server processes on Postgres: SIGTERM stops a process taking sockets, lets the
commands in flight commit, and closes its sockets with 1012 (service restart); pages reconnect at once to the
other process and resume with ``since=N``; the bots of its tables go on elsewhere (the hand-off) or after the
restart. A rolling restart of both processes in the middle of a game loses no command and doubles none, and
every page catches up without a gap. Needs TEST_DATABASE_URL (Postgres)."""

from __future__ import annotations

import random
import signal
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx
from sqlalchemy import select

from app.persistence.commands import StoredCommand, read_commands
from app.persistence.db import Database
from app.persistence.models import Game
from app.services.games import GameService
from app.settings import Settings
from tests.realtime.pages import Page
from tests.realtime.processes import Server, needs_postgres
from tests.rules.playout import choose

pytestmark = needs_postgres

SERVICE_RESTART = 1012


class Table:
    """Reads the game from the database (the test's own service) to choose legal commands like a player."""

    def __init__(self, url: str, table_id: str) -> None:
        self.service = GameService(Database(url), Settings(database_url=url, log_level="WARNING"))
        self.table_id = table_id

    def state(self) -> tuple[Any, Any, Game]:
        with self.service.db.read() as s:
            game = s.scalar(select(Game).where(Game.table_id == self.table_id).order_by(Game.number.desc()))
            assert game is not None
            ruleset = self.service.catalog.get(game.ruleset)
            return ruleset, self.service.repo.state(s, ruleset, game), game

    def commands(self) -> list[StoredCommand]:
        with self.service.db.read() as s:
            return read_commands(s, self.state()[2].id)


def _table(server: str, bots: int, token_out: list[str]) -> tuple[str, str, str]:
    created = httpx.post(f"http://{server}/api/tables",
                         json={"ruleset": "mattel", "seats": 2 + bots, "name": "Host"}).json()
    table_id, host = created["table_id"], created["token"]
    guest = httpx.post(f"http://{server}/api/tables/{table_id}/join",
                       json={"name": "Guest", "code": created["join_code"]}).json()["token"]
    auth = {"Authorization": f"Bearer {host}"}
    for _ in range(bots):
        assert httpx.post(f"http://{server}/api/tables/{table_id}/bots", json={"level": "easy"},
                          headers=auth).status_code == 201
    return table_id, host, guest


def _start(server: str, table_id: str, host: str) -> None:
    r = httpx.post(f"http://{server}/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 200, r.text


def test_a_rolling_restart_loses_no_command_and_pages_catch_up(database_url: str) -> None:
    url = database_url
    env = {"PHASE10_BOT_DELAY_SECONDS": "0.5"}
    servers = {"a": Server(url, env), "b": Server(url, env)}
    stopped: list[Server] = []
    try:
        deadline = time.monotonic() + 30
        for server in servers.values():
            server.wait_ready(deadline)

        def live() -> list[str]:
            return [s.url for s in servers.values() if s.proc.poll() is None and s not in stopped]

        table_id, host_token, guest_token = _table(servers["a"].url, 1, [])
        def others_first(current: str) -> list[str]:  # as a reverse proxy would pick another process
            return sorted(live(), key=lambda url: url == current)

        host = Page("host", table_id, host_token, servers["a"].url, others_first)
        guest = Page("guest", table_id, guest_token, servers["b"].url, others_first)
        pages = {0: host, 1: guest}  # engine seats: the host and the guest, then the bot
        _start(servers["a"].url, table_id, host_token)
        table = Table(url, table_id)
        rnd = random.Random(3)
        sent: list[str] = []  # ack refs of the humans' commands

        def step(on_sent: Callable[[], None] = lambda: None, want: int | None = None) -> bool:
            """One move: a human's through their socket, or wait for the bot's. False when the game is over."""
            ruleset, state, game = table.state()
            if ruleset.is_over(state):
                return False
            seat = ruleset.awaited(state)[0]
            if seat not in pages:  # the bot's turn: some process moves for it
                limit = time.monotonic() + 20
                while table.state()[2].version == game.version:
                    assert time.monotonic() < limit, "the bot did not move"
                    for page in pages.values():
                        page.pump()
                return True
            if want is not None and seat != want:
                return step()
            command = ruleset.command_to_json(choose(ruleset.legal_commands(state, seat), rnd))
            ack = pages[seat].command(command, game.version, on_sent)
            sent.append(ack["ref"])
            return True

        def play(moves: int) -> None:
            for _ in range(moves):
                assert step(), "the game ended early"
                for page in pages.values():
                    page.pump()

        def stop_when(seat: int, name: str) -> Server:
            """The seat's next command is sent, then its process gets SIGTERM at once (a command in flight)."""
            victim = servers[name]
            while True:
                ruleset, state, _ = table.state()
                if ruleset.awaited(state)[0] == seat and pages[seat].url == victim.url:
                    break
                play(1)
            stopped.append(victim)
            assert step(on_sent=lambda: victim.proc.send_signal(signal.SIGTERM), want=seat)
            assert victim.proc.wait(20) in (0, -signal.SIGTERM)  # uvicorn re-raises SIGTERM after its shutdown
            limit = time.monotonic() + 10
            for page in pages.values():  # its pages notice the close (the ack may have come first) and move
                while page.url == victim.url:
                    assert time.monotonic() < limit, f"{page.name} still on the stopped process"
                    page.recv(0.2)
            return victim

        play(6)
        stop_when(0, "a")  # rolling restart, first A ...
        assert host.closes == [SERVICE_RESTART] and host.url == servers["b"].url
        servers["a"] = Server(url, env)
        servers["a"].wait_ready(time.monotonic() + 30)
        play(6)
        stop_when(1, "b")  # ... then B, while A (restarted) runs
        before_b = table.state()[2].version
        servers["b"] = Server(url, env)
        for _ in range(60):  # on, until the bot has moved again (a human's turn can take many random commands)
            if any(c.seat not in pages and c.seq > before_b for c in table.commands()):
                break
            play(1)
        play(2)
        ruleset, state, game = table.state()
        for page in pages.values():
            page.catch_up(game.version)
            assert page.version == game.version
        assert guest.closes[-1] == SERVICE_RESTART and host.closes.count(SERVICE_RESTART) == 2

        commands = table.commands()
        assert [c.seq for c in commands] == list(range(1, game.version + 1))
        human_ids = [c.command_id for c in commands if c.seat in pages]
        assert sorted(human_ids) == sorted(sent)  # every acked command once, no other human command
        bot_moves = [c for c in commands if c.seat not in pages]
        assert any(c.seq > before_b for c in bot_moves), "the bot went on after the restart"
        replayed = ruleset.new_game(game.seed, game.players, ruleset.parse_options(game.options))
        for c in commands:
            replayed, _ = ruleset.apply(replayed, c.seat, ruleset.parse_command(c.command))
        assert ruleset.full_view(replayed) == ruleset.full_view(state)  # C-10
        for page in pages.values():
            page.ws.close()
    finally:
        for server in list(servers.values()) + stopped:
            server.stop()


def test_a_stopping_process_hands_its_bots_to_another(database_url: str) -> None:
    """The bot's move was scheduled only in process B (it committed the move before); B stops before the bot's
    delay is over; process A, which never saw the table's commands and has not restarted, makes the move."""
    url = database_url
    a, b = Server(url, {"PHASE10_BOT_DELAY_SECONDS": "1.5"}), Server(url, {"PHASE10_BOT_DELAY_SECONDS": "1.5"})
    try:
        deadline = time.monotonic() + 30
        a.wait_ready(deadline)
        b.wait_ready(deadline)
        table_id, host_token, guest_token = _table(b.url, 1, [])
        _start(b.url, table_id, host_token)
        table = Table(url, table_id)
        tokens = {0: host_token, 1: guest_token}
        rnd = random.Random(1)
        while True:  # humans play on B until a human move hands the turn to the bot
            ruleset, state, game = table.state()
            seat = ruleset.awaited(state)[0]
            if seat not in tokens:  # the bot deals first or moves on B: wait for its move, then play on
                limit = time.monotonic() + 20
                while table.state()[2].version == game.version:
                    assert time.monotonic() < limit, "the bot did not move"
                    time.sleep(0.1)
                continue
            command = ruleset.command_to_json(choose(ruleset.legal_commands(state, seat), rnd))
            r = httpx.post(f"http://{b.url}/api/tables/{table_id}/commands",
                           json={"command_id": uuid.uuid4().hex, "expected_version": game.version,
                                 "command": command}, headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 200, r.text
            ruleset, state, game = table.state()
            if ruleset.awaited(state)[0] == 2:
                break
        waiting_at = game.version
        b.proc.send_signal(signal.SIGTERM)  # before the bot's 1.5 s delay is over
        assert b.proc.wait(20) in (0, -signal.SIGTERM)
        assert table.state()[2].version == waiting_at  # B did not move for the bot
        limit = time.monotonic() + 15
        while table.state()[2].version == waiting_at:
            assert time.monotonic() < limit, "no process moved for the bot"
            time.sleep(0.1)
        assert table.commands()[waiting_at].seat == 2  # the bot's move, made by A
    finally:
        a.stop()
        b.stop()
