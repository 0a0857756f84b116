"""The installable web app: the service worker at the site root (scope ``/``), the web app manifest and the
offline page the service worker shows when the connection is gone (docs/protocol.md, "Installable app")."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from . import i18n
from .pages import STATIC_DIR, TEMPLATES

router = APIRouter(include_in_schema=False)


@router.get("/sw.js")
def service_worker() -> FileResponse:
    """``static/sw.js`` served from the root, so its scope is the whole site; never cached stale (a browser
    checks for a new worker on each navigation anyway)."""
    return FileResponse(STATIC_DIR / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@router.get("/manifest.webmanifest")
def manifest() -> FileResponse:
    """The web app manifest: name, icons, ``display: standalone`` (a table opens full screen from the home
    screen)."""
    return FileResponse(STATIC_DIR / "manifest.webmanifest", media_type="application/manifest+json")


@router.get("/offline", response_class=HTMLResponse)
def offline(request: Request) -> HTMLResponse:
    """A self-contained page (inline style, no script) saying the connection is gone; the service worker
    keeps a copy in the browser's language and shows it for a page that cannot load."""
    lang = i18n.negotiate(request.cookies.get("lang"), request.headers.get("accept-language"))

    def t(key: str, **params: object) -> str:
        return i18n.translate(lang, key, **params)

    return TEMPLATES.TemplateResponse(request, "offline.html", {"request": request, "lang": lang, "t": t})
