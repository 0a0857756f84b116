"""Load benchmark: N tables with 4 websocket clients each play real games through a real server.

    python bench/load.py [--tables 200] [--rate 200] [--duration 20] [--idle 2000] [--workers 1] [--ws-deflate on]
                        [--view-patches on] [--transport socket|rest]

Starts the server as deployed (``python -m app.serve``: uvicorn with the project's settings) on loopback against a
scratch Postgres database (created and dropped here; or pass ``--database-url``), seats 4 players per table, and
plays ``mattel`` games at a steady total command rate. Each table has at most one command in flight; a command's
latency runs from its send to the moment the last of the table's 4 sockets has received the new version.
``--transport socket`` sends the commands as ``command`` frames on the seats' sockets, ``--transport rest`` POSTs
them to ``/api/tables/{id}/commands`` with the seat's bearer token (the page's fallback while its socket is not
open) over kept-alive HTTP/1.1 connections (a light client on h11: the bench's own CPU stays small beside the
server's; the lobby's set-up requests use httpx). The clients know the server's deal because the server runs with
``PHASE10_FIXED_SEED`` (test-only setting), so each table keeps a local copy of its state and picks a legal command
with the engine. Like a browser, the clients send no protocol-level pings (only the application heartbeat's
messages, docs/protocol.md). Prints commands per second, p50/p99 latency, the server's stalls (garbage collections,
event loop lag) and its resident memory; then opens ``--idle`` idle sockets and prints memory again.

    python bench/load.py --find-ceiling [--duration 10]

ramps the rate (50 ... 1,600 commands/s, ``--duration`` seconds a step) against 1 and then 2 server processes and
prints, for each, the highest rate served with p99 < 100 ms and zero errors.

    python bench/load.py --bystander

also starts one more server process on the same database that holds no socket, and prints its CPU per command
beyond its CPU at rest: what the other processes' tables cost a process that does not serve them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import h11  # noqa: E402
import httpx  # noqa: E402
import orjson  # noqa: E402
import psycopg  # noqa: E402
import websockets  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from app.rules import registry  # noqa: E402
from bench import server_metrics  # noqa: E402
from tests.rules.playout import choose  # noqa: E402

SEED = 20261125
REST_SECONDS = 10.0
PLAYERS = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_children(servers: list[int]) -> list[int]:
    """The server processes and their children (uvicorn workers)."""
    pids = list(servers)
    for pid in servers:
        children = Path(f"/proc/{pid}/task/{pid}/children")
        if children.exists():
            pids += [int(x) for x in children.read_text().split()]
    return pids


def rss_mb(servers: list[int]) -> float:
    """Resident memory of the server processes and their children, in MB."""
    total = 0
    for p in with_children(servers):
        for line in Path(f"/proc/{p}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def proc_cpu(pid: int) -> float:
    """User + system CPU seconds of one process (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# The Postgres server's own background processes: they work for every database on the server (on a shared
# machine, for other databases too).
PG_BACKGROUND = ("walwriter", "checkpointer", "background writer", "autovacuum launcher",
                 "logical replication launcher")


class PostgresCPU:
    """The CPU Postgres spends for the bench, read from ``/proc`` (Postgres on this machine): its backends and
    autovacuum workers of the bench's database (``pg_stat_activity.datname``), and apart from them the server's
    background processes (WAL writer, checkpointer, background writer: shared with any other database)."""

    def __init__(self, dsn: str, database: str) -> None:
        self.dsn, self.database = dsn, database

    def sample(self) -> tuple[dict[int, float], dict[int, float]]:
        """CPU seconds per process: (this database's processes, the background ones)."""
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            rows = conn.execute("SELECT pid, datname, backend_type FROM pg_stat_activity "
                                "WHERE pid <> pg_backend_pid()").fetchall()
        ours = {pid: proc_cpu(pid) for pid, datname, _ in rows if datname == self.database}
        background = {pid: proc_cpu(pid) for pid, _, kind in rows if kind in PG_BACKGROUND}
        return ours, background

    def activity(self) -> dict[str, float]:
        """This database's counters (``pg_stat_database``: transactions, rows written and read) and the server's WAL
        bytes (``pg_stat_wal``: every database's). Backends report theirs about once a second while busy, so a
        difference over a play of many seconds is close."""
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            row = conn.execute(
                "SELECT xact_commit + xact_rollback, tup_inserted, tup_updated, tup_deleted, tup_fetched, "
                "tup_returned, (SELECT wal_bytes FROM pg_stat_wal) FROM pg_stat_database WHERE datname = %s",
                (self.database,)).fetchone()
        names = ("transactions", "inserted", "updated", "deleted", "fetched", "returned", "wal")
        return dict(zip(names, map(float, row or (0,) * len(names)), strict=True))

    @staticmethod
    def spent(start: dict[int, float], end: dict[int, float]) -> float:
        """CPU seconds spent between two samples by the processes of the second (a process that began in between
        counts from 0; one that ended in between is not counted)."""
        return sum(cpu - start.get(pid, 0.0) for pid, cpu in end.items())


POSTGRES: PostgresCPU | None = None  # set by ``run`` when Postgres runs on this machine
LATENCIES_FILE = ""  # ``--latencies``


def storage_report(dsn: str) -> None:
    """Bytes per stored command: the command table with its indexes and TOAST, over its rows."""
    with psycopg.connect(dsn) as conn:
        total, heap, rows = conn.execute(
            "SELECT pg_total_relation_size('game_command'), pg_relation_size('game_command'), "
            "(SELECT count(*) FROM game_command)").fetchone() or (0, 0, 0)
    if rows:
        print(f"storage: {rows} commands, {total / rows:.0f} bytes per command with indexes and TOAST "
              f"(heap {heap / rows:.0f})")


def cpu_split(servers: list[int]) -> tuple[float, float]:
    """(user, system) CPU time of the server processes and their children."""
    user = system = 0.0
    for p in with_children(servers):
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        user += int(fields[11]) / os.sysconf("SC_CLK_TCK")
        system += int(fields[12]) / os.sysconf("SC_CLK_TCK")
    return user, system


@dataclass
class Pending:
    version: int
    sent: float
    waiting: set[int]
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class TableRun:
    table_id: str
    tokens: list[str]
    ruleset: Any
    state: Any
    base: str = ""  # host:port of the server process its sockets connect to
    query: str = ""  # added to each socket's URL (``&patch=1``: view patches, as the browser client asks)
    sockets: list[Any] = field(default_factory=list)
    version: int = 0
    pending: Pending | None = None
    latencies: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)  # when each command of ``latencies`` was sent (wall clock)
    errors: int = 0
    http: Any = None  # ``--transport rest``: the ``KeepAliveClient`` its seats POST their commands with


