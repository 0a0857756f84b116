"""Web Push end to end: the server signs (VAPID, ES256) and encrypts (aes128gcm) turn alerts to a push service on
loopback (``push_receiver.PushReceiver``), which checks the signature against the server's public key and decrypts
each message as the browser would.

A push goes when a seat becomes awaited (R-6 turn order) and no page of it is visible; none while its page is
visible; a reminder before a turn timer runs out; a 410 from the push service removes the subscription; no push
carries a card (C-9)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app import metrics
from app.autoplay.settings import BotSettings
from app.main import create_app
from app.persistence.push import PushSubscription
from app.services.push import PushService, reminder_lead
from app.settings import Settings
from app.web.i18n import translate
from tests.server_helpers import Table, bearer, command_body, new_table, pick, server_game
from tests.services.push_receiver import PushReceiver


def _client(settings: Settings, receiver: PushReceiver, bots: BotSettings | None = None) -> TestClient:
    app = create_app(settings.model_copy(update={"push_allow_http": True}), bot_settings=bots)
    return TestClient(app)


@pytest.fixture()
def client(settings: Settings, receiver: PushReceiver) -> Iterator[TestClient]:
    with _client(settings, receiver) as c:
        receiver.server_key = c.get("/api/push/key").json()["public_key"]
        yield c


def subscribe(client: TestClient, table: Table, seat: int, receiver: PushReceiver, name: str) -> None:
    body = receiver.browser(name).subscription() | {"lang": "en"}
    r = client.put(f"/api/tables/{table.id}/push", json=body, headers=bearer(table.tokens[seat]))
    assert r.status_code == 200, r.text
    assert r.json() == {"subscribed": True}


def awaited(client: TestClient, table: Table) -> list[int]:
    ruleset, state, _ = server_game(client, table.id)
    return list(ruleset.awaited(state))


def play_until_awaited(client: TestClient, table: Table, seat: int, rnd: random.Random, limit: int = 60) -> int:
    """Play legal commands (for the other seats) until ``seat`` is awaited; the commands played."""
    for done in range(limit):
        if seat in awaited(client, table):
            return done
        chosen = pick(client, table.id, rnd)
        assert chosen is not None
        who, command = chosen
        r = client.post(f"/api/tables/{table.id}/commands", json=command_body(command),
                        headers=bearer(table.tokens[who]))
        assert r.status_code == 200, r.text
    raise AssertionError(f"seat {seat} never became awaited")


def check_payload(client: TestClient, table: Table, payload: dict[str, Any] | None, kind: str) -> None:
    """The message is exactly the table, its rule set and a fixed "your turn" text: no card, no hand, nothing
    from a view (C-9)."""
    title = translate("en", "ruleset.mattel.title")
    assert payload == {
        "type": kind, "table_id": table.id, "ruleset": "mattel", "title": "Phase 10 online",
        "body": translate("en", "push.reminder" if kind == "reminder" else "push.turn", ruleset=title),
        "url": f"/tables/{table.id}", "tag": f"turn-{table.id}"}


def test_push_when_a_seat_becomes_awaited_without_a_visible_page(client: TestClient, receiver: PushReceiver) -> None:
    """R-6: the seat that starts, then the next seat when its turn comes, each get one push (none while the
    seat is still awaited during its own turn)."""
    table = new_table(client, players=2)
    subscribe(client, table, 0, receiver, "host")
    subscribe(client, table, 1, receiver, "guest")
    sent = metrics.PUSH_SENT._value.get()
    assert client.post(f"/api/tables/{table.id}/start", headers=bearer(table.tokens[0])).status_code == 200
    first = awaited(client, table)
    assert len(first) == 1
    names = ["host", "guest"]
    [delivery] = receiver.wait(1)
    assert delivery.problem is None, delivery.problem
    assert delivery.browser == names[first[0]] and delivery.status == 201
    wait_for(lambda: metrics.PUSH_SENT._value.get() == sent + 1)  # counted once sent (/metrics)
    check_payload(client, table, delivery.payload, "turn")
    assert delivery.payload is not None and "Your turn" in delivery.payload["body"]

    other = 1 - first[0]
    played = play_until_awaited(client, table, other, random.Random(3))
    assert played >= 2  # draw and discard at least: the first seat's own turn sent nothing more
    deliveries = receiver.wait(2)
    time.sleep(0.3)
    assert len(receiver.deliveries) == 2, receiver.deliveries
    assert deliveries[1].problem is None and deliveries[1].browser == names[other]
    check_payload(client, table, deliveries[1].payload, "turn")


def test_no_push_while_the_page_is_visible(client: TestClient, receiver: PushReceiver) -> None:
    """A seat whose page is open and visible gets no push; once the page reports itself hidden, it does."""
    table = new_table(client, players=2, start=True)
    starter = awaited(client, table)[0]
    watcher = 1 - starter
    subscribe(client, table, watcher, receiver, "watcher")
    rnd = random.Random(5)
    with client.websocket_connect(f"/ws/tables/{table.id}", headers=bearer(table.tokens[watcher])) as ws:
        assert ws.receive_json()["type"] == "snapshot"
        play_until_awaited(client, table, watcher, rnd)  # visible page: no push
        ws.send_json({"type": "visibility", "visible": False})
        ws.send_json({"type": "ping", "ref": 1})  # handled in order: the visibility is known after the pong
        while ws.receive_json()["type"] != "pong":
            pass
        play_until_awaited(client, table, starter, rnd)
        play_until_awaited(client, table, watcher, rnd)  # hidden page: a push
        [delivery] = receiver.wait(1)
        time.sleep(0.3)
        assert len(receiver.deliveries) == 1, receiver.deliveries
        assert delivery.problem is None and delivery.browser == "watcher"
        check_payload(client, table, delivery.payload, "turn")


def test_a_turn_that_went_round_between_two_looks_is_not_missed(client: TestClient, settings: Settings,
                                                                receiver: PushReceiver) -> None:
    """R-6: the watcher is awaited when the service looks, then plays, the other seat plays, and the watcher is
    awaited again before the next look: that is a new turn (the commands in between are replayed), one alert."""
    table = new_table(client, players=2, start=True)
    watcher = 1 - awaited(client, table)[0]
    rnd = random.Random(7)
    play_until_awaited(client, table, watcher, rnd)
    r = client.put(f"/api/tables/{table.id}/push", headers=bearer(table.tokens[watcher]),
                   json=receiver.browser("w").subscription())
    assert r.status_code == 200
    sent: list[tuple[int, dict[str, Any]]] = []
    # A second service that sees no page (the app's own one sees the watcher's socket and stays quiet).
    looker = PushService(client.app.state.service, settings,  # type: ignore[attr-defined]
                         sender=lambda target, payload: sent.append((target.seat_id, payload)) or 201)
    with client.websocket_connect(f"/ws/tables/{table.id}", headers=bearer(table.tokens[watcher])) as ws:
        assert ws.receive_json()["type"] == "snapshot"
        looker.check(table.id, alert=False)  # remembers: the watcher is awaited
        looker.check(table.id)
        assert sent == []  # same version, nothing new
        play_until_awaited(client, table, 1 - watcher, rnd)
        play_until_awaited(client, table, watcher, rnd)
        looker.check(table.id)
        assert len(sent) == 1 and sent[0][1]["type"] == "turn" and sent[0][1]["table_id"] == table.id
        looker.check(table.id)
        assert len(sent) == 1
    assert receiver.deliveries == []


def test_visibility_must_be_a_boolean(client: TestClient) -> None:
    table = new_table(client, players=2, start=True)
    with client.websocket_connect(f"/ws/tables/{table.id}", headers=bearer(table.tokens[0])) as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "visibility", "visible": "no"})
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "invalid_message"


def test_reminder_before_the_turn_timer_runs_out(settings: Settings, receiver: PushReceiver) -> None:
    """With a 2 s turn timer the awaited seat gets its turn push, then a reminder a quarter of the timer
    before it runs out (and before the stand-in's timeout move)."""
    bots = BotSettings(fast_seconds=2.0, delay_seconds=0.2)
    with _client(settings, receiver, bots) as client:
        receiver.server_key = client.get("/api/push/key").json()["public_key"]
        r = client.post("/api/tables", json={"ruleset": "mattel", "seats": 2, "options": {}, "name": "Host",
                                             "turn_timer": "fast"})
        assert r.status_code == 201, r.text
        data = r.json()
        client.cookies.clear()
        table = Table(data["table_id"], data["join_code"], data["invite_link"], [data["token"]])
        joined = client.post(f"/api/tables/{table.id}/join", json={"name": "P1", "code": table.code})
        client.cookies.clear()
        table.tokens.append(joined.json()["token"])
        for seat in (0, 1):
            subscribe(client, table, seat, receiver, f"s{seat}")
        started = time.monotonic()
        assert client.post(f"/api/tables/{table.id}/start", headers=bearer(table.tokens[0])).status_code == 200
        deliveries = receiver.wait(2, timeout=10)
        # the table's timer off again: a later server (Postgres test database) must not play this game on
        client.put(f"/api/tables/{table.id}/clock", json={"turn_timer": "off", "stand_in": False},
                   headers=bearer(table.tokens[0]))
        assert [d.problem for d in deliveries[:2]] == [None, None]
        first = deliveries[0].browser
        assert [(d.browser, d.payload and d.payload["type"]) for d in deliveries[:2]] == [
            (first, "turn"), (first, "reminder")]
        check_payload(client, table, deliveries[1].payload, "reminder")
        assert "nearly up" in (deliveries[1].payload or {}).get("body", "")
        # due 0.5 s before the 2 s timer ends (a quarter of it); 1 s of slack for a loaded machine
        assert deliveries[1].at - started < 2.0 + 1.0


def test_gone_subscription_is_removed(client: TestClient, receiver: PushReceiver) -> None:
    """A push service answering 410 Gone: the subscription is deleted, the other seat's stays."""
    table = new_table(client, players=2)
    subscribe(client, table, 0, receiver, "gone0")
    subscribe(client, table, 1, receiver, "gone1")
    receiver.browsers["gone0"].status = 410
    receiver.browsers["gone1"].status = 410
    expired = metrics.PUSH_FAILED.labels("expired")._value.get()
    assert client.post(f"/api/tables/{table.id}/start", headers=bearer(table.tokens[0])).status_code == 200
    [delivery] = receiver.wait(1)
    assert delivery.status == 410 and delivery.problem is None
    service = client.app.state.service  # type: ignore[attr-defined]
    end = time.monotonic() + 5
    while True:
        with service.db.read() as s:
            endpoints = set(s.scalars(select(PushSubscription.endpoint).where(
                PushSubscription.endpoint.like(f"{receiver.origin}/push/gone%"))))
        if len(endpoints) == 1 or time.monotonic() > end:
            break
        time.sleep(0.05)
    assert endpoints == {receiver.browsers[("gone0", "gone1")[1 - awaited(client, table)[0]]].endpoint}
    assert metrics.PUSH_FAILED.labels("expired")._value.get() == expired + 1


def test_bad_subscriptions_are_refused(client: TestClient, receiver: PushReceiver, settings: Settings) -> None:
    table = new_table(client, players=2)
    good = receiver.browser("x").subscription()
    url = f"/api/tables/{table.id}/push"
    cases = [
        (good | {"endpoint": "ftp://example.com/x"}, "invalid_subscription", "endpoint"),
        (good | {"keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}}, "invalid_subscription", "keys.p256dh"),
        (good | {"keys": {"p256dh": good["keys"]["p256dh"], "auth": "!!"}}, "invalid_subscription", "keys.auth"),
        ({"endpoint": good["endpoint"]}, "invalid_request", "keys"),
    ]
    for body, code, field in cases:
        r = client.put(url, json=body, headers=bearer(table.tokens[0]))
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == code and r.json()["error"]["field"] == field
    r = client.put(url, json=good)
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    r = client.put(url, json=good, headers=bearer("not-a-token"))
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    r = client.put("/api/tables/nope/push", json=good, headers=bearer(table.tokens[0]))
    assert r.status_code == 404 and r.json()["error"]["code"] == "table_not_found"
    service = client.app.state.service  # type: ignore[attr-defined]
    with service.db.read() as s:
        assert s.scalar(select(PushSubscription).where(PushSubscription.endpoint == good["endpoint"])) is None

    # http endpoints only where allowed (the loopback receiver of these tests)
    with TestClient(create_app(settings)) as strict:
        r = strict.put(url, json=good, headers=bearer(table.tokens[0]))
        assert r.status_code == 422 and r.json()["error"]["field"] == "endpoint"

    assert client.put(url, json=good, headers=bearer(table.tokens[0])).status_code == 200
    assert client.put(url, json=good, headers=bearer(table.tokens[0])).status_code == 200  # idempotent
    r = client.request("DELETE", url, json={"endpoint": good["endpoint"]}, headers=bearer(table.tokens[0]))
    assert r.status_code == 200 and r.json() == {"subscribed": False}
    with service.db.read() as s:
        assert s.scalar(select(PushSubscription).where(PushSubscription.endpoint == good["endpoint"])) is None


def test_the_vapid_key_is_made_once_and_kept(settings: Settings, receiver: PushReceiver) -> None:
    """The key pair is generated on first start and kept in the database: a second server (or a restart)
    signs with the same key, so the browsers' subscriptions stay valid."""
    keys = []
    for _ in range(2):
        with _client(settings, receiver) as c:
            keys.append(c.get("/api/push/key").json()["public_key"])
    assert keys[0] == keys[1] and len(keys[0]) == 87  # 65 bytes, base64url without padding


def test_a_stored_key_is_loaded_with_the_first_push_only(settings: Settings, receiver: PushReceiver) -> None:
    """A server whose key is in the database serves its public half as stored and loads the private key (and
    the cryptography it needs, ~8 MB of memory) only to sign its first push; the push is signed with it."""
    with _client(settings, receiver) as c:
        key = c.get("/api/push/key").json()["public_key"]  # made (or read) here
    with _client(settings, receiver) as c:
        push: PushService = c.app.state.push  # type: ignore[attr-defined]
        assert c.get("/api/push/key").json()["public_key"] == key
        assert push.vapid is None
        receiver.server_key = key
        table = new_table(c, players=2)
        subscribe(c, table, 0, receiver, "host")
        subscribe(c, table, 1, receiver, "guest")
        assert c.post(f"/api/tables/{table.id}/start", headers=bearer(table.tokens[0])).status_code == 200
        [delivery] = receiver.wait(1)
        assert delivery.problem is None and delivery.status == 201, delivery.problem  # signed with the stored key
        assert push.vapid is not None


def test_a_fresh_server_makes_its_key_when_first_asked(tmp_path: Any, settings: Settings,
                                                       receiver: PushReceiver) -> None:
    from app.persistence.db import upgrade

    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    upgrade(url)
    with _client(settings.model_copy(update={"database_url": url}), receiver) as c:
        push: PushService = c.app.state.push  # type: ignore[attr-defined]
        assert push.vapid is None and push._public_key == ""  # nothing made at start
        key = c.get("/api/push/key").json()["public_key"]
        assert len(key) == 87 and push.vapid is not None
        assert c.get("/api/push/key").json()["public_key"] == key


def test_reminder_lead_is_a_quarter_of_the_timer_at_most_an_hour(settings: Settings) -> None:
    """The reminder goes a quarter of the decision's time before it runs out, never more than an hour before:
    30 s -> 7.5 s, 120 s -> 30 s, 1 h -> 15 min, 1 day -> 1 h, 3 days -> 1 h."""
    assert [reminder_lead(s, settings) for s in (30, 120, 3600, 86400, 3 * 86400)] == [7.5, 30, 900, 3600, 3600]


def wait_for(condition: Callable[[], bool], seconds: float = 5) -> None:
    """Poll ``condition`` until it holds (the sender threads count after the delivery is received)."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "condition not met in time"
        time.sleep(0.02)


def test_tables_without_subscriptions_are_found_in_one_query(client: TestClient,
                                                                       settings: Settings) -> None:
    """The worker looks at every table a command changed; which tables have a subscription at all is one small
    query for every table (then none for a while), and a subscription at a table makes it read the game."""
    from tests.realtime.test_hot_path import statements

    service = client.app.state.service  # type: ignore[attr-defined]
    table, other = (new_table(client, players=2, start=True) for _ in range(2))
    looker = PushService(service, settings, sender=lambda target, payload: 201)
    with statements(service) as seen:
        looker.check(table.id)
    assert len(seen) == 1 and "push_subscription" in seen[0], seen
    with statements(service) as seen:
        looker.check(table.id)
        looker.check(other.id)
    assert seen == []  # read a moment ago, for every table
    looker._subscribed_until = 0.0  # as after UNSUBSCRIBED_SECONDS
    with service.db.write() as s:
        seat_id = server_game(client, table.id)[2].seats[0]["seat_id"]
        s.add(PushSubscription(seat_id=seat_id, endpoint="https://push.invalid/x", p256dh="k", auth="a"))
    with statements(service) as seen:
        looker.check(table.id, alert=False)
    assert len(seen) > 1 and any("FROM game" in sql for sql in seen), seen


class Flaky:
    """The service's database, unreachable while ``down`` (every session raises ``OperationalError``)."""

    def __init__(self, db: Any) -> None:
        self.db, self.down = db, True

    def __getattr__(self, name: str) -> Any:
        session = getattr(self.db, name)
        if name not in ("read", "write", "peek"):
            return session

        def opened() -> Any:
            if self.down:
                from sqlalchemy.exc import OperationalError

                raise OperationalError("SELECT ...", {}, Exception("connection refused"))
            return session()
        return opened


def test_a_reminder_due_during_a_database_outage_goes_after_it(client: TestClient,
                                                                         settings: Settings) -> None:
    """The turn is noticed while the database is down (the look fails), and the reminder falls due then: once the
    database is back, the look is made again and the turn push and the reminder both go."""
    import datetime as dt
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Timer:
        end: dt.datetime
        seconds: float = 8.0  # the reminder: a quarter of it (2 s) before the end, so due at once
        off_clock: frozenset[int] = frozenset()

    table = new_table(client, players=2, start=True)
    [seat] = awaited(client, table)
    r = client.put(f"/api/tables/{table.id}/push", headers=bearer(table.tokens[seat]),
                   json=PushReceiver().browser("b").subscription())
    assert r.status_code == 200, r.text
    sent: list[str] = []
    service = client.app.state.service  # type: ignore[attr-defined]
    end = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=2)
    push = PushService(service, settings, timer=lambda s, table_id, ref: Timer(end),
                       sender=lambda target, payload: sent.append(payload["type"]) or 201)
    flaky = Flaky(service.db)
    push.db = flaky  # type: ignore[assignment]
    push._subscribed_tables = lambda: []  # type: ignore[method-assign]  # nothing looked at on start
    push.start()
    try:
        push._queue.put((table.id, True, frozenset()))  # a command committed: the worker looks (and fails)
        time.sleep(1.0)
        assert sent == []
        flaky.down = False
        deadline = time.monotonic() + 8
        while sorted(sent) != ["reminder", "turn"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sorted(sent) == ["reminder", "turn"]
    finally:
        push.stop()
