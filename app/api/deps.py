"""Request dependencies: the service and the seat token (cookie ``p10_seat_<table>`` or Bearer)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.services.games import GameService
from app.services.replays import ReplayAccess

from .schemas import INT_MAX

bearer = HTTPBearer(auto_error=False, description="the seat token (or the cookie p10_seat_<table_id>)")


def cookie_name(table_id: str) -> str:
    return f"p10_seat_{table_id}"


def public_base_url(request: Request) -> str:
    """Where friends reach this server: ``PHASE10_PUBLIC_BASE_URL`` when set, else the address the page was
    opened with (scheme and host as the browser used them; behind a reverse proxy uvicorn takes the scheme
    from ``X-Forwarded-Proto`` of the proxies trusted by ``FORWARDED_ALLOW_IPS``)."""
    configured: str = request.app.state.settings.public_base_url
    return configured.rstrip("/") if configured else str(request.base_url).rstrip("/")


def is_https(request: Request) -> bool:
    """Whether the browser talks to us over HTTPS (directly, or to a trusted proxy that says so)."""
    return request.url.scheme == "https"


def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def seat_token(table_id: str, request: Request,
               credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str | None:
    if credentials is not None and credentials.credentials:
        return credentials.credentials
    return request.cookies.get(cookie_name(table_id))


Service = Annotated[GameService, Depends(get_service)]
ShareToken = Annotated[str | None, Query(min_length=1, max_length=128,
                                         description="the token of a share link of this finished game")]


def replay_reader(table_id: str, number: Annotated[int, Path(ge=-INT_MAX, le=INT_MAX)], service: Service,
                  token: Annotated[str | None, Depends(seat_token)], share: ShareToken = None) -> ReplayAccess:
    """The one check of every route that reads a game's replay (record, steps, record download, analysis): a
    seat of the table (cookie or Bearer), anyone at a spectators' table, or ``?share=`` a share link of that
    finished game (``GameService.replay_access``)."""
    return service.replay_access(table_id, number, token, share)



# Path numbers (seats, game numbers, steps) within the database's integer range.
Number = Annotated[int, Path(ge=-INT_MAX, le=INT_MAX)]
Since = Annotated[int, Query(ge=-INT_MAX, le=INT_MAX, description="the version the client has")]
Token = Annotated[str | None, Depends(seat_token)]
# The granted read of /tables/{table_id}/games/{number}/...: declare ``access: ReplayReader`` in a route.
ReplayReader = Annotated[ReplayAccess, Depends(replay_reader)]
