"""Turn alerts that reach a closed tab: Web Push (RFC 8030) with VAPID (RFC 8292), off the command path.

``PushService`` is a ``TableExtension`` of the game service (registered in ``app.main.create_app``):

* ``after_commit`` only queues the table id (thread-safe, O(1)); a worker thread reads the game afterwards;
* a seat that *becomes* awaited (awaited now, not awaited before this version: R-6 turn order, and every seat
  the engine awaits at once, e.g. offers) gets one push on each of its subscriptions, unless a page of that
  seat is visible (the page reports its visibility over the socket: ``Hub.visible``, across processes);
* with a turn timer running, an awaited seat gets one reminder ``reminder_lead`` before its time runs out
  (``app.autoplay.runner``'s ``table_timer``: the same deadline the bots act on), unless a page of it is visible;
* sends run in a small thread pool (``pywebpush`` encrypts, ``py_vapid`` signs, ``push_endpoints`` checks the
  endpoint again and sends, never to a private address, never following a redirect); a push service answering
  404 or 410 (the subscription expired or was revoked) gets that subscription deleted, as does an endpoint of
  a form the server refuses.

No push carries a card, a hand or anything else from a view: only the table id, the rule set, a "your turn"
text in the subscriber's language and the table's URL (C-9). Which subscription was alerted for which turn is
claimed with one conditional UPDATE (``turn_key`` / ``reminder_key``), so two processes that both notice a turn
send it once.
"""

from __future__ import annotations

import base64
import binascii
import heapq
import json
import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, cast

from sqlalchemy import Table, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app import metrics
from app.i18n import LANGUAGES, translate
from app.persistence.commands import read_commands
from app.persistence.db import Database, database_unavailable
from app.persistence.models import Game, Seat
from app.persistence.push import PushKey, PushSubscription
from app.rules.core.ruleset import JSONDict
from app.settings import Settings

from .errors import ServiceError
from .games import GameRef, GameService
from .push_endpoints import Endpoint, EndpointRefused, PushEndpoints

log = logging.getLogger("phase10.push")

MAX_SUBSCRIPTIONS_PER_SEAT = 5
# Which tables have a subscription at all (the check of any other table stops there, and commands at it cost the
# worker nothing): one query for all tables, made again when this old. A subscription stored by this process counts
# at once, one stored by another process within this time.
UNSUBSCRIBED_SECONDS = 10.0
_SUBSCRIPTIONS = cast(Table, PushSubscription.__table__)
_SEATS = cast(Table, Seat.__table__)
_SUBSCRIBED_TABLES = (select(_SEATS.c.table_id)
                      .select_from(_SUBSCRIPTIONS.join(_SEATS, _SEATS.c.id == _SUBSCRIPTIONS.c.seat_id)).distinct())