async def setup_table(http: httpx.AsyncClient, options: dict[str, Any]) -> TableRun:
    r = await http.post("/api/tables", json={"ruleset": "mattel", "seats": PLAYERS, "name": "P0",
                                             "options": options})
    r.raise_for_status()
    created = r.json()
    tokens = [created["token"]]
    for i in range(1, PLAYERS):
        r = await http.post(f"/api/tables/{created['table_id']}/join",
                            json={"name": f"P{i}", "code": created["join_code"]})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    http.cookies.clear()
    return TableRun(created["table_id"], tokens, None, None)


# The head of an update as the server encodes it (compact JSON, keys in this order); anything else is parsed.
UPDATE_HEAD = re.compile(r'\{"type":"update","game_id":\d+,"since":\d+,"version":(\d+),')


def version_of(raw: str | bytes) -> tuple[str, int | None]:
    """(message type, version of an update): the update's head only, so the client does not decode every view
    (4 per command) and stays cheaper than the server it measures; other messages are decoded in full."""
    if isinstance(raw, str):
        head = UPDATE_HEAD.match(raw)
        if head is not None:
            return "update", int(head.group(1))
    msg = json.loads(raw)
    return msg["type"], msg.get("version")


async def reader(run: TableRun, seat: int, ws: Any) -> None:
    async for raw in ws:
        kind, version = version_of(raw)
        if kind == "update":
            pending = run.pending
            if pending is not None and version is not None and version >= pending.version:
                pending.waiting.discard(seat)
                if not pending.waiting:
                    run.latencies.append(time.perf_counter() - pending.sent)
                    run.sent.append(pending.sent + WALL_OFFSET)
                    pending.done.set()
        elif kind == "ping":  # the server's heartbeat (docs/protocol.md, Heartbeat)
            await ws.send(PONG)
        elif kind == "error":
            run.errors += 1
            if run.pending is not None:
                run.pending.done.set()


