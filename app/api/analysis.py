"""The analysis of a finished game over REST (docs/protocol.md "Analysis"). Thin: ``app/services/analyses.py``."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.services.analyses import Analyses

from .deps import ReplayReader
from .routes import ERRORS

router = APIRouter(prefix="/api", responses=ERRORS)


class MarkOut(BaseModel):
    step: int = Field(description="the replay step (GET .../replay/{step}) that shows the position")
    seat: int
    kind: Literal["missed_laydown", "missed_hit", "fed_next", "turning_point"]
    round: int
    points: int | None


class PlayerCardOut(BaseModel):
    seat: int
    missed_laydowns: int
    missed_hits: int
    missed_hit_points: int
    fed_next: int


class AnalysisOut(BaseModel):
    version: int = Field(description="the analysis format version")
    ruleset: str
    marks: list[MarkOut] = Field(description="sorted by step")
    players: list[PlayerCardOut]


class PendingOut(BaseModel):
    status: Literal["pending"]


def _analyses(request: Request) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


@router.get("/tables/{table_id}/games/{number}/analysis", response_model=AnalysisOut,
            responses={202: {"model": PendingOut, "description": "being computed: ask again shortly"}})
def analysis(request: Request, access: ReplayReader) -> Any:
    """The analysis of a finished game (missed lay-downs, missed hits, discards that fed the next player,
    turning points), for whoever may read its replay (a seat, a spectator or ``?share=``); 202 while it is
    computed, 409 ``game_not_finished``."""
    status, body = _analyses(request).analysis(access)
    if status != 200:
        return JSONResponse(body, status_code=status)
    return body
