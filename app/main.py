"""The application factory: settings -> database -> game service -> realtime hub -> bot runner -> routes.

``create_app()`` builds everything from the environment; tests pass their own settings and a rule set
catalog. The schema is made by ``alembic upgrade head`` (``make run``, the container's start command),
never here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import unquote_plus

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from app import stalls
from app.api import analysis, errors, my_seats, ops, rematch, replays, routes, ws
from app.api.bots import router as bots_router
from app.api.middleware import AddressLimit, BodyLimit, SecurityHeaders, UrlGuard
from app.api.practice import router as practice_router
from app.api.push import router as push_router
from app.api.schemas import Health
from app.autoplay.runner import BotRunner, DutySignal
from app.autoplay.settings import BotSettings
from app.gc_policy import GcPolicy
from app.persistence.db import Database
from app.realtime.backends import MemoryNotifier, PgListener, PgNotifier, tell_owner
from app.realtime.hub import Hub, HubLink
from app.services.analyses import Analyses
from app.services.games import GameService, RulesetCatalog, TableExtension
from app.services.push import PushService
from app.services.rematch import Rematches
from app.services.retention import PruneTask
from app.services.seat_transfer import SeatTransfers
from app.services.security import AttemptCounter
from app.settings import Settings, get_settings
from app.web import mount_web

_EXTRA = ("table_id", "game_id", "version", "seat", "ruleset")


class JsonFormatter(logging.Formatter):
    """One JSON object per line, with the table and game ids when the record has them."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"time": self.formatTime(record), "level": record.levelname,
                               "logger": record.name, "message": record.getMessage()}
        for key in _EXTRA:
            if hasattr(record, key):
                out[key] = getattr(record, key)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out)


# Secrets that travel in URLs: seat tokens (``?token=``, the socket), join codes (``?code=``, invite links) and
# share links (``/shared/{token}``; ``?share=``, their older form).
_SECRET_PARAM = re.compile(r"(?i)\b(token|code|share)=[^&\s\"']*")


# A URL's query in a log line: from its ``?`` to the first space or quote.
_QUERY = re.compile(r"\?([^\s\"']+)")
# A share link's token in a path: ``/shared/{token}`` (the page) and ``/api/shared/{token}/...``.
_SHARED_PATH = re.compile(r"(?i)(/shared/)[^/?\s\"']+")


def _decoded(text: str) -> str:
    """``text`` percent-decoded (``+`` a space) until nothing changes: what a query parser reads, whatever the
    spelling (``%74oken``, ``%2574oken``)."""
    for _ in range(5):
        plain = unquote_plus(text)
        if plain == text:
            break
        text = plain
    return text


def _redact_pair(pair: str) -> str:
    """One ``key=value`` of a query with its value ``[redacted]`` when its key, decoded, is a secret's (any
    case); a pair that decodes to a secret's ``key=value`` (an encoded ``=``) is ``[redacted]`` whole."""
    key, equals, _ = pair.partition("=")
    if equals and _decoded(key).strip().casefold() in ("token", "code", "share"):
        return f"{key}=[redacted]"
    if _SECRET_PARAM.search(_decoded(pair)):
        return "[redacted]"
    return pair


def _redact_query(match: re.Match[str]) -> str:
    return "?" + re.sub(r"[^&;]+", lambda pair: _redact_pair(pair.group(0)), match.group(1))


