"""Request dependencies: the service and the seat token (cookie ``p10_seat_<table>`` or Bearer)."""

from __future__ import annotations

import re
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, Path, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BeforeValidator
from starlette.requests import HTTPConnection

from app.services.errors import ServiceError
from app.services.games import GameService, Viewer
from app.services.replays import ReplayAccess
from app.settings import Settings

from .schemas import INT_MAX

bearer = HTTPBearer(auto_error=False, description="the seat token (or the cookie p10_seat_<table_id>)")


def cookie_name(table_id: str) -> str:
    return f"p10_seat_{table_id}"


def link_base(request: Request) -> str:
    """Where friends reach this server, the base of every link it builds (invites, a seat's move to another
    device): ``PHASE10_PUBLIC_BASE_URL`` when set; else the origin of the page that asked, as its browser names
    it in ``Origin`` (set by the browser, which a page cannot change; behind a proxy it is the proxy's address
    and scheme); else none, and the link is relative (a client resolves it against its own address). Never the
    ``Host`` header, which any client can name and a proxy may rewrite."""
    configured: str = request.app.state.settings.public_base_url
    if configured:
        return configured.rstrip("/")
    try:
        origin = urlsplit(request.headers.get("origin", ""))
    except ValueError:  # a broken IPv6 address
        return ""
    if origin.scheme in ("http", "https") and origin.netloc and not origin.path and not origin.query \
            and "@" not in origin.netloc and origin.netloc.isascii() and origin.netloc.isprintable():
        return f"{origin.scheme}://{origin.netloc}"
    return ""


def is_https(request: Request) -> bool:
    """Whether the browser talks to us over HTTPS (directly, or to a trusted proxy that says so)."""
    return request.url.scheme == "https"


def origin_allowed(conn: HTTPConnection, settings: Settings) -> bool:
    """Whether a browser's request (or socket) comes from a page of this server: its ``Origin`` is the server's
    own (its ``Host``, or ``PHASE10_PUBLIC_BASE_URL``) or one of ``PHASE10_WS_ALLOWED_ORIGINS``; without an
    ``Origin``, its ``Sec-Fetch-Site`` (when sent) says ``same-origin``. ``none`` (a request the user started:
    a typed address, a bookmark, another application) is refused too: the server's pages send every write with
    ``fetch``, which says ``same-origin``. Clients that send neither (not browsers) bring their token
    themselves."""
    origin = conn.headers.get("origin")
    if origin is None:
        return conn.headers.get("sec-fetch-site", "same-origin").lower() == "same-origin"
    try:
        parts = urlsplit(origin)
    except ValueError:  # a broken IPv6 address
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    own = {conn.headers.get("host", "").lower(), urlsplit(settings.public_base_url).netloc.lower()} - {""}
    allowed = {o.strip().rstrip("/").lower() for o in settings.ws_allowed_origins.split(",") if o.strip()}
    return parts.netloc.lower() in own or f"{parts.scheme}://{parts.netloc}".lower() in allowed


def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def seat_token(table_id: str, request: Request,
               credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str | None:
    if credentials is not None and credentials.credentials:
        return credentials.credentials
    return request.cookies.get(cookie_name(table_id))


def _acting_token(table_id: str, request: Request, credentials: HTTPAuthorizationCredentials | None) -> str | None:
    """The seat token of a request that changes something: its Bearer token, else its seat cookie, which only this
    server's own pages may send (403 ``cross_origin``)."""
    if credentials is not None and credentials.credentials:
        return credentials.credentials
    token = request.cookies.get(cookie_name(table_id))
    if token and not origin_allowed(request, request.app.state.settings):
        raise ServiceError(403, "cross_origin", "a request with the seat cookie must come from this site's pages")
    return token


def seated_token(table_id: str, request: Request,
                 credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str:
    """The seat token of a request that changes something, checked before its body is looked at (401 before
    422 or 409): 404 ``table_not_found``; 401 ``bad_token`` without a token or with one of no seat here. A
    request authenticated by the seat cookie (no ``Authorization``) must come from this server's own pages
    (``origin_allowed``), else 403 ``cross_origin``: another site's page cannot act with a player's cookie."""
    token = _acting_token(table_id, request, credentials)
    get_service(request).check_seat(table_id, token)
    assert token is not None
    return token


async def seated_viewer(table_id: str, request: Request,
                        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> Viewer:
    """``seated_token``'s check on the event loop (``GameService.seat_on_loop``), for the command route: the
    seat it found."""
    return await get_service(request).seat_on_loop(table_id, _acting_token(table_id, request, credentials))


Service = Annotated[GameService, Depends(get_service)]


def _digits(value: Any) -> Any:
    """A path number as written: an optional minus and ASCII digits (``1.0``, ``+1``, ``1_0`` are not 1)."""
    if isinstance(value, str) and not re.fullmatch(r"-?[0-9]+", value):
        raise ValueError("must be a whole number written with digits")
    return value


# Path numbers (seats, game numbers, steps): digits only, within the database's integer range.
Number = Annotated[int, BeforeValidator(_digits), Path(ge=-INT_MAX, le=INT_MAX)]


def replay_reader(table_id: str, number: Number, service: Service,
                  token: Annotated[str | None, Depends(seat_token)]) -> ReplayAccess:
    """The one check of every route that reads a game's replay at its table (record, steps, record download,
    analysis): a seat of the table (cookie or Bearer) or anyone at a spectators' table
    (``GameService.replay_access``)."""
    return service.replay_access(table_id, number, token)


# The token of a share link in a /shared/{share}/... path.
ShareInPath = Annotated[str, Path(min_length=1, max_length=128, description="the token of a share link")]


def shared_reader(share: ShareInPath, service: Service) -> ReplayAccess:
    """The same read through a share link, ``/api/shared/{share}/...``: the token alone names the one finished
    game (``GameService.share_access``); 401 ``bad_share`` once it is revoked."""
    return service.share_access(share)


Since = Annotated[int, Query(ge=-INT_MAX, le=INT_MAX, description="the version the client has")]
Token = Annotated[str | None, Depends(seat_token)]
# The token of a seat at the table, for requests that change something (``seated_token``).
SeatToken = Annotated[str, Depends(seated_token)]
SeatViewer = Annotated[Viewer, Depends(seated_viewer)]  # ``seated_token``'s check, on the event loop
# The granted read of /tables/{table_id}/games/{number}/...: declare ``access: ReplayReader`` in a route.
ReplayReader = Annotated[ReplayAccess, Depends(replay_reader)]
# The granted read of /shared/{share}/...: a share link's one finished game.
SharedReader = Annotated[ReplayAccess, Depends(shared_reader)]