PONG = json.dumps({"type": "pong"})
WALL_OFFSET = time.time() - time.perf_counter()  # perf_counter -> wall clock (``--latencies``)


async def answer_pings(ws: Any) -> None:
    """An idle socket: answers the server's heartbeat, so the server keeps it open."""
    async for raw in ws:
        if version_of(raw)[0] == "ping":
            await ws.send(PONG)


async def connect_all(run: TableRun) -> list[asyncio.Task[None]]:
    tasks = []
    for seat, token in enumerate(run.tokens):
        ws = await websockets.connect(f"ws://{run.base}/ws/tables/{run.table_id}?token={token}{run.query}",
                                      max_size=2**22, ping_interval=None)
        json.loads(await asyncio.wait_for(ws.recv(), 30))  # the snapshot
        run.sockets.append(ws)
        tasks.append(asyncio.create_task(reader(run, seat, ws)))
    return tasks


class TransportError(Exception):
    """The connection failed or closed before the whole answer came (the request may have been applied)."""


@dataclass
class Answer:
    status_code: int
    body: bytes

    def json(self) -> Any:
        return orjson.loads(self.body)


class _Connection:
    """One kept-alive HTTP/1.1 connection, its protocol state kept by h11."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.h11 = h11.Connection(h11.CLIENT)
        self.idle_since = 0.0

    async def exchange(self, request: bytes) -> Answer:
        self.writer.write(request)
        status = 0
        chunks: list[bytes] = []
        while True:
            event = self.h11.next_event()
            if event is h11.NEED_DATA:
                self.h11.receive_data(await self.reader.read(65536))
            elif isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                return Answer(status, b"".join(chunks))
            elif isinstance(event, h11.ConnectionClosed):
                raise TransportError("closed before the answer ended")

    def reusable(self) -> bool:
        if self.h11.our_state is h11.DONE and self.h11.their_state is h11.DONE:
            self.h11.start_next_cycle()
            return True
        return False

    def close(self) -> None:
        self.writer.close()


IDLE_REUSE = 4.0
"""Seconds a kept-alive connection is reused after its last answer: the server closes one idle for
``http_keep_alive_seconds`` (5 s by default)."""


class KeepAliveClient:
    """A light HTTP/1.1 client for the commands of ``--transport rest``: kept-alive connections to one server
    process (a browser keeps one open to its server; at most one per table is in flight), h11 for the protocol
    and nothing else, so that the client's CPU per command stays far below the server's it measures (httpx costs
    several milliseconds per request)."""

    def __init__(self, base: str) -> None:
        self.host, port = base.rsplit(":", 1)
        self.port = int(port)
        self.idle: list[_Connection] = []

    async def post(self, path: str, body: bytes, headers: list[tuple[str, str]]) -> Answer:
        """POST ``body`` (JSON) to ``path``; ``TransportError`` if the connection fails on the way."""
        connection = None
        while self.idle and connection is None:
            connection = self.idle.pop()
            if time.monotonic() - connection.idle_since > IDLE_REUSE:
                connection.close()  # the server may be closing it just now
                connection = None
        if connection is None:
            try:
                connection = _Connection(*await asyncio.open_connection(self.host, self.port))
            except OSError as err:
                raise TransportError(str(err)) from None
        request = connection.h11.send(h11.Request(method="POST", target=path, headers=[
            ("Host", f"{self.host}:{self.port}"), ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))), *headers])) or b""
        request += (connection.h11.send(h11.Data(data=body)) or b"") + (connection.h11.send(h11.EndOfMessage())
                                                                        or b"")
        try:
            answer = await connection.exchange(request)
        except (OSError, h11.ProtocolError, TransportError) as err:
            connection.close()
            raise TransportError(str(err)) from None
        if connection.reusable():
            connection.idle_since = time.monotonic()
            self.idle.append(connection)
        else:
            connection.close()
        return answer

    async def aclose(self) -> None:
        for connection in self.idle:
            connection.close()
        self.idle = []


async def post_command(run: TableRun, seat: int, body: dict[str, Any]) -> Answer | None:
    """The command's POST; sent again with the same body (its command id: applied once) when the connection
    failed, as the page does when it got no answer (a kept-alive connection the server closed as idle just as
    it was reused). ``None``: no answer after three tries."""
    data = orjson.dumps(body)
    headers = [("Authorization", f"Bearer {run.tokens[seat]}")]
    for _ in range(3):
        try:
            answer: Answer = await run.http.post(f"/api/tables/{run.table_id}/commands", data, headers)
            return answer
        except TransportError:
            continue
    return None


async def drive(run: TableRun, interval: float, end: float, rnd: random.Random) -> None:
    next_at = time.perf_counter() + rnd.random() * interval
    rs = run.ruleset
    while time.perf_counter() < end and not rs.is_over(run.state):
        delay = next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        next_at = max(next_at + interval, time.perf_counter() - interval)
        seat = rnd.choice(rs.awaited(run.state))
        command = choose(rs.legal_commands(run.state, seat), rnd)
        after, _ = rs.apply(run.state, seat, command)
        run.pending = Pending(run.version + 1, time.perf_counter(), set(range(PLAYERS)))
        body = {"command_id": str(uuid.uuid4()), "expected_version": run.version,
                "command": rs.command_to_json(command)}
        if run.http is None:
            await run.sockets[seat].send(json.dumps({"type": "command", **body}))
        else:  # as the page's REST fallback does: the seat's bearer token, the answer's view decoded
            answer = await post_command(run, seat, body)
            if answer is None or answer.status_code != 200:
                run.errors += 1
                return
            answer.json()
        try:
            await asyncio.wait_for(run.pending.done.wait(), 10)
        except TimeoutError:
            run.errors += 1
            return
        if run.errors:
            return
        run.state, run.version = after, run.version + 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Figures:
    """One steady-rate run: what was asked and served, the server's CPU and the latencies."""

    asked: float
    served: float
    errors: int
    cpu_ms: float
    p50_ms: float
    p99_ms: float
    load: float
    pg_ms: float = 0.0  # Postgres's CPU per command: this database's processes
    pg_background_ms: float = 0.0  # and the server's background processes (shared with other databases)

    @property
    def sustained(self) -> bool:
        """Served (nearly) what was asked with p99 < 100 ms and zero errors."""
        return self.errors == 0 and self.p99_ms < 100 and self.served >= 0.95 * self.asked


