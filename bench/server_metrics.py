"""The server's own figures for a bench report, read from its ``/metrics`` (app/metrics.py).

``scrape`` takes a snapshot; ``report`` prints what changed between two snapshots: commands accepted and
refused, the server-side arrival -> commit and arrival -> last socket times (quantiles interpolated in the
histogram buckets, as Prometheus's ``histogram_quantile`` does), the fan-out's slow-path share, the NOTIFY
round trip, the garbage collector's pauses by generation and the event loop's lag (``app.stalls``). Each
server process has its own registry: with several processes a scrape reads one of them.
"""

from __future__ import annotations

import math
from collections import defaultdict

import httpx
from prometheus_client.parser import text_string_to_metric_families

Snapshot = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(base: str) -> Snapshot:
    """Every sample of ``http://<base>/metrics`` (the server must allow this client: PHASE10_METRICS_ALLOW)."""
    text = httpx.get(f"http://{base}/metrics", timeout=10).raise_for_status().text
    return {(s.name, tuple(sorted(s.labels.items()))): float(s.value)
            for family in text_string_to_metric_families(text) for s in family.samples}


def _delta(before: Snapshot, after: Snapshot, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    return {labels: value - before.get((n, labels), 0.0) for (n, labels), value in after.items() if n == name}


def total(before: Snapshot, after: Snapshot, name: str) -> float:
    return sum(_delta(before, after, name).values())


def quantile(before: Snapshot, after: Snapshot, histogram: str, q: float) -> float:
    """The ``q`` quantile (seconds) of the observations between the snapshots, over all label values."""
    buckets: dict[float, float] = defaultdict(float)
    for labels, count in _delta(before, after, f"{histogram}_bucket").items():
        buckets[float(dict(labels)["le"])] += count
    bounds = sorted(buckets)
    if not bounds or buckets[bounds[-1]] <= 0:
        return math.nan
    rank, lower, below = q * buckets[bounds[-1]], 0.0, 0.0
    for bound in bounds:
        if buckets[bound] >= rank:
            if math.isinf(bound):
                return lower
            return lower + (bound - lower) * (rank - below) / max(buckets[bound] - below, 1e-12)
        lower, below = bound, buckets[bound]
    return lower


def report(before: Snapshot, after: Snapshot) -> None:
    accepted = total(before, after, "phase10_commands_accepted_total")
    refused = total(before, after, "phase10_commands_refused_total")
    wakeups = total(before, after, "phase10_fanout_wakeups_total")
    slow = total(before, after, "phase10_fanout_slow_total")

    def ms(histogram: str) -> str:
        p50, p99 = (1000 * quantile(before, after, histogram, q) for q in (0.5, 0.99))
        return f"p50 {p50:.1f} ms, p99 {p99:.1f} ms"

    print(f"server /metrics: {accepted:.0f} commands accepted, {refused:.0f} refused; arrival -> commit "
          f"{ms('phase10_command_commit_seconds')}; arrival -> last socket {ms('phase10_command_fanout_seconds')}; "
          f"fan-out slow path {100 * slow / wakeups if wakeups else 0:.1f}% of {wakeups:.0f} wake-ups; "
          f"NOTIFY round trip {ms('phase10_notify_round_trip_seconds')}")
    print(f"server stalls: {stalls(before, after)}")


def stalls(before: Snapshot, after: Snapshot) -> str:
    """Collections per generation (count, total and longest pause) and the loop lag, between the snapshots."""
    parts = []
    for generation in ("0", "1", "2"):
        labels = (("generation", generation),)
        count = (after.get(("phase10_gc_pause_seconds_count", labels), 0.0)
                 - before.get(("phase10_gc_pause_seconds_count", labels), 0.0))
        seconds = (after.get(("phase10_gc_pause_seconds_sum", labels), 0.0)
                   - before.get(("phase10_gc_pause_seconds_sum", labels), 0.0))
        cpu = (after.get(("phase10_gc_cpu_seconds_total", labels), 0.0)
               - before.get(("phase10_gc_cpu_seconds_total", labels), 0.0))
        longest = after.get(("phase10_gc_pause_max_seconds", labels), 0.0)
        parts.append(f"gen {generation}: {count:.0f} x, {1000 * seconds:.0f} ms ({1000 * cpu:.0f} ms CPU), "
                     f"max so far {1000 * longest:.1f} ms")
    lag = (f"loop lag p99 {1000 * quantile(before, after, 'phase10_loop_lag_seconds', 0.99):.1f} ms, max so far "
           f"{1000 * after.get(('phase10_loop_lag_max_seconds', ()), 0.0):.1f} ms")
    return f"GC {'; '.join(parts)}; {lag}"
