"""The fault suite: two real server processes (``python -m app.serve``) on a private Postgres
(``tests.faults.postgres``), humans (this test, over REST and sockets, as the page does) and bots playing, short
turn timers with stand-ins running, through these faults one after another:

1. Postgres restarted fast (sessions ended, clean shutdown);
2. Postgres stopped immediately (a crash) while a turn timer runs, and kept down past that timer's deadline;
3. the LISTEN connections and the event loop's own connections ended (``pg_terminate_backend``);
4. the process the tables' commands went through SIGKILLed (it hands nothing over).

Each table has four seats: the human ``h`` (this test moves it at once, through the commands process), ``t``
(connected, never moves: the turn timer decides for it), ``s`` (never connects: a stand-in plays for it) and an
``easy`` bot. Asserted: no acknowledged command lost or stored twice (a command in doubt is sent again with its
command id until it is answered), every socket caught up exactly (no gap, no repeat, its events equal to the
stored ones), no plain-text 500 (a JSON 503 ``database_unavailable`` is allowed while the database is down), the
LISTEN and event-loop connections of every live process back, and at every table the bot, the stand-in and the
timer each move again, none stalled longer than ``DB_BOUND`` seconds after the database is back (``KILL_BOUND``
after the SIGKILL). The figures are printed (run with ``-s``)."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import func, select

from app.persistence.commands import StoredCommand, read_commands
from app.persistence.db import Database
from app.persistence.models import Game, GameCommand
from app.services.games import GameService
from app.settings import Settings
from tests.faults.postgres import PrivatePostgres
from tests.realtime.pages import Page
from tests.realtime.processes import Server, running
from tests.rules.playout import choose

# The longest a bot, stand-in or timer may stall: from the database being back (the connections ended) -- or, if
# later, the moment its seat's turn came -- to its move; from a process's SIGKILL the same. A timer's stall includes
# its own decision time (PHASE10_BOT_FAST_SECONDS), a bot's and a stand-in's their delay.
DB_BOUND = 10.0
KILL_BOUND = 15.0
TABLES = 2
KINDS = ("bot", "stand_in", "timer")
ENV = {
    "PHASE10_BOT_DELAY_SECONDS": "0.2",
    "PHASE10_BOT_FAST_SECONDS": "1.0",
    "PHASE10_BOT_STAND_IN_GRACE_SECONDS": "1.0",
    "PHASE10_BOT_TICK_SECONDS": "0.5",
    "PHASE10_BOT_LEASE_SECONDS": "2.0",
    "PHASE10_DB_THREADS": "8",
    "PHASE10_LOG_LEVEL": "INFO",  # lease changes and retried decisions, for a failure's report
}


class RecordingPage(Page):
    """A table page's socket that also keeps the events it received from ``start`` on, and the answers (``ack`` or
    ``error``) to the commands it sent, by command id."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.start: int | None = None
        self.events: list[Any] = []
        self.replies: dict[str, dict[str, Any]] = {}
        super().__init__(*args, **kwargs)

    def _handle(self, msg: dict[str, Any]) -> None:
        super()._handle(msg)
        if msg["type"] == "snapshot" and self.start is None:
            self.start = msg["version"]
        elif msg["type"] == "update" and self.start is not None:
            self.events.extend(msg["events"])
        elif msg["type"] in ("ack", "error") and msg.get("ref"):
            self.replies[msg["ref"]] = msg


@dataclass
class Table:
    id: str
    tokens: list[str]  # h, t (seats 0 and 1); s and the bot have none the test uses
    pages: list[RecordingPage] = field(default_factory=list)
    via_socket: bool = False  # h sends its commands over its socket (the loop's own connections), else over REST
    pending: dict[str, Any] | None = None  # h's command in doubt (no definite answer yet): sent again as it is
    sent_on: Any = None  # the socket h's pending command was last sent on
    acked: list[str] = field(default_factory=list)


@dataclass
class Figures:
    commands: int = 0
    acked: int = 0
    resent: int = 0
    answers: int = 0
    unavailable: int = 0  # JSON 503 database_unavailable, and socket errors database_unavailable
    restarts: int = 0
    kills: int = 0
    terminated: int = 0  # sessions ended by pg_terminate_backend
    # fault -> kind -> seconds: the longest stall (from the fault's end, or the seat's turn if later, to the move)
    stalls: dict[str, dict[str, float]] = field(default_factory=dict)
    # fault -> kind -> seconds from the fault's end to the first move (waiting for the seat's turn included)
    first_moves: dict[str, dict[str, float]] = field(default_factory=dict)