async def play(runs: list[TableRun], servers: list[int], rate: float, duration: float, rnd: random.Random,
               report: bool = False) -> Figures:
    """Every table plays at ``rate / tables`` commands per second for ``duration`` seconds."""
    for run in runs:
        run.latencies, run.sent, run.errors = [], [], 0
    # The client's own full collections (its sockets and game copies: 140 ms seen) would count as the server's
    # latency: what the client holds before the run is frozen, out of every collection's way.
    gc.collect()
    gc.freeze()
    interval = len(runs) / rate
    start = time.perf_counter()
    user_start, system_start = cpu_split(servers)
    client_start = time.process_time()
    pg_start = POSTGRES.sample() if POSTGRES is not None else None
    activity_start = POSTGRES.activity() if POSTGRES is not None and report else None
    end = start + duration
    await asyncio.gather(*(drive(run, interval, end, random.Random(rnd.random())) for run in runs))
    elapsed = time.perf_counter() - start
    pg_end = POSTGRES.sample() if POSTGRES is not None else None
    user, system = cpu_split(servers)
    user, system = user - user_start, system - system_start
    cpu = user + system
    client_cpu = time.process_time() - client_start
    latencies = [x for run in runs for x in run.latencies]
    errors = sum(run.errors for run in runs)
    load = os.getloadavg()[0]
    n = max(1, len(latencies))
    pg = pg_background = 0.0
    if pg_start is not None and pg_end is not None:
        pg = PostgresCPU.spent(pg_start[0], pg_end[0])
        pg_background = PostgresCPU.spent(pg_start[1], pg_end[1])
    figures = Figures(rate, len(latencies) / elapsed, errors, 1000 * cpu / n,
                      1000 * statistics.median(latencies) if latencies else 0.0,
                      1000 * percentile(latencies, 0.99) if latencies else 0.0, load,
                      1000 * pg / n, 1000 * pg_background / n)
    if not report:
        return figures
    if LATENCIES_FILE:  # each command's send time (wall clock) and latency, for another process to slice
        Path(LATENCIES_FILE).write_text(json.dumps([[at, x] for run in runs
                                                    for at, x in zip(run.sent, run.latencies, strict=True)]))
    print(f"commands: {len(latencies)} in {elapsed:.1f} s = {len(latencies) / elapsed:.0f} commands/s "
          f"(target {rate}); errors {errors}")
    if latencies:
        n = len(latencies)
        print(f"server CPU: {cpu:.1f} s = {1000 * cpu / n:.2f} ms per command ({100 * cpu / elapsed:.0f}% of one "
              f"core; user {1000 * user / n:.2f} + system {1000 * system / n:.2f} ms); load average {load:.1f}")
        if pg_start is not None:
            print(f"Postgres CPU: {pg:.1f} s = {figures.pg_ms:.2f} ms per command (this database's backends and "
                  f"autovacuum); its background processes {pg_background:.1f} s = {figures.pg_background_ms:.2f} ms "
                  f"(WAL writer, checkpointer ...: shared with every database on the server)")
            if activity_start is not None and POSTGRES is not None:
                await asyncio.sleep(1.5)  # the backends' last counters (reported about once a second)
                done = {k: v - activity_start[k] for k, v in POSTGRES.activity().items()}
                print(f"Postgres per command: {done['transactions'] / n:.2f} transactions, rows inserted "
                      f"{done['inserted'] / n:.2f}, updated {done['updated'] / n:.2f}, deleted "
                      f"{done['deleted'] / n:.2f}, fetched {done['fetched'] / n:.2f}, "
                      f"scanned {done['returned'] / n:.2f}; "
                      f"WAL {done['wal'] / n:.0f} bytes (the server's, every database's)")
            print(f"whole cost: server + Postgres {figures.cpu_ms + figures.pg_ms:.2f} ms per command "
                  f"({figures.cpu_ms + figures.pg_ms + figures.pg_background_ms:.2f} ms with the background "
                  f"processes)")
        print(f"client (this process) CPU: {client_cpu:.1f} s = {1000 * client_cpu / len(latencies):.1f} ms "
              f"per command ({100 * client_cpu / elapsed:.0f}% of one core)")
        print(f"latency send -> last of 4 sockets: p50 {1000 * statistics.median(latencies):.1f} ms, "
              f"p99 {1000 * percentile(latencies, 0.99):.1f} ms, max {1000 * max(latencies):.1f} ms")
    return figures


