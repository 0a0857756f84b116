"""The analysis of a finished game over REST (docs/protocol.md "Analysis"). Thin: ``app/services/analyses.py``."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.services.analyses import Analyses

from .deps import ReplayReader, SharedReader
from .routes import ERRORS

router = APIRouter(prefix="/api", responses=ERRORS)


class MovePartOut(BaseModel):
    do: Literal["take", "draw", "hit", "discard", "lay", "play"]
    card: dict[str, Any] | None = Field(default=None, description="the card, as in views")
    group: dict[str, Any] | None = Field(default=None, description="a hit's group (its cards left out)")


class MarkOut(BaseModel):
    step: int = Field(description="the replay step (GET .../replay/{step}) that shows the position")
    seat: int
    kind: Literal["missed_laydown", "missed_hit", "fed_next", "turning_point", "discarded_hit", "missed_go_out",
                  "missed_pickup"]
    round: int
    points: int | None
    card: dict[str, Any] | None = Field(default=None, description="coaching marks: the card the mark is about")
    move: list[MovePartOut] | None = Field(default=None, description="coaching marks: the better move in parts")
    commands: list[dict[str, Any]] | None = Field(
        default=None, description="coaching marks: the better move's commands, each legal after the ones before")


class PlayerCardOut(BaseModel):
    seat: int
    missed_laydowns: int
    missed_hits: int
    missed_hit_points: int
    fed_next: int
    discarded_hits: int
    missed_go_outs: int
    missed_pickups: int
    coaching_points: int


class AnalysisOut(BaseModel):
    version: int = Field(description="the analysis format version")
    ruleset: str
    points: bool = Field(description="whether the rule set's cards count points at a round's end")
    marks: list[MarkOut] = Field(description="sorted by step")
    players: list[PlayerCardOut]


class PendingOut(BaseModel):
    status: Literal["pending"]


def _analyses(request: Request) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


@router.get("/tables/{table_id}/games/{number}/analysis", response_model=AnalysisOut,
            response_model_exclude_unset=True,
            responses={202: {"model": PendingOut, "description": "being computed: ask again shortly"}})
def analysis(request: Request, access: ReplayReader) -> Any:
    """The analysis of a finished game (missed lay-downs, missed hits, discards that fed the next player,
    turning points, discarded hits, missed go-outs, missed pickups), for whoever may read its replay (a seat,
    a spectator; a share link's holder reads ``/api/shared/{share}/analysis``); 202 while it is computed, 409
    ``game_not_finished``."""
    status, body = _analyses(request).analysis(access)
    if status != 200:
        return JSONResponse(body, status_code=status)
    return body


@router.get("/shared/{share}/analysis", response_model=AnalysisOut, response_model_exclude_unset=True,
            responses={202: {"model": PendingOut, "description": "being computed: ask again shortly"}})
def shared_analysis(request: Request, access: SharedReader) -> Any:
    """The analysis of a share link's game (as ``/tables/{table_id}/games/{number}/analysis``)."""
    status, body = _analyses(request).analysis(access)
    if status != 200:
        return JSONResponse(body, status_code=status)
    return body