class Game10:
    """Reads the games from the database (the test's own service) to choose the humans' legal commands."""

    def __init__(self, url: str) -> None:
        self.service = GameService(Database(url), Settings(database_url=url, log_level="ERROR",
                                                           state_cache_size=0))

    def latest(self, table_id: str) -> tuple[Any, Any, Game]:
        with self.service.db.read() as s:
            game = s.scalar(select(Game).where(Game.table_id == table_id).order_by(Game.number.desc()))
            assert game is not None
            ruleset = self.service.catalog.get(game.ruleset)
            return ruleset, self.service.repo.state(s, ruleset, game), game

    def rows(self, table_id: str) -> list[StoredCommand]:
        with self.service.db.read() as s:
            game_id = s.scalar(select(Game.id).where(Game.table_id == table_id).order_by(Game.number.desc()))
            return read_commands(s, game_id)

    def events(self, table_id: str, seat: int, since: int, upto: int) -> list[dict[str, Any]]:
        """The events ``seat`` was to be sent for the steps ``since + 1 .. upto``, recomputed by the engine from the
        stored commands (C-10), as a resume with ``since`` gets them."""
        with self.service.db.read() as s:
            game = s.scalar(select(Game).where(Game.table_id == table_id).order_by(Game.number.desc()))
            assert game is not None
            steps = self.service.history.steps(s, self.service.repo.ruleset(game.ruleset), game, since, upto)
            return [e for _, redacted in steps for e in redacted[str(seat)]]

    def stored(self, command_id: str) -> int:
        with self.service.db.read() as s:
            return int(s.scalar(select(func.count()).select_from(GameCommand)
                                .where(GameCommand.command_id == command_id)) or 0)


@pytest.fixture()
def servers(private_pg: PrivatePostgres, tmp_path: Path) -> Iterator[list[Server]]:
    with running(private_pg.url, 2, ENV, logs=tmp_path) as procs:
        yield procs


