"""Table chat and quick emoji reactions: a small REST route that broadcasts through the realtime hub.

Kept out of the engine and out of the game record: messages live in memory (the last ``KEEP`` per table)
and reach the sockets of this process as ``{"type": "chat", ...}``. Only seated players may talk; the seat
comes from the same token (cookie or Bearer) as every other table route.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import defaultdict, deque
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.api.deps import Service, Token
from app.services.errors import ServiceError

KEEP = 50
REACTIONS = ("👍", "😂", "😮", "😢", "🎉", "🙈")
BURST = 5          # messages ...
BURST_SECONDS = 5.0  # ... per this many seconds and seat

router = APIRouter(prefix="/api")

_history: dict[str, deque[dict[str, Any]]] = defaultdict(lambda: deque(maxlen=KEEP))
_recent: dict[tuple[str, int], deque[float]] = defaultdict(lambda: deque(maxlen=BURST))
_ids = itertools.count(1)

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=300)]


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Text | None = Field(None, description="a message (1-300 characters)")
    emoji: str | None = Field(None, description=f"a quick reaction, one of {' '.join(REACTIONS)}")


class ChatMessage(BaseModel):
    type: str = "chat"
    id: int
    seat: int
    name: str
    text: str | None = None
    emoji: str | None = None
    at: float


class ChatLog(BaseModel):
    messages: list[ChatMessage]


@router.get("/tables/{table_id}/chat", response_model=ChatLog)
def chat_log(table_id: str, service: Service, token: Token) -> Any:
    """The last messages and reactions of the table (anyone who may see the table)."""
    table = service.table_info(table_id)
    if not table["spectators"]:
        service.authenticate(table_id, token)  # seated only
    return {"messages": list(_history[table_id])}


@router.post("/tables/{table_id}/chat", response_model=ChatMessage, status_code=201)
async def post_chat(table_id: str, body: ChatIn, request: Request, service: Service, token: Token) -> Any:
    """Say something, or react with an emoji; everyone at the table sees it at once."""
    if (body.text is None) == (body.emoji is None):
        raise ServiceError(422, "invalid_chat", "send exactly one of text or emoji")
    if body.emoji is not None and body.emoji not in REACTIONS:
        raise ServiceError(422, "invalid_chat", f"emoji must be one of {' '.join(REACTIONS)}")
    viewer, table = await asyncio.to_thread(service.authenticate, table_id, token)
    if viewer.seat_id is None:
        raise ServiceError(403, "not_seated", "only seated players may chat")
    seat = await asyncio.to_thread(_position, service, table_id, token)
    now = time.monotonic()
    recent = _recent[(table_id, viewer.seat_id)]
    if len(recent) == BURST and now - recent[0] < BURST_SECONDS:
        raise ServiceError(429, "chat_rate", "too many messages; wait a moment")
    recent.append(now)
    name = next((s["name"] for s in table["seats"] if s["seat"] == seat), "?")
    message = {"type": "chat", "id": next(_ids), "seat": seat, "name": name, "text": body.text,
               "emoji": body.emoji, "at": time.time()}
    _history[table_id].append(message)
    broadcast(request.app.state.hub, table_id, message)
    return message


def _position(service: Any, table_id: str, token: str | None) -> int:
    view = service.view(table_id, token)
    seat = view.get("seat")
    return int(seat) if seat is not None else 0


def broadcast(hub: Any, table_id: str, message: dict[str, Any]) -> None:
    """Queue ``message`` on every open socket of the table in this process (runs on the hub's loop)."""
    channel = hub.channels.get(table_id)
    if channel is None:
        return
    for conn in list(channel.connections):
        if not conn.closed:
            conn.send(message)
