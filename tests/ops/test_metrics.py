"""``/metrics``: Prometheus text for allowed addresses or the bearer token only; the counters move with what the
server does (one registry per process: tests compare before and after)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app.main import create_app
from app.settings import Settings
from tests.server_helpers import bearer, command_body, new_table, play, server_game

TOKEN = "s3cret-metrics-token"


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample (0 when the series does not exist yet)."""
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return float(s.value)
    return 0.0


@pytest.fixture()
def scraped(settings: Settings) -> Iterator[TestClient]:
    """A server whose metrics the bearer token opens."""
    with TestClient(create_app(settings.model_copy(update={"metrics_token": TOKEN}))) as client:
        yield client


def scrape(client: TestClient) -> str:
    r = client.get("/metrics", headers=bearer(TOKEN))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return r.text


def test_metrics_are_not_public_by_default(client: TestClient) -> None:
    r = client.get("/metrics")
    assert r.status_code == 403 and r.json()["error"]["code"] == "metrics_forbidden"
    assert client.get("/metrics", headers=bearer("guess")).status_code == 403


def test_metrics_with_the_bearer_token_only(scraped: TestClient) -> None:
    assert scraped.get("/metrics").status_code == 403
    assert scraped.get("/metrics", headers=bearer(TOKEN + "x")).status_code == 403
    text = scrape(scraped)
    for name in ("phase10_commands_accepted", "phase10_command_commit_seconds", "phase10_open_sockets",
                 "phase10_games", "phase10_fanout_wakeups", "phase10_notify_round_trip_seconds",
                 "phase10_bot_decisions", "phase10_push_sent", "phase10_chat_messages", "phase10_rate_limited",
                 "process_resident_memory_bytes"):
        assert f"# TYPE {name}" in text, name


@pytest.mark.parametrize(("allow", "client_host", "served"), [
    ("127.0.0.1", "127.0.0.1", True),
    ("10.0.0.0/8, ::1", "10.1.2.3", True),
    ("10.0.0.0/8, ::1", "::1", True),
    ("10.0.0.0/8", "11.0.0.1", False),
    ("", "127.0.0.1", False),
    ("127.0.0.1", "testclient", False),  # not an address at all
])
def test_metrics_for_allowed_addresses(settings: Settings, allow: str, client_host: str, served: bool) -> None:
    app = create_app(settings.model_copy(update={"metrics_allow": allow}))
    with TestClient(app, client=(client_host, 40000)) as client:
        assert client.get("/metrics").status_code == (200 if served else 403)


def test_chat_rate_limits_and_gauges_are_counted(scraped: TestClient) -> None:
    t = new_table(scraped, players=2, start=True)
    before = scrape(scraped)
    r = scraped.post(f"/api/tables/{t.id}/chat", json={"text": "hello"}, headers=bearer(t.tokens[0]))
    assert r.status_code == 201
    r = scraped.post(f"/api/tables/{t.id}/chat", json={"emoji": "🎉"}, headers=bearer(t.tokens[1]))
    assert r.status_code == 201
    refused = 0
    # Wrong join codes from an address of this test only (the per-address limit must not block other tests)
    # until the table's limit answers 429.
    stranger = TestClient(scraped.app, client=(f"10.{random.randrange(256)}.{random.randrange(256)}.7", 40000))
    for i in range(12):
        r = stranger.post(f"/api/tables/{t.id}/join", json={"name": f"X{i}", "code": "wrong"})
        refused += r.status_code == 429
    assert refused > 0
    with scraped.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}") as ws:
        assert ws.receive_json()["type"] in ("snapshot", "update")
        during = scrape(scraped)
        assert sample(during, "phase10_open_sockets") >= 1 and sample(during, "phase10_live_tables") >= 1
    after = scrape(scraped)
    assert sample(after, "phase10_chat_messages_total", kind="text") == sample(
        before, "phase10_chat_messages_total", kind="text") + 1
    assert sample(after, "phase10_chat_messages_total", kind="emoji") == sample(
        before, "phase10_chat_messages_total", kind="emoji") + 1
    codes = {s.labels["code"] for f in text_string_to_metric_families(after) for s in f.samples
             if s.name == "phase10_rate_limited_total"}
    limited = sum(sample(after, "phase10_rate_limited_total", code=c) - sample(before, "phase10_rate_limited_total",
                                                                                code=c) for c in codes)
    assert limited == refused
    assert sample(after, "phase10_games", status="playing") >= 1


