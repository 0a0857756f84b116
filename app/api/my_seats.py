"""A browser's seats (docs/protocol.md): the tables this browser holds seats at, and moving a
seat to another device with a one-time link (``app.services.seat_transfer``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from app.realtime.backends import MemoryNotifier
from app.services.my_tables import my_tables
from app.services.seat_transfer import SeatTransfers

from .deps import SeatToken, Service, cookie_name, link_base
from .devices import device_name
from .routes import ERRORS, set_seat_cookie
from .schemas import RequestBody, SeriesGame, Standing

router = APIRouter(prefix="/api", responses=ERRORS)

COOKIE_PREFIX = cookie_name("")




class MyTable(BaseModel):
    table_id: str
    ruleset: str
    created_at: str
    seat: int
    name: str = Field(description="this browser's name at the table")
    players: list[str]
    badge: str = Field(description="your_turn, waiting or finished")
    status: str = Field(description="waiting, playing or finished")
    link: str
    games: list[SeriesGame] = Field(description="every game at the table (the first and its rematches)")
    standings: list[Standing] = Field(description="the standings across the table's finished games")


class MyTablesOut(BaseModel):
    tables: list[MyTable]


@router.get("/my/tables", response_model=MyTablesOut)
def list_my_tables(request: Request, service: Service) -> Any:
    """The tables this browser holds seats at (from its seat cookies), newest first."""
    tokens = {name[len(COOKIE_PREFIX):]: value for name, value in request.cookies.items()
              if name.startswith(COOKIE_PREFIX) and value}
    return {"tables": my_tables(service, tokens)}


class TransferOut(BaseModel):
    link: str = Field(description="the one-time link that moves this seat to the device that opens it")
    expires_at: str
    qr_svg: str = Field(description="the link as a QR code (SVG)")


class ClaimIn(RequestBody):
    code: str = Field(min_length=1, max_length=64)


class ClaimedSeat(BaseModel):
    table_id: str
    seat: int
    name: str
    token: str


def _transfers(request: Request) -> SeatTransfers:
    transfers: SeatTransfers = request.app.state.seat_transfers
    return transfers


@router.post("/tables/{table_id}/seat/transfer", response_model=TransferOut)
def offer_transfer(table_id: str, request: Request, token: SeatToken) -> Any:
    """My seat's one-time link (and QR code) for another device; an earlier link stops working."""
    return _transfers(request).offer(table_id, token, link_base(request))


@router.post("/tables/{table_id}/seat/claim", response_model=ClaimedSeat)
def claim_seat(table_id: str, body: ClaimIn, request: Request, response: Response, service: Service) -> Any:
    """Take over the seat of a one-time link on this device (sets the seat cookie); the old device's token and
    sockets stop working."""
    notifier = service.notifier
    if not isinstance(notifier, MemoryNotifier):
        notifier = MemoryNotifier(request.app.state.hub)
    claimed = _transfers(request).claim(table_id, body.code, notifier, device_name(request.headers.get("user-agent")))
    set_seat_cookie(request, response, table_id, claimed["token"])
    return claimed
