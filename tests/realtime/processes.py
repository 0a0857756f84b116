"""Real server processes on loopback for the cross-process tests (fan-out, presence, chat): uvicorn on a free
port against the test database, ready once ``/healthz`` answers, stopped gracefully (SIGTERM)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.conftest import TEST_DATABASE_URL

ROOT = Path(__file__).resolve().parents[2]
needs_postgres = pytest.mark.skipif(not TEST_DATABASE_URL.startswith("postgresql"),
                                    reason="needs Postgres (TEST_DATABASE_URL)")


def wait_until_answers(url: str, deadline: float, proc: subprocess.Popen[bytes] | None = None,
                       log: Path | None = None) -> None:
    """Poll ``url`` until it answers 200; fail at ``deadline`` (monotonic), or at once when ``proc`` has exited
    (with its ``log`` in the message)."""
    while True:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if proc is not None:
            assert proc.poll() is None, log.read_text() if log is not None else f"exited with {proc.returncode}"
        assert time.monotonic() < deadline, f"{url} did not answer"
        time.sleep(0.1)


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM (graceful), then SIGKILL if it has not exited within 10 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One uvicorn process serving ``app.main:app`` on ``self.url`` (host:port)."""

    def __init__(self, database_url: str, env: dict[str, str] | None = None, args: tuple[str, ...] = (),
                 stderr: Path | None = None, port: int | None = None) -> None:
        port = port or _free_port()
        env = {**os.environ, "DATABASE_URL": database_url, "PHASE10_LOG_LEVEL": "WARNING", **(env or {})}
        self.url = f"127.0.0.1:{port}"
        self.port = port
        # The production command (``python -m app.serve``: uvicorn with the slow-client limits).
        self.log = None if stderr is None else stderr.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app.serve", "--host", "127.0.0.1", "--port", str(port), *args],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL if self.log is None else self.log,  # uvicorn's access log
            stderr=subprocess.DEVNULL if self.log is None else self.log)

    def wait_ready(self, deadline: float) -> None:
        wait_until_answers(f"http://{self.url}/healthz", deadline)

    def stop(self) -> None:
        stop_process(self.proc)  # graceful: the lifespan closes sockets and says goodbye
        if self.log is not None:
            self.log.close()


@contextmanager
def running(database_url: str, count: int = 2, env: dict[str, str] | None = None,
            logs: Path | None = None) -> Iterator[list[Server]]:
    """``count`` server processes on one database (with ``env``; their output in ``logs/server<i>.log`` when
    given), ready; stopped afterwards."""
    servers = [Server(database_url, env, stderr=None if logs is None else logs / f"server{i}.log")
               for i in range(count)]
    try:
        deadline = time.monotonic() + 60  # generous: start-up takes ~20 s when the 2 cores are shared
        for server in servers:
            server.wait_ready(deadline)
        yield servers
    finally:
        for server in servers:
            server.stop()
