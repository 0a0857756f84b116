"""Rematch by consent over REST (docs/protocol.md, "Rematch"): offer, answer, start without everyone."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from app.services.rematch import Rematches

from .deps import SeatToken
from .routes import ERRORS
from .schemas import RequestBody, TableInfo

router = APIRouter(prefix="/api", responses=ERRORS)


class RematchIn(RequestBody):
    options: dict[str, Any] | None = Field(None, description="host only: the next game's engine options")


class AnswerIn(RequestBody):
    accept: bool


def _rematches(request: Request) -> Rematches:
    rematches: Rematches = request.app.state.rematches
    return rematches


@router.post("/tables/{table_id}/rematch", response_model=TableInfo)
def offer(table_id: str, request: Request, token: SeatToken, body: RematchIn | None = None) -> Any:
    """A player of the finished game offers the next game (and accepts it); the host may set its options.
    Dealt when every human player accepted."""
    return _rematches(request).offer(table_id, token, None if body is None else body.options)


@router.post("/tables/{table_id}/rematch/answer", response_model=TableInfo)
def answer(table_id: str, body: AnswerIn, request: Request, token: SeatToken) -> Any:
    """Accept or decline the open offer."""
    return _rematches(request).answer(table_id, token, body.accept)


@router.post("/tables/{table_id}/rematch/start", response_model=TableInfo)
def start(table_id: str, request: Request, token: SeatToken) -> Any:
    """Host: deal the next game now with those who accepted (a new seating)."""
    return _rematches(request).start(table_id, token)
