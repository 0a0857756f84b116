"""REST routes under /api: tables, seats, the game, commands, hints and replays. Thin by design."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, Request, Response

from app import fastjson
from app.autoplay.timers import store_clock

from . import schemas
from .deps import Number, SeatToken, SeatViewer, Service, Since, Token, cookie_name, is_https, link_base

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": schemas.ErrorOut} for code in (401, 403, 404, 409, 422, 429)
}

router = APIRouter(prefix="/api", responses=ERRORS)


def set_seat_cookie(request: Request, response: Response, table_id: str, token: str) -> None:
    secure = request.app.state.settings.cookie_secure or is_https(request)  # Secure whenever served over HTTPS
    response.set_cookie(cookie_name(table_id), token, httponly=True, samesite="lax", path="/",
                        secure=secure, max_age=60 * 60 * 24 * 365)


@router.get("/rulesets", response_model=list[schemas.RulesetInfo])
def list_rulesets(service: Service) -> Any:
    """Every rule set of the registry with its title, summary, player range and options schema."""
    return service.rulesets()


@router.post("/tables", status_code=201, response_model=schemas.CreatedTable)
def create_table(body: schemas.CreateTable, request: Request, response: Response, service: Service) -> Any:
    """Create a private table; the creator is the host (seat 0). Sets the seat cookie. ``turn_timer`` and
    ``stand_in`` are stored like ``PUT /api/tables/{id}/clock``, in the same transaction."""
    setup = None
    if body.turn_timer != "off" or body.stand_in or body.stand_in_level is not None:
        setup = partial(store_clock, turn_timer=body.turn_timer, stand_in=body.stand_in,
                        stand_in_level=body.stand_in_level)
    created = service.create_table(body.ruleset, body.seats, body.options, body.spectators, body.name, setup)
    created["invite_link"] = service.invite_link(created["table_id"], created["join_code"], link_base(request))
    set_seat_cookie(request, response, created["table_id"], created["token"])
    return created


@router.get("/tables/{table_id}", response_model=schemas.TableInfo)
def get_table(table_id: str, service: Service) -> Any:
    """Public table info: rule set, options, seats (names, connected flags, host), status, game."""
    return service.table_info(table_id)


@router.post("/tables/{table_id}/join", response_model=schemas.JoinedTable)
def join_table(table_id: str, body: schemas.JoinTable, request: Request, response: Response,
               service: Service) -> Any:
    """Take a seat with the join code; sets the seat cookie. Wrong codes are rate-limited."""
    client = request.client.host if request.client else "unknown"
    joined = service.join(table_id, body.name, body.code, client)
    set_seat_cookie(request, response, table_id, joined["token"])
    return joined


@router.post("/tables/{table_id}/seats/order", response_model=schemas.TableInfo)
def reorder_seats(table_id: str, body: schemas.Reorder, service: Service, token: SeatToken) -> Any:
    """Host only, before the start: new seat order as a permutation of the current seat numbers."""
    return service.reorder(table_id, token, body.order)


@router.delete("/tables/{table_id}/seats/{seat}", response_model=schemas.TableInfo)
def remove_seat(table_id: str, seat: Number, service: Service, token: SeatToken) -> Any:
    """Host only, before the start: remove a seat (later seats move up)."""
    return service.remove_seat(table_id, token, seat)


@router.post("/tables/{table_id}/start", response_model=schemas.TableInfo)
def start_game(table_id: str, service: Service, token: SeatToken) -> Any:
    """Host only: deal the first game with the seated players."""
    return service.start(table_id, token)


@router.get("/tables/{table_id}/view", response_model=schemas.ViewOut)
def get_view(table_id: str, service: Service, token: Token) -> Any:
    """My seat's view (or the spectator view when the table allows spectators)."""
    return service.view(table_id, token)


@router.post("/tables/{table_id}/commands", response_model=schemas.CommandResult)
async def submit_command(table_id: str, body: schemas.CommandIn, service: Service, viewer: SeatViewer) -> Any:
    """Submit a command; idempotent by command_id; expected_version guards against stale clients. On the event
    loop, by the socket's own path (``GameService.submit_on_loop``); the answer is encoded as it is, not
    validated again through its model (the view is the engine's)."""
    result = await service.submit_on_loop(table_id, viewer.seat_id, body.command_id, body.expected_version,
                                          body.command, with_view=True)
    return Response(fastjson.dumps({name: result[name] for name in COMMAND_RESULT}), media_type="application/json")


COMMAND_RESULT = tuple(schemas.CommandResult.model_fields)


@router.get("/tables/{table_id}/events", response_model=schemas.EventsOut)
def events_since(table_id: str, service: Service, token: Token, since: Since = 0) -> Any:
    """Every event after version ``since``, redacted for my seat."""
    return service.events_since(table_id, token, since)


@router.get("/tables/{table_id}/hint", response_model=schemas.HintOut)
def hint(table_id: str, service: Service, token: Token) -> Any:
    """The solver's suggestion for my current phase (groups of card ids) or null."""
    return service.hint(table_id, token)