CEILING_RATES = (50, 100, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1200, 1600)


async def find_ceiling(runs: list[TableRun], servers: list[int], args: argparse.Namespace) -> Figures | None:
    """Ramp the command rate (``CEILING_RATES``, ``args.duration`` seconds each) until a step is not sustained
    (p99 >= 100 ms, an error, or under 95% of the asked rate served); print every step and the ceiling (the last
    sustained step, also returned)."""
    rnd = random.Random(1)
    best: Figures | None = None
    print("asked/s  served/s  errors  CPU ms/cmd  p50 ms  p99 ms  load")
    for rate in CEILING_RATES:
        if any(run.ruleset.is_over(run.state) for run in runs):
            print("(a game finished: the ramp stops here)")
            break
        step = await play(runs, servers, rate, args.duration, rnd)
        print(f"{step.asked:7.0f}  {step.served:8.0f}  {step.errors:6d}  {step.cpu_ms:10.2f}  {step.p50_ms:6.1f}  "
              f"{step.p99_ms:6.1f}  {step.load:4.1f}{'' if step.sustained else '  <- not sustained'}")
        if not step.sustained:
            break
        best = step
    if best is None:
        print(f"ceiling (x{args.workers}): none of the rates was sustained")
    else:
        print(f"ceiling (x{args.workers}): {best.asked:.0f} commands/s sustained with p99 < 100 ms and no errors "
              f"(served {best.served:.0f}/s, {best.cpu_ms:.2f} ms server CPU per command, p50 {best.p50_ms:.1f} ms, "
              f"p99 {best.p99_ms:.1f} ms)")
    return best


