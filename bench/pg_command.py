"""Postgres's own CPU for the command path's one statement, alone: what each part of it costs the database.

    python bench/pg_command.py --template phase10_cost [--commands 4000] [--variants base,no-notify,...]

Copies ``--template`` (a migrated database with running games, e.g. one ``bench/load.py --database-url`` played
on) into a scratch database per variant (``<template>_pgcmd``, dropped after), opens one LISTEN connection on
the channels of its running tables (as a server process does) and 4 asyncpg connections, and writes
``--commands`` commands round-robin over the running games with the server's own statement
(``app.persistence.append.postgres``: the version bump, the command row, the NOTIFY; a snapshot every
``snapshot_every`` commands), one at a time. Prints, per variant, the CPU of the database's Postgres processes
(read from ``/proc``) per command, and the wall time. The variants change the schema or the statement:

* ``base``: as migrated;
* ``no-notify``: without the NOTIFY;
* ``no-fk``: without the command table's foreign key to ``game`` (its check runs a query per inserted row);
* ``no-uq``: without the unique (game, command id) index;
* ``async-commit``: ``synchronous_commit = off`` on the writing connections.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
import psycopg  # noqa: E402

from app.persistence.append import Append, postgres  # noqa: E402
from app.realtime.backends import table_channel  # noqa: E402
from bench.load import proc_cpu  # noqa: E402

SERVER = "postgresql://postgres@127.0.0.1:5432"
VARIANTS = {
    "base": [],
    "no-notify": [],
    "no-fk": ["ALTER TABLE game_command DROP CONSTRAINT IF EXISTS game_command_game_id_fkey1",
              "ALTER TABLE game_command DROP CONSTRAINT IF EXISTS game_command_game_id_fkey"],
    "no-uq": ["ALTER TABLE game_command DROP CONSTRAINT uq_game_command_command_id"],
    "async-commit": [],
}


def database_cpu(database: str) -> dict[int, float]:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        pids = [pid for (pid,) in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (database,))]
    return {pid: proc_cpu(pid) for pid in pids}


async def one(template: str, variant: str, commands: int, snapshot_every: int) -> tuple[float, float]:
    scratch = f"{template}_pgcmd"
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {scratch} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {scratch} TEMPLATE {template}")
    try:
        with psycopg.connect(f"{SERVER}/{scratch}", autocommit=True) as conn:
            for ddl in VARIANTS[variant]:
                conn.execute(ddl)
            games = conn.execute("SELECT id, table_id, version, snapshot::text FROM game WHERE status = 'playing' "
                                 "ORDER BY id").fetchall()
            conn.execute("VACUUM ANALYZE")
        listener = await asyncpg.connect(f"{SERVER}/{scratch}")
        heard = 0

        def on_notify(*_: object) -> None:
            nonlocal heard
            heard += 1

        for _, table, _, _ in games:
            await listener.add_listener(table_channel(table), on_notify)
        settings = {"synchronous_commit": "off"} if variant == "async-commit" else None
        writers = [await asyncpg.connect(f"{SERVER}/{scratch}", server_settings=settings) for _ in range(4)]
        versions = {game_id: version for game_id, _, version, _ in games}
        notify = variant != "no-notify"
        before = database_cpu(scratch)
        t0 = time.perf_counter()
        for i in range(commands):
            game_id, table, _, snapshot = games[i % len(games)]
            old = versions[game_id]
            new = old + 1
            due = new % snapshot_every == 0
            statement, params = postgres(Append(
                game_id, old, 0, str(uuid.uuid4()), {"type": "draw", "source": "deck"}, datetime.now(UTC),
                snapshot=json.loads(snapshot) if due else None,
                notify=(table_channel(table), f"{table}:{new}:{game_id}:0:" + '{"type":"draw","source":"deck"}')
                if notify else None))
            rows = await writers[i % 4].fetch(statement, *params)
            assert len(rows) == 1, (variant, game_id, old)
            versions[game_id] = new
        await asyncio.sleep(0.2)  # the last notifications
        wall = time.perf_counter() - t0
        after = database_cpu(scratch)
        cpu = sum(after[pid] - before.get(pid, 0.0) for pid in after)
        for conn in (*writers, listener):
            await conn.close()
        if notify:
            assert heard >= commands * 0.99, heard
        return 1000 * cpu / commands, 1000 * wall / commands
    finally:
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {scratch} WITH (FORCE)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--template", required=True)
    parser.add_argument("--commands", type=int, default=4000)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--snapshot-every", type=int, default=25)
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    for round_ in range(args.rounds):
        for variant in args.variants.split(","):
            cpu, wall = asyncio.run(one(args.template, variant, args.commands, args.snapshot_every))
            print(f"round {round_ + 1} {variant:13} Postgres CPU {cpu:.3f} ms per command, wall {wall:.2f} ms")


if __name__ == "__main__":
    main()
