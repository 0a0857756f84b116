"""The browser client's server side: page routes, static files, i18n catalogues, table chat."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from .chat import router as chat_router
from .pages import STATIC_DIR, router
from .pwa import router as pwa_router


def mount_web(app: FastAPI) -> None:
    """Add the pages, the installable app's routes, the table chat route and ``/static`` to ``app`` (called once
    from the app factory)."""
    app.include_router(router)
    app.include_router(pwa_router)  # service worker, manifest, offline page
    app.include_router(chat_router)
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