async def bench(bases: list[str], servers: list[int], args: argparse.Namespace,
                bystander: int | None = None) -> Figures | None:
    """Set up the tables and sockets, then play (or, with ``--find-ceiling``, ramp: its ceiling is returned)."""
    ruleset = registry.get("mattel")
    options = ruleset.parse_options({})
    limits = httpx.Limits(max_connections=50)
    base = bases[0]  # the lobby's requests: any process serves them
    async with httpx.AsyncClient(base_url=f"http://{base}", limits=limits, timeout=30) as http:
        t0 = time.perf_counter()
        sem = asyncio.Semaphore(20)

        async def one() -> TableRun:
            async with sem:
                return await setup_table(http, {})

        runs = await asyncio.gather(*(one() for _ in range(args.tables)))
        for i, run in enumerate(runs):
            run.base = bases[i % len(bases)]
            run.query = "&patch=1" if args.view_patches == "on" else ""
            r = await http.post(f"/api/tables/{run.table_id}/start",
                                headers={"Authorization": f"Bearer {run.tokens[0]}"})
            r.raise_for_status()
            run.ruleset, run.state = ruleset, ruleset.new_game(SEED, PLAYERS, options)
        # --transport rest: the commands go to the process the table's sockets are on, over keep-alive
        # connections (a browser keeps one open to its server), at most one per table in flight.
        commanders = {b: KeepAliveClient(b) for b in bases} if args.transport == "rest" else {}
        for run in runs:
            run.http = commanders.get(run.base)
        readers = [t for run in runs for t in await connect_all(run)]
        print(f"commands over {'REST (POST /api/tables/{id}/commands)' if commanders else 'the sockets'}")
        print(f"set up {args.tables} tables, {PLAYERS * args.tables} sockets in {time.perf_counter() - t0:.1f} s; "
              f"server RSS {rss_mb(servers):.0f} MB")

        ceiling = None
        if args.find_ceiling:
            ceiling = await find_ceiling(runs, servers, args)
        else:
            # One process's own figures (with several a scrape reaches any one of them: skipped).
            metrics_before = server_metrics.scrape(base) if args.workers == 1 else None
            await asyncio.sleep(2)
            rest = time.perf_counter()
            user, system = cpu_split(servers)
            by_rest = sum(cpu_split([bystander])) if bystander else 0.0
            await asyncio.sleep(REST_SECONDS)
            busy = sum(cpu_split(servers)) - user - system
            rest_seconds = time.perf_counter() - rest
            print(f"server CPU at rest ({PLAYERS * args.tables} sockets open, no command, {REST_SECONDS:.0f} s): "
                  f"{100 * busy / rest_seconds:.1f}% of one core")
            by_start = sum(cpu_split([bystander])) if bystander else 0.0
            started = time.perf_counter()
            figures = await play(runs, servers, args.rate, args.duration, random.Random(1), report=True)
            if bystander:
                at_rest = (by_start - by_rest) / rest_seconds  # seconds of CPU per second
                spent = sum(cpu_split([bystander])) - by_start
                played = time.perf_counter() - started
                commands = figures.served * played
                print(f"bystander CPU: at rest {100 * at_rest:.2f}% of one core; during play {1000 * spent:.0f} ms "
                      f"= {1000 * (spent - at_rest * played) / max(1.0, commands):.3f} ms per command beyond rest")
            if metrics_before is not None:
                server_metrics.report(metrics_before, server_metrics.scrape(base))
            if POSTGRES is not None:
                storage_report(POSTGRES.dsn)
        print(f"server RSS after play: {rss_mb(servers):.0f} MB")
        for run in runs:
            for ws in run.sockets:
                await ws.close()
        for task in readers:
            task.cancel()
        for client in commanders.values():
            await client.aclose()

        if args.idle:
            t0 = time.perf_counter()
            idle_runs = await asyncio.gather(*(one() for _ in range(args.idle // PLAYERS)))
            before = rss_mb(servers)
            sockets = []
            idle_readers: list[asyncio.Task[None]] = []
            for i, run in enumerate(idle_runs):
                for token in run.tokens:
                    ws = await websockets.connect(f"ws://{bases[i % len(bases)]}/ws/tables/{run.table_id}"
                                                  f"?token={token}", ping_interval=None)
                    await ws.recv()
                    sockets.append(ws)
                    idle_readers.append(asyncio.create_task(answer_pings(ws)))
            await asyncio.sleep(1)
            print(f"idle: {len(sockets)} sockets open in {time.perf_counter() - t0:.1f} s; server RSS "
                  f"{rss_mb(servers):.0f} MB (before the idle sockets: {before:.0f} MB)")
            for ws in sockets:
                await ws.close()
            for task in idle_readers:
                task.cancel()
        return ceiling


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=200.0, help="total commands per second")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play")
    parser.add_argument("--idle", type=int, default=2000, help="idle sockets for the memory figure (0: skip)")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--by-table", action="store_true",
                        help="with --workers N: N separate servers, each table's sockets on one of them (as behind a "
                             "proxy routing by table), instead of one uvicorn with N workers sharing the port")
    parser.add_argument("--find-ceiling", action="store_true",
                        help="ramp the rate (--duration seconds per step) for 1 and 2 processes and print the highest "
                             "each sustains with p99 < 100 ms and zero errors (--workers and --idle are ignored)")
    parser.add_argument("--bystander", action="store_true",
                        help="also run one server process with no socket on the database and print its CPU per "
                             "command beyond its CPU at rest")
    parser.add_argument("--ws-deflate", choices=("on", "off"), default="on",
                        help="uvicorn's permessage-deflate (on: its default, as deployed; every client offers it)")
    parser.add_argument("--view-patches", choices=("on", "off"), default="on",
                        help="sockets ask for view patches (patch=1), as the browser client does")
    parser.add_argument("--transport", choices=("socket", "rest"), default="socket",
                        help="how the clients send their commands: 'command' frames on their sockets, or POSTs to "
                             "/api/tables/{id}/commands with the seat's bearer token (default: what the table "
                             "page does)")
    parser.add_argument("--database-url", default="", help="an existing, migrated Postgres database")
    parser.add_argument("--latencies", default="",
                        help="write each command's send time (epoch seconds) and latency (s) there, as JSON")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres",
                        help="server on which to create the scratch database (its Unix socket: "
                             "postgresql://postgres@/postgres?host=/var/run/postgresql)")
    args = parser.parse_args()
    global LATENCIES_FILE
    LATENCIES_FILE = args.latencies
    if not args.find_ceiling:
        run(args)
        return
    ceilings = {workers: run(argparse.Namespace(**{**vars(args), "workers": workers, "idle": 0}))
                for workers in (1, 2)}
    print("\nceilings (p99 < 100 ms, no errors): processes  commands/s  served/s  CPU ms/cmd  p50 ms  p99 ms  load")
    for workers, best in ceilings.items():
        if best is None:
            print(f"{workers:49d}  none sustained")
        else:
            print(f"{workers:49d}  {best.asked:10.0f}  {best.served:8.0f}  {best.cpu_ms:10.2f}  {best.p50_ms:6.1f}  "
                  f"{best.p99_ms:6.1f}  {best.load:4.1f}")


