"""Request dependencies: the service and the seat token (cookie ``p10_seat_<table>`` or Bearer)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.services.games import GameService

bearer = HTTPBearer(auto_error=False, description="the seat token (or the cookie p10_seat_<table_id>)")


def cookie_name(table_id: str) -> str:
    return f"p10_seat_{table_id}"


def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def seat_token(table_id: str, request: Request,
               credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str | None:
    if credentials is not None and credentials.credentials:
        return credentials.credentials
    return request.cookies.get(cookie_name(table_id))


Service = Annotated[GameService, Depends(get_service)]
Token = Annotated[str | None, Depends(seat_token)]