_STOP = object()
# A reminder that could not be sent, or a look at a table that could not be made (the turn push and the reminders
# it plans), because the database was unreachable is tried again after this long.
REMINDER_RETRY_SECONDS = 2.0


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_key_of(vapid: Any) -> str:
    """The application server key a browser subscribes with: the uncompressed P-256 point, base64url."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return b64url(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def load_vapid(db: Database, settings: Settings) -> Any:
    """The server's VAPID key: from ``PHASE10_VAPID_PRIVATE_KEY`` (PEM or raw base64url), else the one kept in
    the database, made on first start (two processes starting at once agree: the second insert loses).
    ``py_vapid`` and ``cryptography`` are imported here, not with the module: they cost a server ~8 MB of memory,
    and most servers load the key only for their first push (``PushService``)."""
    from py_vapid import Vapid

    if settings.vapid_private_key:
        return Vapid.from_string(settings.vapid_private_key)
    with db.read() as s:
        row = s.get(PushKey, 1)
    if row is None:
        vapid = Vapid()
        vapid.generate_keys()
        try:
            with db.write() as s:
                s.add(PushKey(id=1, private_key=vapid.private_pem().decode("ascii"), public_key=public_key_of(vapid)))
            log.info("VAPID key pair generated")
            return vapid
        except IntegrityError:
            with db.read() as s:
                row = s.get(PushKey, 1)
            assert row is not None
    return Vapid.from_pem(row.private_key.encode("ascii"))


@dataclass(frozen=True)
class Target:
    """One subscription to alert (plain values, read in the worker's session)."""

    id: int
    seat_id: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str


class TurnTimer(Protocol):
    """A running turn timer (``app.autoplay.runner.TableTimer``): when it ends, its length, the seats it skips."""

    @property
    def end(self) -> datetime: ...
    @property
    def seconds(self) -> float: ...
    @property
    def off_clock(self) -> frozenset[int]: ...


TimerOf = Callable[[Session, str, GameRef], TurnTimer | None]
Sender = Callable[[Target, JSONDict], int]


def check_subscription(endpoint: Any, p256dh: Any, auth: Any, endpoints: PushEndpoints) -> None:
    """A subscription as a browser's ``PushSubscription.toJSON()`` gives it: an endpoint the server may send to
    (``PushEndpoints.check``: https on port 443 at a known push service or a host with public addresses only),
    a P-256 public key (65 bytes) and a 16-byte secret."""
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= 1024:
        raise ServiceError(422, "invalid_subscription", "endpoint must be a URL of at most 1024 characters",
                           field="endpoint")
    try:
        endpoints.check(endpoint)
    except EndpointRefused as err:
        raise ServiceError(422, "invalid_subscription", err.message, field="endpoint") from err
    for name, value, size in (("p256dh", p256dh, 65), ("auth", auth, 16)):
        try:
            raw = b64url_decode(value) if isinstance(value, str) and len(value) <= 128 else b""
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) != size or (name == "p256dh" and raw[0] != 4):
            raise ServiceError(422, "invalid_subscription", f"keys.{name} is not a valid base64url key",
                               field=f"keys.{name}")


def reminder_lead(seconds: float, settings: Settings) -> float:
    """How long before a timer of ``seconds`` runs out its reminder goes: a fraction of it, at most a cap."""
    return min(seconds * settings.push_reminder_fraction, settings.push_reminder_max_seconds)


