"""History benchmark: what a server's years of finished games cost a command, a replay, "My tables", the prune.

    python bench/history.py build [--games 10000] [--distinct 300] [--jobs 2]
    python bench/history.py storage
    python bench/history.py measure [--samples 200]
    python bench/history.py resume [--resume-at 300] [--samples 200]
    python bench/history.py prune [--tables 200] [--rate 200] [--duration 60]
    python bench/history.py backup [--samples 100]

``build`` fills the database ``--database`` (default ``phase10_history_bench``, dropped and made again) with
``--games`` finished 2-player games, a third of each rule set, written the way the server writes them (a table, its
two seats and clock, the game row with its final snapshot, the commands (seat, command id, command, time) packed
into one ``game_command_pack`` row; with ``--rows``, one ``game_command`` row per command, as before the packing).
The games are real: ``--distinct`` of them are played by the normal bots through the engine in ``--jobs``
processes under ``nice``, and each is written many times under new tables (new seats, command ids and dates); rows
go in with ``COPY`` and the command table's key and unique index are built after. The database is kept
for the other steps and later runs. Seat tokens are ``hb-<table number>-<seat>``, so the steps can act as a seat.

``storage`` prints the command table's size (heap, indexes, TOAST) per command and the size of a finished game
(its command rows and its game row) by rule set. ``measure`` times, on the built database and on a small one made
the same way with only the first 50 of its tables (``<database>_empty``): opening the replay record of the longest
game (table 0 in both), a table's info, ``/api/my/tables`` with 50 seat cookies, the lobby page and the admin
``stats`` (in process). ``prune`` copies the built database (``CREATE DATABASE ... TEMPLATE``), starts
``bench/load.py`` with ``--tables`` playing tables on the copy and, once they play, prunes every built game (all
finished over a day ago) with a one-day retention, then prints the prune's duration and its transactions beside
the load bench's figures (``--no-prune``: the same play without it). ``backup`` times ``pg_dump`` of the built
database and ``app.admin export``/``import`` of ``--samples`` of its tables.

The server's CPU per command and latency at size: ``python bench/load.py --idle 0 --database-url <url>`` against
the built and the empty database, alternately (``docs/performance.md``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from app import fastjson  # noqa: E402
from app.persistence.commands import StoredCommand, pack  # noqa: E402
from app.services.security import digest  # noqa: E402

RULESETS = ("mattel", "master", "board")
PLAYERS = 2
SERVER = "postgresql://postgres@127.0.0.1:5432"
LATENCIES = "/tmp/phase10_history_prune_latencies.json"


def url_of(database: str, driver: bool = True) -> str:
    base = SERVER.replace("postgresql://", "postgresql+psycopg://") if driver else SERVER
    return f"{base}/{database}"


def token(table: int, seat: int) -> str:
    return f"hb-{table}-{seat}"


def table_id(table: int) -> str:
    return f"hb{table:08d}"


def recreate(database: str) -> None:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {database}")
    from app.persistence.db import upgrade

    upgrade(url_of(database))


# ----------------------------------------------------------------------------------------------------- build
def play(job: tuple[str, int]) -> dict[str, Any]:
    """One whole game by the normal bots (the server's bot driver), as what the server stores of it."""
    from app.bots.driver import bot_command
    from app.rules import registry

    ruleset_id, seed = job
    ruleset = registry.get(ruleset_id)
    state = ruleset.new_game(seed, PLAYERS, ruleset.parse_options({}))
    rngs = [random.Random(seed * 7919 + seat) for seat in range(PLAYERS)]
    commands = []
    while not ruleset.is_over(state):
        seat = ruleset.awaited(state)[0]
        command = bot_command("normal", ruleset, state, seat, rngs[seat])
        state, _ = ruleset.apply(state, seat, command)
        commands.append((seat, fastjson.dumps(ruleset.command_to_json(command))))
    return {"ruleset": ruleset_id, "seed": seed, "commands": commands, "winners": list(ruleset.winners(state)),
            "snapshot": fastjson.dumps(ruleset.state_to_json(state))}


def build(args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    jobs = [(RULESETS[i % len(RULESETS)], 1000 + i) for i in range(args.distinct)]
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.exists() and len(games := json.loads(cache.read_text())) == len(jobs):
        pass  # the games played by an earlier build
    else:
        with multiprocessing.Pool(args.jobs, initializer=os.nice, initargs=(10,)) as pool:
            games = pool.map(play, jobs, chunksize=2)
        if cache is not None:
            cache.write_text(json.dumps(games))
    played = time.perf_counter() - t0
    print(f"played {len(games)} distinct games ({sum(len(g['commands']) for g in games):,} commands) "
          f"in {played:.0f} s with {args.jobs} processes")
    games.sort(key=lambda g: -len(g["commands"]))  # table 0 holds the longest game (the replay measured)
    commands, copied, keyed = write(args.database, games, args.games, args.rows)
    print(f"wrote {args.games:,} finished games, {commands:,} commands: copy {copied:.0f} s, keys and vacuum "
          f"{keyed:.0f} s; total {time.perf_counter() - t0:.0f} s")
    write(f"{args.database}_empty", games, SMALL, args.rows)
    storage(args)


SMALL = 50  # games in the small database ``measure`` compares with: the first 50 tables of the big one


def write(database: str, games: list[dict[str, Any]], n: int, rows: bool = False) -> tuple[int, float, float]:
    """Make ``database`` afresh and write ``n`` finished games (table ``i`` plays ``games[i % len(games)]``; with
    ``rows``, their commands as a row each, as the server stored them before packing finished games); the
    commands written, and the seconds of the copy and of the keys and vacuum after it."""
    recreate(database)
    now = datetime.now(UTC)
    t1 = time.perf_counter()
    commands = 0
    with psycopg.connect(url_of(database, driver=False)) as conn:
        conn.execute("ALTER TABLE game_command DROP CONSTRAINT pk_game_command")
        conn.execute("ALTER TABLE game_command DROP CONSTRAINT uq_game_command_command_id")
        with conn.cursor() as cur:
            with cur.copy("COPY game_table (id, ruleset, options, capacity, spectators, join_code_hash, revision, "
                          "created_at) FROM STDIN") as copy:
                for i in range(n):
                    g = games[i % len(games)]
                    copy.write_row((table_id(i), g["ruleset"], "{}", PLAYERS, False, digest(f"code-{i}"), 2,
                                    started(now, i, n)))
            with cur.copy("COPY seat (id, table_id, position, name, is_host, is_bot, token_hash, created_at) "
                          "FROM STDIN") as copy:
                for i in range(n):
                    for seat in range(PLAYERS):
                        copy.write_row((PLAYERS * i + seat + 1, table_id(i), seat, f"P{seat}", seat == 0, False,
                                        digest(token(i, seat)), started(now, i, n)))
            with cur.copy("COPY table_clock (table_id, turn_timer, stand_in) FROM STDIN") as copy:
                for i in range(n):
                    copy.write_row((table_id(i), "off", False))
            with cur.copy("COPY game (id, table_id, number, ruleset, options, seed, players, seats, status, version, "
                          "snapshot, snapshot_version, winners, created_at, finished_at) FROM STDIN") as copy:
                for i in range(n):
                    g = games[i % len(games)]
                    length = len(g["commands"])
                    begun = started(now, i, n)
                    seats = json.dumps([{"seat_id": PLAYERS * i + s + 1, "name": f"P{s}"} for s in range(PLAYERS)])
                    copy.write_row((i + 1, table_id(i), 1, g["ruleset"], "{}", g["seed"], PLAYERS, seats, "finished",
                                    length, g["snapshot"], length, json.dumps(g["winners"]), begun,
                                    begun + timedelta(seconds=20 * length)))
            if rows:  # as the server stored them before 0015: a row per command
                with cur.copy("COPY game_command (game_id, seq, seat, command_id, command, created_at) "
                              "FROM STDIN") as copy:
                    for i in range(n):
                        g = games[i % len(games)]
                        begun = started(now, i, n)
                        for seq, (seat, command) in enumerate(g["commands"], start=1):
                            copy.write_row((i + 1, seq, seat, str(uuid.uuid4()), command,
                                            begun + timedelta(seconds=20 * seq)))
                        commands += len(g["commands"])
            else:  # as the server stores a finished game's commands: one pack
                with cur.copy("COPY game_command_pack (game_id, commands, data) FROM STDIN") as copy:
                    for i in range(n):
                        g = games[i % len(games)]
                        begun = started(now, i, n)
                        packed = pack([StoredCommand(seq, seat, str(uuid.uuid4()), fastjson.loads(command),
                                                     begun + timedelta(seconds=20 * seq))
                                       for seq, (seat, command) in enumerate(g["commands"], start=1)])
                        copy.write_row((i + 1, len(g["commands"]), packed))
                        commands += len(g["commands"])
        copied = time.perf_counter() - t1
        conn.execute("ALTER TABLE game_command ADD CONSTRAINT pk_game_command PRIMARY KEY (game_id, seq)")
        conn.execute("ALTER TABLE game_command ADD CONSTRAINT uq_game_command_command_id "
                     "UNIQUE (game_id, command_id)")
        for table, column in (("game", "id"), ("seat", "id")):
            conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), (SELECT max({column}) "
                         f"FROM {table}))")
        conn.commit()
    with psycopg.connect(url_of(database, driver=False), autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return commands, copied, time.perf_counter() - t1 - copied


def started(now: datetime, i: int, n: int) -> datetime:
    """When built game ``i`` began: spread over the last two years, the newest at least two days ago."""
    return now - timedelta(days=2 + 700 * (n - i) / n)


# ----------------------------------------------------------------------------------------------------- storage
def storage(args: argparse.Namespace) -> None:
    with psycopg.connect(url_of(args.database, driver=False)) as conn:
        total = rows = 0
        for table, count in (("game_command", "count(*)"), ("game_command_pack", "coalesce(sum(commands), 0)")):
            heap, indexes, toast, n = conn.execute(
                f"SELECT pg_relation_size('{table}'), pg_indexes_size('{table}'), "
                f"pg_total_relation_size('{table}') - pg_relation_size('{table}') - pg_indexes_size('{table}'), "
                f"(SELECT {count} FROM {table})").fetchone()
            size = heap + indexes + toast
            total, rows = total + size, rows + n
            if not n:
                print(f"{table}: no command ({size / 1024:.0f} KB)")
                continue
            print(f"{table}: {n:,} commands; heap {heap / max(1, n):.0f} + indexes {indexes / max(1, n):.0f} + "
                  f"TOAST {toast / max(1, n):.0f} = {size / max(1, n):.0f} bytes per command ({size / 2**20:.0f} MB)")
        print(f"commands in all: {total / rows:.0f} bytes per command")
        game_bytes = conn.execute("SELECT pg_total_relation_size('game') / greatest(1, count(*)) "
                                  "FROM game").fetchone()[0]
        for ruleset, games, commands, row_bytes in conn.execute(
                "SELECT g.ruleset, count(*), sum(g.version), avg(pg_column_size(g.*)) FROM game g GROUP BY 1 "
                "ORDER BY 1"):
            per_game = commands / games
            print(f"  {ruleset}: {games:,} games, {per_game:.0f} commands a game: a finished game "
                  f"{per_game * total / rows / 1024:.1f} KB of commands + its game row {float(row_bytes) / 1024:.1f} KB"
                  f" (the game table's share with TOAST and indexes {game_bytes / 1024:.1f} KB)")
        for ruleset, packs, value in conn.execute(
                "SELECT g.ruleset, count(*), avg(octet_length(p.data)) FROM game_command_pack p JOIN game g "
                "ON g.id = p.game_id GROUP BY 1 ORDER BY 1"):
            print(f"  {ruleset}: {packs:,} packed games, the pack's value {float(value) / 1024:.1f} KB a game")


# ----------------------------------------------------------------------------------------------------- measure
def timed(fn: Any, samples: int) -> tuple[float, float]:
    times = []
    for _ in range(samples):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return 1000 * statistics.median(times), 1000 * times[min(len(times) - 1, int(0.99 * len(times)))]


def cold(client: Any) -> bool:
    """Empty the process's caches of states and recomputed steps: the next read recomputes from the database."""
    from app.services.games import StateCache

    service = client.app.state.service
    service.states = StateCache(service.settings.state_cache_size)
    service.step_cache._items.clear()
    return True


def measure(args: argparse.Namespace) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.services.stats import database_stats
    from app.settings import Settings

    def cases(database: str) -> tuple[TestClient, dict[str, Any]]:
        settings = Settings(database_url=url_of(database), log_level="WARNING", prune_every_hours=0)
        client = TestClient(create_app(settings))
        client.__enter__()
        long_table, long_token = table_id(0), token(0, 0)  # the longest game, in both databases
        with psycopg.connect(url_of(database, driver=False)) as conn:
            long_version = conn.execute("SELECT version FROM game WHERE table_id = %s", (long_table,)).fetchone()[0]
        cookies = {f"p10_seat_{table_id(i)}": token(i, 0) for i in range(SMALL)}
        client.cookies.clear()
        auth = {"Authorization": f"Bearer {long_token}"}
        number = 1
        checks = {
            "replay record of the longest game": lambda: client.get(
                f"/api/tables/{long_table}/games/{number}/replay", headers=auth).raise_for_status(),
            "table info": lambda: client.get(f"/api/tables/{long_table}").raise_for_status(),
            "resume: events since version - 10, cold": lambda: cold(client) and client.get(
                f"/api/tables/{long_table}/events?since={long_version - 10}", headers=auth).raise_for_status(),
            "resume: events since 0 (whole game), cold": lambda: cold(client) and client.get(
                f"/api/tables/{long_table}/events?since=0", headers=auth).raise_for_status(),
            "/api/my/tables (50 tables)": lambda: client.get("/api/my/tables", cookies=cookies).raise_for_status(),
            "lobby page /": lambda: client.get("/").raise_for_status(),
            "admin stats (in process)": lambda: database_stats(client.app.state.service.db),
        }
        return client, checks

    big, big_checks = cases(args.database)
    empty, empty_checks = cases(f"{args.database}_empty")
    print(f"{'':36}  {'empty p50/p99 ms':>18}  {'at size p50/p99 ms':>19}")
    for name in big_checks:
        samples = 20 if name.startswith("admin") else args.samples
        figures = {}
        for label, checks in (("empty", empty_checks), ("big", big_checks), ("empty2", empty_checks)):
            figures[label] = timed(checks[name], samples if label != "empty2" else 1)
        (e50, e99), (b50, b99) = figures["empty"], figures["big"]
        print(f"{name:36}  {e50:8.1f} / {e99:7.1f}  {b50:8.1f} / {b99:8.1f}")
    big.__exit__(None, None, None)
    empty.__exit__(None, None, None)


def resume(args: argparse.Namespace) -> None:
    """The slow path of a resume: a running 4-player ``mattel`` game at version ``--resume-at`` (played through the
    API on a scratch database ``<database>_resume``), ``GET .../events?since=N`` with every cache of the process
    emptied before each call (no cached state, step or table: the engine replays from the latest snapshot not newer
    than ``N``, the one before it, or the seed)."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.settings import Settings
    from tests.server_helpers import bearer, new_table, play

    database = f"{args.database}_resume"
    recreate(database)
    settings = Settings(database_url=url_of(database), log_level="WARNING", prune_every_hours=0)
    with TestClient(create_app(settings)) as client:
        t = new_table(client, players=4, start=True)
        version = play(client, t, args.resume_at, seed=1)
        service = client.app.state.service
        auth = bearer(t.tokens[1])

        def call(since: int) -> None:
            cold(client)
            service.forget()
            client.get(f"/api/tables/{t.id}/events?since={since}", headers=auth).raise_for_status()

        print(f"a running 4-player mattel game at version {version} (snapshot every {settings.snapshot_every}); "
              f"{args.samples} calls each, caches emptied before each")
        for back in (1, 10, 30, 100, version):
            p50, p99 = timed(lambda back=back: call(version - back), args.samples)
            print(f"  since version - {back:3}: p50 {p50:6.1f} ms, p99 {p99:6.1f} ms")
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


# ----------------------------------------------------------------------------------------------------- prune
def prune_at_size(args: argparse.Namespace) -> None:
    from app.persistence.db import Database
    from app.services.retention import Policy, prune

    copy_name = f"{args.database}_prune"
    t0 = time.perf_counter()
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {copy_name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {copy_name} TEMPLATE {args.database}")
    print(f"copied the built database in {time.perf_counter() - t0:.0f} s")
    load = subprocess.Popen([sys.executable, "bench/load.py", "--idle", "0", "--tables", str(args.tables),
                             "--rate", str(args.rate), "--duration", str(args.duration),
                             "--database-url", url_of(copy_name), "--latencies", LATENCIES], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    assert load.stdout is not None
    out = io.StringIO()
    pruned: dict[str, Any] = {}

    def run_prune() -> None:
        db = Database(url_of(copy_name))
        transactions: list[float] = []  # each write transaction of the prune (a batch of games), in seconds
        write = db.write

        @contextlib.contextmanager
        def timed_write() -> Iterator[Any]:
            began = time.perf_counter()
            with write() as s:
                yield s
            transactions.append(time.perf_counter() - began)

        db.write = timed_write  # type: ignore[method-assign]
        started_at = time.perf_counter()
        pruned["began"] = time.time()
        report = prune(db, Policy(None, None, timedelta(days=1)), rest=args.rest)
        pruned["ended"] = time.time()
        pruned.update(report.summary(), seconds=round(time.perf_counter() - started_at, 2),
                      transactions=len(transactions),
                      longest_transaction_ms=round(1000 * max(transactions, default=0.0), 1),
                      median_transaction_ms=round(1000 * statistics.median(transactions or [0.0]), 1))
        db.dispose()

    worker: threading.Thread | None = None
    for line in load.stdout:
        out.write(line)
        print(line, end="", flush=True)
        if line.startswith("server CPU at rest") and not args.no_prune:
            time.sleep(2)  # the play has begun
            worker = threading.Thread(target=run_prune)
            worker.start()
    load.wait()
    if worker is not None:
        worker.join()
    began, ended = pruned.pop("began", None), pruned.pop("ended", None)
    print(f"prune during the play: {pruned}")
    sent = json.loads(Path(LATENCIES).read_text())
    during = sorted(x for at, x in sent if began is not None and began <= at <= ended)
    rest = sorted(x for at, x in sent if began is None or not began <= at <= ended)
    for label, xs in (("sent while the prune ran", during), ("sent at any other moment", rest)):
        if xs:
            print(f"{label}: {len(xs)} commands, p50 {1000 * statistics.median(xs):.1f} ms, "
                  f"p99 {1000 * xs[min(len(xs) - 1, int(0.99 * len(xs)))]:.1f} ms, max {1000 * xs[-1]:.1f} ms")
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {copy_name} WITH (FORCE)")


# ----------------------------------------------------------------------------------------------------- backup
def backup(args: argparse.Namespace) -> None:
    """``pg_dump`` of the built database (docs/operating.md, Backups), and ``app.admin export`` / ``import`` of
    ``--samples`` of its tables, timed."""
    from app.persistence.db import Database
    from app.services.archive import export_table, import_record

    target = Path(f"/tmp/{args.database}.dump")
    t0 = time.perf_counter()
    subprocess.run(["pg_dump", "-Fc", "-Z", "1", "-f", str(target), url_of(args.database, driver=False)], check=True)
    dumped = time.perf_counter() - t0
    with psycopg.connect(url_of(args.database, driver=False)) as conn:
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
    print(f"pg_dump -Fc -Z 1: {size / 2**20:.0f} MB database in {dumped:.0f} s ({size / 2**20 / dumped:.0f} MB/s), "
          f"dump file {target.stat().st_size / 2**20:.0f} MB")
    target.unlink()
    db = Database(url_of(args.database))
    tables = [table_id(i) for i in range(0, args.games, max(1, args.games // args.samples))][:args.samples]
    t0 = time.perf_counter()
    records = [export_table(db, table) for table in tables]
    exported = time.perf_counter() - t0
    commands = sum(len(g["commands"]) for r in records for g in r["games"])
    t0 = time.perf_counter()
    imported = [import_record(db, record) for record in records]
    replayed = time.perf_counter() - t0
    print(f"export: {len(records)} tables ({commands:,} commands) in {exported:.1f} s = "
          f"{commands / exported:,.0f} commands/s; import (each game replayed and checked): {replayed:.1f} s = "
          f"{commands / replayed:,.0f} commands/s")
    with db.write() as s:
        from sqlalchemy import delete

        from app.persistence.models import GameTable

        s.execute(delete(GameTable).where(GameTable.id.in_(imported)))
    db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("build", "storage", "measure", "resume", "prune", "backup"))
    parser.add_argument("--database", default="phase10_history_bench")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", default="/tmp/phase10_history_games.json",
                        help="where the distinct games are kept for the next build ('': nowhere)")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--rest", type=float, default=1.0,
                        help="prune: rest after each transaction this many times as long as it took")
    parser.add_argument("--resume-at", type=int, default=300, help="resume: the running game's version")
    parser.add_argument("--no-prune", action="store_true",
                        help="prune: the same play on the copy without the prune (the figures to compare with)")
    parser.add_argument("--rows", action="store_true",
                        help="build: store the finished games' commands as a row each (before 0015), not packed")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--duration", type=float, default=60.0)
    args = parser.parse_args()
    {"build": build, "storage": storage, "measure": measure, "resume": resume, "prune": prune_at_size,
     "backup": backup}[args.step](args)


if __name__ == "__main__":
    main()
