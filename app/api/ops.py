"""Operations routes: ``/readyz`` (readiness) and ``/metrics`` (Prometheus), outside ``/api``.

``/healthz`` (liveness) stays in ``app.main``. ``/metrics`` is not public: only client addresses in
``PHASE10_METRICS_ALLOW`` or a request with ``Authorization: Bearer <PHASE10_METRICS_TOKEN>`` get it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app import metrics
from app.persistence.db import Database, current_revisions, head_revisions
from app.realtime.hub import Hub
from app.services.stats import game_counts
from app.settings import Settings

from .errors import error_body
from .schemas import Ready

router = APIRouter()

# Database counts behind the games gauges are read at most this often (a scrape every few seconds must not
# count every game each time).
COUNTS_MAX_AGE_SECONDS = 15.0


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def allowed_networks(spec: str) -> list[Network]:
    """``PHASE10_METRICS_ALLOW`` parsed: comma-separated addresses or networks (``10.0.0.0/8``)."""
    return [ipaddress.ip_network(part.strip(), strict=False) for part in spec.split(",") if part.strip()]


def metrics_allowed(request: Request, settings: Settings) -> bool:
    """The bearer token of the settings (compared in constant time), or a client address in the allow list."""
    auth = request.headers.get("authorization", "")
    if settings.metrics_token and auth.lower().startswith("bearer ") and secrets.compare_digest(
            auth[7:].strip().encode(), settings.metrics_token.encode()):
        return True
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in allowed_networks(settings.metrics_allow))


@router.get("/readyz", response_model=Ready, responses={503: {"model": Ready}})
def readyz(request: Request) -> Any:
    """Readiness: 200 only when the database answers and its schema is at the Alembic head."""
    db: Database = request.app.state.db
    try:
        current = current_revisions(db)
    except Exception:
        return JSONResponse({"status": "unavailable", "database": "down", "revision": None}, status_code=503)
    revision = ",".join(sorted(current)) or None
    if current != head_revisions():
        return JSONResponse({"status": "unavailable", "database": "behind", "revision": revision},
                            status_code=503)
    return {"status": "ok", "database": "ok", "revision": revision}


class _Counts:
    """The database counts of the last scrape, refreshed when older than ``COUNTS_MAX_AGE_SECONDS``."""

    def __init__(self) -> None:
        self.at = -COUNTS_MAX_AGE_SECONDS
        self.lock = asyncio.Lock()

    async def refresh(self, db: Database) -> None:
        async with self.lock:
            if time.monotonic() - self.at < COUNTS_MAX_AGE_SECONDS:
                return
            games, waiting = await asyncio.to_thread(game_counts, db)
            for status in ("playing", "finished"):
                metrics.GAMES.labels(status).set(games.get(status, 0))
            metrics.TABLES_WAITING.set(waiting)
            self.at = time.monotonic()


@router.get("/metrics", response_class=Response,
            responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format"},
                       403: {"description": "not an allowed address and no valid bearer token"}})
async def metrics_route(request: Request) -> Response:
    """This process's metrics in the Prometheus text format (app/metrics.py)."""
    settings: Settings = request.app.state.settings
    if not metrics_allowed(request, settings):
        return JSONResponse(error_body("metrics_forbidden", "metrics are served only to configured addresses or "
                                       "with the metrics bearer token"), status_code=403)
    hub: Hub = request.app.state.hub
    sockets = [len(channel.connections) for channel in list(hub.channels.values())]
    metrics.OPEN_SOCKETS.set(sum(sockets))
    metrics.LIVE_TABLES.set(sum(1 for n in sockets if n))
    counts: _Counts = request.app.state.metric_counts
    with contextlib.suppress(Exception):  # the database is down: the process's own metrics still answer
        await counts.refresh(request.app.state.db)
    return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)


def install(app: Any) -> None:
    app.state.metric_counts = _Counts()
    app.include_router(router)
