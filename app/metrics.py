"""Every Prometheus metric of the server, in one registry per process (``prometheus-client``).

Other modules import the metric objects from here and increment or observe them at a few clear points; the
``/metrics`` route (``app.api.ops``) renders ``REGISTRY``. Each server process has its own registry and is
scraped on its own (no multiprocess mode): figures are per process, and a process's counters start at 0 when
it starts. Label values are bounded sets (rule set ids, error codes, decision kinds), never table ids.
"""

from __future__ import annotations

import threading
import time

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

from app.stalls import StallCollector

__all__ = ["CONTENT_TYPE", "REGISTRY", "render"]

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # process_cpu_seconds_total, process_resident_memory_bytes, open fds
PlatformCollector(registry=REGISTRY)
REGISTRY.register(StallCollector())  # garbage collector pauses and event loop lag (app/stalls.py)

# Latency buckets from 1 ms to 10 s: a command's commit is a few ms, its fan-out tens of ms under load.
_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

COMMANDS_ACCEPTED = Counter(
    "phase10_commands_accepted", "Game commands accepted (stored and published), by rule set.",
    ["ruleset"], registry=REGISTRY)
COMMANDS_REFUSED = Counter(
    "phase10_commands_refused", "Game commands refused, by rule set ('unknown' before the game was found) and "
    "error code.", ["ruleset", "code"], registry=REGISTRY)
COMMAND_COMMIT_SECONDS = Histogram(
    "phase10_command_commit_seconds", "From a command's arrival at the game service to its commit.",
    ["ruleset"], buckets=_SECONDS, registry=REGISTRY)
COMMAND_FANOUT_SECONDS = Histogram(
    "phase10_command_fanout_seconds", "From a command's arrival to the last socket of its table in this process "
    "being handed the new version (commands whose table has sockets in the process that accepted them).",
    buckets=_SECONDS, registry=REGISTRY)
OPEN_SOCKETS = Gauge("phase10_open_sockets", "Table websockets open in this process.", registry=REGISTRY)
LIVE_TABLES = Gauge("phase10_live_tables", "Tables with at least one open socket in this process.",
                    registry=REGISTRY)
GAMES = Gauge("phase10_games", "Games in the database by status (read at scrape time).", ["status"],
              registry=REGISTRY)
TABLES_WAITING = Gauge("phase10_tables_waiting", "Tables whose first game has not started (read at scrape time).",
                       registry=REGISTRY)
FANOUT_WAKEUPS = Counter(
    "phase10_fanout_wakeups", "Fan-out reads of a table for its sockets in this process.", registry=REGISTRY)
FANOUT_SLOW = Counter(
    "phase10_fanout_slow", "Fan-out reads that took the slow path (the whole table read from the database); "
    "slow / wakeups is the slow-path share.", registry=REGISTRY)
NOTIFY_ROUND_TRIP_SECONDS = Histogram(
    "phase10_notify_round_trip_seconds", "From a command's NOTIFY (in its transaction) to this process receiving "
    "it back on its LISTEN connection (Postgres hub only).", buckets=_SECONDS, registry=REGISTRY)
BOT_DECISIONS = Counter(
    "phase10_bot_decisions", "Decisions made for a seat by the bot runner, by kind (bot, stand_in, timer) and "
    "outcome (accepted, refused).", ["kind", "outcome"], registry=REGISTRY)
PUSH_SENT = Counter("phase10_push_sent", "Web Push notifications sent.", registry=REGISTRY)
PUSH_FAILED = Counter("phase10_push_failed", "Web Push notifications that failed, by reason.", ["reason"],
                      registry=REGISTRY)
CHAT_MESSAGES = Counter("phase10_chat_messages", "Table chat messages stored, by kind (text, emoji).", ["kind"],
                        registry=REGISTRY)
RATE_LIMITED = Counter("phase10_rate_limited", "Requests refused by a rate limit (HTTP 429), by error code.",
                       ["code"], registry=REGISTRY)
PRUNED = Counter("phase10_pruned", "Rows deleted by the retention prune, by kind (tables, games).", ["kind"],
                 registry=REGISTRY)


class Arrivals:
    """When this process received each command, by table and version, until its fan-out here is done.

    The service records a command's arrival when it commits; the hub, after handing a version to the table's
    last socket here, settles it and observes ``COMMAND_FANOUT_SECONDS``. The fan-out may run before the
    arrival is recorded (the commit's notification can wake it first): a version recorded after its table was
    settled past it is observed at once. Bounded: at most ``tables`` tables (oldest dropped first) and
    ``per_table`` arrivals a table.
    """

    def __init__(self, tables: int = 4096, per_table: int = 64) -> None:
        self.tables = tables
        self.per_table = per_table
        self._items: dict[str, dict[int, float]] = {}
        self._settled: dict[str, int] = {}  # the version each table's fan-out here has reached
        self._lock = threading.Lock()

    def put(self, table_id: str, version: int, arrived: float) -> None:
        with self._lock:
            if self._settled.get(table_id, -1) >= version:
                COMMAND_FANOUT_SECONDS.observe(max(0.0, time.perf_counter() - arrived))
                return
            versions = self._items.pop(table_id, None) or {}
            versions[version] = arrived
            if len(versions) > self.per_table:
                del versions[min(versions)]
            self._items[table_id] = versions  # (re)inserted last: the dict's order is the tables' age
            if len(self._items) > self.tables:
                del self._items[next(iter(self._items))]

    def settle(self, table_id: str, upto: int, now: float | None = None) -> None:
        """Every version of ``table_id`` up to ``upto`` has been handed to this process's sockets."""
        now = time.perf_counter() if now is None else now
        with self._lock:
            # The latest, not the highest: a table's next game counts from 0 again (one fan-out at a time a table).
            self._settled.pop(table_id, None)
            self._settled[table_id] = upto  # (re)inserted last: the dict's order is the tables' age
            if len(self._settled) > self.tables:
                del self._settled[next(iter(self._settled))]
            versions = self._items.get(table_id)
            if not versions:
                return
            done = [v for v in versions if v <= upto]
            arrived = [versions.pop(v) for v in done]
            if not versions:
                self._items.pop(table_id, None)
        for start in arrived:
            COMMAND_FANOUT_SECONDS.observe(max(0.0, now - start))


class RoundTrips:
    """Start times of NOTIFY payloads this process sent, until it receives them back on its LISTEN connection
    (``NOTIFY_ROUND_TRIP_SECONDS``). Bounded: a payload whose transaction rolled back, or of a table this process
    does not LISTEN on (no socket there), is never received and is dropped oldest first."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: dict[str, float] = {}
        self._lock = threading.Lock()

    def sent(self, payload: str) -> None:
        with self._lock:
            self._items[payload] = time.perf_counter()
            if len(self._items) > self.size:
                del self._items[next(iter(self._items))]

    def received(self, payload: str) -> None:
        with self._lock:
            start = self._items.pop(payload, None)
        if start is not None:
            NOTIFY_ROUND_TRIP_SECONDS.observe(time.perf_counter() - start)


ARRIVALS = Arrivals()
ROUND_TRIPS = RoundTrips()


def command_committed(table_id: str, version: int, ruleset: str, arrived: float) -> None:
    """A command that arrived at ``arrived`` (``time.perf_counter()``) is committed at ``version``."""
    COMMANDS_ACCEPTED.labels(ruleset).inc()
    COMMAND_COMMIT_SECONDS.labels(ruleset).observe(time.perf_counter() - arrived)
    ARRIVALS.put(table_id, version, arrived)


def render() -> bytes:
    """The registry in the Prometheus text format."""
    return generate_latest(REGISTRY)