class Suite:
    def __init__(self, pg: PrivatePostgres, servers: list[Server]) -> None:
        self.pg = pg
        self.servers = servers
        self.commands_via = servers[0]  # REST commands go through this process (until it is killed)
        self.game = Game10(pg.url)
        self.rnd = random.Random(20261127)
        self.figures = Figures()
        self.bad: list[str] = []  # answers that break the promise (a plain-text or other 5xx)
        self.tables: list[Table] = []
        self.http = httpx.Client(timeout=10)

    def live(self) -> list[str]:
        return [s.url for s in self.servers if s.proc.poll() is None]

    def others_first(self, current: str) -> list[str]:
        return sorted(self.live(), key=lambda url: url == current)

    def answer(self, r: httpx.Response) -> httpx.Response:
        self.figures.answers += 1
        if r.status_code >= 500:
            try:
                code = r.json()["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = None
            if r.status_code == 503 and code == "database_unavailable" and r.headers.get("retry-after"):
                self.figures.unavailable += 1
            else:
                self.bad.append(f"{r.request.method} {r.request.url.path}: {r.status_code} {r.text[:120]!r}")
        return r

    def setup(self) -> None:
        base = f"http://{self.commands_via.url}"
        for number in range(TABLES):
            r = self.http.post(f"{base}/api/tables", json={"ruleset": "mattel", "seats": 4, "name": "H",
                                                            "turn_timer": "fast", "stand_in": True})
            assert r.status_code == 201, r.text
            created = r.json()
            tokens = [created["token"]]
            for name in ("T", "S"):
                joined = self.http.post(f"{base}/api/tables/{created['table_id']}/join",
                                        json={"name": name, "code": created["join_code"]})
                assert joined.status_code == 200, joined.text
                tokens.append(joined.json()["token"])
            auth = {"Authorization": f"Bearer {tokens[0]}"}
            assert self.http.post(f"{base}/api/tables/{created['table_id']}/bots", json={"level": "easy"},
                                  headers=auth).status_code == 201
            table = Table(created["table_id"], tokens[:2], via_socket=number % 2 == 1)
            # h's page on the commands process, t's on the other: every command crosses processes (NOTIFY).
            table.pages = [RecordingPage(name, table.id, token, server.url, self.others_first)
                           for name, token, server in (("h", tokens[0], self.servers[0]),
                                                       ("t", tokens[1], self.servers[1]))]
            assert self.http.post(f"{base}/api/tables/{table.id}/start", headers=auth).status_code == 200
            self.tables.append(table)

    def pump(self) -> None:
        for table in self.tables:
            for page in table.pages:
                page.pump()

    def move_humans(self) -> None:
        """h's move at each table where h is awaited (a command in doubt is sent again first)."""
        for table in self.tables:
            if table.pending is None:
                try:
                    ruleset, state, game = self.game.latest(table.id)
                except Exception:  # the database is down: later
                    continue
                if ruleset.is_over(state) or 0 not in ruleset.awaited(state):
                    continue
                command = ruleset.command_to_json(choose(ruleset.legal_commands(state, 0), self.rnd))
                table.pending = {"command_id": uuid.uuid4().hex, "expected_version": game.version,
                                 "command": command}
            else:
                self.figures.resent += 1
            self.send(table)

    def send(self, table: Table) -> None:
        if table.via_socket:
            self.send_on_socket(table)
            return
        body = table.pending
        assert body is not None
        try:
            r = self.answer(self.http.post(f"http://{self.commands_via.url}/api/tables/{table.id}/commands",
                                           json=body, headers={"Authorization": f"Bearer {table.tokens[0]}"}))
        except httpx.HTTPError:
            return  # in doubt (the process died with it): sent again, same command id
        if r.status_code == 200:
            table.acked.append(body["command_id"])
            table.pending = None
        elif r.status_code == 409:  # the timer (or another move) came first: not applied
            assert r.json()["error"]["code"] == "stale_version", r.text
            table.pending = None
        elif r.status_code != 503:
            raise AssertionError(f"unexpected answer {r.status_code}: {r.text}")

    def send_on_socket(self, table: Table) -> None:
        """h's pending command over its socket: sent (again, with its command id) on a new socket, or after a
        ``database_unavailable`` error; settled by its ``ack`` or another error."""
        body = table.pending
        assert body is not None
        page = table.pages[0]
        reply = page.replies.pop(body["command_id"], None)
        if reply is not None:
            if reply["type"] == "ack":
                table.acked.append(body["command_id"])
                table.pending = table.sent_on = None
                return
            if reply["code"] == "database_unavailable":
                self.figures.unavailable += 1
                table.sent_on = None  # sent again below
            else:
                assert reply["code"] == "stale_version", reply
                table.pending = table.sent_on = None
                return
        if table.sent_on is not page.ws:
            try:
                page.ws.send(json.dumps({"type": "command", **body}))
                table.sent_on = page.ws
            except Exception:  # closed: the page reconnects on its next receive, and it is sent again then
                table.sent_on = None

    def look(self) -> None:
        """Every table's view through every live process, as reloading pages do (no plain-text 500, ever)."""
        for table in self.tables:
            for url in self.live():
                with contextlib.suppress(httpx.HTTPError):  # the process is being killed
                    self.answer(self.http.get(f"http://{url}/api/tables/{table.id}/view",
                                              headers={"Authorization": f"Bearer {table.tokens[0]}"}))

    def play(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.move_humans()
            self.pump()
            self.look()

    def outage(self, mode: str, down: float) -> datetime:
        """Restart Postgres (``mode``, down ``down`` seconds) while the humans go on playing; when it is back."""
        done = threading.Event()
        back: list[datetime] = []

        def restart() -> None:
            try:
                self.pg.restart(mode, down)
                back.append(datetime.now(UTC))
            finally:
                done.set()

        thread = threading.Thread(target=restart)
        thread.start()
        while not done.is_set():
            self.play(0.2)
        thread.join()
        assert back, "Postgres did not start again"
        self.figures.restarts += 1
        return back[0]

    def connections_back(self, bound: float) -> None:
        """Every live process has its LISTEN connection and its four event-loop connections again."""
        deadline = time.monotonic() + bound
        want = {"phase10-listen": len(self.live()), "phase10-hot": 4 * len(self.live())}
        while True:
            with psycopg.connect(self.pg.dsn, autocommit=True) as conn:
                got = dict(conn.execute("SELECT application_name, count(*) FROM pg_stat_activity "
                                        "WHERE application_name IN ('phase10-listen', 'phase10-hot') "
                                        "GROUP BY application_name").fetchall())
            if got == want:
                return
            assert time.monotonic() < deadline, f"connections not back: {got} (want {want})"
            self.play(0.2)

    def kinds_after(self, moment: datetime) -> tuple[dict[str, float], dict[str, float]]:
        """Per kind, over the tables: the longest time from ``moment`` to its first move (the turn order included;
        inf: none yet), and its stall: from ``moment`` or, if later, the moment its seat's turn came (the command
        before its move) to that move."""
        first: dict[str, float] = {}
        stall: dict[str, float] = {}
        for table in self.tables:
            rows = self.game.rows(table.id)
            for kind in KINDS:
                after = [r for r in rows if r.command_id.startswith(f"{kind}:") and _utc(r.created_at) > moment]
                if not after:
                    first[kind] = stall[kind] = float("inf")
                    continue
                move = _utc(after[0].created_at)
                came = max([moment] + [_utc(r.created_at) for r in rows if r.seq == after[0].seq - 1])
                first[kind] = max(first.get(kind, 0.0), (move - moment).total_seconds())
                stall[kind] = max(stall.get(kind, 0.0), (move - came).total_seconds())
        return first, stall

    def moves_again(self, fault: str, moment: datetime, bound: float) -> None:
        """Play on until every kind moved again at every table; record the figures; fail if a kind's stall passed
        ``bound``."""
        started = time.monotonic()
        while True:
            self.play(0.5)
            try:
                first, stall = self.kinds_after(moment)
            except Exception:  # the database is not back yet
                first = stall = {kind: float("inf") for kind in KINDS}
            if all(v != float("inf") for v in first.values()):
                break
            assert time.monotonic() - started < bound + 10, f"{fault}: no move within {bound} s: {first}"
        self.figures.stalls[fault] = {kind: round(v, 2) for kind, v in stall.items()}
        self.figures.first_moves[fault] = {kind: round(v, 2) for kind, v in first.items()}
        assert max(stall.values()) <= bound, f"{fault}: stalled {stall} (bound {bound} s)"

    def timer_running_for_t(self, table: Table) -> float | None:
        """Seconds left on t's turn timer at ``table`` if t is awaited now (else None)."""
        try:
            view = self.answer(self.http.get(f"http://{self.servers[1].url}/api/tables/{table.id}/view",
                                             headers={"Authorization": f"Bearer {table.tokens[1]}"})).json()["view"]
        except (httpx.HTTPError, ValueError, KeyError):
            return None
        timer = view.get("timer") if view else None
        if not timer or 1 not in timer["seats"]:
            return None
        remaining = (datetime.fromisoformat(timer["deadline"]) - datetime.now(UTC)).total_seconds()
        return remaining if remaining > 0.2 else None

    def check(self) -> None:
        """Everything acknowledged stored once, nothing in doubt left, every page caught up exactly."""
        for table in self.tables:
            deadline = time.monotonic() + 20
            while table.pending is not None:
                assert time.monotonic() < deadline, "a command in doubt was never answered"
                self.send(table)
                time.sleep(0.1)
            for command_id in table.acked:
                assert self.game.stored(command_id) == 1, command_id
            rows = self.game.rows(table.id)
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
            assert len({r.command_id for r in rows}) == len(rows)
            humans = {r.command_id for r in rows if r.seat == 0 and not r.command_id.startswith(KINDS)}
            assert set(table.acked) <= humans
            self.figures.commands += len(rows)
            self.figures.acked += len(table.acked)
            for seat, page in enumerate(table.pages):
                page.catch_up(rows[-1].seq)  # the game goes on meanwhile (bots, timers): compare up to the page
                assert page.start is not None
                stored = self.game.events(table.id, seat, page.start, page.version)
                assert page.events == stored, f"{page.name} at {table.id}: events differ"


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def test_restarts_drops_and_kills_lose_and_stall_nothing(
        private_pg: PrivatePostgres, servers: list[Server]) -> None:
    suite = Suite(private_pg, servers)
    suite.setup()
    try:
        suite.play(2.0)

        # 1. A fast restart.
        back = suite.outage("fast", 0.5)
        suite.moves_again("postgres restart (fast)", back, DB_BOUND)
        suite.connections_back(DB_BOUND)

        # 2. An immediate stop while t's timer runs, down past its deadline.
        table = suite.tables[0]
        wait_until = time.monotonic() + 20
        while (left := suite.timer_running_for_t(table)) is None:
            assert time.monotonic() < wait_until, "t's timer never ran"
            suite.play(0.1)
        back = suite.outage("immediate", left + 1.5)
        suite.moves_again("postgres restart (immediate, a timer's deadline inside the outage)", back, DB_BOUND)
        suite.connections_back(DB_BOUND)

        # 3. The LISTEN connections (and the event loop's own) ended.
        suite.figures.terminated += private_pg.terminate("phase10-listen") + private_pg.terminate("phase10-hot")
        suite.moves_again("LISTEN connections terminated", datetime.now(UTC), DB_BOUND)
        suite.connections_back(DB_BOUND)

        # 4. The process the tables' commands went through is killed.
        victim = servers[0]
        victim.proc.send_signal(signal.SIGKILL)
        victim.proc.wait(10)
        killed = datetime.now(UTC)
        suite.figures.kills += 1
        suite.commands_via = servers[1]
        suite.moves_again("process SIGKILLed", killed, KILL_BOUND)

        suite.check()
    except BaseException:
        for server in servers:  # what the processes said, for the failure's report
            if server.log is not None:
                server.log.flush()
                print(f"--- {server.url}:", server.log.name)
                print("\n".join(Path(server.log.name).read_text(errors="replace").splitlines()[-40:]))
        raise
    finally:
        for table in suite.tables:
            for page in table.pages:
                page.close()
        suite.http.close()
    print("\nfault suite:", json.dumps(suite.figures.__dict__, indent=1))
    assert not suite.bad, suite.bad
    assert suite.figures.acked > 0 and suite.figures.commands > suite.figures.acked
