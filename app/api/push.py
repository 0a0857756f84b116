"""REST routes of Web Push (docs/protocol.md, "Turn alerts"): the server's public key and a seat's subscriptions.
Thin: the work is in ``app.services.push``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from app.services.push import PushService

from . import schemas
from .deps import SeatToken
from .schemas import RequestBody


class PushKeys(RequestBody):
    p256dh: str = Field(max_length=128, description="the browser's P-256 public key, base64url")
    auth: str = Field(max_length=64, description="the 16-byte authentication secret, base64url")


class PushSubscribe(RequestBody):
    """A browser's ``PushSubscription.toJSON()`` plus the language of its alerts."""

    endpoint: str = Field(max_length=1024)
    keys: PushKeys
    lang: str | None = Field(default=None, max_length=8)
    # toJSON() carries it (when the subscription ends, ms since the epoch, or null); taken and not used. Any
    # other key is 422 ``invalid_request`` (``RequestBody``: unknown fields refused).
    expirationTime: int | float | None = None  # noqa: N815 - the browser's name


class PushUnsubscribe(RequestBody):
    endpoint: str = Field(max_length=1024)


class PushState(BaseModel):
    subscribed: bool


class PushKeyOut(BaseModel):
    public_key: str

ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": schemas.ErrorOut} for code in (401, 403, 404, 422)}

router = APIRouter(prefix="/api", responses=ERRORS)


def get_push(request: Request) -> PushService:
    push: PushService = request.app.state.push
    return push


Push = Annotated[PushService, Depends(get_push)]


@router.get("/push/key", response_model=PushKeyOut)
def push_key(push: Push) -> Any:
    """The VAPID public key (base64url, uncompressed P-256 point) a browser subscribes with
    (``applicationServerKey``)."""
    return {"public_key": push.public_key}


@router.put("/tables/{table_id}/push", response_model=PushState)
def subscribe(table_id: str, body: PushSubscribe, token: SeatToken, push: Push) -> Any:
    """Store this browser's push subscription (``PushSubscription.toJSON()``) for the token's seat: that seat's
    turn alerts and timer reminders reach this browser when no page of the seat is visible. Idempotent."""
    return push.subscribe(table_id, token, body.endpoint, body.keys.p256dh, body.keys.auth, body.lang)


@router.delete("/tables/{table_id}/push", response_model=PushState)
def unsubscribe(table_id: str, body: PushUnsubscribe, token: SeatToken, push: Push) -> Any:
    """Forget this browser's subscription for the token's seat."""
    return push.unsubscribe(table_id, token, body.endpoint)
