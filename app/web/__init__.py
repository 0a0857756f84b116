"""The browser client's server side: page routes, static files, i18n catalogues, table chat."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from .pages import STATIC_DIR, router


def mount_web(app: FastAPI) -> None:
    """Add the pages and ``/static`` to ``app`` (called once from the app factory)."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
