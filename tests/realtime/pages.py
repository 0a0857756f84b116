"""A table page's socket for the tests with real server processes, as static/js/table/socket.js behaves: it
follows snapshots and updates (asserting that every update starts where the page is: no gap, no repeat), answers
the server's heartbeat ``ping`` with ``pong`` when it reads one and, when its socket closes, notes the close code
and reconnects at once with ``since=<its version>&game=<its game>`` to the first address that accepts it (the
proxy's one address, or the live processes, another first)."""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


class Page:
    def __init__(self, name: str, table_id: str, token: str, url: str,
                 targets: Callable[[str], list[str]]) -> None:
        """``url``: where the socket opens first; ``targets(current)``: where to reconnect, in order."""
        self.name, self.table_id, self.token, self.targets = name, table_id, token, targets
        self.version, self.game_id = 0, None
        self.closes: list[int] = []
        self.url = url
        self.ws = self._open(url)

    def _open(self, url: str) -> ClientConnection:
        query = f"?token={self.token}"
        if self.game_id is not None:
            query += f"&since={self.version}&game={self.game_id}"
        # legacy=True: the page holds its connection across calls (and replaces it on a close), not in a with-block.
        ws = connect(f"ws://{url}/ws/tables/{self.table_id}{query}", origin=f"http://{url}", open_timeout=10,
                     legacy=True)
        self.url = url
        return ws

    def reconnect(self) -> None:
        deadline = time.monotonic() + 20
        while True:
            for url in self.targets(self.url):
                try:
                    self.ws = self._open(url)
                    return
                except (OSError, ConnectionClosed, TimeoutError):
                    continue
            assert time.monotonic() < deadline, f"{self.name} could not reconnect"
            time.sleep(0.1)

    def _handle(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "ping":  # the server's heartbeat, answered as the browser page does
            # a closed socket's close is read, noted and followed by a reconnect on the next recv
            with contextlib.suppress(ConnectionClosed):
                self.ws.send(json.dumps({"type": "pong"}))
        elif msg["type"] == "snapshot":
            self.version, self.game_id = msg["version"], msg["game_id"]
        elif msg["type"] == "update":
            # No gap: an update starts where this page is (since=N on reconnect, the last version otherwise).
            assert msg["game_id"] == self.game_id and msg["since"] == self.version, (self.name, msg, self.version)
            self.version = msg["version"]

    def recv(self, timeout: float) -> dict[str, Any] | None:
        """The next message (handled), None on timeout; a close is noted and the page reconnects."""
        try:
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return None
        except ConnectionClosed as closed:
            self.closes.append(closed.rcvd.code if closed.rcvd is not None else 1006)
            self.reconnect()
            return None
        self._handle(msg)
        return msg

    def pump(self) -> None:
        while self.recv(0.05) is not None:
            pass

    def command(self, command: dict[str, Any], expected: int, on_sent: Callable[[], None] = lambda: None
                ) -> dict[str, Any]:
        """Send one command and wait for its ack; after a close, send the same command (same id) again."""
        body = json.dumps({"type": "command", "command_id": uuid.uuid4().hex, "expected_version": expected,
                           "command": command})
        deadline = time.monotonic() + 30
        sent_on = None
        while time.monotonic() < deadline:
            if sent_on is not self.ws:
                try:
                    self.ws.send(body)
                except ConnectionClosed:
                    self.recv(0.01)  # notes the close and reconnects
                    continue
                sent_on = self.ws
                on_sent()
            msg = self.recv(1.0)
            if msg is not None and msg.get("ref") == json.loads(body)["command_id"]:
                assert msg["type"] == "ack", msg
                return msg
        raise AssertionError(f"{self.name}: no ack")

    def catch_up(self, version: int) -> None:
        deadline = time.monotonic() + 20
        while self.version < version:
            assert time.monotonic() < deadline, f"{self.name} stuck at {self.version} < {version}"
            self.recv(0.5)

    def close(self) -> None:
        self.ws.close()
