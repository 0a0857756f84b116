"""Replay routes (docs/protocol.md, "Replays"): a game's record and steps, its game record (docs/record.md) to
download and to open again, share links, and the series of a table. Every route that reads a game declares
``access: ReplayReader`` (``app.api.deps.replay_reader``): one check for seats, spectators and share links."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from app.services.archive import RecordError, import_records, parse_record
from app.services.errors import ServiceError
from app.services.games import GameService
from app.services.replays import ReplayAccess
from app.services.series import series
from app.services.shares import create_share, list_shares, revoke_share

from . import schemas
from .deps import Number, ReplayReader, SeatToken, Service, SharedReader, Token, link_base
from .routes import ERRORS

router = APIRouter(prefix="/api", responses=ERRORS, tags=["replays"])
Seat = Annotated[int | None, Query(ge=0, le=schemas.INT_MAX,
                                   description="view the finished game as this seat saw it")]


@router.get("/tables/{table_id}/games/{number}/replay", response_model=schemas.ReplayRecordOut)
def replay_record(access: ReplayReader, service: Service) -> Any:
    """The full record of a finished game: rule set, options, seed, seats, every command with its time, its
    round and turn, and the rounds' first steps. Of a running game only the public record (``public`` true):
    no seed, command types, spectator events."""
    return service.replay_record(access)


@router.get("/tables/{table_id}/games/{number}/replay/{step}", response_model=schemas.ReplayStepOut)
def replay_step(access: ReplayReader, step: Number, service: Service, seat: Seat = None) -> Any:
    """The full state (every hand) after ``step`` commands of a finished game, rebuilt by the engine, or with
    ``?seat=N`` that seat's view and events then; of a running game the spectator's view and events at that
    step (``public`` true)."""
    return service.replay_step(access, step, seat)


@router.get("/tables/{table_id}/games/{number}/record", response_model=schemas.GameRecordOut,
            responses={200: {"description": "the game record (docs/record.md), as a download"}})
def download_record(access: ReplayReader, service: Service) -> Response:
    """The game record of a finished game (docs/record.md) as a file; 409 ``game_not_finished`` before."""
    return _record_file(service, access, f"{access.table_id}-game{access.number}")


def _record_file(service: Service, access: ReplayAccess, name: str) -> Response:
    record = service.game_record(access)
    return Response(json.dumps(record, ensure_ascii=False), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="phase10-{record["ruleset"]}-{name}.json"'})


@router.get("/shared/{share}/replay", response_model=schemas.ReplayRecordOut)
def shared_replay_record(access: SharedReader, service: Service) -> Any:
    """A share link's game: its full record, as ``/tables/{table_id}/games/{number}/replay`` but naming no
    table (``table_id`` and ``game_id`` are null); 401 ``bad_share`` once the link is revoked."""
    return service.replay_record(access)


@router.get("/shared/{share}/replay/{step}", response_model=schemas.ReplayStepOut)
def shared_replay_step(access: SharedReader, step: Number, service: Service, seat: Seat = None) -> Any:
    """A share link's game after ``step`` commands (as ``/tables/{table_id}/games/{number}/replay/{step}``)."""
    return service.replay_step(access, step, seat)


@router.get("/shared/{share}/record", response_model=schemas.GameRecordOut,
            responses={200: {"description": "the game record (docs/record.md), as a download"}})
def shared_record(access: SharedReader, service: Service) -> Response:
    """A share link's game record (docs/record.md) as a file."""
    return _record_file(service, access, f"shared-game{access.number}")


RECORD_BODY = {"requestBody": {"required": True, "description": "a game record (docs/record.md), as its file holds it",
                               "content": {"application/json": {"schema": {"type": "object"}}}}}


@router.post("/records", status_code=201, response_model=schemas.ImportedRecord,
             responses={413: {"model": schemas.ErrorOut}}, openapi_extra=RECORD_BODY)
async def open_record(request: Request, service: Service) -> Any:
    """Open a game record: the body is the record file's text, read strictly (UTF-8 without a byte order mark,
    nested at most 32 deep); it is replayed through the engine (every command must be accepted and the game
    must end as recorded) and kept as a replay-only table that anyone with its link may watch. Every refusal
    is 422 with a stable code (docs/record.md, "Reading a record"); nothing is stored then. 429
    ``too_many_records`` past the hourly limit of an address."""
    client = request.client.host if request.client else "unknown"
    uploads = request.app.state.record_uploads
    if uploads.blocked(client):
        raise ServiceError(429, "too_many_records", "too many records opened from this address; try again later")
    uploads.hit(client)
    raw = await request.body()
    table_id, numbers = await run_in_threadpool(_open, service, raw, request.app.state.settings.max_record_bytes)
    return {"table_id": table_id, "number": numbers[0], "replay": f"/tables/{table_id}/games/{numbers[0]}/replay"}


def _open(service: GameService, raw: bytes, limit: int) -> tuple[str, list[int]]:
    record = parse_record(raw, limit)
    if not isinstance(record, dict) or record.get("format") != "phase10-game-record":
        raise RecordError("not a game record (expected \"format\": \"phase10-game-record\")")
    return import_records(service.db, record, service.catalog, finished_only=True)


@router.post("/tables/{table_id}/games/{number}/shares", status_code=201, response_model=schemas.ShareOut)
def make_share(table_id: str, number: Number, request: Request, service: Service, token: SeatToken) -> Any:
    """A seat of the table: a new read-only share link of this finished game (the token is shown only here);
    its address, ``/shared/{token}``, names no table. With the seat cookie only from this site's pages (403
    ``cross_origin``). At most 20 links a game (409 ``too_many_shares``), also under concurrent requests."""
    return create_share(service, table_id, token, number, link_base(request))


@router.get("/tables/{table_id}/games/{number}/shares", response_model=schemas.SharesOut)
def get_shares(table_id: str, number: Number, service: Service, token: Token) -> Any:
    """A seat of the table: this game's share links (without tokens), and which it may revoke."""
    return {"shares": list_shares(service, table_id, token, number)}


@router.delete("/tables/{table_id}/games/{number}/shares/{share_id}", response_model=schemas.SharesOut)
def delete_share(table_id: str, number: Number, share_id: Number, service: Service, token: SeatToken) -> Any:
    """The host (any link) or the seat that made it: revoke a share link; everything it opened stops working
    at once (401 ``bad_share``). With the seat cookie only from this site's pages (403 ``cross_origin``).
    Answers the game's remaining links."""
    revoke_share(service, table_id, token, number, share_id)
    return {"shares": list_shares(service, table_id, token, number)}


@router.get("/tables/{table_id}/series", response_model=schemas.SeriesOut)
def table_series(table_id: str, service: Service, token: Token) -> Any:
    """Every game at the table with winners and scores, and the standings across its finished games."""
    return series(service, table_id, token)