def test_commands_accepted_refused_and_latencies_are_measured(scraped: TestClient) -> None:
    t = new_table(scraped, players=2, start=True)
    before = scrape(scraped)
    with scraped.websocket_connect(f"/ws/tables/{t.id}?token={t.tokens[0]}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        accepted = play(scraped, t, 3, seed=4)
        while ws.receive_json().get("version") != accepted:  # the fan-out brought the socket to the last one
            pass
        _, state, game = server_game(scraped, t.id)
        waiting = 1 - game_ruleset(scraped, t.id).awaited(state)[0]
        r = scraped.post(f"/api/tables/{t.id}/commands", json=command_body({"type": "draw", "pile": "draw"}),
                         headers=bearer(t.tokens[waiting]))
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_turn"
        r = scraped.post("/api/tables/nope/commands", json=command_body({"type": "draw", "pile": "draw"}),
                         headers=bearer(t.tokens[0]))
        assert r.status_code == 404
    after = scrape(scraped)

    def delta(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert delta("phase10_commands_accepted_total", ruleset="mattel") == accepted == 3
    assert delta("phase10_command_commit_seconds_count", ruleset="mattel") == accepted
    assert delta("phase10_commands_refused_total", ruleset="mattel", code="not_your_turn") == 1
    # a request to no table is refused when it is authenticated, before it is a command: no command counted
    assert delta("phase10_commands_refused_total", ruleset="unknown", code="table_not_found") == 0
    assert delta("phase10_command_fanout_seconds_count") >= accepted
    assert delta("phase10_fanout_wakeups_total") >= accepted
    assert 0 <= delta("phase10_fanout_slow_total") <= delta("phase10_fanout_wakeups_total")
    assert sample(after, "phase10_command_commit_seconds_sum", ruleset="mattel") > 0


def game_ruleset(client: TestClient, table_id: str) -> Any:
    return server_game(client, table_id)[0]


def test_the_bench_reads_quantiles_between_two_scrapes() -> None:
    """bench/server_metrics.py: only the observations between the snapshots count, interpolated in buckets."""
    from bench.server_metrics import quantile, total

    def snap(counts: dict[str, float], accepted: float) -> dict[Any, float]:
        out: dict[Any, float] = {("h_bucket", (("le", le),)): n for le, n in counts.items()}
        out[("phase10_commands_accepted_total", (("ruleset", "mattel"),))] = accepted
        return out

    before = snap({"0.01": 5, "0.1": 5, "+Inf": 5}, 7)
    after = snap({"0.01": 55, "0.1": 105, "+Inf": 105}, 10)  # 50 new below 10 ms, 50 new in 10-100 ms
    assert quantile(before, after, "h", 0.5) == pytest.approx(0.01)
    assert quantile(before, after, "h", 0.75) == pytest.approx(0.055)
    assert total(before, after, "phase10_commands_accepted_total") == 3


def test_an_arrival_recorded_after_its_fan_out_is_still_observed() -> None:
    """The commit's notification may wake the fan-out before the service records the arrival: the version is
    observed when it is recorded, once; a later game of the table (versions from 0 again) is not."""
    from app.metrics import COMMAND_FANOUT_SECONDS, Arrivals

    def count() -> float:
        return next(s.value for m in COMMAND_FANOUT_SECONDS.collect() for s in m.samples if s.name.endswith("_count"))

    arrivals, start = Arrivals(), count()
    arrivals.put("t", 1, time.perf_counter())
    arrivals.settle("t", 1)
    assert count() == start + 1
    arrivals.settle("t", 2)  # the fan-out of version 2 ran first
    arrivals.put("t", 2, time.perf_counter())
    assert count() == start + 2
    arrivals.settle("t", 0)  # the table's next game
    arrivals.put("t", 1, time.perf_counter())
    assert count() == start + 2
    arrivals.settle("t", 1)
    assert count() == start + 3
