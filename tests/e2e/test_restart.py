"""A server restart in headless Chromium: the stopping server closes the table socket with 1012 (service
restart), the page tries again at once (not after its usual back-off), and once a server answers on the same
address it resumes with since=N and plays on."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.realtime.processes import stop_process, wait_until_answers

from . import helpers as h
from .conftest import ROOT

SEED = 306  # tests/e2e/test_mattel.py: a two-player Mattel deal

# Every socket the page opens and every close it sees, with the page's own clock (performance.now(), ms).
RECORD_SOCKETS = """
window.__sockets = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    window.__sockets.push({ event: "open", at: performance.now() });
    this.addEventListener("close",
      (e) => window.__sockets.push({ event: "close", at: performance.now(), code: e.code }));
  }
};
"""


def _restart_on(port: int, database: Path, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{database}", PHASE10_FIXED_SEED=str(SEED),
               PHASE10_LOG_LEVEL="WARNING", PHASE10_LOG_JSON="false")
    proc = subprocess.Popen([sys.executable, "-m", "app.serve", "--host", "127.0.0.1", "--port", str(port),
                             "--log-level", "warning"], cwd=ROOT, env=env, stdout=log.open("wb"),
                            stderr=subprocess.STDOUT)
    try:
        wait_until_answers(f"http://127.0.0.1:{port}/readyz", time.monotonic() + 60, proc, log)
    except AssertionError:
        proc.kill()
        raise
    return proc


@pytest.mark.e2e
def test_a_restart_closes_1012_and_the_page_resumes_at_once(
        start_server: Any, new_page: Any, tmp_path: Path) -> None:
    server = start_server(SEED)
    anna, ben, _ = h.start_two(server, new_page, "mattel", {"phases_to_win": 1})
    ben.add_init_script(RECORD_SOCKETS)
    ben.reload()
    ben.wait_for_selector("#conn[data-state='on']")
    h.act(h.awaited_page([anna, ben]), {})
    before = h.version(anna)
    h.wait_version(ben, before)

    database = Path(server.log.name).parent / "e2e.db"
    server.proc.terminate()  # SIGTERM: the graceful shutdown
    server.proc.wait(20)
    ben.wait_for_function("window.__sockets.some((s) => s.event === 'close' && s.code === 1012)")
    ben.wait_for_function("window.__sockets.filter((s) => s.event === 'open').length >= 2")
    sockets: list[dict[str, Any]] = ben.evaluate("window.__sockets")
    close = next(i for i, s in enumerate(sockets) if s["event"] == "close" and s["code"] == 1012)
    retry = next(s for s in sockets[close:] if s["event"] == "open")
    waited = retry["at"] - sockets[close]["at"]
    print(f"the page tried again {waited:.0f} ms after the 1012 close")
    assert waited < 400  # at once; any other close waits 500 ms first, then longer

    again = _restart_on(server.port, database, tmp_path / "again.log")
    try:
        for page in (anna, ben):
            page.wait_for_selector("#conn[data-state='on']", timeout=20_000)
        h.wait_version(ben, before)
        mover = h.awaited_page([anna, ben])
        assert mover is not None
        h.act(mover, {})  # the game goes on on the new process; both pages follow
        for page in (anna, ben):
            h.wait_version(page, before + 1)
        assert h.version(anna) == h.version(ben) and not anna.p10_errors and not ben.p10_errors
    finally:
        stop_process(again)