def _redact(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    return _SHARED_PATH.sub(r"\1[redacted]", _SECRET_PARAM.sub(r"\1=[redacted]", _QUERY.sub(_redact_query, value)))


class RedactSecrets(logging.Filter):
    """Replace the value of every ``token=``, ``code=`` and ``share=`` and the token of every ``/shared/{token}`` path
    in a log line with ``[redacted]``: uvicorn's
    access log and its websocket lines print the request's query, which may hold a seat token, a join code or a
    share link's token. A query's keys are read percent-decoded, in any case (``%74oken=`` is ``token=`` to the
    query parser, and the socket signs in with it: it is redacted like ``token=``). The message and each argument
    are redacted in place, so a formatter that reads the arguments themselves (uvicorn's access formatter unpacks
    client, method, path, version and status) still writes the line."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _redact(arg) for key, arg in record.args.items()}
        return True


def configure_logging(settings: Settings) -> None:
    for name in ("uvicorn.access", "uvicorn.error"):
        server_logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in server_logger.filters):
            server_logger.addFilter(RedactSecrets())
    logger = logging.getLogger("phase10")
    logger.setLevel(settings.log_level.upper())
    if not any(getattr(h, "_phase10", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter() if settings.log_json else logging.Formatter(
            "%(levelname)s %(name)s %(message)s"))
        handler.addFilter(RedactSecrets())
        handler._phase10 = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.propagate = False


def create_app(settings: Settings | None = None, catalog: RulesetCatalog | None = None,
               bot_settings: BotSettings | None = None) -> FastAPI:
    """Build the whole server. The database must already be at ``alembic upgrade head``."""
    settings = settings or get_settings()
    configure_logging(settings)
    db = Database(settings.database_url)
    # The graph, built in dependency order; its cycles are broken by the two small links made first (``HubLink``:
    # the hub fans out through the service, which wakes it, and waits on the Postgres listener, which wakes it too;
    # ``DutySignal``: the push service reads the bot runner's timers, and the runner tells it when it takes a
    # table's duties).
    link = HubLink()
    notifier = PgNotifier(link) if settings.use_pg_hub else MemoryNotifier(link)
    extensions: list[TableExtension] = []  # the service calls them; they act through the service
    service = GameService(db, settings, catalog, notifier=notifier, presence=link.presence, extensions=extensions)
    duty_taken = DutySignal()
    # Bot seats, stand-ins and turn timers: a TableExtension of the service (app/autoplay/runner.py). A command
    # accepted here at a table another process holds tells that process (Postgres hub).
    bots = BotRunner(service, bot_settings or BotSettings(), tell_owner=tell_owner if settings.use_pg_hub else None,
                     on_acquire=duty_taken)

    def take_over(table_ids: list[str]) -> None:
        """Another process stopped: plan the bots, stand-ins and timers of the tables it was running."""
        for table_id in table_ids:
            bots.poke(table_id)

    # The Postgres hub's listener: the other processes' commits, chat and presence (app/realtime/backends.py).
    listener = (PgListener(settings.database_url, link, on_table=service.notified, on_listening=service.forget,
                           on_unwatch=service.forget, on_handoff=take_over, on_duty=bots.owner_told)
                if settings.use_pg_hub else None)
    hub = link.connect(Hub(service.fanout_on_loop, hearing=listener))
    rematches = Rematches(service)  # "Play again" by consent: table info's ``rematch``
    analyses = Analyses(service)  # finished games' analyses, computed by a worker thread (app/analysis)
    pruner = PruneTask(db, settings)
    # Turn alerts by Web Push to seats with no visible page, timer reminders (app/services/push.py).
    push = PushService(service, settings, visible=hub.visible, timer=bots.table_timer)
    duty_taken.listen(push.poke)  # a table's duties taken (over): its reminders are planned here
    extensions += [bots, rematches, push]

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        # Database work runs in threads (asyncio.to_thread); the default pool (CPUs + 4) is too small for
        # many tables waiting on Postgres round trips at once.
        loop.set_default_executor(ThreadPoolExecutor(settings.db_threads, thread_name_prefix="phase10-db"))
        hub.bind(loop)
        stalls.watch_gc()
        loop_lag = stalls.LoopLag()
        loop_lag.start()
        gc_policy = GcPolicy(settings.gc_sweep_seconds)
        hub.start_heartbeat(settings.ws_heartbeat_seconds, settings.ws_idle_timeout_seconds)
        if listener is not None:
            listener.start()
            await asyncio.wait_for(listener.ready.wait(), 10)
        await db.open_hot_pool(settings.hot_pool_size)
        logging.getLogger("phase10").info("server started")
        await bots.start()
        pruner.start()
        await asyncio.to_thread(push.start)
        gc_policy.start()  # last: what start-up built is frozen
        try:
            yield
        finally:
            await asyncio.to_thread(push.stop)
            analyses.close()
            await pruner.stop()
            handed_off = await bots.stop()
            if listener is not None:
                await listener.handoff(handed_off)  # another process goes on with their bots and timers
            await hub.close()
            await db.close_hot_pool()
            await loop_lag.stop()
            await gc_policy.stop()
            if listener is not None:
                await listener.stop()
            db.dispose()
            logging.getLogger("phase10").info("server stopped")

    app = FastAPI(title="Phase 10 online", version="0.1.0", lifespan=lifespan,
                  description="Private Phase 10 tables. Wire protocol: docs/protocol.md.")
    app.state.settings = settings
    app.state.db = db
    app.state.service = service
    app.state.hub = hub
    app.state.bots = bots
    app.state.ws_auth_failures = AttemptCounter(settings.ws_auth_failures_per_address, settings.join_window_seconds)
    app.state.rematches = rematches
    app.state.analyses = analyses
    app.state.seat_transfers = SeatTransfers(service, settings.seat_transfer_minutes)
    app.state.push = push
    errors.install(app)
    app.state.record_uploads = AttemptCounter(settings.record_uploads_per_hour, 3600.0)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes, timeout=settings.http_body_timeout_seconds,
                       total=settings.http_body_total_seconds, paths={"/api/records": settings.max_record_bytes})
    app.add_middleware(UrlGuard)
    app.add_middleware(AddressLimit, limit=settings.http_limit_per_address)
    app.add_middleware(SecurityHeaders)  # outermost: the 413 and every error carry the headers too
    app.include_router(routes.router)
    app.include_router(rematch.router)
    app.include_router(analysis.router)
    app.include_router(my_seats.router)
    app.include_router(ws.router)
    app.include_router(bots_router)
    app.include_router(push_router)
    app.include_router(replays.router)
    app.include_router(practice_router)
    mount_web(app)  # pages + /static
    ops.install(app)  # /readyz, /metrics

    @app.get("/healthz", response_model=Health, responses={503: {"model": Health}})
    def healthz() -> Any:
        """Liveness: the process answers and reaches its database (readiness is ``/readyz``)."""
        try:
            db.ping()
        except Exception:
            return JSONResponse({"status": "unavailable", "database": "down"}, status_code=503)
        return {"status": "ok", "database": "ok"}

    return app


_app: FastAPI | None = None


def __getattr__(name: str) -> Any:
    # ``app.main:app`` for uvicorn, built lazily (once) so importing this module has no side effects.
    global _app
    if name == "app":
        if _app is None:
            _app = create_app()
        return _app
    raise AttributeError(name)
