"""Practice tables over REST (docs/protocol.md, "Play on from here"):
``POST /api/tables/{id}/games/{n}/practice`` (or ``POST /api/shared/{token}/practice`` through a share link) with
``{"step", "seat", "level"}`` — whoever may read the finished game's replay starts a practice table at that step,
in that seat, with bots of ``level`` in the others (``app.services.practice``)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from app.autoplay.models import BotSeat
from app.persistence.models import Seat
from app.services.errors import ServiceError
from app.services.practice import start_practice
from app.services.replays import ReplayAccess

from . import schemas
from .deps import Number, Service, ShareInPath, Token, origin_allowed
from .routes import ERRORS, set_seat_cookie

router = APIRouter(prefix="/api", responses=ERRORS, tags=["replays"])


class PracticeIn(schemas.RequestBody):
    step: int = Field(ge=0, le=schemas.INT_MAX, description="the step of the finished game to play on from")
    seat: int = Field(ge=0, le=schemas.INT_MAX, description="the engine seat the player takes")
    level: Literal["normal", "hard"] = Field("normal", description="the level of the bots in the other seats")


class PracticeOut(BaseModel):
    table_id: str
    seat: int
    token: str
    url: str = Field(description="the practice table's page")
    table: schemas.TableInfo


@router.post("/tables/{table_id}/games/{number}/practice", status_code=201, response_model=PracticeOut)
def practice(table_id: str, number: Number, body: PracticeIn, request: Request, response: Response,
             service: Service, token: Token) -> Any:
    """Play on from here: a new practice table at step ``step`` of this finished game, the asker in ``seat``
    and bots of ``level`` in the other seats; answers the table's page and the seat's token (and sets its seat
    cookie), as a join does. The readers of the replay may ask; a page of another site may not (403
    ``cross_origin``). The body is checked first (422), then the access as for every replay route."""
    _same_site(request)
    return _start(request, response, body, service.replay_access(table_id, number, token))


@router.post("/shared/{share}/practice", status_code=201, response_model=PracticeOut)
def practice_shared(share: ShareInPath, body: PracticeIn, request: Request, response: Response,
                    service: Service) -> Any:
    """The same through a share link (401 ``bad_share`` once revoked); the practice table does not name the
    shared game's table."""
    _same_site(request)
    return _start(request, response, body, service.share_access(share))


def _same_site(request: Request) -> None:
    """A request with the seat cookie (no Bearer token) from another site's page is refused."""
    if request.headers.get("authorization") is None and not origin_allowed(request, request.app.state.settings):
        raise ServiceError(403, "cross_origin", "a practice table is started from this site's pages")


def _start(request: Request, response: Response, body: PracticeIn, access: ReplayAccess) -> Any:
    service = request.app.state.service

    def bot_seats(s: Session, seats: list[Seat]) -> None:
        s.add_all(BotSeat(seat_id=seat.id, level=body.level) for seat in seats)

    started = start_practice(service, access, body.step, body.seat, body.level, bot_seats)
    set_seat_cookie(request, response, started["table_id"], started["token"])
    return started