class PushService:
    """Push subscriptions per seat and the worker that sends turn alerts and reminders."""

    def __init__(self, service: GameService, settings: Settings,
                 visible: Callable[[str], set[int]] = lambda _table_id: set(),
                 timer: TimerOf | None = None, sender: Sender | None = None) -> None:
        self.service = service
        self.db = service.db
        self.settings = settings
        self.visible = visible
        self.timer = timer
        self.sender: Sender = sender or self._webpush
        self.endpoints = PushEndpoints(settings)
        self.vapid: Any = None  # the signing key, loaded by the first send (or ``start``, for a configured key)
        self._vapid_lock = threading.Lock()
        self._public_key = ""
        self._queue: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None
        # game id -> (version, awaited engine seats) as this process last saw them
        self._awaited: OrderedDict[int, tuple[int, frozenset[int]]] = OrderedDict()
        # reminders: (due, table id, game id, version, seat id), and the keys already scheduled
        self._reminders: list[tuple[datetime, str, int, int, int]] = []
        self._scheduled: set[tuple[int, int, int]] = set()
        # table id -> (monotonic time, alert, visible seats): a look that failed because the database was away,
        # made again then (only the worker thread reads and writes it)
        self._retry: dict[str, tuple[float, bool, frozenset[int]]] = {}
        # The tables with a subscription (``_SUBSCRIBED_TABLES``), and the monotonic time until which that holds.
        # Replaced, never changed in place: the loop and request threads read it while the worker reads again.
        self._subscribed: frozenset[str] = frozenset()
        self._subscribed_until = 0.0

    # -- lifecycle -------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the worker and resume the reminders of running games. A key of ``PHASE10_VAPID_PRIVATE_KEY`` is
        loaded (checked) here; the one kept in the database is read (or made) when first needed: its public half
        by ``public_key``, its private half by the first send."""
        if self.settings.vapid_private_key:
            self._signing_key()
        self._pool = ThreadPoolExecutor(4, thread_name_prefix="phase10-push")
        self._thread = threading.Thread(target=self._run, name="phase10-push-worker", daemon=True)
        self._thread.start()
        for table_id in self._subscribed_tables():
            self._queue.put((table_id, False, frozenset()))

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join(timeout=5)
            self._thread = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _subscribed_tables(self) -> list[str]:
        with self.db.read() as s:
            return list(s.scalars(
                select(Game.table_id).join(Seat, Seat.table_id == Game.table_id)
                .join(PushSubscription, PushSubscription.seat_id == Seat.id)
                .where(Game.status == "playing").distinct()))

    # -- the service's TableExtension hooks ------------------------------------------------------------
    def table_extras(self, s: Session, table_id: str, positions: dict[int, int], game: Game | None) -> JSONDict:
        return {}

    def decorate_views(self, s: Session, table_id: str, game: GameRef, views: list[JSONDict]) -> None:
        return None

    def after_commit(self, table_id: str, version: int) -> None:
        """A command or lobby change was committed: note which seats have a visible page now (the moment the
        turn changed) and look at the table later, in the worker."""
        if self._thread is None or (table_id not in self._subscribed and self._subscribed_until > time.monotonic()):
            return
        self._queue.put((table_id, True, frozenset(self.visible(table_id))))

    def poke(self, table_id: str) -> None:
        """Look at ``table_id`` again without alerting (a subscription changed): remember who is awaited now
        and schedule the reminders."""
        if self._thread is not None:
            self._queue.put((table_id, False, frozenset()))

    # -- subscriptions ---------------------------------------------------------------------------------
    def subscribe(self, table_id: str, token: str | None, endpoint: Any, p256dh: Any, auth: Any,
                  lang: str | None) -> JSONDict:
        """Store (or refresh) this browser's subscription for the token's seat."""
        check_subscription(endpoint, p256dh, auth, self.endpoints)
        lang = lang if lang in LANGUAGES else "en"
        with self.db.write() as s:
            table = self.service.repo.table(s, table_id)
            viewer = self.service.repo.seated(s, table, token)
            assert viewer.seat_id is not None
            row = s.scalar(select(PushSubscription).where(PushSubscription.seat_id == viewer.seat_id,
                                                          PushSubscription.endpoint == endpoint))
            if row is None:
                s.add(PushSubscription(seat_id=viewer.seat_id, endpoint=endpoint, p256dh=p256dh, auth=auth,
                                       lang=lang))
                s.flush()
                ids = list(s.scalars(select(PushSubscription.id).where(PushSubscription.seat_id == viewer.seat_id)
                                     .order_by(PushSubscription.id.desc())))
                if len(ids) > MAX_SUBSCRIPTIONS_PER_SEAT:  # the oldest go
                    s.execute(delete(PushSubscription).where(
                        PushSubscription.id.in_(ids[MAX_SUBSCRIPTIONS_PER_SEAT:])))
            else:
                row.p256dh, row.auth, row.lang = p256dh, auth, lang
        self._subscribed = self._subscribed | {table_id}
        self.poke(table_id)
        return {"subscribed": True}

    def unsubscribe(self, table_id: str, token: str | None, endpoint: Any) -> JSONDict:
        """Forget this browser's subscription for the token's seat (no error if it was not stored)."""
        if not isinstance(endpoint, str):
            raise ServiceError(422, "invalid_subscription", "endpoint must be a string", field="endpoint")
        with self.db.write() as s:
            table = self.service.repo.table(s, table_id)
            viewer = self.service.repo.seated(s, table, token)
            s.execute(delete(PushSubscription).where(PushSubscription.seat_id == viewer.seat_id,
                                                     PushSubscription.endpoint == endpoint))
        return {"subscribed": False}

    def subscription_count(self, seat_ids: list[int]) -> int:
        with self.db.read() as s:
            return len(list(s.scalars(select(PushSubscription.id).where(PushSubscription.seat_id.in_(seat_ids)))))

    # -- the worker --------------------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            waits = [(self._reminders[0][0] - datetime.now(UTC)).total_seconds()] if self._reminders else []
            waits += [at - time.monotonic() for at, _, _ in self._retry.values()]
            wait = max(0.0, min(waits)) if waits else None
            try:
                item = self._queue.get(timeout=wait)
            except queue.Empty:
                item = None
            tables: dict[str, tuple[bool, frozenset[int]]] = {}
            for table_id, (at, alert, visible) in list(self._retry.items()):  # looks the database was away for
                if at <= time.monotonic():
                    del self._retry[table_id]
                    tables[table_id] = (alert, visible)
            while item is not None:
                if item is _STOP:
                    return
                table_id, alert, visible = item
                known = tables.get(table_id, (False, frozenset()))
                tables[table_id] = (known[0] or alert, known[1] | visible)
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    item = None
            for table_id, (alert, visible) in tables.items():
                try:
                    self.check(table_id, alert, visible)
                except Exception as err:
                    if not database_unavailable(err):
                        log.exception("push check failed", extra={"table_id": table_id})
                        continue
                    # The database is away: look again shortly (the turn push and the reminders it plans).
                    log.warning("push check postponed: %s", err, extra={"table_id": table_id})
                    _, was_alert, was_visible = self._retry.get(table_id, (0.0, False, frozenset()))
                    self._retry[table_id] = (time.monotonic() + REMINDER_RETRY_SECONDS, alert or was_alert,
                                             visible | was_visible)
            try:
                self._due_reminders()
            except Exception:
                log.exception("push reminders failed")

    def check(self, table_id: str, alert: bool = True, seen_visible: frozenset[int] = frozenset()) -> None:
        """Alert the seats of ``table_id`` that became awaited with no visible page (``alert``); schedule
        reminders. ``seen_visible``: seats with a visible page when the commands since the last check were
        committed (a seat that was watching when its turn came is not alerted because it looked away since)."""
        alerts: list[tuple[Target, JSONDict]] = []
        if table_id not in self._tables_with_subscriptions():  # the usual table
            return
        with self.db.read() as s:
            game = self.service.repo.game(s, table_id)
            if game is None or game.status != "playing":
                return
            seat_ids = [entry["seat_id"] for entry in game.seats]
            targets = self._targets(s, seat_ids)
            if not targets:  # subscriptions of seats no longer in the game: not looked at until the next read
                self._subscribed = self._subscribed - {table_id}
                return
            ruleset = self.service.repo.ruleset(game.ruleset)
            awaited = frozenset(ruleset.awaited(self.service.repo.state(s, ruleset, game)))
            newly = self._became_awaited(s, ruleset, game, awaited)
            self._remember(game.id, game.version, awaited)
            visible = seen_visible | self.visible(table_id)
            ref = GameRef.of(game)
            for seat in sorted(newly) if alert else ():
                seat_id = seat_ids[seat]
                if seat_id in visible:
                    continue
                for target in targets.get(seat_id, ()):
                    alerts.append((target, self._payload("turn", table_id, game.ruleset, target.lang)))
            timer = self.timer(s, table_id, ref) if self.timer is not None else None
            if timer is not None:
                due = timer.end - timedelta(seconds=reminder_lead(timer.seconds, self.settings))
                for seat in awaited:
                    seat_id = seat_ids[seat]
                    scheduled = (game.id, game.version, seat_id)
                    if seat_id in targets and seat_id not in timer.off_clock and scheduled not in self._scheduled:
                        self._scheduled.add(scheduled)
                        heapq.heappush(self._reminders, (due, table_id, game.id, game.version, seat_id))
        key = f"{game.id}:{game.version}"
        for target, payload in alerts:
            if self._claim(target.id, "turn_key", key):
                self._submit(target, payload)

    def _tables_with_subscriptions(self) -> frozenset[str]:
        """The tables with a subscription, read again if the last read is ``UNSUBSCRIBED_SECONDS`` old."""
        if self._subscribed_until <= time.monotonic():
            before = self._subscribed
            with self.db.peek() as s:
                found = frozenset(s.connection().execute(_SUBSCRIBED_TABLES).scalars())
            self._subscribed = found | (self._subscribed - before)  # with what ``subscribe`` added meanwhile
            self._subscribed_until = time.monotonic() + UNSUBSCRIBED_SECONDS
        return self._subscribed

    def _became_awaited(self, s: Session, ruleset: Any, game: Game, awaited: frozenset[int]) -> frozenset[int]:
        """The seats of ``awaited`` (awaited at ``game``'s version) that were not awaited all along since this
        process last looked (else since the previous version): their turn came (R-6). Every command in between
        is applied to the state of that version (a snapshot plus commands, or a replay: C-10), so a turn that
        went round the table between two looks is not missed."""
        known = self._awaited.get(game.id)
        if known is not None and known[0] == game.version:
            return frozenset()
        if known is not None and known[0] < game.version:
            since = known[0]
        elif game.version == 0:
            return awaited
        else:
            since = game.version - 1
        seats = frozenset(range(len(game.seats)))
        state = self.service.repo.state(s, ruleset,
                                        GameRef(game.id, since, game.status, game.ruleset, list(game.seats)))
        away = seats - frozenset(ruleset.awaited(state))  # not awaited at some moment since
        for c in read_commands(s, game.id, since, game.version - 1):
            state, _ = ruleset.apply(state, c.seat, ruleset.parse_command(c.command))
            away |= seats - frozenset(ruleset.awaited(state))
        return awaited & away

    def _remember(self, game_id: int, version: int, awaited: frozenset[int]) -> None:
        self._awaited[game_id] = (version, awaited)
        self._awaited.move_to_end(game_id)
        while len(self._awaited) > 10_000:
            self._awaited.popitem(last=False)

    def _targets(self, s: Session, seat_ids: list[int]) -> dict[int, list[Target]]:
        rows = s.scalars(select(PushSubscription).where(PushSubscription.seat_id.in_(seat_ids))
                         .order_by(PushSubscription.id))
        out: dict[int, list[Target]] = {}
        for row in rows:
            out.setdefault(row.seat_id, []).append(
                Target(row.id, row.seat_id, row.endpoint, row.p256dh, row.auth, row.lang))
        return out

    def _claim(self, subscription_id: int, column: str, key: str) -> bool:
        """Mark the subscription alerted for ``key``; ``False`` if it already was (by any process)."""
        field = getattr(PushSubscription, column)
        with self.db.write() as s:
            moved = s.execute(update(PushSubscription)
                              .where(PushSubscription.id == subscription_id, or_(field.is_(None), field != key))
                              .values({column: key}))
            return bool(getattr(moved, "rowcount", 0) == 1)

    def _due_reminders(self) -> None:
        now = datetime.now(UTC)
        while self._reminders and self._reminders[0][0] <= now:
            _, table_id, game_id, version, seat_id = heapq.heappop(self._reminders)
            self._scheduled.discard((game_id, version, seat_id))
            try:
                self._remind(table_id, game_id, version, seat_id)
            except Exception as err:
                if not database_unavailable(err):
                    raise
                # The database is away: the reminder goes again shortly (it is sent once the turn is still on).
                log.warning("push reminder postponed: %s", err, extra={"table_id": table_id})
                self._scheduled.add((game_id, version, seat_id))
                heapq.heappush(self._reminders, (now + timedelta(seconds=REMINDER_RETRY_SECONDS), table_id, game_id,
                                                 version, seat_id))
                return

    def _remind(self, table_id: str, game_id: int, version: int, seat_id: int) -> None:
        """The reminder of a seat still awaited at the same version (nobody moved since) and not watching."""
        with self.db.read() as s:
            game = self.service.repo.game(s, table_id)
            if game is None or (game.id, game.version, game.status) != (game_id, version, "playing"):
                return
            targets = self._targets(s, [seat_id]).get(seat_id, [])
        if seat_id in self.visible(table_id):
            return
        for target in targets:
            if self._claim(target.id, "reminder_key", f"{game_id}:{version}"):
                self._submit(target, self._payload("reminder", table_id, game.ruleset, target.lang))

    # -- sending -----------------------------------------------------------------------------------------
    @staticmethod
    def _payload(kind: str, table_id: str, ruleset: str, lang: str) -> JSONDict:
        """What a push carries: no card, no hand, nothing from a view (C-9)."""
        title = translate(lang, f"ruleset.{ruleset}.title")
        return {"type": kind, "table_id": table_id, "ruleset": ruleset,
                "title": translate(lang, "app.title"),
                "body": translate(lang, "push.reminder" if kind == "reminder" else "push.turn", ruleset=title),
                "url": f"/tables/{table_id}", "tag": f"turn-{table_id}"}

    def _submit(self, target: Target, payload: JSONDict) -> None:
        if self._pool is None:  # not started (a direct ``check``): send now
            self._deliver(target, payload)
        else:
            self._pool.submit(self._deliver, target, payload)

    def _deliver(self, target: Target, payload: JSONDict) -> None:
        try:
            status = self.sender(target, payload)
        except EndpointRefused as err:  # where its host resolves to now, or a form stored before the check
            metrics.PUSH_FAILED.labels("refused").inc()
            log.warning("push endpoint refused: %s", err.message)
            if err.lasting:
                with self.db.write() as s:
                    s.execute(delete(PushSubscription).where(PushSubscription.id == target.id))
            return
        except Exception:
            metrics.PUSH_FAILED.labels("error").inc()
            log.exception("push send failed")
            return
        if status in (404, 410):  # the subscription expired or was revoked
            metrics.PUSH_FAILED.labels("expired").inc()
            with self.db.write() as s:
                s.execute(delete(PushSubscription).where(PushSubscription.id == target.id))
            log.info("push subscription removed (%s)", status)
        elif status >= 300:
            metrics.PUSH_FAILED.labels(str(status)).inc()
            log.warning("push service answered %s", status)
        else:
            metrics.PUSH_SENT.inc()

    @property
    def public_key(self) -> str:
        """The VAPID public key browsers subscribe with: as stored with the key, else of the loaded (or made) key."""
        with self._vapid_lock:
            if not self._public_key and not self.settings.vapid_private_key:
                with self.db.read() as s:
                    row = s.get(PushKey, 1)
                    self._public_key = "" if row is None else row.public_key
            if not self._public_key:
                if self.vapid is None:
                    self.vapid = load_vapid(self.db, self.settings)
                self._public_key = public_key_of(self.vapid)
            return self._public_key

    def _signing_key(self) -> Any:
        """The VAPID key, loaded on the first send when ``start`` did not need it (any sender thread)."""
        with self._vapid_lock:
            if self.vapid is None:
                self.vapid = load_vapid(self.db, self.settings)
            return self.vapid

    def _webpush(self, target: Target, payload: JSONDict) -> int:
        """Encrypt (aes128gcm, RFC 8291) and sign (VAPID, RFC 8292) one message and POST it through
        ``PushEndpoints.post`` (the endpoint checked again, no redirect); the push service's status."""
        # Imported on the first send, in a sender thread: pywebpush pulls in aiohttp and requests (over a second
        # of a server's start on a loaded machine), which most servers never need.
        from pywebpush import WebPusher

        def message(endpoint: Endpoint) -> tuple[bytes, dict[str, str]]:
            claims = {"sub": self.settings.vapid_subject, "aud": f"{endpoint.scheme}://{endpoint.netloc}",
                      "exp": int(time.time()) + 12 * 60 * 60}
            subscription = {"endpoint": target.endpoint, "keys": {"p256dh": target.p256dh, "auth": target.auth}}
            body = WebPusher(subscription).encode(json.dumps(payload).encode(), "aes128gcm")["body"]
            headers = {**self._signing_key().sign(claims), "Content-Encoding": "aes128gcm",
                       "TTL": str(self.settings.push_ttl_seconds), "Urgency": "high"}
            return bytes(body), headers

        return self.endpoints.post(target.endpoint, message)
