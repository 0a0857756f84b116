"""Bot seats and table clocks over REST; the wire format is in docs/protocol.md, "Bots".

* ``GET /api/tables/{id}/bots`` — bot levels, the table's bot seats, ``turn_timer``, ``stand_in``, the seats a
  stand-in plays for now and the running timer;
* ``POST /api/tables/{id}/bots`` — host, waiting room: add a bot seat ``{"level": "normal", "name": ...}``;
* ``DELETE /api/tables/{id}/bots/{seat}`` — host, waiting room: remove a bot seat;
* ``PUT /api/tables/{id}/clock`` — host, any time: ``{"turn_timer": "off|relaxed|fast|1h|12h|1d|3d",
  "stand_in": bool, "stand_in_level": "easy|normal|hard"}``.

Every change bumps the table revision and is published like any lobby change, so sockets get the new table.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from sqlalchemy import select

from app.api.deps import Number, SeatToken, Service
from app.api.schemas import BotInfo, Name, RequestBody, TableInfo, TimerInfo
from app.autoplay.models import BotSeat
from app.autoplay.timers import TIMER_MODES, TimerMode, bot_levels, forget, store_clock, timer_seconds
from app.bots import LEVELS, BotLevel
from app.persistence.models import Seat
from app.services.errors import ServiceError
from app.services.lobby import check_name_free, free_bot_name

router = APIRouter(prefix="/api", tags=["bots"])

class AddBot(RequestBody):
    level: BotLevel = "normal"
    name: Name | None = None


class ClockIn(RequestBody):
    turn_timer: TimerMode | None = None
    stand_in: bool | None = None
    stand_in_level: BotLevel | None = Field(
        None, description="the level of the bot that stands in for an absent player at this table (easy, normal or "
        "hard; the server's default until set); anything else is refused with 422 invalid_request, field "
        "stand_in_level")


class BotsOut(BaseModel):
    bots: list[BotInfo]
    turn_timer: str = Field(description="off, relaxed, fast, 1h, 12h, 1d or 3d")
    stand_in: bool
    stand_ins: list[int] = Field(description="seats a stand-in bot plays for now")
    timer: TimerInfo | None
    levels: list[str] = Field(description="the bot levels on offer, weakest first")
    stand_in_level: str = Field(description="the level of the bot that stands in for an absent player at this table")
    default_stand_in_level: str = Field(description="the server's default stand-in level")
    turn_timers: dict[str, float | None] = Field(description="seconds per decision of each turn_timer mode")
    stand_in_grace_seconds: float


class AddedBot(BaseModel):
    seat: int
    level: str
    table: TableInfo


def _runner(request: Request) -> Any:
    runner = getattr(request.app.state, "bots", None)
    if runner is None:
        raise ServiceError(404, "not_found", "bots are not enabled on this server")
    return runner


@router.get("/tables/{table_id}/bots", response_model=BotsOut)
def get_bots(table_id: str, request: Request, service: Service) -> Any:
    """The table's bot seats and clock, and the levels and timer lengths on offer."""
    runner = _runner(request)
    with service.db.read() as s:
        table = service.repo.table(s, table_id)
        positions = {x.id: x.position for x in s.scalars(select(Seat).where(Seat.table_id == table.id))}
        out = runner.table_extras(s, table_id, positions, service.repo.game(s, table_id))
    out["levels"] = list(LEVELS)
    out["default_stand_in_level"] = runner.settings.stand_in_level
    out["turn_timers"] = {mode: timer_seconds(mode, runner.settings) for mode in TIMER_MODES}
    out["stand_in_grace_seconds"] = runner.settings.stand_in_grace_seconds
    return out


@router.post("/tables/{table_id}/bots", status_code=201, response_model=AddedBot)
def add_bot(table_id: str, body: AddBot, service: Service, token: SeatToken) -> Any:
    """Host, before the start: a bot takes the next free seat."""
    with service.db.write() as s:
        table, seats = service.lobby.host_lobby(s, table_id, token)
        if len(seats) >= table.capacity:
            raise ServiceError(409, "table_full", "every seat is taken")
        count = len(bot_levels(s, table_id)) + 1
        if body.name:
            check_name_free(seats, body.name)
        name = body.name or free_bot_name(seats, count, body.level)
        seat = Seat(table_id=table_id, position=len(seats), name=name,
                    is_host=False, is_bot=True, token_hash=None)
        s.add(seat)
        s.flush()
        s.add(BotSeat(seat_id=seat.id, level=body.level))
        service.repo.bump(table)
        s.flush()
        forget(s, table_id)
        info = service.tables.info(s, table, [*seats, seat], with_game=False)
        service.changes.publish(s, table_id, 0)
    service.after_commit(table_id, 0)
    return {"seat": seat.position, "level": body.level, "table": info}


@router.delete("/tables/{table_id}/bots/{seat}", response_model=TableInfo)
def remove_bot(table_id: str, seat: Number, service: Service, token: SeatToken) -> Any:
    """Host, before the start: remove a bot seat (later seats move up)."""
    with service.db.read() as s:
        row = s.scalar(select(Seat).where(Seat.table_id == table_id, Seat.position == seat))
        if row is None:
            service.repo.table(s, table_id)
            raise ServiceError(404, "seat_not_found", f"no seat {seat}")
        if not row.is_bot:
            raise ServiceError(409, "not_a_bot", f"seat {seat} is not a bot seat")
    return service.remove_seat(table_id, token, seat)


@router.put("/tables/{table_id}/clock", response_model=TableInfo)
def set_clock(table_id: str, body: ClockIn, request: Request, service: Service, token: SeatToken) -> Any:
    """Host, any time: the table's ``turn_timer``, ``stand_in`` and ``stand_in_level`` options."""
    with service.db.write() as s:
        table = service.repo.table(s, table_id, lock=True)
        viewer = service.repo.seated(s, table, token)
        if not viewer.is_host:
            raise ServiceError(403, "not_host", "only the host may do this")
        # a timer switched (back) on: a full decision
        store_clock(s, table_id, body.turn_timer, body.stand_in, body.stand_in_level)
        service.repo.bump(table)
        s.flush()
        info = service.tables.info(s, table)
        service.changes.publish(s, table_id, 0)
    service.after_commit(table_id, 0)
    return info
