"""A private Postgres cluster for the fault tests: ``initdb`` into a temporary folder, its own port, started,
restarted (fast or immediate) and stopped by the test alone. Debian's server binaries are looked up in
``/usr/lib/postgresql/*/bin`` (or ``PATH``); without them the tests skip, except under ``CI=1``, where a missing
binary fails them. Run as root (the CI container), the cluster belongs to the ``postgres`` user, as ``initdb``
refuses to run as root."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if found:
        return Path(found[0]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def postgres_binaries() -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``; skips the test (fails it under CI) without."""
    folder = _binaries()
    if folder is None or not (folder / "pg_ctl").exists():
        if os.environ.get("CI"):
            pytest.fail("the fault tests need the Postgres server binaries (initdb, pg_ctl): CI has them")
        pytest.skip("the Postgres server binaries (initdb, pg_ctl) are not installed")
    return folder


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivatePostgres:
    """One cluster in ``folder`` on ``port`` (127.0.0.1 only, trust authentication, database ``phase10``)."""

    def __init__(self, folder: Path, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.folder = folder
        self.data = folder / "data"
        self.log = folder / "postgres.log"
        self.port = _free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/phase10"
        self.dsn = f"postgresql://postgres@127.0.0.1:{self.port}/phase10"
        self._user: dict[str, Any] = {}
        if os.geteuid() == 0:  # initdb and postgres refuse root: the cluster belongs to ``postgres``
            entry = pwd.getpwnam("postgres")
            self._user = {"user": entry.pw_uid, "group": entry.pw_gid}
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        self.restarts = 0

    def _run(self, *args: str, timeout: float = 60) -> None:
        subprocess.run([str(self.bin / args[0]), *args[1:]], check=True, timeout=timeout, cwd=self.folder,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **self._user)

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(f"\nlisten_addresses = '127.0.0.1'\nport = {self.port}\nunix_socket_directories = ''\n"
                       "fsync = off\nfull_page_writes = off\nmax_connections = 200\n"
                       "shared_buffers = 32MB\n")
        self.start()
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE phase10")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "30", "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: sessions are ended, then a clean shutdown; ``immediate``: every process quits at once (a
        crash, recovered from at the next start)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")

    def restart(self, mode: str = "fast", down: float = 0.0) -> float:
        """Stop (``mode``), stay down ``down`` seconds, start; returns the moment (monotonic) it answers again."""
        self.stop(mode)
        time.sleep(down)
        self.start()
        self.restarts += 1
        return time.monotonic()

    def terminate(self, application_name: str) -> int:
        """``pg_terminate_backend`` every session of ``application_name``; how many there were."""
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            rows = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE application_name = %s", (application_name,)).fetchall()
        return len(rows)

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self.stop("immediate")