def run(args: argparse.Namespace) -> Figures | None:
    """One server (``args.workers`` processes) on a scratch database (or ``--database-url``), one bench."""
    scratch = ""
    url = args.database_url
    if not url:
        scratch = f"phase10_bench_{os.getpid()}"
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {scratch}")
        url = make_url(args.postgres).set(drivername="postgresql+psycopg", database=scratch) \
            .render_as_string(hide_password=False)
    try:
        from app.persistence.db import upgrade

        upgrade(url)
        global POSTGRES
        parsed = make_url(url)
        libpq = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        host = str(parsed.host or parsed.query.get("host") or "")
        # Postgres on this machine: over loopback or its Unix socket (a directory).
        POSTGRES = PostgresCPU(libpq, str(parsed.database)) \
            if host in ("127.0.0.1", "localhost", "") or host.startswith("/") else None
        env = {**os.environ, "DATABASE_URL": url, "PHASE10_FIXED_SEED": str(SEED),
               "PHASE10_LOG_LEVEL": "WARNING", "PHASE10_JOIN_FAILURES_PER_ADDRESS": "1000000",
               "PHASE10_METRICS_ALLOW": "127.0.0.1",
               # every client of the bench comes from one address: not capped as one player's would be
               "PHASE10_HTTP_LIMIT_PER_ADDRESS": "1000000"}
        # --by-table: one server per process, each on its own port, and each table's sockets on one of them (as a
        # proxy that routes a table's sockets to one process does); otherwise one uvicorn with --workers, whose
        # processes share the port (the kernel spreads the connections, a table's sockets over all of them).
        separate = args.by_table and args.workers > 1
        ports = [free_port() for _ in range((args.workers if separate else 1) + bool(args.bystander))]
        servers = [subprocess.Popen(
            [sys.executable, "-m", "app.serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", "1" if separate or (args.bystander and port == ports[-1]) else str(args.workers),
             "--log-level", "warning", "--no-access-log",
             "--ws-per-message-deflate", "true" if args.ws_deflate == "on" else "false"],
            cwd=ROOT, env=env) for port in ports]
        try:
            deadline = time.monotonic() + 120  # a busy shared machine starts slowly
            for port in ports:
                while True:
                    try:
                        if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    if time.monotonic() > deadline:
                        raise SystemExit("server did not start")
                    time.sleep(0.2)
            layout = (f"{args.workers} servers, a table's sockets on one" if separate
                      else f"uvicorn x{args.workers}")
            via = "Unix socket" if host.startswith("/") else host or "local"
            print(f"server: {layout} (permessage-deflate {args.ws_deflate}, view patches {args.view_patches}) "
                  f"on 127.0.0.1:{','.join(map(str, ports))}, Postgres {parsed.database} ({via}); "
                  f"{os.cpu_count()} CPUs shared by server, Postgres and clients")
            if args.bystander:
                print(f"bystander: one more server process on 127.0.0.1:{ports[-1]}, no socket")
                bystander = servers[-1].pid
                return asyncio.run(bench([f"127.0.0.1:{port}" for port in ports[:-1]],
                                         [s.pid for s in servers[:-1]], args, bystander))
            return asyncio.run(bench([f"127.0.0.1:{port}" for port in ports], [s.pid for s in servers], args))
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(20)
    finally:
        if scratch:
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {scratch} WITH (FORCE)")


if __name__ == "__main__":
    main()
